package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/client/clienttest"
	"github.com/opsboard/opsboard/shared/wire"
)

// TestEnableToolset: a session on the default set learns the other sets,
// enables one, is told its tool list changed and calls the new tools; a
// read-only session gets only the set's reads.
func TestEnableToolset(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	env := []string{"CRM_BASE_URL=" + board.URL}
	s := clienttest.StartSessionWith(t, bin, env, server)
	changed := &atomic.Int32{}
	s.Client.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed.Add(1)
		}
	})
	s.OK(t, "list_toolsets", nil, "core - on - 38 tools", "admin - off - 9 tools", "bulk - off - 4 tools", "tree - off - 3 tools")
	s.Refused(t, "enable_toolset", map[string]any{"toolset": "calendar"}, `unknown toolset "calendar": the toolsets are core, labels, saved, admin, vault, bulk, tree, all`)
	if _, _, err := s.Try(clienttest.Context(t), "delete_case", map[string]any{"id": "CASE-1"}); err == nil {
		t.Error("delete_case answered before admin was enabled")
	}
	s.OK(t, "enable_toolset", map[string]any{"toolset": "admin"},
		"Enabled admin: added 9 tools: backup_status, delete_case, create_label, update_label, delete_label, install_label_bundle, uninstall_label_bundle, run_backup, undo_agent_writes.")
	for deadline := time.Now().Add(5 * time.Second); changed.Load() == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	if changed.Load() == 0 {
		t.Error("no notifications/tools/list_changed after enable_toolset")
	}
	if got := len(s.Tools(t)); got != 40+9 {
		t.Errorf("%d tools after enabling admin, want 49", got)
	}
	out := s.OK(t, "create_case", map[string]any{"title": "Short-lived"})
	id := clienttest.FirstID(t, out, "CASE")
	s.OK(t, "delete_case", map[string]any{"id": id}, id)
	s.OK(t, "list_toolsets", nil, "admin - on - 9 tools")
	s.OK(t, "enable_toolset", map[string]any{"toolset": "admin"}, "Toolset admin is already on: nothing added.")
	s.OK(t, "enable_toolset", map[string]any{"toolset": "labels"}, "Enabled labels: added 1 tool: list_label_bundles.")
	s.OK(t, "list_label_bundles", nil)

	ro := clienttest.StartSessionWith(t, bin, env, server, "--read-only")
	ro.OK(t, "list_toolsets", nil, "admin - off - 1 tool", "Read-only session")
	ro.OK(t, "enable_toolset", map[string]any{"toolset": "admin"}, "Enabled admin: added 1 tool: backup_status.")
	for _, tl := range ro.Tools(t) {
		if tl.Annotations.ReadOnlyHint == nil || !*tl.Annotations.ReadOnlyHint {
			t.Errorf("%s was enabled in a read-only session", tl.Name)
		}
	}
	s.CheckStdout(t, 10)
}

var versionIn = regexp.MustCompile(`now version (\d+)`)

