package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/mcp-board/internal/render"
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
	"github.com/opsboard/opsboard/shared/wire"
)

// reminderFirst is the clause of the search rule a reminder create keeps.
const reminderFirst = "Search first; set caseId on a strong match."

func reminderStatusArg(desc string) mcp.ToolOption {
	return mcp.WithString("status", described(desc, mcp.Enum(wire.ReminderStatuses()...))...)
}

func reminderTasks(desc string, withID bool) mcp.ToolOption {
	props := map[string]any{
		"title": prop("string", ""),
		"done":  prop("boolean", ""),
	}
	if withID {
		props["id"] = prop("string", "Row id to keep; omit for a new row.")
	}
	return mcp.WithArray("tasks", mcp.Description(desc), objectItems(props, "title"))
}

func reminderTaskInputs(a *mcptool.Args) []wire.ReminderTaskInput {
	var out []wire.ReminderTaskInput
	for _, o := range a.Objects("tasks") {
		ta := mcptool.NewArgs(o)
		out = append(out, wire.ReminderTaskInput{ID: ta.Str("id"), Title: ta.Str("title"), Done: ta.BoolOr("done", false)})
		if ta.Err() != nil {
			a.Fail("tasks: %v", ta.Err())
		}
	}
	return out
}

func createReminder(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("create_reminder",
		mcp.WithDescription("Create a reminder. "+reminderFirst),
		required("title", ""),
		optional("detail", ""),
		reminderStatusArg(reminderStatusDesc),
		optional("dueAt", dueDesc),
		domainArg(domainDesc),
		optional("caseId", "Node."),
		labelsArg(),
		reminderTasks("Checklist.", false),
		optional("repeat", repeatDesc),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		in := wire.ReminderCreate{
			Title: a.Str("title"), Detail: a.Text("detail"), Status: a.Str("status"), DueAt: a.Str("dueAt"),
			Domain: a.Str("domain"), CaseID: a.Str("caseId"), Labels: a.Strs("labels"), Tasks: reminderTaskInputs(a),
			Repeat: a.Str("repeat"), Dedupe: true, // the agent's creates always deduplicate: a retried or repeated call gets back the record it made, not a second copy
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.CreateReminder(ctx, in)
		if err != nil {
			return "", err
		}
		if ans.Existing {
			return fmt.Sprintf("Already existed, nothing created: %s\n%s has the same title and due date; the other fields you passed were not applied: use update_reminder %s to change them.", render.ReminderLine(ans.Reminder), ans.Reminder.ID, ans.Reminder.ID), nil
		}
		return "Created " + render.ReminderLine(ans.Reminder), nil
	})
}

func listReminders(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("list_reminders",
		mcp.WithDescription("List reminders; what is due when: agenda."),
		reminderStatusArg(""),
		optional("caseId", "Linked node."),
		domainArg(""),
		mcptool.LimitArg(),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		f := client.ReminderFilter{Status: a.Str("status"), CaseID: a.Str("caseId"), Domain: a.Str("domain")}
		limit := a.IntOr("limit", 50)
		if a.Err() != nil {
			return "", a.Err()
		}
		rems, err := c.Reminders(ctx, f)
		if err != nil {
			return "", err
		}
		if len(rems) == 0 {
			return "No reminders match.", nil
		}
		n := min(limit, len(rems))
		lines := make([]string, 0, n+1)
		for _, r := range rems[:n] {
			lines = append(lines, render.ReminderLine(r))
		}
		if m := render.More(n, len(rems), "filter by status, caseId or domain, or raise limit"); m != "" {
			lines = append(lines, m)
		}
		return strings.Join(lines, "\n"), nil
	})
}

func getReminder(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("get_reminder",
		mcp.WithDescription("Read one reminder with its checklist and emails."),
		required("id", "Reminder."),
		mcptool.ReadOnly(),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.Reminder(ctx, id)
		if err != nil {
			return "", err
		}
		return render.Reminder(ans.Reminder, ans.Messages), nil
	})
}

