package hub

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestSummaryLogsEachFileOnceWhenIn(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	s := &summary{log: slog.New(slog.NewTextHandler(&buf, nil)), now: func() time.Time { now = now.Add(time.Second); return now }}
	for _, step := range []struct {
		file        string
		done, total int64
	}{{"a", 0, 10}, {"a", 5, 10}, {"a", 10, 10}, {"b", 0, 3 << 20}, {"b", 3 << 20, 3 << 20}} {
		s.update(step.file, step.done, step.total)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "file=a bytes=10") || !strings.Contains(lines[1], "file=b bytes=3145728") || !strings.Contains(lines[1], "MiBps=3") {
		t.Errorf("summary lines:\n%s", buf.String())
	}
}

func TestBarsNameTheFile(t *testing.T) {
	var buf bytes.Buffer
	b := &bars{w: &buf}
	b.update("model.safetensors", 0, 100)
	b.update("model.safetensors", 100, 100)
	if !strings.Contains(buf.String(), "model.safetensors") || !strings.Contains(buf.String(), "100%") {
		t.Errorf("bar output %q", buf.String())
	}
}
