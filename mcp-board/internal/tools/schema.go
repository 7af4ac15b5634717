package tools

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/wire"
)

// Shared argument shapes, so one concept reads the same in every tool.

const (
	labelsDesc  = "Catalog label ids. Call list_labels first: an unknown id is refused, never dropped."
	dueDesc     = "Due date: YYYY-MM-DD or an ISO datetime (without an offset: the board's time zone)."
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
	return mcp.WithString("status", mcp.Description(desc), mcp.Enum(wire.Lanes()...))
}

func domainArg(desc string) mcp.ToolOption {
	return mcp.WithString("domain", mcp.Description(desc), mcp.Enum(wire.Domains()...))
}

func kindArg(desc string) mcp.ToolOption {
	return mcp.WithString("kind", mcp.Description(desc), mcp.Enum(wire.Kinds()...))
}

func stringsArg(name, desc string) mcp.ToolOption {
	return mcp.WithArray(name, mcp.Description(desc), mcp.WithStringItems())
}

func labelsArg() mcp.ToolOption { return stringsArg("labels", labelsDesc) }

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
