package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/client/clienttest"
	"github.com/opsboard/opsboard/shared/wire"
)

// wantTools is every tool this server offers: a tool added, renamed or
// dropped is a change the agent sees, so it must be deliberate.
func wantTools() []string {
	return []string{
		"create_case", "get_case", "list_cases", "update_case", "update_cases", "archive_case", "restore_case", "delete_case", "merge_cases",
		"add_task", "update_task", "complete_task", "delete_task", "add_note", "link_message", "update_message",
		"create_initiative", "create_workstream", "set_parent", "regroup_cases", "get_tree", "list_initiatives", "propose", "list_pending",
		"create_reminder", "list_reminders", "get_reminder", "update_reminder", "complete_reminder", "delete_reminder", "link_reminder", "link_reminder_message",
		"get_priorities", "add_priority", "update_priority", "remove_priority", "set_starred",
		"list_labels", "create_label", "update_label", "delete_label", "list_label_bundles", "install_label_bundle", "uninstall_label_bundle",
		"list_views", "save_view", "delete_view", "list_templates", "save_template", "delete_template", "get_prefs", "set_prefs",
		"search", "agenda", "list_messages",
		"backup_status", "run_backup",
		"find_entity", "get_page", "list_unresolved_senders", "create_page", "update_page", "link_page", "merge_pages",
		"complete_tasks", "link_messages", "what_changed", "undo_agent_writes", "list_toolsets", "enable_toolset",
	}
}

// world is one board and one session shared by the end-to-end subtests,
// which build on each other's records in order.
type world struct {
	board *clienttest.Board
	s     *clienttest.Session
	ids   map[string]string // name -> id minted along the way
	used  map[string]bool   // tools called successfully at least once
}

func (w *world) ok(t *testing.T, name string, args map[string]any, want ...string) string {
	t.Helper()
	out := w.s.OK(t, name, args, want...)
	w.used[name] = true
	return out
}

func (w *world) caseOf(t *testing.T, id string) client.CaseDetail {
	t.Helper()
	var d client.CaseDetail
	w.board.Get(t, "/api/cases/"+id, &d)
	return d
}

// TestEndToEnd drives every tool of the server (--toolsets all) through a
// real MCP session over stdio against a real board, checking the answers and the board's
// state, and that every line on the server's stdout is protocol.
func TestEndToEnd(t *testing.T) {
	board := clienttest.StartBoardEnv(t, clienttest.BackupEnv(t)...)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + board.URL}, server, "--toolsets", "all")
	start := time.Now().UTC().Add(-time.Second).Format(time.RFC3339)
	w := &world{board: board, s: s, ids: map[string]string{}, used: map[string]bool{}}

	t.Run("tools are listed", func(t *testing.T) {
		var got []string
		for _, tl := range w.s.Tools(t) {
			got = append(got, tl.Name)
			a := tl.Annotations
			if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("%s: annotations over the wire: %+v", tl.Name, a)
			}
		}
		want := wantTools()
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("tools over the wire:\n got %v\nwant %v", got, want)
		}
	})
	t.Run("cases", func(t *testing.T) { casesFamily(t, w) })
	t.Run("tasks notes messages", func(t *testing.T) { tasksFamily(t, w) })
	t.Run("labels", func(t *testing.T) { labelsFamily(t, w) })
	t.Run("reminders", func(t *testing.T) { remindersFamily(t, w) })
	t.Run("priorities", func(t *testing.T) { prioritiesFamily(t, w) })
	t.Run("archive restore merge", func(t *testing.T) { archiveFamily(t, w) })
	t.Run("search", func(t *testing.T) { searchFamily(t, w) })
	t.Run("agenda inbox", func(t *testing.T) { agendaFamily(t, w) })
	t.Run("approvals", func(t *testing.T) { approvalsFamily(t, w) })
	t.Run("views templates prefs", func(t *testing.T) { savedFamily(t, w) })
	t.Run("the person's word", func(t *testing.T) { personsWordFamily(t, w) })
	t.Run("removals", func(t *testing.T) { removalsFamily(t, w) })
	t.Run("backups", func(t *testing.T) { backupsFamily(t, w) })
	t.Run("vault", func(t *testing.T) { vaultFamily(t, w) })
	t.Run("batches and history", func(t *testing.T) { batchesFamily(t, w, start) })

	t.Run("every tool was called", func(t *testing.T) {
		for _, name := range wantTools() {
			if !w.used[name] {
				t.Errorf("%s was never called successfully", name)
			}
		}
	})
	t.Run("writes are attributed to the agent", func(t *testing.T) {
		var feed struct {
			Activity []client.ActivityEntry `json:"activity"`
		}
		board.Get(t, "/api/activity?limit=5000", &feed)
		agent := 0
		for _, e := range feed.Activity {
			switch {
			case e.Actor == wire.ActorAgent:
				agent++
			case e.Actor == wire.ActorHuman && e.Verb == "status_changed" && e.CaseID == w.ids["desks"]:
				// the one manual action the test made itself
			case e.Actor == wire.ActorSystem:
			default:
				t.Errorf("activity %s %s on %s is by %s, want agent", e.TS, e.Verb, e.CaseID, e.Actor)
			}
		}
		if agent < 20 {
			t.Errorf("only %d agent activity entries", agent)
		}
	})
	t.Run("stdout is only protocol", func(t *testing.T) {
		lines := w.s.Proc.StdoutLines()
		if len(lines) < 50 {
			t.Fatalf("only %d stdout lines recorded", len(lines))
		}
		if err := clienttest.CheckJSONRPC(lines); err != nil {
			t.Error(err)
		}
	})
}

