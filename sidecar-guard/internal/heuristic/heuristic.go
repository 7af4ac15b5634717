// Package heuristic is the guard's deterministic, offline prompt-injection
// detector (classifier name "heuristic-fallback"). It needs no model and no
// network, runs in time linear in the text length, and names every rule that
// fired so a person can see why a text was flagged.
//
// A scan reads the text as package normalize leaves it (invisible
// characters gone but counted, look-alike letters and spaced-out words
// undone, encoded runs decoded into segments of their own), folds it
// (accents, case, quotes, spaces), cuts it into sentences and runs a fixed
// table of regular expressions over each sentence. An expression is only
// tried, anchored, at a word it can start with; one pass over the words
// finds those (see gate.go). Literal format markers are searched in the
// whole text. Each decoded segment is scanned the same way, so
// instructions cannot hide in base64, quoted-printable or tag characters.
package heuristic

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/sidecar-guard/internal/normalize"
)

// Result is the verdict of one scan.
type Result struct {
	// Score is in 0..1: 0 when no rule fired, at least 0.9 when one did, so
	// a hit is flagged at every preset threshold. More distinct rules give
	// a slightly higher score, at most 0.99.
	Score float64
	// Rules names the rules that fired, sorted, without duplicates; empty
	// (not nil) when nothing fired.
	Rules []string
}

// Scan checks one text for prompt-injection markers. It is pure and safe
// for concurrent use.
func Scan(text string) Result {
	return scan(text, true)
}

// scan is Scan with the word gate switchable, so a test can show the gate
// never changes a verdict.
func scan(text string, gated bool) Result {
	hits := map[string]bool{}
	n := normalize.Text(text)
	found := scanNormal(n.Text, n.Signals, gated, hits)
	invisible := n.Signals.Invisible > 0
	for _, seg := range n.Segments {
		inner := map[string]bool{}
		if scanNormal(seg.Text, seg.Signals, gated, inner) {
			found = true
			invisible = invisible || seg.Signals.Invisible > 0
		}
		if len(inner) == 0 {
			continue
		}
		maps.Copy(hits, inner)
		if rule := decodedRules[seg.Kind]; rule != "" {
			hits[rule] = true
		}
	}
	if invisible && found {
		hits[ruleHiddenStripped] = true
	}
	return result(hits)
}

// decodedRules names the rule a decoded segment adds when it holds an
// attack. Tag text needs none: the tags alone are already a rule.
var decodedRules = map[normalize.Kind]string{
	normalize.Base64:          ruleHiddenBase64,
	normalize.QuotedPrintable: ruleHiddenQuotedPrintable,
}

func result(hits map[string]bool) Result {
	rules := make([]string, 0, len(hits))
	for name := range hits {
		rules = append(rules, name)
	}
	slices.Sort(rules)
	if len(rules) == 0 {
		return Result{Rules: rules}
	}
	score := 0.9 + 0.02*float64(len(rules)-1)
	if score > 0.99 {
		score = 0.99
	}
	return Result{Score: score, Rules: rules}
}

// scanNormal runs the rules over one normalised text and adds the rules
// its signals name. It reports whether a phrase or marker rule fired.
func scanNormal(text string, sig normalize.Signals, gated bool, hits map[string]bool) bool {
	if sig.InWord {
		hits[ruleHiddenInWord] = true
	}
	if sig.BidiOverride {
		hits[ruleHiddenBidi] = true
	}
	if sig.Tags > 0 {
		hits[ruleHiddenTags] = true
	}
	before := len(hits)
	folded := fold(text)
	scanPhrases(folded, gated, hits)
	scanMarkers(folded, hits)
	scanUnrelated(folded, hits)
	return len(hits) > before
}

// scanPhrases runs the phrase rules over each sentence of folded text,
// trying each pattern only where a word it can start with starts.
func scanPhrases(folded string, gated bool, hits map[string]bool) {
	g := phraseGate
	for sentence := range sentences(folded) {
		g.eachWord(sentence, gated, func(start int, set patternSet) {
			for id := range set.all() {
				p := &g.patterns[id]
				r := &phraseRules[p.rule]
				if !hits[r.name] && r.matchesAt(p.re, sentence, start) {
					hits[r.name] = true
				}
			}
		})
	}
}

// matchesAt reports whether re matches s at start without a veto of r.
func (r *phraseRule) matchesAt(re *regexp.Regexp, s string, start int) bool {
	text := s[start:min(len(s), start+window)]
	if r.needs != nil && !containsAny(text, r.needs) {
		return false
	}
	loc := re.FindStringIndex(text)
	if loc == nil {
		return false
	}
	if r.vetoMatch != nil && r.vetoMatch.MatchString(text[loc[0]:loc[1]]) {
		return false
	}
	if r.negated && negBefore.MatchString(s[max(0, start-32):start]) {
		return false
	}
	if r.negated && r.after != nil {
		end := start + loc[1]
		rest := s[end:min(len(s), end+32)]
		if negAfter.MatchString(rest) || r.after.MatchString(rest) {
			return false
		}
	}
	return true
}

// sentences yields the sentences of folded text: it cuts at line breaks
// and after '.', '!', '?' or ';' followed by a space.
func sentences(s string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := 0
		for i := 0; i < len(s); i++ {
			c := s[i]
			cut := c == '\n' ||
				((c == '.' || c == '!' || c == '?' || c == ';') && i+1 < len(s) && s[i+1] == ' ')
			if !cut {
				continue
			}
			end := i
			if c != '\n' {
				end = i + 1
			}
			if end > start && !yield(strings.TrimSpace(s[start:end])) {
				return
			}
			start = i + 1
		}
		if start < len(s) {
			yield(strings.TrimSpace(s[start:]))
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
