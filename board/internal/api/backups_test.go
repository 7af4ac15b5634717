package api_test

import (
	"net/http"
	"testing"
)

// A board wired without backup settings still answers the status with 200
// (the fail-safe envelope) and refuses to run.
func TestBackupsWithoutSettings(t *testing.T) {
	b := newBoard(t)
	st := b.must(http.StatusOK, "GET", "/api/backups", nil)
	if st.Get("verdict").String() != "error" || st.Get("reasons.0").String() == "" || st.Get("version").Int() == 0 {
		t.Errorf("status %s", st.Raw)
	}
	for _, list := range []string{"snapshots", "log", "readiness", "reasons"} {
		if !st.Get(list).IsArray() {
			t.Errorf("%s is not a list: %s", list, st.Raw)
		}
	}
	b.fails(http.StatusForbidden, "without backup settings", "POST", "/api/backups/run", nil)
	b.fails(http.StatusBadRequest, "JSON object", "POST", "/api/backups/run", "[]")
	b.fails(http.StatusBadRequest, "unknown field", "POST", "/api/backups/run", map[string]any{"forse": true})
}
