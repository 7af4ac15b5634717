package correspondents_test

import (
	"fmt"
	"testing"

	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/shared/wire"
)

// BenchmarkDerive runs the derivation over a node's thread: half inbound
// from 20 correspondents, half replies to two of them with a cc.
func BenchmarkDerive(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		msgs := make([]wire.Message, n)
		for i := range msgs {
			at := fmt.Sprintf("2026-01-01T%02d:%02d:00Z", i/60%24, i%60)
			if i%2 == 0 {
				msgs[i] = in(fmt.Sprintf("Person %d <p%d@x.com>", i%20, i%20), at)
			} else {
				msgs[i] = out(at, []string{fmt.Sprintf("p%d@x.com", (i-1)%20), "team@y.com"}, "boss@y.com")
			}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				correspondents.Derive(msgs, me)
			}
		})
	}
}
