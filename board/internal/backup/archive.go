package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// The layout inside a snapshot's tar.
const (
	infoEntry  = "backup-info.json" // what the snapshot holds, first in the tar
	boardEntry = "board/board.json"
	guardArea  = "guard"
	configArea = "config"
	vaultArea  = "vault"
)

// configFiles are the files beside the data the job keeps: the ingest
// sources and watermarks and the backup settings. Board preferences live
// in the store.
var configFiles = []string{"ingest.json", "ingest-state.json", ConfigName}

// skipInGuard are guard data entries left out: model weights are large and
// downloaded again, the lock belongs to a running sidecar.
var skipInGuard = map[string]bool{"models": true, ".lock": true}

// info is backup-info.json.
type info struct {
	Format       int            `json:"format"`
	Created      string         `json:"created"`
	StoreVersion int64          `json:"storeVersion"`
	Counts       map[string]int `json:"counts"`
	StorePath    string         `json:"storePath"`
	GuardDir     string         `json:"guardDir,omitempty"`
	VaultDir     string         `json:"vaultDir,omitempty"`
}

// archiveStats is what writeArchive put in.
type archiveStats struct {
	Files    map[string]int // regular files per area
	Warnings []string
}

// counts are the store's collection sizes, named as restore reports them.
func counts(d *wire.Doc) map[string]int {
	return map[string]int{
		"cases": d.Cases.Len(), "messages": d.Messages.Len(), "events": d.Events.Len(),
		"reminders": d.Reminders.Len(), "priorities": d.Priorities.Len(), "labels": d.Labels.Len(),
		"pending": d.Proposals.Len(), "views": d.Views.Len(), "templates": d.Templates.Len(),
	}
}

// writeArchive writes the gzipped tar of everything in scope to w, one
// record or one file block at a time: its memory does not grow with the
// store. say reports progress and warnings in the run's log.
func writeArchive(ctx context.Context, w io.Writer, s Settings, doc *wire.Doc, created time.Time, say func(string, ...any)) (archiveStats, error) {
	st := archiveStats{Files: map[string]int{}}
	// Fastest compression: the snapshot of a 20 MB store is written well
	// within two seconds, and still shrinks to about a third.
	gz, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return st, err
	}
	async := newAsyncWriter(gz)
	defer async.Close() // on an early return: ends the goroutine
	tw := tar.NewWriter(async)
	mod := created.Truncate(time.Second)
	inf, err := writeInfo(tw, s, doc, created, mod)
	if err != nil {
		return st, err
	}
	if err := writeStore(tw, doc, mod); err != nil {
		return st, err
	}
	st.Files["board"] = 1
	say("store: version %d, %d cases, %d messages", doc.Version, doc.Cases.Len(), doc.Messages.Len())
	if err := addConfig(tw, s, &st); err != nil {
		return st, err
	}
	say("config: %d files", st.Files[configArea])
	if err := addGuardData(ctx, tw, s, inf, &st, say); err != nil {
		return st, err
	}
	if err := addVault(ctx, tw, s, inf, &st, say); err != nil {
		return st, err
	}
	if err := tw.Close(); err != nil {
		return st, fmt.Errorf("finish the tar: %w", err)
	}
	if err := async.Close(); err != nil {
		return st, fmt.Errorf("compress: %w", err)
	}
	if err := gz.Close(); err != nil {
		return st, fmt.Errorf("finish the gzip stream: %w", err)
	}
	return st, nil
}

// writeInfo writes the archive's first entry: when it was made, what the
// store held, and where the guard data and the vault came from.
func writeInfo(tw *tar.Writer, s Settings, doc *wire.Doc, created, mod time.Time) (info, error) {
	inf := info{Format: 1, Created: created.Format(time.RFC3339), StoreVersion: doc.Version, Counts: counts(doc), StorePath: s.StorePath}
	if dirExists(s.GuardDir) {
		inf.GuardDir = s.GuardDir
	}
	if dir, _ := s.vault(); dir != "" && dirExists(dir) {
		inf.VaultDir = dir
	}
	head, err := json.MarshalIndent(inf, "", "  ")
	if err != nil {
		return inf, err
	}
	return inf, writeEntry(tw, infoEntry, head, mod)
}

