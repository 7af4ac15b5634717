package web

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/board/internal/testkit/guardtest"
	"github.com/opsboard/opsboard/shared/wire"
)

// One headless Chromium serves every test of the package; each test works in
// its own tabs.
var chrome struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	dir    string
	err    error
	shots  string
}

func TestMain(m *testing.M) {
	code := m.Run()
	guardtest.Cleanup()
	if chrome.cancel != nil {
		chrome.cancel()
	}
	if chrome.dir != "" {
		os.RemoveAll(chrome.dir)
	}
	os.Exit(code)
}

func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, _ := exec.LookPath("chromium")
	return p
}

// browser starts the shared browser on first use. Without Chromium the
// browser tests skip, except in CI, where they fail.
func browser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed: scripts/test-deps.sh installs it")
		}
		t.Skip("chromium is not installed: scripts/test-deps.sh installs it")
	}
	chrome.once.Do(func() {
		chrome.dir, chrome.err = os.MkdirTemp("", "opsboard-chromium-")
		if chrome.err != nil {
			return
		}
		// Screenshots are the suite's artifacts: they outlive the run.
		if chrome.shots, chrome.err = os.MkdirTemp("", "opsboard-screenshots-"); chrome.err != nil {
			return
		}
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("force-color-profile", "srgb"),
			chromedp.Flag("hide-scrollbars", true),
			chromedp.UserDataDir(filepath.Join(chrome.dir, "profile")),
			chromedp.WindowSize(1280, 860),
		)
		ctx, cancel := chromedp.NewContext(alloc)
		chrome.ctx = ctx
		chrome.cancel = func() { cancel(); cancelAlloc() }
		chrome.err = chromedp.Do(ctx) // starts the browser; this first tab stays blank
	})
	if chrome.err != nil {
		t.Fatalf("start chromium: %v", chrome.err)
	}
	return chrome.ctx
}

// tab is one page of the shared browser with the console it wrote.
type tab struct {
	t   testing.TB
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

func newTab(t testing.TB, width, height int64) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser(t))
	t.Cleanup(cancel)
	tb := &tab{t: t, ctx: ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatal(err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			tb.mu.Lock()
			tb.console = append(tb.console, m)
			tb.mu.Unlock()
		}
	}()
	return tb
}

// do runs actions with a bound, so a broken page fails the test instead of
// hanging it.
func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 45*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.t.Fatalf("browser: %v\nconsole:\n%s", err, tb.consoleText())
	}
}

func (tb *tab) eval(expr string, out any) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", expr, err)
	}
	switch p := out.(type) {
	case *bool:
		*p, _ = v.(bool)
	case *float64:
		*p, _ = v.(float64)
	case *string:
		*p, _ = v.(string)
	case *any:
		*p = v
	}
}

// waitFor waits, up to a generous bound, for a JavaScript condition.
func (tb *tab) waitFor(what, expr string) {
	tb.t.Helper()
	deadline := time.Now().Add(35 * time.Second)
	for {
		ctx, cancel := context.WithDeadline(tb.ctx, deadline.Add(5*time.Second))
		_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(time.Until(deadline))))
		cancel()
		if err == nil {
			return
		}
		// A navigation that lands while the poll runs replaces the page's
		// context: poll again in the new page.
		if strings.Contains(err.Error(), "context") && strings.Contains(err.Error(), "-32000") && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		tb.t.Fatalf("waiting for %s (%s): %v\nconsole:\n%s", what, expr, err, tb.consoleText())
	}
}

// open loads a page and waits until the view has drawn its data.
func (tb *tab) open(url string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(url))
	tb.settle()
}

// settle waits for the view's title and the end of its first load.
func (tb *tab) settle() {
	tb.t.Helper()
	tb.waitFor("the view to draw", `!!document.querySelector('#page-title, #drawer-title') && !document.querySelector('.spinner') && document.fonts.status === 'loaded'`)
	tb.do(chromedp.Sleep(150 * time.Millisecond)) // let transitions end before a screenshot
}

func (tb *tab) consoleText() string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var b strings.Builder
	for _, m := range tb.console {
		fmt.Fprintf(&b, "  %s (%s:%d)\n", m, m.URL, m.Line)
	}
	return b.String()
}

// problems are the console errors and uncaught exceptions so far.
func (tb *tab) problems() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []string
	for _, m := range tb.console {
		if m.IsException() || m.Type == "error" || m.Type == "assert" {
			out = append(out, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line))
		}
	}
	return out
}

