package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/opsboard/opsboard/board/internal/backup/seal"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// The gates a snapshot passes before it is restored, in order.
const (
	GateMagic  = "magic"  // the file is a sealed backup
	GateTag    = "tag"    // every GCM authentication tag (and the header MAC) matches
	GateSHA256 = "sha256" // the file's sha256 is the manifest's
	GateParse  = "parse"  // every JSON store in it parses
)

var gateWords = map[string]string{
	GateMagic:  "magic (1st)",
	GateTag:    "authentication tag (2nd)",
	GateSHA256: "sha256 against the manifest (3rd)",
	GateParse:  "every JSON store parses (4th)",
}

// GateError is a snapshot refused at a gate: it is never applied.
type GateError struct {
	File string
	Gate string
	Err  error
}

func (e *GateError) Error() string {
	return fmt.Sprintf("%s refused at the %s gate: %v", e.File, gateWords[e.Gate], e.Err)
}

func (e *GateError) Unwrap() error { return e.Err }

// RestoreReport is what a restore found and, with --apply, did.
type RestoreReport struct {
	Repo         string // the repository restored from
	Fetched      bool   // the local copy was brought up to date from it
	File         string // the snapshot, relative to the repository
	Created      string
	StoreVersion int64
	Counts       map[string]int   // store records per collection
	Files        map[string]int   // files per area: board, config, guard, vault
	Bytes        map[string]int64 // their bytes per area
	// Plan compares the snapshot's store with the board's current state,
	// and says the version and id counters it continues from.
	Plan      *store.RestorePlan
	Applied   bool
	Aside     string   // where --apply moved what it replaced
	Installed []string // what --apply put where
	Notes     []string // what it left alone, and why
}

// checked is a snapshot that was read through the gates.
type checked struct {
	info  info
	doc   *wire.Doc
	files map[string]int
	bytes map[string]int64
	links map[string]bool // symbolic links met so far: nothing is written through one
}

// RestorePlan is a snapshot that passed every gate and what restoring it
// would change: the dry run's answer, which Apply carries out.
type RestorePlan struct {
	Report *RestoreReport // what the dry run found
	s      Settings
	abs    string               // the snapshot's path
	entry  *wire.BackupSnapshot // its manifest entry; nil when it has none
}

// Plan checks the snapshot file (relative to the repository, or a path;
// "" means the newest in the manifest) through every gate, and says what
// restoring it would do. It writes nothing to the board's data; it does
// clone or fetch the repository into the local copy first.
func Plan(ctx context.Context, s Settings, file string, log io.Writer) (*RestorePlan, error) {
	say := sayTo(log)
	pass, rep, release, err := s.openRepo(ctx, say)
	if err != nil {
		return nil, err
	}
	defer release()
	m, err := readManifest(s.Clone)
	if err != nil {
		say("%v", err)
	}
	p := &RestorePlan{Report: rep, s: s}
	if rep.File, p.abs, err = pickSnapshot(s.Clone, m, file); err != nil {
		return nil, err
	}
	for i := range m.Snapshots {
		if m.Snapshots[i].File == rep.File {
			p.entry = &m.Snapshots[i]
		}
	}
	c, err := p.read(ctx, rep, pass, "")
	if err != nil {
		return nil, err
	}
	if dir, _ := s.vault(); c.info.VaultDir != "" && dir == "" {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the snapshot holds a vault (from %s) but no SVC_VAULT_DIR is set here: --apply puts it in %s", c.info.VaultDir, filepath.Join(s.DataDir, "restored-vault")))
	}
	return p, nil
}

