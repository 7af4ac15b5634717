package main

// kinds are the board's record kinds in the order the document holds their
// collections. Adding a kind is one entry here (after the wire type and its
// field in wire.Doc), then go generate ./shared/storefile/ ./board/internal/store/.
var kinds = []kind{
	{Name: "cases", Const: "Cases", Field: "Cases", Table: "cases", Type: "Case", Record: "KindCaseRecord", Clone: "cloneCase", Always: true, Minted: true, Restore: true, Doc: "Cases are the case nodes of the draft."},
	{Name: "messages", Const: "Messages", Field: "Messages", Table: "messages", Type: "Message", Record: "KindMessageRecord", Clone: "shallow", Always: true, Minted: true, Restore: true, Doc: "Messages are the linked emails of the draft."},
	{Name: "events", Const: "Events", Field: "Events", Table: "events", Type: "Event", Record: "KindEventRecord", Clone: "shallow", Always: true, Minted: true, Restore: true, Doc: "Events are the calendar events of the draft."},
	{Name: "reminders", Const: "Reminders", Field: "Reminders", Table: "reminders", Type: "Reminder", Record: "KindReminderRecord", Clone: "cloneReminder", Always: true, Minted: true, Restore: true, Doc: "Reminders are the reminders of the draft."},
	{Name: "priorities", Const: "Priorities", Field: "Priorities", Table: "priorities", Type: "Priority", Record: "KindPriorityRecord", Clone: "shallow", Always: true, Minted: true, Restore: true, Doc: "Priorities are the priority notes of the draft."},
	// Label ids are names a person chooses, not minted from a counter.
	{Name: "labels", Const: "Labels", Field: "Labels", Table: "labels", Type: "LabelDef", Record: "KindLabelRecord", Clone: "shallow", Always: true, Restore: true, Doc: "Labels are the label catalog of the draft."},
	// The document and the journal keep the name the collection had first.
	{Name: "pending", Const: "Proposals", Field: "Proposals", Table: "proposals", Type: "Proposal", Record: "KindProposalRecord", Clone: "shallow", Minted: true, Restore: true, Doc: "Proposals are the proposals waiting for approval in the draft."},
	{Name: "views", Const: "Views", Field: "Views", Table: "views", Type: "View", Record: "KindViewRecord", Clone: "shallow", Minted: true, Restore: true, Doc: "Views are the saved views of the draft."},
	{Name: "templates", Const: "Templates", Field: "Templates", Table: "templates", Type: "Template", Record: "KindTemplateRecord", Clone: "shallow", Minted: true, Restore: true, Doc: "Templates are the case templates of the draft."},
	// Ingest runs are reports of past runs, not state a restore brings back.
	{Name: "ingestRuns", Const: "IngestRuns", Field: "IngestRuns", Table: "ingestRuns", Type: "IngestRun", Record: "KindIngestRunRecord", Clone: "shallow", Minted: true, Doc: "IngestRuns are the reports of the mail ingest runs in the draft."},
	// Board activity is a log, like the ingest runs.
	{Name: "boardActivity", Const: "BoardActivity", Field: "BoardActivity", Table: "boardActivity", Type: "BoardActivity", Record: "KindBoardActivity", Clone: "shallow", Minted: true, Doc: "BoardActivity is the Activity rows of the draft that belong to no case."},
	// Page edits are keyed by the page's path, which the vault names.
	{Name: "pageEdits", Const: "PageEdits", Field: "PageEdits", Table: "pageEdits", Type: "PageEdits", Record: "KindPageEdits", Clone: "shallow", Restore: true, Doc: "PageEdits are the person's changes to vault pages in the draft, by page path."},
	// Keys of repeated creates are the API's bookkeeping, not board state.
	{Name: "idempotencyKeys", Const: "IdempotencyKeys", Field: "IdempotencyKeys", Table: "idempotencyKeys", Type: "IdempotencyRecord", Record: "KindIdempotencyRecord", Clone: "shallow", Doc: "IdempotencyKeys are the first answers of keyed creates in the draft, oldest first."},
}

// kind is one record kind and how the files and the store treat it.
type kind struct {
	Name   string // the collection's JSON field in the document and the journal
	Const  string // storefile.Collection<Const> names the collection in Go
	Field  string // the field of wire.Doc and of storefile.Entry
	Table  string // the draft's table in store.Tx
	Type   string // the record type in package wire (the collection holds pointers to it)
	Record string // wire's record kind constant, as the ring of recent writes names it
	Clone  string // the store's function making a private copy of a record
	// Always: the document writes the field even when the collection is
	// empty (the first schemas had these), so a new document shows it.
	Always bool
	// Minted: ids are minted from a counter, which must stay above the
	// highest id the collection holds.
	Minted bool
	// Restore: a restore's plan compares this collection with the snapshot's.
	Restore bool
	Doc     string // the doc comment of the store's getter (Tx.<Field>)
}
