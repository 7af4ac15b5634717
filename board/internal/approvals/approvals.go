// Package approvals is the approval queue: the agent files a proposal (a
// verb and the body of the route it names), the person approves it, which
// commits it through that route's rule attributed to the proposer, or
// rejects it. A proposal is checked when filed by a dry run, and records the
// before values of what it would change so the queue can show what moved
// since.
package approvals

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/board/internal/cases"
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/events"
	"github.com/opsboard/opsboard/board/internal/field"
	"github.com/opsboard/opsboard/board/internal/reminders"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// VerbRoutes maps each verb of the approval queue to the route it commits
// through. A verb's payload is exactly that route's body plus the id where
// the route has one.
func VerbRoutes() map[string]string {
	return map[string]string{
		"update_case":     "PATCH /api/cases/{id}",
		"update_cases":    "PATCH /api/cases",
		"set_parent":      "PATCH /api/cases/{id} with parentId only (leaf cases)",
		"archive":         "DELETE /api/cases/{id}",
		"restore":         "POST /api/cases/{id}/restore",
		"delete":          "DELETE /api/cases/{id}?hard=1",
		"merge":           "POST /api/cases/{id}/merge",
		"create_case":     "POST /api/cases",
		"update_reminder": "PATCH /api/reminders/{id}",
		"update_event":    "PATCH /api/events/{id}",
	}
}

// proposed is a parsed proposal: what it touches and how to commit it.
type proposed struct {
	targets []string // records it changes, primary first
	fields  []string // fields of the primary whose before values are kept
	// apply runs the verb's route operation inside a write and returns the
	// route's answer without its version.
	apply func(tx *store.Tx) (map[string]any, error)
}

type idOnly struct {
	ID    string `json:"id"`
	Actor string `json:"actor,omitempty"`
}

