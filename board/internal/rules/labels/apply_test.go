package labels

import (
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestCheck(t *testing.T) {
	d := &wire.Doc{Labels: wire.ListOf([]*wire.LabelDef{{ID: "legal"}, {ID: "finance"}}...)}
	tx := store.Scratch(d, time.Now(), wire.ActorHuman)
	for _, tc := range []struct {
		ids  []string
		want string // "" means accepted
	}{
		{nil, ""},
		{[]string{"finance", "legal"}, ""},
		{[]string{"finance", "nope", "gone"}, "unknown label id(s): nope, gone. Valid label ids: finance, legal"},
	} {
		got := ""
		if err := Check(tx, tc.ids); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Check(%v) = %q, want %q", tc.ids, got, tc.want)
		}
	}
}

func TestScrubStripsLabelsFromCasesAndReminders(t *testing.T) {
	d := &wire.Doc{
		Cases:     wire.ListOf([]*wire.Case{{ID: "CASE-1", Labels: []string{"a", "b"}}, {ID: "CASE-2", Labels: []string{"b"}}}...),
		Reminders: wire.ListOf([]*wire.Reminder{{ID: "REM-1", Labels: []string{"a"}}}...),
	}
	tx := store.Scratch(d, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), wire.ActorHuman)
	scrubLabels(tx, []string{"a"})
	got := tx.Doc()
	if c := got.Cases.At(0); len(c.Labels) != 1 || c.Labels[0] != "b" || c.Activity[0].Detail != "removed a (label deleted)" {
		t.Errorf("case: %+v", c)
	}
	if len(got.Cases.At(1).Activity) != 0 {
		t.Error("a case without the label was touched")
	}
	if got.Reminders.At(0).Labels != nil {
		t.Errorf("reminder labels %v, want none", got.Reminders.At(0).Labels)
	}
	if len(d.Cases.At(0).Labels) != 2 {
		t.Error("the committed case changed")
	}
}
