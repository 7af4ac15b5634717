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
	for _, old := range []string{"---\ntitle: [x\n---\n", "---\n{id: V-1}\n---\n"} {
		if _, err := Render([]byte(old), Fields{ID: "V-2"}, ""); err == nil {
			t.Errorf("Render(%q) wrote; want it refused", old)
		}
	}
}

// FuzzRender: whatever a file holds, rewriting it with the fields it
// already has changes no byte of its body, and what Render writes parses
// back to the fields it was given.
func FuzzRender(f *testing.F) {
	f.Add("---\nid: V-3\ntags: [a]\n---\nbody\n", "V-4", "Al")
	f.Add("no frontmatter", "V-1", "")
	f.Add("---\r\ntitle: x\r\n---\r\n", "", "b")
	f.Fuzz(func(t *testing.T, file, id, alias string) {
		p := Parse("f.md", []byte(file))
		if p.Broken != "" {
			return
		}
		out, err := Render([]byte(file), p.Fields, p.Body)
		if err != nil {
			return // a flow-style map is refused, not rewritten
		}
		if q := Parse("f.md", out); q.Body != p.Body {
			t.Fatalf("the body changed: %q -> %q", p.Body, q.Body)
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
	})
}
