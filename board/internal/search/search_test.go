package search_test

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/search"
	"github.com/opsboard/opsboard/shared/wire"
)

func ptr[T any](v T) *T { return &v }

func TestParse(t *testing.T) {
	many := make([]string, 40)
	for i := range many {
		many[i] = "q"
	}
	many[1], many[2] = "  spaced  ", ""
	many[35] = "beyond 32"
	for _, tc := range []struct {
		name    string
		body    search.Body
		want    search.Request
		invalid string
	}{
		{"q is wrapped", search.Body{Q: ptr(" acme ")}, search.Request{Queries: []string{"acme"}, K: 10, Semantic: true}, ""},
		{"queries win over q", search.Body{Queries: []string{"a", "b"}, Q: ptr("c")}, search.Request{Queries: []string{"a", "b"}, K: 10, Semantic: true}, ""},
		{"blank queries fall back to q", search.Body{Queries: []string{" "}, Q: ptr("c")}, search.Request{Queries: []string{"c"}, K: 10, Semantic: true}, ""},
		{"first 32 kept, trimmed, empties dropped", search.Body{Queries: many}, search.Request{Queries: append([]string{"q", "spaced"}, slices.Repeat([]string{"q"}, 29)...), K: 10, Semantic: true}, ""},
		{"k clamps up", search.Body{Q: ptr("x"), K: ptr(0.0)}, search.Request{Queries: []string{"x"}, K: 1, Semantic: true}, ""},
		{"k clamps down", search.Body{Q: ptr("x"), K: ptr(500.0)}, search.Request{Queries: []string{"x"}, K: 50, Semantic: true}, ""},
		{"k rounds down", search.Body{Q: ptr("x"), K: ptr(7.9)}, search.Request{Queries: []string{"x"}, K: 7, Semantic: true}, ""},
		{"negative k", search.Body{Q: ptr("x"), K: ptr(-3.0)}, search.Request{Queries: []string{"x"}, K: 1, Semantic: true}, ""},
		{"semantic false forces keyword", search.Body{Q: ptr("x"), Semantic: ptr(false)}, search.Request{Queries: []string{"x"}, K: 10}, ""},
		{"filters", search.Body{Q: ptr("x"), Types: []string{"task", "reminder"}, Domain: "life", Status: "done", IncludeArchived: true},
			search.Request{Queries: []string{"x"}, K: 10, Semantic: true, Filter: search.Filter{Types: map[string]bool{"task": true, "reminder": true}, Domain: "life", Status: "done", IncludeArchived: true}}, ""},
		{"no query at all", search.Body{}, search.Request{}, "at least one non-empty query"},
		{"only blank queries", search.Body{Queries: []string{" ", ""}, Q: ptr("  ")}, search.Request{}, "at least one non-empty query"},
		{"unknown type", search.Body{Q: ptr("x"), Types: []string{"event"}}, search.Request{}, "'types'"},
		{"unknown domain", search.Body{Q: ptr("x"), Domain: "home"}, search.Request{}, "'domain'"},
		{"unknown status", search.Body{Q: ptr("x"), Status: "open"}, search.Request{}, "'status'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := search.Parse(tc.body)
			if tc.invalid != "" {
				if err == nil || !strings.Contains(err.Error(), tc.invalid) {
					t.Fatalf("error %v, want one mentioning %q", err, tc.invalid)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func fixture() *wire.Doc {
	return &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{
			{ID: "CASE-12", Title: "Budget review", Summary: "numbers for the acme account", Status: "todo", Domain: "work", Kind: "case"},
			{ID: "CASE-120", Title: "Office move", Status: "done", Domain: "work", Kind: "case"},
			{ID: "CASE-3", Title: "Acme invoice", Summary: "overdue since March", Status: "waiting_for_input", Domain: "work", Kind: "case",
				Tasks: []wire.Task{{ID: "CASE-3-T1", Title: "Call acme billing", Detail: "ask about the invoice"}}},
			{ID: "CASE-4", Title: "Passport renewal", Summary: "acme travel agency handles the invoice", Status: "todo", Domain: "life", Kind: "case"},
			{ID: "CASE-5", Title: "Old acme invoice", Status: "done", Domain: "work", Kind: "case", ArchivedAt: "2025-01-01T00:00:00Z", MergedInto: "CASE-3"},
		}...),
		Messages: wire.ListOf([]*wire.Message{
			{ID: "M-1", Subject: "Invoice 8812 from Acme", From: "billing@acme.test", Preview: "Payment due", CaseID: "CASE-3", Body: "secret body text"},
			{ID: "M-2", Subject: "Lunch?", From: "friend@example.org", Preview: "acme cafe at noon"},
		}...),
		Reminders: wire.ListOf([]*wire.Reminder{
			{ID: "REM-1", Title: "Pay acme invoice", Status: "done", CaseID: "CASE-3", Labels: []string{"follow-up"}, DueAt: "2025-02-01"},
			{ID: "REM-2", Title: "Acme gift card", Status: "open", Domain: "life", Tasks: []wire.ReminderTask{{ID: "REM-2-T1", Title: "buy card"}}},
		}...),
	}
}

func rank(t *testing.T, d *wire.Doc, body search.Body, sem *search.Semantic) search.Envelope {
	t.Helper()
	req, err := search.Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	return search.Rank(search.Build(d, nil), req, sem)
}

func hitIDs(r search.QueryResult) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.ID)
	}
	return out
}

