package backup

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/backup/seal"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

const testPass = "tangerine kettle 47 orbit"

// fixture is a board's data directory with a store, guard data and config
// files, and a bare git repository standing in for the remote.
type fixture struct {
	t    *testing.T
	dir  string // the test's temporary directory
	data string // the board's data directory
	bare string
	s    Settings
	now  time.Time
}

func newFixture(t *testing.T, env map[string]string) *fixture {
	t.Helper()
	f := &fixture{t: t, dir: t.TempDir(), now: time.Date(2026, 11, 26, 3, 30, 0, 0, time.UTC)}
	f.data = filepath.Join(f.dir, "data")
	f.bare = filepath.Join(f.dir, "remote.git")
	gitIn(t, "", "init", "--bare", "--quiet", "-b", "main", f.bare)
	storePath := filepath.Join(f.data, "board.json")
	addCases(t, storePath, "first case", "second case")
	writeFile(t, filepath.Join(f.data, "ingest.json"), `{"sources":[{"name":"work","kind":"maildir","path":"/mail"}]}`)
	writeFile(t, filepath.Join(f.data, "ingest-state.json"), `{"work":{"watermark":"2026-11-25T00:00:00Z"}}`)
	writeFile(t, filepath.Join(f.data, "guard", "trust.json"), `{"senders":{"a@example.com":"trusted"}}`)
	writeFile(t, filepath.Join(f.data, "guard", "quarantine.json"), `{"records":[]}`)
	writeFile(t, filepath.Join(f.data, "guard", "models", "weights.bin"), strings.Repeat("w", 4096))
	s, err := SettingsFrom(func(string) string { return "" }, storePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := Init(s, f.bare); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "SVC_BACKUP_KEY" {
			return testPass
		}
		return ""
	}
	if f.s, err = SettingsFrom(getenv, storePath); err != nil {
		t.Fatal(err)
	}
	f.s.Now = func() time.Time { return f.now }
	f.s.KDF = seal.Params{LogN: 10, R: 8, P: 1, Chunk: 256} // cheap, and many chunks
	return f
}

// run runs the job over the files, as `board backup run` does.
func (f *fixture) run() (wire.BackupRun, string) {
	f.t.Helper()
	var out bytes.Buffer
	r := Run(context.Background(), f.s, FileSource(f.s.StorePath), &out)
	return r, out.String()
}

func (f *fixture) mustRun() wire.BackupRun {
	f.t.Helper()
	r, out := f.run()
	if r.Exit != ExitPushed {
		f.t.Fatalf("run: exit %d %s: %s\n%s", r.Exit, r.Outcome, r.Error, out)
	}
	f.now = f.now.Add(time.Hour)
	return r
}

// remoteFiles lists the files of the remote's branch.
func (f *fixture) remoteFiles() []string {
	f.t.Helper()
	cmd := exec.Command("git", "-C", f.bare, "ls-tree", "-r", "--name-only", "main")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// addCases writes cases through a real store, then closes it.
func addCases(t *testing.T, path string, titles ...string) []string {
	t.Helper()
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ids []string
	for _, title := range titles {
		_, err := st.Update(context.Background(), wire.ActorHuman, nil, func(tx *store.Tx) error {
			id := tx.NextID("CASE")
			ids = append(ids, id)
			tx.Cases().Put(&wire.Case{ID: id, Title: title, Status: "todo", Domain: "work", Kind: "case", CreatedAt: tx.Stamp(), UpdatedAt: tx.Stamp()})
			mid := tx.NextID("M")
			tx.Messages().Put(&wire.Message{ID: mid, Subject: "about " + title, Body: strings.Repeat(title+" ", 50), CaseID: id, ReceivedAt: tx.Stamp()})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// tree is every file under dir with its content, except the paths skip
// names (relative, slash-separated prefixes).
func tree(t *testing.T, dir string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		for _, s := range skip {
			if rel == s || strings.HasPrefix(rel, s+"/") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(data)
		} else if d.IsDir() {
			out[rel+"/"] = ""
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// noPassphraseIn fails when the passphrase appears in any file under dir
// (git objects are compressed: the bare repository is checked by its
// checked-out tree instead) or in any of texts.
func noPassphraseIn(t *testing.T, dir string, texts ...string) {
	t.Helper()
	for p, data := range tree(t, dir) {
		if strings.Contains(data, testPass) {
			t.Errorf("the passphrase is in %s", p)
		}
	}
	for i, s := range texts {
		if strings.Contains(s, testPass) {
			t.Errorf("the passphrase is in output %d", i)
		}
	}
}

func fmtRun(r wire.BackupRun) string {
	return fmt.Sprintf("exit %d %s %s", r.Exit, r.Outcome, r.Error)
}
