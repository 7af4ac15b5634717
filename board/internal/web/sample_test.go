package web

import (
	"context"
	"net/http"
	"time"

	"github.com/opsboard/opsboard/board/internal/demo"
)

// sample fills a board with the demo's realistic week of one person's
// operations (what `make demo` shows and docs/board.png pictures), written
// through the API by the person and by the agent, as in real use. It
// returns the ids of the cases by title.
func sample(b *board) map[string]string {
	b.t.Helper()
	if _, err := demo.Seed(context.Background(), http.DefaultClient, b.URL, time.Now()); err != nil {
		b.t.Fatal(err)
	}
	ids := map[string]string{}
	for _, c := range b.cases() {
		ids[c.Title] = c.ID
	}
	return ids
}
