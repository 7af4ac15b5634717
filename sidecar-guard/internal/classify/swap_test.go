package classify_test

import (
	"context"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/classify"
)

type fixed struct{ name string }

func (f fixed) Name() string { return f.name }
func (f fixed) Score(context.Context, string) (classify.Score, error) {
	return classify.Score{Value: 0.9, Windows: 1}, nil
}

func TestSwapChangesTheAnsweringBackend(t *testing.T) {
	s := classify.NewSwap(classify.Heuristic{})
	c := classify.New(s, 0.5)
	if c.Name() != wire.ClassifierHeuristic || !c.Degraded() {
		t.Errorf("before the swap: %s degraded=%v", c.Name(), c.Degraded())
	}
	s.Set(fixed{"model:x"})
	v, err := c.Mail(context.Background(), "hello", "")
	if err != nil || v.Classifier != "model:x" || !v.Flagged || c.Degraded() {
		t.Errorf("after the swap: %+v %v degraded=%v", v, err, c.Degraded())
	}
}
