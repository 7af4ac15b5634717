package demo

import (
	"net/http"
	"time"
)

// vaultWait bounds how long the seed waits for the board's first scan of
// its vault folder: the vault routes answer 503 until it ends, and a demo's
// folder is new and empty, so it ends at once.
const vaultWait = 10 * time.Second

// vaultReady waits while the vault says it is still loading; false when
// it never answered (a board without a vault seeds everything else).
func (w *writer) vaultReady() bool {
	deadline := time.Now().Add(vaultWait)
	for w.err == nil && w.ctx.Err() == nil {
		req, err := http.NewRequestWithContext(w.ctx, http.MethodGet, w.base+"/api/vault?limit=1", nil)
		if err != nil {
			return false
		}
		resp, err := w.hc.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			return resp.StatusCode == http.StatusOK
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// vault seeds the people and organisations the demo's mail comes from and
// links each to its cases, so the People view, the page panel and the
// case drawer's linked pages have something to show. It runs before the
// mail, so the board resolves each message's sender to its page.
func (d *script) vault() {
	w := d.w
	if !w.vaultReady() {
		return
	}
	page := func(agent bool, body map[string]any) string {
		return pageID(w.call(http.MethodPost, "/api/vault/pages", body, agent))
	}
	elena := page(false, map[string]any{"title": "Elena Vogt", "type": "person", "emails": []string{"elena@ledgerwise.example"}, "aliases": []string{"Elena"},
		"body": "Our accountant at Ledgerwise. Prefers a call to a long thread.\n"})
	ledgerwise := page(false, map[string]any{"title": "Ledgerwise", "type": "organization", "domains": []string{"ledgerwise.example"},
		"body": "Accounting firm: VAT, payroll, year-end.\n"})
	trustline := page(true, map[string]any{"title": "Trustline Audit", "type": "organization", "domains": []string{"trustline.example"}, "aliases": []string{"Trustline"},
		"body": "The SOC 2 auditor since last year.\n"})
	maya := page(true, map[string]any{"title": "Maya Reyes", "type": "person", "emails": []string{"maya@studio.example"}, "aliases": []string{"Maya R."},
		"body": "Designer on the shortlist; strong on systems work.\n"})
	cto := page(false, map[string]any{"title": "Sam Okafor", "type": "person", "emails": []string{"cto@bigcustomer.example"},
		"body": "CTO at our largest customer. Hear pricing news from me first.\n"})
	link := func(caseID string, ids ...string) {
		var keep []string
		for _, id := range ids {
			if id != "" {
				keep = append(keep, id)
			}
		}
		if caseID != "" && len(keep) > 0 {
			w.call(http.MethodPatch, "/api/cases/"+caseID, map[string]any{"vaultLinks": keep}, false)
		}
	}
	link(d.vat, elena, ledgerwise)
	link(d.soc2, trustline)
	link(d.portfolio, maya)
	link(d.top50, cto)
	link(d.hiring, maya)
}

// pageID reads a page's id from a page write's answer ({"page": {...}}).
func pageID(res map[string]any) string { return id(res, "page") }
