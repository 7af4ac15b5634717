package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// CreateReminder adds a reminder. With in.Dedupe, an exact match (same
// normalized title and due date) is returned instead, with existing true and
// nothing written.
func (s *Store) CreateReminder(ctx context.Context, actor string, in wire.ReminderCreate) (out *wire.Reminder, existing bool, version int64, err error) {
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		r, found, err := createReminderTx(tx, in)
		out = r
		if found {
			version = tx.d.Version
			return errExisting
		}
		return err
	})
	if errors.Is(err, errExisting) {
		return out, true, version, nil
	}
	return out, false, v, err
}

func createReminderTx(tx *Tx, in wire.ReminderCreate) (*wire.Reminder, bool, error) {
	now := tx.Now()
	r := &wire.Reminder{
		Title: strings.TrimSpace(in.Title), Detail: strings.TrimSpace(in.Detail), Status: strings.TrimSpace(in.Status),
		DueAt: strings.TrimSpace(in.DueAt), Domain: strings.TrimSpace(in.Domain), CaseID: strings.TrimSpace(in.CaseID),
		Labels: cleanList(in.Labels), CreatedAt: now, UpdatedAt: now, CreatedBy: tx.actor,
	}
	if r.Title == "" {
		return nil, false, errs.BadRequest("Field 'title' is required.")
	}
	if r.Status == "" {
		r.Status = "open"
	}
	for i, t := range in.Tasks {
		if t.ID != "" {
			return nil, false, errs.BadRequest("tasks[%d]: task ids are minted by the store; leave 'id' out on create", i)
		}
	}
	for _, err := range []error{
		oneOf("status", r.Status, wire.ReminderStatuses), checkDate("dueAt", r.DueAt), checkDomain(r.Domain),
		checkLink(tx, r.CaseID), checkLabels(tx, r.Labels),
	} {
		if err != nil {
			return nil, false, err
		}
	}
	if in.Dedupe {
		for _, old := range tx.d.Reminders {
			if normTitle(old.Title) == normTitle(r.Title) && old.DueAt == r.DueAt {
				cp, _ := tx.Reminder(old.ID)
				return cp, true, nil
			}
		}
	}
	r.ID = tx.NextID("REM")
	tasks, err := reminderTasks(r.ID, nil, in.Tasks)
	if err != nil {
		return nil, false, err
	}
	r.Tasks = tasks
	if r.Status == "done" {
		r.CompletedAt, r.CompletedBy = now, tx.actor
	}
	tx.PutReminder(r)
	logOnCase(tx, r.CaseID, "reminder_linked", r.ID+" "+r.Title)
	return r, false, nil
}

// reminderTasks builds a reminder's checklist from input rows: a row naming
// an id of the current checklist keeps it, a row without one gets
// <reminder>-T<k> with k continuing from the highest id seen, and a row with
// an empty title is dropped. An empty checklist is nil (absent).
func reminderTasks(remID string, cur []wire.ReminderTask, in []wire.ReminderTaskInput) ([]wire.ReminderTask, error) {
	known := map[string]bool{}
	ids := make([]string, 0, len(cur)+len(in))
	for _, t := range cur {
		known[t.ID] = true
		ids = append(ids, t.ID)
	}
	seen := map[string]bool{}
	var out []wire.ReminderTask
	for i, t := range in {
		id := strings.TrimSpace(t.ID)
		if id != "" {
			if !known[id] {
				return nil, errs.BadRequest("tasks[%d]: task %s is not on %s (leave 'id' out to add a row)", i, id, remID)
			}
			if seen[id] {
				return nil, errs.BadRequest("tasks[%d]: task %s is listed twice", i, id)
			}
			seen[id] = true
		}
		title := strings.TrimSpace(t.Title)
		if title == "" {
			continue
		}
		out = append(out, wire.ReminderTask{ID: id, Title: title, Done: t.Done})
	}
	for i := range out {
		if out[i].ID == "" {
			out[i].ID = nextChildID(remID, "T", ids)
			ids = append(ids, out[i].ID)
		}
	}
	return out, nil
}

// PatchReminder applies a partial update to a reminder. status done stamps
// completedAt and leaving done clears it. Activity lands on the linked node:
// reminder_unlinked and reminder_linked on a relink, reminder_completed on
// completion, reminder_updated on any other change.
func (s *Store) PatchReminder(ctx context.Context, actor, id string, p wire.ReminderPatch) (*wire.Reminder, int64, error) {
	var out *wire.Reminder
	v, err := s.Update(ctx, actor, p.ExpectedVersion, func(tx *Tx) error {
		r, err := patchReminderTx(tx, id, p)
		out = r
		return err
	})
	return out, v, err
}

