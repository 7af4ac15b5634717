package vaultpage

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// CheckTitle refuses a title that cannot be a file name the way Obsidian
// names pages: empty, a path separator, NUL, a leading dot (a hidden
// file), or a character that means something inside a [[link]].
func CheckTitle(title string) error {
	t := strings.TrimSpace(title)
	switch {
	case t == "":
		return errors.New("a title must not be empty")
	case strings.HasPrefix(t, "."):
		return errors.New("a title must not start with a dot")
	case strings.ContainsAny(t, "/\\"):
		return errors.New("a title must not hold / or \\")
	case strings.ContainsRune(t, 0):
		return errors.New("a title must not hold a NUL character")
	case strings.ContainsAny(t, "[]#^|"):
		return fmt.Errorf("a title must not hold any of []#^| (they mean something inside a [[link]])")
	}
	return nil
}

// FileName is the file a page of that title is kept in.
func FileName(title string) string { return strings.TrimSpace(title) + ".md" }

// Folder is where new pages of a type go.
func Folder(t wire.PageType) string {
	switch t {
	case wire.PagePerson:
		return "people"
	case wire.PageOrganization:
		return "organizations"
	case wire.PageProject:
		return "projects"
	case wire.PageTopic:
		return "topics"
	}
	return ""
}

// CheckEmail refuses a string that is not one bare address.
func CheckEmail(s string) error {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != strings.TrimSpace(s) || !strings.Contains(a.Address, "@") {
		return fmt.Errorf("%q is not an email address", s)
	}
	return nil
}

// Domain is the part of an address after its last @, lower-cased.
func Domain(email string) string {
	i := strings.LastIndexByte(email, '@')
	if i < 0 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(email[i+1:]))
}