// Apply restores the planned snapshot. Under the job's lock, and refused
// while a board or a guard sidecar runs on the data, it reads the snapshot
// through every gate again (the file is read once more to extract it, and
// is checked as it is now, not as it was planned), moves the current files
// into pre-restore-<time>/ beside the data, and installs the snapshot's:
// the store as `board restore` does (version and id counters above the
// high-water mark), the config files, the guard data and the vault. The
// report says what it did, as far as it got.
func (p *RestorePlan) Apply(ctx context.Context) (*RestoreReport, error) {
	s := p.s
	rep := &RestoreReport{Repo: p.Report.Repo, Fetched: p.Report.Fetched, File: p.Report.File}
	pass, err := s.key().Passphrase()
	if err != nil {
		return rep, err
	}
	release, err := lockJob(s)
	if err != nil {
		return rep, err
	}
	defer release()
	unlock, err := s.lockData()
	if err != nil {
		return rep, err
	}
	defer unlock()
	stage := filepath.Join(s.DataDir, ".restore-staging-"+s.now().Format("20060102T150405Z"))
	os.RemoveAll(stage)
	defer os.RemoveAll(stage)
	c, err := p.read(ctx, rep, pass, stage)
	if err != nil {
		return rep, err
	}
	aside := store.AsideDir(s.DataDir, s.now())
	if rep.Plan, err = store.RestoreDoc(s.StorePath, c.doc, rep.File, aside); err != nil {
		return rep, fmt.Errorf("install the store: %w", err)
	}
	rep.Applied, rep.Aside = true, aside
	rep.Installed = append(rep.Installed, "store -> "+s.StorePath)
	return rep, s.installFiles(stage, aside, c, rep)
}

// read checks the snapshot through every gate, extracting it into stage
// when set, and fills rep with what it holds and what restoring it over
// the board's store would change.
func (p *RestorePlan) read(ctx context.Context, rep *RestoreReport, pass, stage string) (*checked, error) {
	c, err := check(ctx, p.abs, rep.File, pass, p.entry, stage)
	if c != nil {
		rep.Created, rep.StoreVersion, rep.Counts = c.info.Created, c.info.StoreVersion, c.info.Counts
		rep.Files, rep.Bytes = c.files, c.bytes
		if c.doc != nil {
			rep.Counts = counts(c.doc)
		}
	}
	if err != nil {
		return nil, err
	}
	// The dry run's plan also checks the store can be installed (its
	// version and counters are numbers the board can count on from).
	if rep.Plan, err = store.RestoreDoc(p.s.StorePath, c.doc, rep.File, ""); err != nil {
		return nil, &GateError{File: rep.File, Gate: GateParse, Err: err}
	}
	return c, nil
}

// lockData takes the board's store lock and the guard sidecar's, creating
// the data directory first: nothing is replaced under a running process.
func (s Settings) lockData() (unlock func(), err error) {
	if err := os.MkdirAll(s.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", s.DataDir, err)
	}
	unlockStore, err := store.Lock(s.StorePath)
	if err != nil {
		return nil, err
	}
	unlockGuard, err := lockGuard(s.GuardDir)
	if err != nil {
		unlockStore()
		return nil, err
	}
	return func() { unlockGuard(); unlockStore() }, nil
}

// lockJob takes the job's lock: the local copy is the runs' too.
func lockJob(s Settings) (release func(), err error) {
	release, err = lock(s)
	if errors.Is(err, errLocked) {
		err = fmt.Errorf("%w: wait for the run to finish", err)
	}
	return release, err
}

// sayTo is a progress line printer on log, which may be nil.
func sayTo(log io.Writer) func(format string, args ...any) {
	return func(format string, args ...any) {
		if log != nil {
			fmt.Fprintf(log, format+"\n", args...)
		}
	}
}

