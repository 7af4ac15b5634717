package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Tx is one write in progress: a draft of the document that only becomes
// visible when the write commits and is durable. Records returned by the
// getters are private copies; put them back to change them.
type Tx struct {
	d     *wire.Doc
	now   time.Time
	actor string

	cases      table[*wire.Case]
	messages   table[*wire.Message]
	events     table[*wire.Event]
	reminders  table[*wire.Reminder]
	priorities table[*wire.Priority]
	labels     table[*wire.LabelDef]
	pending    table[*wire.Proposal]
	views      table[*wire.View]
	templates  table[*wire.Template]

	countersDirty, sourcesDirty, prefsDirty bool
}

func newTx(head *wire.Doc, now time.Time, actor string) *Tx {
	d := *head // shallow: collections are copied on first change
	tx := &Tx{d: &d, now: now, actor: actor}
	tx.cases = table[*wire.Case]{name: "cases", list: &d.Cases, base: d.Cases}
	tx.messages = table[*wire.Message]{name: "messages", list: &d.Messages, base: d.Messages}
	tx.events = table[*wire.Event]{name: "events", list: &d.Events, base: d.Events}
	tx.reminders = table[*wire.Reminder]{name: "reminders", list: &d.Reminders, base: d.Reminders}
	tx.priorities = table[*wire.Priority]{name: "priorities", list: &d.Priorities, base: d.Priorities}
	tx.labels = table[*wire.LabelDef]{name: "labels", list: &d.Labels, base: d.Labels}
	tx.pending = table[*wire.Proposal]{name: "pending", list: &d.Pending, base: d.Pending}
	tx.views = table[*wire.View]{name: "views", list: &d.Views, base: d.Views}
	tx.templates = table[*wire.Template]{name: "templates", list: &d.Templates, base: d.Templates}
	return tx
}

// indexes locate each record of the head state by id, so a write finds a
// record without scanning a collection (10k cases hold 100k messages). The
// store keeps them in step with its head: only writes read or change them,
// under the write lock.
type indexes struct {
	cases, messages, events, reminders, priorities, labels, pending, views, templates index
}

// index maps a record id to its position in its collection.
type index map[string]int

func buildIndexes(d *wire.Doc) *indexes {
	return &indexes{
		cases: indexOf(d.Cases), messages: indexOf(d.Messages), events: indexOf(d.Events),
		reminders: indexOf(d.Reminders), priorities: indexOf(d.Priorities), labels: indexOf(d.Labels),
		pending: indexOf(d.Pending), views: indexOf(d.Views), templates: indexOf(d.Templates),
	}
}

func indexOf[T storefile.Keyed](list []T) index {
	ix := make(index, len(list))
	for i, r := range list {
		ix[r.Key()] = i
	}
	return ix
}

// useIndexes lets the tables find records of the head through ix.
func (tx *Tx) useIndexes(ix *indexes) {
	tx.cases.ix = &ix.cases
	tx.messages.ix = &ix.messages
	tx.events.ix = &ix.events
	tx.reminders.ix = &ix.reminders
	tx.priorities.ix = &ix.priorities
	tx.labels.ix = &ix.labels
	tx.pending.ix = &ix.pending
	tx.views.ix = &ix.views
	tx.templates.ix = &ix.templates
}

// changedInPlace lists the records this write put back unchanged as
// pointers, for the compaction encoder to forget.
func (tx *Tx) changedInPlace() []any {
	var out []any
	for _, r := range [][]any{tx.cases.reput, tx.messages.reput, tx.events.reput, tx.reminders.reput, tx.priorities.reput,
		tx.labels.reput, tx.pending.reput, tx.views.reput, tx.templates.reput} {
		out = append(out, r...)
	}
	return out
}

// commitIndexes brings the head's indexes up to this draft, which has just
// become the head.
func (tx *Tx) commitIndexes() {
	tx.cases.commit()
	tx.messages.commit()
	tx.events.commit()
	tx.reminders.commit()
	tx.priorities.commit()
	tx.labels.commit()
	tx.pending.commit()
	tx.views.commit()
	tx.templates.commit()
}

