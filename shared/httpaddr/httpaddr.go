// Package httpaddr checks the base address of a local HTTP service (the
// board, a sidecar) the way every client of ours takes one.
package httpaddr

import (
	"fmt"
	"net/url"
	"strings"
)

// Base returns raw as a base URL without a trailing slash, or def when raw
// is empty. what names the service in the error ("board address").
func Base(what, raw, def string) (string, error) {
	if strings.TrimSpace(raw) == "" {
		raw = def
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%s %q: %w", what, raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s %q must be an absolute http or https URL such as %s", what, raw, def)
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/"), nil
}
