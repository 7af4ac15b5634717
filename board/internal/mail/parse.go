package mail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // decode non-UTF-8 bodies and headers
	gomail "github.com/emersion/go-message/mail"

	"github.com/opsboard/opsboard/shared/wire"
)

// maxDepth bounds how deep nested multiparts are walked, so a hostile message
// cannot make the parser recurse without end.
const maxDepth = wire.MaxMIMEDepth

// Parse reads one RFC 5322 message. It keeps whatever it can: a malformed header
// line is skipped, an unknown charset leaves the text as it is, a broken part is
// left out. The error is non-nil only when not even a header could be read; the
// returned Mail then still carries Raw and the bytes as Body. Parse never panics.
// A mail over a limit is cut to it, and Truncated says what went.
func Parse(raw []byte) (Mail, error) {
	return ParseSized(raw, int64(len(raw)))
}

// ParseSized is Parse of the first bytes of a mail that is size bytes long
// where it is stored (a source that stops reading at MaxRaw says how much
// there was); past MaxRaw, Truncated names "raw" with that size.
func ParseSized(raw []byte, size int64) (m Mail, err error) {
	defer func() {
		// A library bug must not take an ingest run down; the message is still
		// delivered with its raw bytes.
		if r := recover(); r != nil {
			m = Mail{Raw: raw, Body: capText(string(raw), maxBody)}
			err = fmt.Errorf("parse mail: panic: %v", r)
		}
	}()
	var c cuts
	if len(raw) > maxRaw {
		raw = raw[:maxRaw]
	}
	if len(raw) == maxRaw && size > maxRaw {
		c.add("raw", size)
	}
	m.Raw = raw
	src, fields, cut := capHeader(raw)
	if cut {
		c.add("headers", int64(fields))
	}
	// The header may take the whole raw limit: the lines the board reads
	// are kept however long, then cut to their own limits.
	opts := &message.ReadOptions{MaxHeaderBytes: maxRaw}
	e, err := message.ReadWithOptions(bytes.NewReader(src), opts)
	if err != nil && !lenient(err) {
		e, err = message.ReadWithOptions(bytes.NewReader(sanitize(src)), opts)
	}
	if err != nil && !lenient(err) {
		m.Body = normalize(string(raw))
		m.finish(&c, int64(len(m.Body)))
		return m, fmt.Errorf("parse mail: %w", err)
	}
	readHeader(&m, gomail.Header{Header: e.Header})
	w := walker{cuts: &c}
	w.walk(e, 0)
	m.Attachments = w.attachments
	m.HTML = w.rawHTML
	var bodySize int64
	switch {
	case w.plain != "":
		m.Body, bodySize = normalize(w.plain), w.plainSize
	case w.html:
		m.Body = w.htmlText
		bodySize = int64(len(m.Body))
	}
	m.finish(&c, bodySize)
	return m, nil
}

// finish cuts the body, subject and recipients to their limits and notes
// every cut; bodySize is the body's size before any cut.
func (m *Mail) finish(c *cuts, bodySize int64) {
	if len(m.Body) > maxBody || bodySize > maxBody {
		m.Body = capText(m.Body, maxBody)
		c.add("body", bodySize)
	}
	if s, n, cut := capRunes(m.Subject, maxSubject); cut {
		m.Subject = s
		c.add("subject", int64(n))
	}
	capRecipients(m, c)
	m.Truncated, m.OriginalSizes = c.names, c.sizes
}

// lenient reports whether err from go-message still came with a usable entity.
func lenient(err error) bool {
	return message.IsUnknownCharset(err) || message.IsUnknownEncoding(err)
}

func readHeader(m *Mail, h gomail.Header) {
	m.MessageID = firstID(h.Get("Message-Id"))
	m.InReplyTo = firstID(h.Get("In-Reply-To"))
	m.References = ids(strings.Join(h.Values("References"), " "))
	m.Subject = decodeText(h, "Subject")
	if t, err := h.Date(); err == nil {
		m.Date = t
	}
	from := addresses(h, "From")
	if len(from) > 0 {
		m.From, m.FromAddr = from[0].display, from[0].addr
	} else {
		m.From = decodeText(h, "From")
	}
	for _, a := range addresses(h, "To") {
		m.To = append(m.To, a.addr)
	}
	for _, a := range addresses(h, "Cc") {
		m.Cc = append(m.Cc, a.addr)
	}
}

// decodeText decodes RFC 2047 words in a header, keeping the raw value when a
// charset is unknown.
func decodeText(h gomail.Header, key string) string {
	v, err := h.Text(key)
	if err != nil {
		return strings.TrimSpace(h.Get(key))
	}
	return strings.TrimSpace(v)
}

type address struct{ display, addr string }

// addresses parses an address header; when it is malformed it falls back to
// picking addresses out of the comma-separated text.
func addresses(h gomail.Header, key string) []address {
	var out []address
	list, err := h.AddressList(key)
	if err == nil {
		for _, a := range list {
			if a.Address == "" {
				continue
			}
			display := a.Address
			if a.Name != "" {
				display = a.Name + " <" + a.Address + ">"
			}
			out = append(out, address{display, strings.ToLower(a.Address)})
		}
		return out
	}
	for _, part := range strings.Split(decodeText(h, key), ",") {
		if a := bareAddr(part); a != "" {
			out = append(out, address{strings.TrimSpace(part), a})
		}
	}
	return out
}

// bareAddr takes the address out of `Name <addr>` or a lone token with an @.
func bareAddr(s string) string {
	if i := strings.LastIndexByte(s, '<'); i >= 0 {
		if j := strings.IndexByte(s[i:], '>'); j > 0 && strings.Contains(s[i:i+j], "@") {
			return strings.ToLower(strings.TrimSpace(s[i+1 : i+j]))
		}
	}
	for _, f := range strings.Fields(s) {
		if strings.Contains(f, "@") {
			return strings.ToLower(strings.Trim(f, `"'<>()`))
		}
	}
	return ""
}

