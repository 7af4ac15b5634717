package index_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-search/internal/embed"
	"github.com/opsboard/opsboard/sidecar-search/internal/index"
)

// counting wraps an embedder and counts the texts it embeds.
type counting struct {
	embed.Embedder
	name string
	n    atomic.Int64
}

func (c *counting) Name() string { return c.name }
func (c *counting) Embed(dst []float32, text string) {
	c.n.Add(1)
	c.Embedder.Embed(dst, text)
}

func newCounting(name string) *counting { return &counting{Embedder: embed.Hash{}, name: name} }

func fixture() *wire.Doc {
	return &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{
			{ID: "CASE-1", Title: "Renew passport", Summary: "Appointment at the consulate", Tags: []string{"travel"}, Labels: []string{"waiting-on"}, Status: "todo", Domain: "life", Kind: "case",
				Tasks: []wire.Task{{ID: "CASE-1-T1", Title: "Book photo booth", Detail: "two photos"}}},
			{ID: "CASE-2", Title: "Quarterly revenue forecast", Status: "in_progress", Domain: "work", Kind: "case"},
			{ID: "CASE-3", Title: "Old passport claim", Status: "done", Domain: "life", Kind: "case", ArchivedAt: "2024-01-01T00:00:00Z"},
		}...),
		Messages: wire.ListOf([]*wire.Message{
			{ID: "M-1", Subject: "Your passport appointment", From: "consulate@example.org", Preview: "Bring two photos", CaseID: "CASE-1"},
			{ID: "M-2", Subject: "Invoice 42", From: "billing@example.com", Preview: "Revenue for the quarter"},
		}...),
		Reminders: wire.ListOf([]*wire.Reminder{
			{ID: "REM-1", Title: "Passport photos", Detail: "pick up", Status: "done", Domain: "life", CaseID: "CASE-1", Labels: []string{"follow-up"}, Tasks: []wire.ReminderTask{{ID: "REM-1-T1", Title: "print"}}},
			{ID: "REM-2", Title: "Passport expiry check", Status: "dismissed"},
		}...),
	}
}

