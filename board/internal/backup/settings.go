// Package backup is the off-site backup of a board: `board backup run`
// packs the store (at one consistent moment), the guard data, the config
// files beside the data and the vault into a tar, gzips it, seals it with
// the recovery passphrase (package seal) into snapshots/backup-<time>.enc in
// a local clone of a private git repository, records it in manifest.json,
// commits and pushes with the git binary. Restore and verify open those
// snapshots through three gates (authentication tags, the manifest's
// sha256, every JSON store parses) before anything is written.
//
// The package reads no environment: cmd/ builds Settings and passes them.
package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/backup/seal"
	"github.com/opsboard/opsboard/shared/wire"
)

// Files the job keeps in the directory of the board's data.
const (
	ConfigName = "backup.json"       // {repo, expectedRepo, liveData}
	StateName  = "backup-state.json" // the last run and the push state
	LogName    = "backup-last.log"   // the newest run's log
	LockName   = "backup.lock"
	CloneName  = "backup-repo" // the local working copy of the repository
)

// DefaultRepo is the repository used when neither SVC_BACKUP_REPO nor
// backup.json names one: none, so nothing is pushed anywhere by accident.
const DefaultRepo = ""

// Where the effective repository came from (wire.BackupRepo.Source).
const (
	FromEnv     = "SVC_BACKUP_REPO"
	FromConfig  = ConfigName
	FromDefault = "default"
)

// Config is backup.json.
type Config struct {
	Repo         string `json:"repo"`
	ExpectedRepo string `json:"expectedRepo"`
	// LiveData is the store path of the board that backs up on its own
	// (the top-up and the daily run): a board on another path never does.
	LiveData string `json:"liveData,omitempty"`
}

// Settings is everything the job needs, read once by the caller.
type Settings struct {
	StorePath string // the board document, absolute
	DataDir   string // the directory it lives in
	GuardDir  string // the guard sidecar's data (skipped when absent on disk)
	VaultDir  string // SVC_VAULT_DIR; "" when none is configured
	// DefaultVaultDir is the folder the board keeps its vault in when
	// none is configured (vault/ beside the data): backed up and restored
	// like a configured one, but its absence is no warning.
	DefaultVaultDir string
	Repo            wire.BackupRepo
	// ConfigError says why backup.json could not be read; the job refuses
	// to run and the status says so.
	ConfigError     string
	AllowNonDefault bool   // SVC_BACKUP_ALLOW_NONDEFAULT=1: disposable tests only
	Sandbox         bool   // SVC_SANDBOX=1
	LiveData        string // from backup.json
	Clone           string // the local working copy
	Key             KeySource
	Now             func() time.Time
	Rand            io.Reader   // salt and nonces; nil is crypto/rand
	Git             string      // the git binary
	KDF             seal.Params // zero means seal.Defaults
}

// SettingsFrom builds the settings of the board whose document is at
// storePath from its backup.json and the environment getenv reads:
// SVC_BACKUP_REPO, SVC_BACKUP_ALLOW_NONDEFAULT, SVC_BACKUP_KEY,
// SVC_VAULT_DIR, SVC_GUARD_DATA and SVC_SANDBOX. It reads one small file,
// so a caller may build settings per request to see edits of backup.json.
func SettingsFrom(getenv func(string) string, storePath string) (Settings, error) {
	abs, err := filepath.Abs(storePath)
	if err != nil {
		return Settings{}, fmt.Errorf("store path %s: %w", storePath, err)
	}
	dir := filepath.Dir(abs)
	s := Settings{
		StorePath:       abs,
		DataDir:         dir,
		GuardDir:        filepath.Join(dir, "guard"),
		AllowNonDefault: getenv("SVC_BACKUP_ALLOW_NONDEFAULT") == "1",
		Sandbox:         getenv("SVC_SANDBOX") == "1",
		Clone:           filepath.Join(dir, CloneName),
		Now:             time.Now,
		Git:             "git",
	}
	if v, configured := VaultDir(getenv, abs); configured {
		s.VaultDir = v
	} else {
		s.DefaultVaultDir = v
	}
	if g := strings.TrimSpace(getenv("SVC_GUARD_DATA")); g != "" {
		s.GuardDir = g
	}
	if k := getenv("SVC_BACKUP_KEY"); k != "" {
		s.Key = EnvKey(k)
	} else {
		s.Key = KeyringKey()
	}
	cfg, err := ReadConfig(dir)
	if err != nil {
		s.ConfigError = err.Error()
	}
	s.LiveData = cfg.LiveData
	s.Repo = EffectiveRepo(strings.TrimSpace(getenv("SVC_BACKUP_REPO")), cfg)
	s.Repo.Clone = s.Clone
	return s, nil
}

