package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/export"
	"github.com/opsboard/opsboard/board/internal/imports/csvmap"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// The export and import subcommands. Export asks the running board (its
// snapshot is the state), and when no board answers it reads the document
// and journal from disk, which hold every acknowledged write, and renders
// them with the same code: a stopped board can still be exported. Import
// always goes through the running board's POST /api/import, so it writes
// through the one write path with its rules, lock and journal.

const exportUsage = `usage: board export [--format json|csv|markdown] [--out file]

Writes the whole board: json (the store document, for a full copy or an
import elsewhere), csv (cases and tasks) or markdown (a zip, one file per
initiative). Without --out it writes to standard output.`

const importUsage = `usage: board import <file> [--apply] [--format auto|json|todoist|trello|csv] [--map col=field,...] [--title name]

Imports the board's own JSON export, a Todoist backup CSV, a Trello board JSON
export or any CSV (columns mapped with --map) into the running board. Without
--apply it only counts what it would create. Records brought by an earlier
import of the same file are skipped.`

// exportCommand is `board export`; it returns the exit code.
func exportCommand(args []string, stdout, stderr io.Writer, now time.Time) int {
	fs := flag.NewFlagSet("board export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, exportUsage); fs.PrintDefaults() }
	cfg, finish, err := configFlags(fs)
	if err != nil {
		fmt.Fprintln(stderr, "board export:", err)
		return 2
	}
	format := fs.String("format", "json", "json, csv or markdown")
	out := fs.String("out", "", "file to write (default: standard output)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	finish()
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	data, from, err := exportFrom(ctx, cfg.addr, cfg.data, *format, now)
	if err != nil {
		fmt.Fprintln(stderr, "board export:", err)
		return 1
	}
	if *out == "" {
		stdout.Write(data)
		return 0
	}
	if err := os.WriteFile(*out, data, 0o600); err != nil {
		fmt.Fprintln(stderr, "board export:", err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote %s (%d bytes) from %s\n", *out, len(data), from)
	return 0
}

// exportFrom asks the board at addr, or renders the store files at data
// when nothing listens there.
func exportFrom(ctx context.Context, addr, data, format string, now time.Time) ([]byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, boardBase(addr)+"/api/export?format="+url.QueryEscape(format), nil)
	if err != nil {
		return nil, "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, "", fmt.Errorf("read the export: %w", err)
		}
		if resp.StatusCode != http.StatusOK {
			return nil, "", boardRefusal(resp.StatusCode, body)
		}
		return body, "the running board at " + addr, nil
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return nil, "", fmt.Errorf("ask the board at %s: %w", addr, err)
	}
	d, lerr := storefile.Load(data)
	if lerr != nil {
		return nil, "", fmt.Errorf("no board answers at %s and the store files do not read: %w", addr, lerr)
	}
	f, rerr := export.Render(d, format, now)
	if rerr != nil {
		return nil, "", rerr
	}
	return f.Data, "the store files at " + data + " (no board answered at " + addr + ")", nil
}

// importCommand is `board import`; it returns the exit code.
func importCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("board import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, importUsage); fs.PrintDefaults() }
	cfg, finish, err := configFlags(fs)
	if err != nil {
		fmt.Fprintln(stderr, "board import:", err)
		return 2
	}
	apply := fs.Bool("apply", false, "import for real (default: a dry run that counts)")
	format := fs.String("format", wire.ImportAuto, "auto, json, todoist, trello or csv")
	mapping := fs.String("map", "", "CSV columns to fields, e.g. Name=title,Due=dueAt")
	title := fs.String("title", "", "the initiative a Todoist backup or a CSV goes under (default for Todoist: the file's name)")
	// The file may come before or after the flags.
	var files []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	finish()
	if len(files) != 1 {
		fs.Usage()
		return 2
	}
	m, err := csvmap.ParseMap(*mapping)
	if err != nil {
		fmt.Fprintln(stderr, "board import: --map:", err)
		return 2
	}
	content, err := os.ReadFile(files[0])
	if err != nil {
		fmt.Fprintln(stderr, "board import:", err)
		return 1
	}
	in := wire.ImportRequest{Format: *format, Content: string(content), Map: m, Title: *title}
	if in.Title == "" && (*format == wire.ImportTodoist || *format == wire.ImportAuto) && strings.HasPrefix(strings.TrimPrefix(string(content), "\ufeff"), "TYPE,CONTENT") {
		in.Title = strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	prog := newProgress(stderr, "board import", "bytes", -1)
	rep, err := postImport(ctx, cfg.addr, in, !*apply, prog)
	prog.done(outcome(err, "sent; the board answered"))
	if err != nil {
		fmt.Fprintln(stderr, "board import:", err)
		return 1
	}
	c := rep.Created
	verb := "created"
	if rep.DryRun {
		verb = "dry run, nothing written; would create"
	}
	fmt.Fprintf(stdout, "%s (%s): %d labels, %d initiatives, %d workstreams, %d cases, %d tasks, %d notes; skipped %d already imported\n",
		verb, rep.Format, c.Labels, c.Initiatives, c.Workstreams, c.Cases, c.Tasks, c.Notes, c.Skipped)
	if rep.DryRun {
		fmt.Fprintln(stdout, "run again with --apply to import")
	}
	return 0
}

func postImport(ctx context.Context, addr string, in wire.ImportRequest, dry bool, prog *progress) (wire.ImportReply, error) {
	var rep wire.ImportReply
	body, err := json.Marshal(in)
	if err != nil {
		return rep, err
	}
	u := boardBase(addr) + "/api/import"
	if dry {
		u += "?dryRun=1"
	}
	prog.setTotal(int64(len(body)))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, counted{r: bytes.NewReader(body), p: prog})
	if err != nil {
		return rep, err
	}
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return rep, fmt.Errorf("the board does not answer at %s (an import writes through the running board: start it first): %w", addr, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return rep, fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return rep, boardRefusal(resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return rep, fmt.Errorf("read the answer: %w", err)
	}
	return rep, nil
}

// boardRefusal is the board's own words for a refused request.
func boardRefusal(code int, body []byte) error {
	var e wire.ErrorReply
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return fmt.Errorf("the board refused (%d): %s", code, e.Error)
	}
	return fmt.Errorf("the board answered %d", code)
}

// boardBase is the board's URL from its listen address.
func boardBase(addr string) string {
	base := strings.TrimRight(addr, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	return base
}
