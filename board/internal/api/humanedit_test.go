package api_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
)

// clock is a store clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func storeClock(c *clock) option {
	return func(s *store.Config, _ *api.Config) { s.Now = c.now }
}

// refusedRevert checks an agent write is refused with 400 naming the
// person's change, and changes nothing.
func refusedRevert(t *testing.T, b *board, method, path string, body any, field string) {
	t.Helper()
	before := b.Store.Version()
	r := b.do(method, path, body, agent...)
	if r.Code != http.StatusBadRequest {
		t.Fatalf("%s %s: status %d, want 400: %s", method, path, r.Code, r.Raw)
	}
	hc := r.Body.Get("humanChange")
	if hc.Get("field").String() != field || hc.Get("actor").String() != "human" || hc.Get("ts").String() == "" {
		t.Errorf("%s %s: humanChange %s, want field %s by human", method, path, hc.Raw, field)
	}
	if msg := r.Body.Get("error").String(); !strings.Contains(msg, "propose") {
		t.Errorf("%s %s: the error does not say to propose instead: %q", method, path, msg)
	}
	if b.Store.Version() != before {
		t.Errorf("%s %s: a refused write moved the version", method, path)
	}
}

func TestAgentMayNotRevertThePerson(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}
	b := newBoard(t, storeClock(clk))
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"humanEditWindow": 1})
	c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Lease", "status": "todo"}).Get("case.id").String()
	other := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Deposit"}).Get("case.id").String()
	task := b.must(http.StatusCreated, "POST", "/api/cases/"+c+"/tasks", map[string]any{"title": "Sign"}).Get("task.id").String()
	rem := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Pay", "dueAt": "2026-12-01"}).Get("reminder.id").String()
	evt := b.must(http.StatusCreated, "POST", "/api/events", map[string]any{"title": "Visit", "date": "2026-12-02"}).Get("event.id").String()

	// The agent may change what the person has not touched.
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"summary": "by the agent"}, agent...)

	// The person changes a field of each record.
	got := b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"status": "waiting_for_input"})
	if got.Get("case.humanEdits.status.at").String() != "2026-11-24T09:00:00Z" || got.Get("case.humanEdits.status.was").String() != "todo" || got.Get("case.humanEdits.summary").Exists() {
		t.Errorf("humanEdits after the person's patch: %s", got.Get("case.humanEdits").Raw)
	}
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c+"/tasks/"+task, map[string]any{"completed": true})
	b.must(http.StatusOK, "PATCH", "/api/reminders/"+rem, map[string]any{"dueAt": "2026-12-05"})
	b.must(http.StatusOK, "PATCH", "/api/events/"+evt, map[string]any{"date": "2026-12-03"})

	clk.add(23 * time.Hour)
	refusedRevert(t, b, "PATCH", "/api/cases/"+c, map[string]any{"status": "todo", "summary": "x"}, "status")
	refusedRevert(t, b, "PATCH", "/api/cases", map[string]any{"ids": []string{other, c}, "patch": map[string]any{"status": "done"}}, "status")
	refusedRevert(t, b, "PATCH", "/api/cases/"+c+"/tasks/"+task, map[string]any{"completed": false}, "completedAt")
	refusedRevert(t, b, "PATCH", "/api/reminders/"+rem, map[string]any{"dueAt": "2026-12-01"}, "dueAt")
	refusedRevert(t, b, "PATCH", "/api/events/"+evt, map[string]any{"date": "2026-12-02"}, "date")

	// Other fields stay open to the agent, and so does the same value.
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"status": "waiting_for_input", "eta": "soon"}, agent...)
	b.must(http.StatusOK, "PATCH", "/api/reminders/"+rem, map[string]any{"title": "Pay the deposit"}, agent...)
	b.must(http.StatusOK, "PATCH", "/api/cases/"+other, map[string]any{"status": "done"}, agent...)

	// override lets it through and the case's log says so.
	b.must(http.StatusOK, "PATCH", "/api/cases/"+c, map[string]any{"status": "todo", "override": true}, agent...)
	log := b.must(http.StatusOK, "GET", "/api/cases/"+c, nil).Get("case.activity").Array()
	if last := log[len(log)-1]; last.Get("verb").String() != "override" || last.Get("actor").String() != "agent" || !strings.Contains(last.Get("detail").String(), "status") {
		t.Errorf("the override is not logged: %s", last.Raw)
	}
	b.must(http.StatusOK, "PATCH", "/api/events/"+evt, map[string]any{"date": "2026-12-02", "override": true}, agent...)

	// Past the window (one day here), a new value goes through; setting
	// back the value the person replaced never does.
	clk.add(2 * time.Hour)
	b.must(http.StatusOK, "PATCH", "/api/reminders/"+rem, map[string]any{"dueAt": "2026-12-07"}, agent...)
	refusedRevert(t, b, "PATCH", "/api/cases/"+c+"/tasks/"+task, map[string]any{"completed": false}, "completedAt")

	// A stale expectedVersion is still 409, checked first.
	r := b.do("PATCH", "/api/cases/"+c, map[string]any{"status": "done", "expectedVersion": 1}, agent...)
	if r.Code != http.StatusConflict {
		t.Errorf("stale expectedVersion: %d %s", r.Code, r.Raw)
	}
}
