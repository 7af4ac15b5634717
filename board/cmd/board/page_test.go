package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every HTML answer of the board carries the page's Content-Security-Policy
// (with frame-ancestors 'none') and X-Frame-Options: DENY, so no foreign
// site can frame the board, whichever path it loads.
func TestEveryHTMLAnswerForbidsFraming(t *testing.T) {
	d := start(t, filepath.Join(t.TempDir(), "board.json"), 0)
	client := &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get := func(method, path string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, d.url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		resp.Body.Close()
		return resp
	}
	csp := get("GET", "/").Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Fatalf("the page's policy lacks frame-ancestors 'none': %q", csp)
	}
	paths := []string{
		"/", "/board", "/strategy", "/inbox", "/activity", "/calendar", "/reminders", "/priorities", "/proposals", "/trash",
		"/static/index.html", "/static/", "/static", "/static/nope.html", "/nope", "/today", "/approvals", "/today?x=<b>",
		"/static/../static/index.html", "//static/index.html",
	}
	for _, p := range paths {
		for _, m := range []string{"GET", "HEAD"} {
			resp := get(m, p)
			ct := resp.Header.Get("Content-Type")
			if p == "/static/index.html" && !strings.HasPrefix(ct, "text/html") {
				t.Errorf("%s %s: Content-Type %q, want text/html", m, p, ct)
			}
			if !strings.HasPrefix(ct, "text/html") {
				continue
			}
			if got := resp.Header.Get("Content-Security-Policy"); got != csp {
				t.Errorf("%s %s (%d, %s): Content-Security-Policy %q, want the page's %q", m, p, resp.StatusCode, ct, got, csp)
			}
			if got := resp.Header.Get("X-Frame-Options"); got != "DENY" {
				t.Errorf("%s %s (%d, %s): X-Frame-Options %q, want DENY", m, p, resp.StatusCode, ct, got)
			}
		}
	}
}