func casesFamily(t *testing.T, w *world) {
	w.ok(t, "get_tree", nil, "The tree is empty")
	out := w.ok(t, "create_initiative", map[string]any{"title": "Office move", "summary": "Move to the new office"}, "Created", "[initiative] Office move")
	ini := clienttest.FirstID(t, out, "CASE")
	w.ids["initiative"] = ini
	w.ok(t, "create_initiative", map[string]any{"title": "  office   MOVE "}, "Already existed, nothing created", ini)
	out = w.ok(t, "create_workstream", map[string]any{"title": "Furniture", "initiativeId": ini}, "Created", "[workstream] Furniture", "parent "+ini)
	ws := clienttest.FirstID(t, out, "CASE")
	w.ids["workstream"] = ws
	out = w.ok(t, "create_case", map[string]any{
		"title": "Order desks", "parentId": ws, "labels": []any{"waiting-on"}, "status": "todo", "dueAt": "2030-01-15",
		"tasks": []any{map[string]any{"title": "Get quotes"}},
	}, "Created", "[case] Order desks - [todo]", "labels waiting-on", "tasks 0/1")
	desks := clienttest.FirstID(t, out, "CASE")
	w.ids["desks"] = desks
	w.ok(t, "create_case", map[string]any{"title": "Order desks", "parentId": ws, "summary": "ignored"}, "Already existed", desks, "were not applied", "update_case "+desks)
	if d := w.caseOf(t, desks); d.Case.Summary != "" || len(d.Case.Tasks) != 1 {
		t.Errorf("a deduplicated create changed the existing case: %+v", d.Case)
	}
	w.s.Refused(t, "create_case", map[string]any{"title": "Bad label", "labels": []any{"no-such-label"}}, "no-such-label")
	w.s.Refused(t, "create_case", map[string]any{"title": "Lane typo", "lane": "done"}, "lane")
	w.s.Refused(t, "create_case", map[string]any{"title": "Bad status", "status": "finished"}, "status")
	w.s.Refused(t, "create_workstream", map[string]any{"title": "Orphan"}, "initiativeId")

	// The human moves the case by hand: get_case must lead with it.
	w.board.Human(t, "PATCH", "/api/cases/"+desks, map[string]any{"status": "in_progress"}, nil)
	out = w.ok(t, "get_case", map[string]any{"id": desks},
		"Manual actions on "+desks+" (the human did this; do not revert it",
		"status_changed",
		"Kind: case", "Lane: in_progress",
		"Parent of "+desks+": "+ws+" - Furniture",
		"Children of "+desks+": none",
		"Tasks of "+desks+" (0/1 done)", desks+"-T1 [ ] Get quotes",
		"Labels of "+desks+": waiting-on")
	if !strings.HasPrefix(out, "Manual actions on "+desks) {
		t.Errorf("get_case does not lead with the manual actions:\n%s", out)
	}
	w.ok(t, "get_case", map[string]any{"id": ini}, "Manual actions on "+ini+": none", "Kind: initiative", "Parent of "+ini+": none",
		"Children of "+ini+":", ws+" - [workstream] Furniture", "Rollup of "+ini+": 0/1 cases done (0%), 0/1 tasks done, 1 child")
	w.s.Refused(t, "get_case", map[string]any{"id": "CASE-999"}, "case CASE-999 not found")

	out = w.ok(t, "create_case", map[string]any{"title": "Book movers", "domain": "work"}, "Created")
	movers := clienttest.FirstID(t, out, "CASE")
	w.ids["movers"] = movers
	w.ok(t, "list_cases", nil, desks+" - [case] Order desks - [in_progress]", movers+" - [case] Book movers")
	w.ok(t, "list_cases", map[string]any{"limit": 1}, "more not shown")
	w.ok(t, "list_cases", map[string]any{"kind": "workstream"}, ws+" - [workstream] Furniture")

	w.ok(t, "update_case", map[string]any{"id": movers, "status": "urgent", "summary": "Two quotes"}, "Updated "+movers+" (summary, status)", "[urgent]")
	w.s.Refused(t, "update_case", map[string]any{"id": movers}, "nothing to update")
	if d := w.caseOf(t, movers); d.Case.Status != "urgent" || d.Case.Summary != "Two quotes" {
		t.Errorf("update_case did not land: %+v", d.Case)
	}

	// A batch is checked item by item first, and nothing changes on a bad one.
	w.s.Refused(t, "update_cases", map[string]any{"ids": []any{movers, "CASE-999"}, "status": "done"}, "Nothing was changed", movers+": ok", "CASE-999: not found")
	w.s.Refused(t, "update_cases", map[string]any{"ids": []any{movers, desks}, "labels": []any{"bogus"}}, "Nothing was changed", "unknown label id(s) bogus")
	if d := w.caseOf(t, movers); d.Case.Status != "urgent" || len(d.Case.Labels) != 0 {
		t.Errorf("a refused batch changed %s: %+v", movers, d.Case)
	}
	w.ok(t, "update_cases", map[string]any{"ids": []any{movers, desks}, "domain": "work", "tags": []any{"move"}}, "Updated 2 nodes (domain, tags)", "- "+movers, "- "+desks)

	w.ok(t, "set_parent", map[string]any{"id": movers, "parentId": ws}, "Moved under "+ws)
	w.ok(t, "set_parent", map[string]any{"id": movers, "parentId": nil}, "Detached (now top-level)")
	w.s.Refused(t, "set_parent", map[string]any{"id": ws, "parentId": ""}, "initiative")
	w.ok(t, "regroup_cases", map[string]any{"ids": []any{movers, desks}, "parentId": ini}, "Updated 2 nodes (parentId)")
	for _, id := range []string{movers, desks} {
		if d := w.caseOf(t, id); d.Case.ParentID != ini {
			t.Errorf("regroup_cases: %s parent %q, want %s", id, d.Case.ParentID, ini)
		}
	}
	w.s.Refused(t, "regroup_cases", map[string]any{"ids": []any{movers}, "parentId": "CASE-999"}, "Nothing was changed", "parent CASE-999 not found")
	w.s.Refused(t, "regroup_cases", map[string]any{"ids": []any{movers, ws}, "parentId": ws}, "Nothing was changed", movers+": ok", ws+": cannot be its own parent")
	w.s.Refused(t, "regroup_cases", map[string]any{"ids": []any{ini}, "parentId": ws}, ini+": an initiative is always a root")
	w.ok(t, "regroup_cases", map[string]any{"ids": []any{desks}, "parentId": ws}, "Updated 1 node")

	w.ok(t, "get_tree", nil, ini+" - [initiative] Office move - 0/2 cases done (0%), 0/1 tasks done, 2 children",
		"\n  "+ws+" - [workstream] Furniture - 0/1 cases done", "\n    "+desks+" - [case] Order desks - [in_progress] - tasks 0/1",
		"\n  "+movers+" - [case] Book movers - [urgent]")
	w.ok(t, "get_tree", map[string]any{"rootId": ws}, ws+" - [workstream] Furniture", "  "+desks)
	if out := w.ok(t, "get_tree", map[string]any{"rootId": ws}); strings.Contains(out, ini) {
		t.Errorf("get_tree rootId shows more than the subtree:\n%s", out)
	}
	w.ok(t, "get_tree", map[string]any{"limit": 2}, "2 more not shown")
	w.ok(t, "list_initiatives", nil, ini+" - Office move - work - 0/2 cases done (0%), 0/1 tasks done, 2 children")

	// Handlers run concurrently: the same create from several calls at once
	// still makes one node, because the board deduplicates inside its lock.
	answers := make(chan string, 6)
	ctx := clienttest.Context(t)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text, _, err := w.s.Try(ctx, "create_case", map[string]any{"title": "Parallel case", "parentId": ws})
			if err != nil {
				text = err.Error()
			}
			answers <- text
		}()
	}
	wg.Wait()
	close(answers)
	created, existed := 0, 0
	for a := range answers {
		switch {
		case strings.HasPrefix(a, "Created"):
			created++
		case strings.HasPrefix(a, "Already existed"):
			existed++
		default:
			t.Errorf("concurrent create_case: %s", a)
		}
	}
	var same struct {
		Cases []wire.Case `json:"cases"`
	}
	w.board.Get(t, "/api/cases?parentId="+ws, &same)
	n := 0
	for _, c := range same.Cases {
		if c.Title == "Parallel case" {
			n++
			w.ids["parallel"] = c.ID
		}
	}
	if created != 1 || existed != 5 || n != 1 {
		t.Errorf("6 concurrent identical creates: %d created, %d existed, %d on the board; want 1, 5, 1", created, existed, n)
	}
	w.ok(t, "delete_case", map[string]any{"id": w.ids["parallel"]}, "Deleted")
}

