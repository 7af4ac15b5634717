package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/opsboard/opsboard/board/internal/backup/seal"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Exit codes of `board backup run` (BackupRun.Exit).
const (
	ExitPushed    = 0 // written and pushed
	ExitRefused   = 1 // the repository check: the effective repo is not the expected one
	ExitLocalOnly = 2 // committed locally; the push failed
	ExitLocked    = 3 // another run holds the lock; nothing done
	ExitFailed    = 4 // a hard failure, with its reason
)

// Source gives the store at one consistent moment.
type Source func(ctx context.Context) (*wire.Doc, error)

// FileSource reads the board's document with its journal replayed, as the
// search sidecar does: for `board backup run` beside (or without) a
// running board. No document and no journal is an error: a mistyped data
// path must not push an empty snapshot that a restore would take for the
// newest.
func FileSource(storePath string) Source {
	return func(context.Context) (*wire.Doc, error) {
		if !fileExists(storePath) && !fileExists(storefile.JournalPath(storePath)) {
			return nil, fmt.Errorf("no board at %s: nothing to back up (is SVC_BOARD_DATA or --data right?)", storePath)
		}
		d, err := storefile.Load(storePath)
		if err != nil {
			return nil, fmt.Errorf("read the store: %w", err)
		}
		return d, nil
	}
}

// Run is one backup run. Its result's Exit is the process exit code. Every
// outcome but a lock skip (which leaves everything to the run holding the
// lock) is recorded for Status: the run's facts in backup-state.json, its
// log in backup-last.log. log receives the log's lines as they happen.
func Run(ctx context.Context, s Settings, src Source, log io.Writer) wire.BackupRun {
	started := s.now()
	run := wire.BackupRun{StartedAt: started.Format(time.RFC3339)}
	l := &runLog{out: log, now: s.now}
	finish := func(exit int, outcome string, err error) wire.BackupRun {
		run.Exit, run.Outcome = exit, outcome
		run.FinishedAt = s.now().Format(time.RFC3339)
		if err != nil {
			run.Error = err.Error()
			l.say("%s: %s", outcome, run.Error)
		} else {
			l.say("%s", outcome)
		}
		return run
	}

	switch {
	case s.ConfigError != "":
		return s.record(l, finish(ExitFailed, wire.BackupFailed, errors.New(s.ConfigError)), nil)
	case s.Repo.Effective == "":
		return s.record(l, finish(ExitFailed, wire.BackupFailed, errors.New("no backup repository is configured: run `board backup init <repo>` (or set SVC_BACKUP_REPO)")), nil)
	case !s.Repo.Match && !s.AllowNonDefault:
		return s.record(l, finish(ExitRefused, wire.BackupRefused, errors.New(repoRefusal(s.Repo))), nil)
	}
	release, err := lock(s)
	if errors.Is(err, errLocked) {
		run.Exit, run.Outcome, run.Error = ExitLocked, wire.BackupLocked, err.Error()
		run.FinishedAt = s.now().Format(time.RFC3339)
		l.say("%s: %s; nothing done", run.Outcome, run.Error)
		return run
	}
	if err != nil {
		return s.record(l, finish(ExitFailed, wire.BackupFailed, err), nil)
	}
	defer release()
	if !s.Repo.Match {
		l.say("SVC_BACKUP_ALLOW_NONDEFAULT=1: backing up to %s, not the expected %q", s.Repo.Effective, s.Repo.Expected)
	}
	var push *wire.BackupPush
	exit, outcome, err := s.run(ctx, src, l, &run, &push)
	return s.record(l, finish(exit, outcome, err), push)
}

// record keeps the run for Status. A failure to record is added to the
// run's error but never changes its exit.
func (s Settings) record(l *runLog, run wire.BackupRun, push *wire.BackupPush) wire.BackupRun {
	st := readState(s.DataDir)
	st.LastRun = &run
	if push != nil {
		st.Push = *push
	}
	if err := os.MkdirAll(s.DataDir, 0o700); err == nil {
		err = writeState(s.DataDir, st)
		if err == nil {
			err = l.save(s.DataDir)
		}
		if err != nil {
			l.say("could not record the run: %v", err)
		}
	}
	return run
}

