package heuristic

import (
	"fmt"
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
)

// The gate. Every phrase pattern begins with a word, so the scan tries a
// pattern, anchored, only at the start of a word, and only when that word
// begins with one of the literal prefixes the pattern can start with
// ("ignor", "disregard", "vergiss", ...). The prefixes are read from the
// patterns' syntax trees when the package loads, so they cannot drift
// from the patterns. The words are found in one pass that walks a byte
// trie of all prefixes, and each try reads at most window bytes, so a scan
// costs time linear in the text.

// window bounds how far one anchored try may read; every phrasing the
// rules describe is far shorter.
const window = 240

// compiledPattern is one pattern ready to run.
type compiledPattern struct {
	rule int // index into phraseRules
	re   *regexp.Regexp
}

// patternSet is a bit set over compiled patterns.
type patternSet [4]uint64

func (s *patternSet) add(i int) { s[i/64] |= 1 << (i % 64) }
func (s *patternSet) union(o patternSet) {
	s[0], s[1], s[2], s[3] = s[0]|o[0], s[1]|o[1], s[2]|o[2], s[3]|o[3]
}
func (s patternSet) empty() bool { return s == patternSet{} }

// all yields the members in increasing order.
func (s patternSet) all() func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for w, word := range s {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				if !yield(w*64 + b) {
					return
				}
				word &^= 1 << b
			}
		}
	}
}

// trieNode is one node of the prefix trie; set holds the patterns that
// may start with the prefix ending here.
type trieNode struct {
	set      patternSet
	keys     []byte
	children []int32
}

// gate is the compiled pattern table with its prefix trie; built once.
type gate struct {
	patterns []compiledPattern
	nodes    []trieNode // index 0 is the root
	root     [256]int32 // first byte to child of the root
	all      patternSet // every pattern, for the ungated check
}

var phraseGate = mustBuildGate(phraseRules)

func mustBuildGate(rules []phraseRule) *gate {
	g, err := buildGate(rules)
	if err != nil {
		panic(err) // the rule table is a constant; a bad one fails every test
	}
	return g
}

func buildGate(rules []phraseRule) (*gate, error) {
	g := &gate{nodes: []trieNode{{}}}
	for ri, r := range rules {
		for _, p := range r.patterns {
			id := len(g.patterns)
			if id >= len(patternSet{})*64 {
				return nil, fmt.Errorf("more than %d patterns", len(patternSet{})*64)
			}
			re, err := regexp.Compile(`^(?:` + p + `)`)
			if err != nil {
				return nil, fmt.Errorf("rule %s: %w", r.name, err)
			}
			tree, err := syntax.Parse(p, syntax.Perl)
			if err != nil {
				return nil, fmt.Errorf("rule %s: %w", r.name, err)
			}
			prefixes, ok := firstWords(tree.Simplify())
			if !ok {
				return nil, fmt.Errorf("rule %s: pattern does not start with a word: %s", r.name, p)
			}
			g.patterns = append(g.patterns, compiledPattern{rule: ri, re: re})
			g.all.add(id)
			for _, pre := range prefixes {
				n := int32(0)
				for j := 0; j < len(pre); j++ {
					n = g.childOrAdd(n, pre[j])
				}
				g.nodes[n].set.add(id)
			}
		}
	}
	for k, c := range g.nodes[0].keys {
		g.root[c] = g.nodes[0].children[k]
	}
	return g, nil
}

func (g *gate) childOrAdd(n int32, c byte) int32 {
	if ch := g.child(n, c); ch > 0 {
		return ch
	}
	g.nodes = append(g.nodes, trieNode{})
	id := int32(len(g.nodes) - 1)
	g.nodes[n].keys = append(g.nodes[n].keys, c)
	g.nodes[n].children = append(g.nodes[n].children, id)
	return id
}

func (g *gate) child(n int32, c byte) int32 {
	for k, key := range g.nodes[n].keys {
		if key == c {
			return g.nodes[n].children[k]
		}
	}
	return 0
}

// eachWord calls fn with the start of every word of s and the patterns
// that may start there. When gated is false every pattern is reported at
// every word, which a test uses to show the gate changes no verdict.
func (g *gate) eachWord(s string, gated bool, fn func(start int, set patternSet)) {
	for i := 0; i < len(s); {
		if !wordByte(s[i]) {
			i++
			continue
		}
		start := i
		// Walk the trie from the word start, across spaces too: many
		// prefixes are two words ("do not ", "you are ").
		var set patternSet
		for j, n := i, g.root[s[i]]; n > 0; {
			set.union(g.nodes[n].set)
			if j++; j >= len(s) {
				break
			}
			n = g.child(n, s[j])
		}
		for i < len(s) && wordByte(s[i]) {
			i++
		}
		if !gated {
			set = g.all
		}
		if !set.empty() {
			fn(start, set)
		}
	}
}

// wordByte reports whether c can be part of a word for the gate: letters,
// digits, bytes of non-ASCII runes, and the apostrophes, hyphens and dots
// inside words ("n'oubliez", "a.i.", "dan-modus").
func wordByte(c byte) bool {
	return c >= 0x80 || c == '\'' || c == '-' || c == '.' ||
		('a' <= c && c <= 'z') || ('0' <= c && c <= '9')
}

