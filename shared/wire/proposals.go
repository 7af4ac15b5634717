package wire

import "encoding/json"

// ProposalCreate is the body of POST /api/pending. Payload is exactly the
// body of the route the verb names, plus id where that route has one.
type ProposalCreate struct {
	Verb    string          `json:"verb"`
	Payload json.RawMessage `json:"payload"`
	Summary string          `json:"summary"`
	Actor   Actor           `json:"actor,omitempty"`
}

// ProposalDecision is the optional body of POST /api/pending/{id}/approve
// and /reject. ExpectedVersion guards an approval made from a stale view.
type ProposalDecision struct {
	ExpectedVersion *int64 `json:"expectedVersion,omitempty"`
	Actor           Actor  `json:"actor,omitempty"`
}

// TargetNow is what became of one record a proposal targets.
type TargetNow struct {
	ID string `json:"id"`
	// Gone means the record no longer exists: approval answers 404.
	Gone bool `json:"gone,omitempty"`
	// ChangedSince means the record's updatedAt moved since the proposal.
	ChangedSince bool   `json:"changedSince"`
	UpdatedAt    string `json:"updatedAt,omitempty"`
	// Current holds the record's present values of the proposal's before
	// fields; ChangedFields names those that differ from before.
	Current       map[string]json.RawMessage `json:"current,omitempty"`
	ChangedFields []string                   `json:"changedFields,omitempty"`
}

// ProposalItem is a proposal as GET /api/pending lists it: the stored
// proposal plus what changed on its targets since it was filed.
type ProposalItem struct {
	Proposal
	// ChangedSince is true when any target changed since the proposal.
	ChangedSince bool `json:"changedSince"`
	// TargetGone is true when any target no longer exists.
	TargetGone bool `json:"targetGone,omitempty"`
	// Targets lists every targeted record, primary first.
	Targets []TargetNow `json:"targets"`
}

// ProposalList is GET /api/pending.
type ProposalList struct {
	Proposals []ProposalItem `json:"pending"`
	Version   int64          `json:"version"`
}

// ProposalReply is the answer of POST /api/pending.
type ProposalReply struct {
	Proposal Proposal `json:"proposal"`
	Version  int64    `json:"version"`
}

// ApproveReply is the answer of POST /api/pending/{id}/approve: the
// approved proposal and what its verb's route answered.
type ApproveReply struct {
	Proposal Proposal       `json:"proposal"`
	Result   ApprovalResult `json:"result"`
	Version  int64          `json:"version"`
}

// ApprovalResult is the answer of the route an approved verb commits
// through, without its version: the fields of that route's reply, only
// those set.
type ApprovalResult struct {
	Case  *Case   `json:"case,omitempty"`  // update_case, set_parent, archive, restore, merge, create_case
	Cases []*Case `json:"cases,omitempty"` // update_cases
	// Deleted and OK answer delete.
	Deleted  string    `json:"deleted,omitempty"`
	Event    *Event    `json:"event,omitempty"`    // update_event
	Existing bool      `json:"existing,omitempty"` // create_case found an exact match
	OK       bool      `json:"ok,omitempty"`
	Reminder *Reminder `json:"reminder,omitempty"` // update_reminder
	Undone   []int64   `json:"undone,omitempty"`   // undo: the versions of the writes undone
	Page     *Page     `json:"page,omitempty"`     // create_page
}

// RejectReply is the answer of POST /api/pending/{id}/reject.
type RejectReply struct {
	OK       bool     `json:"ok"`
	Proposal Proposal `json:"proposal"`
	Version  int64    `json:"version"`
}
