package mcptool

import "github.com/mark3labs/mcp-go/mcp"

// The four annotations are set on every tool, because mcp-go's defaults
// (destructive, open world) would be untrue for most of them: the board is a
// local store the agent shares with one person, never the open world.
// Destructive means the call can overwrite or remove data that existed
// before it, so a client may ask before running it.

// Idempotence of a write: whether the same call twice leaves the board as
// one call does.
const (
	Idempotent    = true
	NotIdempotent = false
)

// ReadOnly marks a tool that only reads the board.
func ReadOnly() mcp.ToolOption {
	return annotate(true, false, true)
}

// Additive marks a write that only adds records or stamps (nothing existing
// is overwritten or removed).
func Additive(idempotent bool) mcp.ToolOption {
	return annotate(false, false, idempotent)
}

// Destructive marks a write that overwrites or removes existing data.
func Destructive(idempotent bool) mcp.ToolOption {
	return annotate(false, true, idempotent)
}

func annotate(readOnly, destructive, idempotent bool) mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.Annotations.ReadOnlyHint = mcp.ToBoolPtr(readOnly)
		t.Annotations.DestructiveHint = mcp.ToBoolPtr(destructive)
		t.Annotations.IdempotentHint = mcp.ToBoolPtr(idempotent)
		t.Annotations.OpenWorldHint = mcp.ToBoolPtr(false)
		// Unknown arguments are refused (see Validated), so a misspelled
		// argument is an error instead of a silent no-op.
		t.InputSchema.AdditionalProperties = false
	}
}

// Nullable lets a string argument be null as well: null (like "") clears
// the link it names.
func Nullable() mcp.PropertyOption {
	return func(s map[string]any) { s["type"] = []string{"string", "null"} }
}

// LimitArg is the optional cap on the lines a list answers with.
func LimitArg() mcp.ToolOption {
	return mcp.WithInteger("limit", mcp.Description("Most lines."), mcp.Min(1), mcp.Max(1000))
}
