package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/opsboard/opsboard/board/internal/testkit"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// The tests in this file run the real daemon against faults in its files:
// journal damage, a journal deleted or replaced while it runs, a full disk
// (a small tmpfs) and a frozen file system (ext4 on a loop device, frozen
// with fsfreeze). The last two need root and skip without it.

// postCase creates a case through the API and returns the answer's status,
// the case and the version.
func postCase(client *http.Client, d *daemon, title string) (int, wire.Case, int64, error) {
	body, _ := json.Marshal(map[string]string{"title": title})
	resp, err := client.Post(d.url+"/api/cases", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, wire.Case{}, 0, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Case    wire.Case `json:"case"`
		Version int64     `json:"version"`
	}
	if resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(raw, &out); err != nil {
			return resp.StatusCode, wire.Case{}, 0, fmt.Errorf("answer %s: %w", raw, err)
		}
	}
	return resp.StatusCode, out.Case, out.Version, nil
}

func mustPostCase(t *testing.T, d *daemon, title string) (wire.Case, int64) {
	t.Helper()
	code, c, v, err := postCase(&http.Client{Timeout: 10 * time.Second}, d, title)
	if err != nil || code/100 != 2 {
		t.Fatalf("create %q: %d %v\n%s", title, code, err, d.stderr)
	}
	return c, v
}

type healthReply struct {
	Version  int64    `json:"version"`
	Degraded bool     `json:"degraded"`
	Problems []string `json:"problems"`
}

func health(t *testing.T, d *daemon) healthReply {
	t.Helper()
	var h healthReply
	if code, err := getJSON(d.url+"/api/health", &h); err != nil || code != http.StatusOK {
		t.Fatalf("health: %d %v", code, err)
	}
	return h
}

// journalLines splits a journal into its lines, each with its newline.
func journalLines(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(data, []byte{'\n'})
}

// writeUncompacted starts a board, creates n cases and kills it at once,
// before the compactor folds them into the document: they live only in the
// journal. It returns the acknowledged cases in order.
func writeUncompacted(t *testing.T, data string, n int) []wire.Case {
	t.Helper()
	d := spawn(t, data, nil)
	d.ready(t)
	var out []wire.Case
	for i := range n {
		c, _ := mustPostCase(t, d, fmt.Sprintf("case %d", i))
		out = append(out, c)
	}
	d.kill()
	return out
}

func TestDaemonJournalDamage(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(lines [][]byte) [][]byte // the journal's lines after damage
		lost   int                           // acknowledged cases the damage destroys
	}{
		{"one flipped byte in the middle", func(lines [][]byte) [][]byte {
			lines[10][20] ^= 0x01
			return lines
		}, 1},
		{"a removed line", func(lines [][]byte) [][]byte {
			return append(lines[:10:10], lines[11:]...)
		}, 1},
		{"a zeroed block in the middle", func(lines [][]byte) [][]byte {
			for i := 8; i < 12; i++ {
				lines[i] = bytes.Repeat([]byte{0}, len(lines[i]))
			}
			return lines
		}, 4},
		{"the last lines zeroed", func(lines [][]byte) [][]byte {
			for i := len(lines) - 4; i < len(lines); i++ {
				lines[i] = bytes.Repeat([]byte{0}, len(lines[i]))
			}
			return lines
		}, 3}, // the final split piece is empty: three lines
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "board.json")
			acked := writeUncompacted(t, data, 20)
			jp := storefile.JournalPath(data)
			lines := journalLines(t, jp)
			if len(lines) < 16 {
				t.Fatalf("the journal holds %d lines, want the 20 writes in it (were they compacted?)", len(lines))
			}
			if err := os.WriteFile(jp, bytes.Join(tc.damage(lines), nil), 0o600); err != nil {
				t.Fatal(err)
			}

			d := spawn(t, data, nil)
			h := d.ready(t)
			if h["degraded"] != true || !strings.Contains(fmt.Sprint(h["problems"]), "missing") ||
				!strings.Contains(fmt.Sprint(h["problems"]), ".damaged-") {
				t.Errorf("health %v, want degraded naming the missing writes and the damaged copy", h)
			}
			if copies, _ := filepath.Glob(jp + ".damaged-*"); len(copies) == 0 {
				t.Error("no copy of the damaged journal was kept")
			}
			have := map[string]string{}
			for _, c := range listCases(t, d).Cases.All() {
				have[c.ID] = c.Title
			}
			lost := 0
			for _, c := range acked {
				if have[c.ID] != c.Title {
					lost++
				}
			}
			if lost != tc.lost {
				t.Errorf("%d acknowledged cases lost, want only the %d the damage destroyed", lost, tc.lost)
			}
			// No id is minted twice and the version never goes back.
			c, v := mustPostCase(t, d, "after the damage")
			for _, old := range acked {
				if old.ID == c.ID {
					t.Fatalf("the new case got %s, an id already acknowledged for %q", c.ID, old.Title)
				}
			}
			if v <= int64(len(acked))+1 { // the seed write, then one per case
				t.Errorf("the first write after the damage got version %d, not above the %d acknowledged", v, len(acked)+1)
			}
			// A restart keeps what the damaged run acknowledged.
			d.kill()
			d = spawn(t, data, nil)
			d.ready(t)
			found := false
			for _, got := range listCases(t, d).Cases.All() {
				found = found || (got.ID == c.ID && got.Title == c.Title)
			}
			if !found {
				t.Errorf("the case written after the damage is gone after a restart")
			}
		})
	}
}

