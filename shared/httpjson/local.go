package httpjson

import (
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/opsboard/opsboard/shared/httpaddr"
)

// Local says whom a local-only service answers and how it words a refusal.
type Local struct {
	// Hosts are Host names answered besides loopback ones, for a person who
	// serves the service under a local name.
	Hosts []string
	// HostRefusal words the 403 for a foreign Host; %q is the host.
	HostRefusal string
	// OriginRefusal words the 403 for a write from a foreign web origin; %q
	// is the origin.
	OriginRefusal string
	// HostOnly checks the Host alone: a write's Origin and Content-Type are
	// left to the handler.
	HostOnly bool
	// SamePort admits a write's Origin only on the port the request came in
	// on: the service's own page, not another local one.
	SamePort bool
}

// LocalOnly keeps a service to this machine's own callers. A foreign Host is
// refused (a web page reaching it through DNS rebinding), and so is a write
// from another web origin or whose body is not JSON: a page on any site
// could otherwise post a form to a loopback address.
func LocalOnly(l Local) func(http.Handler) http.Handler {
	hosts := map[string]bool{}
	for _, h := range l.Hosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			hosts[h] = true
		}
	}
	allowed := func(h string) bool { return hosts[h] || httpaddr.Loopback(h) }
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			host, port := splitHost(r.Host)
			if !allowed(host) {
				ReplyError(w, http.StatusForbidden, fmt.Sprintf(or(l.HostRefusal, "host %q is not allowed: this service answers on loopback addresses only"), host))
				return
			}
			if !l.HostOnly && isWrite(r.Method) {
				if o := r.Header.Get("Origin"); o != "" && !originAllowed(o, port, l.SamePort, allowed) {
					ReplyError(w, http.StatusForbidden, fmt.Sprintf(or(l.OriginRefusal, "origin %q may not write to this service"), o))
					return
				}
				if HasBody(r) && !IsJSON(r.Header.Get("Content-Type")) {
					ReplyError(w, errNotJSON.Status, errNotJSON.Msg)
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// originAllowed accepts an http or https origin on an allowed host, and on
// port when samePort.
func originAllowed(origin, port string, samePort bool, allowed func(string) bool) bool {
	scheme, rest, ok := strings.Cut(origin, "://")
	if !ok || (scheme != "http" && scheme != "https") {
		return false
	}
	h, p := splitHost(rest)
	if p == "" {
		p = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return allowed(h) && (!samePort || p == port)
}

// splitHost splits a Host header or URL authority into its lowercased host,
// without brackets, and its port ("" when it names none).
func splitHost(hostport string) (host, port string) {
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return httpaddr.Host(hostport), ""
	}
	return strings.ToLower(h), p
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
