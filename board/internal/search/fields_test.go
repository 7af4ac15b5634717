package search_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/search"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestFieldsReachBodiesAndNotes(t *testing.T) {
	d := &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{
			{ID: "CASE-1", Title: "Office move", Status: "todo", Notes: []wire.Note{{ID: "N1", Text: "The landlord wants the Zeppelin key back"}}},
			{ID: "CASE-2", Title: "Zeppelin tour", Status: "todo"},
		}...),
		Messages: wire.ListOf([]*wire.Message{
			{ID: "M-1", Subject: "Quote", Body: "Our quote for the zeppelin hangar is attached."},
			{ID: "M-2", Subject: "Lunch", Body: "See you at noon."},
		}...),
	}
	ix := search.Build(d, nil)
	ids := func(fields ...string) []string {
		req, err := search.Parse(search.Body{Q: ptr("zeppelin"), Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, h := range search.Rank(ix, req, nil).Results[0].Hits {
			out = append(out, h.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		fields []string
		want   []string
	}{
		{"without fields, as before: titles and headers only", nil, []string{"CASE-2"}},
		{"notes", []string{"notes"}, []string{"CASE-2", "CASE-1"}},
		{"body", []string{"body"}, []string{"CASE-2", "M-1"}},
		{"both", []string{"body", "notes"}, []string{"CASE-2", "CASE-1", "M-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ids(tc.fields...)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if _, err := search.Parse(search.Body{Q: ptr("x"), Fields: []string{"attachments"}}); err == nil || err.Error() != `field 'fields' may hold "body" and "notes", not "attachments"` {
		t.Errorf("an unknown field: %v", err)
	}
}

// After a request with fields, the next snapshot's index carries the
// analysis of unchanged records and analyses the new ones.
func TestFieldsAcrossSnapshots(t *testing.T) {
	m1 := &wire.Message{ID: "M-1", Subject: "Quote", Body: "the zeppelin hangar"}
	d1 := &wire.Doc{Messages: wire.ListOf([]*wire.Message{m1}...)}
	req, err := search.Parse(search.Body{Q: ptr("zeppelin"), Fields: []string{"body"}})
	if err != nil {
		t.Fatal(err)
	}
	hits := func(ix *search.Index) []string {
		out := []string{}
		for _, h := range search.Rank(ix, req, nil).Results[0].Hits {
			out = append(out, h.ID)
		}
		return out
	}
	ix1 := search.Build(d1, nil)
	if diff := cmp.Diff([]string{"M-1"}, hits(ix1)); diff != "" {
		t.Fatalf("first snapshot (-want +got)\n%s", diff)
	}
	d2 := &wire.Doc{Messages: wire.ListOf([]*wire.Message{m1, {ID: "M-2", Subject: "Re: quote", Body: "a second zeppelin"}}...),
		Cases: wire.ListOf([]*wire.Case{{ID: "CASE-1", Title: "Hangar", Notes: []wire.Note{{Text: "zeppelin parking"}}}}...)}
	if diff := cmp.Diff([]string{"M-1", "M-2"}, hits(search.Build(d2, ix1))); diff != "" {
		t.Errorf("next snapshot (-want +got)\n%s", diff)
	}
}
