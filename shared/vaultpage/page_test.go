package vaultpage

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, path, file string
		fields           Fields
		title, body      string
		broken           bool
	}{
		{"no frontmatter", "notes/Idea.md", "Just a note\n", Fields{}, "Idea", "Just a note\n", false},
		{"empty frontmatter", "Empty.md", "---\n---\nbody\n", Fields{}, "Empty", "body\n", false},
		{"board page", "people/Alice Example.md", "---\nid: V-3\ntype: person\ntitle: Alice Example\naliases: [Al]\nemails: [Alice@Example.com]\ncases: [CASE-1]\n---\n# Alice\n",
			Fields{ID: "V-3", Type: wire.PagePerson, Title: "Alice Example", Aliases: []string{"Al"}, Emails: []string{"alice@example.com"}, Cases: []string{"CASE-1"}}, "Alice Example", "# Alice\n", false},
		{"a person's own id keeps the board's in boardId", "Bob.md", "---\nid: bob-2024\nboardId: V-9\n---\n",
			Fields{ID: "V-9", OwnID: "bob-2024"}, "Bob", "", false},
		{"alias as one string", "Co.md", "---\naliases: Acme\ntype: organization\ndomains:\n  - ACME.test\n---\n",
			Fields{Type: wire.PageOrganization, Aliases: []string{"Acme"}, Domains: []string{"acme.test"}}, "Co", "", false},
		{"unknown type is no type", "T.md", "---\ntype: meeting\n---\n", Fields{}, "T", "", false},
		{"CRLF and a BOM", "W.md", "\ufeff---\r\ntitle: Win\r\n---\r\nhi\r\n", Fields{Title: "Win"}, "Win", "hi\r\n", false},
		{"broken YAML", "B.md", "---\ntitle: [unclosed\n---\nbody\n", Fields{}, "B", "body\n", true},
		{"a list is not frontmatter", "L.md", "---\n- a\n- b\n---\n", Fields{}, "L", "", true},
		{"a fence never closed is body", "U.md", "---\ntitle: x\n", Fields{}, "U", "---\ntitle: x\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Parse(tc.path, []byte(tc.file))
			if diff := cmp.Diff(tc.fields, p.Fields); diff != "" {
				t.Errorf("fields (-want +got)\n%s", diff)
			}
			if p.Title != tc.title || p.Body != tc.body || (p.Broken != "") != tc.broken || p.Path != tc.path || len(p.Hash) != 64 {
				t.Errorf("got title %q body %q broken %q path %q hash %q", p.Title, p.Body, p.Broken, p.Path, p.Hash)
			}
		})
	}
}

func TestParseRefusesAnAliasBombQuickly(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n")
	for i := 'b'; i <= 'j'; i++ {
		prev := string(i - 1)
		b.WriteString(string(i) + ": &" + string(i) + " [*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + "]\n")
	}
	b.WriteString("---\nbody\n")
	done := make(chan Page, 1)
	go func() { done <- Parse("bomb.md", []byte(b.String())) }()
	select {
	case p := <-done:
		if p.Broken == "" {
			t.Fatal("an alias bomb parsed as a page; want it broken")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("parsing an alias bomb did not end")
	}
}

func TestIsBoardID(t *testing.T) {
	for s, want := range map[string]bool{"V-1": true, "V-120": true, "V-0": false, "V-01": false, "V-": false, "v-1": false, "V-1a": false, "CASE-1": false} {
		if got := IsBoardID(s); got != want {
			t.Errorf("IsBoardID(%q) = %v", s, got)
		}
	}
}

func TestCheckTitle(t *testing.T) {
	for _, tc := range []struct {
		title string
		ok    bool
	}{
		{"Alice Example", true}, {"Ümlaut & Co.", true}, {"", false}, {"  ", false}, {".hidden", false},
		{"a/b", false}, {`a\b`, false}, {"a\x00b", false}, {"a[b", false}, {"a]b", false}, {"a#b", false}, {"a^b", false}, {"a|b", false},
	} {
		if err := CheckTitle(tc.title); (err == nil) != tc.ok {
			t.Errorf("CheckTitle(%q) = %v", tc.title, err)
		}
	}
}

func TestNames(t *testing.T) {
	if got := FileName(" Alice "); got != "Alice.md" {
		t.Errorf("FileName = %q", got)
	}
	for ty, want := range map[wire.PageType]string{wire.PagePerson: "people", wire.PageOrganization: "organizations", wire.PageProject: "projects", wire.PageTopic: "topics", "x": ""} {
		if got := Folder(ty); got != want {
			t.Errorf("Folder(%q) = %q", ty, got)
		}
	}
	for s, ok := range map[string]bool{"a@b.test": true, "Alice <a@b.test>": false, "nope": false, "": false} {
		if err := CheckEmail(s); (err == nil) != ok {
			t.Errorf("CheckEmail(%q) = %v", s, err)
		}
	}
	if got := Domain("Alice@Mail.Example.COM"); got != "mail.example.com" {
		t.Errorf("Domain = %q", got)
	}
}
