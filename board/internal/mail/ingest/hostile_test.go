package ingest_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/opsboard/opsboard/shared/wire"
)

// hostileMail is one odd or big mail and what the board must say was cut.
type hostileMail struct {
	file string
	raw  string
	cut  []string // names in Truncated, sorted
}

func hostileHeader(id string, extra ...string) string {
	return strings.Join(append([]string{"Message-ID: <" + id + "@hostile.example>", "From: Mallory <m@hostile.example>",
		"To: me@home.org", "Subject: " + id, "Date: Mon, 2 Mar 2026 10:00:00 +0000"}, extra...), "\r\n") + "\r\n"
}

// hostileMailbox is a scaled-down hostile mailbox: each mail passes one
// limit of the mail path (the benchmark has the full sizes).
func hostileMailbox() []hostileMail {
	var junk, deep, closing, parts, recips strings.Builder
	for i := range wire.MaxMailHeaderLines + 500 {
		fmt.Fprintf(&junk, "X-Junk-%d: %d\r\n", i, i)
	}
	for i := range wire.MaxMIMEDepth + 30 {
		fmt.Fprintf(&deep, "Content-Type: multipart/mixed; boundary=\"d%d\"\r\n\r\n--d%d\r\n", i, i)
		fmt.Fprintf(&closing, "\r\n--d%d--\r\n", wire.MaxMIMEDepth+29-i)
	}
	for i := range wire.MaxMIMEParts + 200 {
		fmt.Fprintf(&parts, "--p\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"f%d\"\r\n\r\nxx\r\n", i)
	}
	for i := range wire.MaxMailRecipients + 300 {
		fmt.Fprintf(&recips, "r%d@example.com, ", i)
	}
	big := strings.Repeat("a long line of body text that goes on\r\n", 2<<20/39)
	b64 := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("decoded text ", 3<<20/13)))
	html := strings.Repeat("<div>", wire.MaxHTMLDepth*4) + "deep words" + strings.Repeat("</div>", wire.MaxHTMLDepth*4)
	return []hostileMail{
		{"body.eml", hostileHeader("body") + "\r\n" + big, []string{"body"}},
		{"headers.eml", junk.String() + hostileHeader("headers") + "\r\nsome text", []string{"headers"}},
		{"deep.eml", hostileHeader("deep", "MIME-Version: 1.0") + deep.String() + "Content-Type: text/plain\r\n\r\nlost" + closing.String(), []string{"mime"}},
		{"parts.eml", hostileHeader("parts", "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="p"`) + "\r\n" + parts.String() + "--p--\r\n", []string{"parts"}},
		{"subject.eml", strings.Replace(hostileHeader("subject"), "Subject: subject", "Subject: "+strings.Repeat("s", 5000), 1) + "\r\ntext", []string{"subject"}},
		{"recipients.eml", strings.Replace(hostileHeader("recipients"), "To: me@home.org", "To: "+recips.String()+"me@home.org", 1) + "\r\ntext", []string{"to"}},
		{"base64.eml", hostileHeader("base64", "MIME-Version: 1.0", "Content-Type: text/plain", "Content-Transfer-Encoding: base64") + "\r\n" + b64, []string{"body"}},
		{"html.eml", hostileHeader("html", "Content-Type: text/html") + "\r\n" + html, []string{"html"}},
	}
}

// TestHostileMailComesInCutNeverDropped: every hostile mail is on the
// board after one run, cut to the limits with its note, and a re-run reads
// nothing new.
func TestHostileMailComesInCutNeverDropped(t *testing.T) {
	d := startBoard(t, "")
	dir := filepath.Join(d.Dir, "hostile")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	box := hostileMailbox()
	for _, m := range box {
		if err := os.WriteFile(filepath.Join(dir, m.file), []byte(m.raw), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d.sources(t, map[string]any{"name": "hostile", "kind": "eml", "path": "hostile"})
	rep, code := d.ingest()
	if code != 0 || rep.Get("new").Int() != int64(len(box)) || strings.Contains(rep.Get("errors").Raw, "source hostile") {
		t.Fatalf("first run: code %d %s", code, rep.Raw)
	}
	byID := map[string]gjson.Result{}
	for _, m := range d.messages() {
		byID[strings.TrimSuffix(m.Get("messageId").String(), "@hostile.example")] = m
	}
	for _, want := range box {
		id := strings.TrimSuffix(want.file, ".eml")
		m, ok := byID[id]
		if !ok {
			t.Errorf("%s is not on the board", id)
			continue
		}
		var got []string
		for _, n := range m.Get("truncated").Array() {
			got = append(got, n.String())
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want.cut, ",") {
			t.Errorf("%s: truncated %v, want %v", id, got, want.cut)
		}
		if len(m.Get("body").String()) > wire.MaxMailBody+(16<<10) {
			t.Errorf("%s: body of %d bytes", id, len(m.Get("body").String()))
		}
	}
	checks := []struct{ id, path string }{
		{"body", "originalSizes.body"}, {"subject", "originalSizes.subject"}, {"recipients", "originalSizes.to"},
		{"headers", "originalSizes.headers"}, {"base64", "originalSizes.body"},
	}
	for _, c := range checks {
		if byID[c.id].Get(c.path).Int() == 0 {
			t.Errorf("%s: no %s in %s", c.id, c.path, byID[c.id].Get("originalSizes").Raw)
		}
	}
	if n := len([]rune(byID["subject"].Get("subject").String())); n != wire.MaxMailSubject {
		t.Errorf("a subject of %d characters", n)
	}
	if n := len(byID["recipients"].Get("to").Array()); n != wire.MaxMailRecipients {
		t.Errorf("%d recipients kept", n)
	}
	if got := byID["headers"].Get("from").String(); got != "Mallory <m@hostile.example>" || byID["headers"].Get("receivedAt").String() != "2026-03-02T10:00:00Z" {
		t.Errorf("the headers the board reads, behind the junk: from %q, %s", got, byID["headers"].Get("receivedAt"))
	}
	if body := byID["html"].Get("body").String(); body != "deep words" {
		t.Errorf("deep HTML body %q", body)
	}

	again, code := d.ingest()
	if code != 0 || again.Get("fetched").Int() != 0 {
		t.Errorf("re-run: code %d %s", code, again.Raw)
	}
}
