package api_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// A create repeated with its Idempotency-Key answers the first answer and
// writes nothing, whether the body's fields come in another order or not;
// another body under the key is a 409 naming it; the key is scoped to its
// route.
func TestIdempotencyKeyMakesARetryOneRecord(t *testing.T) {
	b := newBoard(t)
	key := []string{"Idempotency-Key", "form-1"}
	first := b.do("POST", "/api/cases", `{"title":"Lease","kind":"case"}`, key...)
	if first.Code != 201 {
		t.Fatalf("first create: %d %s", first.Code, first.Raw)
	}
	v := b.Store.Version()
	again := b.do("POST", "/api/cases", "{ \"kind\": \"case\",\n \"title\": \"Lease\" }", key...)
	if again.Code != 201 || again.Raw != first.Raw {
		t.Fatalf("the repeat answered %d %s, want the first answer %s", again.Code, again.Raw, first.Raw)
	}
	if got := b.Store.Version(); got != v {
		t.Errorf("the repeat wrote: version %d -> %d", v, got)
	}
	if n := len(b.must(200, "GET", "/api/cases", nil).Get("cases").Array()); n != 1 {
		t.Errorf("%d cases, want 1", n)
	}
	other := b.do("POST", "/api/cases", map[string]any{"title": "Another"}, key...)
	if other.Code != 409 || other.Body.Get("idempotencyKey").String() != "form-1" || !strings.Contains(other.Body.Get("error").String(), "Idempotency-Key") {
		t.Errorf("another body under the key answered %d %s, want 409 naming the key", other.Code, other.Raw)
	}
	id := first.Body.Get("case.id").String()
	if r := b.do("POST", "/api/cases/"+id+"/notes", map[string]any{"text": "Lease"}, key...); r.Code != 201 {
		t.Errorf("the key on another route answered %d %s, want a new note", r.Code, r.Raw)
	}
	if r := b.do("POST", "/api/cases", map[string]any{"title": "Lease"}); r.Code != 201 {
		t.Errorf("without a key the same create answered %d, want a new case", r.Code)
	}
}

// A key outside 1..255 printable ASCII characters is a 400 naming the
// header, and writes nothing.
func TestIdempotencyKeyIsChecked(t *testing.T) {
	b := newBoard(t)
	for _, key := range []string{"", strings.Repeat("k", 256), "tab\there", "caf\u00e9"} {
		b.fails(400, "header 'Idempotency-Key'", "POST", "/api/cases", map[string]any{"title": "Lease"}, "Idempotency-Key", key)
	}
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Lease"}, "Idempotency-Key", strings.Repeat("k", 255))
}

// A refused create leaves no key behind: its corrected retry under the
// same key is a create.
func TestIdempotencyKeyOfARefusedCreateIsFree(t *testing.T) {
	b := newBoard(t)
	b.fails(400, "title", "POST", "/api/cases", map[string]any{"title": ""}, "Idempotency-Key", "k")
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Lease"}, "Idempotency-Key", "k")
}

// Requests racing with one key make one record: the second waits for the
// first answer.
func TestIdempotencyKeyRacingRequestsMakeOneRecord(t *testing.T) {
	b := newBoard(t)
	var wg sync.WaitGroup
	answers := make([]string, 8)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = b.do("POST", "/api/priorities", map[string]any{"text": "Ship it"}, "Idempotency-Key", "double").Raw
		}()
	}
	wg.Wait()
	for _, a := range answers[1:] {
		if a != answers[0] {
			t.Fatalf("answers differ: %s vs %s", a, answers[0])
		}
	}
	if n := len(b.must(200, "GET", "/api/priorities", nil).Get("priorities").Array()); n != 1 {
		t.Errorf("%d priority notes, want 1", n)
	}
}

// The board keeps at most the cap of keys, dropping the oldest, and drops
// keys past the window; the newest record is always kept.
func TestRememberKeyDropsTheOldest(t *testing.T) {
	d := &wire.Doc{}
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	old := now.Add(-wire.IdempotencyWindow).Format(time.RFC3339Nano)
	d.IdempotencyKeys = d.IdempotencyKeys.Append(&wire.IdempotencyRecord{ID: "expired", At: old})
	for i := range wire.MaxIdempotencyKeys - 1 {
		d.IdempotencyKeys = d.IdempotencyKeys.Append(&wire.IdempotencyRecord{ID: fmt.Sprint("k", i), At: now.Format(time.RFC3339)})
	}
	tx := store.Scratch(d, now, wire.ActorSystem)
	api.RememberKeyTx(tx, wire.IdempotencyRecord{ID: "new"})
	keys := tx.Doc().IdempotencyKeys
	if keys.Len() != wire.MaxIdempotencyKeys || keys.At(0).ID != "k0" || keys.At(keys.Len()-1).ID != "new" {
		t.Fatalf("kept %d keys from %s to %s, want %d from k0 to new", keys.Len(), keys.At(0).ID, keys.At(keys.Len()-1).ID, wire.MaxIdempotencyKeys)
	}
	api.RememberKeyTx(tx, wire.IdempotencyRecord{ID: "newer"})
	keys = tx.Doc().IdempotencyKeys
	if keys.Len() != wire.MaxIdempotencyKeys || keys.At(0).ID != "k1" {
		t.Errorf("over the cap kept %d keys from %s, want %d from k1", keys.Len(), keys.At(0).ID, wire.MaxIdempotencyKeys)
	}
}
