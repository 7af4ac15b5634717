package web

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestImportFromThePage(t *testing.T) {
	b := startBoard(t)
	file := filepath.Join(t.TempDir(), "website.json")
	if err := os.WriteFile(file, []byte(`{"id": "b1", "name": "Website",
	  "labels": [{"id": "l1", "name": "Bug", "color": "red"}],
	  "lists": [{"id": "L1", "name": "Doing"}],
	  "cards": [{"id": "c1", "name": "Fix header", "idList": "L1", "idLabels": ["l1"]}, {"id": "c2", "name": "Dark mode", "idList": "L1"}],
	  "checklists": [{"id": "k1", "idCard": "c1", "checkItems": [{"id": "i1", "name": "Find cause", "state": "incomplete"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/transfer")
	tb.do(chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-file"]`), []string{file}))
	tb.waitFor("the file read", `!document.querySelector('.btn-primary').disabled`)
	tb.click(`.btn-primary`)
	tb.waitFor("the dry run's counts", `document.querySelector('[data-count=cases]')?.textContent === '2' && document.querySelector('[data-count=initiatives]')?.textContent === '1' && document.querySelector('[data-count=tasks]')?.textContent === '1'`)
	tb.shot("import-dry-run")
	if findCase(b.cases(), "Fix header") != nil {
		t.Fatal("the dry run wrote")
	}
	tb.do(chromedp.Click(chromedp.Search(`//button[normalize-space()='Apply']`)))
	var c *wire.Case
	testkit.Eventually(t, "the imported card", func() bool { c = findCase(b.cases(), "Fix header"); return c != nil })
	if c.Status != wire.LaneInProgress || c.SourceID != "trello:c1" || len(c.Tasks) != 1 {
		t.Errorf("imported: %+v", c)
	}
	tb.waitFor("the dry run to close", `!document.querySelector('[data-testid=import-dry-run]')`)
	tb.noProblems("import")
}

func TestDateInWordsResolvesBeforeSaving(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board")
	var want wire.DateParse
	b.decode("/api/dates/parse?text="+url.QueryEscape("tomorrow 9am"), &want)

	tb.do(chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	tb.waitFor("the command bar", commandBarFocused)
	tb.do(chromedp.KeyEvent("remind Renew passport tomorrow 9am"))
	tb.waitFor("the resolved date", fmt.Sprintf(`(document.querySelector('.command-row.sel') || {}).textContent?.includes(%s)`, jsString("remind Renew passport "+want.DueAt)))
	var sub string
	tb.eval(`document.querySelector('.command-row.sel .command-sub').textContent`, &sub)
	if sub == "" || sub[:4] != "Due " {
		t.Errorf("the row says %q, want the resolved date", sub)
	}
	tb.shot("command-date-in-words")
	tb.do(chromedp.KeyEvent(kb.Enter))
	var list struct {
		Reminders []wire.Reminder `json:"reminders"`
	}
	testkit.Eventually(t, "the reminder", func() bool {
		b.decode("/api/reminders", &list)
		return len(list.Reminders) == 1
	})
	if r := list.Reminders[0]; r.Title != "Renew passport" || r.DueAt != want.DueAt {
		t.Errorf("reminder %q due %q, want %q due %q", r.Title, r.DueAt, "Renew passport", want.DueAt)
	}
	tb.noProblems("date in words")
}

func TestReminderDialogTakesADateInWords(t *testing.T) {
	b := startBoard(t)
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/reminders")
	var want wire.DateParse
	b.decode("/api/dates/parse?text="+url.QueryEscape("in 3 days"), &want)

	tb.do(chromedp.Click(chromedp.Search(`//button[normalize-space()='New reminder']`)))
	tb.waitFor("the dialog", `!!document.querySelector('#reminder-form')`)
	tb.do(chromedp.SendKeys(chromedp.CSS(`#reminder-form input[required]`), "Water the plants"))
	tb.do(chromedp.SendKeys(chromedp.CSS(`input[aria-label="Due in words"]`), "in 3 days"))
	tb.waitFor("the resolved date", `document.querySelector('[data-testid=nl-date-resolved]')?.textContent.includes('Use')`)
	tb.do(chromedp.Click(chromedp.Search(`//button[normalize-space()='Use']`)))
	tb.waitFor("the date field set", fmt.Sprintf(`document.querySelector('#reminder-form input[type=date]').value === %s`, jsString(want.DueAt)))
	tb.do(chromedp.Click(chromedp.Search(`//button[normalize-space()='Add reminder']`)))
	var list struct {
		Reminders []wire.Reminder `json:"reminders"`
	}
	testkit.Eventually(t, "the reminder", func() bool {
		b.decode("/api/reminders", &list)
		return len(list.Reminders) == 1
	})
	if r := list.Reminders[0]; r.Title != "Water the plants" || r.DueAt != want.DueAt || !want.AllDay {
		t.Errorf("reminder %+v, want due %s (all day)", r, want.DueAt)
	}
	tb.noProblems("reminder date in words")
}

// A case's due date can be said in words in its drawer; the page shows the
// resolved moment before it saves it.
func TestCaseDueInWordsFromTheDrawer(t *testing.T) {
	b := startBoard(t)
	id := str(b.call("POST", "/api/cases", map[string]any{"title": "Send the invoice"}, false), "case", "id")
	var want wire.DateParse
	b.decode("/api/dates/parse?text="+url.QueryEscape("tomorrow 9am"), &want)
	if want.AllDay {
		t.Fatalf("tomorrow 9am resolved to a day: %+v", want)
	}
	tb := newTab(t, 1280, 860)
	tb.open(b.URL + "/board?case=" + id)
	tb.waitFor("the drawer", `!!document.querySelector('.drawer input[aria-label="Case due in words"]')`)
	tb.do(chromedp.SendKeys(chromedp.CSS(`input[aria-label="Case due in words"]`), "tomorrow 9am"))
	tb.waitFor("the resolved moment", `document.querySelector('.drawer [data-testid=nl-date-resolved]')?.textContent.includes('09:00')`)
	tb.click(`.drawer [data-testid=nl-date-resolved] button`)
	var got struct {
		Case wire.Case `json:"case"`
	}
	testkit.Eventually(t, "the due date saved", func() bool {
		b.decode("/api/cases/"+id, &got)
		return got.Case.DueAt != ""
	})
	if got.Case.DueAt != want.DueAt[:16] {
		t.Errorf("case due %q, want %q (the resolved wall time)", got.Case.DueAt, want.DueAt[:16])
	}
	tb.noProblems("case due in words")
}
