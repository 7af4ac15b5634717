// Package proposals is the queue of the agent's proposals: the agent files
// one (a verb and the body of the route it names), and the person approves
// it, which commits it through that route's rule attributed to the
// proposer, or rejects it. A proposal is checked when filed by a dry run,
// and records the before values of what it would change so the queue can
// show what moved since.
package proposals

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// Propose files a proposal. The verb and payload are checked now, by a dry
// run of the verb against the current state on a scratch draft, so a
// proposal that could never apply is refused (400, or 404 for an unknown
// target). The proposal records each target's updatedAt and the before
// values of the fields it would change.
func Propose(ctx context.Context, s *store.Store, actor wire.Actor, in wire.ProposalCreate) (*wire.Proposal, int64, error) {
	var out *wire.Proposal
	var inner struct {
		Actor string `json:"actor"`
	}
	if json.Unmarshal(in.Payload, &inner) == nil && strings.EqualFold(inner.Actor, string(wire.ActorAgent)) {
		actor = wire.ActorAgent // the payload speaks for the agent as a route body would
	}
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		verb := strings.TrimSpace(in.Verb)
		if verb == "" {
			return errs.BadRequest("Field 'verb' is required.")
		}
		summary := strings.Join(strings.Fields(in.Summary), " ")
		if summary == "" {
			return errs.BadRequest("Field 'summary' is required.")
		}
		if len(bytes.TrimSpace(in.Payload)) == 0 {
			return errs.BadRequest("Field 'payload' is required: the body of the route the verb names")
		}
		if err := field.FreeForm("payload", in.Payload); err != nil {
			return err
		}
		p, err := parseProposal(verb, in.Payload)
		if err != nil {
			return err
		}
		// The person's-word rule is left out of the check: a proposal is how
		// the agent asks for a change the rule would refuse it.
		if err := tx.DryRun(func(scratch *store.Tx) error { scratch.MarkDecided(); _, err := p.apply(scratch); return err }); err != nil {
			return err
		}
		var payload bytes.Buffer
		if err := json.Compact(&payload, in.Payload); err != nil {
			return errs.BadRequest("payload: %v", err)
		}
		out = &wire.Proposal{ID: tx.NextID("PROP"), Verb: verb, Payload: payload.Bytes(), Summary: summary, Actor: tx.Actor(), CreatedAt: tx.Stamp()}
		recs := &records{d: tx.Doc()}
		for i, id := range p.targets {
			rec, updated, ok := recs.fields(id)
			if !ok {
				return errs.NotFound("%s %s not found", kindOf(id), id)
			}
			fields := p.fields
			if i > 0 && verb == "merge" {
				fields = nil // the merge target keeps its fields; its updatedAt is what matters
			}
			if i == 0 {
				out.Target, out.TargetUpdatedAt, out.Before = id, updated, pick(rec, fields)
				continue
			}
			out.Others = append(out.Others, wire.ProposalTarget{ID: id, UpdatedAt: updated, Before: pick(rec, fields)})
		}
		tx.Proposals().Put(out)
		return nil
	})
	return out, v, err
}

// ApprovedVerb is the activity verb an approval logs, by the approver, on
// a case it targeted where the change itself logged nothing.
const ApprovedVerb = wire.VerbProposalApproved