func TestKeywordRankingOrder(t *testing.T) {
	env := rank(t, fixture(), search.Body{Queries: []string{"CASE-12", "acme invoice", "case-3-t1"}, K: ptr(50.0)}, nil)
	if env.Engine != "keyword" || env.Embedder != "none" || env.IndexedDigest != "" {
		t.Errorf("envelope %s/%s/%q", env.Engine, env.Embedder, env.IndexedDigest)
	}
	// Exact id, then the id that contains the query.
	if got := hitIDs(env.Results[0])[:2]; !slices.Equal(got, []string{"CASE-12", "CASE-120"}) {
		t.Errorf("CASE-12: %v", got)
	}
	// Title matches first (CASE-3 and REM-1 have both words in the title,
	// M-1 in its subject), then token overlap.
	got := hitIDs(env.Results[1])
	titled := got[:3]
	sort.Strings(titled)
	if !slices.Equal(titled, []string{"CASE-3", "M-1", "REM-1"}) {
		t.Errorf("acme invoice: title matches first, got %v", got)
	}
	for _, id := range []string{"CASE-4", "CASE-3::CASE-3-T1", "CASE-12"} {
		if !slices.Contains(got[3:], id) {
			t.Errorf("acme invoice: %s (token overlap) missing from %v", id, got)
		}
	}
	if slices.Contains(got, "CASE-5") {
		t.Error("archived case returned without includeArchived")
	}
	// A task is found by its own id.
	if got := hitIDs(env.Results[2]); got[0] != "CASE-3::CASE-3-T1" {
		t.Errorf("task id: %v", got)
	}
	for _, r := range env.Results {
		for i, h := range r.Hits {
			if h.Cosine != 0 || !slices.Equal(h.Why, []string{"keyword"}) || h.Score <= 0 {
				t.Errorf("keyword hit %s: cosine %v why %v score %v", h.ID, h.Cosine, h.Why, h.Score)
			}
			if i > 0 && h.Score > r.Hits[i-1].Score {
				t.Errorf("%q not sorted at %d", r.Query, i)
			}
		}
	}
}

