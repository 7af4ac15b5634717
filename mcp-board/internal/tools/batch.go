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

// The batch forms of the verbs an agent repeats. The board has a batch
// route only for one patch over many cases (PATCH /api/cases); the others
// are sent one item at a time, after every item has been checked against
// the board first, so a bad item changes nothing. A write refused midway
// (the board changed between the check and the write) says which items
// were made and which were not.

// propertiesOf is the input schema of a tool built from opts: a batch
// item's object takes the same arguments as the one-item tool.
func propertiesOf(opts ...mcp.ToolOption) map[string]any {
	return mcp.NewTool("item", opts...).InputSchema.Properties
}

// itemsArg is a batch's items: an array of objects of those properties;
// must says the tool takes nothing else.
func itemsArg(desc string, must bool, props map[string]any, required ...string) mcp.ToolOption {
	opts := []mcp.PropertyOption{mcp.Description(desc), mcp.MinItems(1), objectItems(props, required...)}
	if must {
		opts = append(opts, mcp.Required())
	}
	return mcp.WithArray("items", opts...)
}

// refused is a batch's refusal: nothing changed, and why, per item.
func refused(report []string) error {
	return errors.New("Nothing was changed. Per item:\n" + strings.Join(report, "\n"))
}

// sent runs each item's write in order and reports per item; a failure
// stops the batch and says which items were made.
func sent(n int, write func(i int) (string, error)) (string, error) {
	var done []string
	for i := 0; i < n; i++ {
		line, err := write(i)
		if err != nil {
			msg := fmt.Sprintf("item %d was refused: %v", i+1, err)
			if len(done) > 0 {
				msg += fmt.Sprintf("\nItems 1-%d were made (the board changed since the check):\n%s", i, strings.Join(done, "\n"))
			}
			return "", fmt.Errorf("%s\nItems %d-%d were not sent", msg, i+1, n)
		}
		done = append(done, fmt.Sprintf("%d. %s", i+1, line))
	}
	return strings.Join(done, "\n"), nil
}

