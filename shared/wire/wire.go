// Package wire is the board's contract, written once: its records, and every
// request body and reply of its HTTP API, with the JSON field names the board
// reads and writes. The board daemon encodes these types, its client and tool
// servers decode them, and the sidecars share the records.
package wire

import (
	"encoding/json"
	"strings"
)

// SchemaVersion is the store schema this code writes. Older files migrate on read.
const SchemaVersion = 9

// Actor is who made a write: the person, the agent, or the board itself
// (ingest, scheduled jobs). It is stored as its word, so documents stay
// readable and old ones load unchanged.
type Actor string

// Actors recorded on activity.
const (
	ActorHuman  Actor = "human"
	ActorAgent  Actor = "agent"
	ActorSystem Actor = "system"
)

// Case is a node of the board: an initiative, a workstream or a leaf case.
type Case struct {
	ID         string     `json:"id"`
	Title      string     `json:"title"`
	Summary    string     `json:"summary,omitempty"`
	Status     Lane       `json:"status"`
	Domain     Domain     `json:"domain"`
	Tags       []string   `json:"tags,omitempty"`
	Labels     []string   `json:"labels,omitempty"`
	Eta        string     `json:"eta,omitempty"`
	DueAt      string     `json:"dueAt,omitempty"`
	VaultLinks []string   `json:"vaultLinks,omitempty"`
	Tasks      []Task     `json:"tasks,omitempty"`
	Notes      []Note     `json:"notes,omitempty"`
	Activity   []Activity `json:"activity,omitempty"`
	Kind       Kind       `json:"kind"`
	ParentID   string     `json:"parentId,omitempty"`
	Starred    bool       `json:"starred,omitempty"`
	ArchivedAt string     `json:"archivedAt,omitempty"`
	MergedInto string     `json:"mergedInto,omitempty"`
	Position   *float64   `json:"position,omitempty"`
	CreatedAt  string     `json:"createdAt"`
	UpdatedAt  string     `json:"updatedAt"`
	// HumanEdits is, per field, the person's last change to it, so an
	// agent write neither reverts it nor changes it again too soon.
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
	// SourceID is the record's own id in the board or app it was imported
	// from ("trello:5f1c...", "todoist:9c1e...", "opsboard:CASE-12"), so
	// importing the same file again creates nothing new.
	SourceID string `json:"sourceId,omitempty"`
}

// Key is the record's id; every stored collection has one.
func (c *Case) Key() string { return c.ID }

// IsContainer reports whether the node may hold children.
func (c *Case) IsContainer() bool { return c.Kind == KindInitiative || c.Kind == KindWorkstream }

// Task is one row of a case's checklist.
type Task struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Detail      string   `json:"detail,omitempty"`
	CompletedAt string   `json:"completedAt,omitempty"`
	DueAt       string   `json:"dueAt,omitempty"`
	Position    *float64 `json:"position,omitempty"`
	CreatedAt   string   `json:"createdAt,omitempty"`
	// Repeat is the task's recurrence rule (an RRULE subset, see Reminder);
	// completing the task adds the next one. NextID is that next task, set
	// on the completed occurrence, which keeps no rule of its own.
	Repeat string `json:"repeat,omitempty"`
	NextID string `json:"nextId,omitempty"`
	// HumanEdits is, per field, the person's last change to it, so an
	// agent write neither reverts it nor changes it again too soon.
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
	// SourceID is the task's own id where it was imported from (a Trello
	// checklist item, a Todoist sub-task), so a re-import adds only new ones.
	SourceID string `json:"sourceId,omitempty"`
}

// Note is a free-form entry on a case by a human or the agent.
type Note struct {
	ID        string `json:"id"`
	Text      string `json:"text"`
	Actor     Actor  `json:"actor"`
	CreatedAt string `json:"createdAt"`
}

// Activity is one entry of a case's audit log (the last 50 are kept).
type Activity struct {
	Actor  Actor  `json:"actor"`
	Verb   Verb   `json:"verb"`
	TS     string `json:"ts"`
	Detail string `json:"detail,omitempty"`
}

// Addresses is a list of email participants. It also reads a single
// comma-separated string, which is how many mail tools hand them over.
type Addresses []string

// UnmarshalJSON accepts an array of strings or one comma-separated string.
func (a *Addresses) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*a = cleanAddresses(list)
		return nil
	}
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil {
		*a = nil
		return nil
	}
	*a = cleanAddresses(strings.Split(*s, ","))
	return nil
}