func tasksFamily(t *testing.T, w *world) {
	movers, desks := w.ids["movers"], w.ids["desks"]
	out := w.ok(t, "add_task", map[string]any{"caseId": movers, "title": "Call movers", "dueAt": "2030-01-10"}, "Added to "+movers, "[ ] Call movers (due 2030-01-10)")
	task := movers + "-T1"
	if !strings.Contains(out, task) {
		t.Fatalf("add_task minted no %s:\n%s", task, out)
	}
	w.ok(t, "update_task", map[string]any{"caseId": movers, "taskId": task, "title": "Call two movers", "detail": "ask for insurance"}, "Updated in "+movers, task+" [ ] Call two movers")
	w.s.Refused(t, "update_task", map[string]any{"caseId": movers, "taskId": task}, "nothing to update")
	w.ok(t, "complete_task", map[string]any{"caseId": movers, "taskId": task}, "Completed in "+movers, task+" [x]")
	if d := w.caseOf(t, movers); d.Case.Tasks[0].CompletedAt == "" {
		t.Error("complete_task did not stamp completedAt")
	}
	w.ok(t, "add_task", map[string]any{"caseId": movers, "title": "Scratch"}, movers+"-T2")
	w.ok(t, "delete_task", map[string]any{"caseId": movers, "taskId": movers + "-T2"}, "Deleted task "+movers+"-T2")
	w.s.Refused(t, "delete_task", map[string]any{"caseId": movers, "taskId": movers + "-T2"}, "not found")

	w.ok(t, "add_note", map[string]any{"caseId": desks, "text": "The human moved this to in progress; leaving it."}, "Noted on "+desks)
	if d := w.caseOf(t, desks); len(d.Case.Notes) != 1 || d.Case.Notes[0].Actor != wire.ActorAgent {
		t.Errorf("add_note: notes %+v, want one by the agent", d.Case.Notes)
	}

	out = w.ok(t, "link_message", map[string]any{"caseId": movers, "source": "email", "from": "quotes@movers.example", "to": []any{"me@example.com"}, "subject": "Your quote", "body": "It is 900."}, "Linked", "from quotes@movers.example: Your quote [unread] - case "+movers)
	msg := clienttest.FirstID(t, out, "M")
	w.ids["message"] = msg
	w.ok(t, "update_message", map[string]any{"id": msg, "read": true}, "Updated "+msg, "Your quote - case "+movers)
	w.s.Refused(t, "update_message", map[string]any{"id": msg}, "nothing to update")
	w.s.Refused(t, "link_message", map[string]any{"caseId": movers, "from": "x@example.com"}, "subject, preview or body")
	var msgs struct {
		Messages []wire.Message `json:"messages"`
	}
	w.board.Get(t, "/api/messages?caseId="+movers, &msgs)
	if len(msgs.Messages) != 1 || !msgs.Messages[0].Read {
		t.Errorf("messages of %s: %+v, want one read message", movers, msgs.Messages)
	}
}

