package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/mcptool/mcptooltest"
	"github.com/opsboard/opsboard/shared/wire"
)

func echo(*client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("echo",
		mcp.WithDescription("Say it back."),
		mcp.WithString("text", mcp.Required(), mcp.Description("What to say.")),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(_ context.Context, a *mcptool.Args) (string, error) {
		text := a.Str("text")
		if text == "fail" {
			return "", errors.New("the board said no")
		}
		return text, a.Err()
	})
}

func forget(*client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("forget", mcp.WithDescription("Forget it."), mcptool.Destructive(mcptool.Idempotent))
	return tool, mcptool.Handle(func(context.Context, *mcptool.Args) (string, error) { return "Forgotten.", nil })
}

var sampleServer = mcptool.Server[*client.Client]{
	Name: "sample", Version: "1.0.0", Instructions: "Say things.",
	Toolsets: []mcptool.Toolset[*client.Client]{{Name: "talk", Read: []mcptool.Constructor[*client.Client]{echo}, Write: []mcptool.Constructor[*client.Client]{forget}}},
}

func call(t *testing.T, st server.ServerTool, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = st.Tool.Name, args
	res, err := st.Handler(context.Background(), req)
	if err != nil {
		t.Fatalf("a tool failure must be a tool result, not %v", err)
	}
	return res.Content[0].(mcp.TextContent).Text, res.IsError
}

// TestRegisteredToolsAreChecked: a registered handler answers in text, a
// failure is a tool error in the board's words, and the arguments are
// checked against the schema before the handler runs.
func TestRegisteredToolsAreChecked(t *testing.T) {
	c, err := client.New("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	read := sampleServer.ReadTools(c)
	if len(read) != 1 || len(sampleServer.WriteTools(c)) != 1 {
		t.Fatalf("%d read and %d write tools, want one of each", len(read), len(sampleServer.WriteTools(c)))
	}
	for _, tc := range []struct {
		args    map[string]any
		want    string
		isError bool
	}{
		{map[string]any{"text": " hi "}, "hi", false},
		{map[string]any{"text": "fail"}, "the board said no", true},
		{map[string]any{"text": "hi", "loud": true}, "echo: unknown argument loud: the accepted ones are text", true},
	} {
		text, isErr := call(t, read[0], tc.args)
		if text != tc.want || isErr != tc.isError {
			t.Errorf("%v: got %q (error %v), want %q (error %v)", tc.args, text, isErr, tc.want, tc.isError)
		}
	}
	srv, err := sampleServer.MCPServer(c, mcptool.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.ListTools()) != 2 {
		t.Errorf("%d tools registered, want 2", len(srv.ListTools()))
	}
}

func TestSampleSchemas(t *testing.T) {
	read, write := mcptooltest.Tools(t, sampleServer, mcptooltest.NoBoard(t))
	for _, tl := range append(read, write...) {
		mcptooltest.CheckSchema(t, tl)
	}
}

func TestEventLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    wire.Event
		want string
	}{
		{"all day", wire.Event{ID: "EVT-1", Date: "2030-01-02", AllDay: true, StartTime: "09:00", Title: "Offsite"}, "EVT-1 - 2030-01-02 all day - Offsite"},
		{"start and end", wire.Event{ID: "EVT-2", Date: "2030-01-02", StartTime: "09:00", EndTime: "10:00", Title: "Standup", Location: "Room 4"}, "EVT-2 - 2030-01-02 09:00-10:00 - Standup @ Room 4"},
		{"start only, linked", wire.Event{ID: "EVT-3", Date: "2030-01-02", StartTime: "09:00", Title: "Call", CaseID: "CASE-7", Domain: "work"}, "EVT-3 - 2030-01-02 09:00 - Call - case CASE-7 - work"},
		{"no time", wire.Event{ID: "EVT-4", Date: "2030-01-02", Title: "Deadline"}, "EVT-4 - 2030-01-02 - Deadline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mcptool.EventLine(tc.e); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// note is a server whose dependency is a plain string, to show the frame
// needs no board client.
func note(prefix string) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("note", mcp.WithDescription("Say the prefix."), mcptool.ReadOnly())
	return tool, mcptool.Handle(func(context.Context, *mcptool.Args) (string, error) { return prefix, nil })
}

func named(name string, readOnly bool) mcptool.Constructor[string] {
	hint := mcptool.Additive(mcptool.NotIdempotent)
	if readOnly {
		hint = mcptool.ReadOnly()
	}
	return func(string) (mcp.Tool, server.ToolHandlerFunc) {
		return mcp.NewTool(name, mcp.WithDescription(name), hint), mcptool.Handle(func(context.Context, *mcptool.Args) (string, error) { return name, nil })
	}
}

var setsServer = mcptool.Server[string]{
	Name: "sets", Version: "1",
	Toolsets: []mcptool.Toolset[string]{
		{Name: "core", Read: []mcptool.Constructor[string]{note, named("get_a", true)}, Write: []mcptool.Constructor[string]{named("add_a", false)}},
		{Name: "extra", Read: []mcptool.Constructor[string]{named("get_a", true), named("get_b", true)}, Write: []mcptool.Constructor[string]{named("add_b", false)}},
		{Name: "admin", Write: []mcptool.Constructor[string]{named("wipe", false)}},
	},
	Default: []string{"core"},
}

func TestToolsetSelection(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sel     mcptool.Selection
		want    []string
		wantErr string
	}{
		{"default", mcptool.Selection{}, []string{"note", "get_a", "add_a"}, ""},
		{"two sets, a shared tool once", mcptool.Selection{Toolsets: []string{"extra", "core"}}, []string{"note", "get_a", "get_b", "add_a", "add_b"}, ""},
		{"all", mcptool.Selection{Toolsets: []string{"all"}}, []string{"note", "get_a", "get_b", "add_a", "add_b", "wipe"}, ""},
		{"read-only default", mcptool.Selection{ReadOnly: true}, []string{"note", "get_a"}, ""},
		{"read-only admin", mcptool.Selection{Toolsets: []string{"admin"}, ReadOnly: true}, nil, ""},
		{"unknown", mcptool.Selection{Toolsets: []string{"core", "calendar"}}, nil, `unknown toolset "calendar": the toolsets are core, extra, admin, all`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools, err := setsServer.Tools("p", tc.sel)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, st := range tools {
				got = append(got, st.Tool.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tools (-want +got)\n%s", diff)
			}
		})
	}
	if got := mcptool.ParseToolsets(" Core, ,extra "); !cmp.Equal(got, []string{"core", "extra"}) {
		t.Errorf("ParseToolsets: %v", got)
	}
}

