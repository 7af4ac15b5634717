package store

import (
	"runtime"
	"sync"

	"github.com/opsboard/opsboard/shared/wire"
)

// keysOf is key of every message, in order. A key hashes the mail's body
// when it has no Message-ID, which at start-up is most of the work of
// indexing a large board, so a long list is shared out over every core.
func keysOf(list wire.List[*wire.Message], key func(*wire.Message) string) []string {
	keys := make([]string, list.Len())
	workers := min(runtime.GOMAXPROCS(0), max(list.Len()/1024, 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w * len(keys) / workers; i < (w+1)*len(keys)/workers; i++ {
				keys[i] = key(list.At(i))
			}
		})
	}
	wg.Wait()
	return keys
}