func labelsFamily(t *testing.T, w *world) {
	w.ok(t, "list_labels", nil, "waiting-on - ", "[")
	w.ok(t, "list_labels", map[string]any{"query": "blocked"}, "blocked - ")
	w.ok(t, "list_labels", map[string]any{"limit": 2}, "more not shown")
	w.ok(t, "list_label_bundles", nil, "universal - ", "software-engineering - ", "not installed")
	w.ok(t, "list_label_bundles", map[string]any{"kind": "life"}, "pet-care - ")
	w.ok(t, "install_label_bundle", map[string]any{"id": "software-engineering"}, "Bundle software-engineering installed: added")
	w.ok(t, "install_label_bundle", map[string]any{"id": "software-engineering"}, "no new labels")
	w.ok(t, "create_label", map[string]any{"title": "Vendor", "description": "A vendor is involved", "color": "teal"}, "Created label vendor - Vendor - A vendor is involved [teal]")
	w.ok(t, "create_label", map[string]any{"title": "vendor"}, "Already existed, nothing created: vendor - Vendor")
	w.ok(t, "create_label", map[string]any{"title": "Waiting on"}, "Already existed, nothing created: waiting-on")
	w.s.Refused(t, "create_label", map[string]any{"title": "Neon", "color": "neon"}, "color")
	w.ok(t, "update_label", map[string]any{"id": "vendor", "color": "amber"}, "Updated label vendor - Vendor", "[amber]")
	w.s.Refused(t, "update_label", map[string]any{"id": "vendor"}, "nothing to update")
	w.ok(t, "update_case", map[string]any{"id": w.ids["movers"], "labels": []any{"vendor", "waiting-on"}}, "labels vendor,waiting-on")
	w.ok(t, "delete_label", map[string]any{"id": "vendor", "scrub": true}, "Deleted label vendor and stripped it")
	if d := w.caseOf(t, w.ids["movers"]); slices.Contains(d.Case.Labels, "vendor") {
		t.Errorf("delete_label scrub left the label on %s: %v", w.ids["movers"], d.Case.Labels)
	}
	w.ok(t, "uninstall_label_bundle", map[string]any{"id": "software-engineering"}, "Bundle software-engineering uninstalled")
	var cat struct {
		Labels []wire.LabelDef `json:"labels"`
	}
	w.board.Get(t, "/api/labels", &cat)
	for _, l := range cat.Labels {
		if l.ID == "vendor" {
			t.Error("delete_label left vendor in the catalog")
		}
	}
}