// parseProposal strictly decodes a verb's payload, with the same rules the
// route's own body decoding applies.
func parseProposal(verb string, raw json.RawMessage) (proposed, error) {
	var p proposed
	keys, err := payloadKeys(raw)
	if err != nil {
		return p, err
	}
	switch verb {
	case "update_case", "set_parent":
		var in struct {
			ID string `json:"id"`
			wire.CasePatch
		}
		if err := strictDecode(raw, &in); err != nil {
			return p, err
		}
		if err := targeted(in.ID, in.ExpectedVersion); err != nil {
			return p, err
		}
		if verb == "set_parent" {
			if !in.ParentID.Set || len(keys) != 1 || keys[0] != "parentId" {
				return p, errs.BadRequest("payload of set_parent is { id, parentId } (parentId null detaches)")
			}
		}
		p.targets, p.fields = []string{in.ID}, keys
		p.apply = func(tx *store.Tx) (map[string]any, error) {
			if verb == "set_parent" {
				if c, ok := tx.Cases().Get(in.ID); ok && c.Kind != wire.KindCase {
					return nil, errs.BadRequest("set_parent moves leaf cases only; %s is a %s: use update_case with kind and parentId", in.ID, c.Kind)
				}
			}
			c, err := cases.PatchTx(tx, in.ID, in.CasePatch)
			return map[string]any{"case": c}, err
		}
	case "update_cases":
		var in wire.CaseBatch
		if err := strictDecode(raw, &in); err != nil {
			return p, err
		}
		if err := noExpected(in.ExpectedVersion); err != nil {
			return p, err
		}
		if err := noExpected(in.Patch.ExpectedVersion); err != nil {
			return p, err
		}
		ids := field.CleanList(in.IDs)
		if len(ids) == 0 {
			return p, errs.BadRequest("payload: field 'ids' must list at least one case id")
		}
		var patch json.RawMessage
		var top map[string]json.RawMessage
		_ = json.Unmarshal(raw, &top) // strictDecode already accepted it
		patch = top["patch"]
		fields, err := payloadKeys(patch)
		if err != nil {
			return p, errs.BadRequest("payload: field 'patch' must be an object")
		}
		p.targets, p.fields = ids, fields
		p.apply = func(tx *store.Tx) (map[string]any, error) {
			cs, err := cases.PatchManyTx(tx, in)
			return map[string]any{"cases": cs}, err
		}
	case "archive", "restore", "delete":
		var in idOnly
		if err := strictDecode(raw, &in); err != nil {
			return p, err
		}
		if err := needID(in.ID); err != nil {
			return p, err
		}
		p.targets = []string{in.ID}
		switch verb {
		case "archive":
			p.fields = []string{"archivedAt"}
			p.apply = func(tx *store.Tx) (map[string]any, error) {
				c, err := cases.PatchTx(tx, in.ID, wire.CasePatch{ArchivedAt: wire.Some("now")})
				return map[string]any{"case": c}, err
			}
		case "restore":
			p.fields = []string{"archivedAt"}
			p.apply = func(tx *store.Tx) (map[string]any, error) {
				c, err := cases.PatchTx(tx, in.ID, wire.CasePatch{ArchivedAt: wire.Null[string]()})
				return map[string]any{"case": c}, err
			}
		default:
			p.fields = []string{"title", "status", "archivedAt"}
			p.apply = func(tx *store.Tx) (map[string]any, error) {
				return map[string]any{"ok": true, "deleted": in.ID}, cases.DeleteTx(tx, in.ID)
			}
		}
	case "merge":
		var in struct {
			ID       string `json:"id"`
			TargetID string `json:"targetId"`
			Actor    string `json:"actor,omitempty"`
		}
		if err := strictDecode(raw, &in); err != nil {
			return p, err
		}
		if err := needID(in.ID); err != nil {
			return p, err
		}
		if strings.TrimSpace(in.TargetID) == "" {
			return p, errs.BadRequest("payload: field 'targetId' is required")
		}
		p.targets, p.fields = []string{in.ID, strings.TrimSpace(in.TargetID)}, []string{"archivedAt", "mergedInto"}
		p.apply = func(tx *store.Tx) (map[string]any, error) {
			c, err := cases.MergeTx(tx, in.ID, in.TargetID)
			return map[string]any{"case": c}, err
		}
	case "create_case":
		var in wire.CaseCreate
		if err := strictDecode(raw, &in); err != nil {
			return p, err
		}
		if parent := strings.TrimSpace(in.ParentID); parent != "" {
			p.targets = []string{parent} // the node it would join must still be there
		}
		p.apply = func(tx *store.Tx) (map[string]any, error) {
			c, found, err := cases.CreateTx(tx, in)
			if found {
				return map[string]any{"case": c, "existing": true}, nil
			}
			return map[string]any{"case": c}, err
		}
	case "update_reminder":
		var in struct {
			ID string `json:"id"`
			wire.ReminderPatch
		}
		if err := strictDecode(raw, &in); err != nil {
			return p, err
		}
		if err := targeted(in.ID, in.ExpectedVersion); err != nil {
			return p, err
		}
		p.targets, p.fields = []string{in.ID}, keys
		p.apply = func(tx *store.Tx) (map[string]any, error) {
			r, err := reminders.PatchTx(tx, in.ID, in.ReminderPatch)
			return map[string]any{"reminder": r}, err
		}
	case "update_event":
		var in struct {
			ID string `json:"id"`
			wire.EventPatch
		}
		if err := strictDecode(raw, &in); err != nil {
			return p, err
		}
		if err := targeted(in.ID, in.ExpectedVersion); err != nil {
			return p, err
		}
		p.targets, p.fields = []string{in.ID}, keys
		p.apply = func(tx *store.Tx) (map[string]any, error) {
			e, err := events.PatchTx(tx, in.ID, in.EventPatch)
			return map[string]any{"event": e}, err
		}
	default:
		return p, errs.BadRequest("unknown verb %q: use one of %s", verb, strings.Join(VerbNames(), ", "))
	}
	return p, nil
}

