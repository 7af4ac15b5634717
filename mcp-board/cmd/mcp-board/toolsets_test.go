package main

import (
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// Budget of the default toolset: what an agent pays before its first
// message. Above 40 tools some clients refuse the server; 24,000 bytes of
// tools/list is about 6k tokens.
const (
	maxDefaultTools = 40
	maxDefaultBytes = 24000
)

// frame is what every selection serves besides its sets' tools.
var frame = []string{"enable_toolset", "list_toolsets"}

// toolsets is what each --toolsets name serves.
func toolsets() map[string][]string {
	return map[string][]string{
		"core": {"add_note", "add_priority", "add_task", "agenda", "archive_case", "complete_reminder", "complete_task", "create_case", "create_reminder",
			"delete_reminder", "delete_task", "find_entity", "get_case", "get_page", "get_priorities", "get_reminder", "get_tree", "link_message", "link_reminder", "link_reminder_message", "list_cases",
			"list_labels", "list_messages", "list_pending", "list_reminders", "merge_cases", "propose", "remove_priority", "restore_case", "search",
			"set_parent", "set_starred", "update_case", "update_message", "update_priority", "update_reminder", "update_task", "what_changed"},
		"labels": {"list_label_bundles", "list_labels"},
		"saved":  {"delete_template", "delete_view", "get_prefs", "list_templates", "list_views", "save_template", "save_view", "set_prefs"},
		"admin":  {"backup_status", "create_label", "delete_case", "delete_label", "install_label_bundle", "run_backup", "undo_agent_writes", "uninstall_label_bundle", "update_label"},
		"vault":  {"create_page", "find_entity", "get_page", "link_page", "list_unresolved_senders", "merge_pages", "update_page"},
		"bulk":   {"complete_tasks", "link_messages", "regroup_cases", "update_cases"},
		"tree":   {"create_initiative", "create_workstream", "list_initiatives"},
		"all":    wantTools(),
	}
}

func names(tools []mcp.Tool) []string {
	out := make([]string, 0, len(tools))
	for _, tl := range tools {
		out = append(out, tl.Name)
	}
	sort.Strings(out)
	return out
}

// TestToolsets starts the server once per toolset through a real MCP
// client, checks the tools it lists and measures what the list costs; the
// default set must stay within the budget. The figures are logged for the
// README's table (go test -run TestToolsets -v).
func TestToolsets(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	env := []string{"CRM_BASE_URL=" + board.URL}
	for _, set := range []string{"", "core", "labels", "saved", "admin", "vault", "bulk", "tree", "all", "labels,saved", "core,vault"} {
		name := set
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			var args []string
			if set != "" {
				args = []string{"--toolsets", set}
			}
			s := clienttest.StartSessionWith(t, bin, env, server, args...)
			tools, size := s.ListBytes(t)
			got := names(tools)
			want := slices.Clone(frame) // every selection can list and enable the others
			for _, part := range strings.Split(set, ",") {
				if part == "" {
					part = "core"
				}
				for _, n := range toolsets()[part] {
					if !slices.Contains(want, n) {
						want = append(want, n)
					}
				}
			}
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("tools:\n got %v\nwant %v", got, want)
			}
			t.Logf("toolset %s: %d tools, %d bytes of tools/list", name, len(tools), size)
			if set == "" && (len(tools) > maxDefaultTools || size > maxDefaultBytes) {
				t.Errorf("the default set costs %d tools and %d bytes, over the budget of %d tools and %d bytes", len(tools), size, maxDefaultTools, maxDefaultBytes)
			}
		})
	}
	t.Run("SVC_TOOLSETS", func(t *testing.T) {
		s := clienttest.StartSessionWith(t, bin, append(env, "SVC_TOOLSETS=saved"), server)
		want := append(slices.Clone(frame), toolsets()["saved"]...)
		sort.Strings(want)
		if got := names(s.Tools(t)); !slices.Equal(got, want) {
			t.Errorf("SVC_TOOLSETS=saved serves %v", got)
		}
	})
	t.Run("an unknown toolset stops the server", func(t *testing.T) {
		cmd := exec.Command(bin, "--toolsets", "core,calendar")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatal("the server started with an unknown toolset")
		}
		if !strings.Contains(string(out), `unknown toolset \"calendar\": the toolsets are core, labels, saved, admin, vault, bulk, tree, all`) {
			t.Errorf("the error does not name the toolsets:\n%s", out)
		}
	})
}

// TestReadOnly: --read-only registers only the tools whose read-only hint
// is true, in every toolset, and a write is not there to call.
func TestReadOnly(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	for _, set := range []string{"core", "all"} {
		t.Run(set, func(t *testing.T) {
			s := clienttest.StartSessionWith(t, bin, []string{"CRM_BASE_URL=" + board.URL}, server, "--read-only", "--toolsets", set)
			tools, size := s.ListBytes(t)
			for _, tl := range tools {
				if tl.Annotations.ReadOnlyHint == nil || !*tl.Annotations.ReadOnlyHint {
					t.Errorf("%s is served read-only but is not read-only", tl.Name)
				}
			}
			t.Logf("toolset %s --read-only: %d tools, %d bytes of tools/list", set, len(tools), size)
			// list_toolsets and enable_toolset change only the session, so
			// they stay; what_changed joined core's reads, list_initiatives
			// left them for tree.
			want := map[string]int{"core": 16, "all": 23}[set]
			if len(tools) != want {
				t.Errorf("%d read-only tools in %s, want %d: %v", len(tools), set, want, names(tools))
			}
			s.OK(t, "get_tree", nil)
			if _, _, err := s.Try(clienttest.Context(t), "create_case", map[string]any{"title": "x"}); err == nil {
				t.Error("create_case answered in a read-only session")
			}
		})
	}
}