// TestWhatChangedAndUndo: what_changed tells the agent what the person did
// since its last look, by record and by actor; the agent undoes its own
// writes, and not a record the person has written since, nor the person's
// write.
func TestWhatChangedAndUndo(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + board.URL}, server, "--toolsets", "core,admin")
	start := time.Now().UTC().Add(-time.Second).Format(time.RFC3339)

	out := s.OK(t, "create_case", map[string]any{"title": "Plan the offsite"})
	offsite := clienttest.FirstID(t, out, "CASE")
	s.OK(t, "add_task", map[string]any{"caseId": offsite, "title": "Book a venue"})
	out = s.OK(t, "what_changed", nil, offsite+` "Plan the offsite" - agent: created, task_added`, "by agent 2")
	v := versionOf(t, out)
	// The person moves the case and adds a priority note by hand.
	board.Human(t, "PATCH", "/api/cases/"+offsite, map[string]any{"status": "in_progress"}, nil)
	board.Human(t, "POST", "/api/priorities", map[string]any{"text": "Offsite before June"}, nil)
	out = s.OK(t, "what_changed", map[string]any{"sinceVersion": v},
		fmt.Sprintf("Since version %d", v), offsite+` "Plan the offsite" - human: status_changed`, "by human 1", `priority PRI-1 "Offsite before June"`)
	if strings.Contains(out, "task_added") {
		t.Errorf("what_changed since a version repeats older writes:\n%s", out)
	}
	s.Refused(t, "what_changed", map[string]any{"sinceVersion": 1, "since": start}, "not both")

	// The person wrote the case since: undoing the agent is refused whole.
	s.Refused(t, "undo_agent_writes", map[string]any{"since": start}, "cannot undo", offsite, "their change stands")
	var d client.CaseDetail
	board.Get(t, "/api/cases/"+offsite, &d)
	if d.Case.Status != "in_progress" || len(d.Case.Tasks) != 1 {
		t.Errorf("a refused undo changed %s: %+v", offsite, d.Case)
	}
	// A write of the agent's that nobody touched since is undone by version.
	out = s.OK(t, "create_case", map[string]any{"title": "Scratch"})
	scratch := clienttest.FirstID(t, out, "CASE")
	created, human := rowVersion(t, board, scratch, wire.ActorAgent), rowVersion(t, board, offsite, wire.ActorHuman)
	s.OK(t, "undo_agent_writes", map[string]any{"version": created, "dryRun": true}, "Would undo (dry run, nothing changed): 1 write", "case "+scratch)
	s.OK(t, "undo_agent_writes", map[string]any{"version": created}, "Undone: 1 write", fmt.Sprintf("version %d", created), "case "+scratch)
	s.Refused(t, "get_case", map[string]any{"id": scratch}, "not found")
	s.Refused(t, "undo_agent_writes", map[string]any{"version": human}, fmt.Sprintf("write %d is the human's, not yours", human), "propose verb undo")
	s.Refused(t, "undo_agent_writes", nil, "pass since")
	board.Get(t, "/api/cases/"+offsite, &d)
	if d.Case.Status != "in_progress" {
		t.Errorf("the person's status was undone: %+v", d.Case)
	}
}

// rowVersion is the version of the newest Activity row by that actor on a case.
func rowVersion(t *testing.T, board *clienttest.Board, caseID string, actor wire.Actor) int64 {
	t.Helper()
	var feed wire.ActivityFeed
	board.Get(t, "/api/activity?limit=100", &feed)
	for _, r := range feed.Activity {
		if r.CaseID == caseID && r.Actor == actor && r.Version > 0 {
			return r.Version
		}
	}
	t.Fatalf("no %s row with a version on %s", actor, caseID)
	return 0
}

// TestBatches: complete_tasks, link_messages and update_cases' items check
// every item first, change nothing on a bad one, and answer per item.
func TestBatches(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + board.URL}, server, "--toolsets", "core,bulk")
	a := clienttest.FirstID(t, s.OK(t, "create_case", map[string]any{"title": "Alpha"}), "CASE")
	b := clienttest.FirstID(t, s.OK(t, "create_case", map[string]any{"title": "Beta"}), "CASE")
	s.OK(t, "add_task", map[string]any{"caseId": a, "title": "One"})
	s.OK(t, "add_task", map[string]any{"caseId": b, "title": "Two"})

	s.Refused(t, "complete_tasks", map[string]any{"items": []any{
		map[string]any{"caseId": a, "taskId": a + "-T1"}, map[string]any{"caseId": b, "taskId": b + "-T9"}, map[string]any{"caseId": "CASE-99", "taskId": "CASE-99-T1"},
	}}, "Nothing was changed", "1. "+a+" "+a+"-T1: ok", "2. "+b+" "+b+"-T9: task "+b+"-T9 not found in "+b, "3. CASE-99 CASE-99-T1: case CASE-99 not found")
	if done := taskDone(t, board, a); done {
		t.Error("a refused batch completed a task")
	}
	s.OK(t, "complete_tasks", map[string]any{"items": []any{map[string]any{"caseId": a, "taskId": a + "-T1"}, map[string]any{"caseId": b, "taskId": b + "-T1"}}},
		"1. Completed in "+a, "2. Completed in "+b)
	if !taskDone(t, board, a) || !taskDone(t, board, b) {
		t.Error("complete_tasks did not complete both")
	}

	s.Refused(t, "link_messages", map[string]any{"items": []any{
		map[string]any{"caseId": a, "subject": "Quote"}, map[string]any{"caseId": "CASE-98", "subject": "Lost"},
	}}, "Nothing was changed", "1. "+a+": ok", "2. CASE-98: case CASE-98 not found")
	s.Refused(t, "link_messages", map[string]any{"items": []any{map[string]any{"subject": "No case"}}}, "caseId")
	s.OK(t, "link_messages", map[string]any{"items": []any{
		map[string]any{"caseId": a, "subject": "Quote", "from": "ann@example.com"}, map[string]any{"caseId": b, "subject": "Invoice", "from": "bob@example.com"},
	}}, "1. Linked", "Quote", "2. Linked", "Invoice")
	var d client.CaseDetail
	board.Get(t, "/api/cases/"+b, &d)
	if len(d.Messages) != 1 || d.Messages[0].Subject != "Invoice" {
		t.Errorf("link_messages did not link to %s: %+v", b, d.Messages)
	}

	s.Refused(t, "update_cases", map[string]any{"items": []any{
		map[string]any{"id": a, "patch": map[string]any{"status": "done"}}, map[string]any{"id": "CASE-97", "patch": map[string]any{"status": "urgent"}},
	}}, "Nothing was changed", "1. "+a+": ok", "2. CASE-97: not found")
	s.Refused(t, "update_cases", map[string]any{"items": []any{map[string]any{"id": a, "patch": map[string]any{"status": "finished"}}}}, "status")
	s.Refused(t, "update_cases", map[string]any{"ids": []any{a}, "items": []any{map[string]any{"id": a, "patch": map[string]any{"status": "done"}}}}, "pass items alone")
	s.OK(t, "update_cases", map[string]any{"items": []any{
		map[string]any{"id": a, "patch": map[string]any{"status": "done"}}, map[string]any{"id": b, "patch": map[string]any{"status": "urgent", "tags": []any{"money"}}},
	}}, "Updated 2 nodes", "1. Updated "+a, "[done]", "2. Updated "+b, "[urgent]")
	board.Get(t, "/api/cases/"+b, &d)
	if d.Case.Status != "urgent" || strings.Join(d.Case.Tags, ",") != "money" {
		t.Errorf("update_cases items did not land on %s: %+v", b, d.Case)
	}
	s.OK(t, "update_cases", map[string]any{"ids": []any{a, b}, "domain": "life"}, "Updated 2 nodes (domain)")
}

