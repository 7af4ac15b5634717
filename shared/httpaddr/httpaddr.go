// Package httpaddr checks the base address of a local HTTP service (the
// board, a sidecar) the way every client of ours takes one.
package httpaddr

import (
	"fmt"
	"net"
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

// Host is the host of a Host header or URL authority ("[::1]:8009",
// "LocalHost"), lowercased, without port or brackets.
func Host(hostport string) string {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

// Loopback reports whether host (as Host returns it) names this machine:
// localhost or a loopback address. Our services answer only such names, so
// a web page cannot reach them through DNS rebinding.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
