package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// fakeBoard is the store's side of the vault, in memory: the store is
// another package's, and the vault only needs these four calls of it.
type fakeBoard struct {
	mu       sync.Mutex
	minted   int
	doc      *wire.Doc
	resolved []string // "id emails domains" per call
	relinked []string // "from>to" per call
}

func newFakeBoard() *fakeBoard { return &fakeBoard{doc: &wire.Doc{}} }

func (b *fakeBoard) Mint(context.Context) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.minted++
	return fmt.Sprintf("V-%d", b.minted), nil
}

func (b *fakeBoard) Snapshot() *wire.Doc {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.doc
}

func (b *fakeBoard) Relink(_ context.Context, from, to string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.relinked = append(b.relinked, from+">"+to)
	swap := func(ids []string) []string {
		for i, id := range ids {
			if id == from {
				ids[i] = to
			}
		}
		return slices.Compact(ids)
	}
	for _, c := range b.doc.Cases.All() {
		c.VaultLinks = swap(c.VaultLinks)
	}
	for _, m := range b.doc.Messages.All() {
		m.Entities = swap(m.Entities)
	}
	return nil
}

func (b *fakeBoard) Resolve(_ context.Context, id string, emails, domains []string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.resolved = append(b.resolved, fmt.Sprintf("%s %v %v", id, emails, domains))
	return nil
}

func (b *fakeBoard) SavePageEdits(_ context.Context, path, from string, edits wire.HumanEdits) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := *b.doc
	d.PageEdits = d.PageEdits.Filter(func(p *wire.PageEdits) bool { return p.ID != path && p.ID != from })
	if len(edits) > 0 {
		d.PageEdits = d.PageEdits.Append(&wire.PageEdits{ID: path, HumanEdits: edits})
	}
	b.doc = &d
	return nil
}

func (b *fakeBoard) LogOverride(context.Context, string, string) error { return nil }

func (b *fakeBoard) setDoc(d *wire.Doc) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.doc = d
}

// fixture is an open vault over a temp folder.
type fixture struct {
	t       *testing.T
	dir     string
	v       *Vault
	board   *fakeBoard
	mu      sync.Mutex
	changes int
}

// open writes files (path relative to the vault -> content) in a new temp
// folder and opens a vault over it.
func open(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	return openAt(t, t.TempDir(), files)
}

// openAt opens a vault over dir, after writing files in it.
func openAt(t *testing.T, dir string, files map[string]string) *fixture {
	t.Helper()
	f := &fixture{t: t, dir: dir, board: newFakeBoard()}
	for p, body := range files {
		f.write(p, body)
	}
	v, err := Open(context.Background(), Config{
		Dir:   f.dir,
		Board: f.board,
		Now:   func() time.Time { return time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC) },
		OnChange: func() {
			f.mu.Lock()
			f.changes++
			f.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	f.v = v
	eventually(t, 5*time.Second, "the first scan ends", v.Ready)
	return f
}

func (f *fixture) write(rel, body string) {
	f.t.Helper()
	p := filepath.Join(f.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// save writes a file as an editor does: a temp file renamed into place.
func (f *fixture) save(rel, body string) {
	f.t.Helper()
	p := filepath.Join(f.dir, filepath.FromSlash(rel))
	tmp := filepath.Join(filepath.Dir(p), ".edit.tmp")
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		f.t.Error(err)
		return
	}
	if err := os.Rename(tmp, p); err != nil {
		f.t.Error(err)
	}
}

func (f *fixture) read(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(rel)))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(f.dir, filepath.FromSlash(rel)))
	return err == nil
}

// tree is every file below the vault with its bytes, dot folders included:
// what "the board wrote nothing" is checked against.
func (f *fixture) tree() map[string]string {
	f.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(f.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			b = []byte("<unreadable>")
		}
		r, _ := filepath.Rel(f.dir, p)
		out[filepath.ToSlash(r)] = string(b)
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func (f *fixture) paths(list []wire.PageSummary) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Path)
	}
	return out
}

func (f *fixture) list(flt Filter) []wire.PageSummary {
	f.t.Helper()
	got, _, err := f.v.List(flt)
	if err != nil {
		f.t.Fatal(err)
	}
	return got
}

func (f *fixture) get(idOrPath string) wire.Page {
	f.t.Helper()
	p, err := f.v.Get(idOrPath)
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s did not happen", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wantBadRequest checks err is a 400 whose message names field.
func wantBadRequest(t *testing.T, err error, field string) {
	t.Helper()
	var bad *errs.BadRequestError
	if !errors.As(err, &bad) {
		t.Fatalf("want a 400 naming %s, got %T %v", field, err, err)
	}
	if !strings.Contains(err.Error(), field) {
		t.Fatalf("want a 400 naming %s, got %q", field, err)
	}
}
