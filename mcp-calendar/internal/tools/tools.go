// Package tools holds the calendar tool server's agent verbs over the
// board's /api/events routes: one constructor per tool returning the tool
// and its handler, read and write tools listed apart so a read-only hint
// cannot lie.
package tools

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/wire"
)

// Name and Version identify the server to MCP clients.
const (
	Name    = "mcp-calendar"
	Version = "1.0.0"
)

// DefaultHTTPAddr is where --http serves when given no address (the spec's
// port for the calendar tool server).
const DefaultHTTPAddr = "127.0.0.1:8003"

// Instructions is what a client may put before the agent once per session.
const Instructions = `Agent verbs over the person's calendar on the operations board.
Rules: before creating a standalone event, call the board server's search (several queries) and get_tree, and set caseId on a strong match. An exact duplicate (same title, date and start time) is answered with the existing event.`

const (
	dateDesc   = "Day: YYYY-MM-DD (the start day when timed)."
	timeDesc   = "24-hour HH:MM."
	domainDesc = "Domain: work or life (advisory)."
	linkFirst  = "Before creating a standalone event, call search (several queries: the entity name and the topic) and get_tree on the board server, and set caseId on a strong match; omit it only when nothing matches."
)

type constructor func(*client.Client) (mcp.Tool, server.ToolHandlerFunc)

// readConstructors are the tools that only read the board.
func readConstructors() []constructor {
	return []constructor{listEvents, getEvent}
}

// writeConstructors are the tools that change the board.
func writeConstructors() []constructor {
	return []constructor{createEvent, updateEvent, deleteEvent, linkEvent}
}

func build(c *client.Client, cons []constructor) []server.ServerTool {
	out := make([]server.ServerTool, 0, len(cons))
	for _, f := range cons {
		t, h := f(c)
		out = append(out, server.ServerTool{Tool: t, Handler: validated(t, h)})
	}
	return out
}

// ReadTools are the read-only tools.
func ReadTools(c *client.Client) []server.ServerTool { return build(c, readConstructors()) }

// WriteTools are the tools that write.
func WriteTools(c *client.Client) []server.ServerTool { return build(c, writeConstructors()) }

// NewServer is the MCP server with every tool registered; each handler is
// wrapped to check its arguments against the tool's schema first (see
// validated).
func NewServer(c *client.Client) *server.MCPServer {
	s := server.NewMCPServer(Name, Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(Instructions),
		server.WithRecovery(),
	)
	s.AddTools(ReadTools(c)...)
	s.AddTools(WriteTools(c)...)
	return s
}

// The four annotations are set on every tool, because mcp-go's defaults
// (destructive, open world) would be untrue: the board is a local store.
func annotate(readOnly, destructive, idempotent bool) mcp.ToolOption {
	return func(t *mcp.Tool) {
		t.Annotations.ReadOnlyHint = mcp.ToBoolPtr(readOnly)
		t.Annotations.DestructiveHint = mcp.ToBoolPtr(destructive)
		t.Annotations.IdempotentHint = mcp.ToBoolPtr(idempotent)
		t.Annotations.OpenWorldHint = mcp.ToBoolPtr(false)
		// Unknown arguments are refused, never silently ignored.
		t.InputSchema.AdditionalProperties = false
	}
}

func readOnly() mcp.ToolOption { return annotate(true, false, true) }

func nullable() mcp.PropertyOption {
	return func(s map[string]any) { s["type"] = []string{"string", "null"} }
}

type handlerFunc func(ctx context.Context, a *args) (string, error)

// handle adapts a handlerFunc to mcp-go; a failure is a tool error result
// carrying the board's words.
func handle(fn handlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		text, err := fn(ctx, argsOf(req))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(text), nil
	}
}

// eventArgs are the fields create_event and update_event share.
func eventArgs(create bool) []mcp.ToolOption {
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
		mcp.WithString("domain", mcp.Description(domainDesc), mcp.Enum(wire.Domains...)),
	}
}

func createEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	opts := []mcp.ToolOption{
		mcp.WithDescription("Create a calendar event. " + linkFirst + " An exact match (same title, date and start time) is answered with the existing event instead of a second one."),
	}
	opts = append(opts, eventArgs(true)...)
	opts = append(opts,
		mcp.WithString("caseId", mcp.Description("Node the event belongs to, e.g. CASE-12 (set it on a strong search match).")),
		annotate(false, false, true),
	)
	tool := mcp.NewTool("create_event", opts...)
	return tool, handle(func(ctx context.Context, a *args) (string, error) {
		in := wire.EventCreate{
			Title: a.str("title"), Date: a.str("date"), AllDay: a.boolOr("allDay", false), StartTime: a.str("startTime"),
			EndTime: a.str("endTime"), Description: a.text("description"), Location: a.text("location"),
			CaseID: a.str("caseId"), Domain: a.str("domain"),
			Dedupe: true, // the agent's creates always deduplicate (tenet 5)
		}
		if a.err != nil {
			return "", a.err
		}
		ans, err := c.CreateEvent(ctx, in)
		if err != nil {
			return "", err
		}
		if ans.Existing {
			return fmt.Sprintf("Already existed, nothing created: %s\n%s has the same title, date and start time; the other fields you passed were not applied: use update_event %s to change them.", EventLine(ans.Event), ans.Event.ID, ans.Event.ID), nil
		}
		return "Created " + EventLine(ans.Event), nil
	})
}

func listEvents(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_events",
		mcp.WithDescription("List calendar events in chronological order, one line each (id, day, time, title, place, linked node). from is inclusive, to exclusive."),
		mcp.WithString("from", mcp.Description("First day, YYYY-MM-DD (inclusive)."), mcp.Pattern(`^\d{4}-\d{2}-\d{2}$`)),
		mcp.WithString("to", mcp.Description("Day after the last, YYYY-MM-DD (exclusive)."), mcp.Pattern(`^\d{4}-\d{2}-\d{2}$`)),
		mcp.WithString("caseId", mcp.Description("Only events linked to this node.")),
		mcp.WithString("domain", mcp.Description("Only this domain."), mcp.Enum(wire.Domains...)),
		mcp.WithInteger("limit", mcp.Description("Most lines to return (default 50). The answer says how many more there are."), mcp.Min(1), mcp.Max(1000)),
		readOnly(),
	)
	return tool, handle(func(ctx context.Context, a *args) (string, error) {
		f := client.EventFilter{From: a.str("from"), To: a.str("to"), CaseID: a.str("caseId"), Domain: a.str("domain")}
		limit := a.intOr("limit", 50)
		if a.err != nil {
			return "", a.err
		}
		events, err := c.Events(ctx, f)
		if err != nil {
			return "", err
		}
		if len(events) == 0 {
			return "No events match.", nil
		}
		Chronological(events)
		n := min(limit, len(events))
		lines := make([]string, 0, n+1)
		for _, e := range events[:n] {
			lines = append(lines, EventLine(e))
		}
		if n < len(events) {
			lines = append(lines, fmt.Sprintf("%d more not shown (narrow from/to or raise limit).", len(events)-n))
		}
		return strings.Join(lines, "\n"), nil
	})
}

// Chronological orders events by day, all-day ones first, then by start time.
func Chronological(events []wire.Event) {
	sort.SliceStable(events, func(i, j int) bool {
		a, b := events[i], events[j]
		if a.Date != b.Date {
			return a.Date < b.Date
		}
		if a.AllDay != b.AllDay {
			return a.AllDay
		}
		if a.StartTime != b.StartTime {
			return a.StartTime < b.StartTime
		}
		return a.ID < b.ID
	})
}

func getEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("get_event",
		mcp.WithDescription("Read one calendar event with all its fields."),
		mcp.WithString("id", mcp.Required(), mcp.Description("Event id, e.g. EVT-4.")),
		readOnly(),
	)
	return tool, handle(func(ctx context.Context, a *args) (string, error) {
		id := a.str("id")
		if a.err != nil {
			return "", a.err
		}
		ans, err := c.Event(ctx, id)
		if err != nil {
			return "", err
		}
		e := ans.Event
		lines := []string{EventLine(e)}
		if d := strings.Join(strings.Fields(e.Description), " "); d != "" {
			lines = append(lines, "Description of "+e.ID+": "+d)
		}
		lines = append(lines, fmt.Sprintf("%s created %s, updated %s", e.ID, e.CreatedAt, e.UpdatedAt))
		return strings.Join(lines, "\n"), nil
	})
}

func updateEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	opts := []mcp.ToolOption{
		mcp.WithDescription("Update a calendar event: only the fields you pass change; \"\" clears an optional text field; caseId null or \"\" unlinks. Do not revert a change the person made by hand: when you disagree, propose it on the board server instead."),
		mcp.WithString("id", mcp.Required(), mcp.Description("Event id, e.g. EVT-4.")),
	}
	opts = append(opts, eventArgs(false)...)
	opts = append(opts,
		mcp.WithString("caseId", nullable(), mcp.Description("Node to link; null or \"\" unlinks.")),
		mcp.WithInteger("expectedVersion", mcp.Description("Optional concurrency guard: the board refuses the write (409) when its version differs; re-read and retry.")),
		annotate(false, true, true),
	)
	tool := mcp.NewTool("update_event", opts...)
	return tool, handle(func(ctx context.Context, a *args) (string, error) {
		id := a.str("id")
		p := wire.EventPatch{
			Title: a.optStr("title"), Date: a.optStr("date"), AllDay: a.optBool("allDay"), StartTime: a.optStr("startTime"),
			EndTime: a.optStr("endTime"), Description: a.optStr("description"), Location: a.optStr("location"),
			CaseID: a.link("caseId"), Domain: a.optStr("domain"), ExpectedVersion: a.expected(),
		}
		if a.err != nil {
			return "", a.err
		}
		if !p.Title.Set && !p.Date.Set && !p.AllDay.Set && !p.StartTime.Set && !p.EndTime.Set && !p.Description.Set && !p.Location.Set && !p.CaseID.Set && !p.Domain.Set {
			return "", errors.New("nothing to update: pass at least one field to change")
		}
		ans, err := c.PatchEvent(ctx, id, p)
		if err != nil {
			return "", err
		}
		return "Updated " + EventLine(ans.Event), nil
	})
}

func deleteEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("delete_event",
		mcp.WithDescription("Delete a calendar event for good."),
		mcp.WithString("id", mcp.Required(), mcp.Description("Event id, e.g. EVT-4.")),
		annotate(false, true, true),
	)
	return tool, handle(func(ctx context.Context, a *args) (string, error) {
		id := a.str("id")
		if a.err != nil {
			return "", a.err
		}
		if _, err := c.DeleteEvent(ctx, id); err != nil {
			return "", err
		}
		return "Deleted event " + id + ".", nil
	})
}

func linkEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("link_event",
		mcp.WithDescription("Link an event to a board node, or unlink it when caseId is null, \"\" or omitted."),
		mcp.WithString("id", mcp.Required(), mcp.Description("Event id, e.g. EVT-4.")),
		mcp.WithString("caseId", nullable(), mcp.Description("Node to link, e.g. CASE-12; null, \"\" or omitted unlinks.")),
		annotate(false, true, true),
	)
	return tool, handle(func(ctx context.Context, a *args) (string, error) {
		id, link := a.str("id"), a.link("caseId")
		if a.err != nil {
			return "", a.err
		}
		if !link.Set {
			link = wire.Null[string]()
		}
		ans, err := c.PatchEvent(ctx, id, wire.EventPatch{CaseID: link})
		if err != nil {
			return "", err
		}
		if ans.Event.CaseID == "" {
			return "Unlinked " + EventLine(ans.Event), nil
		}
		return "Linked " + EventLine(ans.Event), nil
	})
}

// EventLine is one event on one line.
func EventLine(e wire.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s - %s", e.ID, e.Date)
	switch {
	case e.AllDay:
		b.WriteString(" all day")
	case e.StartTime != "" && e.EndTime != "":
		b.WriteString(" " + e.StartTime + "-" + e.EndTime)
	case e.StartTime != "":
		b.WriteString(" " + e.StartTime)
	}
	b.WriteString(" - " + e.Title)
	if e.Location != "" {
		b.WriteString(" @ " + e.Location)
	}
	if e.CaseID != "" {
		b.WriteString(" - case " + e.CaseID)
	}
	if e.Domain != "" {
		b.WriteString(" - " + e.Domain)
	}
	return b.String()
}
