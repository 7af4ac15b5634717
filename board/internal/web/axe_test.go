package web

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/opsboard/opsboard/board/internal/testkit/guardtest"
)

// axePath is axe-core's browser build, installed by the pinned npm package
// beside the type checker (scripts/test-deps.sh runs its npm ci).
var axePath = filepath.Join("check", "node_modules", "axe-core", "axe.min.js")

// axeSource reads axe-core; without it the test fails and says how to get
// it, so an accessibility check never goes missing unnoticed.
func axeSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(axePath)
	if err != nil {
		t.Fatalf("axe-core is not installed (%v): run scripts/test-deps.sh, which installs it with npm ci in board/internal/web/check", err)
	}
	return string(src)
}

// axeViolation is one rule axe-core found broken, with its first nodes.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
	Count  int      `json:"count"`
}

// axe injects axe-core into the page as it stands and returns the serious
// and critical violations it finds.
func (tb *tab) axe(src string) []axeViolation {
	tb.t.Helper()
	tb.eval(`window.__axe = undefined; typeof window.axe`, nil)
	var kind string
	tb.eval(`typeof window.axe`, &kind)
	if kind != "object" {
		tb.eval(src+"\n;'loaded'", nil)
	}
	tb.eval(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => {
		window.__axe = JSON.stringify(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({
			id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
			nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + '  ' + n.html.slice(0, 200) + (n.failureSummary ? '  (' + n.failureSummary.replace(/\s+/g, ' ').slice(0, 240) + ')' : '')),
		}))); }, (e) => { window.__axe = JSON.stringify([{ id: 'axe-error', impact: 'critical', help: String(e), nodes: [], count: 0 }]); }); 'started'`, nil)
	tb.waitFor("axe-core's answer", `typeof window.__axe === 'string'`)
	var out string
	tb.eval(`window.__axe`, &out)
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		tb.t.Fatalf("axe-core's answer %q: %v", out, err)
	}
	return vs
}

// seedCases brings the board to n cases through the API, a few writers at
// a time, spread over the lanes with some due dates.
func seedCases(t *testing.T, b *board, n int) {
	t.Helper()
	have := len(b.cases())
	lanes := []string{"urgent", "todo", "in_progress", "waiting_for_input", "done"}
	var next atomic.Int64
	next.Store(int64(have))
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1))
				if i > n {
					return
				}
				body := map[string]any{"title": fmt.Sprintf("Follow up on vendor contract %d", i), "status": lanes[i%len(lanes)], "summary": "Seeded for the accessibility check."}
				if i%7 == 0 {
					body["dueAt"] = fmt.Sprintf("2031-%02d-%02d", 1+i%12, 1+i%28)
				}
				if _, code, err := b.try("POST", "/api/cases", body, i%3 == 0); err != nil || code != 201 {
					t.Errorf("seed case %d: %d %v", i, code, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestEveryViewPassesAxe runs axe-core over every view of a board of 1,000
// cases (with the demo's mail, events, reminders, proposals and pages) and
// fails on any serious or critical violation. One board and one tab serve
// every view.
func TestEveryViewPassesAxe(t *testing.T) {
	src := axeSource(t)
	g := guardtest.Start(t, nil)
	b := startGuardedBoard(t, g.URL)
	ids := sample(b)
	seedCases(t, b, 1000)
	vat := ids["VAT handling for EU customers"]
	views := []struct{ name, path, ready string }{
		{"home", "/", `document.querySelectorAll('[data-card]').length > 20`},
		{"strategy", "/strategy", `document.querySelectorAll('.node-row').length > 5`},
		{"inbox", "/inbox", `document.querySelectorAll('.inbox-row').length >= 3`},
		{"activity", "/activity", `document.querySelectorAll('.feed-row').length > 5`},
		{"calendar", "/calendar", `document.querySelectorAll('.ev').length >= 1`},
		{"calendar-week", "/calendar?mode=week", `!!document.querySelector('.week')`},
		{"reminders", "/reminders", `document.querySelectorAll('.reminder').length >= 3`},
		{"priorities", "/priorities", `document.querySelectorAll('.prio').length >= 1`},
		{"proposals", "/proposals", `document.querySelectorAll('.proposal').length >= 1`},
		{"labels", "/labels", `document.querySelectorAll('[data-bundle]').length > 10`},
		{"security", "/security", `!!document.querySelector('[data-guard-state]') && !!document.querySelector('[data-model]')`},
		{"backups", "/backups", `!!document.querySelector('[data-verdict]')`},
		{"trash", "/trash", `!!document.querySelector('.empty, .row')`},
		{"transfer", "/transfer", `!!document.querySelector('[data-testid=import-file]')`},
		{"people", "/vault", `!!document.querySelector('[data-sender], .vault-senders p, [data-page]')`},
		{"agenda", "/agenda", `!!document.querySelector('.agenda-item, .agenda-proposal, .empty')`},
		{"drawer", "/board?case=" + vat, `!!document.querySelector('.drawer .note')`},
		{"not-found", "/no-such-view", `document.querySelector('h1')?.textContent === 'Nothing here'`},
	}
	tb := newTab(t, 1280, 900)
	check := func(name, path, ready string) {
		t.Helper()
		tb.do(chromedp.Navigate(b.URL + path))
		tb.waitFor(name+" data", ready+` && !document.querySelector('.spinner') && document.fonts.status === 'loaded'`)
		for _, v := range tb.axe(src) {
			t.Errorf("%s (%s): axe-core %s [%s] on %d nodes: %s\n    %s", name, path, v.ID, v.Impact, v.Count, v.Help, strings.Join(v.Nodes, "\n    "))
		}
	}
	for _, v := range views {
		check(v.name, v.path, v.ready)
	}
	// The guard absent: the Security view says it is unreachable.
	g.Stop()
	check("security-absent", "/security", `!!document.querySelector('[data-guard-state="unreachable"]')`)
	tb.noProblems("axe", "Failed to load resource")
}
