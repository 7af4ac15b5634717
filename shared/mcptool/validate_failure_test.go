package mcptool_test

import (
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/mcptool/mcptooltest"
)

// When several arguments fail at once, the one reported is chosen the same
// way every time: an object's unknown and missing arguments before its
// properties, properties by name, array items in order. The validator
// reports them in map order, so without this the message would change from
// call to call.
func TestValidatedReportsTheFirstFailure(t *testing.T) {
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"colour": "red", "text": 7.0}, "sample: unknown argument colour: the accepted ones are"},
		{map[string]any{"text": 7.0}, "sample: argument id is required"},
		{map[string]any{"id": 1.0, "color": "green", "limit": 0.0}, `sample: argument color must be one of red, blue, not "green"`},
		{map[string]any{"id": "CASE-1", "rows": []any{map[string]any{"title": 1.0}, map[string]any{}}}, "sample: argument rows[0].title must be a string, not 1"},
		{map[string]any{"id": "CASE-1", "tags": []any{"a", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0}}, "sample: argument tags[1] must be a string, not 1"},
	} {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			for range 20 { // map order differs from run to run
				mcptooltest.CheckArguments(t, sample, tc.args, tc.want)
			}
		})
	}
}

// Keywords the old hand-written check did not cover are checked too.
func TestValidatedChecksEveryKeyword(t *testing.T) {
	tool := mcp.NewTool("more",
		mcp.WithDescription("More keywords."),
		mcp.WithString("code", mcp.Required(), mcp.Description("Code."), mcp.MaxLength(3)),
		mcp.WithString("a", mcp.Description("A.")),
		mcp.WithString("b", mcp.Description("B.")),
		mcp.WithArray("few", mcp.Description("Few."), mcp.WithStringItems(), mcp.MaxItems(1)),
		mcp.WithNumber("ratio", mcp.Description("Ratio."), mcp.Min(0.5), mcp.Max(1.5)),
	)
	tool.InputSchema.Required = append(tool.InputSchema.Required, "a", "b")
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"code": "abc", "a": "", "b": ""}, ""},
		{map[string]any{"code": "abcd", "a": "", "b": ""}, "more: argument code must be at most 3 characters long, not 4"},
		{map[string]any{"code": "a", "a": "", "b": "", "few": []any{"x", "y"}}, "more: argument few takes at most 1 item(s), not 2"},
		{map[string]any{"code": "a", "a": "", "b": "", "ratio": 0.25}, "more: argument ratio must be at least 0.5, not 0.25"},
		{map[string]any{"code": "a", "a": "", "b": "", "ratio": 2.0}, "more: argument ratio must be at most 1.5, not 2"},
		{map[string]any{"code": "a"}, "more: arguments a, b are required"},
	} {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			mcptooltest.CheckArguments(t, tool, tc.args, tc.want)
		})
	}
}

// A schema the validator cannot compile is a bug in the tool: every call
// says so, and the handler never runs.
func TestValidatedReportsABrokenSchema(t *testing.T) {
	tool := mcp.NewTool("broken",
		mcp.WithDescription("Broken."),
		mcp.WithString("id", mcp.Description("Id."), mcp.Pattern(`(`)),
	)
	mcptooltest.CheckArguments(t, tool, map[string]any{"id": "x"}, "broken: compile the input schema")
}