func (s Settings) run(ctx context.Context, src Source, l *runLog, run *wire.BackupRun, push **wire.BackupPush) (int, string, error) {
	fail := func(err error) (int, string, error) { return ExitFailed, wire.BackupFailed, err }
	pass, err := s.key().Passphrase()
	if err != nil {
		return fail(err)
	}
	if ok, detail := gitPresent(s.git()); !ok {
		return fail(fmt.Errorf("git is needed to push backups: %s", detail))
	}
	doc, err := src(ctx)
	if err != nil {
		return fail(err)
	}
	run.StoreVersion, run.Counts = doc.Version, counts(doc)

	before, _ := readManifest(s.Clone)
	g, branch, _, err := syncClone(ctx, s, s.Repo.Effective, true, l.say)
	if err != nil {
		return fail(err)
	}
	after, err := readManifest(s.Clone)
	if err != nil {
		l.say("the repository's %v; keeping the entries the local copy had", err)
	}
	manifest := mergeManifests(before, after)

	created := s.now()
	entry, warnings, err := s.writeSnapshot(ctx, doc, pass, created, l)
	run.Warnings = warnings
	if err != nil {
		return fail(err)
	}
	rel := entry.File
	run.File, run.Size = rel, entry.Size
	manifest.Snapshots = append(manifest.Snapshots, entry)
	if err := writeManifest(s.Clone, manifest); err != nil {
		return fail(err)
	}
	pushErr, err := g.commitAndPush(ctx, branch, fmt.Sprintf("backup %s: store version %d", created.Format(time.RFC3339), doc.Version), rel, ManifestName)
	if err != nil {
		return fail(fmt.Errorf("commit %s: %w", rel, err))
	}
	at := s.now().Format(time.RFC3339)
	if pushErr != nil {
		*push = &wire.BackupPush{State: "failed", At: at, Error: pushErr.Error()}
		l.say("push to %s failed: %v; %s is committed in %s and goes with the next push", s.Repo.Effective, pushErr, rel, s.Clone)
		return ExitLocalOnly, wire.BackupLocalOnly, pushErr
	}
	*push = &wire.BackupPush{State: "pushed", At: at}
	l.say("pushed %s (%d bytes) to %s", rel, run.Size, s.Repo.Effective)
	return ExitPushed, wire.BackupPushed, nil
}

// writeSnapshot writes the sealed archive to a new file in the clone's
// snapshots directory, never over an existing one: it is written under a
// temporary name and then linked to its final name, which fails rather
// than replaces. It returns the file's manifest entry.
func (s Settings) writeSnapshot(ctx context.Context, doc *wire.Doc, pass string, created time.Time, l *runLog) (wire.BackupSnapshot, []string, error) {
	var none wire.BackupSnapshot
	dir := filepath.Join(s.Clone, SnapshotDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return none, nil, fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".backup-*.tmp")
	if err != nil {
		return none, nil, fmt.Errorf("create a snapshot file: %w", err)
	}
	defer os.Remove(tmp.Name())
	sum := sha256.New()
	out := &hashWriter{w: tmp, h: sum}
	sw, err := seal.NewWriter(out, pass, s.KDF, s.Rand)
	if err != nil {
		tmp.Close()
		return none, nil, err
	}
	st, err := writeArchive(ctx, sw, s, doc, created, l.say)
	if err == nil {
		err = sw.Close()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return none, st.Warnings, fmt.Errorf("write the snapshot: %w", err)
	}
	stamp := created.Format("20060102T150405Z")
	for n := 1; ; n++ {
		name := "backup-" + stamp + ".enc"
		if n > 1 {
			name = fmt.Sprintf("backup-%s-%d.enc", stamp, n)
		}
		err := os.Link(tmp.Name(), filepath.Join(dir, name))
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return none, st.Warnings, fmt.Errorf("name the snapshot: %w", err)
		}
		l.say("wrote %s/%s: %d bytes, sealed", SnapshotDir, name, out.n)
		return wire.BackupSnapshot{File: SnapshotDir + "/" + name, SHA256: hex.EncodeToString(sum.Sum(nil)), Size: out.n,
			StoreVersion: doc.Version, Counts: counts(doc), Created: created.Format(time.RFC3339)}, st.Warnings, nil
	}
}

type hashWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (hw *hashWriter) Write(p []byte) (int, error) {
	n, err := hw.w.Write(p)
	hw.h.Write(p[:n])
	hw.n += int64(n)
	return n, err
}
