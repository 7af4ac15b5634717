package cases

import (
	"context"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// AddTask appends a task to a case's checklist; its id continues from the
// highest existing (CASE-<n>-T<k>). The agent sending the same task twice
// makes one: an open task of the same title (trimmed, any case) on the case
// is the answer, with existing true, and nothing is written.
func AddTask(ctx context.Context, s *store.Store, actor wire.Actor, caseID string, in wire.TaskInput) (wire.Task, bool, int64, error) {
	return store.CreateOrFind(ctx, s, actor, func(tx *store.Tx) (wire.Task, bool, error) {
		return AddTaskTx(tx, actor, caseID, in)
	})
}

// AddTaskTx is AddTask within a write; found is true when the agent's
// task was already on the case (nothing is written then).
func AddTaskTx(tx *store.Tx, actor wire.Actor, caseID string, in wire.TaskInput) (wire.Task, bool, error) {
	c, ok := tx.Cases().Get(caseID)
	if !ok {
		return wire.Task{}, false, errs.NotFound("case %s not found", caseID)
	}
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return wire.Task{}, false, errs.BadRequest("Field 'title' is required.")
	}
	if actor == wire.ActorAgent {
		for _, t := range c.Tasks {
			if t.CompletedAt == "" && strings.EqualFold(strings.TrimSpace(t.Title), title) {
				return t, true, nil
			}
		}
	}
	if err := field.CheckDate("dueAt", in.DueAt); err != nil {
		return wire.Task{}, false, err
	}
	rule, err := field.CheckRepeat("repeat", in.Repeat, "dueAt", in.DueAt)
	if err != nil {
		return wire.Task{}, false, err
	}
	out := wire.Task{ID: field.NextChildID(c.ID, "T", taskIDs(c)), Title: title, Detail: in.Detail, DueAt: in.DueAt, Position: in.Position, Repeat: rule, CreatedAt: tx.Stamp()}
	c.Tasks = append(c.Tasks, out)
	c.UpdatedAt = tx.Stamp()
	activity.Log(c, actor, wire.VerbTaskAdded, out.ID+" "+title, tx.Stamp())
	tx.Cases().Put(c)
	return out, false, nil
}

// PatchTask edits a task; completed true stamps completedAt, false clears it.
// Completing a repeating task also adds its next occurrence to the case, in
// the same write; next is that task (nil otherwise).
func PatchTask(ctx context.Context, s *store.Store, actor wire.Actor, caseID, taskID string, p wire.TaskPatch) (out wire.Task, next *wire.Task, version int64, err error) {
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		c, i, err := caseTask(tx, caseID, taskID)
		if err != nil {
			return err
		}
		t := &c.Tasks[i]
		before := humanedit.Fields(t)
		verb, err := applyTaskPatch(tx, t, p)
		if err != nil {
			return err
		}
		w := humanedit.For(tx, t.ID, t.HumanEdits, before, t)
		w.Override, w.Ignore = p.Override, humanedit.UntrackedTask
		t.HumanEdits = w.Track()
		w.Edits = t.HumanEdits
		over, err := w.Check()
		if err != nil {
			return err
		}
		var n wire.Task
		repeats := false
		if verb == wire.VerbTaskCompleted && t.Repeat != "" {
			if n, repeats = NextTask(*t, saved.Zone(tx.Doc(), tx.DefaultZone())); repeats {
				n.ID, n.CreatedAt = field.NextChildID(c.ID, "T", taskIDs(c)), tx.Stamp()
				t.NextID = n.ID
			}
			t.Repeat = "" // the series moves on to the next task, or ends here
		}
		out = *t
		c.UpdatedAt = tx.Stamp()
		activity.Log(c, actor, verb, t.ID+" "+t.Title, tx.Stamp())
		if over != nil {
			activity.Log(c, actor, wire.VerbOverride, t.ID+" "+over.Overridden(), tx.Stamp())
		}
		if repeats {
			c.Tasks = append(c.Tasks, n) // t points into the old array from here on
			next = &n
			activity.Log(c, actor, wire.VerbTaskAdded, n.ID+" "+n.Title+" (repeats "+out.ID+")", tx.Stamp())
		}
		tx.Cases().Put(c)
		return nil
	})
	return out, next, v, err
}

