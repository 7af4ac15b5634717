package ingest

import (
	"errors"
	"fmt"

	"github.com/opsboard/opsboard/board/internal/credstore"
)

// KeyringService is the OS credential store service under which an IMAP
// source's password is kept; the account is the source's name.
const KeyringService = "opsboard-imap"

// Password is an IMAP source's password: the environment variable when it is
// set (so a script or a machine without a credential store can always give
// one), else the OS credential store's entry that `board ingest login` put.
func Password(name string, getenv func(string) string) (string, error) {
	if pw := getenv(PasswordEnv(name)); pw != "" {
		return pw, nil
	}
	pw, err := credstore.Get(KeyringService, name)
	switch {
	case errors.Is(err, credstore.ErrNotFound) || (err == nil && pw == ""):
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
	err := credstore.Set(KeyringService, name, pw)
	if err != nil {
		return fmt.Errorf("store the password in the OS credential store (%v): set %s instead", err, PasswordEnv(name))
	}
	return nil
}
