package ingest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func dated(id, date string) string {
	h := map[string]string{"Message-ID": "<" + id + "@x.example>", "From": id + "@x.example", "Subject": id}
	if date != "" {
		h["Date"] = date
	}
	return msg(h, "Body of "+id+".\r\n")
}

// addMail delivers one more mail into a Maildir's new/.
func addMail(t *testing.T, dir, name, mail string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "new", name), []byte(mail), 0o600); err != nil {
		t.Fatal(err)
	}
}

func subjects(d *daemon) string {
	var out []string
	for _, m := range d.messages() {
		out = append(out, m.Get("subject").String())
	}
	return strings.Join(out, " ")
}

func stateOf(t *testing.T, d *daemon) gjson.Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(d.Dir, "ingest-state.json"))
	if err != nil {
		t.Fatal(err)
	}
	return gjson.ParseBytes(data)
}

// A source's since leaves out mail dated before that day's start in the
// board's zone, counts it as olderSkipped (not fetched), and never leaves
// out a mail without a readable date. The flag wins over the config, and
// an earlier since than the one recorded reads the source again from its
// start, each message once.
func TestIngestSinceLeavesOutOlderMail(t *testing.T) {
	d := startBoard(t, "")
	d.call("PATCH", "/api/prefs", map[string]any{"timezone": "Europe/Berlin"})
	writeMaildir(t, filepath.Join(d.Dir, "Maildir"),
		dated("feb28", "Sat, 28 Feb 2026 22:30:00 +0000"), // 23:30 in Berlin: the day before
		dated("mar1", "Sat, 28 Feb 2026 23:30:00 +0000"),  // 00:30 on 1 March in Berlin
		dated("undated", ""),                              // no Date header
		dated("garbled", "the day after tomorrow, maybe"), // no readable Date
		dated("mar4", "Wed, 4 Mar 2026 12:00:00 +0000"),
	)
	d.sources(t, map[string]any{"name": "home", "kind": "maildir", "path": "Maildir", "since": "2026-03-01"})
	rep, code := d.ingest()
	if code != 0 || !sameCounts(rep, `{"fetched":4,"new":4,"olderSkipped":1}`) {
		t.Fatalf("exit %d, report %s: want 4 in and the one before 1 March (Berlin) left out", code, rep.Raw)
	}
	if got := subjects(d); strings.Contains(got, "feb28") || !strings.Contains(got, "mar1") || !strings.Contains(got, "undated") || !strings.Contains(got, "garbled") {
		t.Errorf("on the board: %s", got)
	}
	if feed := d.call("GET", "/api/activity", nil); !strings.Contains(feed.Raw, "1 older than the since date, left out") {
		t.Errorf("the feed's run row does not count the mail left out: %s", feed.Raw)
	}

	// A later since from the flag: the next mail is read from the
	// watermark and checked against the flag's day, not the config's.
	addMail(t, filepath.Join(d.Dir, "Maildir"), "1800000000.2.host", dated("mar2", "Mon, 2 Mar 2026 12:00:00 +0000"))
	rep, _ = d.ingest("--since", "2026-03-03")
	if !sameCounts(rep, `{"fetched":0,"olderSkipped":1}`) {
		t.Errorf("--since 2026-03-03 over mar2: %s", rep.Raw)
	}
	// An earlier since than the one recorded reads the source again from
	// its start: what is on the board counts as duplicates.
	rep, _ = d.ingest("--since", "2026-02-01")
	if !sameCounts(rep, `{"new":2,"duplicates":4,"olderSkipped":0}`) {
		t.Errorf("--since 2026-02-01 after 2026-03-03: %s, want a rescan bringing feb28 and mar2", rep.Raw)
	}
	if st := stateOf(t, d); st.Get("since.home").String() != "2026-02-01" {
		t.Errorf("ingest-state.json %s, want since.home 2026-02-01", st.Raw)
	}
	if n := len(d.messages()); n != 6 {
		t.Errorf("%d messages, want each of the 6 once", n)
	}
}

// A first run without a since keeps the last DefaultSinceDays of mail and
// records that cutoff, so a later run keeps it.
func TestIngestFirstRunRecordsTheDefaultCutoff(t *testing.T) {
	d := startBoard(t, "", "TZ=UTC")
	day := func(daysAgo int) string {
		return time.Now().UTC().AddDate(0, 0, -daysAgo).Format(time.RFC1123Z)
	}
	writeMaildir(t, filepath.Join(d.Dir, "Maildir"), dated("old", day(120)), dated("recent", day(10)), dated("undated", ""))
	d.sources(t, map[string]any{"name": "home", "kind": "maildir", "path": "Maildir", "since": ""})
	rep, code := d.ingest()
	if code != 0 || !sameCounts(rep, `{"fetched":2,"new":2,"olderSkipped":1}`) {
		t.Fatalf("exit %d, report %s", code, rep.Raw)
	}
	want := time.Now().UTC().AddDate(0, 0, -90).Format("2006-01-02")
	if got := stateOf(t, d).Get("since.home").String(); got != want {
		t.Errorf("recorded since %q, want %q (90 days back)", got, want)
	}
	// Later mail older than the cutoff stays out: the recorded cutoff holds.
	addMail(t, filepath.Join(d.Dir, "Maildir"), "1800000000.1.host", dated("late-old", day(100)))
	if rep, _ = d.ingest(); !sameCounts(rep, `{"fetched":0,"olderSkipped":1}`) {
		t.Errorf("second run %s, want the recorded cutoff to leave late-old out", rep.Raw)
	}
}

// An unparseable since stops its source with an error naming it; the
// other sources still run, and the command exits 1. The same from the flag
// stops every source.
func TestIngestBadSinceExitsOne(t *testing.T) {
	d := startBoard(t, "")
	writeMaildir(t, filepath.Join(d.Dir, "Maildir"), dated("a", "Mon, 2 Mar 2026 10:00:00 +0000"))
	writeMaildir(t, filepath.Join(d.Dir, "Other"), dated("b", "Mon, 2 Mar 2026 10:00:00 +0000"))
	d.sources(t, map[string]any{"name": "home", "kind": "maildir", "path": "Maildir", "since": "March 2026"},
		map[string]any{"name": "other", "kind": "maildir", "path": "Other"})
	rep, code := d.ingest()
	if code != 1 || !strings.Contains(rep.Get("errors").Raw, `source home: since \"March 2026\" is not a date YYYY-MM-DD`) {
		t.Errorf("exit %d, errors %s: want 1 and the source and since named", code, rep.Get("errors").Raw)
	}
	if !sameCounts(rep, `{"new":1}`) {
		t.Errorf("the good source did not run: %s", rep.Raw)
	}
	rep, code = d.ingest("--since", "2026-3-1")
	var errs []string
	_ = json.Unmarshal([]byte(rep.Get("errors").Raw), &errs)
	if code != 1 || len(errs) != 2 || !strings.Contains(errs[1], `source other: since "2026-3-1"`) {
		t.Errorf("exit %d, errors %q: want both sources stopped, naming the flag's since", code, errs)
	}
}