func cleanAddresses(in []string) Addresses {
	var out Addresses
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Message is a linked email (or other inbound message).
type Message struct {
	ID      string    `json:"id"`
	Source  string    `json:"source,omitempty"`
	From    string    `json:"from,omitempty"`
	To      Addresses `json:"to,omitempty"`
	Cc      Addresses `json:"cc,omitempty"`
	Subject string    `json:"subject,omitempty"`
	Preview string    `json:"preview,omitempty"`
	Body    string    `json:"body,omitempty"`
	// BodyRef stands for Body in the document on disk, whose bodies live in
	// the body file beside it; the board resolves it on reading, so no
	// answer carries it.
	BodyRef    *BodyRef `json:"bodyRef,omitempty"`
	ReceivedAt string   `json:"receivedAt,omitempty"`
	Read       bool     `json:"read"`
	CaseID     string   `json:"caseId,omitempty"`
	ReminderID string   `json:"reminderId,omitempty"`
	Outbound   bool     `json:"outbound,omitempty"`
	URL        string   `json:"url,omitempty"`
	// MessageID is the mail's Message-ID header: the dedupe key when set.
	MessageID string `json:"messageId,omitempty"`
	// ThreadID is the Message-ID of the thread's first mail, from the
	// In-Reply-To and References headers, or the mail's own.
	ThreadID string `json:"threadId,omitempty"`
	// Scan is how the guard screened the mail on the way in (ScanClean,
	// ScanUnscanned, ScanReleased); empty for a message not ingested.
	Scan string `json:"scan,omitempty"`
	// Entities are the vault pages (V-<n>) the board resolved the mail's
	// sender to (for outbound mail, its recipients): a person page by
	// address, else an organisation page by domain. The board sets them.
	Entities []string `json:"entities,omitempty"`
	// HumanEdits is, per field, the person's last change to it (see Case).
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
	// Truncated names what of the mail was cut to a limit on the way in
	// ("body", "to", "subject", ...); OriginalSizes holds, for the ones
	// with a size, the size before the cut (bytes, characters or a count).
	Truncated     []string         `json:"truncated,omitempty"`
	OriginalSizes map[string]int64 `json:"originalSizes,omitempty"`
}

// Key is the record's id.
func (m *Message) Key() string { return m.ID }

// BodyRef names a message body in the body file by its content: the
// SHA-256 of the body's bytes (hex) and their count.
type BodyRef struct {
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Scan outcomes of an ingested message.
const (
	ScanClean     = "clean"     // the guard screened it and found nothing
	ScanUnscanned = "unscanned" // the guard was disabled or unreachable
	ScanReleased  = "released"  // a person released it from quarantine
)

// IngestRun is the report of one mail ingest run, kept so the Activity feed
// shows each run as one system row.
type IngestRun struct {
	ID         string `json:"id"`
	At         string `json:"at"`
	Fetched    int    `json:"fetched"`
	New        int    `json:"new"`
	Duplicates int    `json:"duplicates"`
	// OlderSkipped counts mail dated before its source's since, left out.
	OlderSkipped int          `json:"olderSkipped,omitempty"`
	Quarantined  int          `json:"quarantined"`
	Blocked      int          `json:"blocked"`
	Unscanned    int          `json:"unscanned"`
	Replayed     int          `json:"replayed,omitempty"`
	Routed       IngestRouted `json:"routed"`
	Errors       []string     `json:"errors"`
	Sources      []string     `json:"sources,omitempty"`
}

// IngestRouted counts where the new messages of a run went.
type IngestRouted struct {
	Case     int `json:"case"`
	Reminder int `json:"reminder"`
	Inbox    int `json:"inbox"`
}

// Key is the record's id.
func (r *IngestRun) Key() string { return r.ID }

// BoardActivity is an Activity feed row that belongs to no case: an
// override of the person's change to a priority note, a label, a saved
// view or a template. The newest MaxBoardActivity are kept.
type BoardActivity struct {
	ID string `json:"id"`
	Activity
	Record string `json:"record,omitempty"` // the id of the record the row is about
}

// Key is the row's id.
func (a *BoardActivity) Key() string { return a.ID }

// PageEdits is the person's last change to each field of a vault page
// (title, aliases, emails, domains, body), kept on the board since a page is
// a file of the person's: ID is the page's path in the vault.
type PageEdits struct {
	ID         string     `json:"id"`
	HumanEdits HumanEdits `json:"humanEdits"`
}

// Key is the page's path.
func (p *PageEdits) Key() string { return p.ID }

// IdempotencyRecord is the first answer to a create sent with an
// Idempotency-Key, kept so a repeat of the key answers it again instead of
// writing twice. ID is a digest of the method, the path and the key, so
// one key names different records on different routes.
type IdempotencyRecord struct {
	ID     string `json:"id"`
	At     string `json:"at"`
	Method string `json:"method"`
	Path   string `json:"path"`
	// BodySum is a digest of the request body as canonical JSON: the same
	// key with another body is refused, not answered.
	BodySum string          `json:"bodySum"`
	Status  int             `json:"status"`
	Answer  json.RawMessage `json:"answer"`
}

// Key is the record's id.
func (r *IdempotencyRecord) Key() string { return r.ID }

// Event is a calendar event, optionally linked to a case node.
type Event struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Date        string `json:"date"`
	AllDay      bool   `json:"allDay"`
	StartTime   string `json:"startTime,omitempty"`
	EndTime     string `json:"endTime,omitempty"`
	Description string `json:"description,omitempty"`
	Location    string `json:"location,omitempty"`
	CaseID      string `json:"caseId,omitempty"`
	Domain      Domain `json:"domain,omitempty"`
	// Repeat makes the event the master of a series (an RRULE subset, see
	// Reminder); an edit of the master applies to the whole series.
	Repeat string `json:"repeat,omitempty"`
	// OccurrenceOf is set on the copies a ranged read expands a series
	// into: the master's id (their id is the master's too).
	OccurrenceOf string `json:"occurrenceOf,omitempty"`
	CreatedAt    string `json:"createdAt"`
	UpdatedAt    string `json:"updatedAt"`
	// CreatedBy is the actor who created it, for the Activity feed's
	// lifecycle rows (an event has no log of its own).
	CreatedBy Actor `json:"createdBy,omitempty"`
	// HumanEdits is, per field, the person's last change to it, so an
	// agent write neither reverts it nor changes it again too soon.
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
}

// Key is the record's id.
func (e *Event) Key() string { return e.ID }

// Reminder is a lightweight nudge with an optional checklist.
type Reminder struct {
	ID          string         `json:"id"`
	Title       string         `json:"title"`
	Detail      string         `json:"detail,omitempty"`
	Status      ReminderStatus `json:"status"`
	CaseID      string         `json:"caseId,omitempty"`
	DueAt       string         `json:"dueAt,omitempty"`
	Domain      Domain         `json:"domain,omitempty"`
	Labels      []string       `json:"labels,omitempty"`
	Tasks       []ReminderTask `json:"tasks,omitempty"`
	CreatedAt   string         `json:"createdAt"`
	UpdatedAt   string         `json:"updatedAt"`
	CompletedAt string         `json:"completedAt,omitempty"`
	// Repeat is the recurrence rule, a subset of an RFC 5545 RRULE:
	// FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, BYDAY (weekly days, or one
	// monthly nth weekday such as 2TU), BYMONTHDAY, UNTIL or COUNT. It needs
	// a dueAt. Completing the reminder creates the next occurrence, which
	// carries the rule on (COUNT is what is left, this one included).
	Repeat string `json:"repeat,omitempty"`
	// NextID is the occurrence created when this one was completed; the
	// completed one keeps no rule, so reopening it repeats nothing twice.
	NextID string `json:"nextId,omitempty"`
	// CreatedBy and CompletedBy are the actors behind createdAt and
	// completedAt, for the Activity feed's lifecycle rows (a reminder has no
	// log of its own).
	CreatedBy   Actor `json:"createdBy,omitempty"`
	CompletedBy Actor `json:"completedBy,omitempty"`
	// HumanEdits is, per field, the person's last change to it, so an
	// agent write neither reverts it nor changes it again too soon.
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
}

// Key is the record's id.
func (r *Reminder) Key() string { return r.ID }

// ReminderTask is one row of a reminder's short checklist.
type ReminderTask struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

// Priority is a free-text priority note in the user's own words.
type Priority struct {
	ID        string   `json:"id"`
	Text      string   `json:"text"`
	Position  *float64 `json:"position,omitempty"`
	CreatedAt string   `json:"createdAt"`
	UpdatedAt string   `json:"updatedAt"`
	// HumanEdits is, per field, the person's last change to it (see Case).
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
}

// Key is the record's id.
func (p *Priority) Key() string { return p.ID }

// LabelColors is the fixed palette a label's color comes from.
var LabelColors = []string{"amber", "blue", "sky", "teal", "violet", "red", "fuchsia", "orange", "green", "indigo", "pink", "gray"}

// LabelDef is one entry of the label catalog.
type LabelDef struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Color       string `json:"color"`
	// HumanEdits is, per field, the person's last change to it (see Case).
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
}

