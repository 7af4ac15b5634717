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
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

// Name and Version identify the server to MCP clients.
const (
	Name    = "mcp-calendar"
	Version = "1.0.0"
)

// DefaultHTTPAddr is where --http serves when given no address: the
// calendar tool server's own port.
const DefaultHTTPAddr = "127.0.0.1:8003"

// Instructions is what a client may put before the agent once per session.
const Instructions = `Agent verbs over the person's calendar on the operations board.
Rules: before creating a standalone event, call the board server's search (several queries) and get_tree, and set caseId on a strong match. An exact duplicate (same title, date and start time) is answered with the existing event.`

const (
	linkFirst = "Before creating a standalone event, call search (several queries: the entity name and the topic) and get_tree on the board server, and set caseId on a strong match; omit it only when nothing matches."
)

// Server is the calendar tool server: its identity, instructions and its
// one toolset, "calendar" (named like the board server's toolsets, so
// --toolsets reads the same on both).
func Server() mcptool.Server[*client.Client] {
	return mcptool.Server[*client.Client]{
		Name: Name, Version: Version, Instructions: Instructions,
		Toolsets: []mcptool.Toolset[*client.Client]{{
			Name: "calendar", Description: "The board's calendar events.",
			Read:  []mcptool.Constructor[*client.Client]{listEvents, getEvent},
			Write: []mcptool.Constructor[*client.Client]{createEvent, updateEvent, deleteEvent, linkEvent},
		}},
	}
}

func createEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	opts := []mcp.ToolOption{
		mcp.WithDescription("Create a calendar event. " + linkFirst + " An exact match (same title, date and start time) is answered with the existing event instead of a second one."),
	}
	opts = append(opts, mcptool.EventArgs(true)...)
	opts = append(opts,
		mcp.WithString("caseId", mcp.Description("Node the event belongs to, e.g. CASE-12 (set it on a strong search match).")),
		mcptool.Additive(mcptool.Idempotent),
	)
	tool := mcp.NewTool("create_event", opts...)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := wire.EventCreate{
			Title: a.Str("title"), Date: a.Str("date"), AllDay: a.BoolOr("allDay", false), StartTime: a.Str("startTime"),
			EndTime: a.Str("endTime"), Description: a.Text("description"), Location: a.Text("location"),
			CaseID: a.Str("caseId"), Domain: a.Str("domain"), Repeat: a.Str("repeat"),
			Dedupe: true, // the agent's creates always deduplicate: a retried or repeated call gets back the record it made, not a second copy
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.CreateEvent(ctx, in)
		if err != nil {
			return "", err
		}
		if ans.Existing {
			return fmt.Sprintf("Already existed, nothing created: %s\n%s has the same title, date and start time; the other fields you passed were not applied: use update_event %s to change them.", mcptool.EventLine(ans.Event), ans.Event.ID, ans.Event.ID), nil
		}
		return "Created " + mcptool.EventLine(ans.Event), nil
	})
}

func listEvents(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_events",
		mcp.WithDescription("List calendar events in chronological order, one line each (id, day, time, title, place, linked node, repeat rule in words). from is inclusive, to exclusive. With both, a repeating event has a line for each day it occurs in the range; otherwise one line, its first day."),
		mcp.WithString("from", mcp.Description("First day, YYYY-MM-DD (inclusive)."), mcp.Pattern(`^\d{4}-\d{2}-\d{2}$`)),
		mcp.WithString("to", mcp.Description("Day after the last, YYYY-MM-DD (exclusive)."), mcp.Pattern(`^\d{4}-\d{2}-\d{2}$`)),
		mcp.WithString("caseId", mcp.Description("Only events linked to this node.")),
		mcp.WithString("domain", mcp.Description("Only this domain."), mcp.Enum(wire.Domains()...)),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		f := client.EventFilter{From: a.Str("from"), To: a.Str("to"), CaseID: a.Str("caseId"), Domain: a.Str("domain")}
		limit := a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
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
			lines = append(lines, mcptool.EventLine(e))
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
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.Event(ctx, id)
		if err != nil {
			return "", err
		}
		e := ans.Event
		lines := []string{mcptool.EventLine(e)}
		if d := strings.Join(strings.Fields(e.Description), " "); d != "" {
			lines = append(lines, "Description of "+e.ID+": "+d)
		}
		lines = append(lines, fmt.Sprintf("%s created %s, updated %s", e.ID, e.CreatedAt, e.UpdatedAt))
		return strings.Join(lines, "\n"), nil
	})
}

func updateEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcptool.UpdateEventTool()
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		p := wire.EventPatch{
			Title: a.OptStr("title"), Date: a.OptStr("date"), AllDay: a.OptBool("allDay"), StartTime: a.OptStr("startTime"),
			EndTime: a.OptStr("endTime"), Description: a.OptStr("description"), Location: a.OptStr("location"),
			CaseID: a.Link("caseId"), Domain: a.OptStr("domain"), Repeat: a.OptStr("repeat"), ExpectedVersion: a.Expected(),
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		if !p.Title.Set && !p.Date.Set && !p.AllDay.Set && !p.StartTime.Set && !p.EndTime.Set && !p.Description.Set && !p.Location.Set && !p.CaseID.Set && !p.Domain.Set && !p.Repeat.Set {
			return "", errors.New("nothing to update: pass at least one field to change")
		}
		ans, err := c.PatchEvent(ctx, id, p)
		if err != nil {
			return "", err
		}
		return "Updated " + mcptool.EventLine(ans.Event), nil
	})
}

func deleteEvent(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("delete_event",
		mcp.WithDescription("Delete a calendar event for good."),
		mcp.WithString("id", mcp.Required(), mcp.Description("Event id, e.g. EVT-4.")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
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
		mcp.WithString("caseId", mcptool.Nullable(), mcp.Description("Node to link, e.g. CASE-12; null, \"\" or omitted unlinks.")),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id, link := a.Str("id"), a.Link("caseId")
		if a.Err() != nil {
			return "", a.Err()
		}
		if !link.Set {
			link = wire.Null[string]()
		}
		ans, err := c.PatchEvent(ctx, id, wire.EventPatch{CaseID: link})
		if err != nil {
			return "", err
		}
		if ans.Event.CaseID == "" {
			return "Unlinked " + mcptool.EventLine(ans.Event), nil
		}
		return "Linked " + mcptool.EventLine(ans.Event), nil
	})
}
