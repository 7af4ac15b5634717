package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/wire"
)

func allTools(t *testing.T) (read, write []mcp.Tool) {
	t.Helper()
	c, err := client.New("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range ReadTools(c) {
		read = append(read, st.Tool)
	}
	for _, st := range WriteTools(c) {
		write = append(write, st.Tool)
	}
	return read, write
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
		s := tl.InputSchema
		if s.AdditionalProperties != false {
			t.Errorf("%s: unknown arguments must be refused", tl.Name)
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", tl.Name, r)
			}
		}
		for name, raw := range s.Properties {
			p := raw.(map[string]any)
			if p["type"] == nil || p["description"] == nil {
				t.Errorf("%s.%s: needs a type and a description", tl.Name, name)
			}
			if p["type"] == "array" && p["items"] == nil {
				t.Errorf("%s.%s: array without items", tl.Name, name)
			}
			if name == "domain" && !slices.Equal(p["enum"].([]string), wire.Domains) {
				t.Errorf("%s.domain: enum %v", tl.Name, p["enum"])
			}
		}
	}
}

// TestToolSnapshots keeps every tool's name, description, annotations and
// input schema in testdata/tools/<name>.json. UPDATE_SNAPSHOTS=1 rewrites.
func TestToolSnapshots(t *testing.T) {
	read, write := allTools(t)
	dir := filepath.Join("testdata", "tools")
	update := os.Getenv("UPDATE_SNAPSHOTS") == "1"
	if update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for _, tl := range append(read, write...) {
		data, err := json.MarshalIndent(tl, "", "  ")
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		data = append(data, '\n')
		path := filepath.Join(dir, tl.Name+".json")
		seen[tl.Name+".json"] = true
		if update {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot (run with UPDATE_SNAPSHOTS=1): %v", tl.Name, err)
			continue
		}
		if !bytes.Equal(want, data) {
			t.Errorf("%s changed (run with UPDATE_SNAPSHOTS=1 if deliberate) (-snapshot +now):\n%s", tl.Name, cmp.Diff(string(want), string(data)))
		}
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen[f.Name()] {
			t.Errorf("snapshot %s belongs to no tool: remove it (UPDATE_SNAPSHOTS=1 does)", f.Name())
		}
	}
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
			called := false
			h := validated(tools[tc.tool], func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				called = true
				return mcp.NewToolResultText("ok"), nil
			})
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = tc.tool, tc.args
			res, err := h(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(mcp.TextContent).Text
			if tc.want == "" {
				if res.IsError || !called {
					t.Errorf("refused: %s", text)
				}
				return
			}
			if !res.IsError || called || !strings.Contains(text, tc.want) {
				t.Errorf("got %q (error %v, handler called %v), want an error containing %q", text, res.IsError, called, tc.want)
			}
		})
	}
}
