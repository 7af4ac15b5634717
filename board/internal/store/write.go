package store

import (
	"context"
	"errors"

	"github.com/opsboard/opsboard/shared/wire"
)

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
