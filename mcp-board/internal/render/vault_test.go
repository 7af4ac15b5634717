package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

var alice = wire.PageSummary{
	ID: "V-3", Path: "people/Alice Martin.md", Title: "Alice Martin", Type: wire.PagePerson,
	Aliases: []string{"Ali"}, Emails: []string{"alice@acme.test"}, Cases: []string{"CASE-1", "CASE-4"},
	UpdatedAt: "2026-11-20T10:00:00Z",
}

func TestPageLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    wire.PageSummary
		want string
	}{
		{"person", alice, "V-3 - [person] Alice Martin - people/Alice Martin.md"},
		{"no id yet: the path names it", wire.PageSummary{Path: "Notes/Acme.md", Title: "Acme", Type: wire.PageOrganization}, "[organization] Acme - Notes/Acme.md"},
		{"no type", wire.PageSummary{ID: "V-9", Path: "Inbox.md", Title: "Inbox"}, "V-9 - [no type] Inbox - Inbox.md"},
		{"broken", wire.PageSummary{Path: "Bad.md", Title: "Bad", Broken: "yaml: line 2:\n mapping values"},
			"[no type] Bad - Bad.md - BROKEN: yaml: line 2: mapping values; the person must fix the file before any write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, PageLine(&tc.p)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPage(t *testing.T) {
	p := wire.Page{
		PageSummary: alice,
		Frontmatter: map[string]any{"id": "V-3", "type": "person", "emails": []any{"alice@acme.test"}, "role": "CFO", "company": "[[Acme]]"},
		Body:        "Met at the offsite.\n\n## Timeline\n- 2026-11-20 call about desks\n",
		Backlinks:   wire.PageBacklinks{Cases: []string{"CASE-1", "CASE-4"}, Messages: []string{"M-2"}},
	}
	want := strings.Join([]string{
		"V-3 - [person] Alice Martin - people/Alice Martin.md",
		"Aliases: Ali",
		"Emails: alice@acme.test",
		"Cases: CASE-1, CASE-4",
		"Properties: company=[[Acme]]; role=CFO",
		"Linked from: cases CASE-1, CASE-4; messages M-2",
		"Updated: 2026-11-20T10:00:00Z",
		"Body:",
		"Met at the offsite.",
		"",
		"## Timeline",
		"- 2026-11-20 call about desks",
	}, "\n")
	if diff := cmp.Diff(want, Page(p)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestPageCutsWhatCouldBeLong(t *testing.T) {
	var msgs []string
	for i := 1; i <= 25; i++ {
		msgs = append(msgs, fmt.Sprintf("M-%d", i))
	}
	p := wire.Page{
		PageSummary: wire.PageSummary{ID: "V-1", Path: "topics/Move.md", Title: "Move", Type: wire.PageTopic},
		MergedInto:  "V-7",
		Body:        strings.Repeat("x", maxPageBody+10),
		Backlinks:   wire.PageBacklinks{Messages: msgs},
	}
	got := Page(p)
	for _, want := range []string{
		"Merged into V-7: use V-7.",
		"Linked from: messages M-1, M-2,",
		"M-20 and 5 more",
		"(10 more characters not shown; the file is topics/Move.md in the vault.)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "M-21") {
		t.Errorf("lists more than %d messages:\n%s", maxPageBacklinks, got)
	}
	if empty := Page(wire.Page{PageSummary: wire.PageSummary{Path: "a.md", Title: "a"}}); !strings.HasSuffix(empty, "Linked from: nothing\nBody: empty") {
		t.Errorf("an empty page:\n%s", empty)
	}
}

func TestFoundEntity(t *testing.T) {
	page := wire.Page{PageSummary: alice}
	other := wire.PageSummary{ID: "V-8", Path: "people/Alice Chen.md", Title: "Alice Chen", Type: wire.PagePerson}
	org := wire.PageSummary{ID: "V-5", Path: "organizations/Acme.md", Title: "Acme", Type: wire.PageOrganization}
	for _, tc := range []struct {
		name string
		e    Entity
		want string
	}{
		{"none", Entity{Query: "bob@x.test"}, `No vault page matches "bob@x.test". If it is a sender, list_unresolved_senders may suggest a page; to make one: create_page (one page per person or organisation).`},
		{"one", Entity{Query: "alice@acme.test", Page: &page, Reason: "its emails hold alice@acme.test", Weaker: []EntityChoice{{org, "its domains hold acme.test"}}}, strings.Join([]string{
			"Best: V-3 - [person] Alice Martin - people/Alice Martin.md",
			"Why: its emails hold alice@acme.test",
			"Ambiguous: no",
			"Aliases: Ali",
			"Emails: alice@acme.test",
			"Cases: CASE-1, CASE-4",
			"Weaker matches:",
			"- V-5 - [organization] Acme - organizations/Acme.md (its domains hold acme.test)",
		}, "\n")},
		{"through a merged stub", Entity{Query: "Alice M", Page: &page, Reason: `its title is "Alice M"`, Via: "V-2"}, "Best: V-3 - [person] Alice Martin - people/Alice Martin.md\nWhy: its title is \"Alice M\" (on V-2, merged into this page)\nAmbiguous: no\nAliases: Ali\nEmails: alice@acme.test\nCases: CASE-1, CASE-4"},
		{"ambiguous", Entity{Query: "Alice", Page: &page, Reason: `its title "Alice Martin" contains "Alice"`, Others: []EntityChoice{{other, `its title "Alice Chen" contains "Alice"`}}}, strings.Join([]string{
			"Best: V-3 - [person] Alice Martin - people/Alice Martin.md",
			`Why: its title "Alice Martin" contains "Alice"`,
			"Ambiguous: yes, 1 more page match as well; ask the person or read each with get_page before writing:",
			`- V-8 - [person] Alice Chen - people/Alice Chen.md (its title "Alice Chen" contains "Alice")`,
			"Aliases: Ali",
			"Emails: alice@acme.test",
			"Cases: CASE-1, CASE-4",
		}, "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FoundEntity(tc.e)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestUnresolvedSenders(t *testing.T) {
	u := wire.UnresolvedSenders{Senders: []wire.UnresolvedSender{
		{Address: "al@home.test", Name: "Alice\nMartin", Messages: 3, LastAt: "2026-11-25T09:00:00Z", Suggestions: []wire.PageSuggestion{{ID: "V-3", Reason: "name matches the title"}}},
		{Address: "news@shop.test", Messages: 1},
		{Address: "x@y.test", Messages: 2},
	}}
	want := strings.Join([]string{
		"al@home.test (Alice Martin) - 3 messages, last 2026-11-25T09:00:00Z - might be V-3 (name matches the title)",
		"news@shop.test - 1 message",
		"1 more not shown (raise limit).",
		"To resolve one: add the address to its page's emails with update_page (its past mail follows), or create_page.",
	}, "\n")
	if diff := cmp.Diff(want, UnresolvedSenders(u, 2)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if got := UnresolvedSenders(wire.UnresolvedSenders{}, 50); got != "Every sender of inbound mail is on a vault page." {
		t.Errorf("none: %q", got)
	}
}

func TestPageWrite(t *testing.T) {
	for _, tc := range []struct {
		name    string
		verb    string
		dry     bool
		changes []string
		want    string
	}{
		{"created", "Created", false, nil, "Created V-3 - [person] Alice Martin - people/Alice Martin.md"},
		{"renamed", "Updated (title)", false, []string{"people/Alice Martin.md", "topics/Move.md"},
			"Updated (title) V-3 - [person] Alice Martin - people/Alice Martin.md\nFiles changed (2):\n- people/Alice Martin.md\n- topics/Move.md"},
		{"dry run", "Updated (title)", true, []string{"topics/Move.md"}, "Dry run, nothing changed: the write would change 1 file:\n- topics/Move.md"},
		{"dry run, no file", "Merged V-2 into", true, nil, "Dry run, nothing changed: the write would change no file."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, PageWrite(tc.verb, &alice, tc.dry, tc.changes)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
