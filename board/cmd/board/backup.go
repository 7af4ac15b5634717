package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/opsboard/opsboard/board/internal/backup"
	"github.com/opsboard/opsboard/shared/wire"
	"golang.org/x/term"
)

const backupUsage = `usage: board backup <command> [--data board.json]

  run                  back up now: seal a snapshot into the repository, commit, push
  status [--json]      the last run, the push state, the history and the readiness checklist
  restore [--apply] [file]
                       check a snapshot (default: the newest) through every gate and say
                       what restoring it would do; --apply restores it (the board stopped)
  verify               check every snapshot in the repository through every gate
  init <repository>    set the repository and the recovery passphrase
  rotate-key           a new passphrase for new snapshots (old ones keep theirs)

Exit codes of run: 0 pushed, 2 committed locally only (the push failed), 3 another
run holds the lock (nothing done), 1 the repository check refused, 4 a hard failure.
Other commands: 0 done, 4 refused or failed, 64 bad usage.`

// Exit codes beyond the run's own (backup.Exit*).
const exitUsage = 64

// backupCommand is `board backup ...`; it returns the exit code.
func backupCommand(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, backupUsage)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	sub := args[0]
	fs := flag.NewFlagSet("board backup "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := getenv("SVC_BOARD_DATA")
	if data == "" {
		data = defaultDataPath()
	}
	fs.StringVar(&data, "data", data, "path of the store document (SVC_BOARD_DATA)")
	apply := fs.Bool("apply", false, "restore: restore for real (the board must be stopped)")
	asJSON := fs.Bool("json", false, "status: print the status as JSON")
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return exitUsage
	}
	s, err := backup.SettingsFrom(getenv, data)
	if err != nil {
		fmt.Fprintln(stderr, "board backup:", err)
		return backup.ExitFailed
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	c := backupCall{ctx: ctx, s: s, sub: sub, stdout: stdout, stderr: stderr}
	switch {
	case sub == "run" && len(pos) == 0:
		return c.run()
	case sub == "status" && len(pos) == 0:
		return c.status(*asJSON)
	case sub == "restore" && len(pos) <= 1:
		return c.restore(arg0(pos), *apply)
	case sub == "verify" && len(pos) == 0:
		return c.verify()
	case sub == "init" && len(pos) == 1:
		return c.done(backupInit(s, arg0(pos), stdin, stdout, getenv))
	case sub == "rotate-key" && len(pos) == 0:
		return c.done(rotateKey(stdin, stdout, getenv))
	}
	fmt.Fprintln(stderr, backupUsage)
	return exitUsage
}

// backupCall is one `board backup` subcommand's settings and streams.
type backupCall struct {
	ctx            context.Context
	s              backup.Settings
	sub            string
	stdout, stderr io.Writer
}

// fail says why the subcommand failed and returns its exit code.
func (c backupCall) fail(err error) int {
	fmt.Fprintf(c.stderr, "board backup %s: %v\n", c.sub, err)
	return backup.ExitFailed
}

// done is the exit code of a subcommand that answers only an error.
func (c backupCall) done(err error) int {
	if err != nil {
		return c.fail(err)
	}
	return 0
}

// run is `board backup run`: its exit code is the run's.
func (c backupCall) run() int {
	prog := newProgress(c.stderr, "board backup run", "steps", -1)
	r := backup.Run(c.ctx, c.s, backup.FileSource(c.s.StorePath), stepLog{w: c.stdout, p: prog})
	prog.done(r.Outcome)
	if r.Exit != backup.ExitPushed && r.Error != "" {
		fmt.Fprintf(c.stderr, "board backup run: %s: %s\n", r.Outcome, r.Error)
	}
	return r.Exit
}

// status is `board backup status [--json]`.
func (c backupCall) status(asJSON bool) int {
	st := backup.Status(c.s)
	if asJSON {
		out, _ := json.MarshalIndent(st, "", "  ")
		fmt.Fprintln(c.stdout, string(out))
		return 0
	}
	writeStatus(c.stdout, st)
	return 0
}

// restore is `board backup restore [--apply] [file]`: the plan, and with
// apply the restore; what it found or did is written only when it passed.
func (c backupCall) restore(file string, apply bool) int {
	prog := newProgress(c.stderr, "board backup restore", "steps", -1)
	p, err := backup.Plan(c.ctx, c.s, file, stepLog{w: c.stderr, p: prog})
	var rep *backup.RestoreReport
	if err == nil {
		rep = p.Report
		if apply {
			prog.note("applying")
			rep, err = p.Apply(c.ctx)
		}
	}
	ok := "checked, nothing written"
	if apply {
		ok = "restored"
	}
	prog.done(outcome(err, ok))
	if err != nil {
		var ge *backup.GateError
		if errors.As(err, &ge) {
			return c.fail(fmt.Errorf("%w\nA snapshot that fails a gate is never applied: restore an earlier one (board backup status lists them)", err))
		}
		return c.fail(err)
	}
	if rep.File != "" {
		writeRestore(c.stdout, c.s.StorePath, rep)
	}
	return 0
}

