// Package demo fills an empty board with a realistic week of one person's
// operations (the board in docs/board.png), written through the board's
// HTTP API by the person and by the agent as in real use, so a newcomer sees
// the product before typing anything, people and organisations in its
// vault included.
package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Result says what Seed did.
type Result struct {
	Seeded bool // false when the board already had cases
	Cases  int  // the cases on the board afterwards
}

// writer sends the seed's requests; the first failure stops the rest.
type writer struct {
	ctx  context.Context
	hc   *http.Client
	base string
	err  error
}

// call sends one request and decodes the answer; with agent set it carries
// x-actor: agent, so the board records the write as the agent's.
func (w *writer) call(method, path string, body any, agent bool) map[string]any {
	if w.err != nil {
		return nil
	}
	out, err := w.do(method, path, body, agent)
	if err != nil {
		w.err = err
	}
	return out
}

func (w *writer) do(method, path string, body any, agent bool) (map[string]any, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encode: %w", method, path, err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(w.ctx, method, w.base+path, rd)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if agent {
		req.Header.Set("x-actor", "agent")
	}
	resp, err := w.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: read: %w", method, path, err)
	}
	var out map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("%s %s: %d %v", method, path, resp.StatusCode, out["error"])
	}
	return out, nil
}

// id reads a record's id from a write's answer ({"case": {"id": ...}}).
func id(res map[string]any, key string) string {
	rec, _ := res[key].(map[string]any)
	s, _ := rec["id"].(string)
	return s
}

// countCases is how many case nodes the board holds, archived included.
func (w *writer) countCases() int {
	res := w.call(http.MethodGet, "/api/cases?includeArchived=1", nil, false)
	list, _ := res["cases"].([]any)
	return len(list)
}

// Seed writes the demo board through the API at base. A board that already
// has cases is left as it is, so seeding twice never duplicates.
func Seed(ctx context.Context, hc *http.Client, base string, now time.Time) (Result, error) {
	w := &writer{ctx: ctx, hc: hc, base: strings.TrimRight(base, "/")}
	if n := w.countCases(); w.err != nil || n > 0 {
		return Result{Cases: n}, w.err
	}
	seed(w, now)
	if w.err != nil {
		return Result{}, fmt.Errorf("seed the demo board: %w", w.err)
	}
	n := w.countCases()
	return Result{Seeded: true, Cases: n}, w.err
}

// seed runs the demo script: each part through the API, in an order that
// keeps the ids the cases are minted with the same on every run.
func seed(w *writer, now time.Time) {
	d := &script{w: w, now: now}
	d.cases()
	d.touches()
	d.vault()
	d.mail()
	d.calendar()
	d.reminders()
	d.priorities()
	d.proposals()
	d.views()
}

// script is the demo's writer and clock, with the ids of the cases the
// later parts link to.
type script struct {
	w   *writer
	now time.Time

	pricing, hiring, home, vat, top50, soc2, deck, seats, portfolio string
}

// day is n days from now as a date; at is that day at hh:mm.
func (d *script) day(n int) string { return d.now.AddDate(0, 0, n).Format("2006-01-02") }

func (d *script) at(n int, hhmm string) string { return d.day(n) + "T" + hhmm }

