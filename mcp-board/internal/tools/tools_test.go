package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/mcptool/mcptooltest"
	"github.com/opsboard/opsboard/shared/wire"
)

// wantTools is the board server's whole tool list, family by family: a tool
// added, renamed or dropped is a change the agent sees, so it must be deliberate.
func wantTools() map[string][]string {
	return map[string][]string{
		"cases": {"create_case", "get_case", "list_cases", "update_case", "update_cases", "archive_case", "restore_case", "delete_case", "merge_cases",
			"add_task", "update_task", "complete_task", "delete_task", "add_note", "link_message", "update_message",
			"create_initiative", "create_workstream", "set_parent", "regroup_cases", "get_tree", "list_initiatives", "propose", "list_pending"},
		"reminders":  {"create_reminder", "list_reminders", "get_reminder", "update_reminder", "complete_reminder", "delete_reminder", "link_reminder", "link_reminder_message"},
		"priorities": {"get_priorities", "add_priority", "update_priority", "remove_priority", "set_starred"},
		"labels":     {"list_labels", "create_label", "update_label", "delete_label", "list_label_bundles", "install_label_bundle", "uninstall_label_bundle"},
		"gestures":   {"list_views", "save_view", "delete_view", "list_templates", "save_template", "delete_template", "get_prefs", "set_prefs"},
		"search":     {"search"},
		"agenda":     {"agenda", "list_messages"},
		"backups":    {"backup_status", "run_backup"},
		"vault":      {"find_entity", "get_page", "list_unresolved_senders", "create_page", "update_page", "link_page", "merge_pages"},
		"batches":    {"complete_tasks", "link_messages"},
		"history":    {"what_changed", "undo_agent_writes"},
		"toolsets":   {"list_toolsets", "enable_toolset"},
	}
}

// frame is what the frame serves in every selection beside the sets.
var frame = []string{mcptool.EnableToolsetTool, mcptool.ListToolsetsTool}

func withFrame(names ...string) []string {
	out := append(slices.Clone(names), frame...)
	sort.Strings(out)
	return out
}

func allTools(t *testing.T) (read, write []mcp.Tool) {
	t.Helper()
	return mcptooltest.Tools(t, Server(), mcptooltest.NoBoard(t))
}

func TestEveryListedToolIsPresentAndNoOther(t *testing.T) {
	var want []string
	for _, names := range wantTools() {
		want = append(want, names...)
	}
	read, write := allTools(t)
	var got []string
	for _, tl := range append(read, write...) {
		got = append(got, tl.Name)
	}
	sort.Strings(want)
	sort.Strings(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool names (-want +got):\n%s", diff)
	}
	if len(got) != 70 {
		t.Errorf("%d tools, want 70", len(got))
	}
}

func TestAnnotationsAreSetAndTruthful(t *testing.T) {
	read, write := allTools(t)
	check := func(tl mcp.Tool, readOnly bool) {
		a := tl.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: an annotation is unset: %+v", tl.Name, a)
			return
		}
		if *a.ReadOnlyHint != readOnly {
			t.Errorf("%s: readOnlyHint %v, want %v", tl.Name, *a.ReadOnlyHint, readOnly)
		}
		if *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint true for a local board", tl.Name)
		}
		if readOnly && (*a.DestructiveHint || !*a.IdempotentHint) {
			t.Errorf("%s: a read must be non-destructive and idempotent", tl.Name)
		}
		removes := strings.HasPrefix(tl.Name, "delete_") || strings.HasPrefix(tl.Name, "remove_") || strings.HasPrefix(tl.Name, "uninstall_") || strings.HasPrefix(tl.Name, "update_") || tl.Name == "archive_case"
		if removes && !*a.DestructiveHint {
			t.Errorf("%s: removes or overwrites data but is not marked destructive", tl.Name)
		}
		creates := strings.HasPrefix(tl.Name, "create_") || strings.HasPrefix(tl.Name, "add_") || strings.HasPrefix(tl.Name, "link_") && strings.HasSuffix(tl.Name, "message")
		if creates && *a.DestructiveHint {
			t.Errorf("%s: only adds but is marked destructive", tl.Name)
		}
	}
	for _, tl := range read {
		check(tl, true)
	}
	for _, tl := range write {
		check(tl, false)
	}
	// The deduplicated creates are idempotent; the plain adds are not.
	for _, tl := range write {
		switch tl.Name {
		case "create_case", "create_initiative", "create_workstream", "create_reminder", "create_label", "create_page":
			if !*tl.Annotations.IdempotentHint {
				t.Errorf("%s deduplicates, so it is idempotent", tl.Name)
			}
		case "add_task", "add_note", "add_priority", "link_message", "link_reminder_message", "propose":
			if *tl.Annotations.IdempotentHint {
				t.Errorf("%s adds a record per call, so it is not idempotent", tl.Name)
			}
		}
	}
}

