package hub_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/hub"
)

// The public hub answers a large file with a redirect to its storage,
// announcing the sha256 on the redirect; the token must stay with the hub.
func TestRedirectKeepsTheHubsShaAndNotTheToken(t *testing.T) {
	body := strings.Repeat("w", 1000)
	var storageAuth string
	storage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		storageAuth = r.Header.Get("Authorization")
		w.Header().Set("ETag", `"not-a-sha"`)
		w.Write([]byte(body))
	}))
	defer storage.Close()
	for _, tc := range []struct {
		name, sha, want string
	}{
		{"matching sha", sum(body), ""},
		{"wrong sha", strings.Repeat("ab", 32), "sha256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") != "Bearer tok" {
					http.Error(w, "no token", http.StatusUnauthorized)
					return
				}
				w.Header().Set("X-Linked-Etag", `"`+tc.sha+`"`)
				http.Redirect(w, r, storage.URL+"/blob", http.StatusFound)
			}))
			defer h.Close()
			dir := t.TempDir()
			r := hub.Repo{ID: "org/m", Revision: "main", Files: []hub.File{{Remote: "model.safetensors"}}}
			err := (&hub.Client{Base: h.URL, Token: "tok"}).Fetch(context.Background(), r, dir, nil)
			if tc.want == "" {
				got, rerr := os.ReadFile(filepath.Join(dir, "model.safetensors"))
				if err != nil || rerr != nil || string(got) != body {
					t.Errorf("fetch: %v %v", err, rerr)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("fetch: %v, want %q", err, tc.want)
			}
			if storageAuth != "" {
				t.Errorf("the token went to the storage host: %q", storageAuth)
			}
		})
	}
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