// openRepo passes the repository check, gets the passphrase, takes the job's
// lock (the local copy is the runs' too: fetching and merging under a
// run's commit would make it fail) and brings the local copy of the
// repository up to date as far as the network allows. The caller calls
// release when done with the local copy.
func (s Settings) openRepo(ctx context.Context, say func(string, ...any)) (pass string, rep *RestoreReport, release func(), err error) {
	rep = &RestoreReport{Repo: s.Repo.Effective}
	switch {
	case s.ConfigError != "":
		return "", rep, nil, errors.New(s.ConfigError)
	case s.Repo.Effective == "":
		return "", rep, nil, errors.New("no backup repository is configured: run `board backup init <repo>` (or set SVC_BACKUP_REPO)")
	case !s.Repo.Match && !s.AllowNonDefault:
		return "", rep, nil, errors.New(repoRefusal(s.Repo))
	}
	if pass, err = s.key().Passphrase(); err != nil {
		return "", rep, nil, err
	}
	if ok, detail := gitPresent(s.git()); !ok {
		return "", rep, nil, fmt.Errorf("git is needed to read the repository: %s", detail)
	}
	if release, err = lockJob(s); err != nil {
		return "", rep, nil, err
	}
	if _, _, rep.Fetched, err = syncClone(ctx, s, s.Repo.Effective, false, say); err != nil {
		release()
		return "", rep, nil, err
	}
	if !rep.Fetched {
		say("the repository %s could not be reached: working from the local copy %s", s.Repo.Effective, s.Clone)
	}
	return pass, rep, release, nil
}

// pickSnapshot resolves file to its name in the repository and its path:
// "" is the manifest's newest (else the newest file); a bare name or
// snapshots/<name> is looked up in the local copy; anything else is a path.
func pickSnapshot(clone string, m wire.BackupManifest, file string) (rel, abs string, err error) {
	if file == "" {
		if list := newestFirst(m); len(list) > 0 {
			file = list[0].File
		} else if names := snapshotFiles(clone); len(names) > 0 {
			file = names[len(names)-1]
		} else {
			return "", "", fmt.Errorf("no snapshots in %s", clone)
		}
	}
	candidates := []string{filepath.Join(clone, filepath.FromSlash(file)), filepath.Join(clone, SnapshotDir, filepath.Base(file)), file}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return SnapshotDir + "/" + filepath.Base(c), c, nil
		}
	}
	return "", "", fmt.Errorf("no snapshot %s in %s", file, filepath.Join(clone, SnapshotDir))
}

// snapshotFiles lists snapshots/*.enc in the local copy, oldest first.
func snapshotFiles(clone string) []string {
	entries, _ := os.ReadDir(filepath.Join(clone, SnapshotDir))
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasPrefix(e.Name(), "backup-") && strings.HasSuffix(e.Name(), ".enc") {
			out = append(out, SnapshotDir+"/"+e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// check reads the snapshot once, end to end, through the gates: magic,
// every authentication tag, the sha256 against the manifest entry (nil:
// none), and that every JSON store parses. Failures are reported in the
// gates' order, whatever order they were met in. With stage set it also
// extracts the files there (the caller removes the stage when it fails).
func check(ctx context.Context, abs, rel, pass string, entry *wire.BackupSnapshot, stage string) (*checked, error) {
	refuse := func(gate string, err error) error { return &GateError{File: rel, Gate: gate, Err: err} }
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", abs, err)
	}
	defer f.Close()
	sum := sha256.New()
	raw := io.TeeReader(f, sum)
	sr, err := seal.NewReader(raw, pass)
	switch {
	case errors.Is(err, seal.ErrMagic):
		return nil, refuse(GateMagic, err)
	case errors.Is(err, seal.ErrWrongKey):
		return nil, refuse(GateTag, fmt.Errorf("%w (a snapshot sealed before a rotate-key needs the passphrase of its time: set SVC_BACKUP_KEY to it)", err))
	case err != nil:
		return nil, refuse(GateTag, err)
	}
	c := &checked{files: map[string]int{}, bytes: map[string]int64{}}
	var parseErrs []string
	readErr := walkTar(ctx, sr, func(h *tar.Header, r io.Reader) error {
		problem, err := c.entry(h, r, stage)
		if problem != "" {
			parseErrs = append(parseErrs, problem)
		}
		return err
	})
	// Read to the end whatever happened inside: the tags of every chunk and
	// the hash of every byte are checked before any verdict.
	_, drainErr := io.Copy(io.Discard, sr)
	if _, err := io.Copy(io.Discard, raw); err != nil && drainErr == nil {
		drainErr = err
	}
	for _, err := range []error{readErr, drainErr} {
		if errors.Is(err, seal.ErrAuth) {
			return c, refuse(GateTag, err)
		}
	}
	if drainErr != nil {
		return c, fmt.Errorf("read %s: %w", abs, drainErr)
	}
	got := hex.EncodeToString(sum.Sum(nil))
	switch {
	case entry == nil:
		return c, refuse(GateSHA256, fmt.Errorf("%s has no entry in %s", rel, ManifestName))
	case !strings.EqualFold(entry.SHA256, got):
		return c, refuse(GateSHA256, fmt.Errorf("the file's sha256 is %s, the manifest says %s", got, entry.SHA256))
	}
	if readErr != nil {
		if errors.Is(readErr, context.Canceled) || errors.Is(readErr, context.DeadlineExceeded) {
			return c, readErr
		}
		var pe *fs.PathError
		if errors.As(readErr, &pe) {
			return c, fmt.Errorf("extract: %w", readErr)
		}
		parseErrs = append(parseErrs, "the archive inside does not read: "+readErr.Error())
	}
	if c.doc == nil && readErr == nil {
		parseErrs = append(parseErrs, "the snapshot holds no store ("+boardEntry+")")
	}
	if len(parseErrs) > 0 {
		return c, refuse(GateParse, errors.New(strings.Join(parseErrs, "; ")))
	}
	return c, nil
}

// walkTar calls visit for every entry of the gzipped tar in r.
func walkTar(ctx context.Context, r io.Reader, visit func(*tar.Header, io.Reader) error) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if err := visit(h, tr); err != nil {
			return err
		}
	}
	// The gzip trailer's checksum is read only at its end.
	_, err = io.Copy(io.Discard, gz)
	return err
}

