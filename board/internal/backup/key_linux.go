package backup

import (
	ss "github.com/zalando/go-keyring/secret_service"
)

// keyringHas searches the Secret Service for the entry by its attributes:
// the search returns item paths, never secrets, and needs no unlock.
func keyringHas(service, user string) (bool, string) {
	svc, err := ss.NewSecretService()
	if err != nil {
		return false, "no OS credential store (" + err.Error() + "): " + noStore
	}
	items, err := svc.SearchItems(svc.GetLoginCollection(), map[string]string{"username": user, "service": service})
	if err != nil {
		return false, "the OS credential store cannot be searched (" + err.Error() + "): " + noStore
	}
	if len(items) == 0 {
		return false, "no recovery passphrase in the OS credential store"
	}
	return true, "in the OS credential store"
}
