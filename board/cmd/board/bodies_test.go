package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// inlineDoc is a schema 7 document, bodies inline, as boards before the
// body file wrote it.
const inlineDoc = `{
 "schemaVersion": 7,
 "version": 9,
 "cases": [{"id": "CASE-1", "title": "Renew the lease", "status": "todo", "domain": "work", "kind": "case", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-02T00:00:00Z"}],
 "messages": [
  {"id": "MSG-1", "from": "ann@example.com", "to": ["me@example.com"], "subject": "Lease renewal", "preview": "The lease ends", "body": "The lease ends in March.\nPlease sign the renewal — by Friday.", "receivedAt": "2026-01-02T09:00:00Z", "read": false, "caseId": "CASE-1", "messageId": "<a1@example.com>"},
  {"id": "MSG-2", "from": "bob@example.com", "subject": "Re: Lease renewal", "body": "Signed. \u00e9\u00e8 <b>ok</b>", "receivedAt": "2026-01-03T09:00:00Z", "read": true, "caseId": "CASE-1"},
  {"id": "MSG-3", "from": "cy@example.com", "subject": "Parking permit", "body": "Your permit is ready.", "receivedAt": "2026-01-04T09:00:00Z", "read": false}
 ]
}
`

var inlineBodies = map[string]string{
	"MSG-1": "The lease ends in March.\nPlease sign the renewal — by Friday.",
	"MSG-2": "Signed. \u00e9\u00e8 <b>ok</b>",
	"MSG-3": "Your permit is ready.",
}

// bodyAnswers are the answers that carry bodies, with the export's time
// left out (it is the time of the export).
func bodyAnswers(t *testing.T, d *daemon) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, p := range []string{"/api/messages", "/api/messages?limit=2", "/api/messages/MSG-1", "/api/messages/MSG-2", "/api/cases/CASE-1", "/api/search?q=lease", "/api/export"} {
		out[p] = d.must(t, http.StatusOK, "GET", p, "")
	}
	var ex map[string]json.RawMessage
	if err := json.Unmarshal(out["/api/export"], &ex); err != nil {
		t.Fatal(err)
	}
	delete(ex, "exportedAt")
	out["/api/export"], _ = json.Marshal(ex)
	return out
}

func messageBody(t *testing.T, d *daemon, id string) string {
	t.Helper()
	var m wire.MessageDetail
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/messages/"+id, ""), &m); err != nil {
		t.Fatal(err)
	}
	return m.Message.Body
}