func TestDaemonJournalDeletedOrReplacedWhileRunning(t *testing.T) {
	for _, replace := range []bool{false, true} {
		name := "deleted"
		if replace {
			name = "replaced"
		}
		t.Run(name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "board.json")
			d := spawn(t, data, nil)
			d.ready(t)
			var acked []wire.Case
			for i := range 5 {
				c, _ := mustPostCase(t, d, fmt.Sprintf("before %d", i))
				acked = append(acked, c)
			}
			jp := storefile.JournalPath(data)
			if err := os.Remove(jp); err != nil {
				t.Fatal(err)
			}
			if replace {
				if err := os.WriteFile(jp, []byte("someone else's file\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 5 {
				c, _ := mustPostCase(t, d, fmt.Sprintf("after %d", i))
				acked = append(acked, c)
			}
			h := health(t, d)
			if !strings.Contains(strings.Join(h.Problems, " "), "journal") {
				t.Errorf("health %+v, want it to say the journal was %s", h, name)
			}
			d.kill() // at once: the compactor has not folded the last writes
			d = spawn(t, data, nil)
			d.ready(t)
			have := map[string]string{}
			for _, c := range listCases(t, d).Cases.All() {
				have[c.ID] = c.Title
			}
			for _, c := range acked {
				if have[c.ID] != c.Title {
					t.Errorf("acknowledged %s %q is gone after the journal was %s and the board killed", c.ID, c.Title, name)
				}
			}
			if replace {
				if copies, _ := filepath.Glob(jp + ".foreign-*"); len(copies) != 1 {
					t.Errorf("the file put in the journal's place was not kept aside: %v", copies)
				}
			}
		})
	}
}

func TestDaemonCleansKilledSnapshotTemps(t *testing.T) {
	data := filepath.Join(t.TempDir(), "board.json")
	snaps := filepath.Join(filepath.Dir(data), "snapshots")
	if err := os.MkdirAll(snaps, 0o700); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(snaps, "board-20260101T000000Z-v9.json.gz.tmp")
	if err := os.WriteFile(left, []byte("half a snapshot"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := spawn(t, data, nil)
	d.ready(t)
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("a killed snapshot's temporary file is still there (%v)", err)
	}
}

// mountOrSkip mounts a file system for a test and unmounts it after.
func mountOrSkip(t *testing.T, args ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	dir := t.TempDir()
	out, err := exec.Command("mount", append(args, dir)...).CombinedOutput()
	if err != nil {
		t.Skipf("mount %v: %v %s", args, err, out)
	}
	t.Cleanup(func() {
		exec.Command("umount", "-l", dir).Run()
	})
	return dir
}

// fillDisk writes a file in dir until the disk is full.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	for { // the last partial chunk
		if _, err := f.Write(chunk[:512]); err != nil {
			break
		}
	}
	return p
}

