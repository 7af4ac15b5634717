package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
)

func TestMessagesPaged(t *testing.T) {
	b := newBoard(t)
	c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Inbox"}).Get("case.id").String()
	r := b.must(http.StatusCreated, "POST", "/api/reminders", map[string]any{"title": "Reply"}).Get("reminder.id").String()
	for _, m := range []struct{ path, subject, at string }{
		{"/api/cases/" + c + "/messages", "one", "2026-11-01T09:00:00Z"},
		{"/api/cases/" + c + "/messages", "two", "2026-11-02T09:00:00Z"},
		{"/api/reminders/" + r + "/messages", "three", "2026-11-03T09:00:00Z"},
		{"/api/cases/" + c + "/messages", "four", "2026-11-04T09:00:00Z"},
	} {
		b.must(http.StatusCreated, "POST", m.path, map[string]any{"source": "mail", "subject": m.subject, "receivedAt": m.at})
	}
	// Unlink "four" so the inbox has one unlinked message.
	b.must(http.StatusOK, "PATCH", "/api/messages/M-4", map[string]any{"caseId": nil, "read": true})

	unpaged := b.must(http.StatusOK, "GET", "/api/messages", nil)
	if unpaged.Get("nextCursor").Exists() || len(unpaged.Get("messages").Array()) != 4 || unpaged.Get("messages.0.id").String() != "M-1" {
		t.Fatalf("the unpaged call changed shape: %s", unpaged.Raw)
	}

	first := b.must(http.StatusOK, "GET", "/api/messages?limit=2", nil)
	if diff := cmp.Diff([]string{"four", "three"}, strList(first.Get("messages.#.subject"))); diff != "" {
		t.Errorf("first page (-want +got)\n%s", diff)
	}
	// A newer message arrives between the two calls; the next page goes on
	// where the first stopped.
	b.must(http.StatusCreated, "POST", "/api/cases/"+c+"/messages", map[string]any{"source": "mail", "subject": "five", "receivedAt": "2026-11-05T09:00:00Z"})
	second := b.must(http.StatusOK, "GET", "/api/messages?limit=2&cursor="+url.QueryEscape(first.Get("nextCursor").String()), nil)
	if diff := cmp.Diff([]string{"two", "one"}, strList(second.Get("messages.#.subject"))); diff != "" {
		t.Errorf("second page (-want +got)\n%s", diff)
	}
	if next := second.Get("nextCursor"); !next.Exists() || next.String() != "" {
		t.Errorf("the last page's nextCursor is %s, want \"\"", next.Raw)
	}

	for q, want := range map[string][]string{
		"unlinked=1":               {"four"},
		"unread=1&limit=10":        {"five", "three", "two", "one"},
		"reminderId=" + r:          {"three"},
		"onReminder=1":             {"three"},
		"caseId=" + c + "&limit=1": {"five"},
	} {
		if diff := cmp.Diff(want, strList(b.must(http.StatusOK, "GET", "/api/messages?"+q, nil).Get("messages.#.subject"))); diff != "" {
			t.Errorf("%s (-want +got)\n%s", q, diff)
		}
	}
	b.fails(http.StatusBadRequest, "'limit'", "GET", "/api/messages?limit=0", nil)
	b.fails(http.StatusBadRequest, "'limit'", "GET", "/api/messages?limit=ten", nil)
	b.fails(http.StatusBadRequest, "'cursor'", "GET", "/api/messages?cursor=garbage!", nil)
}

func TestSearchFieldsReachNotesAndBodies(t *testing.T) {
	b := newBoard(t)
	c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Move"}).Get("case.id").String()
	b.must(http.StatusCreated, "POST", "/api/cases/"+c+"/notes", map[string]any{"text": "ask about the marimba"})
	b.must(http.StatusCreated, "POST", "/api/cases/"+c+"/messages", map[string]any{"subject": "Quote", "body": "the marimba costs extra"})
	ids := func(body map[string]any) []string {
		return strList(b.must(http.StatusOK, "POST", "/api/search", body).Get("results.0.hits.#.id"))
	}
	if got := ids(map[string]any{"q": "marimba"}); len(got) != 0 {
		t.Errorf("without fields the search changed: %v", got)
	}
	if diff := cmp.Diff([]string{c, "M-1"}, ids(map[string]any{"q": "marimba", "fields": []string{"body", "notes"}})); diff != "" {
		t.Errorf("with fields (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"M-1"}, ids(map[string]any{"q": "marimba", "fields": []string{"body"}})); diff != "" {
		t.Errorf("body only (-want +got)\n%s", diff)
	}
	b.fails(http.StatusBadRequest, "'fields'", "POST", "/api/search", map[string]any{"q": "marimba", "fields": []string{"subject"}})
}

func TestSearchGetReadsNotesWhenAsked(t *testing.T) {
	b := newBoard(t)
	c := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Move"}).Get("case.id").String()
	b.must(http.StatusCreated, "POST", "/api/cases/"+c+"/notes", map[string]any{"text": "ask about the Marimba"})
	if n := len(b.must(http.StatusOK, "GET", "/api/search?q=marimba", nil).Get("cases").Array()); n != 0 {
		t.Errorf("without fields the scan found %d cases by their notes", n)
	}
	if got := b.must(http.StatusOK, "GET", "/api/search?q=marimba&fields=body,notes", nil).Get("cases.0.id").String(); got != c {
		t.Errorf("with fields=notes: %q, want %s", got, c)
	}
	b.fails(http.StatusBadRequest, "query 'fields'", "GET", "/api/search?q=x&fields=subject", nil)
}

// A create may say what of the mail was cut on the way in; the board keeps
// the note with the message. A body over the request limit is still 413.
func TestMessageKeepsWhatWasCut(t *testing.T) {
	b := newBoard(t)
	body := strings.Repeat("x", wire.MaxMailBody)
	m := b.must(http.StatusCreated, "POST", "/api/messages", map[string]any{"subject": "big", "body": body,
		"truncated": []string{"body", "to"}, "originalSizes": map[string]int64{"body": 40 << 20, "to": 20000}}).Get("message")
	if diff := cmp.Diff([]string{"body", "to"}, strList(m.Get("truncated"))); diff != "" || m.Get("originalSizes.to").Int() != 20000 {
		t.Errorf("the create's answer: %s %s", m.Get("truncated").Raw, m.Get("originalSizes").Raw)
	}
	got := b.must(http.StatusOK, "GET", "/api/messages/"+m.Get("id").String(), nil)
	if got.Get("message.originalSizes.body").Int() != 40<<20 || len(got.Get("message.body").String()) != wire.MaxMailBody {
		t.Errorf("stored: %s", got.Get("message.originalSizes").Raw)
	}
	if plain := b.must(http.StatusCreated, "POST", "/api/messages", map[string]any{"subject": "plain"}).Get("message"); plain.Get("truncated").Exists() || plain.Get("originalSizes").Exists() {
		t.Errorf("an uncut message carries a note: %s", plain.Raw)
	}
	b.fails(http.StatusRequestEntityTooLarge, "larger than", "POST", "/api/messages", map[string]any{"subject": "raw caller", "body": strings.Repeat("x", 1<<20)})
}