func remindersFamily(t *testing.T, w *world) {
	ini, desks := w.ids["initiative"], w.ids["desks"]
	out := w.ok(t, "create_reminder", map[string]any{
		"title": "Confirm the lease", "dueAt": "2030-02-01", "caseId": ini, "labels": []any{"follow-up"},
		"tasks": []any{map[string]any{"title": "Read the draft"}, map[string]any{"title": "Sign", "done": false}},
	}, "Created", "Confirm the lease - [open] - due 2030-02-01 - tasks 0/2 - case "+ini+" - labels follow-up")
	rem := clienttest.FirstID(t, out, "REM")
	w.ids["reminder"] = rem
	w.ok(t, "create_reminder", map[string]any{"title": "confirm the LEASE", "dueAt": "2030-02-01"}, "Already existed, nothing created", rem)
	w.s.Refused(t, "create_reminder", map[string]any{"title": "Bad label", "labels": []any{"nope"}}, "nope")
	w.s.Refused(t, "create_reminder", map[string]any{"title": "Bad status", "status": "todo"}, "status")

	w.ok(t, "list_reminders", nil, rem+" - Confirm the lease - [open] - due 2030-02-01 - tasks 0/2")
	w.ok(t, "list_reminders", map[string]any{"caseId": ini}, rem)
	if out := w.ok(t, "list_reminders", map[string]any{"status": "done"}); strings.Contains(out, rem) {
		t.Errorf("list_reminders status done lists an open reminder:\n%s", out)
	}
	w.ok(t, "get_reminder", map[string]any{"id": rem}, "Labels of "+rem+": follow-up", "Checklist of "+rem+":", rem+"-T1 [ ] Read the draft", "Messages of "+rem+": none")

	w.ok(t, "update_reminder", map[string]any{"id": rem, "tasks": []any{
		map[string]any{"id": rem + "-T1", "title": "Read the draft", "done": true},
		map[string]any{"title": "Send it back"},
	}}, "Updated", "tasks 1/2")
	var got client.ReminderAnswer
	w.board.Get(t, "/api/reminders/"+rem, &got)
	if len(got.Reminder.Tasks) != 2 || got.Reminder.Tasks[0].ID != rem+"-T1" || !got.Reminder.Tasks[0].Done || got.Reminder.Tasks[1].ID != rem+"-T3" {
		t.Errorf("update_reminder tasks: %+v, want %s-T1 kept and done, then %s-T3", got.Reminder.Tasks, rem, rem)
	}
	w.s.Refused(t, "update_reminder", map[string]any{"id": rem}, "nothing to update")

	w.ok(t, "link_reminder", map[string]any{"id": rem}, "Unlinked "+rem)
	w.ok(t, "link_reminder", map[string]any{"id": rem, "caseId": desks}, "Linked "+rem, "case "+desks)
	w.board.Get(t, "/api/reminders/"+rem, &got)
	if got.Reminder.CaseID != desks {
		t.Errorf("link_reminder: caseId %q, want %s", got.Reminder.CaseID, desks)
	}
	w.ok(t, "link_reminder_message", map[string]any{"id": rem, "source": "email", "from": "landlord@example.com", "subject": "Lease draft", "receivedAt": "2030-01-05T10:00:00Z"}, "Lease draft", rem)
	w.ok(t, "get_reminder", map[string]any{"id": rem}, "Messages of "+rem+" (newest first):", "from landlord@example.com: Lease draft")

	w.ok(t, "complete_reminder", map[string]any{"id": rem}, "Completed "+rem, "[done]")
	w.board.Get(t, "/api/reminders/"+rem, &got)
	if got.Reminder.Status != "done" || got.Reminder.CompletedAt == "" {
		t.Errorf("complete_reminder: %+v", got.Reminder)
	}
	w.ok(t, "get_case", map[string]any{"id": desks}, "Reminders of "+desks+":", rem+" - Confirm the lease - [done]")

	out = w.ok(t, "create_reminder", map[string]any{"title": "Throwaway"}, "Created")
	scratch := clienttest.FirstID(t, out, "REM")
	w.ok(t, "delete_reminder", map[string]any{"id": scratch}, "Deleted reminder "+scratch)
	w.s.Refused(t, "get_reminder", map[string]any{"id": scratch}, scratch)
}

