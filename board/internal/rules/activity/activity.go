// Package activity is the log each case keeps of what happened to it, and
// the Activity feed the page reads: every case's log plus rows synthesized
// from reminders' and events' own timestamps.
package activity

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// MaxEntries is how many activity entries a case keeps.
const MaxEntries = wire.MaxCaseActivity

// Log appends an entry to c's log and keeps the last MaxEntries.
func Log(c *wire.Case, actor wire.Actor, verb wire.Verb, detail, ts string) {
	c.Activity = append(c.Activity, wire.Activity{Actor: actor, Verb: verb, TS: ts, Detail: detail})
	if n := len(c.Activity); n > MaxEntries {
		c.Activity = append([]wire.Activity(nil), c.Activity[n-MaxEntries:]...)
	}
}

// OnCase appends an entry to a linked case's log inside a write and touches
// the case. A case that is gone is skipped: its links are being repaired
// elsewhere.
func OnCase(tx *store.Tx, caseID string, verb wire.Verb, detail string) {
	if caseID == "" {
		return
	}
	c, ok := tx.Cases().Get(caseID)
	if !ok {
		return
	}
	Log(c, tx.Actor(), verb, detail, tx.Stamp())
	c.UpdatedAt = tx.Stamp()
	tx.Cases().Put(c)
}

// MaxBoard is how many rows that belong to no case the board keeps.
const MaxBoard = wire.MaxBoardActivity

// OnBoard logs an entry that belongs to no case (an override of the
// person's change to a priority note, say) inside a write, about record,
// and drops the oldest such rows beyond MaxBoard.
func OnBoard(tx *store.Tx, record string, verb wire.Verb, detail string) {
	row := &wire.BoardActivity{ID: tx.NextID("ACT"), Record: record,
		Activity: wire.Activity{Actor: tx.Actor(), Verb: verb, TS: tx.Stamp(), Detail: detail}}
	tx.BoardActivity().Put(row)
	rows := tx.Doc().BoardActivity
	if extra := rows.Len() - MaxBoard; extra > 0 {
		old := rows.Slice()
		slices.SortStableFunc(old, func(a, b *wire.BoardActivity) int { return cmp.Compare(idNumber(a.ID), idNumber(b.ID)) })
		for _, r := range old[:extra] {
			tx.BoardActivity().Delete(r.ID)
		}
	}
}

// Override logs an override of the person's change to record: on its
// case when it is linked to one that still exists, else as a row of its
// own, so no override goes unlogged.
func Override(tx *store.Tx, caseID, record, detail string) {
	if caseID != "" {
		if _, ok := tx.Cases().Get(caseID); ok {
			OnCase(tx, caseID, wire.VerbOverride, record+" "+detail)
			return
		}
	}
	OnBoard(tx, record, wire.VerbOverride, record+" "+detail)
}

// idNumber is the counter part of an id like ACT-12.
func idNumber(id string) int64 {
	_, n, _ := strings.Cut(id, "-")
	v, _ := strconv.ParseInt(n, 10, 64)
	return v
}

