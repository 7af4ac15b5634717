package mail

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// header is a mail's usual header lines, CRLF ended.
func header(extra ...string) string {
	lines := append([]string{"From: Ana <ana@example.com>", "To: bo@example.com", "Subject: hello",
		"Date: Mon, 23 Nov 2026 09:15:00 +0100", "Message-ID: <limits@example.com>"}, extra...)
	return strings.Join(lines, "\r\n") + "\r\n"
}

func checkCut(t *testing.T, m Mail, names []string, sizes map[string]int64) {
	t.Helper()
	if diff := cmp.Diff(names, m.Truncated); diff != "" {
		t.Errorf("truncated (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(sizes, m.OriginalSizes); diff != "" {
		t.Errorf("original sizes (-want +got)\n%s", diff)
	}
}

func TestRawReadIsCutAtItsLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.eml")
	body := strings.Repeat("0123456789abcdef\r\n", (maxRaw+(1<<20))/18)
	raw := header() + "\r\n" + body
	if err := os.WriteFile(path, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Line ends become LF after the cut, so the body ends a little short.
	if len(m.Raw) != maxRaw || m.Subject != "hello" || len(m.Body) > maxBody || len(m.Body) < maxBody*9/10 {
		t.Errorf("raw %d, subject %q, body %d", len(m.Raw), m.Subject, len(m.Body))
	}
	checkCut(t, m, []string{"raw", "body"}, map[string]int64{"raw": int64(len(raw)), "body": int64(maxRaw - len(header()) - 2)})

	// Parse of bytes over the limit cuts them the same way.
	m, _ = Parse([]byte(raw))
	if len(m.Raw) != maxRaw || m.Truncated[0] != "raw" {
		t.Errorf("Parse: raw %d, truncated %v", len(m.Raw), m.Truncated)
	}
}

func TestBodyKeepsItsLimit(t *testing.T) {
	n := maxBody + 1000
	m, _ := Parse([]byte(header() + "\r\n" + strings.Repeat("é", n/2) + "x"))
	if len(m.Body) > maxBody || !strings.HasSuffix(m.Body, "é") {
		t.Fatalf("body %d bytes, cut inside a character: %v", len(m.Body), !strings.HasSuffix(m.Body, "é"))
	}
	checkCut(t, m, []string{"body"}, map[string]int64{"body": int64(n/2*2 + 1)})
	m, _ = Parse([]byte(header() + "\r\n" + strings.Repeat("a", maxBody)))
	if len(m.Body) != maxBody || m.Truncated != nil {
		t.Errorf("a body at the limit: %d bytes, truncated %v", len(m.Body), m.Truncated)
	}
	html := "<p>" + strings.Repeat("word ", maxBody/4) + "</p>"
	m, _ = Parse([]byte(header("Content-Type: text/html") + "\r\n" + html))
	if len(m.Body) > maxBody || len(m.Truncated) != 1 || m.Truncated[0] != "body" || m.OriginalSizes["body"] <= maxBody {
		t.Errorf("an HTML body: %d bytes, %v %v", len(m.Body), m.Truncated, m.OriginalSizes)
	}
}

func TestSubjectKeepsItsLimitInCharacters(t *testing.T) {
	m, _ := Parse([]byte(strings.Replace(header(), "Subject: hello", "Subject: "+strings.Repeat("ü", 1500), 1) + "\r\nbody"))
	if m.Subject != strings.Repeat("ü", maxSubject) {
		t.Errorf("subject of %d characters", len([]rune(m.Subject)))
	}
	checkCut(t, m, []string{"subject"}, map[string]int64{"subject": 1500})
}

func addrs(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(",\r\n ")
		}
		fmt.Fprintf(&b, "%s%d@example.com", prefix, i)
	}
	return b.String()
}

func TestRecipientsKeepTheirLimitToFirst(t *testing.T) {
	h := strings.Replace(header(), "To: bo@example.com", "To: "+addrs("to", 400)+"\r\nCc: "+addrs("cc", 300), 1)
	m, _ := Parse([]byte(h + "\r\nbody"))
	if len(m.To) != 400 || len(m.Cc) != maxRecipients-400 || m.Cc[0] != "cc0@example.com" {
		t.Errorf("to %d, cc %d", len(m.To), len(m.Cc))
	}
	checkCut(t, m, []string{"cc"}, map[string]int64{"cc": 300})

	h = strings.Replace(header(), "To: bo@example.com", "To: "+addrs("to", 600)+"\r\nCc: c@example.com", 1)
	m, _ = Parse([]byte(h + "\r\nbody"))
	if len(m.To) != maxRecipients || len(m.Cc) != 0 {
		t.Errorf("to %d, cc %d", len(m.To), len(m.Cc))
	}
	checkCut(t, m, []string{"to", "cc"}, map[string]int64{"to": 600, "cc": 1})
}

