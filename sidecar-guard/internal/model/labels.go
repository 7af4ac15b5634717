package model

import (
	"slices"
	"strings"
)

// maliciousKeywords mark a label as the attack class when its lowercased
// name contains one of them ("adversar" catches adversarial and adversary).
var maliciousKeywords = []string{"inject", "jailbreak", "malicious", "unsafe", "harmful", "attack", "danger", "toxic", "spam", "adversar"}

// benignKeywords mark a label as the harmless class.
var benignKeywords = []string{"benign", "safe", "clean", "legit", "negative", "normal", "ok", "none"}

// MaliciousIndex resolves which output column of a classification head holds
// the malicious class, from the model's own id2label map. Rules, in order:
// the lowest index whose lowercased label contains a malicious keyword; with
// exactly two labels of which exactly one contains a benign keyword, the
// other one; index 1 if the map has it; otherwise the highest index. It
// never inverts a probability, it only picks a column. An empty map gives 0.
func MaliciousIndex(id2label map[int]string) int {
	if len(id2label) == 0 {
		return 0
	}
	ids := make([]int, 0, len(id2label))
	for id := range id2label {
		ids = append(ids, id)
	}
	slices.Sort(ids)

	// "unsafe" contains "safe": the malicious pass must run first.
	for _, id := range ids {
		if containsAny(strings.ToLower(id2label[id]), maliciousKeywords) {
			return id
		}
	}
	if len(ids) == 2 {
		b0 := containsAny(strings.ToLower(id2label[ids[0]]), benignKeywords)
		b1 := containsAny(strings.ToLower(id2label[ids[1]]), benignKeywords)
		switch {
		case b0 && !b1:
			return ids[1]
		case b1 && !b0:
			return ids[0]
		}
	}
	if _, ok := id2label[1]; ok {
		return 1
	}
	return ids[len(ids)-1]
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
