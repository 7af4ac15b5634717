package api_test

import (
	"fmt"
	"sync"
	"testing"
)

func TestTheSameMailTwiceIsOneRecord(t *testing.T) {
	b := newBoard(t)
	caseID := b.must(201, "POST", "/api/cases", map[string]any{"title": "Vendor renewal"}).Get("case.id").String()
	remID := b.must(201, "POST", "/api/reminders", map[string]any{"title": "Call back"}).Get("reminder.id").String()

	first := b.must(201, "POST", "/api/messages", map[string]any{
		"from": "ann@vendor.example", "subject": "Renewal", "body": "Price attached.", "messageId": "<r1@vendor.example>",
		"threadId": "<r0@vendor.example>", "source": "work", "scan": "clean", "receivedAt": "Tue, 3 Mar 2026 10:00:00 +0100",
	}, "x-actor", "system")
	id := first.Get("message.id").String()
	if got := first.Get("message.messageId").String(); got != "r1@vendor.example" {
		t.Errorf("messageId %q, want it without brackets", got)
	}
	if got := first.Get("message.receivedAt").String(); got != "2026-03-03T09:00:00Z" {
		t.Errorf("an RFC 2822 date is stored as %q, want the ISO form in UTC", got)
	}
	for _, f := range []string{"threadId", "source", "scan"} {
		if first.Get("message."+f).String() == "" {
			t.Errorf("message.%s not kept: %s", f, first.Raw)
		}
	}

	// The same Message-ID through each create route answers the record held.
	for _, path := range []string{"/api/messages", "/api/cases/" + caseID + "/messages", "/api/reminders/" + remID + "/messages"} {
		again := b.must(200, "POST", path, map[string]any{"from": "other@x.example", "body": "another copy", "messageId": "r1@vendor.example"})
		if again.Get("message.id").String() != id || !again.Get("existing").Bool() || again.Get("version").Int() == 0 {
			t.Errorf("%s: got %s, want the existing %s with existing and version", path, again.Raw, id)
		}
	}
	// No Message-ID: sender, date and body name the mail, whatever else differs.
	plain := map[string]any{"from": "bob@x.example", "body": "Lunch?", "receivedAt": "2026-03-04T12:00:00Z", "subject": "a"}
	p1 := b.must(201, "POST", "/api/messages", plain)
	plain["subject"], plain["receivedAt"] = "b", "2026-03-04T13:00:00+01:00"
	p2 := b.must(200, "POST", "/api/messages", plain)
	if p1.Get("message.id").String() != p2.Get("message.id").String() {
		t.Errorf("same sender, instant and body made two records: %s %s", p1.Raw, p2.Raw)
	}
	plain["body"] = "Dinner?"
	b.must(201, "POST", "/api/messages", plain)
	if n := len(b.must(200, "GET", "/api/messages", nil).Get("messages").Array()); n != 3 {
		t.Errorf("%d messages on the board, want 3", n)
	}
	b.fails(400, "field 'scan'", "POST", "/api/messages", map[string]any{"body": "x", "scan": "maybe"})
}

func TestConcurrentCopiesOfOneMailMakeOneRecord(t *testing.T) {
	b := newBoard(t)
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = b.do("POST", "/api/messages", map[string]any{"body": fmt.Sprint("copy ", i), "messageId": "<same@x>"}).Code
		}()
	}
	wg.Wait()
	created := 0
	for _, c := range codes {
		if c == 201 {
			created++
		}
	}
	if n := len(b.must(200, "GET", "/api/messages", nil).Get("messages").Array()); created != 1 || n != 1 {
		t.Errorf("codes %v and %d records, want one 201 and one record", codes, n)
	}
}

func TestIngestRunsAreSystemRowsInTheFeed(t *testing.T) {
	b := newBoard(t)
	for i := 0; i < 205; i++ {
		b.must(201, "POST", "/api/ingest-runs", map[string]any{"fetched": i, "new": 1, "routed": map[string]any{"inbox": 1}}, "x-actor", "system")
	}
	b.fails(400, "field 'new'", "POST", "/api/ingest-runs", map[string]any{"new": -1})
	errs := make([]string, 30)
	for i := range errs {
		errs[i] = fmt.Sprint("bad mail ", i)
	}
	if got := b.must(201, "POST", "/api/ingest-runs", map[string]any{"errors": errs}).Get("run.errors").Array(); len(got) != 21 || got[20].String() != "and 10 more" {
		t.Errorf("a run with 30 errors kept %v", got)
	}
	feed := b.must(200, "GET", "/api/activity?category=ingest&limit=500", nil).Get("activity").Array()
	if len(feed) != 200 {
		t.Fatalf("%d ingest rows, want the newest 200", len(feed))
	}
	if a := feed[0].Get("actor").String(); a != "system" || feed[0].Get("verb").String() != "ingest_run" {
		t.Errorf("row %s, want a system ingest_run", feed[0].Raw)
	}
	if d := feed[len(feed)-1].Get("detail").String(); d == "" || d[:6] != "RUN-7 " {
		t.Errorf("oldest kept row %q, want RUN-7 (the first six of 206 dropped)", d)
	}
}
