package store

import (
	"context"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// AddTask appends a task to a case's checklist; its id continues from the
// highest existing (CASE-<n>-T<k>).
func (s *Store) AddTask(ctx context.Context, actor, caseID string, in wire.TaskInput) (wire.Task, int64, error) {
	var out wire.Task
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		c, ok := tx.Case(caseID)
		if !ok {
			return errs.NotFound("case %s not found", caseID)
		}
		title := strings.TrimSpace(in.Title)
		if title == "" {
			return errs.BadRequest("Field 'title' is required.")
		}
		if err := checkDate("dueAt", in.DueAt); err != nil {
			return err
		}
		out = wire.Task{ID: nextChildID(c.ID, "T", taskIDs(c)), Title: title, Detail: in.Detail, DueAt: in.DueAt, Position: in.Position, CreatedAt: tx.Now()}
		c.Tasks = append(c.Tasks, out)
		c.UpdatedAt = tx.Now()
		logActivity(c, actor, "task_added", out.ID+" "+title, tx.Now())
		tx.PutCase(c)
		return nil
	})
	return out, v, err
}

// PatchTask edits a task; completed true stamps completedAt, false clears it.
func (s *Store) PatchTask(ctx context.Context, actor, caseID, taskID string, p wire.TaskPatch) (wire.Task, int64, error) {
	var out wire.Task
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		c, i, err := caseTask(tx, caseID, taskID)
		if err != nil {
			return err
		}
		t := &c.Tasks[i]
		verb := "task_updated"
		if p.Title.Set {
			title := strings.TrimSpace(p.Title.V)
			if p.Title.Null || title == "" {
				return errs.BadRequest("field 'title' cannot be empty")
			}
			t.Title = title
		}
		if p.Detail.Set {
			t.Detail = p.Detail.V
		}
		if p.DueAt.Set {
			if err := checkDate("dueAt", p.DueAt.V); err != nil {
				return err
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
		if p.Completed.Set {
			switch done := p.Completed.V && !p.Completed.Null; {
			case done && t.CompletedAt == "":
				t.CompletedAt, verb = tx.Now(), "task_completed"
			case !done && t.CompletedAt != "":
				t.CompletedAt, verb = "", "task_reopened"
			}
		}
		out = *t
		c.UpdatedAt = tx.Now()
		logActivity(c, actor, verb, t.ID+" "+t.Title, tx.Now())
		tx.PutCase(c)
		return nil
	})
	return out, v, err
}

// DeleteTask removes a task from a case's checklist.
func (s *Store) DeleteTask(ctx context.Context, actor, caseID, taskID string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *Tx) error {
		c, i, err := caseTask(tx, caseID, taskID)
		if err != nil {
			return err
		}
		t := c.Tasks[i]
		c.Tasks = append(c.Tasks[:i], c.Tasks[i+1:]...)
		c.UpdatedAt = tx.Now()
		logActivity(c, actor, "task_deleted", t.ID+" "+t.Title, tx.Now())
		tx.PutCase(c)
		return nil
	})
}

func caseTask(tx *Tx, caseID, taskID string) (*wire.Case, int, error) {
	c, ok := tx.Case(caseID)
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
func (s *Store) AddNote(ctx context.Context, actor, caseID, text string) (wire.Note, int64, error) {
	var out wire.Note
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		c, ok := tx.Case(caseID)
		if !ok {
			return errs.NotFound("case %s not found", caseID)
		}
		text = strings.TrimSpace(text)
		if text == "" {
			return errs.BadRequest("Field 'text' is required.")
		}
		out = wire.Note{ID: nextChildID(c.ID, "N", noteIDs(c)), Text: text, Actor: actor, CreatedAt: tx.Now()}
		c.Notes = append(c.Notes, out)
		c.UpdatedAt = tx.Now()
		logActivity(c, actor, "note_added", out.ID, tx.Now())
		tx.PutCase(c)
		return nil
	})
	return out, v, err
}
