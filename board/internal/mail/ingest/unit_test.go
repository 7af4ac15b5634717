package ingest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestRoute(t *testing.T) {
	cases := []wire.Case{{ID: "CASE-1", Status: wire.LaneTodo}, {ID: "CASE-2", Status: wire.LaneTodo}, {ID: "CASE-3", Status: wire.LaneDone}}
	rems := []wire.Reminder{{ID: "R-1", Status: wire.ReminderOpen}, {ID: "R-2", Status: wire.ReminderDone}}
	msgs := []wire.Message{
		{ID: "M-1", From: "Ann <ann@x.example>", MessageID: "a1@x", CaseID: "CASE-1"},
		{ID: "M-2", From: "bob@x.example", MessageID: "b1@x", ThreadID: "b0@x", ReminderID: "R-1"},
		{ID: "M-3", From: "two@x.example", CaseID: "CASE-1"},
		{ID: "M-4", From: "two@x.example", CaseID: "CASE-2"},
		{ID: "M-5", From: "old@x.example", MessageID: "o1@x", CaseID: "CASE-3"},
		{ID: "M-6", From: "me@home.example", To: wire.Addresses{"cc@x.example"}, CaseID: "CASE-2"},
		{ID: "M-7", From: "loose@x.example", MessageID: "l1@x"},
	}
	r := newRouter(cases, rems, msgs)
	for _, tc := range []struct {
		name       string
		inReplyTo  string
		references []string
		threadID   string
		from       string
		want       node
	}{
		{"a reply to a case's mail", "<a1@x>", nil, "", "stranger@y.example", node{caseID: "CASE-1"}},
		{"a reply naming the thread's root only", "", []string{"b0@x", "zz@x"}, "b0@x", "stranger@y.example", node{reminderID: "R-1"}},
		{"the nearest known reference wins", "", []string{"b1@x", "a1@x"}, "b1@x", "x@y", node{caseID: "CASE-1"}},
		{"a thread on a done case still goes there", "o1@x", nil, "", "x@y", node{caseID: "CASE-3"}},
		{"a thread in the Inbox is no route", "l1@x", nil, "", "nobody@y", node{}},
		{"a sender on one open node", "", nil, "", "ANN <Ann@X.example>", node{caseID: "CASE-1"}},
		{"a recipient counts as appearing on a node", "", nil, "", "cc@x.example", node{caseID: "CASE-2"}},
		{"a sender on two open nodes goes to the Inbox", "", nil, "", "two@x.example", node{}},
		{"a sender only on a done case goes to the Inbox", "", nil, "", "old@x.example", node{}},
		{"an unknown sender goes to the Inbox", "", nil, "", "new@y.example", node{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.route(tc.inReplyTo, tc.references, tc.threadID, tc.from); got != tc.want {
				t.Errorf("route = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPasswordEnv(t *testing.T) {
	for in, want := range map[string]string{"work": "SVC_IMAP_PASSWORD_WORK", "my-gmail.2": "SVC_IMAP_PASSWORD_MY_GMAIL_2", "Büro": "SVC_IMAP_PASSWORD_B_RO"} {
		if got := PasswordEnv(in); got != want {
			t.Errorf("PasswordEnv(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseInterval(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  bool
	}{{"", 0, false}, {"off", 0, false}, {"0", 0, false}, {"15m", 15 * time.Minute, false}, {"30", 30 * time.Minute, false}, {"soon", 0, true}, {"-5m", 0, true}} {
		got, err := ParseInterval(tc.in)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("ParseInterval(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, file, err string
		want            []SourceConfig
	}{
		{"every kind, a relative path from the file", `{"sources":[{"name":"a","kind":"maildir","path":"Mail"},{"name":"b","kind":"imap","host":"h","user":"u","sent":true}]}`, "",
			[]SourceConfig{{Name: "a", Kind: "maildir", Path: filepath.Join(dir, "Mail")}, {Name: "b", Kind: "imap", Host: "h", User: "u", Sent: true}}},
		{"an unknown kind", `{"sources":[{"name":"a","kind":"pop3","path":"x"}]}`, "field 'kind' must be", nil},
		{"a file source needs a path", `{"sources":[{"name":"a","kind":"mbox"}]}`, "field 'path' is required", nil},
		{"imap needs host and user", `{"sources":[{"name":"a","kind":"imap"}]}`, "'host' and 'user'", nil},
		{"a name twice", `{"sources":[{"name":"a","kind":"eml","path":"x"},{"name":"a","kind":"eml","path":"y"}]}`, "used twice", nil},
		{"broken JSON", `{"sources":`, "unexpected end", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "ingest.json")
			if err := os.WriteFile(p, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := LoadConfig(p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, c.Sources); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if _, err := LoadConfig(filepath.Join(dir, "none.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestGuardHTMLCutsToTheLimitOnACharacter(t *testing.T) {
	if got := guardHTML("<p>short</p>"); got != "<p>short</p>" {
		t.Errorf("a short part changed: %q", got)
	}
	long := strings.Repeat("a", wire.MaxGuardHTML-1) + "é and more"
	got := guardHTML(long)
	if len(got) != wire.MaxGuardHTML-1 || !strings.HasSuffix(got, "a") {
		t.Errorf("cut to %d bytes ending %q, want %d ending before the split character", len(got), got[len(got)-2:], wire.MaxGuardHTML-1)
	}
}

// A message the board refused holds the watermark back without stopping
// the source: the next run reads it again.
func TestRefusedMessageHoldsTheWatermark(t *testing.T) {
	st := &state{path: filepath.Join(t.TempDir(), "ingest-state.json"), Sources: map[string]string{}}
	f := &flight{st: st, name: "box", done: map[int]string{}}
	for i, err := range []error{nil, errHeld, nil, nil} {
		seq := f.start()
		if got := f.finish(seq, fmt.Sprint("wm", i), err); got != nil {
			t.Fatalf("finish %d: %v", i, got)
		}
	}
	if err := f.failed(); err != nil {
		t.Errorf("a refusal stopped the source: %v", err)
	}
	if got := st.Sources["box"]; got != "wm0" {
		t.Errorf("watermark %q, want wm0 (before the refused message)", got)
	}
}

// A body within the parser's limit whose JSON escaping would pass the
// board's request limit is cut further, and says so.
func TestCreateFitsTheBoardsRequestLimit(t *testing.T) {
	in := wire.MessageInput{Subject: "x", Body: strings.Repeat("\x01<", wire.MaxMailBody/2)}
	fitCreate(&in)
	data, _ := json.Marshal(wire.MessageCreate{MessageInput: in})
	if len(data) > wire.MaxRequestBody || len(in.Body) < wire.MaxMailBody/8 {
		t.Errorf("create of %d bytes, body %d", len(data), len(in.Body))
	}
	if diff := cmp.Diff([]string{"body"}, in.Truncated); diff != "" || in.OriginalSizes["body"] != wire.MaxMailBody {
		t.Errorf("note %v %v", in.Truncated, in.OriginalSizes)
	}
	plain := wire.MessageInput{Subject: "x", Body: strings.Repeat("a", wire.MaxMailBody)}
	fitCreate(&plain)
	if len(plain.Body) != wire.MaxMailBody || plain.Truncated != nil {
		t.Errorf("a plain body at the limit was cut: %d %v", len(plain.Body), plain.Truncated)
	}
}
