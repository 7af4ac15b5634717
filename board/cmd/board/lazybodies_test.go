package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// previewedDoc has messages with previews and no Message-ID: after a
// restart the board holds none of their bodies in memory, and the dedupe
// key of each hashes its body.
const previewedDoc = `{
 "schemaVersion": 7,
 "version": 5,
 "cases": [{"id": "CASE-1", "title": "Renew the lease", "status": "todo", "domain": "work", "kind": "case", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-02T00:00:00Z"}],
 "messages": [
  {"id": "MSG-1", "from": "ann@example.com", "to": ["me@example.com"], "subject": "Lease renewal", "preview": "The lease ends", "body": "The lease ends in March.\nPlease sign the renewal by Friday.", "receivedAt": "2026-01-02T09:00:00Z", "read": false, "caseId": "CASE-1"},
  {"id": "MSG-2", "from": "bob@example.com", "subject": "Re: Lease renewal", "preview": "Signed", "body": "Signed with a flourish.", "receivedAt": "2026-01-03T09:00:00Z", "read": false, "caseId": "CASE-1"}
 ]
}
`

func TestDaemonReadsBodiesOnDemandAfterARestart(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	if err := os.WriteFile(data, []byte(previewedDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	d := start(t, data, 0)
	first := bodyAnswers(t, d)
	firstHit := d.must(t, http.StatusOK, "GET", "/api/search?q=flourish", "")
	d.kill()

	d = start(t, data, 0) // the bodies now stay in the body file until asked for
	for p, got := range bodyAnswers(t, d) {
		if !bytes.Equal(first[p], got) {
			t.Errorf("GET %s differs after the restart:\nbefore %s\nafter  %s", p, first[p], got)
		}
	}
	// A word only in a body is still found, and the hit carries the body.
	if got := d.must(t, http.StatusOK, "GET", "/api/search?q=flourish", ""); !bytes.Equal(firstHit, got) {
		t.Errorf("a search on a word only in a body:\nbefore %s\nafter  %s", firstHit, got)
	}
	var env wire.SearchEnvelope
	raw := d.must(t, http.StatusOK, "POST", "/api/search", `{"queries":["flourish"],"fields":["body"]}`)
	if err := json.Unmarshal(raw, &env); err != nil || len(env.Merged.Messages) != 1 || env.Merged.Messages[0].Body != "Signed with a flourish." {
		t.Errorf("a ranked search on a word only in a body: %v %s", err, raw)
	}
	// The same mail arriving again is found by its key, which hashes the body.
	var rep wire.MessageReply
	raw = d.must(t, http.StatusOK, "POST", "/api/messages", `{"from":"bob@example.com","subject":"Re: Lease renewal","body":"Signed with a flourish.","receivedAt":"2026-01-03T09:00:00Z"}`)
	if err := json.Unmarshal(raw, &rep); err != nil || !rep.Existing || rep.Message.ID != "MSG-2" || rep.Message.Body != "Signed with a flourish." || rep.Message.BodyRef != nil {
		t.Errorf("the same mail again: %v %s", err, raw)
	}
	// A write that leaves the body answers it whole; one that edits it is
	// the person's edit of the body, nothing else.
	raw = d.must(t, http.StatusOK, "PATCH", "/api/messages/MSG-1", `{"read":true}`)
	if err := json.Unmarshal(raw, &rep); err != nil || rep.Message.Body != "The lease ends in March.\nPlease sign the renewal by Friday." || rep.Message.BodyRef != nil {
		t.Errorf("marking a message read: %v %s", err, raw)
	}
	raw = d.must(t, http.StatusOK, "PATCH", "/api/messages/MSG-2", `{"body":"Signed twice."}`)
	rep = wire.MessageReply{}
	if err := json.Unmarshal(raw, &rep); err != nil || rep.Message.Body != "Signed twice." || !hasOnly(rep.Message.HumanEdits, "body") {
		t.Errorf("editing a body by hand: %v %s", err, raw)
	}
	d.kill() // the journal holds both writes
	d = start(t, data, 0)
	if got := messageBody(t, d, "MSG-1"); got != "The lease ends in March.\nPlease sign the renewal by Friday." {
		t.Errorf("MSG-1 after a restart that replays its write: %q", got)
	}
	if got := messageBody(t, d, "MSG-2"); got != "Signed twice." {
		t.Errorf("MSG-2 after a restart that replays its edit: %q", got)
	}
	if h := health(t, d); h.Degraded || len(h.Problems) > 0 {
		t.Errorf("health: %+v", h)
	}
}

func hasOnly[V any](m map[string]V, key string) bool {
	_, ok := m[key]
	return ok && len(m) == 1
}