// TestSchemasAreTyped checks what clients reject or models misuse: arrays
// without items, required names that are not properties, untyped or
// undescribed properties, unknown arguments allowed, and the enum sets.
func TestSchemasAreTyped(t *testing.T) {
	read, write := allTools(t)
	enums := map[string][]string{"status": wire.Lanes(), "domain": wire.Domains(), "kind": wire.Kinds(), "color": wire.LabelColors}
	for _, tl := range append(read, write...) {
		mcptooltest.CheckSchema(t, tl)
		for name, raw := range tl.InputSchema.Properties {
			want, ok := enums[name]
			if !ok {
				continue
			}
			switch {
			case strings.Contains(tl.Name, "reminder") && name == "status":
				want = wire.ReminderStatuses()
			case tl.Name == "list_label_bundles" && name == "kind":
				want = []string{"role", "life", "universal"}
			}
			if got, _ := raw.(map[string]any)["enum"].([]string); !slices.Equal(got, want) {
				t.Errorf("%s.%s: enum %v, want %v", tl.Name, name, got, want)
			}
		}
	}
}

// TestToolSnapshots keeps every tool's name, description, annotations and
// input schema in testdata/tools/<name>.json, so any change to what the
// agent sees is a deliberate diff. UPDATE_SNAPSHOTS=1 rewrites them.
func TestToolSnapshots(t *testing.T) {
	read, write := allTools(t)
	mcptooltest.Snapshots(t, filepath.Join("testdata", "tools"), append(read, write...))
}

func TestArgumentsAreCheckedAgainstTheSchema(t *testing.T) {
	tools := map[string]mcp.Tool{}
	read, write := allTools(t)
	for _, tl := range append(read, write...) {
		tools[tl.Name] = tl
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string // "" means accepted
	}{
		{"create_case", map[string]any{"title": "x"}, ""},
		{"create_case", map[string]any{}, "argument title is required"},
		{"create_case", map[string]any{"title": 7}, "argument title must be a string, not 7"},
		{"create_case", map[string]any{"title": "x", "lane": "done"}, "unknown argument lane: the accepted ones are domain, dueAt, eta, kind, labels, parentId, status, summary, tags, tasks, title, vaultLinks"},
		{"create_case", map[string]any{"title": "x", "status": "finished"}, "argument status must be one of urgent, todo, in_progress, waiting_for_input, done, not \"finished\""},
		{"create_case", map[string]any{"title": "x", "labels": "blocked"}, "argument labels must be an array, not the string \"blocked\""},
		{"create_case", map[string]any{"title": "x", "labels": []any{"a", 2.0}}, "argument labels[1] must be a string, not 2"},
		{"create_case", map[string]any{"title": "x", "tasks": []any{map[string]any{"detail": "d"}}}, "argument tasks[0].title is required"},
		{"create_case", map[string]any{"title": "x", "tasks": []any{map[string]any{"title": "t", "owner": "me"}}}, "unknown argument owner in tasks[0]"},
		{"set_parent", map[string]any{"id": "CASE-1", "parentId": nil}, ""},
		{"set_parent", map[string]any{"id": "CASE-1"}, "argument parentId is required"},
		{"get_case", map[string]any{"id": nil}, "argument id must not be null"},
		{"list_cases", map[string]any{"limit": 2.5}, "argument limit must be an integer, not 2.5"},
		{"list_cases", map[string]any{"limit": 0.0}, "argument limit must be at least 1, not 0"},
		{"update_cases", map[string]any{"ids": []any{}, "status": "done"}, "argument ids needs at least 1 item(s)"},
		{"search", map[string]any{"q": "x", "types": []any{"people"}}, "argument types[0] must be one of case, task, message, reminder, not \"people\""},
		{"add_priority", map[string]any{"text": ""}, "argument text must not be empty"},
		{"create_label", map[string]any{"title": "x", "color": "neon"}, "argument color must be one of amber"},
		{"propose", map[string]any{"verb": "update_case", "payload": map[string]any{"id": "CASE-1", "anything": true}, "summary": "s"}, ""},
		{"find_entity", map[string]any{}, "argument query is required"},
		{"find_entity", map[string]any{"query": "Alice", "type": "people"}, "argument type must be one of person, organization, project, topic, not \"people\""},
		{"create_page", map[string]any{"title": "Alice"}, "argument type is required"},
		{"create_page", map[string]any{"title": "Alice", "type": "person", "emails": "a@b.test"}, "argument emails must be an array"},
		{"update_page", map[string]any{"id": "V-1", "rename": "Bob"}, "unknown argument rename: the accepted ones are aliases, append, body, domains, dryRun, emails, id, title"},
		{"link_page", map[string]any{"caseId": "CASE-1"}, "argument pageId is required"},
		{"merge_pages", map[string]any{"sourceId": "V-2", "intoId": "V-3", "dryRun": "yes"}, "argument dryRun must be a boolean"},
	} {
		t.Run(tc.tool+" "+fmt.Sprint(tc.args), func(t *testing.T) {
			mcptooltest.CheckArguments(t, tools[tc.tool], tc.args, tc.want)
		})
	}
}

