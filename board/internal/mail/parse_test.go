package mail

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// crlf writes a message the way it travels: CRLF line ends.
func crlf(lines ...string) []byte {
	return []byte(strings.Join(lines, "\r\n"))
}

var pdf = strings.Repeat("%PDF-1.4 fake ", 20) // 280 bytes

func TestParse(t *testing.T) {
	date := time.Date(2026, 11, 23, 9, 15, 0, 0, time.FixedZone("", 3600))
	tests := []struct {
		name string
		raw  []byte
		want Mail
	}{
		{
			name: "multipart/alternative prefers text/plain",
			raw: crlf(
				"From: Ana Lopez <Ana.Lopez@Example.com>",
				"To: me@example.org, Bob <BOB@example.org>",
				"Cc: team@example.org",
				"Subject: Q4 numbers",
				"Date: Mon, 23 Nov 2026 09:15:00 +0100",
				"Message-ID: <q4-1@example.com>",
				"In-Reply-To: <q4-0@example.com>",
				"References: <root@example.com>\r\n <q4-0@example.com>",
				"MIME-Version: 1.0",
				`Content-Type: multipart/alternative; boundary="b1"`,
				"",
				"--b1",
				"Content-Type: text/plain; charset=utf-8",
				"",
				"Plain numbers here.",
				"--b1",
				"Content-Type: text/html; charset=utf-8",
				"",
				"<p>HTML numbers here.</p>",
				"--b1--",
				""),
			want: Mail{
				MessageID: "q4-1@example.com", InReplyTo: "q4-0@example.com",
				References: []string{"root@example.com", "q4-0@example.com"},
				From:       "Ana Lopez <Ana.Lopez@Example.com>", FromAddr: "ana.lopez@example.com",
				To: []string{"me@example.org", "bob@example.org"}, Cc: []string{"team@example.org"},
				Subject: "Q4 numbers", Date: date, Body: "Plain numbers here.",
				HTML: "<p>HTML numbers here.</p>",
			},
		},
		{
			name: "HTML only is reduced to text",
			raw: crlf(
				"From: news@example.com",
				"Subject: Digest",
				"Date: Mon, 23 Nov 2026 09:15:00 +0100",
				"Content-Type: text/html; charset=utf-8",
				"",
				"<html><head><title>T</title><style>p{color:red}</style></head><body>",
				"<h1>Digest</h1><p>Read <a href=\"https://example.com/a\">the post</a> now.</p>",
				"<script>alert('x')</script><ul><li>one</li><li>two</li></ul></body></html>"),
			want: Mail{
				From: "news@example.com", FromAddr: "news@example.com", Subject: "Digest", Date: date,
				Body: "Digest\n\nRead the post (https://example.com/a) now.\n\n- one\n- two",
				HTML: "<html><head><title>T</title><style>p{color:red}</style></head><body>\r\n" +
					"<h1>Digest</h1><p>Read <a href=\"https://example.com/a\">the post</a> now.</p>\r\n" +
					"<script>alert('x')</script><ul><li>one</li><li>two</li></ul></body></html>",
			},
		},
		{
			name: "encoded-word headers are decoded",
			raw: crlf(
				"From: =?ISO-8859-1?Q?Andr=E9_Dupr=E9?= <andre@example.fr>",
				"To: =?UTF-8?B?QmrDtnJu?= <bjorn@example.se>",
				"Subject: =?UTF-8?B?UsOpdW5pb24g4oCUIGNhZsOp?=",
				"Date: Mon, 23 Nov 2026 09:15:00 +0100",
				"",
				"Salut."),
			want: Mail{
				From: "André Dupré <andre@example.fr>", FromAddr: "andre@example.fr",
				To: []string{"bjorn@example.se"}, Subject: "Réunion — café", Date: date, Body: "Salut.",
			},
		},
		{
			name: "ISO-8859-1 quoted-printable body becomes UTF-8",
			raw: crlf(
				"From: hans@example.de",
				"Subject: Gruss",
				"Date: Mon, 23 Nov 2026 09:15:00 +0100",
				"Content-Type: text/plain; charset=ISO-8859-1",
				"Content-Transfer-Encoding: quoted-printable",
				"",
				"Gr=FC=DFe aus K=F6ln"),
			want: Mail{From: "hans@example.de", FromAddr: "hans@example.de", Subject: "Gruss", Date: date, Body: "Grüße aus Köln"},
		},
		{
			name: "attachment is listed by name and size",
			raw: crlf(
				"From: ana@example.com",
				"Subject: Report",
				"Date: Mon, 23 Nov 2026 09:15:00 +0100",
				`Content-Type: multipart/mixed; boundary="m"`,
				"",
				"--m",
				"Content-Type: text/plain",
				"",
				"See attached.",
				"--m",
				`Content-Type: application/pdf; name="report.pdf"`,
				`Content-Disposition: attachment; filename="report.pdf"`,
				"Content-Transfer-Encoding: base64",
				"",
				base64.StdEncoding.EncodeToString([]byte(pdf)),
				"--m--"),
			want: Mail{
				From: "ana@example.com", FromAddr: "ana@example.com", Subject: "Report", Date: date,
				Body:        "See attached.",
				Attachments: []Attachment{{Name: "report.pdf", Size: int64(len(pdf)), Type: "application/pdf"}},
			},
		},
		{
			name: "nested: HTML-only alternative inside mixed, RFC 2231 file name, forwarded mail",
			raw: crlf(
				"From: ana@example.com",
				"Subject: Fwd",
				"Date: Mon, 23 Nov 2026 09:15:00 +0100",
				`Content-Type: multipart/mixed; boundary="outer"`,
				"",
				"--outer",
				`Content-Type: multipart/alternative; boundary="inner"`,
				"",
				"--inner",
				"Content-Type: text/html; charset=utf-8",
				"",
				"<p>First</p><p>Second</p>",
				"--inner--",
				"--outer",
				"Content-Type: text/plain",
				"Content-Disposition: attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt",
				"",
				"cv",
				"--outer",
				"Content-Type: message/rfc822",
				"",
				"From: old@example.com",
				"Subject: the original",
				"",
				"old body",
				"--outer--"),
			want: Mail{
				From: "ana@example.com", FromAddr: "ana@example.com", Subject: "Fwd", Date: date,
				Body: "First\n\nSecond", HTML: "<p>First</p><p>Second</p>",
				Attachments: []Attachment{
					{Name: "résumé.txt", Size: 2, Type: "text/plain"},
					{Size: int64(len("From: old@example.com\r\nSubject: the original\r\n\r\nold body")), Type: "message/rfc822"},
				},
			},
		},
		{
			name: "Windows-1252 body, LF line ends, several References headers",
			raw: []byte("From: x@example.com\nReferences: <a@x>\nReferences: <b@x> <c@x>\n" +
				"Content-Type: text/plain; charset=windows-1252\n\n\x93quoted\x94 \x80 5\r\n\n"),
			want: Mail{From: "x@example.com", FromAddr: "x@example.com", References: []string{"a@x", "b@x", "c@x"}, Body: "\u201cquoted\u201d \u20ac 5"},
		},
		{
			name: "unknown charset keeps the bytes",
			raw:  []byte("From: x@example.com\nSubject: =?x-unknown?Q?caf=E9?=\nContent-Type: text/plain; charset=x-unknown\n\nplain ascii\n"),
			want: Mail{From: "x@example.com", FromAddr: "x@example.com", Subject: "=?x-unknown?Q?caf=E9?=", Body: "plain ascii"},
		},
		{
			name: "missing Date gives the zero time",
			raw:  []byte("From: a@example.com\nSubject: no date\n\nbody\n"),
			want: Mail{From: "a@example.com", FromAddr: "a@example.com", Subject: "no date", Body: "body"},
		},
		{
			name: "unparseable Date gives the zero time",
			raw:  []byte("From: a@example.com\nDate: next tuesday\n\nbody\n"),
			want: Mail{From: "a@example.com", FromAddr: "a@example.com", Body: "body"},
		},
		{
			name: "malformed header line is skipped, the rest kept",
			raw: []byte("From: a@example.com\nthis line has no colon\nSubject: still here\n" +
				"Message-ID: bare-id@example.com\n\nbody\n"),
			want: Mail{MessageID: "bare-id@example.com", From: "a@example.com", FromAddr: "a@example.com", Subject: "still here", Body: "body"},
		},
		{
			name: "malformed address list falls back to picking addresses",
			raw:  []byte("From: Ana <ana@example.com\nTo: x@example.org, <<broken>>\n\nhi\n"),
			want: Mail{From: "Ana <ana@example.com", FromAddr: "ana@example.com", To: []string{"x@example.org"}, Body: "hi"},
		},
		{
			name: "no header at all is all body",
			raw:  []byte("just some text\nwith lines\n"),
			want: Mail{Body: "just some text\nwith lines"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.raw)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if string(got.Raw) != string(tt.raw) {
				t.Errorf("Raw is not the input")
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Mail{}, "Raw"), cmpopts.EquateEmpty(),
				cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTMLText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"blocks become lines", "<div>a</div><div>b</div>c<br>d", "a\n\nb\n\nc\nd"},
		{"spaces collapse", "<p>  lots \n of   space </p>", "lots of space"},
		{"link keeps its URL", `<a href="https://x.test/p?q=1">here</a>`, "here (https://x.test/p?q=1)"},
		{"a bare URL link is not doubled", `<a href="https://x.test/">https://x.test/</a>`, "https://x.test/"},
		{"in-page anchors are dropped", `<a href="#top">top</a>`, "top"},
		{"scripts and styles are dropped", "<style>b{}</style>x<script>var s='<p>'</script>y", "xy"},
		{"entities are decoded", "<p>Fish &amp; chips &lt;3</p>", "Fish & chips <3"},
		{"table rows are lines", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc"},
		{"pre keeps its spacing", "<p>code:</p><pre>\n  a := 1\n  b  = 2\n</pre><p>end</p>", "code:\n\n  a := 1\n  b  = 2\n\nend"},
		{"broken markup still reads", "<p>open <b>bold", "open bold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HTMLText(tt.in); got != tt.want {
				t.Errorf("HTMLText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzHTMLText(f *testing.F) {
	f.Add("<p>a<pre>b\n c</pre><a href=x>y</a></p>")
	f.Add("<script><pre></script></pre><li>")
	f.Fuzz(func(t *testing.T, src string) {
		out := HTMLText(src)
		if strings.Contains(out, "\n\n\n") && !strings.Contains(strings.ToLower(src), "pre") {
			t.Errorf("more than one blank line in a row: %q", out)
		}
	})
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("From: a@b\r\nSubject: =?UTF-8?B?w6k=?=\r\n\r\nx"))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: multipart/alternative; boundary=y\n\n--y\n\nhi\n--y--\n--x--\n"))
	f.Add([]byte("Content-Type: text/html; charset=koi8-r\nContent-Transfer-Encoding: base64\n\n!!!"))
	f.Add([]byte(" leading space\n\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Parse(raw)
		if err != nil && strings.Contains(err.Error(), "panic") {
			t.Fatalf("Parse panicked: %v", err)
		}
		if string(m.Raw) != string(raw) {
			t.Fatalf("Raw is not the input")
		}
	})
}

// BenchmarkParse parses one multipart/alternative message with an attachment.
func BenchmarkParse(b *testing.B) {
	raw := crlf(
		"From: =?UTF-8?Q?Ana_L=C3=B3pez?= <ana@example.com>",
		"To: me@example.org",
		"Subject: Q4 numbers",
		"Date: Mon, 23 Nov 2026 09:15:00 +0100",
		"Message-ID: <q4-1@example.com>",
		`Content-Type: multipart/mixed; boundary="m"`,
		"",
		"--m",
		`Content-Type: multipart/alternative; boundary="b1"`,
		"",
		"--b1",
		"Content-Type: text/plain; charset=utf-8",
		"",
		strings.Repeat("Plain numbers here.\r\n", 20),
		"--b1",
		"Content-Type: text/html; charset=utf-8",
		"",
		strings.Repeat("<p>HTML numbers here.</p>\r\n", 20),
		"--b1--",
		"--m",
		`Content-Type: application/pdf; name="report.pdf"`,
		"Content-Transfer-Encoding: base64",
		"",
		base64.StdEncoding.EncodeToString([]byte(pdf)),
		"--m--")
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if m, err := Parse(raw); err != nil || len(m.Attachments) != 1 {
			b.Fatalf("Parse: %v, %d attachments", err, len(m.Attachments))
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkHTMLText reduces an HTML-only newsletter-sized body.
func BenchmarkHTMLText(b *testing.B) {
	src := "<html><head><style>p{}</style></head><body>" +
		strings.Repeat(`<div><h2>Item</h2><p>Some text with <a href="https://example.com/x">a link</a>.</p></div>`, 50) +
		"</body></html>"
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		HTMLText(src)
	}
}