func patchReminderTx(tx *Tx, id string, p wire.ReminderPatch) (*wire.Reminder, error) {
	r, ok := tx.Reminder(id)
	if !ok {
		return nil, errs.NotFound("reminder %s not found", id)
	}
	old, _ := tx.Reminder(id)
	now := tx.Now()
	if p.Title.Set {
		if r.Title = optText(p.Title, ""); r.Title == "" {
			return nil, errs.BadRequest("field 'title' cannot be empty")
		}
	}
	r.Detail = optText(p.Detail, r.Detail)
	if p.Status.Set {
		st := optText(p.Status, "")
		if err := oneOf("status", st, wire.ReminderStatuses); err != nil {
			return nil, err
		}
		switch {
		case st == "done" && r.Status != "done":
			r.CompletedAt, r.CompletedBy = now, tx.actor
		case st != "done" && r.Status == "done":
			r.CompletedAt, r.CompletedBy = "", ""
		}
		r.Status = st
	}
	if p.DueAt.Set {
		r.DueAt = optText(p.DueAt, "")
		if err := checkDate("dueAt", r.DueAt); err != nil {
			return nil, err
		}
	}
	if p.Domain.Set {
		r.Domain = optText(p.Domain, "")
		if err := checkDomain(r.Domain); err != nil {
			return nil, err
		}
	}
	if p.CaseID.Set {
		r.CaseID = optText(p.CaseID, "")
		if r.CaseID != old.CaseID {
			if err := checkLink(tx, r.CaseID); err != nil {
				return nil, err
			}
		}
	}
	if p.Labels.Set {
		var labels []string
		if !p.Labels.Null {
			labels = cleanList(p.Labels.V)
		}
		// Only labels this write adds must exist, as on cases: a reminder
		// still carrying a label removed from the catalog stays editable.
		var added []string
		for _, l := range labels {
			if !slices.Contains(r.Labels, l) {
				added = append(added, l)
			}
		}
		if err := checkLabels(tx, added); err != nil {
			return nil, err
		}
		r.Labels = labels
	}
	if p.Tasks.Set {
		var in []wire.ReminderTaskInput
		if !p.Tasks.Null {
			in = p.Tasks.V
		}
		tasks, err := reminderTasks(r.ID, r.Tasks, in)
		if err != nil {
			return nil, err
		}
		r.Tasks = tasks
	}
	normReminder(r)
	normReminder(old)
	if reflect.DeepEqual(r, old) {
		return r, nil // nothing changed: no activity, updatedAt kept
	}
	r.UpdatedAt = now
	tx.PutReminder(r)
	detail := r.ID + " " + r.Title
	if r.CaseID != old.CaseID {
		logOnCase(tx, old.CaseID, "reminder_unlinked", detail)
		logOnCase(tx, r.CaseID, "reminder_linked", detail)
	}
	switch {
	case r.Status == "done" && old.Status != "done":
		logOnCase(tx, r.CaseID, "reminder_completed", detail)
	case r.CaseID == old.CaseID:
		logOnCase(tx, r.CaseID, "reminder_updated", detail)
	}
	return r, nil
}

// normReminder makes empty lists nil, so they are absent on the wire and
// compare equal.
func normReminder(r *wire.Reminder) {
	if len(r.Labels) == 0 {
		r.Labels = nil
	}
	if len(r.Tasks) == 0 {
		r.Tasks = nil
	}
}

// DeleteReminder removes a reminder for good. Its messages stay with
// reminderId cleared; a linked node logs reminder_unlinked.
func (s *Store) DeleteReminder(ctx context.Context, actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *Tx) error { return deleteReminderTx(tx, id) })
}

func deleteReminderTx(tx *Tx, id string) error {
	r, ok := tx.Reminder(id)
	if !ok {
		return errs.NotFound("reminder %s not found", id)
	}
	tx.DeleteReminder(id)
	for _, m := range tx.d.Messages {
		if m.ReminderID == id {
			cp := *m
			cp.ReminderID = ""
			tx.PutMessage(&cp)
		}
	}
	logOnCase(tx, r.CaseID, "reminder_unlinked", r.ID+" "+r.Title)
	return nil
}

// AddReminderMessage creates a message linked to a reminder. It logs no
// activity: a reminder has no log, and the linked case is not involved.
func (s *Store) AddReminderMessage(ctx context.Context, actor, id string, in wire.MessageInput) (*wire.Reminder, *wire.Message, int64, error) {
	var (
		rem *wire.Reminder
		msg *wire.Message
	)
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		r, ok := tx.Reminder(id)
		if !ok {
			return errs.NotFound("reminder %s not found", id)
		}
		m, err := newMessage(tx, in)
		if err != nil {
			return err
		}
		m.ReminderID = r.ID
		tx.PutMessage(m)
		rem, msg = r, m
		return nil
	})
	return rem, msg, v, err
}

