// Package errs holds the board's typed errors: a bad request (400), an
// unknown id (404), a stale expectedVersion (409), a value over its size
// limit (413) and a store that cannot take writes (503). Rules return them;
// the HTTP layer maps them to status codes in one place.
package errs

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// BadRequestError is an invalid body shape or a relational violation (400).
type BadRequestError struct{ Msg string }

func (e *BadRequestError) Error() string { return e.Msg }

// NotFoundError is an unknown id (404).
type NotFoundError struct{ Msg string }

func (e *NotFoundError) Error() string { return e.Msg }

// VersionConflictError is a stale expectedVersion (409).
type VersionConflictError struct{ Expected, Current int64 }

func (e *VersionConflictError) Error() string {
	return fmt.Sprintf("version conflict: expected %d, current %d; refetch and retry", e.Expected, e.Current)
}

// TooLargeError is a value over its size limit (413).
type TooLargeError struct{ Msg string }

func (e *TooLargeError) Error() string { return e.Msg }

// TooLarge builds a TooLargeError.
func TooLarge(format string, args ...any) error {
	return &TooLargeError{Msg: fmt.Sprintf(format, args...)}
}

// UnavailableError means the store cannot take writes right now (503), for
// example after the disk refused a journal write.
type UnavailableError struct{ Msg string }

func (e *UnavailableError) Error() string { return e.Msg }

// BadRequest builds a BadRequestError.
func BadRequest(format string, args ...any) error {
	return &BadRequestError{Msg: fmt.Sprintf(format, args...)}
}

// NotFound builds a NotFoundError.
func NotFound(format string, args ...any) error {
	return &NotFoundError{Msg: fmt.Sprintf(format, args...)}
}

// IsNotFound reports whether err is a NotFoundError.
func IsNotFound(err error) bool {
	var nf *NotFoundError
	return errors.As(err, &nf)
}

// HumanChangeError refuses an agent write that would undo the person's
// change to a field (400): set it back to the value they replaced, or
// change it again within the protection window. The agent should add a
// note or propose the change instead, or pass override when the person
// asked for it.
type HumanChangeError struct {
	Record, Field, TS string
	Actor             wire.Actor
	Value             json.RawMessage // the person's value, which stands
	Revert            bool            // the write sets back the value the person replaced
	Window            time.Duration
}

func (e *HumanChangeError) Error() string {
	// No word of override here: the agent reads this, and overriding is for
	// when the person asked, which the API reference documents.
	why := fmt.Sprintf("less than %s ago", days(e.Window))
	if e.Revert {
		why = "and this write would set it back to the value they replaced"
	}
	return fmt.Sprintf("%s: the person changed '%s' at %s, %s, and their change stands: add a note or propose this change for their approval (propose) instead", e.Record, e.Field, e.TS, why)
}

// days words a window: "24 hours" under two days, else whole days.
func days(d time.Duration) string {
	if d < 48*time.Hour {
		return fmt.Sprintf("%d hours", int(d.Hours()))
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}

// UndoConflictError refuses an undo because later writes changed the
// records it would restore (400, listing them; 409 stays the answer to a
// stale expectedVersion).
type UndoConflictError struct {
	Msg       string
	Conflicts []wire.UndoConflict
}

func (e *UndoConflictError) Error() string { return e.Msg }
