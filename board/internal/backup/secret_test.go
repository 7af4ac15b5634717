package backup

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The passphrase reaches no output, log, error, status or file of the job:
// not the run's output, the saved log and state, the status, a restore's or
// a verify's report, the local copy, nor the repository's files and commits.
func TestThePassphraseIsNowhere(t *testing.T) {
	f := newFixture(t, nil)
	var seen []string
	r, out := f.run()
	seen = append(seen, out, fmt.Sprintf("%+v", r))
	// A failing push too: its error is kept for the status.
	f.s.Repo.Effective = filepath.Join(t.TempDir(), "missing.git")
	f.s.AllowNonDefault = true
	r, out = f.run()
	seen = append(seen, out, fmt.Sprintf("%+v", r))
	f.s.Repo.Effective, f.s.AllowNonDefault = f.bare, false

	rep, out, err := f.restore("", false)
	seen = append(seen, out, fmt.Sprintf("%+v %v", rep, err))
	f.s.Key = EnvKey("not the passphrase")
	_, out, err = f.restore("", false)
	seen = append(seen, out, fmt.Sprintf("%v", err))
	f.s.Key = EnvKey(testPass)
	var vlog bytes.Buffer
	vrep, err := Verify(context.Background(), f.s, &vlog)
	seen = append(seen, vlog.String(), fmt.Sprintf("%+v %v", vrep, err))
	st, _ := json.Marshal(Status(f.s))
	seen = append(seen, string(st))
	for i, s := range seen {
		if strings.Contains(s, testPass) {
			t.Errorf("output %d holds the passphrase:\n%s", i, s)
		}
	}

	for _, root := range []string{f.data, f.bare} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(data, []byte(testPass)) {
				t.Errorf("%s holds the passphrase", p)
			}
			return nil
		})
	}
	for _, args := range [][]string{{"log", "--all", "--format=%an %ae %s %b"}, {"grep", "-c", "-F", testPass, "main", "--", "."}} {
		out, _ := exec.Command("git", append([]string{"-C", f.bare}, args...)...).Output()
		if bytes.Contains(out, []byte(testPass)) || (args[0] == "grep" && len(out) != 0) {
			t.Errorf("git %s in the repository: %s", args[0], out)
		}
	}
}
