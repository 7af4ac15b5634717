package wire

// Backup verdicts of GET /api/backups.
const (
	BackupHealthy = "healthy" // a snapshot under a day old is pushed, and every readiness check passes
	BackupWarning = "warning" // backups run but something needs the person (stale, push failed, vault missing)
	BackupError   = "error"   // no backup can run or none has succeeded (no key, no git, the repository check refused)
)

// Backup run outcomes, one per exit code of `board backup run`.
const (
	BackupPushed    = "pushed"     // exit 0: written and pushed
	BackupLocalOnly = "local-only" // exit 2: committed locally, the push failed
	BackupLocked    = "locked"     // exit 3: another run held the lock; nothing done
	BackupRefused   = "repo-guard" // exit 1: the effective repo is not the expected one
	BackupFailed    = "failed"     // any other non-zero exit: a hard failure
)

// BackupStatus is GET /api/backups. It is always answered with 200 and is
// read from local files only: it never contacts the network, and it never
// reads or prints the passphrase.
type BackupStatus struct {
	Verdict string `json:"verdict"`
	// Reasons says, in words, why the verdict is not healthy.
	Reasons []string `json:"reasons"`
	// LastRun is the newest run's facts; absent before the first run.
	LastRun *BackupRun `json:"lastRun,omitempty"`
	Push    BackupPush `json:"push"`
	// Snapshots is the manifest's history, newest first.
	Snapshots []BackupSnapshot `json:"snapshots"`
	// Log is the tail of the newest run's log, oldest line first.
	Log       []string      `json:"log"`
	Repo      BackupRepo    `json:"repo"`
	Readiness []BackupCheck `json:"readiness"`
	// Running is true while a run holds the lock.
	Running bool `json:"running"`
	// Auto says whether the running board backs up on its own; filled by
	// the board, absent from the offline `board backup status`.
	Auto    *BackupAuto `json:"auto,omitempty"`
	Version int64       `json:"version"`
}

// BackupAuto is whether the board runs the daily and top-up backups: only
// the live board does (a repository and a key configured, no sandbox, and
// its data the live board's that `board backup init` recorded).
type BackupAuto struct {
	On bool `json:"on"`
	// Reason says why not, when not.
	Reason string `json:"reason,omitempty"`
	// NextDaily is the next daily run (RFC 3339), when On.
	NextDaily string `json:"nextDaily,omitempty"`
}

// BackupRun is what one run did.
type BackupRun struct {
	StartedAt  string `json:"startedAt"`
	FinishedAt string `json:"finishedAt,omitempty"`
	Exit       int    `json:"exit"`
	Outcome    string `json:"outcome"`
	// File is the snapshot the run wrote, relative to the repository.
	File         string         `json:"file,omitempty"`
	Size         int64          `json:"size,omitempty"`
	StoreVersion int64          `json:"storeVersion,omitempty"`
	Counts       map[string]int `json:"counts,omitempty"`
	Error        string         `json:"error,omitempty"`
	// Warnings are loud but not failures: a configured vault that is missing.
	Warnings []string `json:"warnings,omitempty"`
}

// BackupPush is the state of the last push, as its result left it.
type BackupPush struct {
	State string `json:"state"` // pushed, failed or never
	At    string `json:"at,omitempty"`
	Error string `json:"error,omitempty"`
}

// BackupSnapshot is one manifest entry: a snapshot file in the repository.
type BackupSnapshot struct {
	File         string         `json:"file"`
	SHA256       string         `json:"sha256"`
	Size         int64          `json:"size"`
	StoreVersion int64          `json:"storeVersion"`
	Counts       map[string]int `json:"counts"`
	Created      string         `json:"created"`
}

// BackupManifest is manifest.json at the repository's root.
type BackupManifest struct {
	Format    int              `json:"format"`
	Snapshots []BackupSnapshot `json:"snapshots"`
}

// BackupRepo is where backups go and where that setting came from.
type BackupRepo struct {
	Effective string `json:"effective"`
	// Source names what set Effective: SVC_BACKUP_REPO, backup.json or default.
	Source   string `json:"source"`
	Expected string `json:"expected,omitempty"`
	Match    bool   `json:"match"`
	// Clone is the local working copy the job commits in.
	Clone string `json:"clone,omitempty"`
}

// BackupCheck is one line of the readiness checklist.
type BackupCheck struct {
	ID     string `json:"id"` // key, git, repo, reachable
	Label  string `json:"label"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
	// Fix says what to do when the check fails.
	Fix string `json:"fix,omitempty"`
}

// BackupRunReply is the answer of POST /api/backups/run: 202 with Started,
// or 200 with Skipped "fresh" and the newest snapshot's time.
type BackupRunReply struct {
	Started bool   `json:"started,omitempty"`
	Skipped string `json:"skipped,omitempty"`
	Newest  string `json:"newest,omitempty"`
}