// Surplus header lines go, but never one the board reads, wherever it
// stands; a line over the line limit goes too.
func TestSurplusHeadersAreDroppedButNotTheOnesTheBoardReads(t *testing.T) {
	var junk []string
	for i := range 1500 {
		junk = append(junk, fmt.Sprintf("X-Junk-%d: %d", i, i))
	}
	junk = append(junk, "X-Long: "+strings.Repeat("l", maxHeaderLine))
	raw := "X-First: 1\r\n" + strings.Join(junk, "\r\n") + "\r\n" + header(
		"References: <a@x> <b@x>", "In-Reply-To: <b@x>", "Cc: cc@example.com",
		"MIME-Version: 1.0", `Content-Type: multipart/alternative; boundary="B"`) +
		"\r\n--B\r\nContent-Type: text/plain\r\n\r\nthe text\r\n--B--\r\n"
	m, _ := Parse([]byte(raw))
	want := Mail{MessageID: "limits@example.com", InReplyTo: "b@x", References: []string{"a@x", "b@x"},
		From: "Ana <ana@example.com>", FromAddr: "ana@example.com", To: []string{"bo@example.com"},
		Cc: []string{"cc@example.com"}, Subject: "hello", Body: "the text"}
	got := m
	got.Raw, got.Date, got.Truncated, got.OriginalSizes = nil, want.Date, nil, nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the read headers (-want +got)\n%s", diff)
	}
	if m.Date.IsZero() {
		t.Error("the Date header was dropped")
	}
	checkCut(t, m, []string{"headers"}, map[string]int64{"headers": int64(1 + len(junk) + 10)})

	// A header within the limits is left alone.
	m, _ = Parse([]byte(header(junk[:900]...) + "\r\nbody"))
	if m.Truncated != nil {
		t.Errorf("900 header lines: truncated %v", m.Truncated)
	}
}

// nested is a mail whose text lies depth multiparts deep.
func nested(depth int) []byte {
	var open, closing strings.Builder
	for i := range depth {
		fmt.Fprintf(&open, "Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n", i, i)
		closing.WriteString(fmt.Sprintf("\r\n--b%d--\r\n", depth-1-i))
	}
	return []byte(header("MIME-Version: 1.0") + open.String() + "Content-Type: text/plain\r\n\r\ndeep text" + closing.String())
}

func TestMIMENestingKeepsItsLimit(t *testing.T) {
	m, _ := Parse(nested(maxDepth - 1))
	if m.Body != "deep text" || m.Truncated != nil {
		t.Errorf("within the limit: body %q, truncated %v", m.Body, m.Truncated)
	}
	m, _ = Parse(nested(maxDepth + 10))
	if m.Body != "" || m.Subject != "hello" {
		t.Errorf("past the limit: body %q, subject %q", m.Body, m.Subject)
	}
	checkCut(t, m, []string{"mime"}, nil)
}

func TestMIMEPartsKeepTheirLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(header("MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="P"`) + "\r\n")
	b.WriteString("--P\r\nContent-Type: text/plain\r\n\r\nfirst\r\n")
	for i := range maxParts + 100 {
		fmt.Fprintf(&b, "--P\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"f%d.bin\"\r\n\r\nxx\r\n", i)
	}
	b.WriteString("--P--\r\n")
	m, _ := Parse([]byte(b.String()))
	// The mail itself and its first text part count too.
	if m.Body != "first" || len(m.Attachments) != maxParts-2 {
		t.Errorf("body %q, %d attachments", m.Body, len(m.Attachments))
	}
	checkCut(t, m, []string{"parts"}, nil)
}

func TestHTMLNestingKeepsItsLimitAndItsText(t *testing.T) {
	page := func(depth int) string {
		return strings.Repeat("<div>", depth) + "inner words" + strings.Repeat("</div>", depth) + "<p>after</p>"
	}
	m, _ := Parse([]byte(header("Content-Type: text/html") + "\r\n" + page(maxHTMLDepth-10)))
	if m.Body != "inner words\n\nafter" || m.Truncated != nil {
		t.Errorf("within the limit: %q %v", m.Body, m.Truncated)
	}
	m, _ = Parse([]byte(header("Content-Type: text/html") + "\r\n" + page(maxHTMLDepth*4)))
	if m.Body != "inner words\n\nafter" {
		t.Errorf("past the limit: %q", m.Body)
	}
	checkCut(t, m, []string{"html"}, nil)
}

// zeros reads endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// A decoded part stops at its limit (the raw limit keeps a whole mail
// within it, so the walker is fed directly).
func TestDecodedPartKeepsItsLimit(t *testing.T) {
	var c cuts
	w := walker{cuts: &c}
	w.text("text/plain", io.LimitReader(zeros{}, maxPart+(1<<20)))
	if len(w.plain) > maxBody+4 || w.plainSize != maxPart {
		t.Errorf("plain %d bytes of %d", len(w.plain), w.plainSize)
	}
	if diff := cmp.Diff([]string{"part"}, c.names); diff != "" {
		t.Error(diff)
	}
	c = cuts{}
	w = walker{cuts: &c}
	w.text("text/plain", io.LimitReader(zeros{}, maxPart))
	if c.names != nil || w.plainSize != maxPart {
		t.Errorf("a part at the limit: %v, %d", c.names, w.plainSize)
	}
}

// A header over the parsing library's own bound (1 MiB) still parses: the
// subject is cut to its limit, not lost with every other header.
func TestAHugeSubjectKeepsTheOtherHeaders(t *testing.T) {
	m, err := Parse([]byte(strings.Replace(header(), "Subject: hello", "Subject: "+strings.Repeat("s", 2<<20), 1) + "\r\nbody"))
	if err != nil || m.Subject != strings.Repeat("s", maxSubject) || m.FromAddr != "ana@example.com" || m.Body != "body" {
		t.Errorf("err %v, subject %d, from %q, body %.20q", err, len(m.Subject), m.FromAddr, m.Body)
	}
	checkCut(t, m, []string{"subject"}, map[string]int64{"subject": 2 << 20})
}
