package httpjson_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/httpjson"
)

func TestLocalOnly(t *testing.T) {
	board := httpjson.Local{
		Hosts:         []string{" Board.Lan "},
		HostRefusal:   "host %q is not allowed here",
		OriginRefusal: "origin %q may not write here",
		SamePort:      true,
	}
	anyLocalPage := httpjson.Local{}
	hostOnly := httpjson.Local{HostOnly: true}
	for _, tc := range []struct {
		name                        string
		l                           httpjson.Local
		method, host, origin, ctype string
		wantCode                    int
		wantMsg                     string
	}{
		{"loopback", board, "GET", "127.0.0.1:8010", "", "", 200, ""},
		{"localhost, any case", board, "GET", "LocalHost:8010", "", "", 200, ""},
		{"IPv6 loopback", board, "GET", "[::1]:8010", "", "", 200, ""},
		{"an extra host", board, "GET", "board.lan:8010", "", "", 200, ""},
		{"a foreign host", board, "GET", "evil.example:8010", "", "", 403, `host "evil.example" is not allowed here`},
		{"a foreign host, default words", anyLocalPage, "GET", "evil.example", "", "", 403, `host "evil.example" is not allowed: this service answers on loopback addresses only`},
		{"the own page's write", board, "POST", "127.0.0.1:8010", "http://localhost:8010", "application/json", 200, ""},
		{"an extra host's page", board, "POST", "board.lan:8010", "http://board.lan:8010", "application/json", 200, ""},
		{"another local page's write", board, "POST", "127.0.0.1:8010", "http://localhost:1", "application/json", 403, `origin "http://localhost:1" may not write here`},
		{"a page on the default port", board, "POST", "127.0.0.1:80", "http://127.0.0.1", "application/json", 200, ""},
		{"a foreign page's write", board, "POST", "127.0.0.1:8010", "https://evil.example", "application/json", 403, `origin "https://evil.example" may not write here`},
		{"an opaque origin", board, "DELETE", "127.0.0.1:8010", "null", "", 403, `origin "null" may not write here`},
		{"a foreign page's read", board, "GET", "127.0.0.1:8010", "https://evil.example", "", 200, ""},
		{"any loopback page's write", anyLocalPage, "POST", "127.0.0.1:8009", "http://127.0.0.1:3000", "application/json", 200, ""},
		{"a foreign page's write, default words", anyLocalPage, "POST", "127.0.0.1:8009", "https://evil.example", "application/json", 403, `origin "https://evil.example" may not write to this service`},
		{"a form post", board, "POST", "127.0.0.1:8010", "", "text/plain", 415, "a request body must be sent as Content-Type: application/json"},
		{"host only: a form post", hostOnly, "POST", "127.0.0.1:8008", "https://evil.example", "text/plain", 200, ""},
		{"host only: a foreign host", hostOnly, "POST", "attacker.example:8008", "", "application/json", 403, `host "attacker.example" is not allowed: this service answers on loopback addresses only`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := httpjson.LocalOnly(tc.l)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusOK)
			}))
			r := httptest.NewRequest(tc.method, "/x", strings.NewReader(`{}`))
			if tc.method == "GET" || tc.method == "DELETE" {
				r = httptest.NewRequest(tc.method, "/x", nil)
			}
			r.Host = tc.host
			if tc.origin != "" {
				r.Header.Set("Origin", tc.origin)
			}
			if tc.ctype != "" {
				r.Header.Set("Content-Type", tc.ctype)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			var e struct{ Error string }
			if w.Code != http.StatusOK {
				json.NewDecoder(w.Body).Decode(&e)
			}
			if w.Code != tc.wantCode || e.Error != tc.wantMsg {
				t.Errorf("got %d %q, want %d %q", w.Code, e.Error, tc.wantCode, tc.wantMsg)
			}
		})
	}
}
