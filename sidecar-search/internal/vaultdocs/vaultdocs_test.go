package vaultdocs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-search/internal/vaultdocs"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// obsidian is a vault as a person keeps it: the app's dot folder, notes
// without frontmatter, a folder with a space, a symlink out, a file too
// large to read and files that are not Markdown.
func obsidian(t *testing.T) (dir, outside string) {
	dir = filepath.Join(t.TempDir(), "My Vault")
	outside = filepath.Join(t.TempDir(), "secret.md")
	write(t, outside, "---\ntitle: Outside\n---\nnever read\n")
	write(t, filepath.Join(dir, ".obsidian", "workspace.md"), "app state")
	write(t, filepath.Join(dir, ".trash", "Old.md"), "deleted")
	write(t, filepath.Join(dir, "people", "Ann Lee.md"), "---\nid: V-1\ntype: person\naliases: [Annie]\nemails: [Ann@Acme.test]\ncases: [CASE-3]\nmood: calm\n---\nRuns billing.\n")
	write(t, filepath.Join(dir, "Daily notes", "2026-11-26.md"), "Lunch with [[Ann Lee]].\n")
	write(t, filepath.Join(dir, "organizations", "Acme.md"), "---\ntype: organization\ndomains: [acme.test]\n---\nSupplier.\n")
	write(t, filepath.Join(dir, "attachment.pdf"), "%PDF")
	write(t, filepath.Join(dir, "big.md"), strings.Repeat("x", wire.MaxPageBytes+1))
	if err := os.Symlink(outside, filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(dir, "linked folder")); err != nil {
		t.Fatal(err)
	}
	return dir, outside
}

func TestDocsReadsWhatTheBoardReads(t *testing.T) {
	dir, _ := obsidian(t)
	r := &vaultdocs.Reader{Dir: dir}
	docs, stamp, err := r.Docs()
	if err != nil {
		t.Fatal(err)
	}
	want := []searchdoc.Doc{
		{ID: "Daily notes/2026-11-26.md", Type: "page", Text: "2026-11-26\nLunch with [[Ann Lee]]."},
		{ID: "organizations/Acme.md", Type: "page", Text: "Acme\nacme.test\nSupplier."},
		{ID: "V-1", Type: "page", Text: "Ann Lee\nAnnie\nann@acme.test\nRuns billing."},
	}
	if diff := cmp.Diff(want, docs); diff != "" {
		t.Errorf("documents (-want +got)\n%s", diff)
	}
	if stamp == "" || stamp != vaultdocs.Stamp(dir) {
		t.Errorf("stamp %q, Stamp %q", stamp, vaultdocs.Stamp(dir))
	}
}

func TestStampFollowsThePages(t *testing.T) {
	dir, outside := obsidian(t)
	before := vaultdocs.Stamp(dir)
	write(t, filepath.Join(dir, ".obsidian", "workspace.md"), "the app saved its state")
	write(t, outside, "changed outside the vault")
	if got := vaultdocs.Stamp(dir); got != before {
		t.Error("a change outside the pages moved the stamp")
	}
	page := filepath.Join(dir, "organizations", "Acme.md")
	write(t, page, "---\ntype: organization\n---\nNo longer a supplier.\n")
	os.Chtimes(page, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if got := vaultdocs.Stamp(dir); got == before {
		t.Error("a page edit did not move the stamp")
	}
	r := &vaultdocs.Reader{Dir: dir}
	docs, _, _ := r.Docs()
	if docs[1].Text != "Acme\nNo longer a supplier." {
		t.Errorf("edited page: %q", docs[1].Text)
	}
	if got := vaultdocs.Stamp(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("a missing folder has stamp %q", got)
	}
	if docs, _, err := (&vaultdocs.Reader{Dir: filepath.Join(dir, "missing")}).Docs(); err != nil || len(docs) != 0 {
		t.Errorf("a missing folder is an empty vault: %v %v", docs, err)
	}
}

func TestDocsWritesNothing(t *testing.T) {
	dir, _ := obsidian(t)
	snapshot := func() map[string]string {
		out := map[string]string{}
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() {
				data, _ := os.ReadFile(p)
				out[p] = info.ModTime().String() + string(data)
			}
			return nil
		})
		return out
	}
	before := snapshot()
	r := &vaultdocs.Reader{Dir: dir}
	r.Docs()
	r.Docs()
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Errorf("reading the vault changed it (-before +after)\n%s", diff)
	}
}