func TestSemanticSlotsBetweenTitleAndOverlap(t *testing.T) {
	sem := &search.Semantic{Embedder: "hash", Digest: "abc", Cosines: []map[string]float64{{
		"CASE-4":   0.9,  // no title match, best cosine
		"CASE-3":   0.1,  // title match, weak cosine
		"M-2":      -0.2, // negative: reported, but not a semantic match
		"CASE-999": 0.99, // not in the store
	}}}
	env := rank(t, fixture(), search.Body{Q: ptr("acme invoice"), K: ptr(50.0)}, sem)
	if env.Engine != "semantic" || env.Embedder != "hash" || env.IndexedDigest != "abc" {
		t.Errorf("envelope %s/%s/%q", env.Engine, env.Embedder, env.IndexedDigest)
	}
	got := hitIDs(env.Results[0])
	at := func(id string) int { return slices.Index(got, id) }
	if !(at("CASE-3") < at("CASE-4") && at("CASE-4") < at("CASE-12") && at("CASE-999") < 0) {
		t.Errorf("order %v: want title match, then cosine, then token overlap; unknown ids dropped", got)
	}
	byID := map[string]search.Hit{}
	for _, h := range env.Results[0].Hits {
		byID[h.ID] = h
	}
	for id, want := range map[string][]string{
		"CASE-3":  {"title-match", "semantic", "keyword"},
		"CASE-4":  {"semantic", "keyword"},
		"CASE-12": {"keyword"},
		"M-2":     {"keyword"},
	} {
		if diff := cmp.Diff(want, byID[id].Why); diff != "" {
			t.Errorf("%s why (-want +got)\n%s", id, diff)
		}
	}
	if byID["CASE-4"].Cosine != 0.9 || byID["CASE-12"].Cosine != 0 || byID["CASE-3"].Score <= 1 {
		t.Errorf("cosines %v %v, boosted score %v", byID["CASE-4"].Cosine, byID["CASE-12"].Cosine, byID["CASE-3"].Score)
	}
	if m2 := byID["M-2"]; m2.Score >= 0.1 || m2.Cosine != -0.2 {
		t.Errorf("M-2 score %v cosine %v", m2.Score, m2.Cosine)
	}
}

