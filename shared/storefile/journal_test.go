package storefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func caseRec(id, title string) *wire.Case {
	return &wire.Case{ID: id, Title: title, Status: "todo", Domain: "work", Kind: "case"}
}

// journalOf encodes entries as the board appends them.
func journalOf(t *testing.T, entries ...*Entry) []byte {
	t.Helper()
	var out []byte
	for _, e := range entries {
		var err error
		if out, err = AppendEntry(out, e); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func versions(entries []Entry) []int64 {
	out := []int64{}
	for _, e := range entries {
		out = append(out, e.Version)
	}
	return out
}

func TestReadJournalStopsAtTheFirstBadLine(t *testing.T) {
	good := journalOf(t,
		&Entry{Version: 1, Cases: []*wire.Case{caseRec("CASE-1", "one")}},
		&Entry{Version: 2, Cases: []*wire.Case{caseRec("CASE-2", "two")}},
	)
	third := journalOf(t, &Entry{Version: 3, Cases: []*wire.Case{caseRec("CASE-3", "three")}})
	flipped := bytes.Clone(third)
	flipped[len(flipped)-5] ^= 0x01 // a bit flip inside the JSON: the checksum no longer matches
	for _, tc := range []struct {
		name string
		data []byte
		want []int64
	}{
		{"empty", nil, []int64{}},
		{"all good", append(bytes.Clone(good), third...), []int64{1, 2, 3}},
		{"torn tail without its newline", append(bytes.Clone(good), third[:len(third)-1]...), []int64{1, 2}},
		{"torn in the middle of the JSON", append(bytes.Clone(good), third[:20]...), []int64{1, 2}},
		{"bad checksum", append(bytes.Clone(good), flipped...), []int64{1, 2}},
		{"bad checksum before good lines", append(append(bytes.Clone(good), flipped...), third...), []int64{1, 2}},
		{"garbage line", append(bytes.Clone(good), "not a journal line\n"...), []int64{1, 2}},
		{"zeros after a crash", append(bytes.Clone(good), make([]byte, 64)...), []int64{1, 2}},
		{"checksum over different JSON", append(bytes.Clone(good), append(bytes.Clone(third[:9]), `{"v":3}`+"\n"...)...), []int64{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entries, ends, err := ReadJournal(bytes.NewReader(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, versions(entries)); diff != "" {
				t.Errorf("entries (-want +got)\n%s", diff)
			}
			if len(ends) != len(entries) {
				t.Fatalf("%d ends for %d entries", len(ends), len(entries))
			}
			// The last end is the good prefix: what a writer keeps when it cuts the tail.
			if n := len(ends); n > 0 {
				prefix := tc.data[:ends[n-1]]
				again, _, err := ReadJournal(bytes.NewReader(prefix))
				if err != nil || len(again) != n {
					t.Errorf("the good prefix reads back as %d entries (err %v), want %d", len(again), err, n)
				}
			}
		})
	}
}

func TestReadJournalFileMissingIsEmpty(t *testing.T) {
	entries, ends, err := ReadJournalFile(filepath.Join(t.TempDir(), "board.json.journal"))
	if err != nil || len(entries) != 0 || len(ends) != 0 {
		t.Fatalf("missing journal: %d entries, %d ends, err %v", len(entries), len(ends), err)
	}
}

func titlesOf(d *wire.Doc) []string {
	out := []string{}
	for _, c := range d.Cases.All() {
		out = append(out, c.ID+" "+c.Title)
	}
	return out
}

func TestReplaySkipsEntriesTheDocumentHolds(t *testing.T) {
	d := New()
	d.Version = 5
	d.Cases = wire.ListOf([]*wire.Case{caseRec("CASE-1", "as in the document")}...)
	entries, _, err := ReadJournal(bytes.NewReader(journalOf(t,
		&Entry{Version: 4, Cases: []*wire.Case{caseRec("CASE-1", "older than the document")}},
		&Entry{Version: 5, Deleted: map[Collection][]string{"cases": {"CASE-1"}}},
		&Entry{Version: 6, Cases: []*wire.Case{caseRec("CASE-2", "newer")}},
		&Entry{Version: 7, Cases: []*wire.Case{caseRec("CASE-1", "renamed after")}},
	)))
	if err != nil {
		t.Fatal(err)
	}
	if n := Replay(d, entries); n != 2 {
		t.Errorf("applied %d entries, want 2", n)
	}
	if diff := cmp.Diff([]string{"CASE-1 renamed after", "CASE-2 newer"}, titlesOf(d)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if d.Version != 7 {
		t.Errorf("version %d, want 7", d.Version)
	}
	if d.Counters["CASE"] != 2 {
		t.Errorf("counters %v, want CASE at 2", d.Counters)
	}
	// Replaying the same journal again changes nothing.
	before := titlesOf(d)
	if n := Replay(d, entries); n != 0 {
		t.Errorf("second replay applied %d entries", n)
	}
	if diff := cmp.Diff(before, titlesOf(d)); diff != "" {
		t.Errorf("second replay changed the state (-want +got)\n%s", diff)
	}
}

func TestApplyKeepsOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    Entry
		want []string
	}{
		{"replace in place", Entry{Cases: []*wire.Case{caseRec("CASE-2", "b2")}}, []string{"CASE-1 a", "CASE-2 b2", "CASE-3 c"}},
		{"new ones append in entry order", Entry{Cases: []*wire.Case{caseRec("CASE-5", "e"), caseRec("CASE-4", "d")}},
			[]string{"CASE-1 a", "CASE-2 b", "CASE-3 c", "CASE-5 e", "CASE-4 d"}},
		{"delete keeps the others in order", Entry{Deleted: map[Collection][]string{"cases": {"CASE-2"}}}, []string{"CASE-1 a", "CASE-3 c"}},
		{"upsert and delete together", Entry{Cases: []*wire.Case{caseRec("CASE-3", "c2"), caseRec("CASE-4", "d")}, Deleted: map[Collection][]string{"cases": {"CASE-1"}}},
			[]string{"CASE-2 b", "CASE-3 c2", "CASE-4 d"}},
		{"deleting an unknown id is a no-op", Entry{Deleted: map[Collection][]string{"cases": {"CASE-9"}, "nonsense": {"X-1"}}}, []string{"CASE-1 a", "CASE-2 b", "CASE-3 c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New()
			d.Cases = wire.ListOf([]*wire.Case{caseRec("CASE-1", "a"), caseRec("CASE-2", "b"), caseRec("CASE-3", "c")}...)
			tc.e.Version = 1
			Apply(d, &tc.e)
			if diff := cmp.Diff(tc.want, titlesOf(d)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if d.Version != 1 {
				t.Errorf("version %d, want 1", d.Version)
			}
		})
	}
}

func TestApplyReplacesSingletons(t *testing.T) {
	d := New()
	Apply(d, &Entry{Version: 1, Counters: map[string]int64{"CASE": 9}, LabelSources: &wire.LabelSources{Custom: []string{"x"}}, Prefs: []byte(`{"theme":"dark"}`),
		Messages: []*wire.Message{{ID: "M-1", Subject: "s"}}, Deleted: map[Collection][]string{"messages": {"M-0"}}})
	if d.Counters["CASE"] != 9 || d.LabelSources == nil || string(d.Prefs) != `{"theme":"dark"}` || d.Messages.Len() != 1 {
		t.Fatalf("singletons not applied: %+v", d)
	}
	// An entry that does not carry them leaves them alone.
	Apply(d, &Entry{Version: 2, Cases: []*wire.Case{caseRec("CASE-10", "x")}})
	if d.Counters["CASE"] != 9 || d.LabelSources == nil || string(d.Prefs) != `{"theme":"dark"}` {
		t.Fatalf("singletons lost: %+v", d)
	}
}

func TestLoadReplaysTheJournalOverTheDocument(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board.json")
	if err := os.WriteFile(path, []byte(`{"schemaVersion":7,"version":2,"cases":[{"id":"CASE-1","title":"one","status":"todo","domain":"work","kind":"case","createdAt":"","updatedAt":""}],"messages":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	journal := journalOf(t,
		&Entry{Version: 2, Cases: []*wire.Case{caseRec("CASE-1", "stale")}},
		&Entry{Version: 3, Cases: []*wire.Case{caseRec("CASE-2", "two")}},
	)
	journal = append(journal, `5a5a5a5a {"v":4,"cases":[{"id":"CASE-3"`...) // torn by a crash
	if err := os.WriteFile(JournalPath(path), journal, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"CASE-1 one", "CASE-2 two"}, titlesOf(d)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if d.Version != 3 {
		t.Errorf("version %d, want 3", d.Version)
	}
	// Without a document the journal alone still loads, every entry applied.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if d, err = Load(path); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"CASE-1 stale", "CASE-2 two"}, titlesOf(d)); diff != "" || d.Version != 3 {
		t.Errorf("journal alone at version %d (-want +got)\n%s", d.Version, diff)
	}
}

func TestStampChangesWithTheFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board.json")
	if got := FileStamp(path); got != "-" {
		t.Fatalf("stamp of a missing file %q, want -", got)
	}
	empty := Stamp(path)
	if err := os.WriteFile(path, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	written := Stamp(path)
	if written == empty {
		t.Fatal("stamp did not change when the document appeared")
	}
	if err := os.WriteFile(JournalPath(path), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if Stamp(path) == written {
		t.Fatal("stamp did not change when the journal changed")
	}
}

func TestJournalEntriesKeepWhoAndWhen(t *testing.T) {
	// A line written before entries kept their actor and time reads as it did.
	old := journalOf(t, &Entry{Version: 1, Cases: []*wire.Case{caseRec("CASE-1", "one")}})
	if bytes.Contains(old, []byte(`"actor"`)) || bytes.Contains(old, []byte(`"at"`)) {
		t.Fatalf("an entry without actor and time writes neither: %s", old)
	}
	both := append(old, journalOf(t, &Entry{Version: 2, Actor: "agent", At: "2026-11-26T09:00:00Z", Cases: []*wire.Case{caseRec("CASE-2", "two")}})...)
	entries, _, err := ReadJournal(bytes.NewReader(both))
	if err != nil {
		t.Fatal(err)
	}
	got := [][2]string{}
	for _, e := range entries {
		got = append(got, [2]string{string(e.Actor), e.At})
	}
	if diff := cmp.Diff([][2]string{{"", ""}, {"agent", "2026-11-26T09:00:00Z"}}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	d := &wire.Doc{}
	for i := range entries {
		Apply(d, &entries[i])
	}
	if d.Version != 2 || d.Cases.Len() != 2 {
		t.Errorf("replay: version %d, %d cases; want 2 and 2", d.Version, d.Cases.Len())
	}
}
