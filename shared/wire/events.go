package wire

// EventCreate is the body of POST /api/events.
type EventCreate struct {
	Title       string `json:"title"`
	Date        string `json:"date"`
	AllDay      bool   `json:"allDay,omitempty"`
	StartTime   string `json:"startTime,omitempty"`
	EndTime     string `json:"endTime,omitempty"`
	Description string `json:"description,omitempty"`
	Location    string `json:"location,omitempty"`
	CaseID      string `json:"caseId,omitempty"`
	Domain      string `json:"domain,omitempty"`
	Repeat      string `json:"repeat,omitempty"` // a recurrence rule: the event becomes a series
	// Dedupe answers with an exact existing match (same normalized title,
	// date and start time) instead of creating a second event.
	Dedupe bool  `json:"dedupe,omitempty"`
	Actor  Actor `json:"actor,omitempty"`
}

// EventPatch is the body of PATCH /api/events/{id}. A null or empty caseId
// unlinks; a null optional text field clears it.
type EventPatch struct {
	Title           Opt[string] `json:"title,omitzero"`
	Date            Opt[string] `json:"date,omitzero"`
	AllDay          Opt[bool]   `json:"allDay,omitzero"`
	StartTime       Opt[string] `json:"startTime,omitzero"`
	EndTime         Opt[string] `json:"endTime,omitzero"`
	Description     Opt[string] `json:"description,omitzero"`
	Location        Opt[string] `json:"location,omitzero"`
	CaseID          Opt[string] `json:"caseId,omitzero"`
	Domain          Opt[string] `json:"domain,omitzero"`
	Repeat          Opt[string] `json:"repeat,omitzero"` // null or "" ends the series at its master
	ExpectedVersion *int64      `json:"expectedVersion,omitempty"`
	Actor           Actor       `json:"actor,omitempty"`
	// Override lets an agent write change a field the person changed within
	// the last 24 hours; the case's log records it.
	Override bool `json:"override,omitempty"`
}

// EventList is GET /api/events. With both from and to, a repeating event
// is listed once per occurrence in the range, each a copy of its master
// with date set to that day and occurrenceOf naming the master.
type EventList struct {
	Events  []Event `json:"events"`
	Version int64   `json:"version"`
}

// EventReply is the answer about one event: GET /api/events/{id}, a create
// and a patch.
type EventReply struct {
	Event Event `json:"event"`
	// Existing is set when a deduplicated create found an exact match.
	Existing bool  `json:"existing,omitempty"`
	Version  int64 `json:"version"`
}

// Agenda item kinds.
const (
	AgendaTask     = "task"
	AgendaReminder = "reminder"
	AgendaEvent    = "event"
)

// AgendaItem is one dated thing on the agenda: an open task, an open
// reminder or an event.
type AgendaItem struct {
	Kind   string `json:"kind"` // task, reminder or event
	ID     string `json:"id"`
	CaseID string `json:"caseId,omitempty"`
	Title  string `json:"title"`
	// DueAt is a day (YYYY-MM-DD) for an all-day item, else an RFC 3339
	// time with the board zone's offset.
	DueAt   string `json:"dueAt"`
	Overdue bool   `json:"overdue"`
	AllDay  bool   `json:"allDay"`
}

// Agenda is GET /api/agenda: what is due in a range, sorted by time.
type Agenda struct {
	Today    string       `json:"today"`    // YYYY-MM-DD in the board's zone
	Timezone string       `json:"timezone"` // the board's IANA zone name
	From     string       `json:"from,omitempty"`
	To       string       `json:"to"`
	Items    []AgendaItem `json:"items"`
	Version  int64        `json:"version"`
}
