package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/store"
)

const restoreUsage = `usage: board restore [--apply] [--data board.json] <snapshot-file>

Puts a local snapshot (snapshots/board-<time>-v<version>.json.gz beside the
document, or a plain board.json such as one kept in pre-restore-<time>/) back
as the board's state. Without --apply it only says what it would restore and
what would be lost, and writes nothing. With --apply, while no board runs on
the document, it moves the current document and journal into
pre-restore-<time>/ beside them and installs the snapshot with a version and
id counters above every one the board handed out.`

// restore is the restore subcommand: a dry run unless --apply is given.
func restore(out io.Writer, args []string, now time.Time) error {
	data := envOr("SVC_BOARD_DATA", defaultDataPath())
	fs := flag.NewFlagSet("board restore", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() { fmt.Fprintln(out, restoreUsage) }
	apply := fs.Bool("apply", false, "restore for real (the board must be stopped)")
	fs.StringVar(&data, "data", data, "path of the store document (SVC_BOARD_DATA)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("name one snapshot file")
	}
	plan, err := store.Restore(data, fs.Arg(0), *apply, now)
	if plan != nil {
		writePlan(out, data, plan, *apply)
	}
	return err
}

// writePlan says what the restore does (or did) in a few lines.
func writePlan(out io.Writer, data string, p *store.RestorePlan, applied bool) {
	if applied {
		fmt.Fprintf(out, "Restored %s into %s.\n", p.Snapshot, data)
	} else {
		fmt.Fprintf(out, "Dry run: nothing written. Restoring %s into %s would do this:\n", p.Snapshot, data)
	}
	if p.CurrentUnreadable != "" {
		fmt.Fprintf(out, "  (the current document does not read: %s; compared with the newest snapshot and the journal)\n", p.CurrentUnreadable)
	}
	fmt.Fprintf(out, "  snapshot at version %d holds: %s\n", p.SnapshotVersion, counts(p, func(d store.RestoreDiff) int { return d.Snapshot }))
	fmt.Fprintf(out, "  the board now, at version %d, holds: %s\n", p.CurrentVersion, counts(p, func(d store.RestoreDiff) int { return d.Current }))
	verb := map[bool][3]string{false: {"would be lost", "would go back to the snapshot's version", "would come back"}, true: {"lost", "back to the snapshot's version", "came back"}}[applied]
	for i, pick := range []func(store.RestoreDiff) []string{
		func(d store.RestoreDiff) []string { return d.Lost },
		func(d store.RestoreDiff) []string { return d.Changed },
		func(d store.RestoreDiff) []string { return d.Back },
	} {
		var parts []string
		for _, d := range p.Collections {
			if ids := pick(d); len(ids) > 0 {
				parts = append(parts, fmt.Sprintf("%s %s", d.Name, idList(ids)))
			}
		}
		if len(parts) == 0 {
			parts = []string{"nothing"}
		}
		fmt.Fprintf(out, "  %s: %s\n", verb[i], strings.Join(parts, "; "))
	}
	keys := make([]string, 0, len(p.Counters))
	for k := range p.Counters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var next []string
	for _, k := range keys {
		next = append(next, fmt.Sprintf("%s-%d", k, p.Counters[k]+1))
	}
	fmt.Fprintf(out, "  the board continues at version %d; the next ids are %s\n", p.NewVersion, strings.Join(next, ", "))
	if applied {
		fmt.Fprintf(out, "  the previous document and journal are in %s\n", p.Aside)
	} else {
		fmt.Fprintln(out, "Run again with --apply, with the board stopped, to restore.")
	}
}

func counts(p *store.RestorePlan, n func(store.RestoreDiff) int) string {
	var parts []string
	for _, d := range p.Collections {
		parts = append(parts, fmt.Sprintf("%d %s", n(d), d.Name))
	}
	return strings.Join(parts, ", ")
}

// idList names up to 20 ids and counts the rest.
func idList(ids []string) string {
	const shown = 20
	if len(ids) <= shown {
		return fmt.Sprintf("(%d) %s", len(ids), strings.Join(ids, ", "))
	}
	return fmt.Sprintf("(%d) %s and %d more", len(ids), strings.Join(ids[:shown], ", "), len(ids)-shown)
}