// maxJSON bounds a JSON store read whole to be parsed (the board's own
// document is bounded by what the board could hold anyway). It is not among
// wire's limits: only a damaged or foreign snapshot can reach it.
const maxJSON = 1 << 30

// entry takes one tar entry: counts it, parses it when it is a JSON store,
// and extracts it into stage when set. problem is a parse failure; err
// stops the walk.
func (c *checked) entry(h *tar.Header, r io.Reader, stage string) (problem string, err error) {
	name := strings.TrimSuffix(h.Name, "/")
	if !filepath.IsLocal(filepath.FromSlash(name)) || path.Clean(name) != name {
		return fmt.Sprintf("unsafe entry name %q", h.Name), nil
	}
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		if c.links[dir] {
			return fmt.Sprintf("entry %q lies under the symbolic link %q", h.Name, dir), nil
		}
	}
	area, _, _ := strings.Cut(name, "/")
	switch area {
	case infoEntry, "board", configArea, guardArea, vaultArea:
	default:
		return fmt.Sprintf("unexpected entry %q", h.Name), nil
	}
	target := ""
	if stage != "" {
		target = filepath.Join(stage, filepath.FromSlash(name))
	}
	switch h.Typeflag {
	case tar.TypeDir:
		if target != "" {
			return "", os.MkdirAll(target, 0o700)
		}
		return "", nil
	case tar.TypeSymlink:
		if c.links == nil {
			c.links = map[string]bool{}
		}
		c.links[name] = true
		if target == "" {
			return "", nil
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return "", err
		}
		return "", os.Symlink(h.Linkname, target)
	case tar.TypeReg:
	default:
		return fmt.Sprintf("unexpected entry type of %q", h.Name), nil
	}
	if name != infoEntry {
		c.files[area]++
		c.bytes[area] += h.Size
	}
	isStore := name == infoEntry || name == boardEntry || (area != vaultArea && strings.HasSuffix(name, ".json"))
	if isStore {
		if h.Size > maxJSON {
			return fmt.Sprintf("%s is too large to parse (%d bytes)", name, h.Size), nil
		}
		data, err := io.ReadAll(r)
		if err != nil {
			return "", err
		}
		switch {
		case name == infoEntry:
			if err := json.Unmarshal(data, &c.info); err != nil {
				problem = fmt.Sprintf("%s does not parse: %v", name, err)
			}
		case name == boardEntry:
			if c.doc, err = storefile.Decode(data); err != nil {
				problem = fmt.Sprintf("the store %s does not parse: %v", name, err)
			}
		case !json.Valid(data):
			problem = fmt.Sprintf("%s does not parse as JSON", name)
		}
		if target != "" && name != boardEntry && name != infoEntry {
			err = writeNew(target, bytes.NewReader(data), h.Mode)
		}
		return problem, err
	}
	if target == "" {
		_, err = io.Copy(io.Discard, r)
		return "", err
	}
	return "", writeNew(target, r, h.Mode)
}