// Category groups activity verbs for the filters of the page: the verb's
// row of wire.Verbs, which the page's verbs.js is generated from.
func Category(verb wire.Verb) string {
	return verb.Category()
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
	for _, c := range d.Cases.All() {
		for _, a := range c.Activity {
			id, _, _ := strings.Cut(a.Detail, " ")
			logged[string(a.Verb)+"|"+a.TS+"|"+id] = true
		}
	}
	var out []LifecycleRow
	add := func(row LifecycleRow, id string) {
		if row.TS == "" || logged[string(row.Verb)+"|"+row.TS+"|"+id] {
			return
		}
		if row.Actor == "" {
			row.Actor = wire.ActorSystem // records from before attribution was kept
		}
		out = append(out, row)
	}
	for _, r := range d.Reminders.All() {
		detail := r.ID + " " + r.Title
		add(LifecycleRow{Activity: wire.Activity{Actor: r.CreatedBy, Verb: wire.VerbReminderCreated, TS: r.CreatedAt, Detail: detail}, ReminderID: r.ID, CaseID: r.CaseID}, r.ID)
		if r.Status == wire.ReminderDone {
			add(LifecycleRow{Activity: wire.Activity{Actor: r.CompletedBy, Verb: wire.VerbReminderCompleted, TS: r.CompletedAt, Detail: detail}, ReminderID: r.ID, CaseID: r.CaseID}, r.ID)
		}
	}
	for _, e := range d.Events.All() {
		detail := fmt.Sprintf("%s %s (%s)", e.ID, e.Title, e.Date)
		add(LifecycleRow{Activity: wire.Activity{Actor: e.CreatedBy, Verb: wire.VerbEventCreated, TS: e.CreatedAt, Detail: detail}, EventID: e.ID, CaseID: e.CaseID}, e.ID)
	}
	return out
}

// RunSummary is the feed's line for a mail ingest run.
func RunSummary(r *wire.IngestRun) string {
	s := fmt.Sprintf("%s mail ingest: %d fetched, %d new, %d duplicates, %d quarantined, %d blocked, %d unscanned; to a case %d, a reminder %d, the Inbox %d",
		r.ID, r.Fetched, r.New, r.Duplicates, r.Quarantined, r.Blocked, r.Unscanned, r.Routed.Case, r.Routed.Reminder, r.Routed.Inbox)
	if r.OlderSkipped > 0 {
		s += fmt.Sprintf("; %d older than the since date, left out", r.OlderSkipped)
	}
	if r.Replayed > 0 {
		s += fmt.Sprintf("; %d released from quarantine", r.Replayed)
	}
	if len(r.Errors) > 0 {
		s += fmt.Sprintf("; %d errors", len(r.Errors))
	}
	return s
}

// Query filters the feed: entries at or after Since (a timestamp compared as
// a string), by one actor and one category; "" means any. Limit bounds the
// rows, newest first.
type Query struct {
	Since, Category string
	Actor           wire.Actor
	Limit           int
}

// Feed is the Activity feed of d: every case's log and the lifecycle rows,
// filtered by q, newest first.
func Feed(d *wire.Doc, q Query) []wire.ActivityEntry {
	keep := func(a wire.Activity, cat string) bool {
		return (q.Since == "" || a.TS >= q.Since) && (q.Actor == "" || a.Actor == q.Actor) && (q.Category == "" || cat == q.Category)
	}
	out := []wire.ActivityEntry{}
	for _, c := range d.Cases.All() {
		for _, act := range c.Activity {
			if cat := Category(act.Verb); keep(act, cat) {
				out = append(out, wire.ActivityEntry{Activity: act, Category: cat, CaseID: c.ID, CaseTitle: c.Title})
			}
		}
	}
	titles := map[string]string{}
	for _, c := range d.Cases.All() {
		titles[c.ID] = c.Title
	}
	for _, row := range Lifecycle(d) {
		if cat := Category(row.Verb); keep(row.Activity, cat) {
			out = append(out, wire.ActivityEntry{Activity: row.Activity, Category: cat, CaseID: row.CaseID, CaseTitle: titles[row.CaseID], ReminderID: row.ReminderID, EventID: row.EventID})
		}
	}
	for _, r := range d.BoardActivity.All() {
		if cat := Category(r.Verb); keep(r.Activity, cat) {
			out = append(out, wire.ActivityEntry{Activity: r.Activity, Category: cat})
		}
	}
	for _, r := range d.IngestRuns.All() { // one system row per mail ingest run
		act := wire.Activity{Actor: wire.ActorSystem, Verb: wire.VerbIngestRun, TS: r.At, Detail: RunSummary(r)}
		if cat := Category(act.Verb); keep(act, cat) {
			out = append(out, wire.ActivityEntry{Activity: act, Category: cat})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].TS > out[j].TS })
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out
}