// verify is `board backup verify`: every snapshot through every gate.
func (c backupCall) verify() int {
	prog := newProgress(c.stderr, "board backup verify", "steps", -1)
	rep, err := backup.Verify(c.ctx, c.s, stepLog{w: c.stderr, p: prog})
	if err == nil {
		prog.done(fmt.Sprintf("%d snapshots checked, %d failed", len(rep.Results), rep.Failed))
	} else {
		prog.done(outcome(err, ""))
		return c.fail(err)
	}
	for _, r := range rep.Results {
		if r.Gate == "" {
			fmt.Fprintf(c.stdout, "ok      %s (created %s, store version %d)\n", r.File, r.Created, r.StoreVersion)
		} else {
			fmt.Fprintf(c.stdout, "FAILED  %s at the %s gate: %s\n", r.File, r.Gate, r.Problem)
		}
	}
	fmt.Fprintf(c.stdout, "%d snapshots checked, %d failed\n", len(rep.Results), rep.Failed)
	if rep.Failed > 0 {
		return backup.ExitFailed
	}
	return 0
}

// parseInterleaved parses flags before, between and after the positional
// arguments (`restore <file> --apply` as well as `restore --apply <file>`).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func arg0(pos []string) string {
	if len(pos) == 0 {
		return ""
	}
	return pos[0]
}

// minPassphrase is the shortest passphrase init accepts: it is the only
// thing between the repository's host and the board's contents.
const minPassphrase = 12

func backupInit(s backup.Settings, repo string, stdin io.Reader, stdout io.Writer, getenv func(string) string) error {
	if err := backup.CheckRepo(repo); err != nil {
		return err
	}
	// The passphrase first: a refused one leaves the settings as they were.
	keyed := getenv("SVC_BACKUP_KEY") != ""
	if !keyed {
		pass, err := askPassphrase(stdin, stdout)
		if err != nil {
			return err
		}
		if err := backup.StoreKey(pass); err != nil {
			return err
		}
	}
	if old, err := backup.ReadConfig(s.DataDir); err == nil && old.Repo != "" && old.Repo != strings.TrimSpace(repo) {
		fmt.Fprintf(stdout, "The repository was %s; it is now %s.\n", old.Repo, repo)
	}
	if err := backup.Init(s, repo); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Backups of %s go to %s (written to %s).\n", s.StorePath, repo, backup.ConfigName)
	if keyed {
		fmt.Fprintln(stdout, "SVC_BACKUP_KEY is set: it is the recovery passphrase, and nothing is stored in the credential store.")
	} else {
		fmt.Fprintln(stdout, "The recovery passphrase is in the OS credential store.")
	}
	fmt.Fprintln(stdout, passphraseReminder)
	return nil
}

const passphraseReminder = `
WRITE THE PASSPHRASE DOWN NOW and keep it away from this machine (a password
manager, or paper in a drawer). Without it no backup can ever be restored, and
it is not shown or stored anywhere else. To restore on a new machine you need
only it and the repository URL.`

func rotateKey(stdin io.Reader, stdout io.Writer, getenv func(string) string) error {
	if getenv("SVC_BACKUP_KEY") != "" {
		return errors.New("SVC_BACKUP_KEY is set and overrides the credential store: change the passphrase where SVC_BACKUP_KEY is set")
	}
	pass, err := askPassphrase(stdin, stdout)
	if err != nil {
		return err
	}
	if err := backup.StoreKey(pass); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "New snapshots are sealed with the new passphrase. Snapshots made before now keep the old one:")
	fmt.Fprintln(stdout, "keep it too, for as long as you may want to restore them (SVC_BACKUP_KEY=<old passphrase> board backup restore <file>).")
	fmt.Fprintln(stdout, passphraseReminder)
	return nil
}

