package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/backup/seal"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// clone is skipped when comparing the data directory: it is the local copy
// of the repository, which a restore brings up to date.
const clone = CloneName

func (f *fixture) restore(file string, apply bool) (*RestoreReport, string, error) {
	f.t.Helper()
	var out bytes.Buffer
	rep, err := restore(f.s, file, apply, &out)
	return rep, out.String(), err
}

// restore plans a restore and, with apply, applies it, as the CLI does.
func restore(s Settings, file string, apply bool, log io.Writer) (*RestoreReport, error) {
	p, err := Plan(context.Background(), s, file, log)
	if err != nil {
		return nil, err
	}
	if !apply {
		return p.Report, nil
	}
	return p.Apply(context.Background())
}

func TestRestoreDryRunWritesNothingAndSaysWhatItWouldRestore(t *testing.T) {
	f := newFixture(t, nil)
	r := f.mustRun()
	later := addCases(t, f.s.StorePath, "made after the backup")
	before := tree(t, f.data, clone)
	rep, out, err := f.restore("", false)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if diff := cmp.Diff(before, tree(t, f.data, clone)); diff != "" {
		t.Errorf("the dry run changed the data (-before +after)\n%s", diff)
	}
	if rep.File != r.File || rep.Applied || rep.Plan == nil || rep.StoreVersion != r.StoreVersion {
		t.Errorf("report %+v", rep)
	}
	if diff := cmp.Diff(map[string]int{"board": 1, "config": 3, "guard": 2}, rep.Files); diff != "" {
		t.Errorf("files per area (-want +got)\n%s", diff)
	}
	if rep.Counts["cases"] != 2 || rep.Plan.Collections[0].Name != "cases" || !slices.Equal(rep.Plan.Collections[0].Lost, later) {
		t.Errorf("counts %v, cases diff %+v", rep.Counts, rep.Plan.Collections[0])
	}
	// A name, with or without the directory, picks that snapshot.
	for _, name := range []string{r.File, filepath.Base(r.File)} {
		if rep, _, err := f.restore(name, false); err != nil || rep.File != r.File {
			t.Errorf("restore %s: %v %+v", name, err, rep)
		}
	}
}

// craft seals entries (name -> content, in order) as a snapshot in the
// local copy and records it in the manifest, as a run would.
func (f *fixture) craft(name string, entries [][2]string) string {
	f.t.Helper()
	var buf bytes.Buffer
	sw, err := seal.NewWriter(&buf, testPass, f.s.KDF, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	gz := gzip.NewWriter(sw)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: e[0], Mode: 0o600, Size: int64(len(e[1])), Typeflag: tar.TypeReg}); err != nil {
			f.t.Fatal(err)
		}
		tw.Write([]byte(e[1]))
	}
	tw.Close()
	gz.Close()
	sw.Close()
	rel := SnapshotDir + "/" + name
	writeFile(f.t, filepath.Join(f.s.Clone, rel), buf.String())
	m, _ := readManifest(f.s.Clone)
	sum := sha256.Sum256(buf.Bytes())
	m.Snapshots = append(m.Snapshots, wire.BackupSnapshot{File: rel, SHA256: hex.EncodeToString(sum[:]), Size: int64(buf.Len()), Created: f.now.Format(time.RFC3339)})
	if err := writeManifest(f.s.Clone, m); err != nil {
		f.t.Fatal(err)
	}
	return rel
}