func prioritiesFamily(t *testing.T, w *world) {
	ini, desks := w.ids["initiative"], w.ids["desks"]
	w.ok(t, "set_starred", map[string]any{"id": ini, "starred": true}, "Starred "+ini+" - Office move")
	w.ok(t, "set_starred", map[string]any{"id": desks, "starred": true}, "Starred "+desks)
	out := w.ok(t, "add_priority", map[string]any{"text": "Move before March", "position": 1}, "Added", "Move before March (position 1)")
	pri := clienttest.FirstID(t, out, "PRI")
	out = w.ok(t, "add_priority", map[string]any{"text": "Keep costs low"}, "Added")
	pri2 := clienttest.FirstID(t, out, "PRI")
	out = w.ok(t, "get_priorities", nil,
		ini+" - [initiative] - Office move - [todo]",
		desks+" - [case] - Order desks - [in_progress]",
		pri+" - Move before March", pri2+" - Keep costs low")
	if strings.Index(out, ini) > strings.Index(out, desks) || strings.Index(out, pri) > strings.Index(out, pri2) {
		t.Errorf("get_priorities order:\n%s", out)
	}
	w.s.Refused(t, "update_priority", map[string]any{"id": pri}, "nothing to update")
	w.ok(t, "update_priority", map[string]any{"id": pri2, "text": "Keep costs under budget", "position": 0}, "Updated "+pri2+" - Keep costs under budget")
	out = w.ok(t, "get_priorities", nil)
	if strings.Index(out, pri2) > strings.Index(out, pri) {
		t.Errorf("after moving %s to position 0 it should lead:\n%s", pri2, out)
	}
	w.ok(t, "remove_priority", map[string]any{"id": pri2}, "Removed priority note "+pri2)
	w.ok(t, "set_starred", map[string]any{"id": desks, "starred": false}, "Unstarred "+desks)
	if d := w.caseOf(t, desks); d.Case.Starred {
		t.Error("set_starred false left the star")
	}
}

func searchFamily(t *testing.T, w *world) {
	desks, movers, rem := w.ids["desks"], w.ids["movers"], w.ids["reminder"]
	w.ok(t, "search", map[string]any{"q": "desks"}, `Search "desks"`, "[case] "+desks+" - Order desks", "Reminders:")
	w.ok(t, "search", map[string]any{"q": "lease"}, "Reminders:", "[reminder done] "+rem+" - Confirm the lease")
	w.ok(t, "search", map[string]any{"queries": []any{"movers", "lease"}}, "2 queries", `Query "movers"`, "[case] "+movers, `Query "lease"`, "[reminder done] "+rem)
	w.ok(t, "search", map[string]any{"q": "quote", "types": []any{"message"}}, "[message]", w.ids["message"])
	w.s.Refused(t, "search", map[string]any{}, "q or queries")
	w.s.Refused(t, "search", map[string]any{"q": "x", "types": []any{"people"}}, "types")

	// An archived match is flagged for restore; a merged one names its target.
	storage, old := w.ids["storage"], w.ids["merged"]
	w.ok(t, "search", map[string]any{"q": "storage unit"}, "[case] "+storage+" - Storage unit", "ARCHIVED: restore and relink, do not create")
	w.ok(t, "search", map[string]any{"q": "Old movers quote"}, old, "merged into "+movers+": use "+movers)
	if out := w.ok(t, "search", map[string]any{"q": "storage unit", "includeArchived": false}); strings.Contains(out, storage) {
		t.Errorf("includeArchived false still finds the archived %s:\n%s", storage, out)
	}
}