// ids returns the <...> message ids in s, without the brackets, in order. Header
// values written without brackets are taken word by word.
func ids(s string) []string {
	var out []string
	rest := s
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '>')
		if j < 0 {
			break
		}
		if id := strings.TrimSpace(rest[i+1 : i+j]); id != "" {
			out = append(out, id)
		}
		rest = rest[i+j+1:]
	}
	if len(out) == 0 && !strings.ContainsAny(s, "<>") {
		out = append(out, strings.Fields(s)...)
	}
	return out
}

func firstID(s string) string {
	if l := ids(s); len(l) > 0 {
		return l[0]
	}
	return ""
}

type walker struct {
	plain       string // the first text/plain part, at most a little over the body limit
	plainSize   int64  // its decoded size
	html        bool   // an HTML part was met
	htmlText    string // the first HTML part as text
	rawHTML     string // the first HTML part as sent, as much as the guard reads of it
	parts       int
	attachments []Attachment
	cuts        *cuts
}

func (w *walker) walk(e *message.Entity, depth int) {
	if w.parts++; w.parts > maxParts {
		w.cuts.add("parts", 0)
		return
	}
	if mr := e.MultipartReader(); mr != nil {
		if depth >= maxDepth {
			w.cuts.add("mime", 0)
			return
		}
		for w.parts <= maxParts {
			p, err := mr.NextPart()
			if errors.Is(err, io.EOF) || (err != nil && !lenient(err)) || p == nil {
				return
			}
			w.walk(p, depth+1)
		}
		return
	}
	mediaType, _, err := e.Header.ContentType()
	if err != nil || mediaType == "" {
		mediaType = "text/plain"
	}
	disp, dparams, _ := e.Header.ContentDisposition()
	name := dparams["filename"]
	if name == "" {
		_, cparams, _ := e.Header.ContentType()
		name = cparams["name"]
	}
	name = decodeWord(name)
	isText := mediaType == "text/plain" || mediaType == "text/html"
	if disp == "attachment" || name != "" || !isText {
		if strings.HasPrefix(mediaType, "multipart/") {
			return // a multipart past maxDepth: not an attachment
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(e.Body, maxPart+1))
		if n > maxPart {
			n = maxPart
			w.cuts.add("part", 0)
		}
		w.attachments = append(w.attachments, Attachment{Name: name, Size: n, Type: mediaType})
		return
	}
	w.text(mediaType, e.Body)
}

// text reads a text part: of a plain one, only what the body keeps, the rest
// counted; an HTML one streams into its text. Either stops at the part limit.
func (w *walker) text(mediaType string, body io.Reader) {
	part := &countReader{r: io.LimitReader(body, maxPart+1)}
	switch {
	case mediaType == "text/plain" && w.plain == "":
		// Keep what decoded before a broken encoding.
		b, _ := io.ReadAll(io.LimitReader(part, maxBody+utf8.UTFMax))
		io.Copy(io.Discard, part)
		w.plain = string(b)
		w.plainSize = min(part.n, maxPart)
	case mediaType == "text/html" && !w.html:
		w.html = true
		// The guard reads the part as sent, to find text hidden from the
		// reader; it keeps a bounded prefix while the part streams into text.
		raw := &prefix{max: wire.MaxGuardHTML + utf8.UTFMax}
		var deep bool
		w.htmlText, deep = htmlText(io.TeeReader(part, raw))
		w.rawHTML = raw.b.String()
		if deep {
			w.cuts.add("html", 0)
		}
	default:
		return
	}
	if part.n > maxPart {
		w.cuts.add("part", 0)
	}
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// decodeWord decodes an RFC 2047 file name when a mailer encoded one (go-message
// decodes RFC 2231 parameters itself).
func decodeWord(s string) string {
	if !strings.Contains(s, "=?") {
		return s
	}
	dec := mime.WordDecoder{CharsetReader: message.CharsetReader}
	if d, err := dec.DecodeHeader(s); err == nil {
		return d
	}
	return s
}

// sanitize drops header lines that are not "Key: value" (and their
// continuations), so one broken line does not cost the whole header.
func sanitize(raw []byte) []byte {
	head, body, found := cutHeader(raw)
	if !found {
		// No blank line: when it does not even start like a header, it is all body.
		if !looksLikeField(firstLine(raw)) {
			return append([]byte("\r\n"), raw...)
		}
	}
	var out bytes.Buffer
	keep := false
	for _, line := range bytes.SplitAfter(head, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if keep {
				out.Write(line)
			}
			continue
		}
		keep = looksLikeField(line)
		if keep {
			out.Write(line)
		}
	}
	out.WriteString("\r\n")
	out.Write(body)
	return out.Bytes()
}

func cutHeader(raw []byte) (head, body []byte, found bool) {
	for i := 0; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			break
		}
		line := raw[i : i+j]
		if len(bytes.TrimRight(line, "\r")) == 0 {
			return raw[:i], raw[i+j+1:], true
		}
		i += j + 1
	}
	return raw, nil, false
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

func looksLikeField(line []byte) bool {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return false
	}
	for _, c := range line[:i] {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

// normalize makes line ends LF and trims surrounding blank space.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.TrimSpace(s)
}

// prefix keeps the first max bytes written to it and drops the rest.
type prefix struct {
	b   strings.Builder
	max int
}

func (p *prefix) Write(b []byte) (int, error) {
	if room := p.max - p.b.Len(); room > 0 {
		p.b.Write(b[:min(room, len(b))])
	}
	return len(b), nil
}
