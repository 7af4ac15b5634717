package pages

import (
	"net/mail"
	"strings"
)

// displayName is the name part of a From header ("Ann Lee <ann@x.com>" is
// "Ann Lee"); "" when it has none.
func displayName(from string) string {
	a, err := mail.ParseAddress(strings.TrimSpace(from))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(a.Name)
}

func lower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
