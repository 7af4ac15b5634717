package backup

import (
	"fmt"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// healthyWithin is how recent the last push must be for a healthy verdict.
const healthyWithin = 24 * time.Hour

// logLines is how much of the newest run's log the status carries.
const logLines = 40

// Status is the backup health as the local files tell it: the verdict and
// why, the last run, the push state, the history, the log tail, where the
// repository setting came from and the readiness checklist. It is
// read-only and offline: it never contacts the network and never reads
// the passphrase (the credential store is only searched, where it can be).
// Version is left for the caller.
func Status(s Settings) wire.BackupStatus {
	st := readState(s.DataDir)
	out := wire.BackupStatus{
		Reasons:   []string{},
		LastRun:   st.LastRun,
		Push:      st.Push,
		Snapshots: []wire.BackupSnapshot{},
		Log:       logTail(s.DataDir, logLines),
		Repo:      s.Repo,
		Running:   LockHeld(s),
	}
	m, merr := readManifest(s.Clone)
	out.Snapshots = newestFirst(m)
	out.Readiness = readiness(s, st)

	var errs, warns []string
	if s.ConfigError != "" {
		errs = append(errs, s.ConfigError)
	}
	for _, c := range out.Readiness {
		if !c.OK && c.ID != "reachable" {
			errs = append(errs, c.Label+": "+c.Detail)
		}
	}
	if merr != nil {
		warns = append(warns, merr.Error())
	}
	now := s.now()
	if len(out.Snapshots) == 0 {
		if st.LastRun != nil && st.LastRun.Exit != ExitLocked {
			errs = append(errs, "no backup has succeeded yet: "+orOutcome(st.LastRun))
		} else {
			warns = append(warns, "no backup has run yet")
		}
	} else {
		if t, err := time.Parse(time.RFC3339, out.Snapshots[0].Created); err == nil && now.Sub(t) > healthyWithin {
			warns = append(warns, fmt.Sprintf("the newest snapshot is %s old", age(now.Sub(t))))
		}
		if r := st.LastRun; r != nil && r.Exit != ExitPushed && r.Exit != ExitLocalOnly && r.Exit != ExitLocked {
			warns = append(warns, "the last run did not back up: "+orOutcome(r))
		}
	}
	switch st.Push.State {
	case "failed":
		warns = append(warns, "the last push failed ("+st.Push.Error+"); its snapshots are committed in the local copy and go with the next push")
	case "pushed":
		if t, err := time.Parse(time.RFC3339, st.Push.At); err == nil && now.Sub(t) > healthyWithin && len(out.Snapshots) > 0 {
			warns = append(warns, fmt.Sprintf("nothing pushed for %s", age(now.Sub(t))))
		}
	}
	if st.LastRun != nil {
		warns = append(warns, st.LastRun.Warnings...)
	}
	switch {
	case len(errs) > 0:
		out.Verdict, out.Reasons = wire.BackupError, append(errs, warns...)
	case len(warns) > 0:
		out.Verdict, out.Reasons = wire.BackupWarning, warns
	default:
		out.Verdict = wire.BackupHealthy
	}
	return out
}

func orOutcome(r *wire.BackupRun) string {
	if r.Error != "" {
		return r.Error
	}
	return r.Outcome
}

func age(d time.Duration) string {
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	}
	return fmt.Sprintf("%d hours", int(d/time.Hour))
}

// readiness is the checklist: key, git, repo, reachable.
func readiness(s Settings, st state) []wire.BackupCheck {
	keyOK, keyDetail := s.key().Present()
	gitOK, gitDetail := gitPresent(s.git())
	repo := wire.BackupCheck{ID: "repo", Label: "Repository configured", OK: true,
		Detail: fmt.Sprintf("%s (from %s)", s.Repo.Effective, s.Repo.Source)}
	switch {
	case s.Repo.Effective == "":
		repo.OK, repo.Detail = false, "no repository is configured"
		repo.Fix = "Run `board backup init <repository URL>` with a private git repository you can push to."
	case !s.Repo.Match && !s.AllowNonDefault:
		repo.OK, repo.Detail = false, repoRefusal(s.Repo)
		repo.Fix = "Unset SVC_BACKUP_REPO, or run `board backup init` with the repository you mean."
	case !s.Repo.Match:
		repo.Detail += "; not the expected repository, allowed by SVC_BACKUP_ALLOW_NONDEFAULT=1"
	}
	reach := wire.BackupCheck{ID: "reachable", Label: "Repository reachable (as of the last push)", OK: st.Push.State == "pushed"}
	switch st.Push.State {
	case "pushed":
		reach.Detail = "pushed at " + st.Push.At
	case "failed":
		reach.Detail = "the push at " + st.Push.At + " failed: " + st.Push.Error
		reach.Fix = "Check that this machine can push to the repository (git push from " + s.Clone + "), then Back up now."
	default:
		reach.Detail = "nothing pushed yet"
		reach.Fix = "Back up now to push the first snapshot."
	}
	checks := []wire.BackupCheck{
		{ID: "key", Label: "Recovery passphrase present", OK: keyOK, Detail: keyDetail},
		{ID: "git", Label: "git installed", OK: gitOK, Detail: gitDetail},
		repo,
		reach,
	}
	if !keyOK {
		checks[0].Fix = "Run `board backup init <repository URL>` to set the passphrase, or set SVC_BACKUP_KEY."
	}
	if !gitOK {
		checks[1].Fix = "Install git (https://git-scm.com/downloads)."
	}
	return checks
}