func taskDone(t *testing.T, board *clienttest.Board, caseID string) bool {
	t.Helper()
	var d client.CaseDetail
	board.Get(t, "/api/cases/"+caseID, &d)
	return len(d.Case.Tasks) > 0 && d.Case.Tasks[0].CompletedAt != ""
}

// versionOf reads the version what_changed names, for the next call.
func versionOf(t *testing.T, text string) int64 {
	t.Helper()
	m := versionIn.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no version in:\n%s", text)
	}
	v, _ := strconv.ParseInt(m[1], 10, 64)
	return v
}

// batchesFamily calls the batch, history and toolset tools in the shared
// end-to-end session (every toolset is on there); their refusals and the
// undo itself are in TestBatches and TestWhatChangedAndUndo.
func batchesFamily(t *testing.T, w *world, start string) {
	w.ok(t, "list_toolsets", nil, "core - on", "tree - on")
	w.ok(t, "enable_toolset", map[string]any{"toolset": "bulk"}, "Toolset bulk is already on: nothing added.")
	out := w.ok(t, "create_case", map[string]any{"title": "Batch target"}, "Created")
	id := clienttest.FirstID(t, out, "CASE")
	w.ok(t, "add_task", map[string]any{"caseId": id, "title": "First"})
	w.ok(t, "complete_tasks", map[string]any{"items": []any{map[string]any{"caseId": id, "taskId": id + "-T1"}}}, "1. Completed in "+id)
	w.ok(t, "link_messages", map[string]any{"items": []any{map[string]any{"caseId": id, "subject": "Batch mail"}}}, "1. Linked", "Batch mail")
	w.ok(t, "update_cases", map[string]any{"items": []any{map[string]any{"id": id, "patch": map[string]any{"status": "waiting_for_input"}}}}, "1. Updated "+id)
	w.ok(t, "what_changed", map[string]any{"since": start}, id+` "Batch target" - agent: created, task_added, task_completed, message_linked, status_changed`)
	// The person moved a case earlier in this session, so undoing all the
	// agent's writes since the start is refused; its newest write alone is not.
	w.s.Refused(t, "undo_agent_writes", map[string]any{"since": start, "dryRun": true}, "cannot undo", "their change stands")
	last := rowVersion(t, w.board, id, wire.ActorAgent)
	w.ok(t, "undo_agent_writes", map[string]any{"version": last, "dryRun": true}, "Would undo (dry run, nothing changed): 1 write", "case "+id)
}