func updateReminder(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("update_reminder",
		mcp.WithDescription("Update a reminder (passed fields only). "+manualRule),
		required("id", "Reminder."),
		optional("title", ""),
		optional("detail", "Detail; \"\" clears."),
		reminderStatusArg(reminderStatusDesc),
		optional("dueAt", dueDesc+" \"\" clears."),
		domainArg(domainDesc),
		mcp.WithString("caseId", mcptool.Nullable(), mcp.Description("Node; null unlinks.")),
		labelsArg(),
		reminderTasks("Whole checklist.", true),
		optional("repeat", repeatSeeDesc),
		expectedArg(),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		p := wire.ReminderPatch{
			Title: a.OptStr("title"), Detail: a.OptStr("detail"), Status: a.OptStr("status"), DueAt: a.OptStr("dueAt"),
			Domain: a.OptStr("domain"), CaseID: a.Link("caseId"), Labels: a.OptStrs("labels"), Repeat: a.OptStr("repeat"),
			ExpectedVersion: a.Expected(),
		}
		if a.Has("tasks") {
			tasks := reminderTaskInputs(a)
			if tasks == nil {
				tasks = []wire.ReminderTaskInput{}
			}
			p.Tasks = wire.Some(tasks)
		}
		if a.Err() != nil {
			return "", a.Err()
		}
		if !p.Title.Set && !p.Detail.Set && !p.Status.Set && !p.DueAt.Set && !p.Domain.Set && !p.CaseID.Set && !p.Labels.Set && !p.Tasks.Set && !p.Repeat.Set {
			return "", errors.New("nothing to update: pass at least one field to change")
		}
		ans, err := c.PatchReminder(ctx, id, p)
		if err != nil {
			return "", err
		}
		return "Updated " + render.ReminderLine(ans.Reminder) + render.NextReminder(ans.Next), nil
	})
}

func completeReminder(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("complete_reminder",
		mcp.WithDescription("Mark a reminder done."),
		required("id", "Reminder."),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.PatchReminder(ctx, id, wire.ReminderPatch{Status: wire.Some("done")})
		if err != nil {
			return "", err
		}
		return "Completed " + render.ReminderLine(ans.Reminder) + render.NextReminder(ans.Next), nil
	})
}

func deleteReminder(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("delete_reminder",
		mcp.WithDescription("Delete a reminder; to finish one: complete_reminder."),
		required("id", "Reminder."),
		mcptool.Destructive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id := a.Str("id")
		if a.Err() != nil {
			return "", a.Err()
		}
		if _, err := c.DeleteReminder(ctx, id); err != nil {
			return "", err
		}
		return "Deleted reminder " + id + " permanently.", nil
	})
}

func linkReminder(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("link_reminder",
		mcp.WithDescription("Link a reminder to a node; no caseId unlinks."),
		required("id", "Reminder."),
		mcp.WithString("caseId", mcptool.Nullable(), mcp.Description("Node.")),
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
		ans, err := c.PatchReminder(ctx, id, wire.ReminderPatch{CaseID: link})
		if err != nil {
			return "", err
		}
		if ans.Reminder.CaseID == "" {
			return "Unlinked " + render.ReminderLine(ans.Reminder), nil
		}
		return "Linked " + render.ReminderLine(ans.Reminder), nil
	})
}

func linkReminderMessage(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	opts := []mcp.ToolOption{
		mcp.WithDescription("Record an email on a reminder."),
		required("id", "Reminder."),
	}
	opts = append(opts, messageArgs()...)
	opts = append(opts, mcptool.Additive(mcptool.NotIdempotent))
	tool := mcp.NewTool("link_reminder_message", opts...)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		id, in := a.Str("id"), messageInput(a)
		if a.Err() != nil {
			return "", a.Err()
		}
		ans, err := c.AddReminderMessage(ctx, id, in)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Linked %s to %s", render.MessageLine(ans.Message), ans.Reminder.ID), nil
	})
}
