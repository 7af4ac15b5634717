package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// keyedPost sends a create with an Idempotency-Key and returns the status
// and the body.
func keyedPost(t *testing.T, d *daemon, path, key, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", d.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v\n%s", path, err, d.stderr)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

// A board killed and started again still knows the keys it answered: the
// retry of a create after the restart is the first answer, not a second
// record, and another body under the key is still refused.
func TestIdempotencyKeySurvivesARestart(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	d := start(t, data, 0)
	code, first := keyedPost(t, d, "/api/cases", "retry-1", `{"title":"Lease"}`)
	if code != http.StatusCreated {
		t.Fatalf("first create: %d %s", code, first)
	}
	d.kill()
	d = start(t, data, 0)
	if code, again := keyedPost(t, d, "/api/cases", "retry-1", `{"title":"Lease"}`); code != http.StatusCreated || again != first {
		t.Errorf("the retry after a restart answered %d %s, want the first answer %s", code, again, first)
	}
	if code, body := keyedPost(t, d, "/api/cases", "retry-1", `{"title":"Other"}`); code != http.StatusConflict || !strings.Contains(body, `"idempotencyKey":"retry-1"`) {
		t.Errorf("another body after a restart answered %d %s, want 409 naming the key", code, body)
	}
	var list struct{ Cases []any }
	if _, err := getJSON(d.url+"/api/cases", &list); err != nil || len(list.Cases) != 1 {
		t.Errorf("%d cases (%v), want 1", len(list.Cases), err)
	}
}