func TestDaemonFullDiskRecoversByItself(t *testing.T) {
	mnt := mountOrSkip(t, "-t", "tmpfs", "-o", "size=48m", "tmpfs")
	data := filepath.Join(mnt, "board.json")
	d := spawn(t, data, nil)
	d.ready(t)
	long := strings.Repeat("a long title to make the document grow ", 200)
	var first wire.Case
	for i := range 300 { // a document of a few megabytes
		c, _ := mustPostCase(t, d, fmt.Sprintf("%d %s", i, long))
		if i == 0 {
			first = c
		}
	}
	client := &http.Client{Timeout: 20 * time.Second}
	// Each retitle journals a 4 KB record and barely grows the document:
	// the journal, not the document, eats the disk.
	retitle := func(i int) int {
		body, _ := json.Marshal(map[string]string{"title": fmt.Sprintf("%d %s", i, long[:4000])})
		req, _ := http.NewRequest(http.MethodPatch, d.url+"/api/cases/"+first.ID, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("retitle %d: %v", i, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("retitle %d answered %d, want success or 503", i, resp.StatusCode)
		}
		return resp.StatusCode
	}
	filler := fillDisk(t, mnt)

	// Full: writes are refused cleanly (the journal's last page may still
	// take a few).
	for i := 0; retitle(i) != http.StatusServiceUnavailable; i++ {
		if i == 50 {
			t.Fatal("50 writes succeeded on a full disk")
		}
	}
	// Some space frees, and writes go on. The journal must not eat the
	// room compaction needs: the board compacts, trims the journal and
	// keeps accepting writes.
	if err := os.Truncate(filler, max(0, sizeOf(t, filler)-(3<<20))); err != nil {
		t.Fatal(err)
	}
	// Each of many writes goes through in the end, far more than the freed
	// 3 MB hold (every journal entry carries the whole 4 KB-titled case): the
	// board recovers by itself and keeps recovering, rather than stalling for
	// good once the journal has eaten the freed space. The bound is
	// generous: this asserts that writes resume, not how fast.
	for i := range 1500 {
		deadline := time.Now().Add(60 * time.Second)
		for retitle(100+i)/100 != 2 {
			if time.Now().After(deadline) {
				t.Fatalf("write %d never succeeded again, the disk holding 3 MB free for them:\n%s", i, d.stderr)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// A SIGTERM on a full disk still compacts (the reserve is for that) or
	// says clearly why it could not.
	fillDisk(t, mnt)
	d.cmd.Process.Signal(syscall.SIGTERM)
	<-d.exited
	if d.err != nil && !strings.Contains(d.stderr.String(), "disk is full") {
		t.Errorf("shutdown on a full disk: %v without a clear message:\n%s", d.err, d.stderr)
	}
	if d.err == nil {
		doc, err := storefile.ReadDoc(data)
		if err != nil {
			t.Fatal(err)
		}
		state, err := storefile.Load(data)
		if err != nil || state.Version != doc.Version {
			t.Errorf("exit 0 on a full disk without a compacted document: %v", err)
		}
	}
}

func sizeOf(t *testing.T, p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestDaemonFrozenDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 64<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v %s", err, out)
	}
	mnt := mountOrSkip(t, "-o", "loop", img)
	data := filepath.Join(mnt, "board.json")
	d := spawn(t, data, nil)
	d.ready(t)
	mustPostCase(t, d, "before the freeze")
	if out, err := exec.Command("fsfreeze", "-f", mnt).CombinedOutput(); err != nil {
		t.Skipf("fsfreeze: %v %s", err, out)
	}
	thawed := false
	thaw := func() {
		if !thawed {
			thawed = true
			exec.Command("fsfreeze", "-u", mnt).Run()
		}
	}
	t.Cleanup(thaw) // before the unmount and the kill

	type answer struct {
		code int
		c    wire.Case
		err  error
	}
	client := &http.Client{Timeout: 60 * time.Second}
	first := make(chan answer, 1)
	go func() { // reaches the journal's write, which blocks
		code, c, _, err := postCase(client, d, "blocked in the write")
		first <- answer{code, c, err}
	}()
	time.Sleep(500 * time.Millisecond)
	second := make(chan answer, 1)
	go func() { // queued behind it: never reaches the journal
		code, c, _, err := postCase(client, d, "queued behind")
		second <- answer{code, c, err}
	}()
	testkit.Eventually(t, "health degraded while the disk is frozen", func() bool {
		h := health(t, d)
		return h.Degraded && strings.Contains(strings.Join(h.Problems, " "), "waiting")
	})
	var a answer
	select {
	case a = <-second:
	case <-time.After(30 * time.Second):
		t.Fatal("the queued write is still waiting 30 s into the freeze")
	}
	if a.err != nil || a.code != http.StatusServiceUnavailable {
		t.Errorf("the queued write answered %d %v, want 503", a.code, a.err)
	}
	select {
	case a = <-first:
		t.Fatalf("the write already in the journal answered %d %v before the disk thawed", a.code, a.err)
	default:
	}
	thaw()
	a = <-first
	if a.err != nil || a.code/100 != 2 {
		t.Fatalf("the write in the journal answered %d %v after the thaw, want success", a.code, a.err)
	}
	mustPostCase(t, d, "after the thaw")
	titles := map[string]bool{}
	for _, c := range listCases(t, d).Cases.All() {
		titles[c.Title] = true
	}
	if titles["queued behind"] {
		t.Error("the write answered 503 was applied")
	}
	if !titles["blocked in the write"] || !titles["after the thaw"] {
		t.Errorf("acknowledged writes missing: %v", titles)
	}
	testkit.Eventually(t, "health clean after the thaw", func() bool { return !health(t, d).Degraded })
}
