package api_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
)

// TestPersonsWordOnVaultPages: a page is the person's file. What they
// change through the page, or by hand on disk, holds against the agent as
// a record's field does; the agent's Timeline line never counts as
// changing their text; override goes through and is logged.
func TestPersonsWordOnVaultPages(t *testing.T) {
	b, dir := vaultBoard(t, nil)
	created := b.must(http.StatusCreated, "POST", "/api/vault/pages", map[string]any{"title": "Ann Lee", "type": "person", "body": "Ann runs the lease."}, agent...)
	id, path := created.Get("page.id").String(), created.Get("page.path").String()
	if id == "" {
		id = path
	}
	url := "/api/vault/pages/" + id

	// Creating protects nothing: the agent may change its own page.
	b.must(http.StatusOK, "PATCH", url, map[string]any{"aliases": []string{"Ann"}}, agent...)

	// The person's change through the page holds, and says what stands.
	b.must(http.StatusOK, "PATCH", url, map[string]any{"aliases": []string{"Annie"}})
	refusedRevert(t, b, "PATCH", url, map[string]any{"aliases": []string{"Ann"}}, "aliases")
	r := b.do("PATCH", url, map[string]any{"aliases": []string{"A. Lee"}}, agent...)
	if got := r.Body.Get("humanChange.value.0").String(); r.Code != http.StatusBadRequest || got != "Annie" {
		t.Errorf("status %d, humanChange.value %q, want the person's alias: %s", r.Code, got, r.Raw)
	}

	// A hand edit on disk is the person's too.
	full := filepath.Join(dir, filepath.FromSlash(path))
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "Ann runs the lease.", "Ann runs the lease and the keys.", 1)
	if err := os.WriteFile(full, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the hand edit is read", func() bool {
		return strings.Contains(b.must(http.StatusOK, "GET", url, nil).Get("page.body").String(), "and the keys")
	})
	testkit.Eventually(t, "the hand edit is the person's", func() bool {
		return b.do("PATCH", url, map[string]any{"body": "Ann left."}, agent...).Code == http.StatusBadRequest
	})
	refusedRevert(t, b, "PATCH", url, map[string]any{"body": "Ann runs the lease."}, "body")

	// The agent's Timeline line is not the person's text.
	got := b.must(http.StatusOK, "PATCH", url, map[string]any{"append": "Called about the keys."}, agent...)
	if body := got.Get("page.body").String(); !strings.Contains(body, "Called about the keys.") || !strings.Contains(body, "and the keys") {
		t.Errorf("after the append the body is %q", body)
	}

	// override goes through, and Activity shows it as the agent's.
	b.must(http.StatusOK, "PATCH", url, map[string]any{"body": "Ann left.", "override": true}, agent...)
	logged := false
	for _, row := range b.must(http.StatusOK, "GET", "/api/activity?actor=agent", nil).Get("activity").Array() {
		logged = logged || (row.Get("verb").String() == "override" && strings.HasPrefix(row.Get("detail").String(), id+" "))
	}
	if !logged {
		t.Error("the override of the page is not in Activity")
	}
	// The person is never refused.
	b.must(http.StatusOK, "PATCH", url, map[string]any{"body": "Ann is back."})

	// A rename moves the page's file, and its stamps with it.
	if id == path {
		t.Fatalf("the page was created without an id: %s", created.Raw)
	}
	b.must(http.StatusOK, "PATCH", url, map[string]any{"title": "Ann Lee-Smith"})
	refusedRevert(t, b, "PATCH", url, map[string]any{"title": "Ann Lee"}, "title")
	refusedRevert(t, b, "PATCH", url, map[string]any{"aliases": []string{"Ann"}}, "aliases")
}

// TestAHandEditHoldsBeforeTheWatcherSeesIt: an agent's write that comes
// right after the person saved the page by hand, before the folder watch
// has read the file, is checked against the file as it is: the person's
// text holds and is not overwritten.
func TestAHandEditHoldsBeforeTheWatcherSeesIt(t *testing.T) {
	b, dir := vaultBoard(t, nil)
	created := b.must(http.StatusCreated, "POST", "/api/vault/pages", map[string]any{"title": "Bo Chan", "type": "person", "body": "Bo signs the lease."}, agent...)
	path := created.Get("page.path").String()
	url := "/api/vault/pages/" + created.Get("page.id").String()
	full := filepath.Join(dir, filepath.FromSlash(path))
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "Bo signs the lease.", "Bo signs the lease on Friday.", 1)
	if err := os.WriteFile(full, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The refusal is the agent's; the version moves once, for the stamp of
	// the person's hand edit that the watch would have saved anyway.
	r := b.do("PATCH", url, map[string]any{"body": "Bo left."}, agent...)
	if hc := r.Body.Get("humanChange"); r.Code != http.StatusBadRequest || hc.Get("field").String() != "body" || hc.Get("actor").String() != "human" {
		t.Fatalf("status %d, want 400 naming the person's body: %s", r.Code, r.Raw)
	}
	if got, err := os.ReadFile(full); err != nil || !strings.Contains(string(got), "on Friday") {
		t.Errorf("the page on disk after the refused write:\n%s (%v)", got, err)
	}
}
