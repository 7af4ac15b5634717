package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/wire"
)

// runDemo starts `board demo` on dir and returns once it has said what it
// seeded, with its output; the process stops at the test's end.
func runDemo(t *testing.T, dir string) (*daemon, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	addr := testkit.FreeAddr(t)
	d := &daemon{addr: addr, url: "http://" + addr, stderr: &testkit.SyncBuffer{}, exited: make(chan struct{})}
	out := &testkit.SyncBuffer{}
	d.cmd = exec.Command(boardBin, "demo", "-dir", dir, "-addr", addr)
	d.cmd.Stdout, d.cmd.Stderr = out, d.stderr
	d.launch(t)
	testkit.Eventually(t, "the demo says what it seeded", func() bool {
		select {
		case <-d.exited:
			t.Fatalf("board demo exited (%v):\n%s\n%s", d.err, out, d.stderr)
		default:
		}
		return strings.Contains(out.String(), "Open http://")
	})
	return d, out.String()
}

// stop ends a board with SIGTERM, as Ctrl-C would.
func (d *daemon) stop(t *testing.T) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.exited:
	case <-time.After(15 * time.Second):
		t.Fatal("the demo board did not stop on SIGTERM")
	}
}

func TestDemoSeedsItsOwnBoardOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	d, out := runDemo(t, dir)
	if !strings.Contains(out, "Demo board seeded with") {
		t.Fatalf("first run output:\n%s", out)
	}
	var cases wire.CaseList
	if err := json.Unmarshal(d.must(t, 200, "GET", "/api/cases", ""), &cases); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	lanes := map[string]int{}
	ptrs := make([]*wire.Case, len(cases.Cases))
	for i := range cases.Cases {
		c := &cases.Cases[i]
		ptrs[i] = c
		kinds[string(c.Kind)]++
		if c.Kind == "case" || c.Kind == "" {
			lanes[string(c.Status)]++
		}
	}
	if err := hierarchy.Check(ptrs); err != nil {
		t.Errorf("the demo's tree breaks the hierarchy: %v", err)
	}
	if kinds["initiative"] < 3 || kinds["workstream"] < 2 || kinds["case"] < 10 {
		t.Errorf("tiers %v: want initiatives, workstreams and cases", kinds)
	}
	if len(lanes) != 5 {
		t.Errorf("cases in lanes %v: want all five lanes used", lanes)
	}
	for path, key := range map[string]string{"/api/messages": "messages", "/api/events": "events", "/api/reminders": "reminders", "/api/priorities": "priorities", "/api/pending": "pending"} {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(d.must(t, 200, "GET", path, ""), &m); err != nil {
			t.Fatal(err)
		}
		var list []any
		if err := json.Unmarshal(m[key], &list); err != nil || len(list) == 0 {
			t.Errorf("%s: no %s seeded (%v)", path, key, err)
		}
	}
	demoPages(t, d)
	d.stop(t)

	// A second run on the seeded directory adds nothing.
	d2, out2 := runDemo(t, dir)
	if !strings.Contains(out2, "nothing seeded") {
		t.Errorf("second run output:\n%s", out2)
	}
	var again wire.CaseList
	if err := json.Unmarshal(d2.must(t, 200, "GET", "/api/cases", ""), &again); err != nil {
		t.Fatal(err)
	}
	if len(again.Cases) != len(cases.Cases) {
		t.Errorf("second run: %d cases, want %d", len(again.Cases), len(cases.Cases))
	}
}

// demoPages checks the demo's vault: people and organisations, each linked
// to a case that links it back, and the demo's mail resolved to them.
func demoPages(t *testing.T, d *daemon) {
	t.Helper()
	var list wire.PageList
	if err := json.Unmarshal(d.must(t, 200, "GET", "/api/vault", ""), &list); err != nil {
		t.Fatal(err)
	}
	types := map[wire.PageType]int{}
	for _, p := range list.Pages {
		types[p.Type]++
		if len(p.Cases) == 0 {
			t.Errorf("page %s links no case", p.Title)
		}
		var c wire.CaseReply
		if len(p.Cases) > 0 && json.Unmarshal(d.must(t, 200, "GET", "/api/cases/"+p.Cases[0], ""), &c) == nil && !slices.Contains(c.Case.VaultLinks, p.ID) {
			t.Errorf("case %s does not link back to page %s", p.Cases[0], p.ID)
		}
	}
	if types[wire.PagePerson] < 2 || types[wire.PageOrganization] < 2 {
		t.Errorf("pages by type %v: want people and organisations", types)
	}
	var msgs wire.MessageList
	if err := json.Unmarshal(d.must(t, 200, "GET", "/api/messages", ""), &msgs); err != nil {
		t.Fatal(err)
	}
	resolved := 0
	for _, m := range msgs.Messages {
		if len(m.Entities) > 0 {
			resolved++
		}
	}
	if resolved == 0 {
		t.Error("no demo message resolved to a page")
	}
}
