package wire

// UndoRequest is POST /api/undo. It names the writes to undo in one of two
// ways: Version (one write, the version its reply carried), or WritesBy and
// Since (every write of that actor, e.g. "agent", made after Since, an RFC
// 3339 time). Through also undoes every later write that touched the same
// records (and the records those touched). DryRun lists what would be
// undone and writes nothing. Actor is who asks, as on every write.
type UndoRequest struct {
	Version  int64  `json:"version,omitempty"`
	WritesBy Actor  `json:"writesBy,omitempty"`
	Since    string `json:"since,omitempty"`
	// Until, with WritesBy, bounds the writes to those up to this version:
	// the version a dry run answered, so the undo applied is the one listed.
	Until   int64 `json:"until,omitempty"`
	Through bool  `json:"through,omitempty"`
	DryRun  bool  `json:"dryRun,omitempty"`
	Actor   Actor `json:"actor,omitempty"`
}

// UndoReply lists the writes undone (or, on a dry run, that would be),
// newest first, and the board's version after the undo (unchanged on a dry
// run or when there was nothing to undo).
type UndoReply struct {
	DryRun  bool          `json:"dryRun,omitempty"`
	Undone  []UndoneWrite `json:"undone"`
	Version int64         `json:"version"`
}

// UndoneWrite is one write an undo reverts: its version, who made it and
// when, and the records it touched.
type UndoneWrite struct {
	Actor   Actor       `json:"actor"`
	At      string      `json:"at"`
	Records []RecordRef `json:"records"`
	Version int64       `json:"version"`
}

// UndoConflict is a later write that touched a record the undo would
// restore: the record's kind and id, and the version of that write. An
// undo with conflicts is refused (400) unless it asks for through.
type UndoConflict struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Version int64  `json:"version"`
}

// UndoPayload is the payload of a proposal with verb "undo": the writes to
// undo, named as UndoRequest names them (a Version, or WritesBy with Since:
// the agent knows when it started more often than its writes' versions),
// and whether to undo the later writes on the same records with them.
type UndoPayload struct {
	Version  int64  `json:"version,omitempty"`
	WritesBy Actor  `json:"writesBy,omitempty"`
	Since    string `json:"since,omitempty"`
	Through  bool   `json:"through,omitempty"`
}