// targeted checks the payload of a verb that patches one record: it names
// the record, and carries no expectedVersion of its own (filing the proposal
// moves the version, so one taken now could never match at approval).
func targeted(id string, expected *int64) error {
	if err := needID(id); err != nil {
		return err
	}
	return noExpected(expected)
}

func needID(id string) error {
	if strings.TrimSpace(id) == "" {
		return errs.BadRequest("payload: field 'id' is required")
	}
	return nil
}

// noExpected refuses expectedVersion in a payload: filing the proposal moves
// the version, so it could never match; the approval carries its own.
func noExpected(v *int64) error {
	if v != nil {
		return errs.BadRequest("payload: expectedVersion does not belong in a proposal (filing it moves the version); send expectedVersion with the approval instead")
	}
	return nil
}

// payloadKeys lists the fields a payload sets, besides id, actor and
// expectedVersion, in a stable order.
func payloadKeys(raw json.RawMessage) ([]string, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errs.BadRequest("field 'payload' must be a JSON object: the body of the route the verb names")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, errs.BadRequest("payload: malformed JSON: %v", err)
	}
	var keys []string
	for k := range m {
		if k != "id" && k != "actor" && k != "expectedVersion" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys, nil
}

// strictDecode decodes a payload the way the routes decode bodies: unknown
// fields and trailing data are refused, with the field named.
func strictDecode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field != "" {
			return errs.BadRequest("payload: field '%s' has the wrong type (%s)", jsonPath(typ.Field), typ.Value)
		}
		return errs.BadRequest("payload: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return errs.BadRequest("payload: data after the JSON object")
	}
	return nil
}

// jsonPath drops the Go names of embedded structs from a decode error's
// field path (CasePatch.title is the payload's title).
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	out := parts[:0]
	for _, p := range parts {
		if p != "" && (p[0] < 'A' || p[0] > 'Z') {
			out = append(out, p)
		}
	}
	return strings.Join(out, ".")
}

// recordFields is a record's JSON fields, for before and current values.
func recordFields(d *wire.Doc, id string) (map[string]json.RawMessage, string, bool) {
	var rec any
	var updated string
	switch {
	case strings.HasPrefix(id, "CASE-"):
		if c := findCase(d, id); c != nil {
			rec, updated = c, c.UpdatedAt
		}
	case strings.HasPrefix(id, "REM-"):
		if r, err := reminders.Find(d, id); err == nil {
			rec, updated = r, r.UpdatedAt
		}
	case strings.HasPrefix(id, "EVT-"):
		if e, err := events.Find(d, id); err == nil {
			rec, updated = e, e.UpdatedAt
		}
	}
	if rec == nil {
		return nil, "", false
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, "", false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil, "", false
	}
	return m, updated, true
}

// pick returns the values of fields in rec, null for an absent one.
func pick(rec map[string]json.RawMessage, fields []string) map[string]json.RawMessage {
	if len(fields) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(fields))
	for _, f := range fields {
		if v, ok := rec[f]; ok {
			out[f] = v
		} else {
			out[f] = json.RawMessage("null")
		}
	}
	return out
}

func kindOf(id string) string {
	switch {
	case strings.HasPrefix(id, "REM-"):
		return "reminder"
	case strings.HasPrefix(id, "EVT-"):
		return "event"
	}
	return "case"
}