// Now is the write's timestamp, one value for the whole write.
func (tx *Tx) Now() string { return tx.now.UTC().Format(time.RFC3339Nano) }

// Actor is who the write is attributed to.
func (tx *Tx) Actor() string { return tx.actor }

// Doc is the draft, for read-only scans. Do not mutate what it holds.
func (tx *Tx) Doc() *wire.Doc { return tx.d }

// NextID mints the next id for prefix (CASE, M, EVT, ...). Ids are never reused.
func (tx *Tx) NextID(prefix string) string {
	if !tx.countersDirty {
		c := make(map[string]int64, len(tx.d.Counters)+1)
		for k, v := range tx.d.Counters {
			c[k] = v
		}
		tx.d.Counters = c
		tx.countersDirty = true
	}
	tx.d.Counters[prefix]++
	return fmt.Sprintf("%s-%d", prefix, tx.d.Counters[prefix])
}

// Case returns a private copy of a case node.
func (tx *Tx) Case(id string) (*wire.Case, bool) {
	c, ok := tx.cases.get(id)
	if !ok {
		return nil, false
	}
	return CloneCase(c), true
}

// PutCase inserts or replaces a case node.
func (tx *Tx) PutCase(c *wire.Case) { tx.cases.put(c) }

// DeleteCase removes a case node.
func (tx *Tx) DeleteCase(id string) { tx.cases.del(id) }

// Message returns a private copy of a message.
func (tx *Tx) Message(id string) (*wire.Message, bool) {
	m, ok := tx.messages.get(id)
	if !ok {
		return nil, false
	}
	cp := *m
	return &cp, true
}

// PutMessage inserts or replaces a message.
func (tx *Tx) PutMessage(m *wire.Message) { tx.messages.put(m) }

// DeleteMessage removes a message.
func (tx *Tx) DeleteMessage(id string) { tx.messages.del(id) }

// Event returns a private copy of an event.
func (tx *Tx) Event(id string) (*wire.Event, bool) {
	e, ok := tx.events.get(id)
	if !ok {
		return nil, false
	}
	cp := *e
	return &cp, true
}

// PutEvent inserts or replaces an event.
func (tx *Tx) PutEvent(e *wire.Event) { tx.events.put(e) }

// DeleteEvent removes an event.
func (tx *Tx) DeleteEvent(id string) { tx.events.del(id) }

// Reminder returns a private copy of a reminder.
func (tx *Tx) Reminder(id string) (*wire.Reminder, bool) {
	r, ok := tx.reminders.get(id)
	if !ok {
		return nil, false
	}
	cp := *r
	cp.Labels = append([]string(nil), r.Labels...)
	cp.Tasks = append([]wire.ReminderTask(nil), r.Tasks...)
	return &cp, true
}

// PutReminder inserts or replaces a reminder.
func (tx *Tx) PutReminder(r *wire.Reminder) { tx.reminders.put(r) }

// DeleteReminder removes a reminder.
func (tx *Tx) DeleteReminder(id string) { tx.reminders.del(id) }

// Priority returns a private copy of a priority note.
func (tx *Tx) Priority(id string) (*wire.Priority, bool) {
	p, ok := tx.priorities.get(id)
	if !ok {
		return nil, false
	}
	cp := *p
	return &cp, true
}

// PutPriority inserts or replaces a priority note.
func (tx *Tx) PutPriority(p *wire.Priority) { tx.priorities.put(p) }

// DeletePriority removes a priority note.
func (tx *Tx) DeletePriority(id string) { tx.priorities.del(id) }

// Label returns a private copy of a catalog label.
func (tx *Tx) Label(id string) (*wire.LabelDef, bool) {
	l, ok := tx.labels.get(id)
	if !ok {
		return nil, false
	}
	cp := *l
	return &cp, true
}

// PutLabel inserts or replaces a catalog label.
func (tx *Tx) PutLabel(l *wire.LabelDef) { tx.labels.put(l) }

// DeleteLabel removes a catalog label.
func (tx *Tx) DeleteLabel(id string) { tx.labels.del(id) }

// SetLabelSources replaces the label provenance record.
func (tx *Tx) SetLabelSources(s *wire.LabelSources) { tx.d.LabelSources = s; tx.sourcesDirty = true }