// cases seeds the initiatives, workstreams and cases, with tasks, some done.
func (d *script) cases() {
	w, day, at := d.w, d.day, d.at
	mk := func(agent bool, body map[string]any) string {
		return id(w.call(http.MethodPost, "/api/cases", body, agent), "case")
	}
	tasks := func(titles ...string) []map[string]any {
		out := []map[string]any{}
		for _, t := range titles {
			out = append(out, map[string]any{"title": t})
		}
		return out
	}
	complete := func(caseID string, n int) {
		for k := 1; k <= n && caseID != ""; k++ {
			w.call(http.MethodPatch, "/api/cases/"+caseID+"/tasks/"+caseID+"-T"+strconv.Itoa(k), map[string]any{"completed": true}, false)
		}
	}

	// Three initiatives, two workstreams, and the cases under and beside them.
	d.pricing = mk(false, map[string]any{"title": "Launch usage-based pricing", "kind": "initiative", "status": "in_progress", "summary": "Move every plan to metered billing by the end of the quarter."})
	billing := mk(false, map[string]any{"title": "Billing migration", "kind": "workstream", "parentId": d.pricing, "status": "in_progress"})
	comms := mk(true, map[string]any{"title": "Customer communication", "kind": "workstream", "parentId": d.pricing, "status": "todo"})
	d.hiring = mk(false, map[string]any{"title": "Hire a founding designer", "kind": "initiative", "status": "in_progress"})
	d.home = mk(false, map[string]any{"title": "Kitchen renovation", "kind": "initiative", "status": "todo", "domain": "life"})

	invoices := mk(false, map[string]any{"title": "Migrate invoices to the new billing provider", "parentId": billing, "status": "in_progress", "labels": []string{"deep-work"}, "dueAt": day(4),
		"tasks": tasks("Map plan ids", "Dry-run on staging", "Reconcile October invoices", "Switch webhooks", "Turn off the old cron")})
	complete(invoices, 3)
	mk(true, map[string]any{"title": "Backfill usage events for Q3", "parentId": billing, "status": "todo", "labels": []string{"blocked"}, "summary": "Blocked on the data team's export."})
	d.vat = mk(true, map[string]any{"title": "VAT handling for EU customers", "parentId": billing, "status": "waiting_for_input", "labels": []string{"waiting-on", "needs-decision"}, "dueAt": day(1)})
	mk(false, map[string]any{"title": "Draft the pricing FAQ", "parentId": comms, "status": "done", "labels": []string{"quick-win"}})
	d.top50 = mk(false, map[string]any{"title": "Email the top 50 accounts about the change", "parentId": comms, "status": "urgent", "labels": []string{"follow-up"}, "dueAt": at(0, "17:00"),
		"tasks": tasks("Pull the account list", "Personalise the intro", "Send in two batches")})
	complete(d.top50, 1)
	d.portfolio = mk(false, map[string]any{"title": "Review the portfolio shortlist", "parentId": d.hiring, "status": "in_progress", "tasks": tasks("Maya R.", "Jonas K.", "Priya S.")})
	complete(d.portfolio, 1)
	mk(true, map[string]any{"title": "Schedule final-round interviews", "parentId": d.hiring, "status": "todo", "labels": []string{"scheduled"}, "dueAt": day(6)})
	mk(false, map[string]any{"title": "Get three quotes for the kitchen", "parentId": d.home, "status": "waiting_for_input", "domain": "life", "labels": []string{"waiting-on"}})
	mk(false, map[string]any{"title": "Choose floor tiles", "parentId": d.home, "status": "todo", "domain": "life", "labels": []string{"needs-decision"}})
	d.soc2 = mk(false, map[string]any{"title": "Renew the SOC 2 report with the auditor", "status": "urgent", "labels": []string{"at-risk"}, "dueAt": day(-1)})
	d.deck = mk(false, map[string]any{"title": "Quarterly board deck", "status": "todo", "labels": []string{"deep-work"}, "dueAt": day(9), "tasks": tasks("Metrics", "Hiring plan", "Runway")})
	mk(false, map[string]any{"title": "Expense report for the Berlin offsite", "status": "done", "labels": []string{"quick-win"}})
	d.seats = mk(true, map[string]any{"title": "Cancel unused design tool seats", "status": "todo", "labels": []string{"quick-win", "delegated"}})
	mk(false, map[string]any{"title": "Read “Working in Public”", "status": "todo", "domain": "life", "labels": []string{"reference", "snoozed"}})
}

// touches seeds stars, a move and notes, by both hands.
func (d *script) touches() {
	w := d.w
	for _, c := range []string{d.pricing, d.top50, d.soc2} {
		w.call(http.MethodPatch, "/api/cases/"+c, map[string]any{"starred": true}, false)
	}
	w.call(http.MethodPatch, "/api/cases/"+d.portfolio, map[string]any{"status": "in_progress"}, true)
	w.call(http.MethodPost, "/api/cases/"+d.vat+"/notes", map[string]any{"text": "The accountant says reverse charge applies to B2B. We still need a decision on the B2C threshold."}, true)
	w.call(http.MethodPost, "/api/cases/"+d.soc2+"/notes", map[string]any{"text": "Auditor needs the access review evidence before the kickoff."}, false)
}

// mail seeds email: some linked to cases, one still unfiled.
func (d *script) mail() {
	w, now := d.w, d.now
	w.call(http.MethodPost, "/api/cases/"+d.vat+"/messages", map[string]any{"source": "gmail", "from": "elena@ledgerwise.example", "to": []string{"me@acme.example"},
		"subject": "Re: VAT on usage invoices", "preview": "Short answer: reverse charge for B2B. For B2C we need to register under OSS once…",
		"body": "Hi,\n\nShort answer: reverse charge for B2B. For B2C we need to register under OSS once you pass the threshold.\n\nCan we talk Thursday?\n\nElena", "receivedAt": now.Add(-3 * time.Hour).Format(time.RFC3339)}, true)
	w.call(http.MethodPost, "/api/cases/"+d.soc2+"/messages", map[string]any{"source": "gmail", "from": "audit@trustline.example", "subject": "Evidence request list (SOC 2 Type II)",
		"preview": "Attached is the request list for this year's period. Items 4, 7 and 12 are new…", "body": "Attached is the request list for this year's period.\n\nItems 4, 7 and 12 are new.", "receivedAt": now.Add(-26 * time.Hour).Format(time.RFC3339), "read": true}, true)
	w.call(http.MethodPost, "/api/cases/"+d.top50+"/messages", map[string]any{"source": "gmail", "from": "me@acme.example", "to": []string{"cto@bigcustomer.example"}, "outbound": true,
		"subject": "Heads-up: pricing changes in Q4", "preview": "Wanted you to hear it from me first…", "body": "Wanted you to hear it from me first: usage-based pricing starts next quarter.", "receivedAt": now.Add(-50 * time.Minute).Format(time.RFC3339), "read": true}, false)
	w.call(http.MethodPost, "/api/messages", map[string]any{"source": "gmail", "from": "maya@studio.example", "to": []string{"me@acme.example"}, "subject": "Portfolio link and availability",
		"preview": "Here is the updated case study. I can do Tuesday or Thursday afternoon…", "body": "Hi,\n\nHere is the updated case study. I can do Tuesday or Thursday afternoon.\n\nMaya", "receivedAt": now.Add(-2 * time.Hour).Format(time.RFC3339)}, true)
}