func TestDaemonMovesBodiesOutAndAnswersTheSame(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	if err := os.WriteFile(data, []byte(inlineDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, data, 0)
	first := bodyAnswers(t, d)
	for id, want := range inlineBodies {
		if got := messageBody(t, d, id); got != want {
			t.Errorf("%s body %q, want %q", id, got, want)
		}
	}
	var ex wire.Doc
	if err := json.Unmarshal(first["/api/export"], &ex); err != nil || ex.Messages.Len() != 3 || ex.Messages.At(0).Body != inlineBodies["MSG-1"] || ex.Messages.At(0).BodyRef != nil {
		t.Errorf("the export is not one document with bodies inline: %v\n%s", err, first["/api/export"])
	}
	if doc, _ := os.ReadFile(data); bytes.Contains(doc, []byte(`"body"`)) || !bytes.Contains(doc, []byte(`"bodyRef"`)) {
		t.Errorf("the first start left bodies in the document:\n%s", doc)
	}
	d.kill()

	bodies := storefile.BodiesPath(data)
	stamp := storefile.FileStamp(bodies)
	d = start(t, data, 0)
	for p, got := range bodyAnswers(t, d) {
		if !bytes.Equal(first[p], got) {
			t.Errorf("GET %s differs after the move:\nbefore %s\nafter  %s", p, first[p], got)
		}
	}
	if storefile.FileStamp(bodies) != stamp {
		t.Error("the second start changed the body file")
	}
	if h := health(t, d); h.Degraded || len(h.Problems) > 0 {
		t.Errorf("health: %+v", h)
	}
}

func TestDaemonPatchesABodyByHand(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	if err := os.WriteFile(data, []byte(inlineDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, data, 0)
	var rep wire.MessageReply
	raw := d.must(t, http.StatusOK, "PATCH", "/api/messages/MSG-3", `{"body":"Your permit is ready at the front desk."}`)
	if err := json.Unmarshal(raw, &rep); err != nil || rep.Message.Body != "Your permit is ready at the front desk." {
		t.Fatalf("patch answer: %v %s", err, raw)
	}
	if _, ok := rep.Message.HumanEdits["body"]; !ok {
		t.Errorf("the person's edit of the body is not stamped: %s", raw)
	}
	// The person's word stands against an agent's change right after.
	raw = d.must(t, http.StatusBadRequest, "PATCH", "/api/messages/MSG-3", `{"body":"agent text","actor":"agent"}`)
	if !bytes.Contains(raw, []byte(`"humanChange"`)) {
		t.Errorf("an agent's change of the person's body: %s", raw)
	}
	d.compacted(t, `"humanEdits"`)
	d.kill()
	d = start(t, data, 0)
	if got := messageBody(t, d, "MSG-3"); got != "Your permit is ready at the front desk." {
		t.Errorf("edited body after a restart: %q", got)
	}
	if got := messageBody(t, d, "MSG-1"); got != inlineBodies["MSG-1"] {
		t.Errorf("another body after a restart: %q", got)
	}
}

func TestDaemonKeepsAcknowledgedBodiesThroughAKill(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	d := start(t, data, 0)
	want := map[string]string{}
	for i := range 40 {
		body := fmt.Sprintf("mail %d: %s", i, strings.Repeat("words ", 50+i))
		var rep wire.MessageReply
		raw := d.must(t, http.StatusCreated, "POST", "/api/messages", jsonBody(t, map[string]string{"from": "x@example.com", "subject": fmt.Sprint("s", i), "body": body}))
		if err := json.Unmarshal(raw, &rep); err != nil {
			t.Fatal(err)
		}
		want[rep.Message.ID] = body
		if i == 20 {
			d.compacted(t, rep.Message.ID) // half of them in the body file, half in the journal
		}
	}
	d.kill()
	d = start(t, data, 0)
	for id, body := range want {
		if got := messageBody(t, d, id); got != body {
			t.Errorf("%s after SIGKILL: %q, want %q", id, got, body)
		}
	}
}

func TestDaemonAnswersACorruptBodyEmpty(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	if err := os.WriteFile(data, []byte(inlineDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, data, 0)
	d.kill()
	bodies := storefile.BodiesPath(data)
	raw, err := os.ReadFile(bodies)
	if err != nil {
		t.Fatal(err)
	}
	raw[bytes.Index(raw, []byte("permit"))] = 'P'
	if err := os.WriteFile(bodies, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	d = start(t, data, 0)
	if got := messageBody(t, d, "MSG-3"); got != "" {
		t.Errorf("a body failing its checksum answers %q, want empty", got)
	}
	if got := messageBody(t, d, "MSG-1"); got != inlineBodies["MSG-1"] {
		t.Errorf("a good body next to it: %q", got)
	}
	d.must(t, http.StatusOK, "GET", "/api/messages", "")
	d.must(t, http.StatusOK, "GET", "/api/export", "")
	if h := health(t, d); !strings.Contains(strings.Join(h.Problems, " "), "MSG-3") {
		t.Errorf("health does not name the lost body: %+v", h)
	}
}

func TestBackupRoundTripKeepsBodies(t *testing.T) {
	c := newBackupCLI(t)
	st, err := store.Open(store.Config{Path: c.data})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
		for id, body := range inlineBodies {
			tx.Messages().Put(&wire.Message{ID: id, Subject: "s " + id, Body: body})
		}
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	key := []string{"SVC_BACKUP_KEY=" + cliPass}
	c.expect(0, "WRITE THE PASSPHRASE DOWN", "", key, "init", c.bare)
	c.expect(0, "pushed", "", key, "run")

	st, err = store.Open(store.Config{Path: c.data})
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
		m, _ := tx.Messages().Get("MSG-1")
		m.Body = "changed after the backup"
		tx.Messages().Put(m)
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	c.expect(0, "Start the board", "", key, "restore", "--apply")
	d, err := storefile.Load(c.data)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range d.Messages.All() {
		got[m.ID] = m.Body
	}
	for id, want := range inlineBodies {
		if got[id] != want {
			t.Errorf("%s after the restore: %q, want %q", id, got[id], want)
		}
	}
	st, err = store.Open(store.Config{Path: c.data})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, m := range st.Snapshot().Messages.All() {
		if m.Body != inlineBodies[m.ID] {
			t.Errorf("%s in the restored board: %q", m.ID, m.Body)
		}
	}
}
