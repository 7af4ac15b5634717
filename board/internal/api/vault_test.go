package api_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/rules/pages"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/board/internal/vault"
	"github.com/tidwall/gjson"
)

// openVault opens the vault folder dir over st; attach hands the vault's
// change hook the API built after it.
func openVault(t testing.TB, st *store.Store, dir string) (*vault.Vault, func(*api.API)) {
	t.Helper()
	var live atomic.Pointer[api.API]
	v, err := vault.Open(context.Background(), vault.Config{Dir: dir, Board: pages.Board{Store: st}, Log: quiet, OnChange: func() {
		if a := live.Load(); a != nil {
			a.VaultChanged()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return v, func(a *api.API) { live.Store(a) }
}

// vaultBoard is a test board over a vault folder holding files, once the
// vault's first scan ended.
func vaultBoard(t *testing.T, files map[string]string) (*board, string) {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := newBoardWith(t, dir)
	testkit.Eventually(t, "the vault's first scan ends", func() bool { return b.do("GET", "/api/vault", nil).Code == 200 })
	return b, dir
}

func TestVaultRoutesWithoutAVault(t *testing.T) {
	b := newBoard(t)
	for _, path := range []string{"/api/vault", "/api/vault/pages/V-1", "/api/vault/unresolved"} {
		b.fails(503, "the board runs without a vault folder", "GET", path, nil)
	}
	b.fails(503, "without a vault", "POST", "/api/vault/pages", map[string]any{"title": "Ann", "type": "person"})
	if b.must(200, "GET", "/api/health", nil).Get("vault").Exists() {
		t.Error("health names no vault the board does not have")
	}
}

func TestVaultEventOnTheStream(t *testing.T) {
	b, dir := vaultBoard(t, nil)
	stream := openStream(t, b.URL)
	defer stream.Close()
	b.must(201, "POST", "/api/vault/pages", map[string]any{"title": "Ann", "type": "person"})
	if seq := nextVaultEvent(t, stream); seq < 1 {
		t.Errorf("seq %d", seq)
	}
	// A hand edit is seen by the watcher and told the same way.
	if err := os.WriteFile(filepath.Join(dir, "people", "Bob.md"), []byte("---\ntype: person\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nextVaultEvent(t, stream)
	testkit.Eventually(t, "the hand-made page is listed", func() bool {
		return strings.Contains(b.must(200, "GET", "/api/vault?type=person", nil).Raw, "people/Bob.md")
	})
}

// nextVaultEvent reads the stream until a vault event and returns its seq.
func nextVaultEvent(t *testing.T, c *sseClient) int64 {
	t.Helper()
	for {
		if ev := c.next(t); ev.Name == "vault" {
			return gjson.Get(ev.Data, "seq").Int()
		}
	}
}

func TestRouteVariablesStillArriveDecoded(t *testing.T) {
	b, _ := vaultBoard(t, map[string]string{"people/Ann Lee.md": "---\ntype: person\n---\n"})
	id := b.must(201, "POST", "/api/cases", map[string]any{"title": "Lease"}).Get("case.id").String()
	if got := b.must(200, "GET", "/api/cases/"+strings.Replace(id, "-", "%2D", 1), nil).Get("case.id").String(); got != id {
		t.Errorf("an encoded case id: %q", got)
	}
	if got := b.must(200, "GET", "/api/vault/pages/people%2FAnn%20Lee.md", nil).Get("page.title").String(); got != "Ann Lee" {
		t.Errorf("a path with %%2F is one segment: %q", got)
	}
	b.fails(404, "", "GET", "/api/vault/pages/..%2F..%2Fboard.json", nil)
	if got := b.must(200, "PATCH", "/api/cases/"+id, map[string]any{"vaultLinks": []string{"people/Ann Lee.md"}}).Get("case.vaultLinks.0").String(); !strings.HasPrefix(got, "V-") {
		t.Errorf("links hold ids: %q", got)
	}
}

// Mail created the moment a board starts, before the vault's first scan
// ends, still names its sender's page: the create waits for the scan.
func TestMessageCreatedDuringTheFirstScanResolvesItsSender(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "people"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 300 { // enough pages that the scan is still running at the first create
		page := fmt.Sprintf("---\ntype: person\nemails: [p%d@example.test]\n---\nPerson %d\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, "people", fmt.Sprintf("Person %d.md", i)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := newBoardWith(t, dir)
	got := b.must(201, "POST", "/api/messages", map[string]any{"from": "Person 299 <p299@example.test>", "subject": "hello", "body": "hi"})
	if ents := got.Get("message.entities").Array(); len(ents) != 1 || !strings.HasPrefix(ents[0].String(), "V-") {
		t.Fatalf("entities %s, want the person page's id", got.Get("message.entities").Raw)
	}
}

// A page path in a proposal's vaultLinks is a page id once approved, as a
// direct write stores it; an unknown page is refused when filed.
func TestProposalLinksPagesByID(t *testing.T) {
	b, _ := vaultBoard(t, map[string]string{"people/Alice.md": "---\ntype: person\n---\nAlice\n"})
	id := b.must(201, "POST", "/api/cases", map[string]any{"title": "Lease"}).Get("case.id").String()
	b.must(400, "POST", "/api/pending", map[string]any{"verb": "update_case", "summary": "link", "actor": "agent",
		"payload": map[string]any{"id": id, "vaultLinks": []string{"people/Nobody.md"}}})
	p := b.must(201, "POST", "/api/pending", map[string]any{"verb": "update_case", "summary": "link Alice", "actor": "agent",
		"payload": map[string]any{"id": id, "vaultLinks": []string{"people/Alice.md"}}})
	b.must(200, "POST", "/api/pending/"+p.Get("proposal.id").String()+"/approve", nil)
	links := b.must(200, "GET", "/api/cases/"+id, nil).Get("case.vaultLinks").Array()
	if len(links) != 1 || !strings.HasPrefix(links[0].String(), "V-") {
		t.Fatalf("vaultLinks %v after the approval, want the page's id", links)
	}
	page := b.must(200, "GET", "/api/vault/pages/"+links[0].String(), nil)
	if got := page.Get("page.cases").Array(); len(got) != 1 || got[0].String() != id {
		t.Errorf("the page's cases %v, want [%s]", got, id)
	}
}