func TestRestoreRefusesAtTheGateThatFails(t *testing.T) {
	f := newFixture(t, nil)
	good := f.mustRun()
	path := filepath.Join(f.s.Clone, good.File)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(f.s.Clone, ManifestName))
	valid := `{"schemaVersion": 7, "version": 3, "cases": []}`
	for _, tc := range []struct {
		name   string
		damage func() string // returns the file to restore
		gate   string
		says   string
	}{
		{"not a sealed file", func() string { return f.craftRaw("backup-plain.enc", []byte(`{"cases": []}`)) }, GateMagic, "magic"},
		{"one flipped byte", func() string {
			bad := bytes.Clone(data)
			bad[len(bad)/2] ^= 0x10
			return f.craftRaw("backup-flipped.enc", bad)
		}, GateTag, "authentication tag"},
		{"truncated", func() string { return f.craftRaw("backup-cut.enc", data[:len(data)-100]) }, GateTag, "authentication tag"},
		{"cut at a chunk edge", func() string {
			return f.craftRaw("backup-edge.enc", data[:seal.HeaderSize+int(f.s.KDF.Chunk)+16])
		}, GateTag, "authentication tag"},
		{"a wrong passphrase", func() string {
			f.s.Key = EnvKey("not the passphrase")
			return good.File
		}, GateTag, "wrong passphrase"},
		{"a manifest that disagrees", func() string {
			writeFile(t, filepath.Join(f.s.Clone, ManifestName), strings.Replace(string(manifest), good.File+`",
      "sha256": "`, good.File+`",
      "sha256": "00`, 1))
			return good.File
		}, GateSHA256, "sha256"},
		{"no manifest entry", func() string {
			os.WriteFile(filepath.Join(f.s.Clone, SnapshotDir, "backup-stray.enc"), data, 0o600)
			return "backup-stray.enc"
		}, GateSHA256, "no entry"},
		{"a store that does not parse", func() string {
			return f.craft("backup-badstore.enc", [][2]string{{boardEntry, `{"cases": [`}})
		}, GateParse, "does not parse"},
		{"a guard store that does not parse", func() string {
			return f.craft("backup-badguard.enc", [][2]string{{boardEntry, valid}, {"guard/trust.json", "{nope"}})
		}, GateParse, "guard/trust.json"},
		{"a store with a version the board cannot count on from", func() string {
			return f.craft("backup-bigversion.enc", [][2]string{{boardEntry, `{"schemaVersion": 7, "version": -5, "cases": []}`}})
		}, GateParse, "version -5"},
		{"no store at all", func() string {
			return f.craft("backup-nostore.enc", [][2]string{{"config/ingest.json", "{}"}})
		}, GateParse, "no store"},
		{"an entry outside the layout", func() string {
			return f.craft("backup-escape.enc", [][2]string{{boardEntry, valid}, {"../../etc/passwd", "x"}})
		}, GateParse, "unsafe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				f.s.Key = EnvKey(testPass)
				os.WriteFile(filepath.Join(f.s.Clone, ManifestName), manifest, 0o600)
			}()
			file := tc.damage()
			for _, apply := range []bool{false, true} {
				before := tree(t, f.data, clone)
				_, out, err := f.restore(file, apply)
				var ge *GateError
				if !errors.As(err, &ge) || ge.Gate != tc.gate || !strings.Contains(err.Error(), tc.says) {
					t.Fatalf("apply=%v: got %v, want the %s gate saying %q\n%s", apply, err, tc.gate, tc.says, out)
				}
				if diff := cmp.Diff(before, tree(t, f.data, clone)); diff != "" {
					t.Errorf("apply=%v: a refused snapshot changed the data (-before +after)\n%s", apply, diff)
				}
			}
		})
	}
}

// craftRaw puts data in the local copy as a snapshot with a manifest entry
// that matches it.
func (f *fixture) craftRaw(name string, data []byte) string {
	f.t.Helper()
	rel := SnapshotDir + "/" + name
	writeFile(f.t, filepath.Join(f.s.Clone, rel), string(data))
	m, _ := readManifest(f.s.Clone)
	sum := sha256.Sum256(data)
	m.Snapshots = append(m.Snapshots, wire.BackupSnapshot{File: rel, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data)), Created: f.now.Format(time.RFC3339)})
	if err := writeManifest(f.s.Clone, m); err != nil {
		f.t.Fatal(err)
	}
	return rel
}

