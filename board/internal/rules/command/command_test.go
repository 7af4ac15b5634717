package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Command
		err  string // "" means accepted
	}{
		{"help", Command{Verb: "help"}, ""},
		{"  NEW  Renew   lease ", Command{Verb: "new", Text: "Renew   lease"}, ""},
		{"move CASE-12 done", Command{Verb: "move", ID: "CASE-12", Lane: "done"}, ""},
		{"move case-12 In Progress", Command{Verb: "move", ID: "CASE-12", Lane: "in_progress"}, ""},
		{"move 12 waiting-for-input", Command{Verb: "move", ID: "CASE-12", Lane: "waiting_for_input"}, ""},
		{"move CASE-12 to-do", Command{Verb: "move", ID: "CASE-12", Lane: "todo"}, ""},
		{"star CASE-3", Command{Verb: "star", ID: "CASE-3"}, ""},
		{"unstar 3", Command{Verb: "unstar", ID: "CASE-3"}, ""},
		{"done CASE-3", Command{Verb: "done", ID: "CASE-3"}, ""},
		{"archive CASE-3", Command{Verb: "archive", ID: "CASE-3"}, ""},
		{"restore CASE-3", Command{Verb: "restore", ID: "CASE-3"}, ""},
		{"remind Renew passport 2026-10-01", Command{Verb: "remind", Text: "Renew passport", Date: "2026-10-01"}, ""},
		{"remind Call 2026-10-01T09:30", Command{Verb: "remind", Text: "Call", Date: "2026-10-01T09:30"}, ""},
		{"note CASE-3 called them,  no answer", Command{Verb: "note", ID: "CASE-3", Text: "called them,  no answer"}, ""},
		{"find acme corp", Command{Verb: "find", Text: "acme corp"}, ""},
		{"search acme", Command{Verb: "find", Text: "acme"}, ""},
		{"", Command{}, "Field 'text' is required."},
		{"dance", Command{}, `unknown command "dance"`},
		{"move CASE-12", Command{}, "usage: move"},
		{"move CASE-12 later", Command{}, `unknown lane "later"`},
		{"move REM-1 done", Command{}, "usage: move"},
		{"star", Command{}, "usage: star"},
		{"star CASE-1 CASE-2", Command{}, "usage: star"},
		{"remind Call tomorrow", Command{}, "usage: remind"},
		{"remind 2026-10-01", Command{}, "usage: remind"},
		{"note CASE-3", Command{}, "usage: note"},
		{"new", Command{}, "usage: new"},
	} {
		got, err := Parse(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one containing %q", tc.text, err, tc.err)
				continue
			}
			// A command that cannot be read answers with the help; an unknown
			// lane names the lanes instead.
			if wantHelp := !strings.Contains(tc.err, "lane"); wantHelp && !strings.Contains(err.Error(), Help) {
				t.Errorf("%q: error %v lacks the help text", tc.text, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got)\n%s", tc.text, diff)
		}
	}
}