func archiveFamily(t *testing.T, w *world) {
	movers := w.ids["movers"]
	out := w.ok(t, "create_case", map[string]any{"title": "Storage unit"}, "Created")
	storage := clienttest.FirstID(t, out, "CASE")
	w.ids["storage"] = storage
	w.ok(t, "archive_case", map[string]any{"id": storage}, "Archived "+storage, "ARCHIVED: restore and relink, do not create")
	w.ok(t, "get_case", map[string]any{"id": storage}, storage+" is ARCHIVED", "restore_case")
	w.ok(t, "create_case", map[string]any{"title": "storage UNIT"}, "Already existed", "It is archived: restore_case "+storage)
	w.ok(t, "restore_case", map[string]any{"id": storage}, "Restored "+storage)
	if d := w.caseOf(t, storage); d.Case.ArchivedAt != "" {
		t.Error("restore_case left archivedAt")
	}
	w.ok(t, "archive_case", map[string]any{"id": storage}, "Archived "+storage)
	if d := w.caseOf(t, storage); d.Case.ArchivedAt == "" {
		t.Error("archive_case set no archivedAt")
	}

	out = w.ok(t, "create_case", map[string]any{"title": "Old movers quote", "tags": []any{"quote"}}, "Created")
	old := clienttest.FirstID(t, out, "CASE")
	w.ids["merged"] = old
	w.ok(t, "add_task", map[string]any{"caseId": old, "title": "Compare quotes"}, "Added")
	w.ok(t, "merge_cases", map[string]any{"sourceId": old, "targetId": movers}, "Merged "+old+" into "+movers)
	w.ok(t, "get_case", map[string]any{"id": old}, "was merged into "+movers+": use "+movers)
	if d := w.caseOf(t, movers); !slices.ContainsFunc(d.Case.Tasks, func(tk wire.Task) bool { return tk.Title == "Compare quotes" }) {
		t.Errorf("merge_cases did not move the task to %s: %+v", movers, d.Case.Tasks)
	}
	if d := w.caseOf(t, movers); !slices.Contains(d.Case.Tags, "quote") {
		t.Errorf("merge_cases did not move the tags to %s: %v", movers, d.Case.Tags)
	}
	if d := w.caseOf(t, old); d.Case.MergedInto != movers || d.Case.ArchivedAt == "" {
		t.Errorf("merged source: %+v", d.Case)
	}
	w.ok(t, "list_cases", map[string]any{"includeArchived": true}, storage+" - [case] Storage unit", "ARCHIVED", "merged into "+movers)
}

// approvalsFamily: the agent proposes with the arguments of the tool a
// verb mirrors, checked as that tool checks them; approving is the
// person's, on the board's routes, and the agent has no tool for it.
func approvalsFamily(t *testing.T, w *world) {
	desks := w.ids["desks"]
	out := w.ok(t, "propose", map[string]any{"verb": "update_case", "payload": map[string]any{"id": desks, "status": "done"}, "summary": "Desks arrived: close the case"}, "Proposed", "update_case", "Desks arrived")
	prop := clienttest.FirstID(t, out, "PROP")
	w.ok(t, "list_pending", nil, prop+" - update_case - Desks arrived: close the case", "target "+desks)
	w.s.Refused(t, "propose", map[string]any{"verb": "update_case", "payload": map[string]any{"id": "CASE-999", "status": "done"}, "summary": "x"}, "CASE-999")
	for _, name := range []string{"approve_pending", "reject_pending"} {
		if text, _, err := w.s.Try(clienttest.Context(t), name, map[string]any{"id": prop}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("%s is an agent tool: %q, %v", name, text, err)
		}
	}
	w.board.Human(t, "POST", "/api/pending/"+prop+"/approve", map[string]any{}, nil)
	d := w.caseOf(t, desks)
	if d.Case.Status != "done" {
		t.Errorf("the person's approval did not commit: %s is %s", desks, d.Case.Status)
	}
	if last := d.Case.Activity[len(d.Case.Activity)-1]; last.Actor != wire.ActorAgent || !strings.Contains(last.Detail, prop+" update_case: proposed by agent, approved by human") {
		t.Errorf("the approved change's entry: %+v", last)
	}

	// Typed payloads: merge takes merge_cases's sourceId, update_cases its
	// patch flat, and the old spellings are refused in the tools' words.
	a := clienttest.FirstID(t, w.ok(t, "create_case", map[string]any{"title": "Chairs order"}, "Created"), "CASE")
	b := clienttest.FirstID(t, w.ok(t, "create_case", map[string]any{"title": "Chair order (again)"}, "Created"), "CASE")
	w.s.Refused(t, "propose", map[string]any{"verb": "merge", "payload": map[string]any{"id": b, "targetId": a}, "summary": "x"}, "payload: merge_cases: unknown argument id: the accepted ones are sourceId, targetId")
	w.s.Refused(t, "propose", map[string]any{"verb": "update_cases", "payload": map[string]any{"ids": []any{a}, "patch": map[string]any{"status": "urgent"}}, "summary": "x"}, "payload: update_cases: unknown argument patch")
	w.s.Refused(t, "propose", map[string]any{"verb": "update_cases", "payload": map[string]any{"ids": []any{a}, "status": "soon"}, "summary": "x"}, "payload: update_cases: argument status must be one of")
	batch := clienttest.FirstID(t, w.ok(t, "propose", map[string]any{"verb": "update_cases", "payload": map[string]any{"ids": []any{a, b}, "status": "urgent"}, "summary": "Chairs are urgent"}, "Proposed"), "PROP")
	merge := clienttest.FirstID(t, w.ok(t, "propose", map[string]any{"verb": "merge", "payload": map[string]any{"sourceId": b, "targetId": a}, "summary": "One chairs case"}, "Proposed"), "PROP")
	w.board.Human(t, "POST", "/api/pending/"+batch+"/approve", map[string]any{}, nil)
	w.board.Human(t, "POST", "/api/pending/"+merge+"/approve", map[string]any{}, nil)
	if d := w.caseOf(t, b); d.Case.MergedInto != a || d.Case.Status != "urgent" {
		t.Errorf("after the approvals %s is %s, merged into %q", b, d.Case.Status, d.Case.MergedInto)
	}

	// The agent names its own writes since a time for an undo; the person
	// approves it and the agent's case is gone.
	since := time.Now().UTC().Format(time.RFC3339Nano)
	stray := clienttest.FirstID(t, w.ok(t, "create_case", map[string]any{"title": "Stray idea"}, "Created"), "CASE")
	undoProp := clienttest.FirstID(t, w.ok(t, "propose", map[string]any{"verb": "undo", "payload": map[string]any{"writesBy": "agent", "since": since}, "summary": "Undo my stray case"}, "Proposed"), "PROP")
	w.board.Human(t, "POST", "/api/pending/"+undoProp+"/approve", map[string]any{}, nil)
	if text, _, err := w.s.Try(clienttest.Context(t), "get_case", map[string]any{"id": stray}); err == nil && !strings.Contains(text, "not found") {
		t.Errorf("the approved undo left %s: %q", stray, text)
	}

	out = w.ok(t, "propose", map[string]any{"verb": "archive", "payload": map[string]any{"id": desks}, "summary": "Archive the desks case"}, "Proposed")
	prop2 := clienttest.FirstID(t, out, "PROP")
	w.board.Human(t, "POST", "/api/pending/"+prop2+"/reject", map[string]any{}, nil)
	w.ok(t, "list_pending", nil, "No proposals are pending")
	if d := w.caseOf(t, desks); d.Case.ArchivedAt != "" {
		t.Error("a rejected proposal was committed")
	}
}

