package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// ChangeSet is what what_changed found: the Activity feed's rows of the
// span (who did what, to which record), the records the board's ring of
// recent writes names that no row does (a message's read flag, a priority
// note, a label), and where the span starts.
type ChangeSet struct {
	Since   string // "version 40" or a time, as the agent asked
	Version int64  // the board's version now
	Rows    []wire.ActivityEntry
	Others  []wire.ChangedRecord
	Removed []wire.RecordRef
	Titles  map[string]string // record id -> title, for rows that carry none (a reminder's, an event's)
	Note    string            // a sentence about where the account comes from, if it is partial
}

// maxChangeRecords bounds the answer: an agent waking up wants the gist.
const maxChangeRecords = 25

// changeGroup is one record's writes in the span, by actor.
type changeGroup struct {
	key, title string
	latest     string
	byActor    map[wire.Actor][]string // verbs, in the feed's order
}

// Changes renders a ChangeSet grouped by record (a task or a note under
// its case) and by actor, newest record first, in a few lines.
func Changes(cs ChangeSet) string {
	groups, actors := groupRows(cs.Rows)
	for _, g := range groups {
		if g.title == "" {
			g.title = cs.Titles[g.key]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Since %s (now version %d: pass it as sinceVersion next time): %d %s on %d %s",
		cs.Since, cs.Version, len(cs.Rows), plural(len(cs.Rows), "change", "changes"), len(groups), plural(len(groups), "record", "records"))
	if len(actors) > 0 {
		b.WriteString("; by " + actorCounts(actors))
	}
	b.WriteString(".\n")
	if cs.Note != "" {
		b.WriteString(cs.Note + "\n")
	}
	for i, g := range groups {
		if i == maxChangeRecords {
			fmt.Fprintf(&b, "%d more records not shown: pass a later since.\n", len(groups)-i)
			break
		}
		b.WriteString(g.line() + "\n")
	}
	if len(cs.Others) > 0 {
		parts := make([]string, 0, len(cs.Others))
		for _, r := range cs.Others {
			parts = append(parts, strings.TrimSpace(r.Kind+" "+r.ID+" "+quotedTitle(RecordTitle(r.Record))))
		}
		b.WriteString("Also changed (no Activity row names who): " + strings.Join(clipList(parts, maxChangeRecords), ", ") + "\n")
	}
	if len(cs.Removed) > 0 {
		parts := make([]string, 0, len(cs.Removed))
		for _, r := range cs.Removed {
			parts = append(parts, r.Kind+" "+r.ID)
		}
		b.WriteString("Removed: " + strings.Join(clipList(parts, maxChangeRecords), ", ") + "\n")
	}
	if len(cs.Rows) == 0 && len(cs.Others) == 0 && len(cs.Removed) == 0 {
		b.WriteString("Nothing changed.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// groupRows groups the feed's rows by record: a reminder or an event by
// its own id, everything else (tasks and notes included) by its case. The
// feed is newest first; each record's verbs read oldest first.
func groupRows(rows []wire.ActivityEntry) ([]*changeGroup, map[wire.Actor]int) {
	byKey := map[string]*changeGroup{}
	actors := map[wire.Actor]int{}
	var groups []*changeGroup
	for _, r := range slices.Backward(rows) {
		key, title := r.CaseID, r.CaseTitle
		switch {
		case r.ReminderID != "":
			key, title = r.ReminderID, ""
		case r.EventID != "":
			key, title = r.EventID, ""
		}
		if key == "" {
			key = "board"
		}
		g := byKey[key]
		if g == nil {
			g = &changeGroup{key: key, title: title, byActor: map[wire.Actor][]string{}}
			byKey[key] = g
			groups = append(groups, g)
		}
		if g.title == "" && key == r.CaseID {
			g.title = r.CaseTitle
		}
		if r.TS > g.latest {
			g.latest = r.TS
		}
		g.byActor[r.Actor] = append(g.byActor[r.Actor], string(r.Verb))
		actors[r.Actor]++
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].latest > groups[j].latest })
	return groups, actors
}

func (g *changeGroup) line() string {
	parts := []string{strings.TrimSpace(g.key + " " + quotedTitle(g.title))}
	for _, a := range sortedActors(g.byActor) {
		parts = append(parts, string(a)+": "+verbCounts(g.byActor[a]))
	}
	return strings.Join(parts, " - ")
}

// sortedActors puts the person first: what they did is what the agent
// must not undo.
func sortedActors[V any](m map[wire.Actor]V) []wire.Actor {
	out := make([]wire.Actor, 0, len(m))
	for a := range m {
		out = append(out, a)
	}
	rank := func(a wire.Actor) int {
		switch a {
		case wire.ActorHuman:
			return 0
		case wire.ActorAgent:
			return 1
		}
		return 2
	}
	sort.Slice(out, func(i, j int) bool {
		if rank(out[i]) != rank(out[j]) {
			return rank(out[i]) < rank(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

func actorCounts(m map[wire.Actor]int) string {
	parts := make([]string, 0, len(m))
	for _, a := range sortedActors(m) {
		parts = append(parts, fmt.Sprintf("%s %d", a, m[a]))
	}
	return strings.Join(parts, ", ")
}

// verbCounts says each verb once, in first-seen order, with a count when
// it repeats: "status_changed, task_completed x2".
func verbCounts(verbs []string) string {
	n := map[string]int{}
	var order []string
	for _, v := range verbs {
		if n[v] == 0 {
			order = append(order, v)
		}
		n[v]++
	}
	for i, v := range order {
		if n[v] > 1 {
			order[i] = fmt.Sprintf("%s x%d", v, n[v])
		}
	}
	return strings.Join(order, ", ")
}

func quotedTitle(t string) string {
	if t = oneLine(t); t == "" {
		return ""
	}
	return `"` + clip(t, 60) + `"`
}

// RecordTitle is what names a record of any kind to a person.
func RecordTitle(raw json.RawMessage) string {
	var r struct {
		Title, Subject, Text, Name string
	}
	_ = json.Unmarshal(raw, &r) // a record without any of them is named by its id alone
	for _, t := range []string{r.Title, r.Subject, r.Text, r.Name} {
		if t != "" {
			return t
		}
	}
	return ""
}

func clipList(parts []string, most int) []string {
	if len(parts) <= most {
		return parts
	}
	return append(parts[:most:most], fmt.Sprintf("and %d more", len(parts)-most))
}
