package storefile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func bodyFileOf(bodies ...string) []byte {
	var out []byte
	for i, b := range bodies {
		out = AppendBody(out, BodyRefOf(b), "MSG-"+string(rune('1'+i)), b)
	}
	return out
}

func TestScanBodiesFindsEveryGoodRecord(t *testing.T) {
	data := bodyFileOf("first body", "", "third\nwith lines\n")
	scan := ScanBodies(data)
	if scan.Good != int64(len(data)) || scan.Damaged != 0 || len(scan.Spans) != 3 {
		t.Fatalf("scan: good %d of %d, damaged %d, %d records", scan.Good, len(data), scan.Damaged, len(scan.Spans))
	}
	read := BodiesFrom(data, scan)
	for _, b := range []string{"first body", "", "third\nwith lines\n"} {
		if got, ok := read(BodyRefOf(b)); !ok || got != b {
			t.Errorf("read %q: got %q, %v", b, got, ok)
		}
	}
}

func TestScanBodiesStopsAtATornTail(t *testing.T) {
	data := bodyFileOf("kept", "cut short")
	whole := len(bodyFileOf("kept"))
	scan := ScanBodies(data[:len(data)-3])
	if scan.Good != int64(whole) || len(scan.Spans) != 1 || scan.Damaged != 0 {
		t.Fatalf("torn tail: good %d (want %d), %d records, damaged %d", scan.Good, whole, len(scan.Spans), scan.Damaged)
	}
}

func TestScanBodiesSkipsADamagedRecord(t *testing.T) {
	data := bodyFileOf("one", "two", "three")
	at := len(bodyFileOf("one")) + len("body ") + 64 + len(" 3 MSG-2\n")
	data[at] = 'X' // "two" no longer matches its hash
	scan := ScanBodies(data)
	read := BodiesFrom(data, scan)
	if _, ok := read(BodyRefOf("two")); ok {
		t.Error("a body that fails its checksum was read")
	}
	if got, ok := read(BodyRefOf("three")); !ok || got != "three" {
		t.Errorf("the record after the damage: %q, %v", got, ok)
	}
	if scan.Damaged != 1 || scan.Good != int64(len(data)) {
		t.Errorf("damaged %d, good %d of %d", scan.Damaged, scan.Good, len(data))
	}
}

// TestLoadResolvesBodies reads a schema 9 document as a tool reading the
// board's files does: every body in place, none of the references.
func TestLoadResolvesBodies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "board.json")
	ref := BodyRefOf("Hello from the body file")
	doc := `{"schemaVersion":9,"version":3,"messages":[` +
		`{"id":"MSG-1","subject":"a","bodyRef":{"sha256":"` + ref.SHA256 + `","bytes":24},"read":false},` +
		`{"id":"MSG-2","subject":"b","body":"inline wins","read":false},` +
		`{"id":"MSG-3","subject":"c","bodyRef":{"sha256":"` + BodyRefOf("gone").SHA256 + `","bytes":4},"read":false}]}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(BodiesPath(path), AppendBody(nil, ref, "MSG-1", "Hello from the body file"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []wire.Message
	for _, m := range d.Messages.All() {
		got = append(got, *m)
	}
	want := []wire.Message{
		{ID: "MSG-1", Subject: "a", Body: "Hello from the body file"},
		{ID: "MSG-2", Subject: "b", Body: "inline wins"},
		{ID: "MSG-3", Subject: "c"}, // lost: empty, as the board answers it
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got)\n%s", diff)
	}
}
