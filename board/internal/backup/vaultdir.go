package backup

import (
	"path/filepath"
	"strings"
)

// VaultName is the default vault folder's name, beside the board's data
// file.
const VaultName = "vault"

// VaultDir is the vault folder of the board whose document is at dataPath:
// SVC_VAULT_DIR when set (configured is then true), else vault/ beside the
// document. The daemon, `board backup` and `board backup restore` all find
// the folder here, so the default folder is backed up and restored too.
func VaultDir(getenv func(string) string, dataPath string) (dir string, configured bool) {
	if v := strings.TrimSpace(getenv("SVC_VAULT_DIR")); v != "" {
		return absolute(v), true
	}
	return filepath.Join(filepath.Dir(absolute(dataPath)), VaultName), false
}

// absolute makes p absolute against the working directory, keeping it as
// given when that cannot be found.
func absolute(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