// prefix is a literal start of a pattern; open means the pattern goes on
// right after it, so the next part's prefixes may be appended.
type prefix struct {
	s    string
	open bool
}

// Limits that keep the prefix sets small; a prefix cut short is still a
// correct (if less selective) prefix.
const (
	maxPrefixLen   = 16
	maxPrefixCount = 96
)

// firstWords returns literal prefixes one of which every match of re
// starts with, or false when re can start otherwise (with a wide class,
// or empty).
func firstWords(re *syntax.Regexp) ([]string, bool) {
	ps, ok := prefixes(re)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if p.s == "" {
			return nil, false
		}
		out = append(out, p.s)
	}
	return out, true
}

// prefixes lists the literal prefixes one of which every match of re
// starts with; open ones may continue with what follows re. It is false
// when re can start in a way no short list covers.
func prefixes(re *syntax.Regexp) ([]prefix, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return literalPrefixes(re), true
	case syntax.OpCharClass:
		return classPrefixes(re)
	case syntax.OpCapture:
		return prefixes(re.Sub[0])
	case syntax.OpPlus:
		if isSpaceClass(re.Sub[0]) {
			// Folded sentences have single spaces, so \s+ is one space.
			return []prefix{{" ", true}}, true
		}
		return closeAll(prefixes(re.Sub[0]))
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return closeAll(prefixes(re.Sub[0]))
		}
		return nil, false
	case syntax.OpQuest:
		ps, ok := prefixes(re.Sub[0])
		return append(ps, prefix{"", true}), ok
	case syntax.OpStar:
		if isSpaceClass(re.Sub[0]) {
			return []prefix{{"", true}, {" ", true}}, true
		}
		ps, ok := closeAll(prefixes(re.Sub[0]))
		return append(ps, prefix{"", true}), ok
	case syntax.OpAlternate:
		var out []prefix
		for _, sub := range re.Sub {
			p, ok := prefixes(sub)
			if !ok {
				return nil, false
			}
			out = append(out, p...)
		}
		return out, true
	case syntax.OpConcat:
		return concatPrefixes(re), true
	}
	return nil, false
}

// literalPrefixes is a literal's ASCII start: the whole literal, open,
// when it is all ASCII, else the bytes before its first other rune, closed.
func literalPrefixes(re *syntax.Regexp) []prefix {
	var b []byte
	for _, r := range re.Rune {
		if r >= 0x80 {
			return []prefix{{string(b), false}}
		}
		b = append(b, byte(r))
	}
	return []prefix{{string(b), true}}
}

// classPrefixes is one space for \s, or one prefix per byte of a small
// class of word bytes, like [eo].
func classPrefixes(re *syntax.Regexp) ([]prefix, bool) {
	if isSpaceClass(re) {
		return []prefix{{" ", true}}, true
	}
	var out []prefix
	for i := 0; i+1 < len(re.Rune); i += 2 {
		for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
			if r >= 0x80 || !wordByte(byte(r)) || len(out) >= 8 {
				return nil, false
			}
			out = append(out, prefix{string(rune(r)), true})
		}
	}
	return out, len(out) > 0
}

// concatPrefixes extends the prefixes part by part, skipping empty-width
// assertions, until none is open or the parts can no longer be followed.
func concatPrefixes(re *syntax.Regexp) []prefix {
	cur := []prefix{{"", true}}
	for _, sub := range re.Sub {
		switch sub.Op {
		case syntax.OpWordBoundary, syntax.OpBeginText, syntax.OpBeginLine, syntax.OpEmptyMatch:
			continue
		}
		next, ok := prefixes(sub)
		if ok && len(cur) == 1 && cur[0].s == "" && len(cur)*len(next) > maxPrefixCount {
			ps, _ := closeAll(next, true)
			return ps
		}
		if !ok || len(cur)*len(next) > maxPrefixCount {
			// Unknown or too many continuations: what we have is
			// still a correct prefix of every match.
			ps, _ := closeAll(cur, true)
			return ps
		}
		var anyOpen bool
		cur, anyOpen = extend(cur, next)
		if !anyOpen {
			break
		}
	}
	return dedupe(cur)
}

// extend appends each of next to each open prefix of cur, cutting at
// maxPrefixLen, and reports whether any result is still open.
func extend(cur, next []prefix) (out []prefix, anyOpen bool) {
	for _, c := range cur {
		if !c.open {
			out = append(out, c)
			continue
		}
		for _, n := range next {
			s, open := c.s+n.s, n.open
			if len(s) > maxPrefixLen {
				s, open = s[:maxPrefixLen], false
			}
			out = append(out, prefix{s, open})
			anyOpen = anyOpen || open
		}
	}
	return out, anyOpen
}

// isSpaceClass reports whether re is \s, the only white space left in a
// folded sentence being a single ' '.
func isSpaceClass(re *syntax.Regexp) bool {
	return re.Op == syntax.OpCharClass && slices.Equal(re.Rune, []rune{'\t', '\n', '\f', '\r', ' ', ' '})
}

func closeAll(ps []prefix, ok bool) ([]prefix, bool) {
	out := make([]prefix, len(ps))
	for i, p := range ps {
		out[i] = prefix{p.s, false}
	}
	return out, ok
}

func dedupe(ps []prefix) []prefix {
	seen := map[prefix]bool{}
	out := ps[:0]
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
