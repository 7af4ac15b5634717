package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/client/clienttest"
	"github.com/opsboard/opsboard/shared/wire"
)

// A tool call's creates carry a key derived from the tool, its arguments
// and the session: the same call again within the window sends the same
// key, another call, a later repeat or a context without a call do not;
// a write that is no create sends none.
func TestToolCallCreatesCarryAKey(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		mu.Unlock()
		io.WriteString(w, `{"version":1}`)
	}))
	t.Cleanup(srv.Close)
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	c, err := client.New(srv.URL, client.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"title": "Lease", "kind": "case"}
	call := client.WithCall(context.Background(), "create_case", "s1", args)
	send := func(ctx context.Context) string {
		t.Helper()
		if _, err := c.CreateCase(ctx, wire.CaseCreate{Title: "Lease"}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return keys[len(keys)-1]
	}
	first := send(call)
	if first == "" {
		t.Fatal("a tool call's create sent no Idempotency-Key")
	}
	now = now.Add(client.CallKeyWindow - time.Second)
	if again := send(client.WithCall(context.Background(), "create_case", "s1", map[string]any{"kind": "case", "title": "Lease"})); again != first {
		t.Errorf("the retried call sent key %q, want the first %q", again, first)
	}
	for name, ctx := range map[string]context.Context{
		"another session": client.WithCall(context.Background(), "create_case", "s2", args),
		"other arguments": client.WithCall(context.Background(), "create_case", "s1", map[string]any{"title": "Lease2"}),
		"another tool":    client.WithCall(context.Background(), "create_cases", "s1", args),
	} {
		if k := send(ctx); k == first || k == "" {
			t.Errorf("%s sent key %q, want a new one", name, k)
		}
	}
	if k := send(context.Background()); k != "" {
		t.Errorf("a create outside a tool call sent key %q", k)
	}
	now = now.Add(2 * time.Second) // past the window of the first use
	if later := send(call); later == first || later == "" {
		t.Errorf("the same call after the window sent key %q, want a new one", later)
	}
	if _, err := c.Approve(call, "P-1", wire.ProposalDecision{}); err != nil {
		t.Fatal(err)
	}
	if k := keys[len(keys)-1]; k != "" {
		t.Errorf("an approval sent key %q; only creates are keyed", k)
	}
}

// dropFirst performs the first request and then loses its answer, as a
// connection dropped after the board wrote would.
type dropFirst struct {
	once sync.Once
}

func (d *dropFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	dropped := false
	d.once.Do(func() { dropped = true })
	if dropped && err == nil {
		resp.Body.Close()
		return nil, errors.New("connection reset by peer")
	}
	return resp, err
}

// A tool call retried after its answer was lost is one case on the real
// board, and the retry answers that case as already there.
func TestRetriedToolCallAfterADroppedConnectionIsOneRecord(t *testing.T) {
	b := clienttest.StartBoard(t)
	c, err := client.New(b.URL, client.WithHTTPClient(&http.Client{Transport: &dropFirst{}, Timeout: 10 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := client.WithCall(clienttest.Context(t), "create_case", "session-1", map[string]any{"title": "Lease"})
	if _, err := c.CreateCase(ctx, wire.CaseCreate{Title: "Lease"}); err == nil {
		t.Fatal("the first call's answer was not dropped")
	}
	got, err := c.CreateCase(ctx, wire.CaseCreate{Title: "Lease"})
	if err != nil {
		t.Fatal(err)
	}
	cases, err := c.Cases(ctx, client.CaseFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 || got.Case.ID != cases[0].ID || !got.Existing {
		t.Errorf("the retry answered %s (existing %v) and the board holds %d cases, want one, the same, existing", got.Case.ID, got.Existing, len(cases))
	}
}
