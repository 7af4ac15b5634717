package storefile

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestScanJournalReadsPastDamage(t *testing.T) {
	line := func(v int64) []byte {
		return journalOf(t, &Entry{Version: v, Cases: []*wire.Case{caseRec("CASE-1", "title")}})
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	flipped := line(3)
	flipped[20] ^= 0x01
	zeroed := bytes.Repeat([]byte{0}, len(line(3))+len(line(4)))
	for _, tc := range []struct {
		name      string
		data      []byte
		want      []int64
		gaps      []Gap
		damaged   int
		tailLines int
		torn      bool
	}{
		{"intact", join(line(1), line(2), line(3)), []int64{1, 2, 3}, nil, 0, 0, false},
		{"a flipped byte", join(line(1), line(2), flipped, line(4)), []int64{1, 2, 4}, []Gap{{3, 3}}, 1, 0, false},
		{"a removed line", join(line(1), line(2), line(4), line(5)), []int64{1, 2, 4, 5}, []Gap{{3, 3}}, 0, 0, false},
		{"a zeroed block glued to the next line", join(line(1), line(2), zeroed, line(5)), []int64{1, 2, 5}, []Gap{{3, 4}}, 1, 0, false},
		{"a torn tail", join(line(1), line(2), line(3)[:30]), []int64{1, 2}, nil, 0, 0, true},
		{"bad complete lines at the end", join(line(1), flipped, flipped), []int64{1}, nil, 0, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ScanJournal(bytes.NewReader(tc.data), 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, versions(s.Entries)); diff != "" {
				t.Errorf("versions (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.gaps, s.Gaps(0)); diff != "" {
				t.Errorf("gaps (-want +got)\n%s", diff)
			}
			if s.Damaged != tc.damaged || s.TailLines != tc.tailLines || (s.Size > s.Good) != tc.torn {
				t.Errorf("damaged %d, tail lines %d, %d of %d bytes good; want %d, %d, torn %v", s.Damaged, s.TailLines, s.Good, s.Size, tc.damaged, tc.tailLines, tc.torn)
			}
			for i := range s.Entries { // each good line is where the scan says
				if _, ok := decodeLine(tc.data[s.Starts[i]:s.Ends[i]]); !ok {
					t.Errorf("entry %d: bytes %d..%d are not its line", i, s.Starts[i], s.Ends[i])
				}
			}
		})
	}
}

func TestScanJournalSkipsBodiesTheDocumentHolds(t *testing.T) {
	data := journalOf(t,
		&Entry{Version: 1, Cases: []*wire.Case{caseRec("CASE-1", "one")}},
		&Entry{Version: 2, Cases: []*wire.Case{caseRec("CASE-2", "two")}},
	)
	s, err := ScanJournal(bytes.NewReader(data), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 2 || s.Entries[0].Cases != nil || len(s.Entries[1].Cases) != 1 {
		t.Errorf("entries %+v, want the first with its version only and the second decoded", s.Entries)
	}
	d := &wire.Doc{Version: 1, Cases: wire.ListOf([]*wire.Case{caseRec("CASE-1", "one")}...)}
	Replay(d, s.Entries)
	if d.Version != 2 || d.Cases.Len() != 2 {
		t.Errorf("replayed to version %d with %d cases, want 2 and 2", d.Version, d.Cases.Len())
	}
}