func TestFilters(t *testing.T) {
	all := func(body search.Body) []string {
		body.Q, body.K = ptr("acme invoice"), ptr(50.0)
		got := hitIDs(rank(t, fixture(), body, nil).Results[0])
		sort.Strings(got)
		return got
	}
	for _, tc := range []struct {
		name string
		body search.Body
		want []string
	}{
		{"types", search.Body{Types: []string{"reminder", "message"}}, []string{"M-1", "M-2", "REM-1", "REM-2"}},
		{"domain keeps messages and domainless reminders", search.Body{Domain: "life"}, []string{"CASE-4", "M-1", "M-2", "REM-1", "REM-2"}},
		{"status keeps reminders and messages; tasks follow their case", search.Body{Status: "waiting_for_input"}, []string{"CASE-3", "CASE-3::CASE-3-T1", "M-1", "M-2", "REM-1", "REM-2"}},
		{"includeArchived governs archived cases only", search.Body{IncludeArchived: true, Types: []string{"case"}}, []string{"CASE-12", "CASE-3", "CASE-4", "CASE-5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, all(tc.body)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestHitsCarryOwnerAndProjection(t *testing.T) {
	env := rank(t, fixture(), search.Body{Queries: []string{"acme"}, K: ptr(50.0), IncludeArchived: true}, nil)
	raw, err := json.Marshal(env.Results[0].Hits)
	if err != nil {
		t.Fatal(err)
	}
	var hits []map[string]any
	json.Unmarshal(raw, &hits)
	byID := map[string]map[string]any{}
	for _, h := range hits {
		byID[h["id"].(string)] = h
	}
	owner := map[string]any{"CASE-3": "CASE-3", "CASE-3::CASE-3-T1": "CASE-3", "M-1": "CASE-3", "M-2": nil, "REM-1": "CASE-3", "REM-2": nil}
	for id, want := range owner {
		if got, ok := byID[id]["caseId"]; !ok || got != want {
			t.Errorf("%s caseId = %v, want %v", id, got, want)
		}
	}
	wantRem := map[string]any{"id": "REM-1", "title": "Pay acme invoice", "status": "done", "dueAt": "2025-02-01", "domain": nil, "caseId": "CASE-3", "labels": []any{"follow-up"}, "detail": nil}
	if diff := cmp.Diff(wantRem, byID["REM-1"]["reminder"]); diff != "" {
		t.Errorf("reminder projection (-want +got)\n%s", diff)
	}
	if rem2 := byID["REM-2"]["reminder"].(map[string]any); rem2["labels"] == nil || rem2["domain"] != "life" {
		t.Errorf("REM-2 projection %v", rem2)
	}
	c5 := byID["CASE-5"]["case"].(map[string]any)
	if c5["archivedAt"] == nil || c5["mergedInto"] != "CASE-3" {
		t.Errorf("archived, merged case record %v", c5)
	}
	task := byID["CASE-3::CASE-3-T1"]["task"].(map[string]any)
	if task["id"] != "CASE-3-T1" || task["caseTitle"] != "Acme invoice" || task["title"] != "Call acme billing" {
		t.Errorf("task projection %v", task)
	}
	msg := byID["M-1"]["message"].(map[string]any)
	if msg["subject"] != "Invoice 8812 from Acme" || msg["body"] != nil {
		t.Errorf("message projection %v", msg)
	}
	for id, h := range byID {
		n := 0
		for _, k := range []string{"case", "task", "message", "reminder"} {
			if h[k] != nil {
				n++
			}
		}
		if n != 1 || h["snippet"] == "" {
			t.Errorf("%s has %d projections, snippet %q", id, n, h["snippet"])
		}
	}
}

func TestMerged(t *testing.T) {
	sem := &search.Semantic{Embedder: "hash", Digest: "d", Cosines: []map[string]float64{
		{"M-2": -0.5, "CASE-4": 0.3, "REM-2": -0.1}, // M-2 also matches "noon" by keyword
		{"CASE-4": 0.8},
	}}
	env := rank(t, fixture(), search.Body{Queries: []string{"noon", "passport"}, K: ptr(3.0)}, sem)
	if diff := cmp.Diff([]string{"CASE-4", "M-2"}, hitIDs(env.Results[0])); diff != "" {
		t.Errorf("results keep the negative keyword hit, not the negative-only one (-want +got)\n%s", diff)
	}
	if s := env.Results[0].Hits[1].Score; s >= 0 {
		t.Errorf("M-2 score %v, want below 0", s)
	}
	m := env.Merged
	if len(m.Cases) != 1 || m.Cases[0].ID != "CASE-4" || len(m.Messages) != 0 || len(m.Reminders) != 0 || len(m.Tasks) != 0 {
		t.Errorf("merged: deduped, score <= 0 dropped: %+v", m)
	}

	full := rank(t, fixture(), search.Body{Q: ptr("8812")}, nil).Merged
	if len(full.Messages) != 1 || full.Messages[0].Body != "secret body text" {
		t.Errorf("merged holds full records: %+v", full.Messages)
	}

	env = rank(t, fixture(), search.Body{Queries: []string{"acme invoice", "call acme billing", "budget"}, K: ptr(1.0)}, nil)
	m = env.Merged
	if len(m.Cases) != 1 || len(m.Tasks) != 1 || len(m.Messages) > 1 || len(m.Reminders) > 1 {
		t.Errorf("sliced to k=1 per list: %+v", m)
	}
	best := map[string]float64{}
	for _, r := range env.Results {
		for _, h := range r.Hits {
			best[h.ID] = max(best[h.ID], h.Score)
		}
	}
	for id, s := range best {
		if strings.HasPrefix(id, "CASE-") && !strings.Contains(id, "::") && s > best[m.Cases[0].ID] {
			t.Errorf("merged case %s (%v) is not the best case hit; %s has %v", m.Cases[0].ID, best[m.Cases[0].ID], id, s)
		}
	}
	if m.Tasks[0].CaseID != "CASE-3" || m.Tasks[0].Task.ID != "CASE-3-T1" {
		t.Errorf("merged task %+v", m.Tasks[0])
	}
}

func TestSameStoreSameRanking(t *testing.T) {
	body := search.Body{Queries: []string{"acme", "invoice overdue", "CASE-1"}, K: ptr(50.0)}
	a := rank(t, fixture(), body, nil)
	b := rank(t, fixture(), body, nil)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("(-first +second)\n%s", diff)
	}
}

func TestIndexerReusesUnchangedRecords(t *testing.T) {
	var x search.Indexer
	d1 := fixture()
	ix1 := x.For(d1)
	if x.For(d1) != ix1 {
		t.Error("same snapshot rebuilt")
	}
	// The next snapshot shares every record but one, as the store's are.
	d2 := *d1
	changed := *d1.Cases.At(3)
	changed.Title = "Acme invoice for passport"
	d2.Cases = d1.Cases.Set(3, &changed)
	body := search.Body{Queries: []string{"acme invoice"}, K: ptr(50.0)}
	req, _ := search.Parse(body)
	incremental := search.Rank(x.For(&d2), req, nil)
	fresh := search.Rank(search.Build(&d2, nil), req, nil)
	if diff := cmp.Diff(fresh, incremental); diff != "" {
		t.Errorf("incremental index differs from a fresh one (-fresh +incremental)\n%s", diff)
	}
}

func TestScan(t *testing.T) {
	d := fixture()
	got := search.Scan(d, "ACME")
	ids := []string{}
	for _, c := range got.Cases {
		ids = append(ids, c.ID)
	}
	for _, tr := range got.Tasks {
		ids = append(ids, tr.CaseID+"/"+tr.Task.ID)
	}
	for _, m := range got.Messages {
		ids = append(ids, m.ID)
	}
	for _, r := range got.Reminders {
		ids = append(ids, r.ID)
	}
	want := []string{"CASE-12", "CASE-3", "CASE-4", "CASE-5", "CASE-3/CASE-3-T1", "M-1", "M-2", "REM-1", "REM-2"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if got := search.Scan(d, "secret body"); len(got.Messages) != 1 {
		t.Errorf("message bodies are scanned: %+v", got)
	}
	if got := search.Scan(d, "buy card"); len(got.Reminders) != 1 {
		t.Errorf("reminder task titles are scanned: %+v", got)
	}
	empty, _ := json.Marshal(search.Scan(d, "   "))
	if string(empty) != `{"cases":[],"tasks":[],"messages":[],"reminders":[]}` {
		t.Errorf("empty q: %s", empty)
	}
}

func TestSidecarAnswerValidation(t *testing.T) {
	queries := []string{"a", "b"}
	good := `{"engine":"semantic","embedder":"hash","dim":256,"indexedDigest":"d","docs":2,"tookMs":1,"results":[
{"query":"a","hits":[{"id":"CASE-1","type":"case","caseId":"CASE-1","cosine":0.5}]},{"query":"b","hits":[]}]}`
	var r search.SidecarResponse
	if err := json.Unmarshal([]byte(good), &r); err != nil {
		t.Fatal(err)
	}
	sem, err := r.Semantic(queries)
	if err != nil || sem.Cosines[0]["CASE-1"] != 0.5 || sem.Embedder != "hash" {
		t.Fatalf("good answer: %v %+v", err, sem)
	}
	for name, body := range map[string]string{
		"keyword engine":  strings.Replace(good, `"semantic"`, `"keyword"`, 1),
		"no embedder":     strings.Replace(good, `"hash"`, `""`, 1),
		"no digest":       strings.Replace(good, `"indexedDigest":"d"`, `"indexedDigest":""`, 1),
		"query mismatch":  strings.Replace(good, `"query":"b"`, `"query":"c"`, 1),
		"bad type":        strings.Replace(good, `"type":"case"`, `"type":"event"`, 1),
		"no cosine":       strings.Replace(good, `,"cosine":0.5`, ``, 1),
		"cosine too big":  strings.Replace(good, `0.5`, `7`, 1),
		"missing results": `{"engine":"semantic","embedder":"hash","indexedDigest":"d","results":[]}`,
		"empty object":    `{}`,
	} {
		var r search.SidecarResponse
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			continue // undecodable is refused earlier, by the caller
		}
		if _, err := r.Semantic(queries); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestSidecarRequest(t *testing.T) {
	req, _ := search.Parse(search.Body{Queries: []string{"a"}, K: ptr(20.0), Types: []string{"task", "case"}, Domain: "work", Status: "todo", IncludeArchived: true})
	got := search.NewSidecarRequest(req)
	want := search.SidecarRequest{Queries: []string{"a"}, Limit: 100, Types: []string{"case", "task"}, Domain: "work", Status: "todo", IncludeArchived: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