// Propose files a proposal. The verb and payload are checked now, by a dry
// run of the verb against the current state on a scratch draft, so a
// proposal that could never apply is refused (400, or 404 for an unknown
// target). The proposal records each target's updatedAt and the before
// values of the fields it would change.
func Propose(ctx context.Context, s *store.Store, actor string, in wire.ProposalCreate) (*wire.Proposal, int64, error) {
	var out *wire.Proposal
	var inner struct {
		Actor string `json:"actor"`
	}
	if json.Unmarshal(in.Payload, &inner) == nil && strings.EqualFold(inner.Actor, wire.ActorAgent) {
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
		p, err := parseProposal(verb, in.Payload)
		if err != nil {
			return err
		}
		if err := tx.DryRun(func(scratch *store.Tx) error { _, err := p.apply(scratch); return err }); err != nil {
			return err
		}
		var payload bytes.Buffer
		if err := json.Compact(&payload, in.Payload); err != nil {
			return errs.BadRequest("payload: %v", err)
		}
		out = &wire.Proposal{ID: tx.NextID("PROP"), Verb: verb, Payload: payload.Bytes(), Summary: summary, Actor: tx.Actor(), CreatedAt: tx.Stamp()}
		for i, id := range p.targets {
			rec, updated, ok := recordFields(tx.Doc(), id)
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

// Approve commits a proposal through its verb's route operation, attributed
// to the proposer, and removes it, in one write. A target that vanished
// answers 404 and the proposal stays pending; so does any other refusal.
func Approve(ctx context.Context, s *store.Store, id string, expected *int64) (*wire.Proposal, map[string]any, int64, error) {
	prop, ok := findProposal(s.Snapshot(), id)
	if !ok {
		return nil, nil, 0, errs.NotFound("proposal %s not found", id)
	}
	var result map[string]any
	v, err := s.Update(ctx, prop.Actor, expected, func(tx *store.Tx) error {
		p, ok := tx.Proposals().Get(id)
		if !ok {
			return errs.NotFound("proposal %s not found", id)
		}
		parsed, err := parseProposal(p.Verb, p.Payload)
		if err != nil {
			return err
		}
		for _, t := range proposalTargets(p) {
			if _, _, ok := recordFields(tx.Doc(), t); !ok {
				return errs.NotFound("%s %s not found: it changed since the proposal, which stays pending (reject it)", kindOf(t), t)
			}
		}
		res, err := parsed.apply(tx)
		if err != nil {
			return err
		}
		tx.Proposals().Delete(id)
		result, prop = res, p
		return nil
	})
	if err != nil {
		return nil, nil, 0, err
	}
	return prop, result, v, nil
}

// Reject discards a proposal; nothing else changes.
func Reject(ctx context.Context, s *store.Store, actor, id string, expected *int64) (*wire.Proposal, int64, error) {
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

func findProposal(d *wire.Doc, id string) (*wire.Proposal, bool) {
	for _, p := range d.Proposals {
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

// List lists the proposals, oldest first, each with what changed on its
// targets since it was filed.
func List(d *wire.Doc) []wire.ProposalItem {
	out := []wire.ProposalItem{}
	for _, p := range d.Proposals {
		item := wire.ProposalItem{Proposal: *p, Targets: []wire.TargetNow{}}
		targets := []wire.ProposalTarget{}
		if p.Target != "" {
			targets = append(targets, wire.ProposalTarget{ID: p.Target, UpdatedAt: p.TargetUpdatedAt, Before: p.Before})
		}
		targets = append(targets, p.Others...)
		for _, t := range targets {
			now := wire.TargetNow{ID: t.ID}
			rec, updated, ok := recordFields(d, t.ID)
			if !ok {
				now.Gone, now.ChangedSince = true, true
			} else {
				now.UpdatedAt = updated
				now.ChangedSince = updated != t.UpdatedAt
				fields := make([]string, 0, len(t.Before))
				for f := range t.Before {
					fields = append(fields, f)
				}
				sort.Strings(fields)
				now.Current = pick(rec, fields)
				for _, f := range fields {
					if !jsonEqual(t.Before[f], now.Current[f]) {
						now.ChangedFields = append(now.ChangedFields, f)
					}
				}
			}
			item.ChangedSince = item.ChangedSince || now.ChangedSince
			item.TargetGone = item.TargetGone || now.Gone
			item.Targets = append(item.Targets, now)
		}
		out = append(out, item)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt < out[j].CreatedAt })
	return out
}

// jsonEqual compares two JSON values by meaning, not by spelling.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// VerbNames lists the approval verbs, sorted.
func VerbNames() []string {
	names := slices.Collect(maps.Keys(VerbRoutes()))
	slices.Sort(names)
	return names
}

func findCase(d *wire.Doc, id string) *wire.Case {
	for _, c := range d.Cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}
