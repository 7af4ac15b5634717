// Package guardstore keeps the guard's durable state: the settings, the
// sender-trust list and the quarantine records, as three JSON files in one
// data directory. Every write runs under one writer lock and is on disk
// (temp file, fsync, rename, fsync of the directory) before it returns, so
// a crash at any instant loses no acknowledged change and never leaves a
// torn file. Reads see the last committed state without waiting on a write.
package guardstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
	"github.com/opsboard/opsboard/sidecar-guard/internal/quarantine"
	"github.com/opsboard/opsboard/sidecar-guard/internal/sendertrust"
)

// File names inside the data directory. They are on disk in every existing
// data directory and inside the board's backups, so they outlive any rename
// of the code.
const (
	ConfigFile     = "config.json"
	TrustFile      = "trust.json"
	QuarantineFile = "quarantine.json"
	lockFile       = ".lock"
)

// BadRequestError is a refused change; its message names the field.
type BadRequestError struct{ Msg string }

func (e *BadRequestError) Error() string { return e.Msg }

// NotFoundError is an unknown sender or record id.
type NotFoundError struct{ Msg string }

func (e *NotFoundError) Error() string { return e.Msg }

func badRequest(format string, args ...any) error {
	return &BadRequestError{fmt.Sprintf(format, args...)}
}

// Settings are the guard's persisted switches.
type Settings struct {
	Enabled         bool
	ReleasedTTLDays int
}

// Options say where the files live and how time is read.
type Options struct {
	Dir string
	// SeedTTLDays is the released-record retention used until a person sets
	// one (from SVC_GUARD_RELEASED_TTL_DAYS).
	SeedTTLDays int
	Now         func() time.Time // time.Now when nil
}

// configFile is config.json. A nil ReleasedTTLDays means "never set": the
// seed applies, so changing the environment still takes effect.
type configFile struct {
	Enabled         bool `json:"enabled"`
	ReleasedTTLDays *int `json:"releasedTtlDays,omitempty"`
}

// state is one committed, immutable version of all three files.
type state struct {
	cfg        configFile
	trust      map[string]wire.TrustRecord
	quarantine map[string]wire.QuarantineRecord
}

// Store is the guard's state on disk and in memory.
type Store struct {
	dir  string
	seed int
	now  func() time.Time
	lock *os.File

	mu  sync.Mutex // the one writer lock
	cur atomic.Pointer[state]
}

