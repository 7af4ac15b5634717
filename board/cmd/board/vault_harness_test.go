package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// vaultBoard starts the board on a fresh data file with its vault at dir
// and waits for the vault's first scan to end.
func vaultBoard(t *testing.T, data, dir string) *daemon {
	t.Helper()
	d := start(t, data, 0, "SVC_VAULT_DIR="+dir)
	testkit.Eventually(t, "the vault's first scan ends", func() bool {
		code, _, err := d.do("GET", "/api/vault", "")
		return err == nil && code == http.StatusOK
	})
	return d
}

// files writes each path (relative to dir) with its text.
func files(t *testing.T, dir string, byPath map[string]string) {
	t.Helper()
	for p, text := range byPath {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// pagePath is a page's path as one route segment.
func pagePath(idOrPath string) string { return "/api/vault/pages/" + url.PathEscape(idOrPath) }

// pageOf reads one page.
func (d *daemon) pageOf(t *testing.T, idOrPath string) wire.Page {
	t.Helper()
	var out wire.PageReply
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", pagePath(idOrPath), ""), &out); err != nil {
		t.Fatal(err)
	}
	return out.Page
}

// pageWrite sends a page write and decodes its answer.
func (d *daemon) pageWrite(t *testing.T, want int, method, path string, body any) wire.PageReply {
	t.Helper()
	var out wire.PageReply
	if err := json.Unmarshal(d.must(t, want, method, path, jsonBody(t, body)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// caseOf reads one case.
func (d *daemon) caseOf(t *testing.T, id string) wire.Case {
	t.Helper()
	var out wire.CaseDetail
	if err := json.Unmarshal(d.must(t, http.StatusOK, "GET", "/api/cases/"+id, ""), &out); err != nil {
		t.Fatal(err)
	}
	return out.Case
}

// postCase creates a case and answers it.
func (d *daemon) postCase(t *testing.T, body any) wire.Case {
	t.Helper()
	var out wire.CaseReply
	if err := json.Unmarshal(d.must(t, http.StatusCreated, "POST", "/api/cases", jsonBody(t, body)), &out); err != nil {
		t.Fatal(err)
	}
	return out.Case
}

// postMessage creates a message and answers it.
func (d *daemon) postMessage(t *testing.T, path string, body any) wire.Message {
	t.Helper()
	var out wire.MessageReply
	if err := json.Unmarshal(d.must(t, http.StatusCreated, "POST", path, jsonBody(t, body)), &out); err != nil {
		t.Fatal(err)
	}
	return out.Message
}

// refused sends a request that must be answered code with an error
// containing msg.
func (d *daemon) refused(t *testing.T, code int, msg, method, path, body string) {
	t.Helper()
	got, raw, err := d.do(method, path, body)
	if err != nil {
		t.Fatal(err)
	}
	var e wire.ErrorReply
	_ = json.Unmarshal(raw, &e)
	if got != code || !strings.Contains(e.Error, msg) {
		t.Errorf("%s %s %s: %d %s, want %d with %q", method, path, body, got, raw, code, msg)
	}
}

// eventuallyHolds waits until the file at path contains each of want and
// none of not.
func eventuallyHolds(t *testing.T, path string, want []string, not ...string) {
	t.Helper()
	testkit.Eventually(t, path+" holds "+strings.Join(want, ", "), func() bool {
		raw, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		for _, w := range want {
			if !strings.Contains(string(raw), w) {
				return false
			}
		}
		for _, n := range not {
			if strings.Contains(string(raw), n) {
				return false
			}
		}
		return true
	})
}
