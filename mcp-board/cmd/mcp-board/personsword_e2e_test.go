package main

import (
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/client/clienttest"
)

// personsWordFamily: through the tools, the agent cannot undo what the
// person just set on a priority note, a message or a label (the answer
// names the value that stands and says to propose), and the same task,
// note or priority note created twice is one record.
func personsWordFamily(t *testing.T, w *world) {
	movers := w.ids["movers"]
	out := w.ok(t, "add_priority", map[string]any{"text": "Keep the weekend free"}, "Added")
	pri := clienttest.FirstID(t, out, "PRI")
	w.board.Human(t, "PATCH", "/api/priorities/"+pri, map[string]any{"text": "Keep Sunday free"}, nil)
	w.ok(t, "update_priority", map[string]any{"id": pri, "text": "Keep Saturday free"},
		`Not changed, the person's change stands (field text = "Keep Sunday free", changed by the human at`, "propose")

	msg := w.ids["message"]
	// The person keeps it unread (the agent read it earlier) as a reminder to themselves.
	w.board.Human(t, "PATCH", "/api/messages/"+msg, map[string]any{"read": false}, nil)
	w.ok(t, "update_message", map[string]any{"id": msg, "read": true}, "the person's change stands (field read = false", "propose")

	w.ok(t, "create_label", map[string]any{"title": "Landlord", "description": "Mail from the landlord."}, "")
	w.board.Human(t, "PATCH", "/api/labels/landlord", map[string]any{"description": "Anything about the flat."}, nil)
	w.ok(t, "update_label", map[string]any{"id": "landlord", "description": "Rent only."}, "field description", "propose")
	var label struct {
		Labels []struct{ ID, Description string } `json:"labels"`
	}
	w.board.Get(t, "/api/labels", &label)
	for _, l := range label.Labels {
		if l.ID == "landlord" && l.Description != "Anything about the flat." {
			t.Errorf("a refused update changed the label: %q", l.Description)
		}
	}

	// The same input twice is one record, and the answer says so.
	w.ok(t, "add_task", map[string]any{"caseId": movers, "title": "Measure the hallway"}, "Added to "+movers)
	w.ok(t, "add_task", map[string]any{"caseId": movers, "title": " measure the HALLWAY "}, "Already on "+movers+", nothing added")
	w.ok(t, "add_note", map[string]any{"caseId": movers, "text": "The lift is small"}, "Noted on "+movers)
	w.ok(t, "add_note", map[string]any{"caseId": movers, "text": "The lift is small"}, "Already noted on "+movers)
	w.ok(t, "add_priority", map[string]any{"text": "Keep Sunday free"}, "Already there, nothing added: "+pri)
	d := w.caseOf(t, movers)
	tasks, notes := 0, 0
	for _, tk := range d.Case.Tasks {
		if strings.EqualFold(strings.TrimSpace(tk.Title), "measure the hallway") {
			tasks++
		}
	}
	for _, n := range d.Case.Notes {
		if n.Text == "The lift is small" {
			notes++
		}
	}
	if tasks != 1 || notes != 1 {
		t.Errorf("after creating each twice: %d tasks, %d notes, want one of each", tasks, notes)
	}
}
