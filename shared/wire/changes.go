package wire

import "encoding/json"

// Record kinds of GET /api/changes: one per stored collection, plus the
// board's single objects (prefs, labelSources).
const (
	KindCaseRecord      = "case"
	KindMessageRecord   = "message"
	KindEventRecord     = "event"
	KindReminderRecord  = "reminder"
	KindPriorityRecord  = "priority"
	KindLabelRecord     = "label"
	KindProposalRecord  = "proposal"
	KindViewRecord      = "view"
	KindTemplateRecord  = "template"
	KindIngestRunRecord = "ingestRun"
	// KindIdempotencyRecord is the board's own bookkeeping of keyed
	// creates; GET /api/changes leaves it out.
	KindIdempotencyRecord = "idempotencyKey"
	KindBoardActivity     = "boardActivity"
	KindPageEdits         = "pageEdits"
	KindPrefsRecord       = "prefs"        // id "prefs"; the record is the prefs object
	KindLabelSources      = "labelSources" // id "labelSources"; which bundles are installed
)

// ViewSummary is the value of the view query parameter that asks a list
// read (GET /api/cases, /api/tree, /api/messages, /api/activity) for its
// summary projection; "" or "full" is the full record.
const ViewSummary = "summary"

// Changes is GET /api/changes?since=<version>: every record the writes
// after since changed, in the form a list holds it (a case as CaseSummary,
// a message as MessageSummary, every other kind whole), and every record
// they removed. A record changed by several writes appears once, as it is
// now; one created and removed in the span appears only in removed.
//
// Reset is set, with nothing else but Version, when the board cannot say
// what changed since that version: the client is older than the writes the
// board still remembers, or ahead of the board (it restarted, or was
// restored). The client then reloads what it holds.
type Changes struct {
	Changed []ChangedRecord `json:"changed"`
	Removed []RecordRef     `json:"removed"`
	Reset   bool            `json:"reset,omitempty"`
	Version int64           `json:"version"`
}

// ChangedRecord is one record as it stands after the writes.
type ChangedRecord struct {
	// Actor made the last of the writes that changed the record, so a page
	// can say what the agent just did without asking for the activity.
	Actor  Actor           `json:"actor,omitempty"`
	ID     string          `json:"id"`
	Kind   string          `json:"kind"`
	Record json.RawMessage `json:"record"`
}

// RecordRef names a record: its kind and id.
type RecordRef struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}
