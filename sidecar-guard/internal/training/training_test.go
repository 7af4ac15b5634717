package training

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"no groups", []string{"no groups"}},
		{"{a|b} c", []string{"a c", "b c"}},
		{"x {a|b} {c|d}.", []string{"x a c.", "x a d.", "x b c.", "x b d."}},
		{"{a|} b", []string{"a b", "b"}},
		{"open { never closed", []string{"open { never closed"}},
	} {
		if diff := cmp.Diff(tc.want, Expand(tc.in)); diff != "" {
			t.Errorf("Expand(%q) (-want +got)\n%s", tc.in, diff)
		}
	}
}

// TestGermanTemplates: our own templates read, expand, and keep both
// classes, under a source name of their own.
func TestGermanTemplates(t *testing.T) {
	rows, files, err := ReadTemplates("../../testdata/german")
	if err != nil {
		t.Fatal(err)
	}
	var c [2]int
	for _, r := range rows {
		c[r.Label]++
		if r.Source != "own_german" {
			t.Fatalf("source %q, want own_german", r.Source)
		}
	}
	if c[0] < 100 || c[1] < 300 || len(files) != 2 {
		t.Errorf("%d benign, %d attacks from %d files; want at least 100, 300, and 2 files", c[0], c[1], len(files))
	}
}

// TestBIPIATrain: BIPIA's train part becomes attack windows that hold the
// attack and benign windows of the clean emails, and its test part is
// never read.
func TestBIPIATrain(t *testing.T) {
	rows, files, err := ReadBIPIATrain("../../testdata/bipia")
	if err != nil {
		t.Fatal(err)
	}
	var c [2]int
	for _, r := range rows {
		c[r.Label]++
		if r.Source != "bipia_email_train" {
			t.Fatalf("source %q, want bipia_email_train", r.Source)
		}
		if n := len([]rune(r.Text)); r.Label == 0 && n > 120 {
			t.Fatalf("benign row of %d runes, longer than a window: %.80q", n, r.Text)
		}
	}
	if c[1] != 75*3*bipiaEmailsPerPlace || c[0] < 50 {
		t.Errorf("%d attacks, %d benign; want %d attacks and a window or more per clean email", c[1], c[0], 75*3*bipiaEmailsPerPlace)
	}
	for _, f := range files {
		if strings.Contains(f.Name, "test") {
			t.Errorf("read %s: the test part is for measuring only", f.Name)
		}
	}
	if got := asMail("SUBJECT: Hi|CONTENT: Body|x"); got != "SUBJECT: Hi\n\n Body|x" {
		t.Errorf("asMail = %q, want the subject line, then the body", got)
	}
	if got := around("Hello Ann,\nthe invoice is attached.\nBest, Tom", "X", "end"); !strings.HasSuffix(got, "\nX") {
		t.Errorf("around end = %q, want the attack at its end", got)
	}
}

// TestSpanishTemplates: the Spanish folder reads as a source of its own
// with both classes; the data has no benign Spanish but MGSM's maths.
func TestSpanishTemplates(t *testing.T) {
	rows, files, err := ReadTemplates("../../testdata/spanish")
	if err != nil {
		t.Fatal(err)
	}
	var c [2]int
	for _, r := range rows {
		c[r.Label]++
		if r.Source != "own_spanish" {
			t.Fatalf("source %q, want own_spanish", r.Source)
		}
	}
	if c[0] < 300 || c[1] < 100 || len(files) != 2 {
		t.Errorf("%d benign, %d attacks from %d files; want at least 300, 100, and 2 files", c[0], c[1], len(files))
	}
}

// TestOwnTemplates: every folder of our own templates reads as a source of
// its own with both classes, the attacks of the same shapes as the benign
// texts beside them.
func TestOwnTemplates(t *testing.T) {
	for _, tc := range []struct {
		dir            string
		benign, attack int
	}{
		{"workmail", 500, 40}, {"requests", 600, 60},
		{"russian", 300, 80}, {"bengali", 100, 20}, {"swahili", 100, 20},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			rows, files, err := ReadTemplates("../../testdata/" + tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			var c [2]int
			for _, r := range rows {
				c[r.Label]++
				if r.Source != "own_"+tc.dir {
					t.Fatalf("source %q, want own_%s", r.Source, tc.dir)
				}
			}
			if c[0] < tc.benign || c[1] < tc.attack || len(files) != 2 {
				t.Errorf("%d benign, %d attacks from %d files; want at least %d, %d, and 2 files", c[0], c[1], len(files), tc.benign, tc.attack)
			}
		})
	}
}
