package tools

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/wire"
)

// Shared argument shapes, so one concept reads the same in every tool.

const (
	labelsDesc  = "Ids; list_labels first."
	dueDesc     = "ISO; no offset: board zone."
	domainDesc  = ""
	kindDesc    = ""
	expectDesc  = "409 if stale."
	summaryDesc = ""

	reminderStatusDesc = ""

	// repeatDesc is said once in full; the other tools point at it.
	repeatDesc    = "RRULE: FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH every 2 weeks on Mon, Thu; FREQ=MONTHLY;BYDAY=-1FR last Friday; COUNT=5 or UNTIL=YYYYMMDD ends. Needs dueAt."
	repeatSeeDesc = "As in create_reminder; \"\" stops."
	repeatAddDesc = "As in create_reminder."
)

// described is a property's description; "" leaves it out, for a name
// that says it all (see mcptooltest.PlainNames).
func described(desc string, more ...mcp.PropertyOption) []mcp.PropertyOption {
	if desc == "" {
		return more
	}
	return append([]mcp.PropertyOption{mcp.Description(desc)}, more...)
}

func required(name, desc string) mcp.ToolOption {
	return mcp.WithString(name, described(desc, mcp.Required())...)
}

func optional(name, desc string) mcp.ToolOption {
	return mcp.WithString(name, described(desc)...)
}

func laneArg(desc string) mcp.ToolOption {
	return mcp.WithString("status", described(desc, mcp.Enum(wire.Lanes()...))...)
}

func domainArg(desc string) mcp.ToolOption {
	return mcp.WithString("domain", described(desc, mcp.Enum(wire.Domains()...))...)
}

func kindArg(desc string) mcp.ToolOption {
	return mcp.WithString("kind", described(desc, mcp.Enum(wire.Kinds()...))...)
}

func stringsArg(name, desc string) mcp.ToolOption {
	return mcp.WithArray(name, described(desc, mcp.WithStringItems())...)
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

// prop is a property of an object item; "" leaves the description out.
func prop(typ, desc string) map[string]any {
	if desc == "" {
		return map[string]any{"type": typ}
	}
	return map[string]any{"type": typ, "description": desc}
}
