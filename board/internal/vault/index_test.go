package vault

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsboard/opsboard/shared/vaultpage"
)

// The title order kept in step with each change is the order a full sort
// gives, whatever mix of adds, edits, removes and folder removals led to it.
func TestIndexKeepsTitleOrderThroughChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := newIndex()
	page := func() *entry {
		rel := fmt.Sprintf("f%d/p%d.md", rng.IntN(4), rng.IntN(60))
		body := fmt.Sprintf("---\ntitle: T%d\n---\n", rng.IntN(30)) // titles repeat across paths
		return newEntry(vaultpage.Parse(rel, []byte(body)), time.Time{}, false)
	}
	x.load([]*entry{page(), page(), page()})
	for i := range 2000 {
		switch rng.IntN(10) {
		case 0:
			x.removeUnder(fmt.Sprintf("f%d", rng.IntN(4)))
		case 1, 2:
			x.remove(page().page.Path)
		default:
			x.put(page())
		}
		want := make([]*entry, 0, len(x.pages))
		for _, e := range x.pages {
			want = append(want, e)
		}
		slices.SortFunc(want, func(a, b *entry) int { return strings.Compare(a.key, b.key) })
		if !slices.Equal(want, x.sorted) {
			t.Fatalf("step %d: sorted has %d pages, the map %d, or their order differs", i, len(x.sorted), len(want))
		}
	}
}
