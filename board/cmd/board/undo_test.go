package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// Undo on the real board: a create undone removes the case and its id
// stays used; after a restart the ring of recent writes is empty, so undo
// says how far it reaches instead of guessing from the journal.
func TestUndoOnTheDaemonAndAfterARestart(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	d := start(t, data, 0)
	var made struct {
		Case    struct{ ID string }
		Version int64
	}
	if err := json.Unmarshal(d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"Order chairs","actor":"agent"}`), &made); err != nil {
		t.Fatal(err)
	}
	var undone struct {
		Undone []struct {
			Version int64
			Actor   string
		}
		Version int64
	}
	if err := json.Unmarshal(d.must(t, http.StatusOK, "POST", "/api/undo", fmt.Sprintf(`{"version":%d}`, made.Version)), &undone); err != nil {
		t.Fatal(err)
	}
	if len(undone.Undone) != 1 || undone.Undone[0].Actor != "agent" || undone.Version != made.Version+1 {
		t.Fatalf("undo answered %+v: want the agent's write %d undone as write %d", undone, made.Version, made.Version+1)
	}
	d.must(t, http.StatusNotFound, "GET", "/api/cases/"+made.Case.ID, "")
	var next struct{ Case struct{ ID string } }
	if err := json.Unmarshal(d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"Order desks"}`), &next); err != nil {
		t.Fatal(err)
	}
	if next.Case.ID == made.Case.ID {
		t.Fatalf("a create after the undo reused %s", made.Case.ID)
	}

	d.stop(t)
	d = start(t, data, 0)
	code, raw, err := d.do("POST", "/api/undo", fmt.Sprintf(`{"version":%d}`, undone.Version+1))
	if err != nil {
		t.Fatal(err)
	}
	if code != http.StatusBadRequest || !strings.Contains(string(raw), "out of reach") {
		t.Errorf("undo after a restart: %d %s; want 400 saying undo does not reach it", code, raw)
	}
	var again struct{ Case struct{ ID string } }
	if err := json.Unmarshal(d.must(t, http.StatusCreated, "POST", "/api/cases", `{"title":"Order lamps"}`), &again); err != nil {
		t.Fatal(err)
	}
	if again.Case.ID == made.Case.ID || again.Case.ID == next.Case.ID {
		t.Errorf("after the restart a create got %s again", again.Case.ID)
	}
}