// TestCheckerSpeaksLikeTheTool: a tool's arguments checked outside its
// handler are refused in the same words.
func TestCheckerSpeaksLikeTheTool(t *testing.T) {
	tool, _ := echo(nil)
	check := mcptool.Checker(tool)
	if err := check(map[string]any{"text": "hi"}); err != nil {
		t.Errorf("accepted arguments refused: %v", err)
	}
	if err := check(map[string]any{"txt": "hi"}); err == nil || err.Error() != "echo: unknown argument txt: the accepted ones are text" {
		t.Errorf("got %v", err)
	}
}

func TestHumanChangeIsAnAnswerNotAFailure(t *testing.T) {
	refused := &client.BoardError{Status: 400, Message: "CASE-1: the person changed 'status' at T; propose it instead",
		HumanChange: &wire.HumanChange{Field: "status", Actor: "human", TS: "2026-11-24T09:00:00Z", Value: json.RawMessage(`"done"`)}}
	for _, tc := range []struct {
		name    string
		err     error
		isError bool
		want    string
	}{
		{"the revert refusal is a normal result", fmt.Errorf("update: %w", refused), false,
			"Not changed, the person's change stands (field status = \"done\", changed by the human at 2026-11-24T09:00:00Z). update: CASE-1: the person changed 'status' at T; propose it instead"},
		{"any other refusal stays an error", &client.BoardError{Status: 400, Message: "field 'status' must be one of"}, true, "field 'status' must be one of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := mcptool.Handle(func(context.Context, *mcptool.Args) (string, error) { return "", tc.err })
			res, err := h(context.Background(), mcp.CallToolRequest{})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(mcp.TextContent).Text
			if res.IsError != tc.isError || text != tc.want {
				t.Errorf("got isError %v %q, want %v %q", res.IsError, text, tc.isError, tc.want)
			}
		})
	}
}