// writeStore writes the store document as one entry.
func writeStore(tw *tar.Writer, doc *wire.Doc, mod time.Time) error {
	// The document is encoded twice, once to learn its length for the tar
	// header: cheaper than holding a copy of a store of any size.
	var n countWriter
	if err := store.WriteDoc(&n, doc); err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: boardEntry, Mode: 0o600, Size: int64(n), ModTime: mod, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if err := store.WriteDoc(tw, doc); err != nil {
		return fmt.Errorf("write the store: %w", err)
	}
	return nil
}

// addConfig adds the config files that exist beside the store.
func addConfig(tw *tar.Writer, s Settings, st *archiveStats) error {
	for _, name := range configFiles {
		p := filepath.Join(s.DataDir, name)
		if !fileExists(p) {
			continue
		}
		if err := addFile(tw, p, configArea+"/"+name, st); err != nil {
			return err
		}
		st.Files[configArea]++
	}
	return nil
}

// addGuardData adds the guard sidecar's data directory when there is one.
func addGuardData(ctx context.Context, tw *tar.Writer, s Settings, inf info, st *archiveStats, say func(string, ...any)) error {
	if inf.GuardDir == "" {
		say("guard data: none at %s", s.GuardDir)
		return nil
	}
	if err := addTree(ctx, tw, s.GuardDir, guardArea, skipInGuard, s, st); err != nil {
		return err
	}
	say("guard data %s: %d files", s.GuardDir, st.Files[guardArea])
	return nil
}

// addVault adds the vault, configured or the default folder, and warns
// loudly when the configured one is missing. A default folder that is not
// there is a board that never started with a vault: nothing to warn about.
func addVault(ctx context.Context, tw *tar.Writer, s Settings, inf info, st *archiveStats, say func(string, ...any)) error {
	dir, configured := s.vault()
	switch {
	case inf.VaultDir != "":
		if err := addTree(ctx, tw, dir, vaultArea, nil, s, st); err != nil {
			return err
		}
		say("vault %s: %d files", dir, st.Files[vaultArea])
	case configured:
		warn := fmt.Sprintf("VAULT MISSING: SVC_VAULT_DIR names %s, which does not exist: the vault is NOT in this backup", dir)
		st.Warnings = append(st.Warnings, warn)
		say("WARNING %s", warn)
	case dir != "":
		say("no vault configured, and none at %s", dir)
	default:
		say("no vault configured")
	}
	return nil
}

func writeEntry(tw *tar.Writer, name string, data []byte, mod time.Time) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(data)), ModTime: mod, Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err := tw.Write(data)
	return err
}

// addTree adds every directory, regular file and symbolic link under root
// as area/<relative path>. skip names top-level entries to leave out; the
// backup's own clone is never included.
func addTree(ctx context.Context, tw *tar.Writer, root, area string, skip map[string]bool, s Settings, st *archiveStats) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if rel != "." && skip[filepath.ToSlash(rel)] || p == s.Clone {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		name := area
		if rel != "." {
			name = path.Join(area, filepath.ToSlash(rel))
		}
		switch {
		case d.IsDir():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			return tw.WriteHeader(&tar.Header{Name: name + "/", Mode: int64(fi.Mode().Perm()), ModTime: fi.ModTime(), Typeflag: tar.TypeDir})
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return fmt.Errorf("read link %s: %w", p, err)
			}
			return tw.WriteHeader(&tar.Header{Name: name, Linkname: target, Mode: 0o777, Typeflag: tar.TypeSymlink})
		case d.Type().IsRegular():
			if err := addFile(tw, p, name, st); err != nil {
				return err
			}
			st.Files[area]++
		}
		return nil
	})
}

// addFile streams one file. The size is taken from the open file; a file
// that shrinks while it is read (the board's own files are replaced by
// rename, so only a file edited in place can) is padded and reported.
func addFile(tw *tar.Writer, p, name string, st *archiveStats) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("open %s: %w", p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", p, err)
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: int64(fi.Mode().Perm()), Size: fi.Size(), ModTime: fi.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	n, err := io.CopyN(tw, f, fi.Size())
	if errors.Is(err, io.EOF) {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s changed while it was read: its copy is incomplete", p))
		_, err = io.CopyN(tw, zeros{}, fi.Size()-n)
	}
	if err != nil {
		return fmt.Errorf("copy %s: %w", p, err)
	}
	return nil
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func dirExists(p string) bool {
	if p == "" {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