func TestRestoreApplyRoundTrip(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "vault")
	writeFile(t, filepath.Join(vault, "notes", "plan.md"), "# the plan\n")
	f := newFixture(t, map[string]string{"SVC_VAULT_DIR": vault})
	linked := caseIDs(t, f.s.StorePath)[0]
	writeFile(t, filepath.Join(vault, "people", "Ann Lee.md"), page("V-1", "Ann Lee", "ann@x.example", linked))
	linkPages(t, f.s.StorePath, linked, "V-1")
	backedUp, err := storefile.Load(f.s.StorePath)
	if err != nil {
		t.Fatal(err)
	}
	files := tree(t, f.data, clone, "guard/models", "board.json", "board.json.journal", "board.json.lock", "board.json.highwater",
		"board.json.reserve", "board.json.prev", "board.json.bodies", "snapshots", StateName, LogName)
	r := f.mustRun()

	// Life goes on after the backup; then the disk is lost in part.
	lost := addCases(t, f.s.StorePath, "made after the backup", "also after")
	changed, err := storefile.Load(f.s.StorePath)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(f.data, "guard", "trust.json"), `{"senders":{}}`)
	writeFile(t, filepath.Join(f.data, "ingest.json"), `{"sources":[]}`)
	writeFile(t, filepath.Join(vault, "notes", "plan.md"), "overwritten\n")
	writeFile(t, filepath.Join(vault, "people", "Ann Lee.md"), page("V-1", "Ann Lee", "ann@x.example"))
	linkPages(t, f.s.StorePath, linked)
	os.Remove(filepath.Join(f.data, "ingest-state.json"))
	liveGuard := tree(t, filepath.Join(f.data, "guard"), "models") // the weights stay in use

	// Refused while a board runs, and nothing changes.
	st, err := store.Open(store.Config{Path: f.s.StorePath})
	if err != nil {
		t.Fatal(err)
	}
	before := tree(t, f.data, clone, "board.json.lock")
	if _, out, err := f.restore("", true); err == nil || !strings.Contains(err.Error(), "running") {
		t.Errorf("apply while a board runs: %v\n%s", err, out)
	}
	if diff := cmp.Diff(before, tree(t, f.data, clone, "board.json.lock")); diff != "" {
		t.Errorf("the refused apply changed the data (-before +after)\n%s", diff)
	}
	st.Close()

	rep, out, err := f.restore("", true)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !rep.Applied || rep.File != r.File || !strings.HasPrefix(filepath.Base(rep.Aside), "pre-restore-") {
		t.Fatalf("report %+v", rep)
	}
	// What was replaced is in the pre-restore directory.
	if diff := cmp.Diff(liveGuard, tree(t, filepath.Join(rep.Aside, "guard"))); diff != "" {
		t.Errorf("the replaced guard data (-want +got)\n%s", diff)
	}
	if got, _ := os.ReadFile(filepath.Join(rep.Aside, "ingest.json")); string(got) != `{"sources":[]}` {
		t.Errorf("the replaced ingest.json: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(rep.Aside, "vault", "notes", "plan.md")); string(got) != "overwritten\n" {
		t.Errorf("the replaced vault: %q", got)
	}
	aside, err := storefile.Load(filepath.Join(rep.Aside, "board.json"))
	if err != nil || aside.Cases.Len() != changed.Cases.Len() {
		t.Errorf("the replaced store: %v", err)
	}

	// The restored files are exactly the backed-up ones.
	after := tree(t, f.data, clone, "guard/models", "board.json", "board.json.journal", "board.json.lock", "board.json.highwater",
		"board.json.reserve", "board.json.prev", "board.json.bodies", "snapshots", StateName, LogName, filepath.Base(rep.Aside))
	if diff := cmp.Diff(files, after); diff != "" {
		t.Errorf("restored files (-backed up +restored)\n%s", diff)
	}
	if got, _ := os.ReadFile(filepath.Join(f.data, "guard", "models", "weights.bin")); len(got) != 4096 {
		t.Error("the guard's model weights (never backed up) were not kept")
	}
	if got, _ := os.ReadFile(filepath.Join(vault, "notes", "plan.md")); string(got) != "# the plan\n" {
		t.Errorf("restored vault: %q", got)
	}
	restoredCases, restoredPages := links(t, f.s.StorePath, vault)
	checkBothWays(t, restoredCases, restoredPages, map[string][]string{"V-1": {linked}})
	restored, err := storefile.Load(f.s.StorePath)
	if err != nil {
		t.Fatal(err)
	}
	if restored.Version <= changed.Version {
		t.Errorf("version %d after the restore, want above %d", restored.Version, changed.Version)
	}
	for k, v := range changed.Counters {
		if restored.Counters[k] < v {
			t.Errorf("counter %s went back from %d to %d", k, v, restored.Counters[k])
		}
	}
	restored.Version, restored.Counters = backedUp.Version, backedUp.Counters
	if diff := cmp.Diff(backedUp, restored); diff != "" {
		t.Errorf("restored store (-backed up +restored)\n%s", diff)
	}
	next := addCases(t, f.s.StorePath, "after the restore")
	if slices.Contains(lost, next[0]) {
		t.Errorf("minted %s again", next[0])
	}
	noPassphraseIn(t, f.data, out)
}

