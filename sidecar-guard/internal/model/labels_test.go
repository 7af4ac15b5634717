package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMaliciousIndex(t *testing.T) {
	tests := []struct {
		name     string
		id2label map[int]string
		want     int
	}{
		{"prompt guard 2 generic labels take index 1", map[int]string{0: "LABEL_0", 1: "LABEL_1"}, 1},
		{"malicious keyword at 1", map[int]string{0: "BENIGN", 1: "MALICIOUS"}, 1},
		{"malicious keyword at 0 is not inverted", map[int]string{0: "INJECTION", 1: "SAFE"}, 0},
		{"jailbreak lowercase", map[int]string{0: "jailbreak", 1: "benign"}, 0},
		{"unsafe beats its safe substring", map[int]string{0: "SAFE", 1: "UNSAFE"}, 1},
		{"unsafe at 0", map[int]string{0: "unsafe", 1: "safe"}, 0},
		{"three classes: lowest malicious index", map[int]string{0: "BENIGN", 1: "INJECTION", 2: "JAILBREAK"}, 1},
		{"harmful", map[int]string{0: "harmless?", 1: "Harmful"}, 1},
		{"attack", map[int]string{0: "Attack", 1: "other"}, 0},
		{"danger", map[int]string{0: "fine", 1: "dangerous"}, 1},
		{"toxic mixed case", map[int]string{0: "clean", 1: "TOXIC"}, 1},
		{"spam", map[int]string{0: "spam", 1: "ham"}, 0},
		{"adversarial prefix", map[int]string{0: "adversarial", 1: "x"}, 0},
		{"benign pair: benign at 1 makes 0 malicious", map[int]string{0: "flagged", 1: "normal"}, 0},
		{"benign pair: legit at 0", map[int]string{0: "legit", 1: "phish"}, 1},
		{"benign pair: negative", map[int]string{0: "positive", 1: "negative"}, 0},
		{"benign pair: ok", map[int]string{0: "ok", 1: "flag"}, 1},
		{"benign pair: none", map[int]string{0: "trigger", 1: "none"}, 0},
		{"both benign falls to index 1", map[int]string{0: "ok", 1: "clean"}, 1},
		{"no keywords falls to index 1", map[int]string{0: "yes", 1: "no"}, 1},
		{"benign pair rule needs exactly two labels", map[int]string{0: "x", 1: "y", 2: "safe"}, 1},
		{"no index 1: highest index", map[int]string{0: "x", 2: "y"}, 2},
		{"single logit head", map[int]string{0: "score"}, 0},
		{"empty map", map[int]string{}, 0},
		{"nil map", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, MaliciousIndex(tt.id2label)); diff != "" {
				t.Errorf("MaliciousIndex(%v) (-want +got):\n%s", tt.id2label, diff)
			}
		})
	}
}
