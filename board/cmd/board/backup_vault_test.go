package main

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// defaultVaultBoard starts the board on c's data with the default vault
// folder, and waits for the vault's first scan to end.
func defaultVaultBoard(t *testing.T, c *backupCLI) *daemon {
	t.Helper()
	d := start(t, c.data, 0, "SVC_VAULT_DIR=")
	testkit.Eventually(t, "the vault's first scan ends", func() bool {
		code, _, err := d.do("GET", "/api/vault", "")
		return err == nil && code == http.StatusOK
	})
	return d
}

// linkedBothWays checks, on the running board and in the page's file, that
// the case links the page and the page links the case back.
func linkedBothWays(t *testing.T, d *daemon, vault, caseID, pageID, path string) {
	t.Helper()
	if c := d.caseOf(t, caseID); !slices.Equal(c.VaultLinks, []string{pageID}) {
		t.Errorf("case %s vaultLinks %v, want [%s]", caseID, c.VaultLinks, pageID)
	}
	p := d.pageOf(t, pageID)
	if !slices.Equal(p.Cases, []string{caseID}) || !slices.Equal(p.Backlinks.Cases, []string{caseID}) {
		t.Errorf("page %s cases %v, backlinks %v, want [%s]", pageID, p.Cases, p.Backlinks.Cases, caseID)
	}
	file := vaultpage.Parse(path, []byte(readText(t, filepath.Join(vault, filepath.FromSlash(path)))))
	if file.Fields.ID != pageID || !slices.Equal(file.Fields.Cases, []string{caseID}) {
		t.Errorf("the page's file: id %q cases %v", file.Fields.ID, file.Fields.Cases)
	}
}

func TestBackupRoundTripKeepsPagesLinkedBothWays(t *testing.T) {
	c := newBackupCLI(t)
	key := []string{"SVC_BACKUP_KEY=" + cliPass}
	vault := filepath.Join(filepath.Dir(c.data), "vault")
	d := defaultVaultBoard(t, c)
	caseID := d.postCase(t, map[string]any{"title": "Contract with Ann"}).ID
	ann := d.pageWrite(t, http.StatusCreated, "POST", "/api/vault/pages", wire.PageCreate{Title: "Ann Lee", Type: wire.PagePerson, Emails: []string{"ann@x.example"}}).Page
	d.must(t, http.StatusOK, "PATCH", "/api/cases/"+caseID, jsonBody(t, map[string]any{"vaultLinks": []string{ann.ID}}))
	linkedBothWays(t, d, vault, caseID, ann.ID, ann.Path)
	d.stop(t)

	c.expect(0, "WRITE THE PASSPHRASE DOWN", "", key, "init", c.bare)
	c.expect(0, "vault "+vault+": 1 files", "", key, "run")

	// The link is undone on both sides, then the vault folder is lost.
	d = defaultVaultBoard(t, c)
	d.must(t, http.StatusOK, "PATCH", "/api/cases/"+caseID, jsonBody(t, map[string]any{"vaultLinks": []string{}}))
	if p := d.pageOf(t, ann.ID); len(p.Cases) != 0 {
		t.Fatalf("unlinked page still lists %v", p.Cases)
	}
	d.stop(t)
	if err := os.RemoveAll(vault); err != nil {
		t.Fatal(err)
	}

	c.expect(0, "vault -> "+vault, "", key, "restore", "--apply")
	d = defaultVaultBoard(t, c)
	linkedBothWays(t, d, vault, caseID, ann.ID, ann.Path)
}