// applyTaskPatch validates p and applies it to t, and answers the verb to
// log: a completion or a reopening says so, any other edit is an update.
func applyTaskPatch(tx *store.Tx, t *wire.Task, p wire.TaskPatch) (wire.Verb, error) {
	verb := wire.VerbTaskUpdated
	if p.Title.Set {
		title := strings.TrimSpace(p.Title.V)
		if p.Title.Null || title == "" {
			return "", errs.BadRequest("field 'title' cannot be empty")
		}
		t.Title = title
	}
	if p.Detail.Set {
		t.Detail = p.Detail.V
	}
	if p.DueAt.Set {
		if err := field.CheckDate("dueAt", p.DueAt.V); err != nil {
			return "", err
		}
		t.DueAt = p.DueAt.V
	}
	if p.Position.Set {
		t.Position = nil
		if !p.Position.Null {
			pos := p.Position.V
			t.Position = &pos
		}
	}
	if p.Repeat.Set {
		t.Repeat = field.OptText(p.Repeat, "")
	}
	if p.Repeat.Set || p.DueAt.Set {
		rule, err := field.CheckRepeat("repeat", t.Repeat, "dueAt", t.DueAt)
		if err != nil {
			return "", err
		}
		t.Repeat = rule
	}
	if p.Completed.Set {
		switch done := p.Completed.V && !p.Completed.Null; {
		case done && t.CompletedAt == "":
			t.CompletedAt, verb = tx.Stamp(), wire.VerbTaskCompleted
		case !done && t.CompletedAt != "":
			t.CompletedAt, verb = "", wire.VerbTaskReopened
		}
	}
	return verb, nil
}

// NextTask is the task that completing t, a repeating task, leaves: t's
// title, detail and position, open and due at the rule's first occurrence
// after t's dueAt, with the rule carried on (COUNT one fewer); its id is
// left to mint. ok is false when the series ends with t, or t has no rule
// or due date that reads. loc is the board's zone.
func NextTask(t wire.Task, loc *time.Location) (wire.Task, bool) {
	rule, err := repeat.Parse(t.Repeat)
	if err != nil {
		return wire.Task{}, false
	}
	due, rest, ok := repeat.NextDue(rule, t.DueAt, loc)
	if !ok {
		return wire.Task{}, false
	}
	n := wire.Task{Title: t.Title, Detail: t.Detail, DueAt: due, Repeat: rest.String()}
	if t.Position != nil {
		pos := *t.Position
		n.Position = &pos
	}
	return n, true
}

// DeleteTask removes a task from a case's checklist.
func DeleteTask(ctx context.Context, s *store.Store, actor wire.Actor, caseID, taskID string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		c, i, err := caseTask(tx, caseID, taskID)
		if err != nil {
			return err
		}
		t := c.Tasks[i]
		if err := humanedit.Removal(tx, t.ID, t.HumanEdits, &t); err != nil {
			return err
		}
		c.Tasks = append(c.Tasks[:i], c.Tasks[i+1:]...)
		c.UpdatedAt = tx.Stamp()
		activity.Log(c, actor, wire.VerbTaskDeleted, t.ID+" "+t.Title, tx.Stamp())
		tx.Cases().Put(c)
		return nil
	})
}

func caseTask(tx *store.Tx, caseID, taskID string) (*wire.Case, int, error) {
	c, ok := tx.Cases().Get(caseID)
	if !ok {
		return nil, 0, errs.NotFound("case %s not found", caseID)
	}
	for i, t := range c.Tasks {
		if t.ID == taskID {
			return c, i, nil
		}
	}
	return nil, 0, errs.NotFound("task %s not found on %s", taskID, caseID)
}

// AddNote appends a note to a case.
func AddNote(ctx context.Context, s *store.Store, actor wire.Actor, caseID, text string) (wire.Note, bool, int64, error) {
	return store.CreateOrFind(ctx, s, actor, func(tx *store.Tx) (wire.Note, bool, error) {
		return AddNoteTx(tx, actor, caseID, text)
	})
}

// AddNoteTx is AddNote within a write; found is true when the agent's
// note was already on the case (nothing is written then).
func AddNoteTx(tx *store.Tx, actor wire.Actor, caseID, text string) (wire.Note, bool, error) {
	c, ok := tx.Cases().Get(caseID)
	if !ok {
		return wire.Note{}, false, errs.NotFound("case %s not found", caseID)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return wire.Note{}, false, errs.BadRequest("Field 'text' is required.")
	}
	if actor == wire.ActorAgent {
		for _, n := range c.Notes {
			if strings.TrimSpace(n.Text) == text {
				return n, true, nil
			}
		}
	}
	out := wire.Note{ID: field.NextChildID(c.ID, "N", noteIDs(c)), Text: text, Actor: actor, CreatedAt: tx.Stamp()}
	c.Notes = append(c.Notes, out)
	c.UpdatedAt = tx.Stamp()
	activity.Log(c, actor, wire.VerbNoteAdded, out.ID, tx.Stamp())
	tx.Cases().Put(c)
	return out, false, nil
}
