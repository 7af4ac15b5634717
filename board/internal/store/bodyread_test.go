package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// previewed is a document whose messages have previews, so after a restart
// none of them needs its body in memory.
const previewed = `{
 "schemaVersion": 7,
 "version": 3,
 "messages": [
  {"id": "MSG-1", "from": "ann@example.com", "subject": "Lease", "preview": "The lease", "body": "The lease ends in March.\nPlease sign.", "receivedAt": "2026-01-02T09:00:00Z"},
  {"id": "MSG-2", "from": "bob@example.com", "subject": "Parking", "preview": "Your permit", "body": "Your permit is ready at the zeppelin desk.", "receivedAt": "2026-01-03T09:00:00Z"}
 ]
}
`

var previewedBodies = map[string]string{"MSG-1": "The lease ends in March.\nPlease sign.", "MSG-2": "Your permit is ready at the zeppelin desk."}

// reopened is a store on previewed after its first start moved the bodies
// out, with the dedupe key hashing the body.
func reopened(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "board.json")
	if err := os.WriteFile(path, []byte(previewed), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := manualConfig(path)
	cfg.MessageKey = bodyKey
	s := mustOpen(t, cfg)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, cfg)
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestBodiesAreReadOnDemandAfterARestart(t *testing.T) {
	s, _ := reopened(t)
	for _, m := range s.Snapshot().Messages.All() {
		if m.Body != "" || m.BodyRef == nil {
			t.Errorf("%s in memory: body %q, reference %v; want no body and its reference", m.ID, m.Body, m.BodyRef)
		}
		if got := s.Body(m); got != previewedBodies[m.ID] {
			t.Errorf("Body(%s) = %q, want %q", m.ID, got, previewedBodies[m.ID])
		}
		if a := s.WithBody(m); a.Body != previewedBodies[m.ID] || a.BodyRef != nil || m.Body != "" {
			t.Errorf("WithBody(%s) = body %q, reference %v; the stored record now holds %q", m.ID, a.Body, a.BodyRef, m.Body)
		}
	}
	if diff := cmp.Diff(previewedBodies, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("the document with bodies, for export and the backup (-want +got)\n%s", diff)
	}
	// The same mail arriving again is found by its key, which hashes the body.
	again := &wire.Message{From: "ann@example.com", ReceivedAt: "2026-01-02T09:00:00Z", Body: previewedBodies["MSG-1"]}
	_, err := s.Update(context.Background(), wire.ActorHuman, nil, func(tx *Tx) error {
		old, ok := tx.MessageByKey(bodyKey(again))
		if !ok || old.ID != "MSG-1" {
			t.Errorf("the same mail again found %v, want MSG-1", old)
		}
		if got := tx.Body(old); got != again.Body {
			t.Errorf("its body inside a write: %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAWriteThatLeavesABodyKeepsItsReference(t *testing.T) {
	s, path := reopened(t)
	setRead(t, s, "MSG-1") // the journal line names the body, as the document does
	crash(s)               // the journal keeps the line
	if j := readFile(t, storefile.JournalPath(path)); !bytes.Contains(j, []byte(`"bodyRef"`)) || bytes.Contains(j, []byte("March")) {
		t.Errorf("the journal line of a write that left the body as it was:\n%s", j)
	}
	d, err := storefile.Load(path) // another process, as the search sidecar reads
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(previewedBodies, bodiesOf(d)); diff != "" {
		t.Errorf("bodies as another process reads them (-want +got)\n%s", diff)
	}
	cfg := manualConfig(path)
	s = mustOpen(t, cfg)
	defer s.Close()
	if diff := cmp.Diff(previewedBodies, bodiesOf(s.DocWithBodies(s.Snapshot()))); diff != "" {
		t.Errorf("bodies after replaying the journal (-want +got)\n%s", diff)
	}
	if p := problems(s); p != "" {
		t.Errorf("health: %s", p)
	}
	compactNow(t, s)
	if doc := readFile(t, path); bytes.Contains(doc, []byte(`"body"`)) || bytes.Count(doc, []byte(`"bodyRef"`)) != 2 {
		t.Errorf("the compacted document:\n%s", doc)
	}
}

func TestABodyDamagedAfterTheStartReadsEmpty(t *testing.T) {
	s, path := reopened(t)
	bodies := storefile.BodiesPath(path)
	data := readFile(t, bodies)
	data[bytes.Index(data, []byte("zeppelin"))] = 'Z'
	if err := os.WriteFile(bodies, data, 0o600); err != nil {
		t.Fatal(err)
	}
	m := s.Snapshot().Messages.At(1)
	if got := s.Body(m); got != "" {
		t.Errorf("a body failing its checksum reads %q, want empty", got)
	}
	if got := s.WithBody(m); got.Body != "" || got.BodyRef != nil {
		t.Errorf("its answer: body %q, reference %v", got.Body, got.BodyRef)
	}
	if got := s.Body(s.Snapshot().Messages.At(0)); got != previewedBodies["MSG-1"] {
		t.Errorf("an intact body beside it reads %q", got)
	}
}

func TestBodyCacheIsBoundedByBytes(t *testing.T) {
	c := newBodyCache(1000)
	for i := range 50 {
		c.put(fmt.Sprint("sha", i), strings.Repeat("x", 100))
	}
	if c.size > 1000 || len(c.at) != 10 {
		t.Errorf("cache holds %d bytes in %d bodies, want at most 1000 in 10", c.size, len(c.at))
	}
	if _, ok := c.get("sha49"); !ok {
		t.Error("the newest body is not cached")
	}
	if _, ok := c.get("sha0"); ok {
		t.Error("the oldest body is still cached")
	}
	c.put("big", strings.Repeat("y", 600))
	if _, ok := c.get("big"); ok || len(c.at) != 10 {
		t.Error("a body larger than a quarter of the cache was kept")
	}
}