// vault is the folder the job backs up and restores into: SVC_VAULT_DIR,
// else the default folder; configured says which ("" when neither is
// known).
func (s Settings) vault() (dir string, configured bool) {
	if s.VaultDir != "" {
		return s.VaultDir, true
	}
	return s.DefaultVaultDir, false
}

// EffectiveRepo applies the rule SVC_BACKUP_REPO over backup.json over the
// default, and compares the result with the expected repository.
func EffectiveRepo(env string, cfg Config) wire.BackupRepo {
	r := wire.BackupRepo{Effective: DefaultRepo, Source: FromDefault, Expected: strings.TrimSpace(cfg.ExpectedRepo)}
	switch {
	case env != "":
		r.Effective, r.Source = env, FromEnv
	case strings.TrimSpace(cfg.Repo) != "":
		r.Effective, r.Source = strings.TrimSpace(cfg.Repo), FromConfig
	}
	r.Match = r.Effective != "" && r.Effective == r.Expected
	return r
}

// ReadConfig reads backup.json in dir; a missing file is the zero Config.
func ReadConfig(dir string) (Config, error) {
	var cfg Config
	data, err := os.ReadFile(filepath.Join(dir, ConfigName))
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("read %s: %w", ConfigName, err)
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return Config{}, fmt.Errorf("%s does not parse: %w", ConfigName, err)
	}
	return cfg, nil
}

// CheckRepo refuses a repository Init would not record.
func CheckRepo(repo string) error {
	if repo = strings.TrimSpace(repo); repo == "" || strings.HasPrefix(repo, "-") {
		return fmt.Errorf("name the backup repository, e.g. git@github.com:you/board-backup.git (got %q)", repo)
	}
	return nil
}

// Init points the board at repo: backup.json gets repo as both the
// repository and the expected one, and this board's store path as the live
// one. The passphrase is stored apart (StoreKey), never in this file.
func Init(s Settings, repo string) error {
	repo = strings.TrimSpace(repo)
	if err := CheckRepo(repo); err != nil {
		return err
	}
	if err := os.MkdirAll(s.DataDir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", s.DataDir, err)
	}
	data, err := json.MarshalIndent(Config{Repo: repo, ExpectedRepo: repo, LiveData: s.StorePath}, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(s.DataDir, ConfigName), append(data, '\n'))
}

// Live is the live-board identity check the automatic runs (daily, top-up)
// pass before they back up: a repository and a key are configured, the
// repository check passes, this is no sandbox, and this board's store is
// the one `board backup init` recorded. why says what failed.
func (s Settings) Live() (ok bool, why string) {
	switch {
	case s.Sandbox:
		return false, "a sandbox (SVC_SANDBOX=1) never backs up"
	case s.ConfigError != "":
		return false, s.ConfigError
	case s.Repo.Effective == "":
		return false, "no backup repository is configured"
	case !s.Repo.Match && !s.AllowNonDefault:
		return false, repoRefusal(s.Repo)
	case s.LiveData == "":
		return false, "no live board is recorded in " + ConfigName + " (board backup init records it)"
	case filepath.Clean(s.LiveData) != s.StorePath:
		return false, fmt.Sprintf("this board's data %s is not the live board's %s", s.StorePath, s.LiveData)
	}
	if ok, detail := s.key().Present(); !ok {
		return false, detail
	}
	return true, ""
}

// repoRefusal says why the repository check refused: the repository in
// use is not the one backups are meant to go to.
func repoRefusal(r wire.BackupRepo) string {
	return fmt.Sprintf("repository check: the effective repository %q (from %s) is not the expected %q", r.Effective, r.Source, r.Expected)
}

func (s Settings) now() time.Time {
	if s.Now == nil {
		return time.Now().UTC()
	}
	return s.Now().UTC()
}

func (s Settings) git() string {
	if s.Git == "" {
		return "git"
	}
	return s.Git
}

func (s Settings) key() KeySource {
	if s.Key == nil {
		return KeyringKey()
	}
	return s.Key
}

// writeFileAtomic replaces path with data whole: a temporary file, synced,
// then renamed over it.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
