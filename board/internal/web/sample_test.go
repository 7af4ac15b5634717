package web

import (
	"strconv"
	"time"
)

// sample fills a board with a realistic week of one person's operations,
// written through the API by the person and by the agent, as in real use.
// It returns the ids of the cases by title.
func sample(b *board) map[string]string {
	b.t.Helper()
	now := time.Now()
	day := func(n int) string { return now.AddDate(0, 0, n).Format("2006-01-02") }
	ids := map[string]string{}
	mk := func(agent bool, body map[string]any) string {
		b.t.Helper()
		res := b.call("POST", "/api/cases", body, agent)
		id := str(res, "case", "id")
		ids[body["title"].(string)] = id
		return id
	}
	tasks := func(titles ...string) []map[string]any {
		out := []map[string]any{}
		for _, t := range titles {
			out = append(out, map[string]any{"title": t})
		}
		return out
	}
	complete := func(caseID string, n int) {
		for k := 1; k <= n; k++ {
			b.call("PATCH", "/api/cases/"+caseID+"/tasks/"+caseID+"-T"+strconv.Itoa(k), map[string]any{"completed": true}, false)
		}
	}

	pricing := mk(false, map[string]any{"title": "Launch usage-based pricing", "kind": "initiative", "status": "in_progress", "summary": "Move every plan to metered billing by the end of the quarter."})
	billing := mk(false, map[string]any{"title": "Billing migration", "kind": "workstream", "parentId": pricing, "status": "in_progress"})
	comms := mk(true, map[string]any{"title": "Customer communication", "kind": "workstream", "parentId": pricing, "status": "todo"})
	hiring := mk(false, map[string]any{"title": "Hire a founding designer", "kind": "initiative", "status": "in_progress"})
	home := mk(false, map[string]any{"title": "Kitchen renovation", "kind": "initiative", "status": "todo", "domain": "life"})

	stripe := mk(false, map[string]any{"title": "Migrate invoices to the new billing provider", "parentId": billing, "status": "in_progress", "labels": []string{"deep-work"}, "dueAt": day(4),
		"tasks": tasks("Map plan ids", "Dry-run on staging", "Reconcile October invoices", "Switch webhooks", "Turn off the old cron")})
	complete(stripe, 3)
	mk(true, map[string]any{"title": "Backfill usage events for Q3", "parentId": billing, "status": "todo", "labels": []string{"blocked"}, "summary": "Blocked on the data team's export."})
	vat := mk(true, map[string]any{"title": "VAT handling for EU customers", "parentId": billing, "status": "waiting_for_input", "labels": []string{"waiting-on", "needs-decision"}, "dueAt": day(1)})
	mk(false, map[string]any{"title": "Draft the pricing FAQ", "parentId": comms, "status": "done", "labels": []string{"quick-win"}})
	top50 := mk(false, map[string]any{"title": "Email the top 50 accounts about the change", "parentId": comms, "status": "urgent", "labels": []string{"follow-up"}, "dueAt": day(0),
		"tasks": tasks("Pull the account list", "Personalise the intro", "Send in two batches")})
	complete(top50, 1)
	portfolio := mk(false, map[string]any{"title": "Review the portfolio shortlist", "parentId": hiring, "status": "in_progress", "tasks": tasks("Maya R.", "Jonas K.", "Priya S.")})
	complete(portfolio, 1)
	mk(true, map[string]any{"title": "Schedule final-round interviews", "parentId": hiring, "status": "todo", "labels": []string{"scheduled"}, "dueAt": day(6)})
	mk(false, map[string]any{"title": "Get three quotes for the kitchen", "parentId": home, "status": "waiting_for_input", "domain": "life", "labels": []string{"waiting-on"}})
	mk(false, map[string]any{"title": "Choose floor tiles", "parentId": home, "status": "todo", "domain": "life", "labels": []string{"needs-decision"}})
	soc2 := mk(false, map[string]any{"title": "Renew the SOC 2 report with the auditor", "status": "urgent", "labels": []string{"at-risk"}, "dueAt": day(-1)})
	deck := mk(false, map[string]any{"title": "Quarterly board deck", "status": "todo", "labels": []string{"deep-work"}, "dueAt": day(9), "tasks": tasks("Metrics", "Hiring plan", "Runway")})
	mk(false, map[string]any{"title": "Expense report for the Berlin offsite", "status": "done", "labels": []string{"quick-win"}})
	mk(true, map[string]any{"title": "Cancel unused design tool seats", "status": "todo", "labels": []string{"quick-win", "delegated"}})
	mk(false, map[string]any{"title": "Read “Working in Public”", "status": "todo", "domain": "life", "labels": []string{"reference", "snoozed"}})

	// Stars, moves and notes, by both hands.
	for _, id := range []string{pricing, top50, soc2} {
		b.call("PATCH", "/api/cases/"+id, map[string]any{"starred": true}, false)
	}
	b.call("PATCH", "/api/cases/"+vat, map[string]any{"status": "waiting_for_input"}, true)
	b.call("POST", "/api/cases/"+vat+"/notes", map[string]any{"text": "The accountant says reverse charge applies to B2B. We still need a decision on the B2C threshold."}, true)
	b.call("POST", "/api/cases/"+soc2+"/notes", map[string]any{"text": "Auditor needs the access review evidence before the kickoff."}, false)

	// Email: some linked to cases, some still in the inbox.
	b.call("POST", "/api/cases/"+vat+"/messages", map[string]any{"source": "gmail", "from": "elena@ledgerwise.example", "to": []string{"me@acme.example"},
		"subject": "Re: VAT on usage invoices", "preview": "Short answer: reverse charge for B2B. For B2C we need to register under OSS once…",
		"body": "Hi,\n\nShort answer: reverse charge for B2B. For B2C we need to register under OSS once you pass the threshold.\n\nCan we talk Thursday?\n\nElena", "receivedAt": now.Add(-3 * time.Hour).Format(time.RFC3339)}, true)
	b.call("POST", "/api/cases/"+soc2+"/messages", map[string]any{"source": "gmail", "from": "audit@trustline.example", "subject": "Evidence request list (SOC 2 Type II)",
		"preview": "Attached is the request list for this year's period. Items 4, 7 and 12 are new…", "body": "Attached is the request list for this year's period.\n\nItems 4, 7 and 12 are new.", "receivedAt": now.Add(-26 * time.Hour).Format(time.RFC3339), "read": true}, true)
	b.call("POST", "/api/cases/"+top50+"/messages", map[string]any{"source": "gmail", "from": "me@acme.example", "to": []string{"cto@bigcustomer.example"}, "outbound": true,
		"subject": "Heads-up: pricing changes in Q4", "preview": "Wanted you to hear it from me first…", "receivedAt": now.Add(-50 * time.Minute).Format(time.RFC3339), "read": true}, false)

	// Calendar.
	ev := func(body map[string]any) { b.call("POST", "/api/events", body, false) }
	ev(map[string]any{"title": "Pricing sync", "date": day(0), "startTime": "10:00", "endTime": "10:30", "caseId": pricing, "domain": "work"})
	ev(map[string]any{"title": "Designer interview: Maya", "date": day(1), "startTime": "14:00", "endTime": "15:00", "caseId": hiring, "location": "Studio 2"})
	ev(map[string]any{"title": "Auditor kickoff call", "date": day(3), "startTime": "09:30", "endTime": "10:15", "caseId": soc2})
	ev(map[string]any{"title": "Berlin offsite", "date": day(2), "allDay": true})
	ev(map[string]any{"title": "1:1 with Sam", "date": day(-1), "startTime": "16:00", "endTime": "16:30"})
	ev(map[string]any{"title": "Tile showroom", "date": day(5), "startTime": "11:00", "endTime": "12:00", "domain": "life", "caseId": home})

	// Reminders.
	rem := func(agent bool, body map[string]any) string {
		return str(b.call("POST", "/api/reminders", body, agent), "reminder", "id")
	}
	rem(false, map[string]any{"title": "Renew passport", "dueAt": day(20), "domain": "life", "tasks": []map[string]any{{"title": "Book a photo appointment", "done": true}, {"title": "Fill in the form"}}})
	rem(true, map[string]any{"title": "Pay quarterly VAT", "dueAt": day(3), "domain": "work", "labels": []string{"scheduled"}, "caseId": vat})
	rem(false, map[string]any{"title": "Follow up with the landlord about the deposit", "dueAt": day(-2), "domain": "life", "labels": []string{"follow-up"}})
	done := rem(false, map[string]any{"title": "Send thank-you notes to the offsite hosts", "dueAt": day(-4)})
	b.call("PATCH", "/api/reminders/"+done, map[string]any{"status": "done"}, false)

	// Inbox items not filed anywhere yet.
	landlord := rem(false, map[string]any{"title": "Water bill dispute", "dueAt": day(8), "domain": "life"})
	b.call("POST", "/api/reminders/"+landlord+"/messages", map[string]any{"source": "gmail", "from": "billing@citywater.example", "subject": "Your statement is ready",
		"preview": "Statement for account ending 0412 is now available.", "receivedAt": now.Add(-5 * time.Hour).Format(time.RFC3339)}, true)

	// Priorities.
	for i, text := range []string{
		"Ship usage-based pricing to every plan by the end of the quarter",
		"Hire a founding designer before the Series A",
		"Keep Friday mornings for deep work",
	} {
		b.call("POST", "/api/priorities", map[string]any{"text": text, "position": i + 1}, false)
	}

	// A proposal from the agent, then a human edit to its target.
	b.call("POST", "/api/pending", map[string]any{"verb": "update_case", "summary": "Move the board deck to In progress: the CFO sent the numbers",
		"payload": map[string]any{"id": deck, "status": "in_progress", "dueAt": day(7)}}, true)
	b.call("PATCH", "/api/cases/"+deck, map[string]any{"dueAt": day(8)}, false)
	b.call("POST", "/api/pending", map[string]any{"verb": "archive", "summary": "Archive the design tool seats case: seats already cancelled by finance",
		"payload": map[string]any{"id": ids["Cancel unused design tool seats"]}}, true)

	// Saved views and a template.
	b.call("POST", "/api/views", map[string]any{"name": "Work, starred", "filters": map[string]any{"domain": "work", "starred": true}}, false)
	b.call("POST", "/api/views", map[string]any{"name": "Waiting on others", "filters": map[string]any{"label": "waiting-on"}}, false)
	b.call("POST", "/api/templates", map[string]any{"name": "Vendor onboarding", "title": "Onboard vendor: ", "labels": []string{"follow-up"},
		"tasks": []string{"Collect tax form", "Security review", "Add to payables"}}, false)
	return ids
}
