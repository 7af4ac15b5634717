package vaultpage

import (
	"reflect"
	"testing"
)

func TestOwnBody(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"no timeline", "Notes.\n", "Notes."},
		{"empty", "", ""},
		{"timeline at end", "Notes.\n\n## Timeline\n- 2026-01-02 called\n", "Notes."},
		{"timeline in the middle", "Intro\n\n## Timeline\n- a\n\n## Later\nmore\n", "Intro\n\n## Later\nmore"},
		{"timeline only", "## Timeline\n- a\n", ""},
		{"subheading stays in the section", "x\n## Timeline\n- a\n### note\nb\n", "x"},
		{"top heading ends the section", "## Timeline\n- a\n# Top\nt\n", "# Top\nt"},
	}
	for _, c := range cases {
		if got := OwnBody(c.body); got != c.want {
			t.Errorf("%s: OwnBody(%q) = %q, want %q", c.name, c.body, got, c.want)
		}
	}
}

// An agent's append, with or without an existing heading, never changes
// the person's text.
func TestOwnBodyIgnoresAppend(t *testing.T) {
	for _, body := range []string{"", "Notes.", "Notes.\n", "Notes.\n\n", "Notes.\n## Timeline\n- a\n\n## After\nz\n"} {
		after := AppendTimeline(body, "2026-01-02 sent the quote")
		if OwnBody(after) != OwnBody(body) {
			t.Errorf("append changed own body: %q -> %q", OwnBody(body), OwnBody(after))
		}
	}
}

func TestChanged(t *testing.T) {
	base := Parse("people/ann.md", []byte("---\ntitle: Ann\naliases: [A]\nemails: [ann@x.com]\n---\nHello\n"))
	cases := []struct {
		name string
		file string
		want map[string]string
	}{
		{"same", "---\ntitle: Ann\naliases: [A]\nemails: [ann@x.com]\n---\nHello\n", map[string]string{}},
		{"own key and timeline only", "---\ntitle: Ann\naliases: [A]\nemails: [ann@x.com]\nmine: 1\n---\nHello\n\n## Timeline\n- d x\n", map[string]string{}},
		{"title", "---\ntitle: Anne\naliases: [A]\nemails: [ann@x.com]\n---\nHello\n", map[string]string{EditTitle: `"Ann"`}},
		{"aliases and body", "---\ntitle: Ann\nemails: [ann@x.com]\n---\nBye\n", map[string]string{EditAliases: `["A"]`, EditBody: `"Hello"`}},
		{"domain added", "---\ntitle: Ann\naliases: [A]\nemails: [ann@x.com]\ndomains: [x.com]\n---\nHello\n", map[string]string{EditDomains: `null`}},
		{"broken", "---\ntitle: [\n---\nHello\n", nil},
	}
	for _, c := range cases {
		got := Changed(base, Parse("people/ann.md", []byte(c.file)))
		gotS := map[string]string{}
		for k, v := range got {
			gotS[k] = string(v)
		}
		if c.want == nil {
			if len(got) != 0 {
				t.Errorf("%s: got %v, want nothing", c.name, gotS)
			}
			continue
		}
		if !reflect.DeepEqual(gotS, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, gotS, c.want)
		}
	}
}