// Proposal returns a private copy of a pending proposal.
func (tx *Tx) Proposal(id string) (*wire.Proposal, bool) {
	p, ok := tx.pending.get(id)
	if !ok {
		return nil, false
	}
	cp := *p
	return &cp, true
}

// PutProposal inserts or replaces a pending proposal.
func (tx *Tx) PutProposal(p *wire.Proposal) { tx.pending.put(p) }

// DeleteProposal removes a pending proposal.
func (tx *Tx) DeleteProposal(id string) { tx.pending.del(id) }

// View returns a private copy of a saved view.
func (tx *Tx) View(id string) (*wire.View, bool) {
	v, ok := tx.views.get(id)
	if !ok {
		return nil, false
	}
	cp := *v
	return &cp, true
}

// PutView inserts or replaces a saved view.
func (tx *Tx) PutView(v *wire.View) { tx.views.put(v) }

// DeleteView removes a saved view.
func (tx *Tx) DeleteView(id string) { tx.views.del(id) }

// Template returns a private copy of a case template.
func (tx *Tx) Template(id string) (*wire.Template, bool) {
	t, ok := tx.templates.get(id)
	if !ok {
		return nil, false
	}
	cp := *t
	return &cp, true
}

// PutTemplate inserts or replaces a case template.
func (tx *Tx) PutTemplate(t *wire.Template) { tx.templates.put(t) }

// DeleteTemplate removes a case template.
func (tx *Tx) DeleteTemplate(id string) { tx.templates.del(id) }

// SetPrefs replaces the board preferences object.
func (tx *Tx) SetPrefs(p json.RawMessage) { tx.d.Prefs = p; tx.prefsDirty = true }

// entry is the journal record of everything this write changed.
func (tx *Tx) entry(version int64) *storefile.Entry {
	e := &storefile.Entry{Version: version}
	e.Cases = tx.cases.changed(e)
	e.Messages = tx.messages.changed(e)
	e.Events = tx.events.changed(e)
	e.Reminders = tx.reminders.changed(e)
	e.Priorities = tx.priorities.changed(e)
	e.Labels = tx.labels.changed(e)
	e.Pending = tx.pending.changed(e)
	e.Views = tx.views.changed(e)
	e.Templates = tx.templates.changed(e)
	if tx.countersDirty {
		e.Counters = tx.d.Counters
	}
	if tx.sourcesDirty {
		e.LabelSources = tx.d.LabelSources
		if e.LabelSources == nil {
			e.LabelSources = &wire.LabelSources{}
		}
	}
	if tx.prefsDirty {
		e.Prefs = tx.d.Prefs
		if e.Prefs == nil {
			e.Prefs = json.RawMessage(`{}`)
		}
	}
	return e
}

// table is one collection of the draft. The committed list it starts from is
// shared with readers, so the draft copies it before replacing or removing a
// record (a patch costs one pointer copy per record of the collection). A new
// record is appended in place: it lands past the committed list's length,
// where no reader of that list looks, so a create copies nothing.
type table[T storefile.Keyed] struct {
	name    string
	list    *[]T
	base    []T            // the committed list the draft started from
	ix      *index         // positions in the head list; nil scans instead
	copied  bool           // *list is this draft's own copy
	shifted bool           // a removal moved positions, so ix no longer applies
	added   map[string]int // positions of records this draft appended
	dirty   map[string]T   // records this draft put, by id
	order   []string       // dirty ids, first put first: new records replay in this order
	deleted []string
	// reput holds records put back as the very pointer the committed state
	// holds, i.e. changed in place. That is a bug in the caller (readers may
	// see it half-changed), but the compaction encoder must not trust its
	// cached bytes for them either.
	reput []any
}

// find returns the position of id in the draft's list, or -1.
func (t *table[T]) find(id string) int {
	list := *t.list
	if t.ix != nil && !t.shifted {
		if i, ok := t.added[id]; ok {
			return i
		}
		if i, ok := (*t.ix)[id]; ok && i < len(list) && list[i].Key() == id {
			return i
		}
		return -1
	}
	for i, r := range list {
		if r.Key() == id {
			return i
		}
	}
	return -1
}

