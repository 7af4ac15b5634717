package mcptool_test

import (
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/mcptool/mcptooltest"
)

// sample uses every schema keyword the check covers.
var sample = mcp.NewTool("sample",
	mcp.WithDescription("A tool for the tests."),
	mcp.WithString("id", mcp.Required(), mcp.Description("Id, e.g. CASE-1."), mcp.Pattern(`^CASE-\d+$`)),
	mcp.WithString("text", mcp.Description("Text."), mcp.MinLength(1)),
	mcp.WithString("color", mcp.Description("Colour."), mcp.Enum("red", "blue")),
	mcp.WithString("caseId", mcptool.Nullable(), mcp.Description("Link.")),
	mcp.WithInteger("limit", mcp.Description("Limit."), mcp.Min(1), mcp.Max(10)),
	mcp.WithNumber("weight", mcp.Description("Weight.")),
	mcp.WithBoolean("done", mcp.Description("Done.")),
	mcp.WithArray("tags", mcp.Description("Tags."), mcp.WithStringItems(), mcp.MinItems(1)),
	mcp.WithArray("rows", mcp.Description("Rows."), mcp.Items(map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"title"},
		"properties": map[string]any{"title": map[string]any{"type": "string", "description": "Title."}},
	})),
	mcptool.Destructive(mcptool.Idempotent),
)

func TestValidated(t *testing.T) {
	for _, tc := range []struct {
		args map[string]any
		want string // "" means accepted
	}{
		{map[string]any{"id": "CASE-1"}, ""},
		{map[string]any{"id": "CASE-1", "caseId": nil, "limit": 3.0, "weight": 2.5, "done": true, "tags": []any{"a"}, "rows": []any{map[string]any{"title": "t"}}}, ""},
		{nil, "sample: argument id is required"},
		{map[string]any{"id": 1.0}, "argument id must be a string, not 1"},
		{map[string]any{"id": nil}, "argument id must not be null"},
		{map[string]any{"id": "X-1"}, `argument id "X-1" does not have the expected form (Id, e.g. CASE-1.)`},
		{map[string]any{"id": "CASE-1", "text": ""}, "argument text must not be empty"},
		{map[string]any{"id": "CASE-1", "color": "green"}, `argument color must be one of red, blue, not "green"`},
		{map[string]any{"id": "CASE-1", "caseId": 7.0}, "argument caseId must be a string or null, not 7"},
		{map[string]any{"id": "CASE-1", "limit": 2.5}, "argument limit must be an integer, not 2.5"},
		{map[string]any{"id": "CASE-1", "limit": 0.0}, "argument limit must be at least 1, not 0"},
		{map[string]any{"id": "CASE-1", "limit": 11.0}, "argument limit must be at most 10, not 11"},
		{map[string]any{"id": "CASE-1", "weight": "heavy"}, `argument weight must be a number, not the string "heavy"`},
		{map[string]any{"id": "CASE-1", "done": "yes"}, `argument done must be a boolean, not the string "yes"`},
		{map[string]any{"id": "CASE-1", "tags": "a"}, `argument tags must be an array, not the string "a"`},
		{map[string]any{"id": "CASE-1", "tags": []any{}}, "argument tags needs at least 1 item(s)"},
		{map[string]any{"id": "CASE-1", "tags": []any{"a", map[string]any{}}}, "argument tags[1] must be a string, not an object"},
		{map[string]any{"id": "CASE-1", "rows": []any{map[string]any{}}}, "argument rows[0].title is required"},
		{map[string]any{"id": "CASE-1", "rows": []any{map[string]any{"title": "t", "owner": "me"}}}, "unknown argument owner in rows[0]: the accepted ones are title"},
		{map[string]any{"id": "CASE-1", "colour": "red", "size": 1.0}, "unknown arguments colour, size: the accepted ones are caseId, color, done, id, limit, rows, tags, text, weight"},
	} {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			mcptooltest.CheckArguments(t, sample, tc.args, tc.want)
		})
	}
}

func TestAnnotations(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  mcp.ToolOption
		want [3]bool // readOnly, destructive, idempotent
	}{
		{"read only", mcptool.ReadOnly(), [3]bool{true, false, true}},
		{"additive", mcptool.Additive(mcptool.NotIdempotent), [3]bool{false, false, false}},
		{"additive idempotent", mcptool.Additive(mcptool.Idempotent), [3]bool{false, false, true}},
		{"destructive", mcptool.Destructive(mcptool.NotIdempotent), [3]bool{false, true, false}},
		{"destructive idempotent", mcptool.Destructive(mcptool.Idempotent), [3]bool{false, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := mcp.NewTool("x", tc.opt)
			a := tl.Annotations
			if got := [3]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint}; got != tc.want {
				t.Errorf("readOnly, destructive, idempotent = %v, want %v", got, tc.want)
			}
			if *a.OpenWorldHint {
				t.Error("openWorldHint true for a local board")
			}
			if tl.InputSchema.AdditionalProperties != false {
				t.Error("unknown arguments are not refused")
			}
		})
	}
}
