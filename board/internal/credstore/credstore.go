// Package credstore reaches the OS credential store (the Secret Service on
// Linux, the Keychain on macOS, the Credential Manager on Windows) with a
// bound on every call: a missing session bus can make a call hang, and the
// board's readiness checks and scheduled runs must go on.
package credstore

import (
	"errors"
	"time"

	"github.com/zalando/go-keyring"
)

// Timeout bounds one call of the credential store.
const Timeout = 5 * time.Second

// ErrNotFound is the store's answer for an entry it does not hold.
var ErrNotFound = keyring.ErrNotFound

// errNoAnswer is a call that ran past Timeout.
var errNoAnswer = errors.New("no answer in time")

// Get reads the secret kept for service and user.
func Get(service, user string) (string, error) {
	return Bounded(func() (string, error) { return keyring.Get(service, user) })
}

// Set keeps secret for service and user.
func Set(service, user, secret string) error {
	_, err := Bounded(func() (string, error) { return "", keyring.Set(service, user, secret) })
	return err
}

// Bounded runs f, a credential store call, and answers an error when it
// has not returned within Timeout (its goroutine is left to finish).
func Bounded[T any](f func() (T, error)) (T, error) { return bounded(f, Timeout) }

func bounded[T any](f func() (T, error), limit time.Duration) (T, error) {
	type answer struct {
		v   T
		err error
	}
	c := make(chan answer, 1)
	go func() {
		v, err := f()
		c <- answer{v, err}
	}()
	select {
	case a := <-c:
		return a.v, a.err
	case <-time.After(limit):
		var zero T
		return zero, errNoAnswer
	}
}
