package backup

import (
	"context"
	"errors"
	"io"
	"path/filepath"

	"github.com/opsboard/opsboard/shared/wire"
)

// VerifyResult is one snapshot checked by Verify.
type VerifyResult struct {
	File         string
	Created      string
	StoreVersion int64
	Gate         string // the gate it failed; "" when it passed every one
	Problem      string
}

// VerifyReport is every snapshot of the repository through every gate.
type VerifyReport struct {
	Repo    string
	Fetched bool
	Results []VerifyResult
	Failed  int
}

// Verify brings the local copy up to date, then runs every gate over every
// snapshot the manifest names or the snapshots directory holds, oldest
// first, writing nothing. A manifest entry whose file is missing fails.
func Verify(ctx context.Context, s Settings, log io.Writer) (*VerifyReport, error) {
	pass, rep, release, err := s.openRepo(ctx, sayTo(log))
	out := &VerifyReport{Repo: rep.Repo, Fetched: rep.Fetched, Results: []VerifyResult{}}
	if err != nil {
		return out, err
	}
	defer release()
	m, merr := readManifest(s.Clone)
	byFile := map[string]*wire.BackupSnapshot{}
	var names []string
	for i := range m.Snapshots {
		e := &m.Snapshots[i]
		if _, ok := byFile[e.File]; !ok {
			names = append(names, e.File)
		}
		byFile[e.File] = e
	}
	for _, f := range snapshotFiles(s.Clone) {
		if _, ok := byFile[f]; !ok {
			names = append(names, f)
			byFile[f] = nil
		}
	}
	if merr != nil {
		out.Results = append(out.Results, VerifyResult{File: ManifestName, Gate: GateSHA256, Problem: merr.Error()})
		out.Failed++
	}
	for _, name := range names {
		e := byFile[name]
		r := VerifyResult{File: name}
		if e != nil {
			r.Created, r.StoreVersion = e.Created, e.StoreVersion
		}
		abs := filepath.Join(s.Clone, filepath.FromSlash(name))
		if !filepath.IsLocal(filepath.FromSlash(name)) || !fileExists(abs) {
			r.Gate, r.Problem = GateMagic, "the manifest names it but the file is missing"
		} else if _, err := check(ctx, abs, name, pass, e, ""); err != nil {
			var ge *GateError
			if !errors.As(err, &ge) {
				return out, err
			}
			r.Gate, r.Problem = ge.Gate, ge.Err.Error()
		}
		if r.Gate != "" {
			out.Failed++
		}
		out.Results = append(out.Results, r)
	}
	return out, nil
}