func TestRestoreOnANewMachine(t *testing.T) {
	f := newFixture(t, nil)
	r := f.mustRun()
	backedUp, _ := storefile.Load(f.s.StorePath)

	// A new machine: an empty data directory, the passphrase and the URL.
	data := filepath.Join(t.TempDir(), "fresh")
	guard := filepath.Join(t.TempDir(), "not", "yet", "guard") // the guard's data elsewhere, its parents missing
	env := map[string]string{"SVC_BACKUP_KEY": testPass, "SVC_GUARD_DATA": guard}
	s, err := SettingsFrom(func(k string) string { return env[k] }, filepath.Join(data, "board.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Init(s, f.bare); err != nil {
		t.Fatal(err)
	}
	s, _ = SettingsFrom(func(k string) string { return env[k] }, filepath.Join(data, "board.json"))
	s.Now = f.s.Now
	rep, err := restore(s, "", false, nil)
	if err != nil || rep.File != r.File || !rep.Fetched {
		t.Fatalf("dry run: %v %+v", err, rep)
	}
	if rep, err = restore(s, "", true, nil); err != nil {
		t.Fatalf("apply: %v", err)
	}
	got, err := storefile.Load(s.StorePath)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(titlesOf(backedUp), titlesOf(got)); diff != "" {
		t.Errorf("cases (-want +got)\n%s", diff)
	}
	if !slices.Contains(rep.Notes, "kept this machine's "+ConfigName+" (its repository and live board are this machine's)") {
		t.Errorf("notes %v", rep.Notes)
	}
	if cfg, _ := ReadConfig(data); cfg.LiveData != s.StorePath {
		t.Errorf("backup.json of the new machine was replaced: %+v", cfg)
	}
	if b, _ := os.ReadFile(filepath.Join(guard, "trust.json")); !strings.Contains(string(b), "a@example.com") {
		t.Errorf("guard data not restored: %q", b)
	}
}

func titlesOf(d *wire.Doc) []string {
	var out []string
	for _, c := range d.Cases.All() {
		out = append(out, c.ID+" "+c.Title)
	}
	return out
}

func TestVerifyChecksEverySnapshot(t *testing.T) {
	f := newFixture(t, nil)
	a := f.mustRun()
	b := f.mustRun()
	rep, err := Verify(context.Background(), f.s, nil)
	if err != nil || rep.Failed != 0 || len(rep.Results) != 2 {
		t.Fatalf("verify: %v %+v", err, rep)
	}
	data, _ := os.ReadFile(filepath.Join(f.s.Clone, a.File))
	data[len(data)-1] ^= 1
	os.WriteFile(filepath.Join(f.s.Clone, a.File), data, 0o600)
	os.Remove(filepath.Join(f.s.Clone, b.File))
	rep, err = Verify(context.Background(), f.s, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []VerifyResult{
		{File: a.File, Created: "2026-11-26T03:30:00Z", StoreVersion: a.StoreVersion, Gate: GateTag},
		{File: b.File, Created: "2026-11-26T04:30:00Z", StoreVersion: b.StoreVersion, Gate: GateMagic},
	}
	for i := range rep.Results {
		rep.Results[i].Problem = ""
	}
	if diff := cmp.Diff(want, rep.Results); diff != "" || rep.Failed != 2 {
		t.Errorf("verify of a damaged and a missing snapshot (-want +got)\n%s", diff)
	}
}

// TestRotatedKeySealsNewSnapshotsOnly: after a new passphrase, new
// snapshots need it and old ones keep needing the old one.
func TestRotatedKeySealsNewSnapshotsOnly(t *testing.T) {
	f := newFixture(t, nil)
	old := f.mustRun()
	f.s.Key = EnvKey("the new passphrase after rotation")
	fresh := f.mustRun()
	rep, err := Verify(context.Background(), f.s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed != 1 || rep.Results[0].File != old.File || rep.Results[0].Gate != GateTag || !strings.Contains(rep.Results[0].Problem, "rotate-key") {
		t.Errorf("verify with the new passphrase: %+v", rep.Results)
	}
	if r, _, err := f.restore("", false); err != nil || r.File != fresh.File {
		t.Errorf("the newest with the new passphrase: %v", err)
	}
	f.s.Key = EnvKey(testPass)
	if r, _, err := f.restore(old.File, false); err != nil || r.File != old.File {
		t.Errorf("the old one with the old passphrase: %v", err)
	}
}

func TestRestoreApplyRefusedWhileTheGuardRuns(t *testing.T) {
	f := newFixture(t, nil)
	f.mustRun()
	lk, err := os.OpenFile(filepath.Join(f.s.GuardDir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Close()
	if err := syscall.Flock(int(lk.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	before := tree(t, f.data, clone, "board.json.lock")
	if _, out, err := f.restore("", true); err == nil || !strings.Contains(err.Error(), "guard sidecar is running") {
		t.Fatalf("apply while the guard runs: %v\n%s", err, out)
	}
	if diff := cmp.Diff(before, tree(t, f.data, clone, "board.json.lock")); diff != "" {
		t.Errorf("the refused apply changed the data (-before +after)\n%s", diff)
	}
}