// selected lists the names of the tools a selection serves.
func selected(t *testing.T, sel mcptool.Selection) []string {
	t.Helper()
	tools, err := Server().Tools(mcptooltest.NoBoard(t), sel)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, st := range tools {
		names = append(names, st.Tool.Name)
	}
	sort.Strings(names)
	return names
}

// TestToolsets: each set holds the tools its name promises, all of them
// together are every tool, approval and the bulk sweep are in none, and
// --read-only keeps exactly the tools that say they only read.
func TestToolsets(t *testing.T) {
	want := map[string][]string{
		SetCore: {"add_note", "add_priority", "add_task", "agenda", "archive_case", "complete_reminder", "complete_task", "create_case", "create_reminder",
			"delete_reminder", "delete_task", "find_entity", "get_case", "get_page", "get_priorities", "get_reminder", "get_tree", "link_message", "link_reminder", "link_reminder_message", "list_cases",
			"list_labels", "list_messages", "list_pending", "list_reminders", "merge_cases", "propose", "remove_priority", "restore_case", "search",
			"set_parent", "set_starred", "update_case", "update_message", "update_priority", "update_reminder", "update_task", "what_changed"},
		SetLabels: {"list_label_bundles", "list_labels"},
		SetSaved:  {"delete_template", "delete_view", "get_prefs", "list_templates", "list_views", "save_template", "save_view", "set_prefs"},
		SetAdmin:  {"backup_status", "create_label", "delete_case", "delete_label", "install_label_bundle", "run_backup", "undo_agent_writes", "uninstall_label_bundle", "update_label"},
		SetVault:  {"create_page", "find_entity", "get_page", "link_page", "list_unresolved_senders", "merge_pages", "update_page"},
		SetBulk:   {"complete_tasks", "link_messages", "regroup_cases", "update_cases"},
		SetTree:   {"create_initiative", "create_workstream", "list_initiatives"},
	}
	for set, names := range want {
		if diff := cmp.Diff(withFrame(names...), selected(t, mcptool.Selection{Toolsets: []string{set}})); diff != "" {
			t.Errorf("toolset %s (-want +got)\n%s", set, diff)
		}
	}
	if diff := cmp.Diff(withFrame(want[SetCore]...), selected(t, mcptool.Selection{})); diff != "" {
		t.Errorf("the default is not core (-want +got)\n%s", diff)
	}
	all := selected(t, mcptool.Selection{Toolsets: []string{mcptool.AllToolsets}})
	var every []string
	for _, names := range wantTools() {
		every = append(every, names...)
	}
	sort.Strings(every)
	if diff := cmp.Diff(every, all); diff != "" {
		t.Errorf("all (-want +got)\n%s", diff)
	}
	for _, name := range all {
		if name == "approve_pending" || name == "reject_pending" || strings.Contains(name, "clean") {
			t.Errorf("%s is the person's, not an agent tool", name)
		}
	}
	read, _ := allTools(t)
	var readNames []string
	for _, tl := range read {
		readNames = append(readNames, tl.Name)
	}
	sort.Strings(readNames)
	if diff := cmp.Diff(readNames, selected(t, mcptool.Selection{Toolsets: []string{mcptool.AllToolsets}, ReadOnly: true})); diff != "" {
		t.Errorf("read-only all (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(withFrame("backup_status"), selected(t, mcptool.Selection{Toolsets: []string{SetAdmin}, ReadOnly: true})); diff != "" {
		t.Errorf("read-only admin (-want +got)\n%s", diff)
	}
}

// TestProposeChecksThePayloadAsTheToolWould: a payload is refused before
// the board is asked, in the words the mirrored tool would use; a good
// one goes on to the board (here, none is running).
func TestProposeChecksThePayloadAsTheToolWould(t *testing.T) {
	tools := map[string]server.ServerTool{}
	for _, st := range append(Server().ReadTools(mcptooltest.NoBoard(t)), Server().WriteTools(mcptooltest.NoBoard(t))...) {
		tools[st.Tool.Name] = st
	}
	call := func(name string, args map[string]any) string {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, args
		res, err := tools[name].Handler(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(mcp.TextContent).Text
	}
	for _, tc := range []struct {
		verb    string
		payload map[string]any
		tool    string         // the mirrored tool
		args    map[string]any // the same arguments to it; nil: payload
	}{
		{"merge", map[string]any{"id": "CASE-1", "targetId": "CASE-2"}, "merge_cases", nil},
		{"merge", map[string]any{"sourceId": "CASE-1"}, "merge_cases", nil},
		{"update_cases", map[string]any{"ids": []any{"CASE-1"}, "patch": map[string]any{"status": "done"}}, "update_cases", nil},
		{"update_case", map[string]any{"id": "CASE-1", "status": "finished"}, "update_case", nil},
		{"archive", map[string]any{"id": "CASE-1", "why": "old"}, "archive_case", nil},
		{"create_case", map[string]any{"title": 7}, "create_case", nil},
		{"update_reminder", map[string]any{"id": "REM-1", "status": "closed"}, "update_reminder", nil},
	} {
		got := call("propose", map[string]any{"verb": tc.verb, "payload": tc.payload, "summary": "s"})
		want := "payload: " + call(tc.tool, tc.payload)
		if got != want {
			t.Errorf("propose %s %v:\n got %q\nwant %q", tc.verb, tc.payload, got, want)
		}
	}
	if got := call("propose", map[string]any{"verb": "update_event", "payload": map[string]any{"id": "EVT-1", "date": "tomorrow"}, "summary": "s"}); !strings.Contains(got, "payload: update_event: argument date \"tomorrow\" does not have the expected form") {
		t.Errorf("update_event: %q", got)
	}
	// undo has no tool: its payload is {version, through?} or {writesBy,
	// since, through?}; which of the two is the board's to check.
	if got := call("propose", map[string]any{"verb": "undo", "payload": map[string]any{"version": 0}, "summary": "s"}); !strings.Contains(got, "payload: ") || !strings.Contains(got, "version") {
		t.Errorf("undo of version 0: %q", got)
	}
	for _, p := range []map[string]any{{"version": 12}, {"writesBy": "agent", "since": "2026-11-26T09:00:00Z", "through": true}} {
		if got := call("propose", map[string]any{"verb": "undo", "payload": p, "summary": "s"}); !strings.Contains(got, "board is not running") {
			t.Errorf("a good undo payload %v does not reach the board: %q", p, got)
		}
	}
	if got := call("propose", map[string]any{"verb": "merge", "payload": map[string]any{"sourceId": "CASE-1", "targetId": "CASE-2"}, "summary": "s"}); !strings.Contains(got, "board is not running") {
		t.Errorf("a good payload does not reach the board: %q", got)
	}
}