// Key is the record's id.
func (l *LabelDef) Key() string { return l.ID }

// LabelSources records which installed bundles own which catalog ids, and which
// ids were defined by hand, so an uninstall removes only what a bundle owns.
type LabelSources struct {
	Bundles map[string][]string `json:"bundles,omitempty"` // bundle id -> label ids it owns
	Custom  []string            `json:"custom,omitempty"`  // ids created through POST /api/labels
}

// Proposal is a mutation proposed for the human's approval.
type Proposal struct {
	ID        string          `json:"id"`
	Verb      string          `json:"verb"`
	Payload   json.RawMessage `json:"payload"`
	Summary   string          `json:"summary"`
	Actor     Actor           `json:"actor"`
	CreatedAt string          `json:"createdAt"`
	// Target and Before record what the proposal would change as it was when
	// proposed, so the approval view can show what the human changed since.
	Target          string                     `json:"target,omitempty"`
	TargetUpdatedAt string                     `json:"targetUpdatedAt,omitempty"`
	Before          map[string]json.RawMessage `json:"before,omitempty"`
	// Others are the further records a multi-record verb touches (the other
	// ids of update_cases, the target of merge), recorded the same way.
	Others []ProposalTarget `json:"others,omitempty"`
}

// ProposalTarget is one record a proposal touches, as it was when proposed.
type ProposalTarget struct {
	ID        string                     `json:"id"`
	UpdatedAt string                     `json:"updatedAt,omitempty"`
	Before    map[string]json.RawMessage `json:"before,omitempty"`
}

