package classify

import (
	"context"
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// RuleHTMLOnly marks a hidden segment whose text the plain-text part does
// not carry: the HTML tells an agent something the person's copy does not.
const RuleHTMLOnly = "html_only"

// MailHidden screens a mail like Mail and scores hidden, the text its HTML
// part hides from a reader, as segments of their own (field "html", kind
// "hidden"). A hidden segment flags only when its own score reaches the
// threshold, like any other: hiding text is common in ordinary mail
// (preheaders, tracking), so it is no evidence alone. Hidden text that
// the plain-text body lacks is named with RuleHTMLOnly, for the person, and
// moves no score.
func (c *Classifier) MailHidden(ctx context.Context, subject, body, hidden string) (Verdict, error) {
	if strings.TrimSpace(hidden) == "" {
		return c.Mail(ctx, subject, body)
	}
	v, err := c.mailHidden(ctx, c.backend, subject, body, hidden)
	if err == nil || c.backend.Name() == c.fallback.Name() || ctx.Err() != nil {
		return v, err
	}
	v, ferr := c.mailHidden(ctx, c.fallback, subject, body, hidden)
	if ferr != nil {
		return Verdict{}, fmt.Errorf("%w; heuristic: %w", err, ferr)
	}
	v.Fallback = fallbackReason(err)
	return v, nil
}

func (c *Classifier) mailHidden(ctx context.Context, b Backend, subject, body, hidden string) (Verdict, error) {
	v, err := c.mail(ctx, b, subject, body)
	if err != nil {
		return Verdict{}, err
	}
	htmlOnly := absentFrom(hidden, body)
	for i, w := range Windows(hidden, SegmentRunes, SegmentOverlap) {
		if err := ctx.Err(); err != nil {
			return Verdict{}, err
		}
		sc, err := b.Score(ctx, w)
		if err != nil {
			return Verdict{}, fmt.Errorf("hidden window %d: %w", i, err)
		}
		seg := c.segment("html", i, sc)
		seg.Kind = wire.SegmentHidden
		if htmlOnly {
			seg.Rules = append(seg.Rules, RuleHTMLOnly)
		}
		if seg.Flagged {
			seg.Reason = "hidden from the reader and " + seg.Reason
		}
		v.Segments = append(v.Segments, seg)
		v.MaxScore = max(v.MaxScore, seg.Score)
		v.Flagged = v.Flagged || seg.Flagged
	}
	return v, nil
}

// absentFrom reports whether some line of hidden text does not appear in
// body, compared in lower case with white space collapsed.
func absentFrom(hidden, body string) bool {
	b := flat(body)
	for line := range strings.SplitSeq(hidden, "\n") {
		if l := flat(line); l != "" && !strings.Contains(b, l) {
			return true
		}
	}
	return false
}

// flat is s in lower case, its words joined by single spaces: the words of
// strings.Fields, without the slice of them a whole body would need.
func flat(s string) string {
	if ascii(s) {
		return flatASCII(s)
	}
	s = strings.ToLower(s)
	var b strings.Builder
	b.Grow(len(s))
	for w := range strings.FieldsSeq(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// flatASCII is flat for ASCII text, most mail: lowered and collapsed in
// one pass and one copy.
func flatASCII(s string) string {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || (c >= '\t' && c <= '\r'):
			space = true
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		b, space = append(b, c), false
	}
	return string(b)
}
