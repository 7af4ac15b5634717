package mcptool

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/wire"
)

// The calendar server's event arguments live here because the board
// server's propose takes update_event's arguments too, checked against the
// same schema.

const (
	dateDesc   = "Day: YYYY-MM-DD (the start day when timed)."
	timeDesc   = "24-hour HH:MM, in the board's time zone."
	domainDesc = "Domain: work or life (advisory)."
)

// EventArgs are the fields create_event and update_event share.
func EventArgs(create bool) []mcp.ToolOption {
	date := []mcp.PropertyOption{mcp.Description(dateDesc), mcp.Pattern(`^\d{4}-\d{2}-\d{2}$`)}
	title := []mcp.PropertyOption{mcp.Description("Title of the event.")}
	if create {
		date = append(date, mcp.Required())
		title = append(title, mcp.Required())
	}
	return []mcp.ToolOption{
		mcp.WithString("title", title...),
		mcp.WithString("date", date...),
		mcp.WithBoolean("allDay", mcp.Description("All-day event (default false); a timed event has a startTime.")),
		mcp.WithString("startTime", mcp.Description("Start, "+timeDesc)),
		mcp.WithString("endTime", mcp.Description("End, "+timeDesc)),
		mcp.WithString("description", mcp.Description("Description.")),
		mcp.WithString("location", mcp.Description("Location.")),
		mcp.WithString("domain", mcp.Description(domainDesc), mcp.Enum(wire.Domains()...)),
		mcp.WithString("repeat", mcp.Description(repeatDesc)),
	}
}

// repeatDesc explains the event's recurrence rule by examples in words.
const repeatDesc = "Repeat rule (an RRULE): FREQ=WEEKLY;BYDAY=MO,TH is weekly on Mon, Thu; FREQ=WEEKLY;INTERVAL=2 every 2 weeks; " +
	"FREQ=MONTHLY;BYDAY=2TU the 2nd Tuesday of each month (-1FR the last Friday); FREQ=MONTHLY;BYMONTHDAY=15 the 15th; FREQ=DAILY; FREQ=YEARLY; " +
	"add COUNT=5 (5 times) or UNTIL=YYYYMMDD to end it. The event becomes a series starting on date; editing it changes every occurrence. \"\" stops repeating."

// UpdateEventTool is the calendar's update_event tool, without its
// handler.
func UpdateEventTool() mcp.Tool {
	opts := []mcp.ToolOption{
		mcp.WithDescription("Update a calendar event; only the fields passed change, \"\" clears a text field, caseId null unlinks. Never revert the person's changes: propose on the board server instead."),
		mcp.WithString("id", mcp.Required(), mcp.Description("Event id, e.g. EVT-4.")),
	}
	opts = append(opts, EventArgs(false)...)
	opts = append(opts,
		mcp.WithString("caseId", Nullable(), mcp.Description("Node to link; null or \"\" unlinks.")),
		mcp.WithInteger("expectedVersion", mcp.Description("Optional concurrency guard: the board refuses the write (409) when its version differs; re-read and retry.")),
		Destructive(Idempotent),
	)
	return mcp.NewTool("update_event", opts...)
}
