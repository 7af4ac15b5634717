package backup

import (
	"errors"
	"fmt"

	"github.com/opsboard/opsboard/board/internal/credstore"
)

// KeySource gives the recovery passphrase. The package never writes the
// passphrase anywhere but into the key derivation: no log, output, error,
// status or repository carries it.
type KeySource interface {
	Passphrase() (string, error)
	// Present says whether a passphrase is there, reading it only where
	// the store cannot tell otherwise; detail is for the readiness list.
	Present() (ok bool, detail string)
}

// The credential store entry of the passphrase.
const (
	keyringService = "opsboard-backup"
	keyringUser    = "recovery-passphrase"
)

// noStore is the advice when the OS credential store is not there.
const noStore = "set SVC_BACKUP_KEY to the recovery passphrase (this machine has no usable OS credential store)"

// EnvKey is a passphrase given in SVC_BACKUP_KEY.
func EnvKey(passphrase string) KeySource { return envKey(passphrase) }

type envKey string

func (k envKey) Passphrase() (string, error) {
	if k == "" {
		return "", errors.New("SVC_BACKUP_KEY is empty")
	}
	return string(k), nil
}

func (k envKey) Present() (bool, string) {
	if k == "" {
		return false, "SVC_BACKUP_KEY is empty"
	}
	return true, "from SVC_BACKUP_KEY"
}

// KeyringKey is the passphrase in the OS credential store (the Secret
// Service on Linux, the Keychain on macOS, the Credential Manager on
// Windows).
func KeyringKey() KeySource { return keyringKey{} }

type keyringKey struct{}

func (keyringKey) Passphrase() (string, error) {
	p, err := credstore.Get(keyringService, keyringUser)
	switch {
	case errors.Is(err, credstore.ErrNotFound):
		return "", errors.New("no recovery passphrase in the OS credential store: run `board backup init <repo>`, or set SVC_BACKUP_KEY")
	case err != nil:
		return "", fmt.Errorf("the OS credential store cannot be read (%v): %s", err, noStore)
	case p == "":
		return "", errors.New("the recovery passphrase in the OS credential store is empty: run `board backup rotate-key`, or set SVC_BACKUP_KEY")
	}
	return p, nil
}

func (keyringKey) Present() (bool, string) {
	type answer struct {
		ok     bool
		detail string
	}
	a, err := credstore.Bounded(func() (answer, error) {
		ok, detail := keyringHas(keyringService, keyringUser)
		return answer{ok, detail}, nil
	})
	if err != nil {
		return false, "the OS credential store did not answer: " + noStore
	}
	return a.ok, a.detail
}

// StoreKey puts the passphrase into the OS credential store.
func StoreKey(passphrase string) error {
	if passphrase == "" {
		return errors.New("the passphrase is empty")
	}
	err := credstore.Set(keyringService, keyringUser, passphrase)
	if err != nil {
		return fmt.Errorf("store the passphrase in the OS credential store (%v): %s", err, noStore)
	}
	return nil
}
