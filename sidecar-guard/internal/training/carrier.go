package training

import (
	"strings"
	"unicode/utf8"
)

// Carrier is the source whose benign mails another source's attacks were
// built in: spikee inserts its payloads into the LLMail emails, whole or
// split around the payload.
const Carrier = "benign_llmail_emails"

// carrierSlack is how many bytes of the carrier may be missing around the
// payload (a space or line break the insertion swallowed) for the row to
// still count as built in it.
const carrierSlack = 4

// MarkCarried finds the attacks of rows that are a benign text of the
// source carrier with a payload put into it, and sets their Payload (the
// text between the carrier's two parts) and Carrier. Trained whole, such a
// row teaches the model that the carrier mail's own words are the attack,
// and the same mail is a benign row too. It returns how many it marked.
func MarkCarried(rows []Row, carrier string) int {
	var mails []string
	for _, r := range rows {
		if r.Source == carrier && r.Label == 0 {
			mails = append(mails, r.Text)
		}
	}
	n := 0
	for i := range rows {
		r := &rows[i]
		if r.Label != 1 || r.Source == carrier {
			continue
		}
		if p, ok := payload(r.Text, mails); ok {
			r.Payload, r.Carrier = p, carrier
			n++
		}
	}
	return n
}

// payload returns what text adds to the mail it best matches: the longest
// common prefix and suffix of the two cover the whole mail but for a few
// bytes, and what is between them in text is the payload.
func payload(text string, mails []string) (string, bool) {
	best, out := -1, ""
	for _, m := range mails {
		if len(m) >= len(text) {
			continue
		}
		pre := commonPrefix(text, m)
		suf := min(commonSuffix(text, m), len(m)-pre)
		for suf > 0 && !utf8.RuneStart(text[len(text)-suf]) {
			suf--
		}
		if pre+suf < len(m)-carrierSlack || pre+suf <= best {
			continue
		}
		if p := strings.TrimSpace(text[pre : len(text)-suf]); p != "" {
			best, out = pre+suf, p
		}
	}
	return out, best >= 0
}

// commonPrefix is the length in bytes of the longest common prefix of a
// and b, ending on a rune boundary.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[n]) {
		n--
	}
	return n
}

// commonSuffix is the length in bytes of the longest common suffix of a
// and b.
func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}
