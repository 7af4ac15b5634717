package main

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/client/clienttest"
	"github.com/opsboard/opsboard/shared/wire"
)

func wantTools() []string {
	return []string{"create_event", "list_events", "get_event", "update_event", "delete_event", "link_event"}
}

// TestEndToEnd drives every tool through a real MCP session over stdio
// against a real board, checking answers, the board's state, the agent
// attribution and that stdout carried nothing but protocol.
func TestEndToEnd(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSession(t, bin, board.URL, server)
	used := map[string]bool{}
	ok := func(t *testing.T, name string, args map[string]any, want ...string) string {
		t.Helper()
		out := s.OK(t, name, args, want...)
		used[name] = true
		return out
	}
	var created client.CaseAnswer
	board.Human(t, "POST", "/api/cases", map[string]any{"title": "Office move", "kind": "initiative"}, &created)
	home := created.Case.ID
	event := func(t *testing.T, id string) wire.Event {
		t.Helper()
		var ans client.EventAnswer
		board.Get(t, "/api/events/"+id, &ans)
		return ans.Event
	}

	t.Run("tools are listed", func(t *testing.T) {
		var got []string
		for _, tl := range s.Tools(t) {
			got = append(got, tl.Name)
			if a := tl.Annotations; a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("%s: annotations over the wire: %+v", tl.Name, a)
			}
		}
		want := wantTools()
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("tools: got %v, want %v", got, want)
		}
	})

	var lease, moving string
	t.Run("create and list", func(t *testing.T) {
		ok(t, "list_events", nil, "No events match")
		out := ok(t, "create_event", map[string]any{"title": "Lease signing", "date": "2030-02-01", "startTime": "10:00", "endTime": "11:00", "location": "Office", "caseId": home, "domain": "work"},
			"Created", "2030-02-01 10:00-11:00 - Lease signing @ Office - case "+home+" - work")
		lease = clienttest.FirstID(t, out, "EVT")
		ok(t, "create_event", map[string]any{"title": "lease  SIGNING", "date": "2030-02-01", "startTime": "10:00", "location": "Elsewhere"},
			"Already existed, nothing created", lease, "update_event "+lease)
		if e := event(t, lease); e.Location != "Office" {
			t.Errorf("a deduplicated create changed the event: %+v", e)
		}
		out = ok(t, "create_event", map[string]any{"title": "Moving day", "date": "2030-01-31", "allDay": true}, "Created", "2030-01-31 all day - Moving day")
		moving = clienttest.FirstID(t, out, "EVT")
		ok(t, "create_event", map[string]any{"title": "Lease signing", "date": "2030-02-01", "startTime": "15:00"}, "Created")
		s.Refused(t, "create_event", map[string]any{"title": "Bad day", "date": "01/02/2030"}, "date")
		s.Refused(t, "create_event", map[string]any{"title": "Not a day", "date": "2030-02-30"}, "date")
		s.Refused(t, "create_event", map[string]any{"title": "Nowhere", "date": "2030-02-03", "caseId": "CASE-999"}, "CASE-999")
		s.Refused(t, "create_event", map[string]any{"date": "2030-02-03"}, "title")

		out = ok(t, "list_events", nil, moving+" - 2030-01-31 all day - Moving day", lease+" - 2030-02-01 10:00-11:00")
		if strings.Index(out, moving) > strings.Index(out, lease) {
			t.Errorf("list_events is not chronological:\n%s", out)
		}
		if out := ok(t, "list_events", map[string]any{"from": "2030-02-01", "to": "2030-02-02"}, lease); strings.Contains(out, moving) {
			t.Errorf("from/to did not filter:\n%s", out)
		}
		if out := ok(t, "list_events", map[string]any{"caseId": home}, lease); strings.Contains(out, moving) {
			t.Errorf("caseId did not filter:\n%s", out)
		}
		ok(t, "list_events", map[string]any{"limit": 1}, "2 more not shown")
		ok(t, "get_event", map[string]any{"id": lease}, lease+" - 2030-02-01 10:00-11:00 - Lease signing @ Office", lease+" created ")
		s.Refused(t, "get_event", map[string]any{"id": "EVT-999"}, "EVT-999")
	})

	t.Run("update and link", func(t *testing.T) {
		ok(t, "update_event", map[string]any{"id": lease, "title": "Lease signing with the landlord", "startTime": "14:00", "endTime": "15:00", "description": "Bring ID"}, "Updated "+lease, "14:00-15:00 - Lease signing with the landlord")
		s.Refused(t, "update_event", map[string]any{"id": lease}, "nothing to update")
		s.Refused(t, "update_event", map[string]any{"id": lease, "startTime": "25:00"}, "startTime")
		if e := event(t, lease); e.Description != "Bring ID" || e.StartTime != "14:00" {
			t.Errorf("update_event did not land: %+v", e)
		}
		ok(t, "get_event", map[string]any{"id": lease}, "Description of "+lease+": Bring ID")
		ok(t, "link_event", map[string]any{"id": moving, "caseId": home}, "Linked "+moving, "case "+home)
		if e := event(t, moving); e.CaseID != home {
			t.Errorf("link_event: caseId %q", e.CaseID)
		}
		ok(t, "link_event", map[string]any{"id": moving}, "Unlinked "+moving)
		ok(t, "link_event", map[string]any{"id": lease, "caseId": nil}, "Unlinked "+lease)
		ok(t, "link_event", map[string]any{"id": lease, "caseId": home}, "Linked "+lease)
		ok(t, "link_event", map[string]any{"id": lease, "caseId": ""}, "Unlinked "+lease)
		if e := event(t, lease); e.CaseID != "" {
			t.Errorf("link_event \"\": caseId %q", e.CaseID)
		}
		ok(t, "update_event", map[string]any{"id": lease, "caseId": home}, "case "+home)
		s.Refused(t, "link_event", map[string]any{"id": moving, "caseId": "CASE-999"}, "CASE-999")
	})

	t.Run("concurrent creates make one event", func(t *testing.T) {
		answers := make(chan string, 5)
		ctx := clienttest.Context(t)
		var wg sync.WaitGroup
		for range 5 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				text, _, err := s.Try(ctx, "create_event", map[string]any{"title": "Standup", "date": "2030-03-04", "startTime": "09:00"})
				if err != nil {
					text = err.Error()
				}
				answers <- text
			}()
		}
		wg.Wait()
		close(answers)
		created := 0
		for a := range answers {
			if strings.HasPrefix(a, "Created") {
				created++
			} else if !strings.HasPrefix(a, "Already existed") {
				t.Errorf("concurrent create_event: %s", a)
			}
		}
		var list struct {
			Events []wire.Event `json:"events"`
		}
		board.Get(t, "/api/events?from=2030-03-04&to=2030-03-05", &list)
		if created != 1 || len(list.Events) != 1 {
			t.Errorf("5 identical concurrent creates: %d created, %d on the board; want 1 and 1", created, len(list.Events))
		}
	})

	t.Run("delete", func(t *testing.T) {
		ok(t, "delete_event", map[string]any{"id": moving}, "Deleted event "+moving)
		s.Refused(t, "get_event", map[string]any{"id": moving}, moving)
	})

	t.Run("every tool was called", func(t *testing.T) {
		for _, name := range wantTools() {
			if !used[name] {
				t.Errorf("%s was never called successfully", name)
			}
		}
	})
	t.Run("writes are attributed to the agent", func(t *testing.T) {
		var d client.CaseDetail
		board.Get(t, "/api/cases/"+home, &d)
		events := 0
		for _, a := range d.Case.Activity {
			if !strings.HasPrefix(string(a.Verb), "event_") {
				continue
			}
			events++
			if a.Actor != wire.ActorAgent {
				t.Errorf("%s at %s is by %s, want agent", a.Verb, a.TS, a.Actor)
			}
		}
		if events < 4 {
			t.Errorf("only %d event activity entries on %s: %+v", events, home, d.Case.Activity)
		}
	})
	t.Run("stdout is only protocol", func(t *testing.T) {
		lines := s.Proc.StdoutLines()
		if len(lines) < 20 {
			t.Fatalf("only %d stdout lines", len(lines))
		}
		if err := clienttest.CheckJSONRPC(lines); err != nil {
			t.Error(err)
		}
	})
}