// caseItems is update_cases with items: a different patch per node, each
// checked as update_cases checks its one patch.
func caseItems(ctx context.Context, c *client.Client, items []map[string]any) (string, error) {
	all, err := c.Cases(ctx, client.CaseFilter{IncludeArchived: true})
	if err != nil {
		return "", err
	}
	byID := map[string]*wire.Case{}
	for i := range all {
		byID[all[i].ID] = &all[i]
	}
	ids := make([]string, len(items))
	patches := make([]wire.CasePatch, len(items))
	var report []string
	problems := 0
	for i, it := range items {
		ia := mcptool.NewArgs(it)
		ids[i] = ia.Str("id")
		p, given := casePatch(mcptool.NewArgs(ia.Object("patch")))
		patches[i] = p
		general, err := batchGeneral(ctx, c, p, byID)
		if err != nil {
			return "", err
		}
		line, bad := batchItems([]string{ids[i]}, p, byID)
		if ids[i] != "" && containsBefore(ids, i) {
			line, bad = []string{ids[i] + ": listed twice"}, 1
		}
		if len(given) == 0 {
			general = append(general, "nothing to update in patch")
		}
		if ia.Err() != nil {
			general = append(general, ia.Err().Error())
		}
		if bad > 0 || len(general) > 0 {
			problems++
		}
		report = append(report, fmt.Sprintf("%d. %s", i+1, strings.Join(append(line, general...), "; ")))
	}
	if problems > 0 {
		return "", refused(report)
	}
	out, err := sent(len(items), func(i int) (string, error) {
		ans, err := c.PatchCase(ctx, ids[i], patches[i])
		if err != nil {
			return "", err
		}
		return "Updated " + render.CaseListLine(&ans.Case), nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Updated %d %s:\n%s", len(items), pluralOf(len(items), "node", "nodes"), out), nil
}

func containsBefore(ids []string, i int) bool {
	for _, id := range ids[:i] {
		if id == ids[i] {
			return true
		}
	}
	return false
}

func completeTasks(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("complete_tasks",
		mcp.WithDescription("Mark many tasks done; a bad item changes nothing."),
		itemsArg("Tasks.", true, propertiesOf(required("caseId", "Case id."), required("taskId", "Task id.")), "caseId", "taskId"),
		mcptool.Additive(mcptool.Idempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		items := a.Objects("items")
		if a.Err() != nil {
			return "", a.Err()
		}
		type ref struct{ caseID, taskID string }
		refs := make([]ref, len(items))
		for i, it := range items {
			ia := mcptool.NewArgs(it)
			refs[i] = ref{ia.Str("caseId"), ia.Str("taskId")}
		}
		cases := map[string]*client.CaseDetail{}
		var report []string
		problems := 0
		for i, r := range refs {
			line, err := taskProblem(ctx, c, cases, r.caseID, r.taskID)
			if err != nil {
				return "", err
			}
			for _, p := range refs[:i] {
				if p == r {
					line = "listed twice"
				}
			}
			if line != "" {
				problems++
			} else {
				line = "ok"
			}
			report = append(report, fmt.Sprintf("%d. %s %s: %s", i+1, r.caseID, r.taskID, line))
		}
		if problems > 0 {
			return "", refused(report)
		}
		return sent(len(refs), func(i int) (string, error) {
			ans, err := c.PatchTask(ctx, refs[i].caseID, refs[i].taskID, wire.TaskPatch{Completed: wire.Some(true)})
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("Completed in %s: %s%s", refs[i].caseID, render.TaskLine(ans.Task), render.NextTask(ans.Next)), nil
		})
	})
}

// taskProblem is what is wrong with completing a task ("" for nothing),
// reading each case once; a missing case is in the board's words.
func taskProblem(ctx context.Context, c *client.Client, cases map[string]*client.CaseDetail, caseID, taskID string) (string, error) {
	if line, err := caseProblem(ctx, c, cases, caseID); line != "" || err != nil {
		return line, err
	}
	for _, t := range cases[caseID].Case.Tasks {
		if t.ID == taskID {
			return "", nil
		}
	}
	return fmt.Sprintf("task %s not found in %s", taskID, caseID), nil
}

func linkMessages(c *client.Client) (mcp.Tool, server.ToolHandlerFunc) {
	props := propertiesOf(append([]mcp.ToolOption{required("caseId", "Node id.")}, messageArgs()...)...)
	tool := mcp.NewTool("link_messages",
		mcp.WithDescription("Record many emails, each on a node, as link_message does; a bad item changes nothing."),
		itemsArg("Emails.", true, props, "caseId"),
		mcptool.Additive(mcptool.NotIdempotent),
	)
	return tool, mcptool.Handle(func(ctx context.Context, a *mcptool.Args) (string, error) {
		items := a.Objects("items")
		if a.Err() != nil {
			return "", a.Err()
		}
		caseIDs := make([]string, len(items))
		ins := make([]wire.MessageInput, len(items))
		cases := map[string]*client.CaseDetail{}
		var report []string
		problems := 0
		for i, it := range items {
			ia := mcptool.NewArgs(it)
			caseIDs[i], ins[i] = ia.Str("caseId"), messageInput(ia)
			line, err := caseProblem(ctx, c, cases, caseIDs[i])
			if err != nil {
				return "", err
			}
			if line != "" {
				problems++
			} else {
				line = "ok"
			}
			report = append(report, fmt.Sprintf("%d. %s: %s", i+1, caseIDs[i], line))
		}
		if problems > 0 {
			return "", refused(report)
		}
		return sent(len(items), func(i int) (string, error) {
			ans, err := c.AddCaseMessage(ctx, caseIDs[i], ins[i])
			if err != nil {
				return "", err
			}
			return "Linked " + render.MessageLine(ans.Message), nil
		})
	})
}

// caseProblem is the board's words for a node that is not there, "" when
// it is, reading each node once.
func caseProblem(ctx context.Context, c *client.Client, cases map[string]*client.CaseDetail, id string) (string, error) {
	if d, ok := cases[id]; ok {
		if d == nil {
			return fmt.Sprintf("case %s not found", id), nil
		}
		return "", nil
	}
	got, err := c.Case(ctx, id)
	switch {
	case client.NotFound(err):
		cases[id] = nil
		return err.Error(), nil
	case err != nil:
		return "", err
	}
	cases[id] = &got
	return "", nil
}
