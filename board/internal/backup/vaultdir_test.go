package backup_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/backup"
)

func TestVaultDir(t *testing.T) {
	wd, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Dir        string
		Configured bool
	}
	for _, tc := range []struct {
		name string
		env  string
		data string
		want answer
	}{
		{"default beside the document", "", "/data/board.json", answer{"/data/vault", false}},
		{"blank is not configured", "  ", "/data/board.json", answer{"/data/vault", false}},
		{"the environment names it", "/notes/Obsidian", "/data/board.json", answer{"/notes/Obsidian", true}},
		{"a relative folder is made absolute", "notes", "/data/board.json", answer{filepath.Join(wd, "notes"), true}},
		{"a relative document too", "", "board.json", answer{filepath.Join(wd, "vault"), false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == "SVC_VAULT_DIR" {
					return tc.env
				}
				return ""
			}
			dir, configured := backup.VaultDir(getenv, tc.data)
			if diff := cmp.Diff(tc.want, answer{dir, configured}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
