package wire

// ExportFormat names the shape of GET /api/export?format=json, so an import
// can tell the board's own export from any other JSON file.
const ExportFormat = "opsboard-export/1"

// Export is GET /api/export?format=json: the whole store document, as the
// board keeps it, with what the export is and when it was taken.
type Export struct {
	ExportFormat string `json:"exportFormat"`
	ExportedAt   string `json:"exportedAt"`
	Doc
}

// The import formats of POST /api/import.
const (
	ImportAuto    = "auto"
	ImportJSON    = "json"    // the board's own export
	ImportTodoist = "todoist" // a Todoist backup CSV
	ImportTrello  = "trello"  // a Trello board JSON export
	ImportCSV     = "csv"     // any CSV with a header row, through a column mapping
)

// ImportFormats lists the formats an import accepts.
func ImportFormats() []string {
	return []string{ImportAuto, ImportJSON, ImportTodoist, ImportTrello, ImportCSV}
}

// ImportRequest is the body of POST /api/import (with ?dryRun=1 for the dry
// run). The file travels as a string in a JSON body, like every write, so a
// web page on another origin cannot post it as a form.
type ImportRequest struct {
	// Format is one of ImportFormats; "" or auto tells it from the content.
	Format string `json:"format,omitempty"`
	// Content is the file's text.
	Content string `json:"content"`
	// Map maps a CSV column (by its header) to a field: title, summary,
	// status, labels, dueAt, kind, id, parentId, type, domain, completedAt,
	// starred, notes. Columns named like a field map themselves.
	Map map[string]string `json:"map,omitempty"`
	// Title names the initiative that holds what a Todoist backup or a
	// generic CSV brings (their files carry no project name): the file's
	// name without extension, say.
	Title string `json:"title,omitempty"`
	Actor Actor  `json:"actor,omitempty"`
}

// ImportCounts counts what an import creates, by kind of record, and the
// records it skipped because an earlier import of the same source brought
// them (same sourceId).
type ImportCounts struct {
	Labels      int `json:"labels"`
	Initiatives int `json:"initiatives"`
	Workstreams int `json:"workstreams"`
	Cases       int `json:"cases"`
	Tasks       int `json:"tasks"`
	Notes       int `json:"notes"`
	Skipped     int `json:"skipped"`
}

// ImportReply is the answer of POST /api/import.
type ImportReply struct {
	DryRun bool   `json:"dryRun"`
	Format string `json:"format"`
	// Created counts what was (or, in a dry run, would be) created.
	Created ImportCounts `json:"created"`
	// Version is the post-write version; the current one after a dry run.
	Version int64 `json:"version"`
}

// DateParse is GET /api/dates/parse?text=...: a date in words ("tomorrow
// 9am", "next fri", "in 3 days") resolved in the board's time zone.
type DateParse struct {
	// DueAt is what a dueAt field takes: YYYY-MM-DD when no time was said,
	// else RFC 3339 with the zone's offset.
	DueAt  string `json:"dueAt"`
	AllDay bool   `json:"allDay"`
	// Text is the part of the input the date was read from.
	Text     string `json:"text"`
	Timezone string `json:"timezone"`
}
