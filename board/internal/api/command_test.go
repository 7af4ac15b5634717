package api_test

import (
	"strings"
	"testing"
)

func runCmd(b *board, text string, hdr ...string) res {
	b.t.Helper()
	return b.do("POST", "/api/command", map[string]any{"text": text}, hdr...)
}

func TestCommandsRunTheGestureRoutes(t *testing.T) {
	b := newBoard(t)
	run := func(text string) res {
		t.Helper()
		r := runCmd(b, text, agent...)
		if r.Code != 200 {
			t.Fatalf("%q: %d %s", text, r.Code, r.Raw)
		}
		if v := r.Body.Get("version"); v.Exists() && v.Int() != b.Store.Version() {
			t.Errorf("%q: version %d, store at %d", text, v.Int(), b.Store.Version())
		}
		return r
	}
	r := run("new   Renew the lease  ")
	if r.Body.Get("message").String() != "Created CASE-1: Renew the lease" || r.Body.Get("href").String() != "/board?case=CASE-1" || !r.Body.Get("version").Exists() {
		t.Errorf("new: %s", r.Raw)
	}
	for _, tc := range []struct {
		text, path, want string
	}{
		{"move CASE-1 in progress", "case.status", "in_progress"},
		{"move case-1 waiting", "case.status", "waiting_for_input"},
		{"move 1 todo", "case.status", "todo"},
		{"done CASE-1", "case.status", "done"},
		{"star CASE-1", "case.starred", "true"},
		{"unstar CASE-1", "case.starred", ""},
		{"archive CASE-1", "case.archivedAt", "set"},
		{"restore CASE-1", "case.archivedAt", ""},
		{"note CASE-1 Called the landlord, waiting on reply", "case.notes.0.text", "Called the landlord, waiting on reply"},
	} {
		run(tc.text)
		got := b.must(200, "GET", "/api/cases/CASE-1", nil).Get(tc.path).String()
		if tc.want == "set" && got != "" {
			continue
		}
		if got != tc.want {
			t.Errorf("%q: %s = %q, want %q", tc.text, tc.path, got, tc.want)
		}
	}
	// Each command is attributed like the route it maps to.
	verbs := caseVerbs(b, "CASE-1")
	for _, v := range verbs {
		if !strings.HasPrefix(v, "agent ") {
			t.Errorf("activity %q not attributed to the agent", v)
		}
	}
	r = run("remind Renew passport 2026-10-01")
	if r.Body.Get("message").String() != "Created REM-1: Renew passport (due 2026-10-01)" || r.Body.Get("href").String() != "/reminders?id=REM-1" {
		t.Errorf("remind: %s", r.Raw)
	}
	if got := b.must(200, "GET", "/api/reminders/REM-1", nil).Get("reminder.dueAt").String(); got != "2026-10-01" {
		t.Errorf("reminder due %q", got)
	}
	help := run("help")
	if !strings.Contains(help.Body.Get("message").String(), "remind <title> <date>") || help.Body.Get("version").Exists() {
		t.Errorf("help: %s", help.Raw)
	}
}

func TestCommandFind(t *testing.T) {
	b := newBoard(t)
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Acme contract", "tasks": []map[string]any{{"title": "send ACME the NDA"}}})
	b.must(201, "POST", "/api/cases", map[string]any{"title": "Unrelated"})
	b.must(200, "DELETE", "/api/cases/CASE-1", nil) // archived matches still show
	b.must(201, "POST", "/api/cases/CASE-2/messages", map[string]any{"subject": "Re: acme invoice", "from": "ap@vendor.example"})
	b.must(201, "POST", "/api/reminders", map[string]any{"title": "Chase Acme"})
	v := b.Store.Version()
	r := runCmd(b, "find acme")
	if r.Code != 200 {
		t.Fatalf("find: %d %s", r.Code, r.Raw)
	}
	res := r.Body.Get("results")
	if got := res.Get("cases.#.id").String(); got != `["CASE-1"]` {
		t.Errorf("cases %s", got)
	}
	if got := res.Get("tasks.0.caseId").String() + " " + res.Get("tasks.0.task.id").String(); got != "CASE-1 CASE-1-T1" {
		t.Errorf("tasks %s", res.Get("tasks").Raw)
	}
	if got := res.Get("messages.#.subject").String(); got != `["Re: acme invoice"]` {
		t.Errorf("messages %s", got)
	}
	if got := res.Get("reminders.#.id").String(); got != `["REM-1"]` {
		t.Errorf("reminders %s", got)
	}
	if r.Body.Get("message").String() != `4 matches for "acme"` || r.Body.Get("version").Exists() || b.Store.Version() != v {
		t.Errorf("find wrote or answered oddly: %s", r.Raw)
	}
	if got := runCmd(b, "find CASE-2").Body.Get("results.cases.#.id").String(); got != `["CASE-2"]` {
		t.Errorf("find by id %s", got)
	}
	empty := runCmd(b, "find zzz").Body.Get("results")
	for _, k := range []string{"cases", "tasks", "messages", "reminders"} {
		if empty.Get(k).Raw != "[]" {
			t.Errorf("no match: %s is %s, want []", k, empty.Get(k).Raw)
		}
	}
}

func TestCommandErrors(t *testing.T) {
	b := newBoard(t)
	b.fails(400, `unknown command "frobnicate".`, "POST", "/api/command", map[string]any{"text": "frobnicate CASE-1"})
	r := runCmd(b, "frobnicate")
	if !strings.Contains(r.Body.Get("error").String(), "Commands:\n  new <title>") {
		t.Errorf("unknown command lacks the help text: %s", r.Raw)
	}
	for _, tc := range []struct{ text, msg string }{
		{"", "Field 'text' is required."},
		{"new", "usage: new <title>"},
		{"move CASE-1", "usage: move <CASE-n> <lane>"},
		{"move CASE-1 someday", `unknown lane "someday"`},
		{"star REM-1", "usage: star <CASE-n>"},
		{"remind Call mum", "usage: remind <title> <date>"},
		{"remind 2026-01-01", "usage: remind <title> <date>"},
		{"note CASE-1", "usage: note <CASE-n> <text>"},
		{"find", "usage: find <text>"},
	} {
		b.fails(400, tc.msg, "POST", "/api/command", map[string]any{"text": tc.text})
	}
	b.fails(404, "case CASE-7 not found", "POST", "/api/command", map[string]any{"text": "done CASE-7"})
	b.fails(404, "case CASE-7 not found", "POST", "/api/command", map[string]any{"text": "note CASE-7 hi"})
	b.fails(400, "unknown field", "POST", "/api/command", map[string]any{"text": "help", "verbose": true})
}
