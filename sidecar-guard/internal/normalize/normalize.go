// Package normalize turns untrusted text into the form every detector of
// the guard reads: Unicode NFKC, invisible characters removed, Latin
// look-alike letters folded, letters split by spaces, dots or dashes
// joined, and base64, quoted-printable and tag-character runs decoded
// into segments of their own. Each step is a pure function; Text runs
// them all, in time linear in the input.
//
// Case, accents and punctuation are kept: a detector folds those its own
// way. What was removed or rewritten is counted in Signals, because
// hiding text is itself a sign of an attack.
package normalize

// Kind says where a decoded segment came from.
type Kind string

const (
	// Tags is ASCII spelled in Unicode tag characters (U+E0020..E007E),
	// invisible on screen but read by a model.
	Tags Kind = "tags"
	// Base64 is a readable text decoded from a base64 run.
	Base64 Kind = "base64"
	// QuotedPrintable is a readable text decoded from a run of =XX escapes.
	QuotedPrintable Kind = "quoted-printable"
	// WordBreaks is the text again with each run of invisible characters
	// read as a space, when one sat inside a word: it may have stood for
	// the space between two words.
	WordBreaks Kind = "word-breaks"
)

// Limits that keep the work and the output linear in the input.
const (
	// MaxDepth is how many times decoded text is decoded again: a base64
	// run inside a base64 run is read, a third level is not.
	MaxDepth = 2
	// MaxSegments bounds the decoded segments of one text, all depths.
	MaxSegments = 16
	// MaxRunBytes bounds the decoded bytes kept from one run; a longer run
	// is read from its start.
	MaxRunBytes = 4096
)

// Signals counts what normalisation removed or rewrote.
type Signals struct {
	// Invisible counts removed format characters (category Cf: zero-width
	// spaces and joiners, soft hyphens, bidi controls, tags).
	Invisible int
	// InWord is true when an invisible character sat between two Latin
	// letters, the usual way to split a trigger word ("ig\u200bnore").
	InWord bool
	// Bidi counts removed bidi controls (marks, embeddings, isolates).
	Bidi int
	// BidiOverride is true for U+202D or U+202E, which reverse how text is
	// displayed without changing what a model reads.
	BidiOverride bool
	// Tags counts removed tag characters.
	Tags int
	// Confusables counts Cyrillic and Greek letters folded to Latin.
	Confusables int
	// Collapsed counts runs of split letters joined into words.
	Collapsed int
}

// Segment is one decoded run, normalised like the text it came from.
type Segment struct {
	Kind    Kind
	Depth   int // 1 for a run in the text, 2 for a run inside a decoded run
	Text    string
	Signals Signals
}

// Result is a normalised text with what was found on the way.
type Result struct {
	Text     string
	Signals  Signals
	Segments []Segment // in the order found, each before the runs inside it
}

// Text normalises s and decodes the runs hidden in it. It is pure and
// safe for concurrent use.
func Text(s string) Result {
	var segs []Segment
	r := text(s, 0, &segs)
	r.Segments = segs
	return r
}

// text normalises s found at depth and appends the segments decoded from
// it (and from them) to segs.
func text(s string, depth int, segs *[]Segment) Result {
	stripped, inv := StripInvisible(s)
	composed := NFKC(stripped)
	// Joining comes first so a look-alike split from its word ("а l l")
	// is folded with the word it joins.
	joined, nJoin := CollapseSpaced(composed)
	folded, nConf := FoldConfusables(joined)
	r := Result{Text: folded, Signals: Signals{
		Invisible:    inv.Removed,
		InWord:       inv.InWord,
		Bidi:         inv.Bidi,
		BidiOverride: inv.BidiOverride,
		Tags:         inv.Tags,
		Confusables:  nConf,
		Collapsed:    nJoin,
	}}
	if depth >= MaxDepth {
		return r
	}
	if inv.InWord {
		// The same text, not decoded again: its runs are read below.
		addSegment(segs, WordBreaks, InvisibleAsSpace(s), depth+1, MaxDepth)
	}
	// Runs are looked for before joining and folding, which could cut an
	// encoded run ("-" and "_" are base64url letters).
	if inv.TagText != "" {
		addSegment(segs, Tags, inv.TagText, depth+1, depth+1)
	}
	for _, d := range Base64Runs(composed, MaxSegments-len(*segs)) {
		addSegment(segs, Base64, d, depth+1, depth+1)
	}
	for _, d := range QuotedPrintableRuns(composed, MaxSegments-len(*segs)) {
		addSegment(segs, QuotedPrintable, d, depth+1, depth+1)
	}
	return r
}

// addSegment normalises a decoded text into segs, before the runs inside
// it, which are decoded only while decodeDepth is below MaxDepth.
func addSegment(segs *[]Segment, kind Kind, decoded string, depth, decodeDepth int) {
	if len(*segs) >= MaxSegments {
		return
	}
	i := len(*segs)
	*segs = append(*segs, Segment{Kind: kind, Depth: depth})
	r := text(decoded, decodeDepth, segs)
	(*segs)[i].Text, (*segs)[i].Signals = r.Text, r.Signals
}
