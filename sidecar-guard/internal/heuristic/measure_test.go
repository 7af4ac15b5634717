package heuristic

import (
	"github.com/opsboard/opsboard/sidecar-guard/internal/bipia"

	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The data sets live in the module's testdata directory; see its README
// for where they come from and how the phrasings were split.
const dataDir = "../../testdata"

type sample struct {
	text  string
	label int    // 1 attack, 0 benign
	group string // category or kind, for per-group recall
}

// counts is a confusion matrix.
type counts struct{ tp, fp, tn, fn int }

func (c *counts) add(label int, flagged bool) {
	switch {
	case label == 1 && flagged:
		c.tp++
	case label == 1:
		c.fn++
	case flagged:
		c.fp++
	default:
		c.tn++
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (c counts) precision() float64 { return ratio(c.tp, c.tp+c.fp) }
func (c counts) recall() float64    { return ratio(c.tp, c.tp+c.fn) }
func (c counts) fpr() float64       { return ratio(c.fp, c.fp+c.tn) }

func flagged(text string) bool { return Scan(text).Score >= 0.5 }

func readJSONL(t testing.TB, path string, each func(line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) > 0 {
			each(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
}

func loadPhrasings(t testing.TB, part string) []sample {
	var out []sample
	readJSONL(t, filepath.Join(dataDir, "phrasings", part+".jsonl"), func(line []byte) {
		var p struct {
			Text  string `json:"text"`
			Label int    `json:"label"`
			Kind  string `json:"kind"`
			Lang  string `json:"lang"`
		}
		if err := json.Unmarshal(line, &p); err != nil {
			t.Fatalf("phrasings %s: %v", part, err)
		}
		out = append(out, sample{text: p.Text, label: p.Label, group: p.Kind + "/" + p.Lang})
	})
	return out
}

// loadEmails returns the clean BIPIA emails of one part.
func loadEmails(t testing.TB, part string) []string {
	out, err := bipia.Emails(bipia.EmailsPath(filepath.Join(dataDir, "bipia"), part))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func loadAttacks(t testing.TB, part string) map[string][]string {
	m, _, err := bipia.Attacks(bipia.AttacksPath(filepath.Join(dataDir, "bipia"), part))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var positions = bipia.Places

// measureBIPIA measures recall per attack category over every email and position,
// and the false-positive rate on the clean emails.
func measureBIPIA(t testing.TB, part string) (perCat map[string]counts, all counts, clean counts) {
	perCat, _, all, clean = bipiaByPosition(t, part)
	return perCat, all, clean
}

// bipiaByPosition is bipia with recall per insert position as well.
func bipiaByPosition(t testing.TB, part string) (perCat, perPos map[string]counts, all counts, clean counts) {
	emails := loadEmails(t, part)
	attacks := loadAttacks(t, part)
	perCat, perPos = map[string]counts{}, map[string]counts{}
	for cat, list := range attacks {
		c := perCat[cat]
		for _, a := range list {
			for _, e := range emails {
				for _, pos := range positions {
					f := flagged(bipia.InsertAt(e, a, pos))
					c.add(1, f)
					all.add(1, f)
					p := perPos[pos]
					p.add(1, f)
					perPos[pos] = p
				}
			}
		}
		perCat[cat] = c
	}
	for _, e := range emails {
		clean.add(0, flagged(e))
	}
	return perCat, perPos, all, clean
}

func loadNotInject(t testing.TB) []sample {
	var out []sample
	for _, name := range []string{"one", "two", "three"} {
		var rows []struct {
			Prompt   string `json:"prompt"`
			Category string `json:"category"`
		}
		readJSON(t, filepath.Join(dataDir, "notinject", "NotInject_"+name+".json"), &rows)
		for _, r := range rows {
			out = append(out, sample{text: r.Prompt, label: 0, group: r.Category})
		}
	}
	return out
}

func loadValid(t testing.TB) []sample {
	var rows []struct {
		Prompt string `json:"prompt"`
		Label  int    `json:"label"`
		Source string `json:"source"`
	}
	readJSON(t, filepath.Join(dataDir, "notinject", "valid.json"), &rows)
	out := make([]sample, len(rows))
	for i, r := range rows {
		out[i] = sample{text: r.Prompt, label: r.Label, group: r.Source}
	}
	return out
}

func measureSamples(samples []sample) counts {
	var c counts
	for _, s := range samples {
		c.add(s.label, flagged(s.text))
	}
	return c
}

// figure is one measured number and the floor it must not fall below.
// Floors are the figures reported in the module README, rounded down a
// little; ceilings bound the false-positive rates the same way.
type figure struct {
	name    string
	got     float64
	bound   float64
	ceiling bool // got must be <= bound; otherwise >= bound
}

func check(t *testing.T, figs []figure) {
	t.Helper()
	for _, f := range figs {
		if !f.ceiling && f.got < f.bound {
			t.Errorf("%s = %.3f, below the reported floor %.3f", f.name, f.got, f.bound)
		}
		if f.ceiling && f.got > f.bound {
			t.Errorf("%s = %.3f, above the reported ceiling %.3f", f.name, f.got, f.bound)
		}
	}
}

// row is one line of the results table; a set without attacks has no
// precision or recall, and one without benign texts no FPR.
func row(name string, c counts) string {
	p, r, f := "-", "-", "-"
	if c.tp+c.fn > 0 {
		p, r = fmt.Sprintf("%.3f", c.precision()), fmt.Sprintf("%.3f (%d/%d)", c.recall(), c.tp, c.tp+c.fn)
	}
	if c.fp+c.tn > 0 {
		f = fmt.Sprintf("%.3f (%d/%d)", c.fpr(), c.fp, c.fp+c.tn)
	}
	return fmt.Sprintf("| %s | %d | %s | %s | %s |", name, c.tp+c.fn+c.fp+c.tn, p, r, f)
}

// TestMeasured measures the heuristic on the held-out sets, logs the
// tables the README reports, and fails when a figure falls below what the
// README says.
func TestMeasured(t *testing.T) {
	phrasings := loadPhrasings(t, "test")
	phrTest := measureSamples(phrasings)
	notInject := measureSamples(loadNotInject(t))
	valid := measureSamples(loadValid(t))
	perCat, perPos, bipiaAll, bipiaClean := bipiaByPosition(t, "test")
	bipiaBoth := counts{tp: bipiaAll.tp, fn: bipiaAll.fn, fp: bipiaClean.fp, tn: bipiaClean.tn}

	var b strings.Builder
	b.WriteString("\n| set | n | precision | recall | FPR |\n|---|---|---|---|---|\n")
	fmt.Fprintln(&b, row("our phrasings, test part", phrTest))
	fmt.Fprintln(&b, row("BIPIA test: attacks in emails + clean emails", bipiaBoth))
	fmt.Fprintln(&b, row("BIPIA test: the 50 clean emails", bipiaClean))
	fmt.Fprintln(&b, row("NotInject one+two+three (benign)", notInject))
	fmt.Fprintln(&b, row("NotInject valid.json (dev set)", valid))

	byKind := map[string]counts{}
	for _, s := range phrasings {
		kind, lang, _ := strings.Cut(s.group, "/")
		for _, key := range []string{"kind " + kind, "lang " + lang} {
			c := byKind[key]
			c.add(s.label, flagged(s.text))
			byKind[key] = c
		}
	}
	b.WriteString("\n| our test phrasings by | n | recall | FPR |\n|---|---|---|---|\n")
	for _, key := range slices.Sorted(maps.Keys(byKind)) {
		c := byKind[key]
		r, f := "-", "-"
		if c.tp+c.fn > 0 {
			r = fmt.Sprintf("%.3f", c.recall())
		}
		if c.fp+c.tn > 0 {
			f = fmt.Sprintf("%.3f", c.fpr())
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", key, c.tp+c.fn+c.fp+c.tn, r, f)
	}

	b.WriteString("\n| BIPIA test attacks inserted at | recall |\n|---|---|\n")
	for _, pos := range positions {
		fmt.Fprintf(&b, "| %s | %.3f (%d/%d) |\n", pos, perPos[pos].recall(), perPos[pos].tp, perPos[pos].tp+perPos[pos].fn)
	}
	b.WriteString("\n| BIPIA test attack category | recall (of 750) |\n|---|---|\n")
	for _, cat := range slices.Sorted(maps.Keys(perCat)) {
		fmt.Fprintf(&b, "| %s | %.3f |\n", cat, perCat[cat].recall())
	}
	t.Log(b.String())

	figs := []figure{
		{name: "phrasings test recall", got: phrTest.recall(), bound: floorPhrasingsRecall},
		{name: "phrasings test precision", got: phrTest.precision(), bound: floorPhrasingsPrecision},
		{name: "phrasings test FPR", got: phrTest.fpr(), bound: ceilPhrasingsFPR, ceiling: true},
		{name: "BIPIA test clean FPR", got: bipiaClean.fpr(), bound: ceilBIPIACleanFPR, ceiling: true},
		{name: "NotInject FPR", got: notInject.fpr(), bound: ceilNotInjectFPR, ceiling: true},
		{name: "BIPIA test overall recall", got: bipiaAll.recall(), bound: floorBIPIARecall},
		{name: "valid.json recall", got: valid.recall(), bound: floorValidRecall},
		{name: "valid.json FPR", got: valid.fpr(), bound: ceilValidFPR, ceiling: true},
	}
	for cat, floor := range floorBIPIACategory {
		c, ok := perCat[cat]
		if !ok {
			t.Errorf("BIPIA test has no category %q", cat)
		}
		figs = append(figs, figure{name: "BIPIA recall " + cat, got: c.recall(), bound: floor})
	}
	check(t, figs)
}

// splitPart is the rule that split the phrasings: test when the first byte
// of the SHA-256 of the text, modulo 10, is below 3.
func splitPart(text string) string {
	if sum := sha256.Sum256([]byte(text)); sum[0]%10 < 3 {
		return "test"
	}
	return "train"
}
