package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/opsboard/opsboard/board/internal/backup/schedule"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// noBackups is the status of a board wired without backup settings (a
// test's board): still the fail-safe 200 envelope, with the reason.
func noBackups() wire.BackupStatus {
	return wire.BackupStatus{
		Verdict: wire.BackupError, Reasons: []string{"this board was started without backup settings"},
		Push: wire.BackupPush{State: "never"}, Snapshots: []wire.BackupSnapshot{}, Log: []string{}, Readiness: []wire.BackupCheck{},
	}
}

// GET /api/backups: always 200, read from local files only; it also fires
// the non-blocking top-up.
func (a *API) getBackups(w http.ResponseWriter, r *http.Request) {
	st := noBackups()
	if a.backups != nil {
		a.backups.TopUp()
		st = a.backups.Status()
	}
	st.Version = a.store.Version()
	httpjson.Reply(w, http.StatusOK, st)
}

// POST /api/backups/run[?force=1]: 202 started, 200 skipped while the
// newest snapshot is fresh, 409 while a run is going, 403 in a sandbox.
func (a *API) runBackup(w http.ResponseWriter, r *http.Request) {
	var in wire.ActorOnly
	if err := decodeOptional(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	if a.backups == nil {
		httpjson.Reply(w, http.StatusForbidden, wire.ErrorReply{Error: "this board was started without backup settings"})
		return
	}
	ans, err := a.backups.Start(boolQuery(r, "force"))
	switch {
	case errors.Is(err, schedule.ErrSandbox):
		httpjson.Reply(w, http.StatusForbidden, wire.ErrorReply{Error: err.Error()})
	case errors.Is(err, schedule.ErrRunning):
		httpjson.Reply(w, http.StatusConflict, wire.ErrorReply{Error: err.Error()})
	case err != nil:
		a.fail(w, err)
	case ans.Started:
		a.log.Info("backup.requested", "actor", actorOf(r, in.Actor), "force", boolQuery(r, "force"))
		httpjson.Reply(w, http.StatusAccepted, ans)
	default:
		httpjson.Reply(w, http.StatusOK, ans)
	}
}

// logBackup gives a finished backup run its row in the Activity feed, as
// the system: the run's own log stays beside the data, but the person reads
// the board.
func (a *API) logBackup(r wire.BackupRun) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := activity.OnBackup(ctx, a.store, r); err != nil {
		a.log.Warn("backup.activity", "err", err)
	}
}