func (t *table[T]) get(id string) (T, bool) {
	if i := t.find(id); i >= 0 {
		return (*t.list)[i], true
	}
	var zero T
	return zero, false
}

// own copies the committed list before the draft changes a record in it,
// with room to append without another copy.
func (t *table[T]) own() {
	if t.copied {
		return
	}
	list := *t.list
	*t.list = append(make([]T, 0, len(list)+len(list)/8+8), list...)
	t.copied = true
}

func (t *table[T]) put(rec T) {
	id := rec.Key()
	switch i := t.find(id); {
	case i >= 0:
		if i < len(t.base) && any(t.base[i]) == any(rec) {
			t.reput = append(t.reput, rec)
		}
		t.own()
		(*t.list)[i] = rec
	case indexOfString(t.deleted, id) >= 0:
		t.putBack(id, rec)
	default:
		*t.list = append(*t.list, rec)
		if t.added == nil {
			t.added = map[string]int{}
		}
		t.added[id] = len(*t.list) - 1
	}
	if t.dirty == nil {
		t.dirty = map[string]T{}
	}
	if _, ok := t.dirty[id]; !ok {
		t.order = append(t.order, id)
	}
	t.dirty[id] = rec
}

// putBack puts a record removed earlier in this write where replaying the
// write's journal entry will put it: a committed record at its committed
// place (the entry upserts it in place and no longer deletes it), a record
// new in this write at the end, after every other new one.
func (t *table[T]) putBack(id string, rec T) {
	k := indexOfString(t.deleted, id)
	t.deleted = append(t.deleted[:k], t.deleted[k+1:]...)
	at := t.basePositions()
	pos, committed := at[id]
	if !committed {
		*t.list = append(*t.list, rec)
		if k := indexOfString(t.order, id); k >= 0 {
			t.order = append(t.order[:k], t.order[k+1:]...)
		}
		return
	}
	list := *t.list // owned: the removal copied it
	j := len(list)
	for i, r := range list {
		if p, ok := at[r.Key()]; !ok || p > pos {
			j = i
			break
		}
	}
	*t.list = append(list[:j], append([]T{rec}, list[j:]...)...)
}

// basePositions maps each id of the committed list to its position.
func (t *table[T]) basePositions() index {
	if t.ix != nil {
		return *t.ix
	}
	return indexOf(t.base)
}

func (t *table[T]) del(id string) {
	i := t.find(id)
	if i < 0 {
		return
	}
	t.own()
	list := *t.list
	*t.list = append(list[:i], list[i+1:]...) // the slice is this draft's own copy
	clear(list[len(list)-1:])
	t.shifted = true
	delete(t.dirty, id)
	t.deleted = append(t.deleted, id)
}

func indexOfString(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// changed lists the records this write upserted and notes its deletions in e.
func (t *table[T]) changed(e *storefile.Entry) []T {
	if len(t.deleted) > 0 {
		if e.Deleted == nil {
			e.Deleted = map[string][]string{}
		}
		e.Deleted[t.name] = t.deleted
	}
	if len(t.dirty) == 0 {
		return nil
	}
	out := make([]T, 0, len(t.dirty))
	for _, id := range t.order {
		if r, ok := t.dirty[id]; ok {
			out = append(out, r)
		}
	}
	return out
}

// commit updates the head's index once this draft is the head.
func (t *table[T]) commit() {
	switch {
	case t.ix == nil:
	case t.shifted:
		*t.ix = indexOf(*t.list)
	default:
		for id, i := range t.added {
			(*t.ix)[id] = i
		}
	}
}

// CloneCase deep-copies a case node so a write can change it freely.
func CloneCase(c *wire.Case) *wire.Case {
	cp := *c
	cp.Tags = append([]string(nil), c.Tags...)
	cp.Labels = append([]string(nil), c.Labels...)
	cp.VaultLinks = append([]string(nil), c.VaultLinks...)
	cp.Tasks = append([]wire.Task(nil), c.Tasks...)
	cp.Notes = append([]wire.Note(nil), c.Notes...)
	cp.Activity = append([]wire.Activity(nil), c.Activity...)
	return &cp
}