// noProblems fails the test on console errors, except those containing one
// of the expected strings (a refused write the test provoked on purpose).
// unlabeled lists the visible controls a screen reader could not name.
func (tb *tab) unlabeled() []string {
	tb.t.Helper()
	var v any
	tb.eval(`[...document.querySelectorAll('a[href], button, input, select, textarea, [role=button], [role=radio], [role=menuitem], [role=option]')]
		.filter((el) => el.offsetParent !== null && el.type !== 'hidden')
		.filter((el) => !((el.getAttribute('aria-label') || '').trim() || el.getAttribute('aria-labelledby') || (el.labels && el.labels.length) ||
			(el.closest('label') && el.closest('label').textContent.trim()) || (el.title || '').trim() ||
			(!/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.textContent.trim())))
		.map((el) => el.outerHTML.slice(0, 160))`, &v)
	var out []string
	for _, x := range asSlice(v) {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func (tb *tab) noProblems(where string, expected ...string) {
	tb.t.Helper()
	var left []string
outer:
	for _, p := range tb.problems() {
		for _, e := range expected {
			if strings.Contains(p, e) {
				continue outer
			}
		}
		left = append(left, p)
	}
	if len(left) > 0 {
		tb.t.Errorf("%s: console errors:\n  %s", where, strings.Join(left, "\n  "))
	}
}

// shot saves a screenshot of the viewport and logs where it is.
func (tb *tab) shot(name string) string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	time.Sleep(250 * time.Millisecond) // let a dialog's fade-in end
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(chrome.shots, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Logf("screenshot %s: %s", name, path)
	return path
}

// click clicks the first element matching sel as a person would, once
// nothing covers its middle. A click lands wherever the pointer is: a toast
// still showing over a button took the click on slow runs, and the test
// failed far from the cause.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	tb.waitFor("nothing over "+sel, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		e.scrollIntoView({block: 'nearest', inline: 'nearest'});
		const r = e.getBoundingClientRect(), at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return !!at && (at === e || e.contains(at)); })()`, sel))
	tb.do(chromedp.Click(chromedp.CSS(sel)))
}

// center is the viewport point at the middle of the first element matching sel.
func (tb *tab) center(sel string) (float64, float64) {
	tb.t.Helper()
	var v any
	tb.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return null; e.scrollIntoView({block: 'center', inline: 'center'});
		const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel), &v)
	xy, ok := v.([]any)
	if !ok || len(xy) != 2 {
		tb.t.Fatalf("no element %s", sel)
	}
	return xy[0].(float64), xy[1].(float64)
}

func findCase(cases []wire.Case, title string) *wire.Case {
	for i := range cases {
		if cases[i].Title == title {
			return &cases[i]
		}
	}
	return nil
}

// commandBarFocused holds once the command bar is open and takes typing.
const commandBarFocused = `!!document.activeElement && document.activeElement.matches('.command input')`

func jsString(s string) string { return fmt.Sprintf("%q", s) }

// cardSel selects the kanban card of a case.
func cardSel(id string) string { return fmt.Sprintf(`[data-card][data-id=%q]`, id) }

func TestCreateCaseFromThePage(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.click(`button[aria-label="Add a case to To do"]`)
	tb.waitFor("the quick-add field", `document.activeElement && document.activeElement.getAttribute('aria-label') === 'New case title in To do'`)
	tb.do(chromedp.KeyEvent("Call the landlord about the deposit" + kb.Enter))

	var created *wire.Case
	testkit.Eventually(t, "the case on the board", func() bool {
		created = findCase(b.cases(), "Call the landlord about the deposit")
		return created != nil
	})
	if created.Status != "todo" {
		t.Errorf("status %q, want todo", created.Status)
	}
	if len(created.Activity) == 0 || created.Activity[0].Actor != wire.ActorHuman {
		t.Errorf("activity %+v: want the creation attributed to human", created.Activity)
	}
	tb.waitFor("the card on the page", fmt.Sprintf(`!!document.querySelector(%s)`, jsString(cardSel(created.ID))))
	tb.noProblems("create a case")
}

func TestDragCardToAnotherLane(t *testing.T) {
	b := startBoard(t)
	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Sign the lease", "status": "todo"}, false), "case", "id")
	b.call("POST", "/api/cases", map[string]any{"title": "Already in progress", "status": "in_progress"}, false)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the card", fmt.Sprintf(`!!document.querySelector(%s)`, jsString(cardSel(id))))
	x0, y0 := tb.center(cardSel(id) + " .card-title")
	x1, y1 := tb.center(`[data-lane="in_progress"] .lane-add`)
	tb.do(chromedp.DragAndDropXY(x0, y0, x1, y1, 12))

	testkit.Eventually(t, "status in_progress", func() bool {
		c := findCase(b.cases(), "Sign the lease")
		return c != nil && c.Status == "in_progress"
	})
	c := findCase(b.cases(), "Sign the lease")
	var moved *wire.Activity
	for i := range c.Activity {
		if c.Activity[i].Verb == "status_changed" {
			moved = &c.Activity[i]
		}
	}
	if moved == nil || moved.Actor != wire.ActorHuman || moved.Detail != "todo → in_progress" {
		t.Errorf("status change activity %+v: want human, todo → in_progress", moved)
	}
	tb.waitFor("the card in its new lane", fmt.Sprintf(`!!document.querySelector('[data-lane="in_progress"] ' + %s)`, jsString(cardSel(id))))

	// Within the lane: drag it above the card that was there first.
	x0, y0 = tb.center(cardSel(id) + " .card-title")
	x1, y1 = tb.center(`[data-lane="in_progress"] [data-card]:first-child .card-title`)
	tb.do(chromedp.DragAndDropXY(x0, y0, x1, y1-14, 12))
	tb.waitFor("the card first in its lane", fmt.Sprintf(`document.querySelector('[data-lane="in_progress"] [data-card]').dataset.id === %q`, id))
	c = findCase(b.cases(), "Sign the lease")
	if c.Position == nil || c.Status != "in_progress" {
		t.Errorf("after the reorder: status %s, position %v", c.Status, c.Position)
	}
	tb.noProblems("drag a card")
}

func TestAgentWriteAppearsWithoutReload(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.do(chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))

	res := b.call("POST", "/api/cases", map[string]any{"title": "Filed by the agent", "status": "urgent", "labels": []string{"follow-up"}}, true)
	id := str(res, "case", "id")
	tb.waitFor("the agent's card", fmt.Sprintf(`!!document.querySelector('[data-lane="urgent"] ' + %s)`, jsString(cardSel(id))))

	b.call("PATCH", "/api/cases/"+id, map[string]any{"status": "done"}, true)
	tb.waitFor("the agent's move", fmt.Sprintf(`!!document.querySelector('[data-lane="done"] ' + %s)`, jsString(cardSel(id))))

	var same bool
	tb.eval(`window.__sameDocument === true`, &same)
	if !same {
		t.Error("the page reloaded; it should have refetched in place")
	}
	tb.noProblems("live refresh")
}

func TestPageResyncsAfterBoardRestart(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	tb.do(chromedp.Evaluate[chromedp.Void](`window.__sameDocument = true`))

	b.restart()
	// A write while the page is still reconnecting, and one after.
	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Written across a restart"}, true), "case", "id")
	tb.waitFor("the card after the restart", fmt.Sprintf(`!!document.querySelector(%s)`, jsString(cardSel(id))))
	tb.waitFor("the stream again", `!!document.querySelector('.live-dot.live')`)
	id2 := str(b.call("POST", "/api/cases", map[string]any{"title": "Written after the reconnect"}, true), "case", "id")
	tb.waitFor("the second card", fmt.Sprintf(`!!document.querySelector(%s)`, jsString(cardSel(id2))))
	var same bool
	tb.eval(`window.__sameDocument === true`, &same)
	if !same {
		t.Error("the page reloaded; it should have re-synced in place")
	}
}

func TestTextEditConflictKeepsTheText(t *testing.T) {
	b := startBoard(t)
	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Plan the offsite", "summary": "Two days, Berlin."}, false), "case", "id")
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board?case=" + id)
	tb.waitFor("the summary", `!!document.querySelector('.summary-edit')`)
	tb.click(`.summary-edit`)
	tb.do(chromedp.KeyEvent(" Book the venue first."))
	tb.waitFor("the save button", `[...document.querySelectorAll('button')].some(b => b.textContent === 'Save summary')`)
	// The agent edits the same case meanwhile.
	b.call("PATCH", "/api/cases/"+id, map[string]any{"summary": "Three days, Lisbon."}, true)
	tb.do(chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('button')].find(b => b.textContent === 'Save summary').click()`))
	tb.waitFor("the conflict notice", `!!document.querySelector('.conflict') && document.querySelector('.conflict').textContent.includes('summary')`)
	var text string
	tb.eval(`document.querySelector('.summary-edit').value`, &text)
	if text != "Two days, Berlin. Book the venue first." {
		t.Errorf("the person's text became %q", text)
	}
	tb.shot("conflict")
	// Saving again applies it.
	tb.do(chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('button')].find(b => b.textContent === 'Save summary').click()`))
	testkit.Eventually(t, "the person's summary saved", func() bool {
		c := findCase(b.cases(), "Plan the offsite")
		return c != nil && c.Summary == "Two days, Berlin. Book the venue first."
	})
	tb.noProblems("conflict", "status of 409 (Conflict)")
}

// TestEveryViewLoads opens each view on a board full of sample data, checks
// the console stayed clean and saves a screenshot of each.
func TestEveryViewLoads(t *testing.T) {
	b := startBoard(t)
	ids := sample(b)
	soc2 := ids["Renew the SOC 2 report with the auditor"]
	vat := ids["VAT handling for EU customers"]

	views := []struct{ name, path, ready string }{
		{"board", "/board", `document.querySelectorAll('[data-card]').length > 10`},
		{"home", "/", `!!document.querySelector('[data-card], .node-row')`},
		{"strategy", "/strategy", `document.querySelectorAll('.node-row').length > 5`},
		{"drawer", "/board?case=" + vat, `!!document.querySelector('.drawer .note')`},
		{"inbox", "/inbox", `document.querySelectorAll('.inbox-row').length >= 3`},
		{"inbox-message", "/inbox?m=M-1", `!!document.querySelector('.message-body')`},
		{"activity", "/activity", `document.querySelectorAll('.feed-row').length > 5`},
		{"calendar", "/calendar", `document.querySelectorAll('.ev').length >= 4`},
		{"calendar-week", "/calendar?mode=week", `document.querySelectorAll('.ev').length >= 3`},
		{"reminders", "/reminders", `document.querySelectorAll('.reminder').length >= 3`},
		{"priorities", "/priorities", `document.querySelectorAll('.prio').length === 3 && document.querySelectorAll('.starred-row').length === 3`},
		{"approvals", "/approvals", `document.querySelectorAll('.proposal').length === 2 && !!document.querySelector('.target.changed')`},
		{"trash", "/trash", `!!document.querySelector('.empty, .row')`},
		{"backups-unset", "/backups", `!!document.querySelector('[data-verdict="error"]')`},
		{"labels", "/labels", `document.querySelectorAll('[data-bundle]').length === 37 && document.querySelectorAll('[data-label]').length >= 11`},
		{"transfer", "/transfer", `!!document.querySelector('[data-testid=import-file]')`},
		{"people", "/vault", `!!document.querySelector('[data-sender], .vault-senders p')`},
		{"saved-view", "/board?view=x&domain=work&starred=1", `document.querySelectorAll('[data-card]').length >= 1`},
	}
	desktop := newTab(t, 1280, 860)
	for _, v := range views {
		desktop.open(b.URL + v.path)
		desktop.waitFor(v.name+" data", v.ready)
		desktop.shot(v.name)
		desktop.noProblems(v.name)
		if bad := desktop.unlabeled(); len(bad) > 0 {
			t.Errorf("%s: controls without an accessible name:\n  %s", v.name, strings.Join(bad, "\n  "))
		}
	}

	// The command bar, the shortcut sheet and the template dialog.
	desktop.open(b.URL + "/board")
	desktop.do(chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	desktop.waitFor("the command bar", commandBarFocused)
	desktop.do(chromedp.KeyEvent("SOC"))
	desktop.waitFor("search results", `(document.querySelector('.command-row.sel') || {}).textContent?.includes('Renew the SOC 2 report')`)
	desktop.shot("command-bar")
	desktop.do(chromedp.KeyEvent(kb.Enter))
	desktop.waitFor("the jump to the case", fmt.Sprintf(`location.search.includes('case=%s') && !!document.querySelector('.drawer')`, soc2))
	desktop.do(chromedp.KeyEvent(kb.Escape))
	desktop.waitFor("the drawer to close", `!document.querySelector('.drawer')`)
	desktop.do(chromedp.KeyEvent("?"))
	desktop.waitFor("the shortcut sheet", `!!document.querySelector('.shortcuts')`)
	desktop.shot("shortcuts")
	desktop.do(chromedp.KeyEvent(kb.Escape))
	desktop.click(`.page-board .btn-row .btn:first-child`)
	desktop.waitFor("the template dialog", `!!document.querySelector('#newcase-form select[aria-label="Template"] option:nth-child(2)')`)
	desktop.shot("new-from-template")
	desktop.noProblems("overlays")

	// A command run from the bar writes through /api/command.
	desktop.do(chromedp.KeyEvent(kb.Escape))
	desktop.waitFor("the dialog to close", `!document.querySelector('.modal-backdrop')`)
	// The closing dialog hands focus back on its own schedule; on a loaded
	// machine that can land after the bar opened and take the keystrokes.
	// So the bar is opened and typed into until it holds the whole command
	// (a few tries, each logged): what is asserted is that the command typed
	// there runs through /api/command.
	const command = "new Book the team dinner"
	for try := 1; ; try++ {
		desktop.do(chromedp.KeyEvent("/"))
		desktop.waitFor("the command bar", commandBarFocused)
		desktop.do(chromedp.KeyEvent(command))
		var typed string
		for range 40 {
			desktop.eval(`document.activeElement && document.activeElement.matches('.command input') ? document.activeElement.value : '(focus left the bar)'`, &typed)
			if typed == command {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if typed == command {
			break
		}
		if try == 3 {
			t.Fatalf("the command bar holds %q after %d tries, want %q\nconsole:\n%s", typed, try, command, desktop.consoleText())
		}
		t.Logf("try %d: the command bar held %q; opening it again", try, typed)
		desktop.do(chromedp.KeyEvent(kb.Escape))
		desktop.open(b.URL + "/board")
	}
	desktop.do(chromedp.KeyEvent(kb.Enter))
	testkit.Eventually(t, "the case the command made", func() bool { return findCase(b.cases(), "Book the team dinner") != nil })

	// The Strategy toggle persists in /api/prefs.
	desktop.open(b.URL + "/board")
	desktop.click(`.segmented [role=radio]:nth-child(2)`)
	desktop.waitFor("the tree", `document.querySelectorAll('.node-row').length > 5`)
	testkit.Eventually(t, "prefs view strategy", func() bool {
		var p struct {
			Prefs map[string]any `json:"prefs"`
		}
		b.decode("/api/prefs", &p)
		return p.Prefs["view"] == "strategy"
	})
	desktop.open(b.URL + "/")
	desktop.waitFor("the home page to follow the preference", `document.querySelectorAll('.node-row').length > 5`)
	desktop.noProblems("strategy toggle")

	// Phone width.
	phone := newTab(t, 390, 844)
	for _, v := range []struct{ name, path, ready string }{
		{"phone-board", "/board", `document.querySelectorAll('[data-card]').length > 3`},
		{"phone-drawer", "/board?case=" + soc2, `!!document.querySelector('.drawer .note')`},
		{"phone-inbox", "/inbox", `document.querySelectorAll('.inbox-row').length >= 3`},
		{"phone-calendar", "/calendar", `document.querySelectorAll('.ev').length >= 4`},
	} {
		phone.open(b.URL + v.path)
		phone.waitFor(v.name+" data", v.ready)
		phone.shot(v.name)
		phone.noProblems(v.name)
	}
	phone.open(b.URL + "/board")
	phone.click(`.topbar button[aria-label="Open navigation"]`)
	phone.waitFor("the navigation", `!!document.querySelector('.sidebar.open')`)
	phone.do(chromedp.Sleep(300 * time.Millisecond))
	phone.shot("phone-nav")

	// Dark theme, as a system set to dark shows it.
	dark := newTab(t, 1280, 860)
	dark.do(chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
		})
		return err
	}))
	for _, v := range []struct{ name, path, ready string }{
		{"dark-board", "/board", `document.querySelectorAll('[data-card]').length > 10`},
		{"dark-drawer", "/strategy?case=" + vat, `!!document.querySelector('.drawer .note')`},
		{"dark-calendar", "/calendar?mode=week", `document.querySelectorAll('.ev').length >= 3`},
		{"dark-labels", "/labels", `document.querySelectorAll('[data-bundle]').length === 37`},
	} {
		dark.open(b.URL + v.path)
		dark.waitFor(v.name+" data", v.ready)
		dark.shot(v.name)
		dark.noProblems(v.name)
	}

	if out := os.Getenv("OPSBOARD_DOCS_SCREENSHOT"); out != "" {
		desktop.do(chromedp.EmulateViewport(1440, 900))
		b.call("PATCH", "/api/prefs", map[string]any{"view": "operational"}, false)
		desktop.open(b.URL + "/board")
		desktop.waitFor("the board", `document.querySelectorAll('[data-card]').length > 10`)
		desktop.do(chromedp.Sleep(300 * time.Millisecond))
		path := desktop.shot("docs-board")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", out)
	}
}

// TestGestures drives the main gestures of the drawer, the tree, the
// priorities, the reminders, the calendar and the inbox, and checks each
// through the API.
func TestGestures(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	get := func(path string) map[string]any { return b.call("GET", path, nil, false) }
	caseByID := func(id string) wire.Case {
		var out struct {
			Case wire.Case `json:"case"`
		}
		b.decode("/api/cases/"+id, &out)
		return out.Case
	}
	// setSelect picks an option as a person would, firing change.
	setSelect := func(sel, value string) {
		tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change', {bubbles: true})); })()`, sel, value)))
	}
	clickText := func(sel, text string) {
		tb.waitFor("a "+sel+" reading "+text, fmt.Sprintf(`[...document.querySelectorAll(%q)].some(e => e.textContent.trim() === %q)`, sel, text))
		tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`[...document.querySelectorAll(%q)].find(e => e.textContent.trim() === %q).click()`, sel, text)))
	}

	t.Run("drawer", func(t *testing.T) {
		id := str(b.call("POST", "/api/cases", map[string]any{"title": "Prepare the offsite"}, false), "case", "id")
		tb.open(b.URL + "/board?case=" + id)
		tb.click(`input[aria-label="New task"]`)
		tb.do(chromedp.KeyEvent("Book the venue" + kb.Enter))
		testkit.Eventually(t, "the task", func() bool { return len(caseByID(id).Tasks) == 1 })
		tb.waitFor("the task row", `!!document.querySelector('[data-task] input[type=checkbox]')`)
		tb.click(`[data-task] input[type=checkbox]`)
		testkit.Eventually(t, "the task completed", func() bool { return caseByID(id).Tasks[0].CompletedAt != "" })

		tb.click(`textarea[aria-label="New note"]`)

		tb.do(chromedp.KeyEvent("Budget is 4k"))
		clickText(".note-form button", "Add note")
		testkit.Eventually(t, "the note", func() bool { n := caseByID(id).Notes; return len(n) == 1 && n[0].Actor == wire.ActorHuman })

		clickText(".label-picker button", "Add label")
		tb.waitFor("the label picker", `!!document.querySelector('.picker-row')`)
		tb.do(chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('.picker-row')].find(r => r.textContent.includes('Quick win')).querySelector('input').click()`))
		testkit.Eventually(t, "the label", func() bool { return slices.Contains(caseByID(id).Labels, "quick-win") })

		setSelect("#f-status", "waiting_for_input")
		testkit.Eventually(t, "the lane", func() bool { return caseByID(id).Status == "waiting_for_input" })
		tb.noProblems("drawer")
	})

	t.Run("strategy regroup by drag", func(t *testing.T) {
		ini := str(b.call("POST", "/api/cases", map[string]any{"title": "Company offsite", "kind": "initiative"}, false), "case", "id")
		leaf := str(b.call("POST", "/api/cases", map[string]any{"title": "Order team shirts"}, false), "case", "id")
		tb.open(b.URL + "/strategy")
		tb.waitFor("the tree", fmt.Sprintf(`!!document.querySelector('[data-drop-parent=%q]')`, ini))
		x0, y0 := tb.center(fmt.Sprintf(`[role=treeitem][data-title=%q] .drag-handle`, "Order team shirts"))
		x1, y1 := tb.center(fmt.Sprintf(`[data-drop-parent=%q] .node-title`, ini))
		tb.do(chromedp.DragAndDropXY(x0, y0, x1, y1, 12))
		testkit.Eventually(t, "the new parent", func() bool { return caseByID(leaf).ParentID == ini })
		tb.noProblems("strategy")
	})

	t.Run("priorities reorder by drag", func(t *testing.T) {
		for i, text := range []string{"First", "Second", "Third"} {
			b.call("POST", "/api/priorities", map[string]any{"text": text, "position": i + 1}, false)
		}
		tb.open(b.URL + "/priorities")
		tb.waitFor("the notes", `document.querySelectorAll('[data-prio]').length === 3`)
		x0, y0 := tb.center(`[data-prio]:nth-child(3) .drag-handle`)
		x1, y1 := tb.center(`[data-prio]:nth-child(1) .prio-n`)
		tb.do(chromedp.DragAndDropXY(x0, y0, x1, y1-12, 12))
		testkit.Eventually(t, "Third first", func() bool {
			res := get("/api/priorities")
			list, _ := res["priorities"].([]any)
			return len(list) == 3 && list[0].(map[string]any)["text"] == "Third"
		})
		tb.noProblems("priorities")
	})

	t.Run("reminders", func(t *testing.T) {
		tb.open(b.URL + "/reminders")
		clickText(".page-head button", "New reminder")
		tb.waitFor("the form", `!!document.querySelector('#reminder-form input[required]')`)
		tb.click(`#reminder-form input[required]`)
		tb.do(chromedp.KeyEvent("Renew the domain"))
		clickText(".modal-foot button", "Add reminder")
		var rid string
		testkit.Eventually(t, "the reminder", func() bool {
			list, _ := get("/api/reminders")["reminders"].([]any)
			for _, r := range list {
				if m := r.(map[string]any); m["title"] == "Renew the domain" {
					rid, _ = m["id"].(string)
				}
			}
			return rid != ""
		})
		tb.click(`button[aria-label="Complete Renew the domain"]`)
		testkit.Eventually(t, "the reminder done", func() bool { return str(get("/api/reminders/"+rid), "reminder", "status") == "done" })
		tb.noProblems("reminders")
	})

	t.Run("calendar", func(t *testing.T) {
		tb.open(b.URL + "/calendar")
		clickText(".page-head button", "New event")
		tb.waitFor("the form", `!!document.querySelector('#event-form input[required]')`)
		tb.click(`#event-form input[required]`)
		tb.do(chromedp.KeyEvent("Dentist"))
		clickText(".modal-foot button", "Add event")
		testkit.Eventually(t, "the event", func() bool {
			list, _ := get("/api/events")["events"].([]any)
			return len(list) == 1 && list[0].(map[string]any)["title"] == "Dentist"
		})
		tb.waitFor("the event on the grid", `[...document.querySelectorAll('.ev')].some(e => e.textContent.includes('Dentist'))`)
		tb.noProblems("calendar")
	})

	t.Run("inbox", func(t *testing.T) {
		id := str(b.call("POST", "/api/cases", map[string]any{"title": "Renew the lease"}, false), "case", "id")
		b.call("POST", "/api/cases/"+id+"/messages", map[string]any{"from": "landlord@example.com", "subject": "Lease renewal", "body": "Please sign by Friday."}, true)
		tb.open(b.URL + "/inbox")
		tb.waitFor("the unread counter", `(document.querySelector('[data-testid=unread-count]') || {}).textContent === '1'`)
		clickText(".inbox-subject", "Lease renewal")
		tb.waitFor("the message read and the counter gone", `!document.querySelector('[data-testid=unread-count]')`)
		setSelect(`select[aria-label="Link to a case"]`, "")
		testkit.Eventually(t, "the message unlinked", func() bool {
			list, _ := get("/api/messages")["messages"].([]any)
			return len(list) == 1 && list[0].(map[string]any)["caseId"] == nil && list[0].(map[string]any)["read"] == true
		})
		tb.noProblems("inbox")
	})
}

func TestDegradedStoreShowsABanner(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	if err := os.WriteFile(b.Path, []byte("{ this is not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the store to notice", func() bool {
		var h struct {
			Degraded bool `json:"degraded"`
		}
		b.decode("/api/health", &h)
		return h.Degraded
	})
	// The board keeps serving and journaling; the next change tells the page.
	b.call("POST", "/api/cases", map[string]any{"title": "Still works"}, true)
	tb.waitFor("the banner", `!!document.querySelector('.banner-danger') && document.querySelector('.banner-danger').textContent.includes('does not parse')`)
	tb.shot("degraded")
	tb.noProblems("degraded")
}
