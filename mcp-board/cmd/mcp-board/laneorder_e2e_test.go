package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/client/clienttest"
	"github.com/opsboard/opsboard/shared/wire"
)

// TestListCasesFollowsTheLaneOrder checks list_cases names a lane's cards in
// the order the page draws them: a position first where it sorts, the
// newest card without a position above the older ones.
func TestListCasesFollowsTheLaneOrder(t *testing.T) {
	board := clienttest.StartBoard(t)
	bin := clienttest.Build(t, ".", ".")
	s := clienttest.StartSession(t, bin, board.URL, server)
	create := func(title string, pos *float64) string {
		body := map[string]any{"title": title, "status": "todo"}
		if pos != nil {
			body["position"] = *pos
		}
		var out wire.CaseReply
		board.Human(t, "POST", "/api/cases", body, &out)
		time.Sleep(5 * time.Millisecond) // distinct creation times
		return out.Case.ID
	}
	top, bottom := -1e12, 0.0
	oldest := create("Oldest", nil)
	middle := create("Middle", nil)
	pinned := create("Pinned on top", &top)
	last := create("Pinned last", &bottom)
	newest := create("Newest", nil)
	board.Human(t, "PATCH", "/api/cases/"+newest, map[string]any{"title": "Newest, renamed"}, nil)

	out := s.OK(t, "list_cases", map[string]any{"status": "todo"})
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "CASE-") {
			got = append(got, f[0])
		}
	}
	if diff := cmp.Diff([]string{pinned, newest, middle, oldest, last}, got); diff != "" {
		t.Errorf("list_cases order (-want +got)\n%s\n%s", diff, out)
	}
}
