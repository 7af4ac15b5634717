// Package mcptooltest checks a tool server's tools the same way in every
// server: the schema rules clients and models rely on, a snapshot of what
// the agent sees, and the argument check that runs before each handler.
package mcptooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

// Tools are the server's read and write tools over every toolset, built
// around d; listing tools never calls it, so a client of a service nobody
// serves will do.
func Tools[D any](t testing.TB, s mcptool.Server[D], d D) (read, write []mcp.Tool) {
	t.Helper()
	for _, st := range s.ReadTools(d) {
		read = append(read, st.Tool)
	}
	for _, st := range s.WriteTools(d) {
		write = append(write, st.Tool)
	}
	return read, write
}

// NoBoard is a client of a board nobody serves, for listing tools.
func NoBoard(t testing.TB) *client.Client {
	t.Helper()
	c, err := client.New("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// PlainNames are argument names that say all there is to say about a
// string, boolean or array of strings, so their schema may leave the
// description out: every byte of a tool list is paid by the agent on every
// session.
var PlainNames = map[string]bool{
	"title": true, "detail": true, "summary": true, "text": true, "domain": true, "status": true, "kind": true,
	"tags": true, "subject": true, "preview": true, "from": true, "to": true, "cc": true, "read": true,
}

// CheckSchema reports what clients reject or models misuse: no
// description, unknown arguments allowed, required names that are not
// properties, untyped properties, undescribed ones (but PlainNames),
// arrays without items.
func CheckSchema(t testing.TB, tl mcp.Tool) {
	t.Helper()
	s := tl.InputSchema
	if tl.Description == "" {
		t.Errorf("%s: no description", tl.Name)
	}
	if s.AdditionalProperties != false {
		t.Errorf("%s: additionalProperties must be false so unknown arguments are refused", tl.Name)
	}
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; !ok {
			t.Errorf("%s: required %q is not a property", tl.Name, r)
		}
	}
	for name, raw := range s.Properties {
		p := raw.(map[string]any)
		if p["type"] == nil || p["description"] == nil && !PlainNames[name] {
			t.Errorf("%s.%s: needs a type and a description", tl.Name, name)
		}
		checkItems(t, tl.Name+"."+name, p)
	}
}

// checkItems walks a property schema: every array declares its items.
func checkItems(t testing.TB, path string, p map[string]any) {
	t.Helper()
	if p["type"] == "array" {
		items, ok := p["items"].(map[string]any)
		if !ok {
			t.Errorf("%s: array without items", path)
			return
		}
		checkItems(t, path+"[]", items)
	}
	if props, ok := p["properties"].(map[string]any); ok {
		for name, raw := range props {
			if sub, ok := raw.(map[string]any); ok {
				checkItems(t, path+"."+name, sub)
			}
		}
	}
}

// Snapshots keeps every tool's name, description, annotations and input
// schema in dir/<name>.json, so any change to what the agent sees is a
// deliberate diff. UPDATE_SNAPSHOTS=1 rewrites them.
func Snapshots(t testing.TB, dir string, tools []mcp.Tool) {
	t.Helper()
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
	for _, tl := range tools {
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

// CheckArguments calls tool with args through the argument check: want ""
// means the handler must run; otherwise the call must be refused, without
// running the handler, with an error containing want.
func CheckArguments(t testing.TB, tool mcp.Tool, args map[string]any, want string) {
	t.Helper()
	called := false
	h := mcptool.Validated(tool, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		called = true
		return mcp.NewToolResultText("ok"), nil
	})
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool.Name, args
	res, err := h(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(mcp.TextContent).Text
	if want == "" {
		if res.IsError || !called {
			t.Errorf("refused: %s", text)
		}
		return
	}
	if !res.IsError || called || !strings.Contains(text, want) {
		t.Errorf("got %q (error %v, handler called %v), want an error containing %q", text, res.IsError, called, want)
	}
}
