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
	for _, v := range views {
		for _, bd := range boards {
			b.Run("render/"+v.name+"/"+bd.name, func(b *testing.B) {
				tb := newTab(b, 1280, 860)
				var ms []float64
				for b.Loop() {
					ms = append(ms, firstRender(b, tb, bd.board.URL+v.path, v.ready))
				}
				b.ReportMetric(median(ms), "ms-to-data")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
	for _, bd := range boards {
		b.Run("write-visible/"+bd.name, func(b *testing.B) {
			tb := newTab(b, 1280, 860)
			tb.open(bd.board.URL + "/board")
			tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
			var ms []float64
			var bytes []float64
			n := 0
			for b.Loop() {
				n++
				mark := bd.board.requestCount()
				ms = append(ms, agentWriteVisible(b, tb, fmt.Sprintf("Renamed by the agent %d", n)))
				time.Sleep(300 * time.Millisecond) // let any late fetch land in the count
				sum := 0
				for _, r := range bd.board.requests(mark) {
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

// agentWriteVisible renames the first card's case as the agent would (a
// PATCH with x-actor: agent) and returns the milliseconds from sending it
// until the new title is on the page, timed inside the page.
func agentWriteVisible(b *testing.B, tb *tab, title string) float64 {
	b.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`(async () => {
		const title = %q;
		const id = document.querySelector('[data-card]').dataset.id;
		const shown = () => [...document.querySelectorAll('.card-title')].some((e) => e.textContent === title);
		const seen = new Promise((resolve) => {
			const obs = new MutationObserver(() => { if (shown()) { obs.disconnect(); resolve(performance.now()); } });
			obs.observe(document.body, { subtree: true, childList: true, characterData: true });
		});
		const t0 = performance.now();
		const res = await fetch('/api/cases/' + encodeURIComponent(id), { method: 'PATCH',
			headers: { 'Content-Type': 'application/json', 'x-actor': 'agent' }, body: JSON.stringify({ title }) });
		if (!res.ok) throw new Error('write refused: ' + res.status);
		return (await seen) - t0;
	})()`, title), chromedp.EvalAwaitPromise))
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