// ReminderFilter is the query of GET /api/reminders. Status applies only
// when it is a valid reminder status; CaseGiven filters on CaseID even when
// it is empty (standalone reminders).
type ReminderFilter struct {
	Status    string
	CaseID    string
	CaseGiven bool
	Domain    string
}

// Reminders lists the reminders matching f: by due date (none last), then
// by creation.
func Reminders(d *wire.Doc, f ReminderFilter) ([]*wire.Reminder, error) {
	if f.Domain != "" && !slices.Contains(wire.Domains, f.Domain) {
		return nil, errs.BadRequest("query 'domain' must be one of %s", strings.Join(wire.Domains, ", "))
	}
	status := ""
	if slices.Contains(wire.ReminderStatuses, f.Status) {
		status = f.Status
	}
	out := []*wire.Reminder{}
	for _, r := range d.Reminders {
		switch {
		case status != "" && r.Status != status,
			f.CaseGiven && r.CaseID != f.CaseID,
			f.Domain != "" && r.Domain != f.Domain:
			continue
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.DueAt == "") != (b.DueAt == "") {
			return b.DueAt == ""
		}
		if a.DueAt != b.DueAt {
			return a.DueAt < b.DueAt
		}
		return a.CreatedAt < b.CreatedAt
	})
	return out, nil
}

// FindReminder returns a reminder of d by id.
func FindReminder(d *wire.Doc, id string) (*wire.Reminder, error) {
	for _, r := range d.Reminders {
		if r.ID == id {
			return r, nil
		}
	}
	return nil, errs.NotFound("reminder %s not found", id)
}

// ReminderMessages lists the messages linked to a reminder, newest first by
// receivedAt; messages whose date does not parse come last.
func ReminderMessages(d *wire.Doc, id string) []*wire.Message {
	type dated struct {
		m  *wire.Message
		at time.Time
		ok bool
	}
	var list []dated
	for _, m := range d.Messages {
		if m.ReminderID == id {
			at, ok := parseWhen(m.ReceivedAt)
			list = append(list, dated{m, at, ok})
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.ok != b.ok {
			return a.ok
		}
		return a.ok && a.at.After(b.at)
	})
	out := make([]*wire.Message, len(list))
	for i, x := range list {
		out[i] = x.m
	}
	return out
}

// parseWhen reads the date and datetime forms validDate accepts; a date or
// a datetime without a zone is taken as UTC.
func parseWhen(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15:04Z07:00", "2006-01-02", time.RFC1123Z, time.RFC1123} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// LifecycleRow is an Activity feed row synthesized from a reminder's or an
// event's own timestamps (neither keeps an activity log).
type LifecycleRow struct {
	wire.Activity
	ReminderID string
	EventID    string
	CaseID     string
}

// Lifecycle synthesizes the reminder and event lifecycle rows of the
// Activity feed: created for both, completed for a done reminder. A row the
// linked case's own log already holds (same verb, time and record) is left
// out so the feed does not show it twice.
func Lifecycle(d *wire.Doc) []LifecycleRow {
	logged := map[string]bool{}
	for _, c := range d.Cases {
		for _, a := range c.Activity {
			id, _, _ := strings.Cut(a.Detail, " ")
			logged[a.Verb+"|"+a.TS+"|"+id] = true
		}
	}
	var out []LifecycleRow
	add := func(row LifecycleRow, id string) {
		if row.TS == "" || logged[row.Verb+"|"+row.TS+"|"+id] {
			return
		}
		if row.Actor == "" {
			row.Actor = wire.ActorSystem // records from before attribution was kept
		}
		out = append(out, row)
	}
	for _, r := range d.Reminders {
		detail := r.ID + " " + r.Title
		add(LifecycleRow{Activity: wire.Activity{Actor: r.CreatedBy, Verb: "reminder_created", TS: r.CreatedAt, Detail: detail}, ReminderID: r.ID, CaseID: r.CaseID}, r.ID)
		if r.Status == "done" {
			add(LifecycleRow{Activity: wire.Activity{Actor: r.CompletedBy, Verb: "reminder_completed", TS: r.CompletedAt, Detail: detail}, ReminderID: r.ID, CaseID: r.CaseID}, r.ID)
		}
	}
	for _, e := range d.Events {
		detail := fmt.Sprintf("%s %s (%s)", e.ID, e.Title, e.Date)
		add(LifecycleRow{Activity: wire.Activity{Actor: e.CreatedBy, Verb: "event_created", TS: e.CreatedAt, Detail: detail}, EventID: e.ID, CaseID: e.CaseID}, e.ID)
	}
	return out
}
