package vaultpage

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWikiLinks(t *testing.T) {
	body := "See [[Alice]], [[Acme Corp|the company]] and [[alice#Work]].\n[[ broken\n]] [[]] [[Bob]]"
	if diff := cmp.Diff([]string{"Alice", "Acme Corp", "Bob"}, WikiLinks(body)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestRewriteLinks(t *testing.T) {
	for _, tc := range []struct {
		name, body, from, to, want string
		n                          int
	}{
		{"plain, text and heading kept", "[[Alice]] met [[alice|her]] at [[Alice#2024]]", "Alice", "Alice Example", "[[Alice Example]] met [[Alice Example|her]] at [[Alice Example#2024]]", 3},
		{"other links stay", "[[Bob]] and [[Alice B]]", "Alice", "X", "[[Bob]] and [[Alice B]]", 0},
		{"no links", "plain text", "Alice", "X", "plain text", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, n := RewriteLinks(tc.body, tc.from, tc.to)
			if got != tc.want || n != tc.n {
				t.Errorf("got %q (%d), want %q (%d)", got, n, tc.want, tc.n)
			}
		})
	}
}

func TestAppendTimeline(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"no heading: one at the end", "# Alice\n\nNotes.\n", "# Alice\n\nNotes.\n\n## Timeline\n- 2026-11-26 met\n"},
		{"empty body", "", "## Timeline\n- 2026-11-26 met\n"},
		{"after the last line of the section", "## Timeline\n- 2026-01-01 first\n\n## Other\nx\n", "## Timeline\n- 2026-01-01 first\n- 2026-11-26 met\n\n## Other\nx\n"},
		{"section at the end", "intro\n## Timeline\n- a\n", "intro\n## Timeline\n- a\n- 2026-11-26 met\n"},
		{"no newline at the end", "text", "text\n\n## Timeline\n- 2026-11-26 met\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, AppendTimeline(tc.body, "2026-11-26 met")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