// askPassphrase asks twice, without echo on a terminal; from a pipe it
// reads two lines.
func askPassphrase(stdin io.Reader, stdout io.Writer) (string, error) {
	var read func(prompt string) (string, error)
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		read = func(prompt string) (string, error) {
			fmt.Fprint(stdout, prompt)
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(stdout)
			return string(b), err
		}
	} else {
		lines := bufio.NewReader(stdin)
		read = func(string) (string, error) {
			line, err := lines.ReadString('\n')
			if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
				return "", errors.New("give the passphrase twice, one line each, on standard input")
			}
			return strings.TrimRight(line, "\r\n"), nil
		}
	}
	first, err := read("Recovery passphrase: ")
	if err != nil {
		return "", err
	}
	if len([]rune(first)) < minPassphrase {
		return "", fmt.Errorf("the passphrase is shorter than %d characters", minPassphrase)
	}
	again, err := read("The same again: ")
	if err != nil {
		return "", err
	}
	if again != first {
		return "", errors.New("the two passphrases differ; nothing stored")
	}
	return first, nil
}

// writeStatus prints the status in readable lines.
func writeStatus(out io.Writer, st wire.BackupStatus) {
	fmt.Fprintf(out, "Backups: %s\n", strings.ToUpper(st.Verdict))
	for _, r := range st.Reasons {
		fmt.Fprintf(out, "  - %s\n", r)
	}
	fmt.Fprintf(out, "Repository: %s (from %s", orNone(st.Repo.Effective), st.Repo.Source)
	if st.Repo.Expected != "" && !st.Repo.Match {
		fmt.Fprintf(out, "; expected %s", st.Repo.Expected)
	}
	fmt.Fprintf(out, ")\nLocal copy: %s\n", st.Repo.Clone)
	if st.Running {
		fmt.Fprintln(out, "A run is going now.")
	}
	if r := st.LastRun; r != nil {
		fmt.Fprintf(out, "Last run: %s, %s (exit %d)", r.StartedAt, r.Outcome, r.Exit)
		if r.File != "" {
			fmt.Fprintf(out, ", %s, %d bytes, store version %d", r.File, r.Size, r.StoreVersion)
		}
		fmt.Fprintln(out)
		if r.Error != "" {
			fmt.Fprintf(out, "  error: %s\n", r.Error)
		}
		for _, w := range r.Warnings {
			fmt.Fprintf(out, "  WARNING: %s\n", w)
		}
	} else {
		fmt.Fprintln(out, "Last run: never")
	}
	fmt.Fprintf(out, "Push: %s", st.Push.State)
	if st.Push.At != "" {
		fmt.Fprintf(out, " at %s", st.Push.At)
	}
	if st.Push.Error != "" {
		fmt.Fprintf(out, ": %s", st.Push.Error)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Readiness:")
	for _, c := range st.Readiness {
		mark := "ok  "
		if !c.OK {
			mark = "MISSING"
		}
		fmt.Fprintf(out, "  [%s] %s: %s\n", mark, c.Label, c.Detail)
		if !c.OK && c.Fix != "" {
			fmt.Fprintf(out, "         %s\n", c.Fix)
		}
	}
	fmt.Fprintf(out, "Snapshots (%d, newest first):\n", len(st.Snapshots))
	for i, sn := range st.Snapshots {
		if i == 10 {
			fmt.Fprintf(out, "  ... and %d older\n", len(st.Snapshots)-10)
			break
		}
		fmt.Fprintf(out, "  %s  %s  %d bytes, store version %d, %d cases\n", sn.Created, sn.File, sn.Size, sn.StoreVersion, sn.Counts["cases"])
	}
	if len(st.Log) > 0 {
		fmt.Fprintln(out, "Log of the last run:")
		for _, l := range st.Log {
			fmt.Fprintf(out, "  %s\n", l)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// writeRestore says what the snapshot holds and what restoring it does
// (or did).
func writeRestore(out io.Writer, data string, rep *backup.RestoreReport) {
	fmt.Fprintf(out, "Snapshot %s from %s (created %s, store version %d) passed every gate: magic, authentication tags, sha256 against the manifest, every JSON store parses.\n",
		rep.File, rep.Repo, rep.Created, rep.StoreVersion)
	areas := make([]string, 0, len(rep.Files))
	for a := range rep.Files {
		areas = append(areas, a)
	}
	sort.Strings(areas)
	var parts []string
	for _, a := range areas {
		parts = append(parts, fmt.Sprintf("%s %d files (%d bytes)", a, rep.Files[a], rep.Bytes[a]))
	}
	fmt.Fprintf(out, "It holds: %s.\n", strings.Join(parts, ", "))
	if rep.Plan != nil {
		writePlan(out, data, rep.Plan, rep.Applied)
	}
	for _, i := range rep.Installed {
		fmt.Fprintf(out, "  installed %s\n", i)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(out, "  note: %s\n", n)
	}
	if rep.Applied {
		fmt.Fprintf(out, "Everything it replaced is in %s.\nStart the board now (board, or your service manager's start command).\n", rep.Aside)
	}
}
