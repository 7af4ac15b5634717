// Package reminders holds the rules of reminders: create (with dedupe),
// patch (status, checklist, labels, link) and delete, each logging on the
// linked case, and the reminder list and message queries.
package reminders

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/cases"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/humanedit"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/rules/repeat"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Create adds a reminder. With in.Dedupe, an exact match (same
// normalized title and due date) is returned instead, with existing true and
// nothing written.
func Create(ctx context.Context, s *store.Store, actor wire.Actor, in wire.ReminderCreate) (out *wire.Reminder, existing bool, version int64, err error) {
	return store.CreateOrFind(ctx, s, actor, func(tx *store.Tx) (*wire.Reminder, bool, error) { return CreateTx(tx, in) })
}

// CreateTx is Create inside a write; found reports an exact match returned
// instead of a new reminder (nothing was changed then).
func CreateTx(tx *store.Tx, in wire.ReminderCreate) (*wire.Reminder, bool, error) {
	now := tx.Stamp()
	r := &wire.Reminder{
		Title: strings.TrimSpace(in.Title), Detail: strings.TrimSpace(in.Detail), Status: wire.ReminderStatus(strings.TrimSpace(in.Status)),
		DueAt: strings.TrimSpace(in.DueAt), Domain: wire.Domain(strings.TrimSpace(in.Domain)), CaseID: strings.TrimSpace(in.CaseID),
		Labels: field.CleanList(in.Labels), CreatedAt: now, UpdatedAt: now, CreatedBy: tx.Actor(),
	}
	if r.Title == "" {
		return nil, false, errs.BadRequest("Field 'title' is required.")
	}
	if r.Status == "" {
		r.Status = wire.ReminderOpen
	}
	if err := checkTaskCount(in.Tasks); err != nil {
		return nil, false, err
	}
	for i, t := range in.Tasks {
		if t.ID != "" {
			return nil, false, errs.BadRequest("tasks[%d]: task ids are minted by the store; leave 'id' out on create", i)
		}
	}
	for _, err := range []error{
		field.OneOf("status", r.Status, wire.ReminderStatuses()), field.CheckDate("dueAt", r.DueAt), field.CheckDomain(r.Domain),
		cases.CheckLink(tx, r.CaseID), labels.Check(tx, r.Labels),
	} {
		if err != nil {
			return nil, false, err
		}
	}
	rule, err := field.CheckRepeat("repeat", in.Repeat, "dueAt", r.DueAt)
	if err != nil {
		return nil, false, err
	}
	r.Repeat = rule
	if in.Dedupe {
		for _, old := range tx.Doc().Reminders.All() {
			if field.NormTitle(old.Title) == field.NormTitle(r.Title) && old.DueAt == r.DueAt {
				cp, _ := tx.Reminders().Get(old.ID)
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
	if r.Status == wire.ReminderDone {
		r.CompletedAt, r.CompletedBy = now, tx.Actor()
	}
	tx.Reminders().Put(r)
	activity.OnCase(tx, r.CaseID, wire.VerbReminderLinked, r.ID+" "+r.Title)
	return r, false, nil
}

// checkTaskCount refuses a checklist over wire.MaxReminderTasks rows. It
// judges only what a write sets: a stored reminder already over the cap
// loads and keeps its checklist until a write replaces it.
func checkTaskCount(in []wire.ReminderTaskInput) error {
	if len(in) > wire.MaxReminderTasks {
		return errs.BadRequest("field 'tasks' holds at most %d tasks", wire.MaxReminderTasks)
	}
	return nil
}

// reminderTasks builds a reminder's checklist from input rows: a row naming
// an id of the current checklist keeps it, a row without one gets
// <reminder>-T<k> with k continuing from the highest id seen, and a row with
// an empty title is dropped. An empty checklist is nil (absent).
func reminderTasks(remID string, cur []wire.ReminderTask, in []wire.ReminderTaskInput) ([]wire.ReminderTask, error) {
	known := make(map[string]bool, len(cur))
	mint := field.ChildIDsAfter(remID, "T", nil)
	for _, t := range cur {
		known[t.ID] = true
		mint.Saw(t.ID)
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
			out[i].ID = mint.Next()
		}
	}
	return out, nil
}

// Patch applies a partial update to a reminder. status done stamps
// completedAt and leaving done clears it. Activity lands on the linked node:
// reminder_unlinked and reminder_linked on a relink, reminder_completed on
// completion, reminder_updated on any other change.
// Completing a repeating reminder also creates its next occurrence, in the
// same write; next is that occurrence (nil otherwise).
func Patch(ctx context.Context, s *store.Store, actor wire.Actor, id string, p wire.ReminderPatch) (r, next *wire.Reminder, version int64, err error) {
	type patched struct{ r, next *wire.Reminder }
	out, v, err := store.Do(ctx, s, actor, p.ExpectedVersion, func(tx *store.Tx) (patched, error) {
		var before map[string]json.RawMessage
		if r, ok := tx.Reminders().Get(id); ok {
			before = humanedit.Fields(r)
		}
		old, _ := tx.Reminders().Get(id)
		r, err := patchFields(tx, id, p)
		if err != nil {
			return patched{}, err
		}
		w := humanedit.For(tx, r.ID, r.HumanEdits, before, r)
		w.Override = p.Override
		over, err := w.Check()
		if err != nil {
			return patched{}, err
		}
		if over != nil {
			// A reminder has no log of its own: the override lands on its node.
			activity.Override(tx, r.CaseID, r.ID, over.Overridden())
		}
		return patched{r, completeTx(tx, old, r)}, nil
	})
	return out.r, out.next, v, err
}

// PatchTx is Patch inside a write.
func PatchTx(tx *store.Tx, id string, p wire.ReminderPatch) (*wire.Reminder, error) {
	old, _ := tx.Reminders().Get(id)
	r, err := patchFields(tx, id, p)
	if err != nil {
		return nil, err
	}
	completeTx(tx, old, r)
	return r, nil
}

// completeTx repeats r when this write completed it (old is r before the
// write) and it has a rule; it returns the next occurrence, or nil.
func completeTx(tx *store.Tx, old, r *wire.Reminder) *wire.Reminder {
	if old == nil || old.Status == wire.ReminderDone || r.Status != wire.ReminderDone || r.Repeat == "" {
		return nil
	}
	return repeatTx(tx, r)
}

// patchFields applies p to the reminder, puts it back and logs the change
// on the linked case.
func patchFields(tx *store.Tx, id string, p wire.ReminderPatch) (*wire.Reminder, error) {
	r, ok := tx.Reminders().Get(id)
	if !ok {
		return nil, errs.NotFound("reminder %s not found", id)
	}
	old, _ := tx.Reminders().Get(id)
	if err := applyPatch(tx, r, p); err != nil {
		return nil, err
	}
	normReminder(r)
	normReminder(old)
	if reflect.DeepEqual(r, old) {
		return r, nil // nothing changed: no activity, updatedAt kept
	}
	r.UpdatedAt = tx.Stamp()
	r.HumanEdits = humanedit.For(tx, r.ID, r.HumanEdits, humanedit.Fields(old), r).Track()
	tx.Reminders().Put(r)
	logPatch(tx, old, r)
	return r, nil
}

// logPatch logs a patched reminder on its case: a relink on both ends, a
// completion as such, any other change as an update.
func logPatch(tx *store.Tx, old, r *wire.Reminder) {
	detail := r.ID + " " + r.Title
	if r.CaseID != old.CaseID {
		activity.OnCase(tx, old.CaseID, wire.VerbReminderUnlinked, detail)
		activity.OnCase(tx, r.CaseID, wire.VerbReminderLinked, detail)
	}
	switch {
	case r.Status == wire.ReminderDone && old.Status != wire.ReminderDone:
		activity.OnCase(tx, r.CaseID, wire.VerbReminderCompleted, detail)
	case r.CaseID == old.CaseID:
		activity.OnCase(tx, r.CaseID, wire.VerbReminderUpdated, detail)
	}
}

// applyPatch validates p and applies it to r, a private copy, in field
// order so the first bad field is the one reported.
func applyPatch(tx *store.Tx, r *wire.Reminder, p wire.ReminderPatch) error {
	if p.Title.Set {
		if r.Title = field.OptText(p.Title, ""); r.Title == "" {
			return errs.BadRequest("field 'title' cannot be empty")
		}
	}
	r.Detail = field.OptText(p.Detail, r.Detail)
	if p.Status.Set {
		st := wire.ReminderStatus(field.OptText(p.Status, ""))
		if err := field.OneOf("status", st, wire.ReminderStatuses()); err != nil {
			return err
		}
		switch {
		case st == wire.ReminderDone && r.Status != wire.ReminderDone:
			r.CompletedAt, r.CompletedBy = tx.Stamp(), tx.Actor()
		case st != wire.ReminderDone && r.Status == wire.ReminderDone:
			r.CompletedAt, r.CompletedBy = "", ""
		}
		r.Status = st
	}
	if p.DueAt.Set {
		r.DueAt = field.OptText(p.DueAt, "")
		if err := field.CheckDate("dueAt", r.DueAt); err != nil {
			return err
		}
	}
	if p.Domain.Set {
		r.Domain = wire.Domain(field.OptText(p.Domain, ""))
		if err := field.CheckDomain(r.Domain); err != nil {
			return err
		}
	}
	if err := applyLinks(tx, r, p); err != nil {
		return err
	}
	if p.Repeat.Set {
		r.Repeat = field.OptText(p.Repeat, "")
	}
	if p.Repeat.Set || p.DueAt.Set {
		rule, err := field.CheckRepeat("repeat", r.Repeat, "dueAt", r.DueAt)
		if err != nil {
			return err
		}
		r.Repeat = rule
	}
	return nil
}

// applyLinks applies what a reminder points at or holds: its case, its
// labels and its checklist.
func applyLinks(tx *store.Tx, r *wire.Reminder, p wire.ReminderPatch) error {
	if p.CaseID.Set {
		was := r.CaseID
		r.CaseID = field.OptText(p.CaseID, "")
		if r.CaseID != was {
			if err := cases.CheckLink(tx, r.CaseID); err != nil {
				return err
			}
		}
	}
	if p.Labels.Set {
		var ids []string
		if !p.Labels.Null {
			ids = field.CleanList(p.Labels.V)
		}
		// Only labels this write adds must exist, as on cases: a reminder
		// still carrying a label removed from the catalog stays editable.
		if err := labels.Check(tx, field.Added(ids, r.Labels)); err != nil {
			return err
		}
		r.Labels = ids
	}
	if p.Tasks.Set {
		var in []wire.ReminderTaskInput
		if !p.Tasks.Null {
			in = p.Tasks.V
		}
		if err := checkTaskCount(in); err != nil {
			return err
		}
		tasks, err := reminderTasks(r.ID, r.Tasks, in)
		if err != nil {
			return err
		}
		r.Tasks = tasks
	}
	return nil
}

// Next is the occurrence that completing r, a repeating reminder, leaves:
// r's title, detail, node link, domain, labels and checklist (unticked, ids
// left for the store to mint), open and due at the rule's first occurrence
// after r's dueAt, with the rule carried on (COUNT one fewer). ok is false
// when the series ends with r, or r has no rule or due date that reads.
// loc is the board's zone.
func Next(r wire.Reminder, loc *time.Location) (wire.Reminder, bool) {
	rule, err := repeat.Parse(r.Repeat)
	if err != nil {
		return wire.Reminder{}, false
	}
	due, rest, ok := repeat.NextDue(rule, r.DueAt, loc)
	if !ok {
		return wire.Reminder{}, false
	}
	next := wire.Reminder{
		Title: r.Title, Detail: r.Detail, Status: wire.ReminderOpen, CaseID: r.CaseID, DueAt: due,
		Domain: r.Domain, Labels: slices.Clone(r.Labels), Repeat: rest.String(),
	}
	for _, t := range r.Tasks {
		next.Tasks = append(next.Tasks, wire.ReminderTask{Title: t.Title})
	}
	return next, true
}

// repeatTx creates the next occurrence of r, just completed, in the write:
// the series moves on to it, and r keeps only a pointer (nextId). It
// returns nil when the series ends with r.
func repeatTx(tx *store.Tx, r *wire.Reminder) *wire.Reminder {
	n, ok := Next(*r, saved.Zone(tx.Doc(), tx.DefaultZone()))
	r.Repeat = ""
	if !ok {
		tx.Reminders().Put(r)
		return nil
	}
	next := &n
	next.ID = tx.NextID("REM")
	mint := field.ChildIDsAfter(next.ID, "T", nil)
	for i := range next.Tasks {
		next.Tasks[i].ID = mint.Next()
	}
	next.CreatedAt, next.UpdatedAt, next.CreatedBy = tx.Stamp(), tx.Stamp(), tx.Actor()
	r.NextID = next.ID
	tx.Reminders().Put(r)
	tx.Reminders().Put(next)
	activity.OnCase(tx, next.CaseID, wire.VerbReminderLinked, next.ID+" "+next.Title+" (repeats "+r.ID+")")
	return next
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

// Delete removes a reminder for good. Its messages stay with
// reminderId cleared; a linked node logs reminder_unlinked.
func Delete(ctx context.Context, s *store.Store, actor wire.Actor, id string) (int64, error) {
	return s.Update(ctx, actor, nil, func(tx *store.Tx) error { return deleteTx(tx, id) })
}

func deleteTx(tx *store.Tx, id string) error {
	r, ok := tx.Reminders().Get(id)
	if !ok {
		return errs.NotFound("reminder %s not found", id)
	}
	if err := humanedit.Removal(tx, r.ID, r.HumanEdits, r); err != nil {
		return err
	}
	tx.Reminders().Delete(id)
	for _, m := range tx.Doc().Messages.All() {
		if m.ReminderID == id {
			cp := *m
			cp.ReminderID = ""
			tx.Messages().Put(&cp)
		}
	}
	activity.OnCase(tx, r.CaseID, wire.VerbReminderUnlinked, r.ID+" "+r.Title)
	return nil
}

// Filter is the query of GET /api/reminders. Status applies only
// when it is a valid reminder status; CaseGiven filters on CaseID even when
// it is empty (standalone reminders).
type Filter struct {
	Status    string
	CaseID    string
	CaseGiven bool
	Domain    string
}

// List lists the reminders matching f: by due date (none last), then
// by creation.
func List(d *wire.Doc, f Filter) ([]*wire.Reminder, error) {
	if f.Domain != "" && !slices.Contains(wire.Domains(), f.Domain) {
		return nil, errs.BadRequest("query 'domain' must be one of %s", strings.Join(wire.Domains(), ", "))
	}
	status := ""
	if slices.Contains(wire.ReminderStatuses(), f.Status) {
		status = f.Status
	}
	out := []*wire.Reminder{}
	for _, r := range d.Reminders.All() {
		switch {
		case status != "" && string(r.Status) != status,
			f.CaseGiven && r.CaseID != f.CaseID,
			f.Domain != "" && string(r.Domain) != f.Domain:
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

// Find returns a reminder of d by id.
func Find(d *wire.Doc, id string) (*wire.Reminder, error) {
	for _, r := range d.Reminders.All() {
		if r.ID == id {
			return r, nil
		}
	}
	return nil, errs.NotFound("reminder %s not found", id)
}

// Messages lists the messages linked to a reminder, newest first by
// receivedAt; messages whose date does not parse come last.
func Messages(d *wire.Doc, id string) []*wire.Message {
	type dated struct {
		m  *wire.Message
		at time.Time
		ok bool
	}
	var list []dated
	for _, m := range d.Messages.All() {
		if m.ReminderID == id {
			at, ok := field.ParseWhen(m.ReceivedAt)
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
