package tools

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/mcptool/mcptooltest"
	"github.com/opsboard/opsboard/shared/wire"
)

func allTools(t *testing.T) (read, write []mcp.Tool) {
	t.Helper()
	return mcptooltest.Tools(t, Server(), mcptooltest.NoBoard(t))
}

func TestEveryListedToolIsPresentAndNoOther(t *testing.T) {
	want := []string{"create_event", "list_events", "get_event", "update_event", "delete_event", "link_event"}
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
}

func TestAnnotationsAreSetAndTruthful(t *testing.T) {
	read, write := allTools(t)
	want := map[string][3]bool{ // readOnly, destructive, idempotent
		"list_events":  {true, false, true},
		"get_event":    {true, false, true},
		"create_event": {false, false, true}, // deduplicated: the same call twice makes one event
		"update_event": {false, true, true},
		"delete_event": {false, true, true},
		"link_event":   {false, true, true},
	}
	for i, tl := range append(read, write...) {
		a := tl.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Fatalf("%s: an annotation is unset: %+v", tl.Name, a)
		}
		got := [3]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint}
		if got != want[tl.Name] {
			t.Errorf("%s: readOnly, destructive, idempotent = %v, want %v", tl.Name, got, want[tl.Name])
		}
		if *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint true for a local board", tl.Name)
		}
		if isRead := i < len(read); isRead != *a.ReadOnlyHint {
			t.Errorf("%s: registered as read %v but readOnlyHint %v", tl.Name, isRead, *a.ReadOnlyHint)
		}
	}
}

func TestSchemasAreTyped(t *testing.T) {
	read, write := allTools(t)
	for _, tl := range append(read, write...) {
		mcptooltest.CheckSchema(t, tl)
		if p, ok := tl.InputSchema.Properties["domain"].(map[string]any); ok {
			if got, _ := p["enum"].([]string); !slices.Equal(got, wire.Domains()) {
				t.Errorf("%s.domain: enum %v", tl.Name, p["enum"])
			}
		}
	}
}

// TestToolSnapshots keeps every tool's name, description, annotations and
// input schema in testdata/tools/<name>.json. UPDATE_SNAPSHOTS=1 rewrites.
func TestToolSnapshots(t *testing.T) {
	read, write := allTools(t)
	mcptooltest.Snapshots(t, filepath.Join("testdata", "tools"), append(read, write...))
}

func TestChronological(t *testing.T) {
	events := []wire.Event{
		{ID: "EVT-1", Date: "2030-01-02", StartTime: "09:00"},
		{ID: "EVT-2", Date: "2030-01-01", StartTime: "15:00"},
		{ID: "EVT-3", Date: "2030-01-02", AllDay: true},
		{ID: "EVT-4", Date: "2030-01-01", StartTime: "08:30"},
		{ID: "EVT-5", Date: "2030-01-02", StartTime: "09:00"},
	}
	Chronological(events)
	var got []string
	for _, e := range events {
		got = append(got, e.ID)
	}
	if diff := cmp.Diff([]string{"EVT-4", "EVT-2", "EVT-3", "EVT-1", "EVT-5"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
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
		{"create_event", map[string]any{"title": "x", "date": "2030-01-02"}, ""},
		{"create_event", map[string]any{"title": "x"}, "argument date is required"},
		{"create_event", map[string]any{"title": "x", "date": "02/01/2030"}, "argument date \"02/01/2030\" does not have the expected form"},
		{"create_event", map[string]any{"title": "x", "date": "2030-01-02", "time": "10:00"}, "unknown argument time"},
		{"create_event", map[string]any{"title": "x", "date": "2030-01-02", "domain": "home"}, "argument domain must be one of work, life"},
		{"link_event", map[string]any{"id": "EVT-1", "caseId": nil}, ""},
		{"link_event", map[string]any{"id": "EVT-1"}, ""},
		{"list_events", map[string]any{"limit": "ten"}, "argument limit must be an integer"},
	} {
		t.Run(tc.tool+" "+fmt.Sprint(tc.args), func(t *testing.T) {
			mcptooltest.CheckArguments(t, tools[tc.tool], tc.args, tc.want)
		})
	}
}