func TestDocsFollowTheSpecTable(t *testing.T) {
	got := index.Docs(fixture())
	for i := range got {
		got[i].Hash = 0
	}
	want := []index.Doc{
		{ID: "CASE-1", Type: "case", CaseID: "CASE-1", Domain: "life", Status: "todo", Text: "Renew passport\nAppointment at the consulate\ntravel\nwaiting-on"},
		{ID: "CASE-1::CASE-1-T1", Type: "task", CaseID: "CASE-1", Domain: "life", Status: "todo", Text: "Book photo booth\ntwo photos"},
		{ID: "CASE-2", Type: "case", CaseID: "CASE-2", Domain: "work", Status: "in_progress", Text: "Quarterly revenue forecast"},
		{ID: "CASE-3", Type: "case", CaseID: "CASE-3", Domain: "life", Status: "done", Archived: true, Text: "Old passport claim"},
		{ID: "M-1", Type: "message", CaseID: "CASE-1", Text: "Your passport appointment\nconsulate@example.org\nBring two photos"},
		{ID: "M-2", Type: "message", Text: "Invoice 42\nbilling@example.com\nRevenue for the quarter"},
		{ID: "REM-1", Type: "reminder", CaseID: "CASE-1", Domain: "life", Text: "Passport photos\npick up\nfollow-up\nprint\nlife"},
		{ID: "REM-2", Type: "reminder", Text: "Passport expiry check"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestDigestIsContentOnly(t *testing.T) {
	docs := index.Docs(fixture())
	d1 := index.Digest(docs)
	rev := slices.Clone(docs)
	slices.Reverse(rev)
	if d2 := index.Digest(rev); d2 != d1 {
		t.Errorf("order changed the digest: %s vs %s", d1, d2)
	}
	f := fixture()
	f.Version = 99
	f.Cases.At(1).Status = "done" // not embedded text
	if d := index.Digest(index.Docs(f)); d != d1 {
		t.Error("a change outside the embedded text changed the digest")
	}
	f.Cases.At(1).Title = "Annual revenue forecast"
	if d := index.Digest(index.Docs(f)); d == d1 {
		t.Error("a title change left the digest unchanged")
	}
}

func TestUpdateReembedsOnlyWhatChanged(t *testing.T) {
	ctx := context.Background()
	ix := index.New()
	e := newCounting("hash")
	f := fixture()

	rep, err := ix.Update(ctx, index.Docs(f), e, false)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Rebuilt || rep.Embedded != 8 || rep.Docs != 8 || e.n.Load() != 8 {
		t.Fatalf("first build: %+v, %d embedded", rep, e.n.Load())
	}
	slotM2, _ := ix.Slot("M-2")

	rep, _ = ix.Update(ctx, index.Docs(fixture()), e, false)
	if rep.Rebuilt || rep.Embedded != 0 || e.n.Load() != 8 {
		t.Fatalf("same content: %+v, %d embedded", rep, e.n.Load())
	}

	f.Messages.At(0).Subject = "Passport appointment moved"
	f.Reminders = wire.ListOf(f.Reminders.At(0))
	rep, _ = ix.Update(ctx, index.Docs(f), e, false)
	if !rep.Rebuilt || rep.Embedded != 1 || rep.Removed != 1 || rep.Docs != 7 || e.n.Load() != 9 {
		t.Fatalf("one edit, one removal: %+v, %d embedded", rep, e.n.Load())
	}
	if s, _ := ix.Slot("M-2"); s != slotM2 {
		t.Errorf("M-2 moved from slot %d to %d across a rebuild", slotM2, s)
	}

	other := newCounting("other")
	rep, _ = ix.Update(ctx, index.Docs(f), other, false)
	if !rep.Rebuilt || rep.Embedded != 7 || other.n.Load() != 7 {
		t.Fatalf("new embedder: %+v", rep)
	}
	if s, _ := ix.Slot("M-2"); s != slotM2 {
		t.Errorf("M-2 moved from slot %d to %d when the embedder changed", slotM2, s)
	}
	if st := ix.Stats(); st.Embedder != "other" || st.Counts["reminder"] != 1 || st.Counts["case"] != 3 {
		t.Errorf("stats %+v", st)
	}

	rep, _ = ix.Update(ctx, index.Docs(f), other, true)
	if !rep.Rebuilt || rep.Embedded != 7 {
		t.Fatalf("forced: %+v", rep)
	}
}

func ids(hits []index.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

func TestSearchFilters(t *testing.T) {
	ctx := context.Background()
	ix := index.New()
	e := embed.Hash{}
	if _, err := ix.Update(ctx, index.Docs(fixture()), e, false); err != nil {
		t.Fatal(err)
	}
	all := func(f index.Filter) []string {
		res, _, err := ix.Search(ctx, []string{"passport"}, f, 50, e)
		if err != nil {
			t.Fatal(err)
		}
		got := ids(res[0])
		slices.Sort(got)
		return got
	}
	for _, tc := range []struct {
		name   string
		filter index.Filter
		want   []string
	}{
		{"archived cases are hidden by default", index.Filter{}, []string{"CASE-1", "CASE-1::CASE-1-T1", "CASE-2", "M-1", "M-2", "REM-1", "REM-2"}},
		{"includeArchived brings them back", index.Filter{IncludeArchived: true}, []string{"CASE-1", "CASE-1::CASE-1-T1", "CASE-2", "CASE-3", "M-1", "M-2", "REM-1", "REM-2"}},
		{"types", index.Filter{Types: map[string]bool{"reminder": true, "task": true}}, []string{"CASE-1::CASE-1-T1", "REM-1", "REM-2"}},
		{"domain: messages and domainless reminders are exempt", index.Filter{Domain: "work"}, []string{"CASE-2", "M-1", "M-2", "REM-2"}},
		{"status: reminders and messages are exempt", index.Filter{Status: "in_progress"}, []string{"CASE-2", "M-1", "M-2", "REM-1", "REM-2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, all(tc.filter)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestSearchRanksAndLimits(t *testing.T) {
	ctx := context.Background()
	ix := index.New()
	e := embed.Hash{}
	docs := index.Docs(fixture())
	if _, err := ix.Update(ctx, docs, e, false); err != nil {
		t.Fatal(err)
	}
	res, digest, err := ix.Search(ctx, []string{"quarterly revenue forecast", "renew passport", "   ;;; "}, index.Filter{}, 2, e)
	if err != nil {
		t.Fatal(err)
	}
	if digest != index.Digest(docs) {
		t.Errorf("digest %s", digest)
	}
	if len(res) != 3 || len(res[0]) != 2 || len(res[1]) != 2 {
		t.Fatalf("results %+v", res)
	}
	if res[0][0].ID != "CASE-2" || res[1][0].ID != "CASE-1" {
		t.Errorf("top hits %s, %s", res[0][0].ID, res[1][0].ID)
	}
	if res[0][0].Cosine < res[0][1].Cosine || res[0][0].Cosine > 1.0001 {
		t.Errorf("cosines %v", res[0])
	}
	if len(res[2]) != 0 {
		t.Errorf("a query without words has hits: %v", res[2])
	}
	if _, _, err := ix.Search(ctx, []string{"x"}, index.Filter{}, 2, newCounting("other")); err == nil {
		t.Error("searching with another embedder than the index's succeeded")
	}
}

func TestSameStoreSameIndexAndRanking(t *testing.T) {
	ctx := context.Background()
	queries := []string{"passport photos", "revenue", "consulate appointment"}
	var runs [][][]index.Hit
	var digests []string
	for range 2 {
		ix := index.New()
		if _, err := ix.Update(ctx, index.Docs(fixture()), embed.Hash{}, false); err != nil {
			t.Fatal(err)
		}
		res, d, err := ix.Search(ctx, queries, index.Filter{IncludeArchived: true}, 50, embed.Hash{})
		if err != nil {
			t.Fatal(err)
		}
		runs, digests = append(runs, res), append(digests, d)
	}
	if digests[0] != digests[1] {
		t.Errorf("digests differ: %v", digests)
	}
	if diff := cmp.Diff(runs[0], runs[1]); diff != "" {
		t.Errorf("rankings differ (-first +second)\n%s", diff)
	}
}

func ExampleTaskDocID() {
	fmt.Println(index.TaskDocID("CASE-7", "CASE-7-T2"))
	// Output: CASE-7::CASE-7-T2
}

func TestBatchedQueriesRankAsAlone(t *testing.T) {
	ctx := context.Background()
	ix := index.New()
	e := embed.Hash{}
	if _, err := ix.Update(ctx, index.Docs(fixture()), e, false); err != nil {
		t.Fatal(err)
	}
	queries := []string{"passport", "revenue forecast", "consulate photos", "invoice", "old claim"}
	together, _, err := ix.Search(ctx, queries, index.Filter{IncludeArchived: true}, 50, e)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range queries {
		alone, _, _ := ix.Search(ctx, []string{q}, index.Filter{IncludeArchived: true}, 50, e)
		if diff := cmp.Diff(ids(alone[0]), ids(together[i])); diff != "" {
			t.Errorf("%q ranks differently in a batch (-alone +batched)\n%s", q, diff)
		}
		for k := range alone[0] {
			if d := alone[0][k].Cosine - together[i][k].Cosine; d > 1e-5 || d < -1e-5 {
				t.Errorf("%q: cosine of %s %v alone, %v batched", q, alone[0][k].ID, alone[0][k].Cosine, together[i][k].Cosine)
			}
		}
	}
}