// Key is the record's id.
func (p *Proposal) Key() string { return p.ID }

// View is a saved set of board filters.
type View struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Filters   json.RawMessage `json:"filters"`
	CreatedAt string          `json:"createdAt"`
	UpdatedAt string          `json:"updatedAt"`
	// HumanEdits is, per field, the person's last change to it (see Case).
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
}

// Key is the record's id.
func (v *View) Key() string { return v.ID }

// Template is a reusable starting point for a new case.
type Template struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Title     string   `json:"title,omitempty"`
	Summary   string   `json:"summary,omitempty"`
	Status    Lane     `json:"status,omitempty"`
	Domain    Domain   `json:"domain,omitempty"`
	Kind      Kind     `json:"kind,omitempty"`
	Labels    []string `json:"labels,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	Tasks     []string `json:"tasks,omitempty"`
	CreatedAt string   `json:"createdAt"`
	UpdatedAt string   `json:"updatedAt"`
	// HumanEdits is, per field, the person's last change to it (see Case).
	HumanEdits HumanEdits `json:"humanEdits,omitempty"`
}

// Key is the record's id.
func (t *Template) Key() string { return t.ID }

// Doc is the store root: the one JSON document the board keeps on disk.
// Fields after Labels are additive optional fields (no schema bump needed).
type Doc struct {
	SchemaVersion int             `json:"schemaVersion"`
	Version       int64           `json:"version"`
	Cases         List[*Case]     `json:"cases"`
	Messages      List[*Message]  `json:"messages"`
	Events        List[*Event]    `json:"events"`
	Reminders     List[*Reminder] `json:"reminders"`
	Priorities    List[*Priority] `json:"priorities"`
	Labels        List[*LabelDef] `json:"labels"`
	LabelSources  *LabelSources   `json:"labelSources,omitempty"`
	// Counters holds the last id minted per prefix (CASE, M, EVT, ...), so an
	// id is never reused, even after the record holding it is deleted.
	Counters  map[string]int64 `json:"counters,omitempty"`
	Proposals List[*Proposal]  `json:"pending,omitzero"`
	Prefs     json.RawMessage  `json:"prefs,omitempty"`
	Views     List[*View]      `json:"views,omitzero"`
	Templates List[*Template]  `json:"templates,omitzero"`
	// IngestRuns are the reports of the last mail ingest runs (the newest 200).
	IngestRuns List[*IngestRun] `json:"ingestRuns,omitzero"`
	// BoardActivity is the Activity rows that belong to no case (the
	// newest 500).
	BoardActivity List[*BoardActivity] `json:"boardActivity,omitzero"`
	// PageEdits are the person's changes to vault pages, by page path.
	PageEdits List[*PageEdits] `json:"pageEdits,omitzero"`
	// IdempotencyKeys are the first answers of keyed creates, oldest first.
	IdempotencyKeys List[*IdempotencyRecord] `json:"idempotencyKeys,omitzero"`
}
