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

// BenchmarkAgentCaseOnScreen measures, in headless Chromium on a board of
// 1,000 cases (200 a lane), the time from the agent's create (POST
// /api/cases with x-actor: agent, sent from the page so one clock times
// both ends) until its card is in the To do lane on screen, as p50 and p95.
// Figures in docs/ui.md. It needs -bench and is skipped with -short.
func BenchmarkAgentCaseOnScreen(b *testing.B) {
	if testing.Short() {
		b.Skip("drives a browser over a 1,000-case board")
	}
	bd := startBoardOn(b, testkit.BoardDoc(1000))
	tb := newTab(b, 1280, 860)
	tb.open(bd.URL + "/board")
	tb.waitFor("the stream", `!!document.querySelector('.live-dot.live')`)
	var ms []float64
	n := 0
	for b.Loop() {
		n++
		ms = append(ms, agentCaseOnScreen(b, tb, fmt.Sprintf("Created by the agent %d", n)))
	}
	b.ReportMetric(percentile(ms, 0.50), "ms-p50-on-screen")
	b.ReportMetric(percentile(ms, 0.95), "ms-p95-on-screen")
	b.ReportMetric(0, "ns/op")
}

// agentCaseOnScreen creates a case in To do as the agent and returns the
// milliseconds until a card with its title is in the lane, timed in the page.
func agentCaseOnScreen(b *testing.B, tb *tab, title string) float64 {
	b.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`(async () => {
		const title = %q;
		const shown = () => [...document.querySelectorAll('[data-lane="todo"] .card-title')].some((e) => e.textContent === title);
		const seen = new Promise((resolve) => {
			const obs = new MutationObserver(() => { if (shown()) { obs.disconnect(); resolve(performance.now()); } });
			obs.observe(document.body, { subtree: true, childList: true, characterData: true });
		});
		const t0 = performance.now();
		const res = await fetch('/api/cases', { method: 'POST',
			headers: { 'Content-Type': 'application/json', 'x-actor': 'agent' }, body: JSON.stringify({ title, status: 'todo' }) });
		if (!res.ok) throw new Error('write refused: ' + res.status);
		return (await seen) - t0;
	})()`, title), chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatalf("agent create: %v\n%s", err, tb.consoleText())
	}
	return ms
}

// percentile is the value at fraction p of xs in order (nearest rank).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
