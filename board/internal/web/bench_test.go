package web

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/opsboard/opsboard/board/internal/testkit"
)

// BenchmarkPageAtAYearOfUse measures the page in headless Chromium on a
// one-case board and on a board at a year of use (1,000 cases, 10,000 linked
// messages, about 20 MB): how long each view takes to draw its data after a
// navigation, how long an agent's write takes to show in the open page, and
// how many bytes the page fetches for one changed record. Figures in
// docs/ui.md. It needs -bench and is skipped with -short.
func BenchmarkPageAtAYearOfUse(b *testing.B) {
	if testing.Short() {
		b.Skip("drives a browser over a 20 MB board")
	}
	boards := []struct {
		name  string
		board *board
	}{
		{"one-case", startBoardOn(b, testkit.BoardDoc(1))},
		{"1k-cases-10k-messages", startBoardOn(b, testkit.BoardDoc(1000))},
	}
	views := []struct{ name, path, ready string }{
		{"board", "/board", `document.querySelectorAll('[data-card]').length > 0`},
		{"strategy", "/strategy", `!!document.querySelector('.strategy')`},
		{"inbox", "/inbox", `document.querySelectorAll('.inbox-item').length > 0`},
	}
	// Each round loads the view on both boards, one after the other, so
	// the ratio compares runs made under the same load of the machine.
	for _, v := range views {
		b.Run("render/"+v.name, func(b *testing.B) {
			tb := newTab(b, 1280, 860)
			var small, big, ratio []float64
			for b.Loop() {
				s := firstRender(b, tb, boards[0].board.URL+v.path, v.ready)
				l := firstRender(b, tb, boards[1].board.URL+v.path, v.ready)
				small, big, ratio = append(small, s), append(big, l), append(ratio, l/s)
			}
			b.ReportMetric(median(small), "ms-one-case")
			b.ReportMetric(median(big), "ms-1k-cases")
			b.ReportMetric(median(ratio), "x-slower")
			b.ReportMetric(0, "ns/op")
		})
	}
	// Where an agent's rename shows: the first card of the kanban, the
	// first ungrouped case of the tree.
	targets := []struct{ name, path, id, titles string }{
		{"board", "/board", `document.querySelector('[data-card]').dataset.id`, ".card-title"},
		{"strategy", "/strategy", `document.querySelector('.tree-loose .node .card-id').textContent`, ".node-title"},
	}
	for _, tg := range targets {
		for _, bd := range boards {
			writeVisible(b, bd.name, bd.board, tg.name, tg.path, tg.id, tg.titles)
		}
	}
}

// writeVisible measures, on the view at path, how long an agent's rename
// takes to show and how many bytes the page fetches for it.
func writeVisible(b *testing.B, boardName string, bd *board, view, path, idExpr, titleSel string) {
	b.Run("write-visible/"+view+"/"+boardName, func(b *testing.B) {
		tb := newTab(b, 1280, 860)
		tb.open(bd.URL + path)
		tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
		var ms []float64
		var bytes []float64
		n := 0
		for b.Loop() {
			n++
			mark := bd.requestCount()
			ms = append(ms, agentWriteVisible(b, tb, idExpr, titleSel, fmt.Sprintf("Renamed by the agent %d", n)))
			time.Sleep(300 * time.Millisecond) // let any late fetch land in the count
			sum := 0
			for _, r := range bd.requests(mark) {
				if r.Method == "GET" {
					sum += r.Bytes
				}
			}
			bytes = append(bytes, float64(sum))
		}
		b.ReportMetric(median(ms), "ms-p50-visible")
		b.ReportMetric(median(bytes), "B/change")
		b.ReportMetric(0, "ns/op")
	})
}

// firstRender loads url in a fresh document and returns the milliseconds
// from the start of the navigation until ready holds in the page.
func firstRender(b *testing.B, tb *tab, url, ready string) float64 {
	b.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	at, err := chromedp.Run(ctx, chromedp.Poll[float64](fmt.Sprintf(`(%s) && !document.querySelector('.spinner') ? performance.now() : 0`, ready),
		chromedp.WithPollingTimeout(50*time.Second)))
	if err != nil {
		b.Fatalf("%s: %v\n%s", url, err, tb.consoleText())
	}
	return at
}

// agentWriteVisible renames the case idExpr names as the agent would (a
// PATCH with x-actor: agent) and returns the milliseconds from sending it
// until an element of titleSel shows the new title, timed inside the page.
func agentWriteVisible(b *testing.B, tb *tab, idExpr, titleSel, title string) float64 {
	b.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`(async () => {
		const title = %q;
		const id = %s;
		const shown = () => [...document.querySelectorAll(%q)].some((e) => e.textContent === title);
		const seen = new Promise((resolve) => {
			const obs = new MutationObserver(() => { if (shown()) { obs.disconnect(); resolve(performance.now()); } });
			obs.observe(document.body, { subtree: true, childList: true, characterData: true });
		});
		const t0 = performance.now();
		const res = await fetch('/api/cases/' + encodeURIComponent(id), { method: 'PATCH',
			headers: { 'Content-Type': 'application/json', 'x-actor': 'agent' }, body: JSON.stringify({ title }) });
		if (!res.ok) throw new Error('write refused: ' + res.status);
		return (await seen) - t0;
	})()`, title, idExpr, titleSel), chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("agent write: %v\n%s", err, tb.consoleText())
	}
	return ms
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
