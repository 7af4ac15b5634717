package backup

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// page is a person page as the board writes it, linked back to caseIDs.
func page(id, title, email string, caseIDs ...string) string {
	var b strings.Builder
	b.WriteString("---\nid: " + id + "\ntype: person\ntitle: " + title + "\nemails:\n  - " + email + "\n")
	if len(caseIDs) > 0 {
		b.WriteString("cases:\n")
		for _, c := range caseIDs {
			b.WriteString("  - " + c + "\n")
		}
	}
	b.WriteString("favourite: tea # kept as written\n---\nMet at the fair.\n")
	return b.String()
}

// linkPages sets a case's vaultLinks in the store, as the board does when
// a case links pages.
func linkPages(t *testing.T, path, caseID string, ids ...string) {
	t.Helper()
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
		c, ok := tx.Cases().Get(caseID)
		if !ok {
			t.Fatalf("no case %s", caseID)
		}
		next := *c
		next.VaultLinks = ids
		tx.Cases().Put(&next)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// caseIDs lists the store's case ids.
func caseIDs(t *testing.T, storePath string) []string {
	t.Helper()
	d, err := storefile.Load(storePath)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range d.Cases.All() {
		out = append(out, c.ID)
	}
	return out
}

// links reads both sides of the case <-> page links: each case's
// vaultLinks from the store, and each page file's text.
func links(t *testing.T, storePath, vault string) (map[string][]string, map[string]string) {
	t.Helper()
	d, err := storefile.Load(storePath)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{}
	for _, c := range d.Cases.All() {
		if len(c.VaultLinks) > 0 {
			cases[c.ID] = c.VaultLinks
		}
	}
	return cases, tree(t, vault)
}

func TestDefaultVaultIsBackedUpAndRestoredWithItsLinks(t *testing.T) {
	f := newFixture(t, nil) // no SVC_VAULT_DIR: the vault is the default folder
	vault := filepath.Join(f.data, VaultName)
	if f.s.VaultDir != "" || f.s.DefaultVaultDir != vault {
		t.Fatalf("settings: configured %q, default %q, want the default %s", f.s.VaultDir, f.s.DefaultVaultDir, vault)
	}
	d, _ := storefile.Load(f.s.StorePath)
	first, second := d.Cases.At(0).ID, d.Cases.At(1).ID
	writeFile(t, filepath.Join(vault, "people", "Ann Lee.md"), page("V-1", "Ann Lee", "ann@x.example", first, second))
	writeFile(t, filepath.Join(vault, "people", "Bo Park.md"), page("V-2", "Bo Park", "bo@x.example", first))
	writeFile(t, filepath.Join(vault, "Inbox notes.md"), "no frontmatter at all\n")
	linkPages(t, f.s.StorePath, first, "V-1", "V-2")
	linkPages(t, f.s.StorePath, second, "V-1")
	wantCases, wantPages := links(t, f.s.StorePath, vault)
	if diff := cmp.Diff(map[string][]string{first: {"V-1", "V-2"}, second: {"V-1"}}, wantCases); diff != "" {
		t.Fatalf("links before the backup (-want +got)\n%s", diff)
	}

	r, out := f.run()
	if r.Exit != ExitPushed || len(r.Warnings) != 0 || !strings.Contains(out, "vault "+vault+": 3 files") || strings.Contains(out, "VAULT MISSING") {
		t.Fatalf("backup of the default vault: %s %v\n%s", fmtRun(r), r.Warnings, out)
	}

	// The links change on both sides after the backup, and a page is lost.
	linkPages(t, f.s.StorePath, first)
	writeFile(t, filepath.Join(vault, "people", "Ann Lee.md"), page("V-1", "Ann Lee", "ann@x.example"))
	os.Remove(filepath.Join(vault, "people", "Bo Park.md"))

	rep, out, err := f.restore("", true)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !slices.Contains(rep.Installed, "vault -> "+vault) {
		t.Errorf("the vault went elsewhere than the default folder: %v %v", rep.Installed, rep.Notes)
	}
	gotCases, gotPages := links(t, f.s.StorePath, vault)
	if diff := cmp.Diff(wantCases, gotCases); diff != "" {
		t.Errorf("cases' vaultLinks after the restore (-backed up +restored)\n%s", diff)
	}
	if diff := cmp.Diff(wantPages, gotPages); diff != "" {
		t.Errorf("pages after the restore (-backed up +restored)\n%s", diff)
	}
	// Each page's `cases` names exactly the cases whose vaultLinks name it.
	checkBothWays(t, gotCases, gotPages, map[string][]string{"V-1": {first, second}, "V-2": {first}})
	if got, _ := os.ReadFile(filepath.Join(rep.Aside, VaultName, "people", "Ann Lee.md")); strings.Contains(string(got), "cases:") {
		t.Errorf("the replaced page is not the one set aside: %q", got)
	}
}

// checkBothWays checks that each page's `cases` is want's, and that the
// cases' vaultLinks say the same from the other side.
func checkBothWays(t *testing.T, cases map[string][]string, files map[string]string, want map[string][]string) {
	t.Helper()
	fromPages := map[string][]string{}
	for path, text := range files {
		p := vaultpage.Parse(path, []byte(text))
		if p.Broken != "" {
			t.Errorf("page %s does not parse: %s", path, p.Broken)
		}
		if p.Fields.ID != "" && len(p.Fields.Cases) > 0 {
			fromPages[p.Fields.ID] = p.Fields.Cases
		}
	}
	if diff := cmp.Diff(want, fromPages); diff != "" {
		t.Errorf("pages' cases (-want +got)\n%s", diff)
	}
	fromCases := map[string][]string{}
	for c, ids := range cases {
		for _, id := range ids {
			fromCases[id] = append(fromCases[id], c)
		}
	}
	for _, ids := range fromCases {
		slices.Sort(ids)
	}
	if diff := cmp.Diff(want, fromCases); diff != "" {
		t.Errorf("cases' vaultLinks, page by page (-want +got)\n%s", diff)
	}
}

func TestNoDefaultVaultIsNoWarning(t *testing.T) {
	f := newFixture(t, nil)
	r, out := f.run()
	if r.Exit != ExitPushed || len(r.Warnings) != 0 || strings.Contains(out, "VAULT MISSING") {
		t.Fatalf("a board that never had a vault: %s %v\n%s", fmtRun(r), r.Warnings, out)
	}
	if !strings.Contains(out, "none at "+filepath.Join(f.data, VaultName)) {
		t.Errorf("the output should name the default folder it looked in:\n%s", out)
	}
}
