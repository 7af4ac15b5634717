package ingest

import (
	"errors"
	"fmt"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringService is the OS credential store service under which an IMAP
// source's password is kept; the account is the source's name.
const KeyringService = "opsboard-imap"

// keyringTimeout bounds a credential store call: a missing session bus can
// make one hang, and a scheduled run must go on to the other sources.
const keyringTimeout = 5 * time.Second

// Password is an IMAP source's password: the environment variable when it is
// set (so a script or a machine without a credential store can always give
// one), else the OS credential store's entry that `board ingest login` put.
func Password(name string, getenv func(string) string) (string, error) {
	if pw := getenv(PasswordEnv(name)); pw != "" {
		return pw, nil
	}
	pw, err := keyringCall(func() (string, error) { return keyring.Get(KeyringService, name) })
	switch {
	case errors.Is(err, keyring.ErrNotFound) || (err == nil && pw == ""):
		return "", fmt.Errorf("source %s: no password: run `board ingest login %s`, or set %s", name, name, PasswordEnv(name))
	case err != nil:
		return "", fmt.Errorf("source %s: the OS credential store cannot be read (%v): set %s", name, err, PasswordEnv(name))
	}
	return pw, nil
}

// StorePassword puts an IMAP source's password into the OS credential store.
func StorePassword(name, pw string) error {
	if pw == "" {
		return errors.New("the password is empty")
	}
	_, err := keyringCall(func() (string, error) { return "", keyring.Set(KeyringService, name, pw) })
	if err != nil {
		return fmt.Errorf("store the password in the OS credential store (%v): set %s instead", err, PasswordEnv(name))
	}
	return nil
}

func keyringCall(f func() (string, error)) (string, error) {
	type answer struct {
		v   string
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
	case <-time.After(keyringTimeout):
		return "", errors.New("no answer in time")
	}
}
