package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// schema7 is a document as boards before the body file wrote it: every
// body inline. Two messages share a body.
const schema7 = `{
 "schemaVersion": 7,
 "version": 4,
 "cases": [{"id": "CASE-1", "title": "Renew lease", "status": "todo", "domain": "work", "kind": "case", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}],
 "messages": [
  {"id": "MSG-1", "from": "ann@example.com", "subject": "Lease", "preview": "The lease", "body": "The lease ends in March.\nPlease sign.", "read": false, "caseId": "CASE-1"},
  {"id": "MSG-2", "from": "bob@example.com", "subject": "Re: Lease", "body": "Same text", "read": true},
  {"id": "MSG-3", "from": "cy@example.com", "subject": "Fwd: Lease", "body": "Same text", "read": false},
  {"id": "MSG-4", "from": "dee@example.com", "subject": "No body", "read": false}
 ]
}
`

func bodiesOf(d *wire.Doc) map[string]string {
	out := map[string]string{}
	for _, m := range d.Messages.All() {
		out[m.ID] = m.Body
	}
	return out
}

var schema7Bodies = map[string]string{"MSG-1": "The lease ends in March.\nPlease sign.", "MSG-2": "Same text", "MSG-3": "Same text", "MSG-4": ""}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestInlineBodiesMoveToTheBodyFileAtFirstStart(t *testing.T) {
	path := schema7File(t)
	s := mustOpen(t, manualConfig(path))
	if diff := cmp.Diff(schema7Bodies, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies after the first start (-want +got)\n%s", diff)
	}
	// Once moved, a body with a preview beside it leaves memory, as after a
	// restart; every answer still carries the body and no reference.
	for _, m := range s.Snapshot().Messages.All() {
		if released := m.BodyRef != nil && m.Body == ""; released != (m.Preview != "") {
			t.Errorf("%s in memory: body %q, reference %v; want only the reference when it has a preview", m.ID, m.Body, m.BodyRef)
		}
		if a := s.WithBody(m); a.BodyRef != nil {
			t.Errorf("%s answers with its reference", m.ID)
		}
	}
	// The move happened during the start, before any write or close.
	doc := string(readFile(t, path))
	if strings.Contains(doc, `"body"`) || strings.Count(doc, `"bodyRef"`) != 3 || !strings.Contains(doc, `"schemaVersion": 9`) {
		t.Errorf("the document after the first start still holds bodies inline or lacks references:\n%s", doc)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	bodies := storefile.BodiesPath(path)
	stampDoc, stampBodies := storefile.FileStamp(path), storefile.FileStamp(bodies)
	if n := bytes.Count(readFile(t, bodies), []byte("\nSame text\n")); n != 1 {
		t.Errorf("a body two messages share is stored %d times, want once", n)
	}

	s = mustOpen(t, manualConfig(path))
	if diff := cmp.Diff(schema7Bodies, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies after the second start (-want +got)\n%s", diff)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if storefile.FileStamp(path) != stampDoc || storefile.FileStamp(bodies) != stampBodies {
		t.Error("the second start rewrote the document or the body file; it should read the new layout as it is")
	}
	d, err := storefile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(schema7Bodies, bodiesOf(d)); diff != "" {
		t.Errorf("bodies as another process reads them (-want +got)\n%s", diff)
	}
}

// editMessage changes message id as the person would, in one write.
func editMessage(t testing.TB, s *Store, id string, change func(*wire.Message)) {
	t.Helper()
	_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		m, _ := tx.Messages().Get(id)
		change(m)
		tx.Messages().Put(m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// schema7File writes the schema-7 document, bodies inline, in a fresh
// directory and returns its path.
func schema7File(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "board.json")
	if err := os.WriteFile(path, []byte(schema7), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func setBody(t testing.TB, s *Store, id, body string) {
	t.Helper()
	editMessage(t, s, id, func(m *wire.Message) { m.Body = body })
}

func TestCorruptBodyAnswersEmptyWithAProblem(t *testing.T) {
	path := schema7File(t)
	s := mustOpen(t, manualConfig(path))
	s.Close()
	bodies := storefile.BodiesPath(path)
	data := readFile(t, bodies)
	at := bytes.Index(data, []byte("March"))
	data[at] = 'm'
	if err := os.WriteFile(bodies, data, 0o600); err != nil {
		t.Fatal(err)
	}

	s = mustOpen(t, manualConfig(path))
	defer s.Close()
	want := map[string]string{"MSG-1": "", "MSG-2": "Same text", "MSG-3": "Same text", "MSG-4": ""}
	if diff := cmp.Diff(want, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies with one failing its checksum (-want +got)\n%s", diff)
	}
	if p := problems(s); !strings.Contains(p, "MSG-1") || !strings.Contains(p, "checksum") {
		t.Errorf("health %q, want a problem naming MSG-1", p)
	}
	// A write and a compaction keep the reference, so the body is not
	// forgotten while it cannot be read.
	setRead(t, s, "MSG-1")
	compactNow(t, s)
	if doc := readFile(t, path); !bytes.Contains(doc, []byte(`"bodyRef"`)) || bytes.Count(doc, []byte(`"bodyRef"`)) != 3 {
		t.Errorf("the document dropped the reference of the lost body:\n%s", doc)
	}
	// A new body mends it.
	setBody(t, s, "MSG-1", "Signed copy attached.")
	compactNow(t, s)
	if p := problems(s); strings.Contains(p, "MSG-1") {
		t.Errorf("health still reports the mended body: %q", p)
	}
}

func setRead(t testing.TB, s *Store, id string) {
	t.Helper()
	editMessage(t, s, id, func(m *wire.Message) { m.Read = true })
}

func TestHandEditPuttingABodyInlineIsMovedOut(t *testing.T) {
	path := schema7File(t)
	s := mustOpen(t, manualConfig(path))
	defer s.Close()
	editDocument(t, path, func(d *wire.Doc) {
		d.Messages.At(0).BodyRef = nil
		d.Messages.At(0).Body = "Edited by hand."
	})
	// Asked through the store, as every reader of a body does: once the
	// edit's compaction has moved the body to the body file, the state lets
	// go of it, and a check of the state alone could miss the moment between.
	testkit.Eventually(t, "the hand edit to show", func() bool {
		return bodiesOf(s.DocWithBodies(s.Snapshot()))["MSG-1"] == "Edited by hand."
	})
	want := map[string]string{"MSG-1": "Edited by hand.", "MSG-2": "Same text", "MSG-3": "Same text", "MSG-4": ""}
	if diff := cmp.Diff(want, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies after the edit (-want +got)\n%s", diff)
	}
	testkit.Eventually(t, "the edited body to move to the body file", func() bool {
		return !bytes.Contains(readFile(t, path), []byte(`"body"`)) && bytes.Contains(readFile(t, storefile.BodiesPath(path)), []byte("\nEdited by hand.\n"))
	})
}

func addMessage(t testing.TB, s *Store, body string) string {
	t.Helper()
	var id string
	_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		id = tx.NextID("MSG")
		tx.Messages().Put(&wire.Message{ID: id, Subject: "s " + id, Body: body})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestDeadBodiesAreCollected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.json")
	s := mustOpen(t, manualConfig(path))
	create(t, s, "first")
	compactNow(t, s) // the first snapshot, before any message
	var ids []string
	for i := range 20 {
		ids = append(ids, addMessage(t, s, strings.Repeat(string(rune('a'+i)), 2000)))
	}
	compactNow(t, s)
	full := fileSize(storefile.BodiesPath(path))
	_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		tx.Messages().DeleteMany(ids[2:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	setBody(t, s, ids[1], "a shorter body")
	compactNow(t, s)
	create(t, s, "second") // the previous document, which names them all, is replaced
	compactNow(t, s)
	if got := fileSize(storefile.BodiesPath(path)); got*4 > full {
		t.Errorf("the body file is %d bytes after 18 of 20 bodies died, was %d", got, full)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, manualConfig(path))
	defer s.Close()
	want := map[string]string{ids[0]: strings.Repeat("a", 2000), ids[1]: "a shorter body"}
	if diff := cmp.Diff(want, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies after the collection (-want +got)\n%s", diff)
	}
	if p := problems(s); p != "" {
		t.Errorf("health after the collection: %s", p)
	}
}

func TestTornBodyTailIsCut(t *testing.T) {
	path := schema7File(t)
	s := mustOpen(t, manualConfig(path))
	s.Close()
	bodies := storefile.BodiesPath(path)
	good := fileSize(bodies)
	f, err := os.OpenFile(bodies, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("body 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef 900 MSG-9\nhalf a bo")
	f.Close()
	s = mustOpen(t, manualConfig(path))
	defer s.Close()
	if got := fileSize(bodies); got != good {
		t.Errorf("body file %d bytes after the start, want the torn tail cut back to %d", got, good)
	}
	if diff := cmp.Diff(schema7Bodies, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies (-want +got)\n%s", diff)
	}
	if p := problems(s); p != "" {
		t.Errorf("health after a torn tail: %s", p)
	}
	addMessage(t, s, "after the tear")
	compactNow(t, s)
	if got, _ := storefile.Load(path); got.Messages.At(4).Body != "after the tear" {
		t.Errorf("a body appended after the cut reads %q", got.Messages.At(4).Body)
	}
}

func TestLocalRestoreKeepsBodies(t *testing.T) {
	path := schema7File(t)
	s := mustOpen(t, manualConfig(path))
	setBody(t, s, "MSG-2", "changed after the snapshot")
	compactNow(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	snaps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "snapshots", "*.json.gz"))
	if len(snaps) == 0 {
		t.Fatal("no snapshot")
	}
	if _, err := Restore(path, snaps[0], true, s.now()); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, manualConfig(path))
	defer s.Close()
	if diff := cmp.Diff(schema7Bodies, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies after restoring the first snapshot (-want +got)\n%s", diff)
	}
}