func writeNew(target string, r io.Reader, mode int64) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, fs.FileMode(mode).Perm()|0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// lockGuard takes the guard sidecar's directory lock, so the guard data is
// not replaced under a running sidecar. No lock file: no sidecar to wait for.
func lockGuard(dir string) (func(), error) {
	if !dirExists(dir) {
		return func() {}, nil
	}
	p := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil // no sidecar ever ran here
	}
	if err != nil {
		return nil, fmt.Errorf("open the guard lock %s: %w", p, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("a guard sidecar is running on %s: stop it before restoring", dir)
	}
	return func() { f.Close() }, nil
}

// installFiles moves the staged config files, guard data and vault into
// place, each after what it replaces has moved into aside.
func (s Settings) installFiles(stage, aside string, c *checked, rep *RestoreReport) error {
	entries, _ := os.ReadDir(filepath.Join(stage, configArea))
	for _, e := range entries {
		target := filepath.Join(s.DataDir, e.Name())
		if e.Name() == ConfigName && fileExists(target) {
			rep.Notes = append(rep.Notes, "kept this machine's "+ConfigName+" (its repository and live board are this machine's)")
			continue
		}
		if err := moveAside(target, filepath.Join(aside, e.Name())); err != nil {
			return err
		}
		if err := move(filepath.Join(stage, configArea, e.Name()), target); err != nil {
			return err
		}
		rep.Installed = append(rep.Installed, e.Name()+" -> "+target)
	}
	if dirExists(filepath.Join(stage, guardArea)) {
		if err := moveAside(s.GuardDir, filepath.Join(aside, guardArea)); err != nil {
			return err
		}
		// Model weights are not backed up: keep the ones this machine has.
		if old := filepath.Join(aside, guardArea, "models"); dirExists(old) {
			if err := move(old, filepath.Join(stage, guardArea, "models")); err != nil {
				return err
			}
		}
		if err := move(filepath.Join(stage, guardArea), s.GuardDir); err != nil {
			return err
		}
		rep.Installed = append(rep.Installed, "guard data -> "+s.GuardDir)
	}
	if dirExists(filepath.Join(stage, vaultArea)) {
		target, _ := s.vault()
		if target == "" {
			target = filepath.Join(s.DataDir, "restored-vault")
			for n := 2; dirExists(target); n++ {
				target = filepath.Join(s.DataDir, fmt.Sprintf("restored-vault-%d", n))
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf("no SVC_VAULT_DIR is set: the vault (from %s) is in %s; move it where it belongs and set SVC_VAULT_DIR", c.info.VaultDir, target))
		} else if err := moveAside(target, filepath.Join(aside, vaultArea)); err != nil {
			return err
		}
		if err := move(filepath.Join(stage, vaultArea), target); err != nil {
			return err
		}
		rep.Installed = append(rep.Installed, "vault -> "+target)
	}
	return nil
}

// moveAside moves p to dst when p exists.
func moveAside(p, dst string) error {
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return move(p, dst)
}

// move renames src to dst, copying across file systems.
func move(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	err := os.Rename(src, dst)
	if err == nil || !errors.Is(err, syscall.EXDEV) {
		if err != nil {
			return fmt.Errorf("move %s to %s: %w", src, dst, err)
		}
		return nil
	}
	if err := copyTree(src, dst); err != nil {
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	return os.RemoveAll(src)
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			in, err := os.Open(p)
			if err != nil {
				return err
			}
			defer in.Close()
			fi, err := in.Stat()
			if err != nil {
				return err
			}
			return writeNew(target, in, int64(fi.Mode().Perm()))
		}
		return nil
	})
}
