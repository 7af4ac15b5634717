// Package nldate reads a date said in words ("tomorrow 9am", "next fri",
// "in 3 days") as a due date in the board's time zone, with the
// olebedev/when parser's English and common rules.
package nldate

import (
	"regexp"
	"strings"
	"time"

	"github.com/olebedev/when"
	"github.com/olebedev/when/rules/common"
	"github.com/olebedev/when/rules/en"
)

// Result is a resolved date.
type Result struct {
	// DueAt is YYYY-MM-DD for a day, else RFC 3339 with the zone's offset.
	DueAt  string
	AllDay bool
	// Text is the part of the input the date was read from.
	Text string
}

// Parser resolves dates in words; it holds the parser's compiled rules, so
// make one and reuse it.
type Parser struct{ w *when.Parser }

// New makes a Parser.
func New() *Parser {
	w := when.New(nil)
	w.Add(en.All...)
	w.Add(common.All...)
	return &Parser{w: w}
}

// clockWords mark a text that says a time of day or a span shorter than a
// day, so its result is a moment rather than a day.
var clockWords = regexp.MustCompile(`(?i)\b(\d{1,2}(:\d{2})?\s*(am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|noon|midnight|morning|afternoon|evening|tonight|hours?|minutes?|mins?)\b`)

// reach bounds how many years from now a date in words may land. No due
// date is further off, and the parser's durations wrap round past about
// 290 years ("in 1000000 days" read as a day in 1842).
const reach = 100

// Parse resolves text against now in loc; ok is false when no date is in
// it, or the one read is more than reach years away.
func (p *Parser) Parse(text string, now time.Time, loc *time.Location) (Result, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Result{}, false
	}
	base := now.In(loc)
	r, err := p.w.Parse(text, base)
	if err != nil || r == nil {
		return Result{}, false
	}
	t := r.Time.In(loc)
	if t.Before(base.AddDate(-reach, 0, 0)) || t.After(base.AddDate(reach, 0, 0)) {
		return Result{}, false
	}
	if clockWords.MatchString(r.Text) {
		return Result{DueAt: t.Format(time.RFC3339), Text: r.Text}, true
	}
	return Result{DueAt: t.Format("2006-01-02"), AllDay: true, Text: r.Text}, true
}
