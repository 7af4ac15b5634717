//go:build !linux

package backup

import (
	"errors"

	"github.com/zalando/go-keyring"
)

// keyringHas reads the entry and drops it: the credential stores of these
// systems offer no existence check through go-keyring.
func keyringHas(service, user string) (bool, string) {
	_, err := keyring.Get(service, user)
	switch {
	case errors.Is(err, keyring.ErrNotFound):
		return false, "no recovery passphrase in the OS credential store"
	case err != nil:
		return false, "the OS credential store cannot be read (" + err.Error() + "): " + noStore
	}
	return true, "in the OS credential store"
}