// Open loads the directory (creating it when absent) and takes its lock: a
// second sidecar on the same directory is refused rather than raced. A file
// that does not parse stops the start, naming the file, so a hand edit gone
// wrong is never overwritten.
func Open(opt Options) (*Store, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.SeedTTLDays < 0 {
		return nil, fmt.Errorf("released-record retention %d days: must be 0 or more", opt.SeedTTLDays)
	}
	if err := os.MkdirAll(opt.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create guard data directory: %w", err)
	}
	lk, err := os.OpenFile(filepath.Join(opt.Dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	if err := syscall.Flock(int(lk.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lk.Close()
		return nil, fmt.Errorf("guard data directory %s is in use by another sidecar: %w", opt.Dir, err)
	}
	s := &Store{dir: opt.Dir, seed: opt.SeedTTLDays, now: opt.Now, lock: lk}
	st, err := s.load()
	if err != nil {
		lk.Close()
		return nil, err
	}
	s.cur.Store(st)
	removeTemps(opt.Dir)
	return s, nil
}

// Close releases the directory lock.
func (s *Store) Close() error { return s.lock.Close() }

// Dir is the data directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) load() (*state, error) {
	st := &state{trust: map[string]wire.TrustRecord{}, quarantine: map[string]wire.QuarantineRecord{}}
	if err := readJSON(filepath.Join(s.dir, ConfigFile), &st.cfg); err != nil {
		return nil, err
	}
	if d := st.cfg.ReleasedTTLDays; d != nil && *d < 0 {
		return nil, fmt.Errorf("load %s: releasedTtlDays %d: must be 0 or more", filepath.Join(s.dir, ConfigFile), *d)
	}
	var tl wire.TrustList
	if err := readJSON(filepath.Join(s.dir, TrustFile), &tl); err != nil {
		return nil, err
	}
	for _, r := range tl.Senders {
		st.trust[strings.ToLower(r.Email)] = r
	}
	var ql wire.QuarantineList
	if err := readJSON(filepath.Join(s.dir, QuarantineFile), &ql); err != nil {
		return nil, err
	}
	for _, r := range ql.Records {
		st.quarantine[r.ID] = r
	}
	return st, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("load %s: the file does not parse (fix or move it aside): %w", path, err)
	}
	return nil
}

// removeTemps deletes temp files a crash left behind; the real files were
// never touched by them.
func removeTemps(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func (s *Store) settingsOf(st *state) Settings {
	ttl := s.seed
	if st.cfg.ReleasedTTLDays != nil {
		ttl = *st.cfg.ReleasedTTLDays
	}
	return Settings{Enabled: st.cfg.Enabled, ReleasedTTLDays: ttl}
}

func (s *Store) stamp() string { return s.now().UTC().Format(time.RFC3339Nano) }

// Settings are the current switches.
func (s *Store) Settings() Settings { return s.settingsOf(s.cur.Load()) }

// PatchSettings changes the switches a patch sets and keeps the rest.
func (s *Store) PatchSettings(ctx context.Context, p wire.GuardConfigPatch) (Settings, error) {
	if p.ReleasedTTLDays != nil && *p.ReleasedTTLDays < 0 {
		return Settings{}, badRequest("field 'releasedTtlDays' must be 0 or more, not %d", *p.ReleasedTTLDays)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	next := *cur
	if p.Enabled != nil {
		next.cfg.Enabled = *p.Enabled
	}
	if p.ReleasedTTLDays != nil {
		d := *p.ReleasedTTLDays
		next.cfg.ReleasedTTLDays = &d
	}
	if err := s.commit(ctx, &next, ConfigFile); err != nil {
		return Settings{}, err
	}
	return s.settingsOf(&next), nil
}

// Trust lists the stored senders by address.
func (s *Store) Trust() []wire.TrustRecord {
	st := s.cur.Load()
	out := make([]wire.TrustRecord, 0, len(st.trust))
	for _, r := range st.trust {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b wire.TrustRecord) int { return strings.Compare(a.Email, b.Email) })
	return out
}

// Sender is the stored record of a sender, nil when it is unknown or the
// address does not parse.
func (s *Store) Sender(from string) *wire.TrustRecord {
	key, err := sendertrust.Key(from)
	if err != nil {
		return nil
	}
	if r, ok := s.cur.Load().trust[key]; ok {
		return &r
	}
	return nil
}

// UpsertTrust writes a sender's tier (see sendertrust.Upsert for ifAbsent).
func (s *Store) UpsertTrust(ctx context.Context, in wire.TrustUpsert) (wire.TrustReply, error) {
	key, err := sendertrust.Key(in.Email)
	if err != nil {
		return wire.TrustReply{}, badRequest("field 'email': %v", err)
	}
	if err := sendertrust.StorableTier(in.Tier); err != nil {
		return wire.TrustReply{}, badRequest("%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	var old *wire.TrustRecord
	if r, ok := cur.trust[key]; ok {
		old = &r
	}
	rec, changed := sendertrust.Upsert(old, key, in, s.stamp())
	if !changed {
		return wire.TrustReply{Record: rec, Changed: false}, nil
	}
	next := *cur
	next.trust = cloneMap(cur.trust)
	next.trust[key] = rec
	if err := s.commit(ctx, &next, TrustFile); err != nil {
		return wire.TrustReply{}, err
	}
	return wire.TrustReply{Record: rec, Changed: true}, nil
}

// DeleteTrust removes a sender, who becomes unknown.
func (s *Store) DeleteTrust(ctx context.Context, email string) (wire.TrustRecord, error) {
	key, err := sendertrust.Key(email)
	if err != nil {
		return wire.TrustRecord{}, badRequest("email: %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	rec, ok := cur.trust[key]
	if !ok {
		return wire.TrustRecord{}, &NotFoundError{fmt.Sprintf("sender %s is not on the trust list", key)}
	}
	next := *cur
	next.trust = cloneMap(cur.trust)
	delete(next.trust, key)
	if err := s.commit(ctx, &next, TrustFile); err != nil {
		return wire.TrustRecord{}, err
	}
	return rec, nil
}

// Quarantine lists the records, most recently changed first. Records past
// their retention are left out even before the next purge removes them.
func (s *Store) Quarantine() []wire.QuarantineRecord {
	st := s.cur.Load()
	ttl := s.settingsOf(st).ReleasedTTLDays
	now := s.now()
	out := make([]wire.QuarantineRecord, 0, len(st.quarantine))
	for _, r := range st.quarantine {
		if !quarantine.Expired(r, ttl, now) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b wire.QuarantineRecord) int {
		if c := strings.Compare(b.UpdatedAt, a.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// FileQuarantine stores a flagged mail, or bumps the count of the record
// with the same content. rec.From must already be the sender's key.
func (s *Store) FileQuarantine(ctx context.Context, rec wire.QuarantineRecord) (wire.QuarantineRecord, error) {
	rec.ID = quarantine.ID(rec.From, rec.Subject, rec.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	next := *cur
	next.quarantine = s.unexpired(cur)
	var old *wire.QuarantineRecord
	if r, ok := next.quarantine[rec.ID]; ok {
		old = &r
	}
	out := quarantine.File(old, rec, s.stamp())
	next.quarantine[out.ID] = out
	if err := s.commit(ctx, &next, QuarantineFile); err != nil {
		return wire.QuarantineRecord{}, err
	}
	return out, nil
}

// PatchQuarantine applies a person's release or dismissal, or the sweep's
// replay mark. A release also writes the sender as trusted, ifAbsent, in
// the same critical section.
func (s *Store) PatchQuarantine(ctx context.Context, id string, p wire.QuarantinePatch) (wire.QuarantineRecord, error) {
	if err := quarantine.Validate(p); err != nil {
		return wire.QuarantineRecord{}, badRequest("%v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	live := s.unexpired(cur)
	rec, ok := live[id]
	if !ok {
		return wire.QuarantineRecord{}, &NotFoundError{fmt.Sprintf("quarantine record %s not found", id)}
	}
	now := s.stamp()
	ch, err := quarantine.Patch(rec, p, now)
	if err != nil {
		return wire.QuarantineRecord{}, badRequest("%v", err)
	}
	if !ch.Changed {
		return rec, nil
	}
	next := *cur
	next.quarantine = live
	next.quarantine[id] = ch.Record
	files := []string{QuarantineFile}
	if ch.Released {
		if key, err := sendertrust.Key(rec.From); err == nil {
			var old *wire.TrustRecord
			if r, ok := cur.trust[key]; ok {
				old = &r
			}
			tr, changed := sendertrust.Upsert(old, key, wire.TrustUpsert{Email: key, Tier: wire.TierTrusted, IfAbsent: true, Note: "released from quarantine " + id}, now)
			if changed {
				next.trust = cloneMap(cur.trust)
				next.trust[key] = tr
				// Trust first: a crash between the two leaves the release
				// unacknowledged, and repeating it is harmless.
				files = []string{TrustFile, QuarantineFile}
			}
		}
	}
	if err := s.commit(ctx, &next, files...); err != nil {
		return wire.QuarantineRecord{}, err
	}
	return ch.Record, nil
}

// Purge removes released records that were never replayed once their
// retention has passed, and says how many went.
func (s *Store) Purge(ctx context.Context) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	live := s.unexpired(cur)
	gone := len(cur.quarantine) - len(live)
	if gone == 0 {
		return 0, nil
	}
	next := *cur
	next.quarantine = live
	if err := s.commit(ctx, &next, QuarantineFile); err != nil {
		return 0, err
	}
	return gone, nil
}

// unexpired is a copy of the quarantine without the records due for purging:
// every write of the file drops them.
func (s *Store) unexpired(st *state) map[string]wire.QuarantineRecord {
	ttl := s.settingsOf(st).ReleasedTTLDays
	now := s.now()
	out := make(map[string]wire.QuarantineRecord, len(st.quarantine))
	for id, r := range st.quarantine {
		if !quarantine.Expired(r, ttl, now) {
			out[id] = r
		}
	}
	return out
}

// commit writes the named files of next in order and publishes what reached
// the disk. Called with s.mu held.
func (s *Store) commit(ctx context.Context, next *state, files ...string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	published := *s.cur.Load()
	var err error
	for _, name := range files {
		if err = s.writeFile(name, next); err != nil {
			break
		}
		switch name {
		case ConfigFile:
			published.cfg = next.cfg
		case TrustFile:
			published.trust = next.trust
		case QuarantineFile:
			published.quarantine = next.quarantine
		}
	}
	s.cur.Store(&published)
	return err
}

func (s *Store) writeFile(name string, st *state) error {
	var v any
	switch name {
	case ConfigFile:
		v = st.cfg
	case TrustFile:
		l := wire.TrustList{Senders: make([]wire.TrustRecord, 0, len(st.trust))}
		for _, r := range st.trust {
			l.Senders = append(l.Senders, r)
		}
		slices.SortFunc(l.Senders, func(a, b wire.TrustRecord) int { return strings.Compare(a.Email, b.Email) })
		v = l
	case QuarantineFile:
		l := wire.QuarantineList{Records: make([]wire.QuarantineRecord, 0, len(st.quarantine))}
		for _, r := range st.quarantine {
			l.Records = append(l.Records, r)
		}
		slices.SortFunc(l.Records, func(a, b wire.QuarantineRecord) int { return strings.Compare(a.ID, b.ID) })
		v = l
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	return WriteAtomic(filepath.Join(s.dir, name), append(b, '\n'))
}

// WriteAtomic replaces path with data so that a reader, or a restart after
// a crash, sees either the old file or the new one, never a mix: write a
// temp file beside it, fsync it, rename it over path, fsync the directory.
func WriteAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(0o600); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
