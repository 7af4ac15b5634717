package render

import (
	"fmt"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// backupSnapshots is how many snapshots backup_status lists.
const backupSnapshots = 5

// BackupStatus renders backup_status: the verdict and its reasons, the
// automatic runs, the last run, the push, the newest snapshots and the
// failing readiness checks with their fixes, one fact a line.
func BackupStatus(s wire.BackupStatus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Backups: %s", s.Verdict)
	if s.Running {
		b.WriteString(" (a run is going now)")
	}
	b.WriteByte('\n')
	for _, r := range s.Reasons {
		fmt.Fprintf(&b, "- %s\n", oneLine(r))
	}
	if s.Auto != nil {
		if s.Auto.On {
			fmt.Fprintf(&b, "Automatic: on, next daily run %s\n", s.Auto.NextDaily)
		} else {
			fmt.Fprintf(&b, "Automatic: off (%s)\n", oneLine(s.Auto.Reason))
		}
	}
	if r := s.LastRun; r != nil {
		fmt.Fprintf(&b, "Last run: %s %s (exit %d)", r.StartedAt, r.Outcome, r.Exit)
		if r.File != "" {
			fmt.Fprintf(&b, " %s %s, store v%d", r.File, bytes(r.Size), r.StoreVersion)
		}
		if r.Error != "" {
			fmt.Fprintf(&b, ": %s", oneLine(r.Error))
		}
		b.WriteByte('\n')
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "Warning: %s\n", oneLine(w))
		}
	} else {
		b.WriteString("Last run: none yet\n")
	}
	switch s.Push.State {
	case "pushed":
		fmt.Fprintf(&b, "Push: pushed %s\n", s.Push.At)
	case "failed":
		fmt.Fprintf(&b, "Push: failed %s: %s\n", s.Push.At, oneLine(s.Push.Error))
	default:
		b.WriteString("Push: never\n")
	}
	fmt.Fprintf(&b, "Snapshots: %d", len(s.Snapshots))
	if len(s.Snapshots) > backupSnapshots {
		fmt.Fprintf(&b, " (newest %d)", backupSnapshots)
	}
	b.WriteByte('\n')
	for i, sn := range s.Snapshots {
		if i == backupSnapshots {
			break
		}
		fmt.Fprintf(&b, "- %s %s %s v%d %s\n", sn.Created, sn.File, bytes(sn.Size), sn.StoreVersion, counts(sn.Counts))
	}
	for _, c := range s.Readiness {
		if c.OK {
			continue
		}
		fmt.Fprintf(&b, "Not ready: %s", c.Label)
		if c.Fix != "" {
			fmt.Fprintf(&b, " - fix: %s", oneLine(c.Fix))
		}
		b.WriteByte('\n')
	}
	if s.Repo.Effective != "" {
		fmt.Fprintf(&b, "Repository: %s (from %s)", s.Repo.Effective, s.Repo.Source)
		if !s.Repo.Match {
			fmt.Fprintf(&b, ", not the expected %q", s.Repo.Expected)
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

func bytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// counts is "3 cases, 10 messages", by name.
func counts(c map[string]int) string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", c[k], k))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