// calendar seeds events over the coming week.
func (d *script) calendar() {
	w, day := d.w, d.day
	for _, ev := range []map[string]any{
		{"title": "Pricing sync", "date": day(0), "startTime": "10:00", "endTime": "10:30", "caseId": d.pricing, "domain": "work"},
		{"title": "Designer interview: Maya", "date": day(1), "startTime": "14:00", "endTime": "15:00", "caseId": d.hiring, "location": "Studio 2"},
		{"title": "Auditor kickoff call", "date": day(3), "startTime": "09:30", "endTime": "10:15", "caseId": d.soc2},
		{"title": "Berlin offsite", "date": day(2), "allDay": true},
		{"title": "1:1 with Sam", "date": day(-1), "startTime": "16:00", "endTime": "16:30"},
		{"title": "Tile showroom", "date": day(5), "startTime": "11:00", "endTime": "12:00", "domain": "life", "caseId": d.home},
	} {
		w.call(http.MethodPost, "/api/events", ev, false)
	}
}

// reminders seeds reminders, one of them at a time of day, one done and
// one with a mail.
func (d *script) reminders() {
	w, now, day, at := d.w, d.now, d.day, d.at
	rem := func(agent bool, body map[string]any) string {
		return id(w.call(http.MethodPost, "/api/reminders", body, agent), "reminder")
	}
	rem(false, map[string]any{"title": "Renew passport", "dueAt": day(20), "domain": "life", "tasks": []map[string]any{{"title": "Book a photo appointment", "done": true}, {"title": "Fill in the form"}}})
	rem(true, map[string]any{"title": "Pay quarterly VAT", "dueAt": at(3, "15:00"), "domain": "work", "labels": []string{"scheduled"}, "caseId": d.vat})
	rem(false, map[string]any{"title": "Follow up with the landlord about the deposit", "dueAt": day(-2), "domain": "life", "labels": []string{"follow-up"}})
	if done := rem(false, map[string]any{"title": "Send thank-you notes to the offsite hosts", "dueAt": day(-4)}); done != "" {
		w.call(http.MethodPatch, "/api/reminders/"+done, map[string]any{"status": "done"}, false)
	}
	if water := rem(false, map[string]any{"title": "Water bill dispute", "dueAt": day(8), "domain": "life"}); water != "" {
		w.call(http.MethodPost, "/api/reminders/"+water+"/messages", map[string]any{"source": "gmail", "from": "billing@citywater.example", "subject": "Your statement is ready",
			"preview": "Statement for account ending 0412 is now available.", "body": "Statement for account ending 0412 is now available.", "receivedAt": now.Add(-5 * time.Hour).Format(time.RFC3339)}, true)
	}
}

// priorities seeds the person's priorities.
func (d *script) priorities() {
	w := d.w
	for i, text := range []string{
		"Ship usage-based pricing to every plan by the end of the quarter",
		"Hire a founding designer before the Series A",
		"Keep Friday mornings for deep work",
	} {
		w.call(http.MethodPost, "/api/priorities", map[string]any{"text": text, "position": i + 1}, false)
	}
}

// proposals seeds proposals from the agent waiting for the person, one of
// them with a change the person made to its case since.
func (d *script) proposals() {
	w, day := d.w, d.day
	w.call(http.MethodPost, "/api/pending", map[string]any{"verb": "update_case", "summary": "Move the board deck to In progress: the CFO sent the numbers",
		"payload": map[string]any{"id": d.deck, "status": "in_progress", "dueAt": day(7)}}, true)
	w.call(http.MethodPatch, "/api/cases/"+d.deck, map[string]any{"dueAt": day(8)}, false)
	w.call(http.MethodPost, "/api/pending", map[string]any{"verb": "archive", "summary": "Archive the design tool seats case: seats already cancelled by finance",
		"payload": map[string]any{"id": d.seats}}, true)
}

// views seeds saved views and a template.
func (d *script) views() {
	w := d.w
	w.call(http.MethodPost, "/api/views", map[string]any{"name": "Work, starred", "filters": map[string]any{"domain": "work", "starred": true}}, false)
	w.call(http.MethodPost, "/api/views", map[string]any{"name": "Waiting on others", "filters": map[string]any{"label": "waiting-on"}}, false)
	w.call(http.MethodPost, "/api/templates", map[string]any{"name": "Vendor onboarding", "title": "Onboard vendor: ", "labels": []string{"follow-up"},
		"tasks": []string{"Collect tax form", "Security review", "Add to payables"}}, false)
}
