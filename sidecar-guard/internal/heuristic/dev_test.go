package heuristic

import (
	"os"
	"testing"
)

// TestDev prints the misses and false alarms on the development sets only
// (our train phrasings, BIPIA train, valid.json). Run with DEV=1.
func TestDev(t *testing.T) {
	if os.Getenv("DEV") == "" {
		t.Skip("set DEV=1 to list development misses")
	}
	for _, s := range append(loadPhrasings(t, "train"), loadValid(t)...) {
		r := Scan(s.text)
		if (r.Score >= 0.5) != (s.label == 1) {
			t.Logf("label=%d %s %v: %.160q", s.label, s.group, r.Rules, s.text)
		}
	}
	perCat, all, clean := measureBIPIA(t, "train")
	t.Logf("BIPIA train recall %.3f clean FPR %.3f", all.recall(), clean.fpr())
	for cat, c := range perCat {
		t.Logf("  %s %.3f", cat, c.recall())
	}
	for i, e := range loadEmails(t, "train") {
		if r := Scan(e); r.Score >= 0.5 {
			t.Logf("clean train email %d flagged %v", i, r.Rules)
		}
	}
	for cat, list := range loadAttacks(t, "train") {
		for _, a := range list {
			t.Logf("%v %s: %q", Scan(a).Rules, cat, a)
		}
	}
}
