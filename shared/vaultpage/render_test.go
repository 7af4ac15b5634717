package vaultpage

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opsboard/opsboard/shared/wire"
)

func TestRender(t *testing.T) {
	const person = "---\n# my notes on Alice\nid: V-3\ntype: person\ntags: [friend]   # keep me\naliases:\n  - Al\nbirthday: 1990-01-02\n---\n# Alice\n\nbody\n"
	for _, tc := range []struct {
		name, old string
		fields    func(Fields) Fields
		body      string
		want      string
	}{
		{"nothing changed changes no byte", person, func(f Fields) Fields { return f }, "# Alice\n\nbody\n", person},
		{"a new key goes at the end, the rest stays", person,
			func(f Fields) Fields { f.Cases = []string{"CASE-7"}; return f }, "# Alice\n\nbody\n",
			"---\n# my notes on Alice\nid: V-3\ntype: person\ntags: [friend]   # keep me\naliases:\n  - Al\nbirthday: 1990-01-02\ncases:\n  - CASE-7\n---\n# Alice\n\nbody\n"},
		{"a changed key is rewritten in place", person,
			func(f Fields) Fields { f.Aliases = []string{"Al", "Ali"}; return f }, "# Alice\n\nbody\n",
			"---\n# my notes on Alice\nid: V-3\ntype: person\ntags: [friend]   # keep me\naliases:\n  - Al\n  - Ali\nbirthday: 1990-01-02\n---\n# Alice\n\nbody\n"},
		{"an emptied key goes", person,
			func(f Fields) Fields { f.Aliases = nil; return f }, "new body\n",
			"---\n# my notes on Alice\nid: V-3\ntype: person\ntags: [friend]   # keep me\nbirthday: 1990-01-02\n---\nnew body\n"},
		{"a note without frontmatter gains one", "just text\n",
			func(f Fields) Fields { f.ID = "V-4"; return f }, "just text\n", "---\nid: V-4\n---\njust text\n"},
		{"a person's id stays, the board's goes in boardId", "---\nid: alice\n---\n",
			func(f Fields) Fields { f.ID = "V-5"; return f }, "", "---\nid: alice\nboardId: V-5\n---\n"},
		{"an unknown type is kept", "---\ntype: meeting\n---\n",
			func(f Fields) Fields { f.ID = "V-6"; return f }, "", "---\ntype: meeting\nid: V-6\n---\n"},
		{"CRLF stays CRLF", "---\r\ntitle: Win\r\n---\r\nhi\r\n",
			func(f Fields) Fields { f.ID = "V-8"; return f }, "hi\r\n", "---\r\ntitle: Win\r\nid: V-8\r\n---\r\nhi\r\n"},
		{"a BOM and a ... fence stay", "\ufeff---\ntitle: A\n...\nbody\n",
			func(f Fields) Fields { f.ID = "V-1"; return f }, "body\n", "\ufeff---\ntitle: A\nid: V-1\n...\nbody\n"},
		{"a plain note gaining no key stays plain", "\ufeffjust text\n",
			func(f Fields) Fields { return f }, "just [[Bob]]\n", "\ufeffjust [[Bob]]\n"},
		{"empty frontmatter without a last line end", "---\n---",
			func(f Fields) Fields { f.ID = "V-2"; return f }, "", "---\nid: V-2\n---"},
		{"empty frontmatter gains a body", "---\n---",
			func(f Fields) Fields { return f }, "hi\n", "---\n---\nhi\n"},
		{"one alias written as a string stays a string", "---\naliases: Al\n---\n",
			func(f Fields) Fields { f.Aliases = []string{"Ali"}; return f }, "", "---\naliases: Ali\n---\n"},
		{"a string alias becomes a list when there are two", "---\naliases: Al\n---\n",
			func(f Fields) Fields { f.Aliases = []string{"Al", "Ali"}; return f }, "", "---\naliases:\n  - Al\n  - Ali\n---\n"},
		{"a flow list stays a flow list", "---\nemails: [a@b.test]\ntags: x\n---\n",
			func(f Fields) Fields { f.Emails = append(f.Emails, "c@d.test"); return f }, "", "---\nemails: [a@b.test, c@d.test]\ntags: x\n---\n"},
		{"unindented dashes stay unindented", "---\ncases:\n- CASE-1\n# done\nx: 1\n---\n",
			func(f Fields) Fields { f.Cases = []string{"CASE-1", "CASE-2"}; return f }, "", "---\ncases:\n- CASE-1\n- CASE-2\n# done\nx: 1\n---\n"},
		{"an unchanged key keeps its spelling", "---\nemails: ['Alice@Example.COM']\ntitle: \"Alice\"\n---\n",
			func(f Fields) Fields { f.ID = "V-1"; return f }, "", "---\nemails: ['Alice@Example.COM']\ntitle: \"Alice\"\nid: V-1\n---\n"},
		{"keys the board cannot read stay when it sets nothing there", "---\naliases: []\nmergedInto:\nboardId: nope\n---\n",
			func(f Fields) Fields { return f }, "", "---\naliases: []\nmergedInto:\nboardId: nope\n---\n"},
		{"the board's id kept in boardId stays there", "---\nboardId: V-4\n---\n",
			func(f Fields) Fields { return f }, "", "---\nboardId: V-4\n---\n"},
		{"a person's own id is never dropped", "---\nid: alice\nboardId: V-5\n---\n",
			func(f Fields) Fields { f.OwnID = ""; f.ID = "V-6"; return f }, "", "---\nid: alice\nboardId: V-6\n---\n"},
		{"the id moves out of the way of a cleared field", "---\nid: V-3\ntype: person\nemails:\n  - a@b.test\n---\n",
			func(f Fields) Fields { f.Emails = nil; f.MergedInto = "V-1"; return f }, "", "---\nid: V-3\ntype: person\nmergedInto: V-1\n---\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Parse("x.md", []byte(tc.old))
			got, err := Render([]byte(tc.old), tc.fields(p.Fields), tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRenderNew(t *testing.T) {
	got, err := Render(nil, Fields{ID: "V-1", Type: wire.PagePerson, Title: "Alice", Emails: []string{"a@b.test"}}, "hello\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nid: V-1\ntype: person\ntitle: Alice\nemails:\n  - a@b.test\n---\nhello\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	p := Parse("people/Alice.md", got)
	if diff := cmp.Diff(Fields{ID: "V-1", Type: wire.PagePerson, Title: "Alice", Emails: []string{"a@b.test"}}, p.Fields); diff != "" {
		t.Errorf("read back (-want +got)\n%s", diff)
	}
}

func TestRenderRefusesBrokenFrontmatter(t *testing.T) {
	for _, old := range []string{"---\ntitle: [x\n---\n", "---\n{id: V-1}\n---\n", "---\n  title: x\n  tags: y\n---\n", "---\na: 1\na: 2\n---\n"} {
		if _, err := Render([]byte(old), Fields{ID: "V-2"}, ""); err == nil {
			t.Errorf("Render(%q) wrote; want it refused", old)
		}
	}
}

// FuzzRender: whatever a file holds, rewriting it with the fields it
// already has changes no byte, and what Render writes parses back to the
// fields it was given, with the body and every other key as they were.
func FuzzRender(f *testing.F) {
	f.Add("---\nid: V-3\ntags: [a]\n---\nbody\n", "V-4", "Al")
	f.Add("no frontmatter", "V-1", "")
	f.Add("---\r\ntitle: x\r\n---\r\n", "", "b")
	f.Add("\ufeff---\naliases: Al # mine\ntags:\n- a\n...\n", "V-2", "Ali")
	f.Add("---\n# top\nid: own\nboardId: V-1\nemails: [A@B.test]\n\n# cases next\ncases:\n- CASE-1\n---", "V-9", "x")
	f.Add("---\n---", "V-1", "")
	f.Fuzz(func(t *testing.T, file, id, alias string) {
		p := Parse("f.md", []byte(file))
		if p.Broken != "" {
			return
		}
		out, err := Render([]byte(file), p.Fields, p.Body)
		if err != nil {
			return // a flow-style map is refused, not rewritten
		}
		if string(out) != file {
			t.Fatalf("a write changing nothing changed bytes: %q -> %q", file, out)
		}
		if !IsBoardID(id) {
			return
		}
		want := p.Fields
		want.ID = id
		if alias != "" {
			want.Aliases = append(want.Aliases[:len(want.Aliases):len(want.Aliases)], alias)
		}
		out, err = Render([]byte(file), want, p.Body)
		if err != nil {
			return
		}
		q := Parse("f.md", out)
		if q.Broken != "" || q.Fields.ID != id || q.Body != p.Body {
			t.Fatalf("wrote %q: read back id %q broken %q", out, q.Fields.ID, q.Broken)
		}
		for k, v := range p.Front {
			if _, managed := values(p.Fields, true)[k]; !managed && k != KeyID && k != KeyBoardID && k != KeyAliases {
				if diff := cmp.Diff(v, q.Front[k]); diff != "" {
					t.Fatalf("key %q changed (-was +now)\n%s", k, diff)
				}
			}
		}
	})
}
