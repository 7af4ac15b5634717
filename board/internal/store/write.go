package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// Update runs fn as one write: it checks expectedVersion, lets fn validate
// and mutate a draft, bumps the version, and returns once the write is
// durable and visible. When fn (or the check) fails, nothing changes.
func (s *Store) Update(ctx context.Context, actor wire.Actor, expectedVersion *int64, fn func(tx *Tx) error) (int64, error) {
	for {
		v, err := s.update(ctx, actor, expectedVersion, fn)
		if !errors.Is(err, errRingBehind) {
			return v, err
		}
		// fn reads the recent writes (Tx.Recent) and one is still on its
		// way to the disk, which adds it to the ring: let it land.
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}

func (s *Store) update(ctx context.Context, actor wire.Actor, expectedVersion *int64, fn func(tx *Tx) error) (int64, error) {
	if actor == "" {
		actor = wire.ActorHuman
	}
	s.writeMu.Lock()
	if s.closed.Load() {
		s.writeMu.Unlock()
		return 0, &errs.UnavailableError{Msg: "the board is shutting down"}
	}
	if err := ctx.Err(); err != nil {
		s.writeMu.Unlock()
		return 0, err
	}
	if s.full.Load() {
		s.writeMu.Unlock()
		return 0, &errs.UnavailableError{Msg: "the disk is full: writes are refused until space frees, so that the board keeps room to fold its journal into the document"}
	}
	if expectedVersion != nil && *expectedVersion != s.head.Version {
		cur := s.head.Version
		s.writeMu.Unlock()
		return 0, &errs.VersionConflictError{Expected: *expectedVersion, Current: cur}
	}
	tx := newTx(s.head, s.now(), actor)
	tx.messageKey = s.cfg.MessageKey
	tx.bodies = s.bodies
	tx.zone = s.cfg.Zone
	tx.useIndexes(s.idx)
	tx.ring = s.ring
	if err := fn(tx); err != nil {
		s.writeMu.Unlock()
		return 0, err
	}
	if s.cfg.Verify != nil {
		if err := s.cfg.Verify(tx.d); err != nil {
			s.writeMu.Unlock()
			return 0, fmt.Errorf("invariant broken by this write: %w", err)
		}
	}
	v := s.head.Version + 1
	tx.d.Version = v
	line, err := storefile.AppendEntry(nil, tx.entry(v))
	if err != nil {
		s.writeMu.Unlock()
		return 0, err
	}
	change := tx.change(v)
	s.head = tx.d
	tx.commitIndexes()
	if stale := tx.changedInPlace(); len(stale) > 0 {
		s.enc.forget(stale)
	}
	done := s.j.enqueue(line, tx.d, change)
	s.writeMu.Unlock()
	// Durability does not honour ctx: once queued, the write completes,
	// unless the disk takes longer than WriteWait and the write can still
	// be withdrawn whole (none of its bytes went to the journal).
	wait := time.NewTimer(s.cfg.WriteWait)
	defer wait.Stop()
	select {
	case err = <-done:
	case <-wait.C:
		if s.withdraw(done) {
			return 0, &errs.UnavailableError{Msg: fmt.Sprintf("the disk did not take the write within %s; it was not applied", s.cfg.WriteWait)}
		}
		err = <-done
	}
	if err != nil {
		return 0, &errs.UnavailableError{Msg: "the write was not saved: " + err.Error()}
	}
	return v, nil
}

// commitFailed rolls the head back to the last durable state after the
// journal refused a batch, and returns the writes queued behind it, which
// were built on it and fail too. Both happen under writeMu, so no write can
// be queued on the failed state in between.
func (s *Store) commitFailed(err error) []pendingWrite {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.log.Error("store.commit", "err", err)
	s.j.mu.Lock()
	behind := s.j.queue
	s.j.queue = nil
	s.j.busySince, s.j.busyLast = time.Time{}, nil
	s.j.mu.Unlock()
	s.head = s.visible.Load()
	s.idx = buildIndexes(s.head, s.cfg.MessageKey)
	if isDiskFull(err) {
		s.diskFull(err)
	} else {
		s.health.set(problemJournal, "a write could not be saved: "+err.Error())
	}
	return behind
}

// withdraw takes a write the committer has not started on out of the queue,
// with every write queued after it (they were built on it), and rolls the
// head back to the state before it. It reports false when the write already
// went to the journal: then it must wait for the outcome like any other.
func (s *Store) withdraw(done <-chan error) bool {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	j := s.j
	j.mu.Lock()
	defer j.mu.Unlock()
	at := -1
	for i, w := range j.queue {
		if w.done == done {
			at = i
			break
		}
	}
	if at < 0 {
		return false
	}
	gone := j.queue[at:]
	j.queue = j.queue[:at:at]
	switch {
	case at > 0:
		s.head = j.queue[at-1].doc
	case j.busyLast != nil:
		s.head = j.busyLast
	default:
		s.head = s.visible.Load()
	}
	s.idx = buildIndexes(s.head, s.cfg.MessageKey)
	for _, w := range gone[1:] {
		w.done <- errWithdrawn
	}
	return true
}

var errWithdrawn = errors.New("an earlier write it was built on was withdrawn")

// Do runs fn as one write (see Update) and returns what fn produced with the
// version the write committed. On an error nothing changed and the zero
// value comes back.
func Do[T any](ctx context.Context, s *Store, actor wire.Actor, expected *int64, fn func(tx *Tx) (T, error)) (T, int64, error) {
	var out T
	v, err := s.Update(ctx, actor, expected, func(tx *Tx) error {
		r, err := fn(tx)
		out = r
		return err
	})
	if err != nil {
		var zero T
		return zero, 0, err
	}
	return out, v, nil
}

// errExisting stops a deduplicated create without writing anything.
var errExisting = errors.New("an exact match exists")

// CreateOrFind runs a deduplicating create as one write. fn either creates
// a record or reports (found true) an exact match it returns instead; then
// nothing is written, existing is true and version is the current one.
func CreateOrFind[T any](ctx context.Context, s *Store, actor wire.Actor, fn func(tx *Tx) (rec T, found bool, err error)) (out T, existing bool, version int64, err error) {
	v, err := s.Update(ctx, actor, nil, func(tx *Tx) error {
		r, found, err := fn(tx)
		out = r
		if found {
			version = tx.d.Version
			return errExisting
		}
		return err
	})
	if errors.Is(err, errExisting) {
		return out, true, version, nil
	}
	if err != nil {
		var zero T
		return zero, false, 0, err
	}
	return out, false, v, nil
}
