package mail

import (
	"bytes"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/opsboard/opsboard/shared/wire"
)

// What a mail over a limit is cut to. A mail is never refused for its size:
// it comes in cut, and Mail.Truncated says what went.
const (
	// MaxRaw is how much of one message a source reads.
	MaxRaw = wire.MaxMailRaw

	maxRaw         = MaxRaw
	maxPart        = wire.MaxMailPart
	maxBody        = wire.MaxMailBody
	maxSubject     = wire.MaxMailSubject
	maxRecipients  = wire.MaxMailRecipients
	maxHeaderLines = wire.MaxMailHeaderLines
	maxHeaderLine  = wire.MaxMailHeaderLine
	maxParts       = wire.MaxMIMEParts
	maxHTMLDepth   = wire.MaxHTMLDepth
)

// ReadFile reads and parses the mail in path, reading at most the raw limit
// of it, so a huge file costs bounded memory.
func ReadFile(path string) (Mail, error) {
	f, err := os.Open(path)
	if err != nil {
		return Mail{}, err
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	// One buffer of the right size: growing one to 25 MiB would leave
	// twice that behind for the collector.
	var b bytes.Buffer
	b.Grow(int(min(size, maxRaw)) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(f, maxRaw)); err != nil {
		return Mail{}, err
	}
	raw := b.Bytes()
	size = max(size, int64(len(raw)))
	m, _ := ParseSized(raw, size) // a broken mail is still delivered (see Parse)
	return m, nil
}

// cuts records what of a mail was cut to a limit.
type cuts struct {
	names []string
	sizes map[string]int64
}

// add notes that name was cut; size is its size before the cut, 0 when
// not known.
func (c *cuts) add(name string, size int64) {
	for _, n := range c.names {
		if n == name {
			return
		}
	}
	c.names = append(c.names, name)
	if size > 0 {
		if c.sizes == nil {
			c.sizes = map[string]int64{}
		}
		c.sizes[name] = size
	}
}

// readHeaders are the fields the board reads: never dropped for the header
// limits, wherever they stand.
var readHeaders = map[string]bool{
	"from": true, "to": true, "cc": true, "subject": true, "date": true,
	"message-id": true, "in-reply-to": true, "references": true,
}

func isReadHeader(field []byte) bool {
	i := bytes.IndexByte(field, ':')
	if i <= 0 {
		return false
	}
	name := strings.ToLower(strings.TrimSpace(string(field[:i])))
	return readHeaders[name] || strings.HasPrefix(name, "content-")
}

// capHeader drops the surplus header fields of raw: past the line limit or
// longer than the line limit, unless the board reads them. It returns raw
// itself when nothing goes, and the number of fields it found.
func capHeader(raw []byte) (out []byte, fields int, cut bool) {
	head, body, found := cutHeader(raw)
	if !found {
		return raw, 0, false
	}
	var kept [][]byte
	keptOthers := 0
	for _, f := range headerFields(head) {
		fields++
		switch {
		case isReadHeader(f):
			kept = append(kept, f)
		case len(f) > maxHeaderLine || keptOthers >= maxHeaderLines:
			cut = true
		default:
			keptOthers++
			kept = append(kept, f)
		}
	}
	if !cut {
		return raw, fields, false
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	for _, f := range kept {
		b.Write(f)
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes(), fields, true
}

// headerFields splits a header block into fields, each with its
// continuation lines.
func headerFields(head []byte) [][]byte {
	var out [][]byte
	start := -1
	for i := 0; i < len(head); {
		j := bytes.IndexByte(head[i:], '\n')
		end := len(head)
		if j >= 0 {
			end = i + j + 1
		}
		if c := head[i]; c != ' ' && c != '\t' {
			if start >= 0 {
				out = append(out, head[start:i])
			}
			start = i
		}
		if start < 0 {
			start = i // a continuation with nothing before it stands alone
		}
		i = end
	}
	if start >= 0 && start < len(head) {
		out = append(out, head[start:])
	}
	return out
}

// capText cuts s to at most n bytes on a character boundary.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// capRunes cuts s to at most n characters; it reports the count before.
func capRunes(s string, n int) (string, int, bool) {
	count := utf8.RuneCountInString(s)
	if count <= n {
		return s, count, false
	}
	i, seen := 0, 0
	for i < len(s) && seen < n {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		seen++
	}
	return s[:i], count, true
}

// capRecipients keeps at most the recipients limit of To and Cc together,
// To first, noting each list it cut.
func capRecipients(m *Mail, c *cuts) {
	if len(m.To)+len(m.Cc) <= maxRecipients {
		return
	}
	if len(m.To) > maxRecipients {
		c.add("to", int64(len(m.To)))
		m.To = m.To[:maxRecipients]
	}
	if room := maxRecipients - len(m.To); len(m.Cc) > room {
		c.add("cc", int64(len(m.Cc)))
		m.Cc = m.Cc[:room]
	}
}
