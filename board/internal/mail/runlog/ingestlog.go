// Package ingestlog keeps the reports of mail ingest runs on the board: each
// run is one record of its own kind, the newest MaxRuns kept, and the
// Activity feed shows each as one system row.
package runlog

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// MaxRuns is how many run reports the board keeps.
const MaxRuns = wire.MaxIngestRuns

// MaxErrors is how many error lines a stored report keeps.
const MaxErrors = wire.MaxIngestRunErrors

// RecordTx stores run with a fresh id and the write's time, and drops the
// oldest reports beyond MaxRuns.
func RecordTx(tx *store.Tx, run wire.IngestRun) (*wire.IngestRun, error) {
	for _, n := range []struct {
		name string
		v    int
	}{{"fetched", run.Fetched}, {"new", run.New}, {"duplicates", run.Duplicates}, {"olderSkipped", run.OlderSkipped}, {"quarantined", run.Quarantined},
		{"blocked", run.Blocked}, {"unscanned", run.Unscanned}, {"replayed", run.Replayed},
		{"routed.case", run.Routed.Case}, {"routed.reminder", run.Routed.Reminder}, {"routed.inbox", run.Routed.Inbox}} {
		if n.v < 0 {
			return nil, errs.BadRequest("field '%s' must not be negative", n.name)
		}
	}
	if run.Errors == nil {
		run.Errors = []string{}
	}
	if len(run.Errors) > MaxErrors { // a run over a broken mailbox must not bloat the document
		more := len(run.Errors) - MaxErrors
		run.Errors = append(run.Errors[:MaxErrors:MaxErrors], fmt.Sprintf("and %d more", more))
	}
	run.ID, run.At = tx.NextID("RUN"), tx.Stamp()
	tx.IngestRuns().Put(&run)
	runs := tx.Doc().IngestRuns
	if extra := runs.Len() - MaxRuns; extra > 0 {
		old := runs.Slice()
		sort.SliceStable(old, func(i, j int) bool { return runNumber(old[i].ID) < runNumber(old[j].ID) })
		for _, r := range old[:extra] {
			tx.IngestRuns().Delete(r.ID)
		}
	}
	return &run, nil
}

// Record stores run as one write.
func Record(ctx context.Context, s *store.Store, actor wire.Actor, run wire.IngestRun) (*wire.IngestRun, int64, error) {
	var out *wire.IngestRun
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		r, err := RecordTx(tx, run)
		out = r
		return err
	})
	return out, v, err
}

func runNumber(id string) int64 {
	n, _ := strconv.ParseInt(strings.TrimPrefix(id, "RUN-"), 10, 64)
	return n
}
