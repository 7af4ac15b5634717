package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// Ingest writes in batches; when the board refuses a batch for one bad
// mail, the run writes that batch's mails one at a time, so the bad one is
// reported and every other lands. The board here is the real daemon; the
// test reaches it through a proxy that deletes the reminder one mail is
// routed to just before the first batch arrives, so the board itself
// refuses that mail.
func TestIngestRetriesARefusedBatchOneByOne(t *testing.T) {
	d := startBoard(t, "")
	_, remID := seed(d)
	var mails []string
	for i := range 5 {
		from := fmt.Sprintf("p%d@x.example", i)
		if i == 3 {
			from = "carl@plumber.example" // routed to the reminder by sender
		}
		mails = append(mails, msg(map[string]string{"Message-ID": fmt.Sprintf("<r%d@x.example>", i), "From": from,
			"Subject": fmt.Sprintf("mail %d", i), "Date": "Mon, 2 Mar 2026 10:00:00 +0000"}, "Body.\r\n"))
	}
	writeMaildir(t, filepath.Join(d.Dir, "Maildir"), mails...)
	d.sources(t, map[string]any{"name": "home", "kind": "maildir", "path": "Maildir"})

	target, _ := url.Parse("http://" + d.Addr)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var creates []string // "batch N" or "one"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/messages" {
			var body bytes.Buffer
			body.ReadFrom(r.Body)
			r.Body.Close()
			r.Body = readCloser{bytes.NewReader(body.Bytes())}
			mu.Lock()
			if n := gjson.GetBytes(body.Bytes(), "messages.#"); n.Exists() {
				if len(creates) == 0 {
					d.call("DELETE", "/api/reminders/"+remID, nil)
				}
				creates = append(creates, fmt.Sprintf("batch %d", n.Int()))
			} else {
				creates = append(creates, "one")
			}
			mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()

	cmd := exec.Command(boardBin, "ingest", "--json")
	cmd.Env = append(append([]string{}, d.env...), "SVC_BOARD_ADDR="+strings.TrimPrefix(srv.URL, "http://"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	rep := gjson.Parse(out.String())
	if err != nil || !sameCounts(rep, `{"fetched":5,"new":4}`) { // a refused mail is reported; the source still read to its end
		t.Fatalf("err %v, report %s (stderr %s): want 4 in and the refused one reported", err, out.String(), errb.String())
	}
	if errs := rep.Get("errors").Raw; !strings.Contains(errs, "Reminder "+remID+" not found") {
		t.Errorf("errors %s, want the refused mail named", errs)
	}
	mu.Lock()
	if got := strings.Join(creates, ","); got != "batch 5,one,one,one,one,one" {
		t.Errorf("creates %s, want one batch of 5, then each alone", got)
	}
	mu.Unlock()
	got := subjects(d)
	for _, want := range []string{"mail 0", "mail 1", "mail 2", "mail 4"} {
		if !strings.Contains(got, want) {
			t.Errorf("%s is not on the board: %s", want, got)
		}
	}
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// A run writes its mail 100 to a write: 250 mails are three writes on the
// board, and the run's report a fourth.
func TestIngestWritesInBatches(t *testing.T) {
	d := startBoard(t, "")
	var mails []string
	for i := range 250 {
		mails = append(mails, msg(map[string]string{"Message-ID": fmt.Sprintf("<b%d@x.example>", i), "From": fmt.Sprintf("p%d@x.example", i),
			"Subject": fmt.Sprintf("mail %d", i), "Date": "Mon, 2 Mar 2026 10:00:00 +0000"}, "Body.\r\n"))
	}
	writeMaildir(t, filepath.Join(d.Dir, "Maildir"), mails...)
	d.sources(t, map[string]any{"name": "home", "kind": "maildir", "path": "Maildir"})
	before := d.version()
	if rep, code := d.ingest(); code != 0 || !sameCounts(rep, `{"fetched":250,"new":250}`) {
		t.Fatalf("exit %d, report %s", code, rep.Raw)
	}
	if writes := d.version() - before; writes != 4 {
		t.Errorf("%d writes for 250 mails and the report, want 4", writes)
	}
}

// With --json, stdout holds the report alone, one JSON object, and stderr
// the run's one summary line (stderr is no terminal here).
func TestIngestJSONKeepsStdoutPure(t *testing.T) {
	d := startBoard(t, "")
	writeMaildir(t, filepath.Join(d.Dir, "Maildir"), dated("one", "Mon, 2 Mar 2026 10:00:00 +0000"), dated("old", "Mon, 2 Feb 2026 10:00:00 +0000"))
	d.sources(t, map[string]any{"name": "home", "kind": "maildir", "path": "Maildir", "since": "2026-03-01"})
	cmd := exec.Command(boardBin, "ingest", "--json")
	cmd.Env = d.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	dec := json.NewDecoder(&out)
	var rep map[string]any
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("stdout is not a JSON object: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Errorf("stdout holds more than the report: %v", err)
	}
	re := regexp.MustCompile(`(?m)^board ingest: 2 messages in [0-9.]+\w+( \(\d+/s\))?: 1 new, 0 duplicates, 1 older than since, 0 quarantined, \d+ errors$`)
	if n := len(re.FindAllString(errb.String(), -1)); n != 1 {
		t.Errorf("stderr holds %d summary lines, want 1:\n%s", n, errb.String())
	}
}