func savedFamily(t *testing.T, w *world) {
	w.ok(t, "list_views", nil, "No saved views")
	out := w.ok(t, "save_view", map[string]any{"name": "Urgent work", "filters": map[string]any{"status": "urgent", "domain": "work"}}, "Saved", "Urgent work", `"status":"urgent"`)
	view := clienttest.FirstID(t, out, "VIEW")
	w.ok(t, "save_view", map[string]any{"name": "urgent work", "filters": map[string]any{"status": "urgent"}}, "Replaced the view of that name", view)
	w.ok(t, "save_view", map[string]any{"id": view, "name": "Urgent"}, "Saved", view+" - Urgent")
	w.ok(t, "list_views", nil, view+" - Urgent - filters")
	w.ok(t, "delete_view", map[string]any{"id": view}, "Deleted view "+view)

	w.ok(t, "list_templates", nil, "No case templates")
	out = w.ok(t, "save_template", map[string]any{"name": "Vendor onboarding", "title": "Onboard vendor", "kind": "case", "labels": []any{"follow-up"}, "tasks": []any{"Collect W-9", "Set up payment"}}, "Saved", "Vendor onboarding", "2 tasks")
	tpl := clienttest.FirstID(t, out, "TPL")
	w.ok(t, "save_template", map[string]any{"id": tpl, "status": "urgent"}, "Saved", "[urgent]")
	w.ok(t, "list_templates", nil, tpl+" - Vendor onboarding")
	w.ok(t, "delete_template", map[string]any{"id": tpl}, "Deleted template "+tpl)

	w.ok(t, "get_prefs", nil, `"view":"operational"`)
	w.ok(t, "set_prefs", map[string]any{"prefs": map[string]any{"view": "strategy"}}, `"view":"strategy"`)
	w.s.Refused(t, "set_prefs", map[string]any{"prefs": map[string]any{"view": "sideways"}}, "view")
	var prefs struct {
		Prefs map[string]any `json:"prefs"`
	}
	w.board.Get(t, "/api/prefs", &prefs)
	if prefs.Prefs["view"] != "strategy" {
		t.Errorf("prefs %v, want view strategy", prefs.Prefs)
	}
	if _, ok := prefs.Prefs["actor"]; ok {
		t.Errorf("the actor leaked into the preferences: %v", prefs.Prefs)
	}
}

func removalsFamily(t *testing.T, w *world) {
	out := w.ok(t, "create_case", map[string]any{"title": "Scratch case"}, "Created")
	scratch := clienttest.FirstID(t, out, "CASE")
	w.ok(t, "delete_case", map[string]any{"id": scratch}, "Deleted "+scratch+" permanently")
	w.s.Refused(t, "get_case", map[string]any{"id": scratch}, fmt.Sprintf("case %s not found", scratch))
}