// Approve commits a proposal through its verb's route operation, attributed
// to the proposer, and removes it, in one write. The activity entries the
// change writes stay the proposer's and name the proposal, its proposer and
// its approver (approver) in their detail. A target that vanished
// answers 404 and the proposal stays pending; so does any other refusal.
func Approve(ctx context.Context, s *store.Store, approver wire.Actor, id string, expected *int64) (*wire.Proposal, wire.ApprovalResult, int64, error) {
	prop, ok := findProposal(s.Snapshot(), id)
	if !ok {
		return nil, wire.ApprovalResult{}, 0, errs.NotFound("proposal %s not found", id)
	}
	if prop.Verb == CreatePage { // a file, not a record: the vault makes it (PagePayload, Settle)
		return nil, wire.ApprovalResult{}, 0, &errs.UnavailableError{Msg: "a page proposal needs the vault to approve it"}
	}
	var result wire.ApprovalResult
	v, err := s.Update(ctx, prop.Actor, expected, func(tx *store.Tx) error {
		tx.MarkDecided() // the person's decision: not refused, and what it sets stands as theirs
		p, ok := tx.Proposals().Get(id)
		if !ok {
			return errs.NotFound("proposal %s not found", id)
		}
		parsed, err := parseProposal(p.Verb, p.Payload)
		if err != nil {
			return err
		}
		recs := &records{d: tx.Doc()}
		for _, t := range proposalTargets(p) {
			if _, _, ok := recs.fields(t); !ok {
				return errs.NotFound("%s %s not found: it changed since the proposal, which stays pending (reject it)", kindOf(t), t)
			}
		}
		res, err := parsed.apply(tx)
		if err != nil {
			return err
		}
		for _, caseID := range changedCases(proposalTargets(p), res) {
			if c, ok := tx.Cases().Get(caseID); ok {
				nameApproval(tx, c, p, approver)
			}
		}
		tx.Proposals().Delete(id)
		result, prop = res, p
		return nil
	})
	if err != nil {
		return nil, wire.ApprovalResult{}, 0, err
	}
	return prop, result, v, nil
}

// Reject discards a proposal; nothing else changes.
func Reject(ctx context.Context, s *store.Store, actor wire.Actor, id string, expected *int64) (*wire.Proposal, int64, error) {
	var out *wire.Proposal
	v, err := s.Update(ctx, actor, expected, func(tx *store.Tx) error {
		p, ok := tx.Proposals().Get(id)
		if !ok {
			return errs.NotFound("proposal %s not found", id)
		}
		tx.Proposals().Delete(id)
		out = p
		return nil
	})
	return out, v, err
}

// nameApproval adds who proposed and who approved to the entries this
// write logged on c, or logs one entry saying so when it logged none.
func nameApproval(tx *store.Tx, c *wire.Case, p *wire.Proposal, approver wire.Actor) {
	note := fmt.Sprintf("%s %s: proposed by %s, approved by %s", p.ID, p.Verb, p.Actor, approver)
	named := false
	for i := range c.Activity {
		a := &c.Activity[i]
		if a.TS != tx.Stamp() || a.Actor != p.Actor || strings.Contains(a.Detail, note) {
			continue
		}
		if a.Detail == "" {
			a.Detail = note
		} else {
			a.Detail += " (" + note + ")"
		}
		named = true
	}
	if !named {
		activity.Log(c, approver, ApprovedVerb, note, tx.Stamp())
	}
	tx.Cases().Put(c)
}

// changedCases are the cases an approval targeted, changed or linked to
// what it changed, each once.
func changedCases(targets []string, res wire.ApprovalResult) []string {
	var ids []string
	add := func(id string) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for _, id := range targets {
		if strings.HasPrefix(id, "CASE-") {
			add(id)
		}
	}
	if res.Case != nil {
		add(res.Case.ID)
	}
	for _, c := range res.Cases {
		add(c.ID)
	}
	if res.Reminder != nil {
		add(res.Reminder.CaseID)
	}
	if res.Event != nil {
		add(res.Event.CaseID)
	}
	return ids
}

func findProposal(d *wire.Doc, id string) (*wire.Proposal, bool) {
	for _, p := range d.Proposals.All() {
		if p.ID == id {
			return p, true
		}
	}
	return nil, false
}

func proposalTargets(p *wire.Proposal) []string {
	var ids []string
	if p.Target != "" {
		ids = append(ids, p.Target)
	}
	for _, o := range p.Others {
		ids = append(ids, o.ID)
	}
	return ids
}
