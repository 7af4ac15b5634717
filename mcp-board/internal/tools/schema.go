package tools

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/wire"
)

// The four annotations are set on every tool, because mcp-go's defaults
// (destructive, open world) would be untrue for most of them: the board is a
// local store the agent shares with one person, never the open world.
// Destructive means the call can overwrite or remove data that existed
// before it, so a client may ask before running it.

// Idempotence of a write: whether the same call twice leaves the board as
// one call does.
const (
	idempotent    = true
	notIdempotent = false
)

// readOnly marks a tool that only reads the board.
func readOnly() mcp.ToolOption {
	return annotate(true, false, true)
}

// additive marks a write that only adds records or stamps (nothing existing
// is overwritten or removed). idempotent says whether the same call twice
// leaves the board as one call does.
func additive(idempotent bool) mcp.ToolOption {
	return annotate(false, false, idempotent)
}

// destructive marks a write that overwrites or removes existing data.
func destructive(idempotent bool) mcp.ToolOption {
	return annotate(false, true, idempotent)
}

func annotate(readOnly, destructive, idempotent bool) mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.Annotations.ReadOnlyHint = mcp.ToBoolPtr(readOnly)
		t.Annotations.DestructiveHint = mcp.ToBoolPtr(destructive)
		t.Annotations.IdempotentHint = mcp.ToBoolPtr(idempotent)
		t.Annotations.OpenWorldHint = mcp.ToBoolPtr(false)
		// Unknown arguments are refused (see validated), so a misspelled
		// argument is an error instead of a silent no-op.
		t.InputSchema.AdditionalProperties = false
	}
}

// nullable lets a string argument be null as well: null (like "") clears
// the link it names.
func nullable() mcp.PropertyOption {
	return func(s map[string]any) { s["type"] = []string{"string", "null"} }
}

// Shared argument shapes, so one concept reads the same in every tool.

const (
	limitDesc   = "Most lines to return (default 50). The answer says how many more there are."
	labelsDesc  = "Catalog label ids. Call list_labels first: an unknown id is refused, never dropped."
	dueDesc     = "Due date: YYYY-MM-DD or an ISO datetime."
	domainDesc  = "Domain: work or life."
	kindDesc    = "Tier: initiative (always a root), workstream (under an initiative, holds cases) or case (a leaf)."
	expectDesc  = "Optional concurrency guard: the board refuses the write (409) when its version differs from this; re-read and retry."
	summaryDesc = "Free-text summary."

	reminderStatusDesc = "Reminder status: open, done or dismissed."
)

func required(name, desc string) mcp.ToolOption {
	return mcp.WithString(name, mcp.Required(), mcp.Description(desc))
}

func optional(name, desc string) mcp.ToolOption {
	return mcp.WithString(name, mcp.Description(desc))
}

func laneArg(desc string) mcp.ToolOption {
	return mcp.WithString("status", mcp.Description(desc), mcp.Enum(wire.Lanes...))
}

func domainArg(desc string) mcp.ToolOption {
	return mcp.WithString("domain", mcp.Description(desc), mcp.Enum(wire.Domains...))
}

func kindArg(desc string) mcp.ToolOption {
	return mcp.WithString("kind", mcp.Description(desc), mcp.Enum(wire.Kinds...))
}

func stringsArg(name, desc string) mcp.ToolOption {
	return mcp.WithArray(name, mcp.Description(desc), mcp.WithStringItems())
}

func labelsArg() mcp.ToolOption { return stringsArg("labels", labelsDesc) }

func limitArg() mcp.ToolOption {
	return mcp.WithInteger("limit", mcp.Description(limitDesc), mcp.Min(1), mcp.Max(1000))
}

func expectedArg() mcp.ToolOption {
	return mcp.WithInteger("expectedVersion", mcp.Description(expectDesc))
}

// objectItems declares an array of objects with typed properties.
func objectItems(props map[string]any, required ...string) mcp.PropertyOption {
	item := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		item["required"] = required
	}
	return mcp.Items(item)
}

func prop(typ, desc string) map[string]any {
	return map[string]any{"type": typ, "description": desc}
}
