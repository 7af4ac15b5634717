package proposals

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/cases"
	"github.com/opsboard/opsboard/board/internal/rules/events"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/reminders"
	"github.com/opsboard/opsboard/board/internal/rules/undo"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// verb is one verb of the approval queue: the route it commits through and
// the parser of its payload. keys are the fields the payload sets, besides
// id, actor and expectedVersion.
type verb struct {
	route string
	parse func(raw json.RawMessage, keys []string) (proposed, error)
}

// verbs lists the verbs of the approval queue. A verb's payload is the
// arguments of the agent tool the verb mirrors, which are its route's body
// plus the id where the route has one, except merge ({sourceId, targetId}
// as merge_cases) and update_cases (flat, as the tool). Proposals filed
// before in the route's spelling ({id, targetId}, {ids, patch}) still
// parse, so they approve as they were meant. A verb commits through the
// rule its route runs.
func verbs() map[string]verb {
	return map[string]verb{
		"update_case":     {"PATCH /api/cases/{id}", parseUpdateCase(false)},
		"update_cases":    {"PATCH /api/cases", parseUpdateCases},
		"set_parent":      {"PATCH /api/cases/{id} with parentId only (leaf cases)", parseUpdateCase(true)},
		"archive":         {"DELETE /api/cases/{id}", parseArchive},
		"restore":         {"POST /api/cases/{id}/restore", parseRestore},
		"delete":          {"DELETE /api/cases/{id}?hard=1", parseDelete},
		"merge":           {"POST /api/cases/{id}/merge", parseMerge},
		"create_case":     {"POST /api/cases", parseCreateCase},
		"update_reminder": {"PATCH /api/reminders/{id}", parseUpdateReminder},
		"update_event":    {"PATCH /api/events/{id}", parseUpdateEvent},
		"undo":            {"POST /api/undo with {version, through?} or {writesBy, since, through?}", parseUndo},
	}
}

// VerbRoutes maps each verb of the approval queue to the route it commits
// through. A verb's payload is exactly that route's body plus the id where
// the route has one.
func VerbRoutes() map[string]string {
	out := map[string]string{}
	for name, v := range verbs() {
		out[name] = v.route
	}
	return out
}

// VerbNames lists the approval verbs, sorted.
func VerbNames() []string {
	names := slices.Collect(maps.Keys(verbs()))
	slices.Sort(names)
	return names
}

// proposed is a parsed proposal: what it touches and how to commit it.
type proposed struct {
	targets []string // records it changes, primary first
	fields  []string // fields of the primary whose before values are kept
	// apply runs the verb's route operation inside a write and returns the
	// route's answer without its version.
	apply func(tx *store.Tx) (wire.ApprovalResult, error)
}

// parseProposal strictly decodes a verb's payload, with the same rules the
// route's own body decoding applies.
func parseProposal(name string, raw json.RawMessage) (proposed, error) {
	keys, err := payloadKeys(raw)
	if err != nil {
		return proposed{}, err
	}
	v, ok := verbs()[name]
	if name == CreatePage {
		// Filed by the board for an agent's page create; kept out of the
		// listed verbs, which name the routes a proposal commits through.
		v, ok = verb{"POST /api/vault/pages", parseCreatePage}, true
	}
	if !ok {
		return proposed{}, errs.BadRequest("unknown verb %q: use one of %s", name, strings.Join(VerbNames(), ", "))
	}
	return v.parse(raw, keys)
}

// parseUpdateCase reads update_case, or with leafMove set_parent: the case
// patch route's body with the id.
func parseUpdateCase(leafMove bool) func(json.RawMessage, []string) (proposed, error) {
	return func(raw json.RawMessage, keys []string) (proposed, error) {
		var in struct {
			ID string `json:"id"`
			wire.CasePatch
		}
		if err := strictDecode(raw, &in); err != nil {
			return proposed{}, err
		}
		if err := targeted(in.ID, in.ExpectedVersion); err != nil {
			return proposed{}, err
		}
		if leafMove && (!in.ParentID.Set || len(keys) != 1 || keys[0] != "parentId") {
			return proposed{}, errs.BadRequest("payload of set_parent is { id, parentId } (parentId null detaches)")
		}
		return proposed{targets: []string{in.ID}, fields: keys, apply: func(tx *store.Tx) (wire.ApprovalResult, error) {
			if leafMove {
				if c, ok := tx.Cases().Get(in.ID); ok && c.Kind != wire.KindCase {
					return wire.ApprovalResult{}, errs.BadRequest("set_parent moves leaf cases only; %s is a %s: use update_case with kind and parentId", in.ID, c.Kind)
				}
			}
			c, err := cases.PatchTx(tx, in.ID, in.CasePatch)
			return wire.ApprovalResult{Case: c}, err
		}}, nil
	}
}

// parseUpdateCases reads update_cases as the tool spells it, { ids,
// ...patch fields }, or in the batch route's spelling { ids, patch }.
func parseUpdateCases(raw json.RawMessage, keys []string) (proposed, error) {
	var top map[string]json.RawMessage
	_ = json.Unmarshal(raw, &top) // payloadKeys already accepted it
	if _, routeSpelling := top["patch"]; !routeSpelling {
		var flat struct {
			IDs []string `json:"ids"`
			wire.CasePatch
		}
		if err := strictDecode(raw, &flat); err != nil {
			return proposed{}, err
		}
		in := wire.CaseBatch{IDs: flat.IDs, Patch: flat.CasePatch, ExpectedVersion: flat.ExpectedVersion, Actor: flat.Actor}
		in.Patch.ExpectedVersion, in.Patch.Actor = nil, ""
		fields := make([]string, 0, len(keys))
		for _, k := range keys {
			if k != "ids" {
				fields = append(fields, k)
			}
		}
		return batchProposal(in, fields)
	}
	var in wire.CaseBatch
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	fields, err := payloadKeys(top["patch"])
	if err != nil {
		return proposed{}, errs.BadRequest("payload: field 'patch' must be an object")
	}
	return batchProposal(in, fields)
}

// batchProposal is an update_cases proposal once read; fields are the
// patch's fields.
func batchProposal(in wire.CaseBatch, fields []string) (proposed, error) {
	if err := noExpected(in.ExpectedVersion); err != nil {
		return proposed{}, err
	}
	if err := noExpected(in.Patch.ExpectedVersion); err != nil {
		return proposed{}, err
	}
	ids := field.CleanList(in.IDs)
	if len(ids) == 0 {
		return proposed{}, errs.BadRequest("payload: field 'ids' must list at least one case id")
	}
	return proposed{targets: ids, fields: fields, apply: func(tx *store.Tx) (wire.ApprovalResult, error) {
		cs, err := cases.PatchManyTx(tx, in)
		return wire.ApprovalResult{Cases: cs}, err
	}}, nil
}

type idOnly struct {
	ID    string `json:"id"`
	Actor string `json:"actor,omitempty"`
}

// parseIDOnly reads a verb whose payload names one case and nothing else;
// fields are the case's fields the verb changes.
func parseIDOnly(raw json.RawMessage, fields []string, apply func(tx *store.Tx, id string) (wire.ApprovalResult, error)) (proposed, error) {
	var in idOnly
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	if err := needID(in.ID); err != nil {
		return proposed{}, err
	}
	return proposed{targets: []string{in.ID}, fields: fields, apply: func(tx *store.Tx) (wire.ApprovalResult, error) { return apply(tx, in.ID) }}, nil
}

func parseArchive(raw json.RawMessage, _ []string) (proposed, error) {
	return parseIDOnly(raw, []string{"archivedAt"}, func(tx *store.Tx, id string) (wire.ApprovalResult, error) {
		c, err := cases.PatchTx(tx, id, wire.CasePatch{ArchivedAt: wire.Some("now")})
		return wire.ApprovalResult{Case: c}, err
	})
}

func parseRestore(raw json.RawMessage, _ []string) (proposed, error) {
	return parseIDOnly(raw, []string{"archivedAt"}, func(tx *store.Tx, id string) (wire.ApprovalResult, error) {
		c, err := cases.PatchTx(tx, id, wire.CasePatch{ArchivedAt: wire.Null[string]()})
		return wire.ApprovalResult{Case: c}, err
	})
}

func parseDelete(raw json.RawMessage, _ []string) (proposed, error) {
	return parseIDOnly(raw, []string{"title", "status", "archivedAt"}, func(tx *store.Tx, id string) (wire.ApprovalResult, error) {
		return wire.ApprovalResult{Deleted: id, OK: true}, cases.DeleteTx(tx, id)
	})
}

// parseMerge reads merge as merge_cases spells it, { sourceId, targetId },
// or as the route does, { id, targetId }.
func parseMerge(raw json.RawMessage, _ []string) (proposed, error) {
	var in struct {
		SourceID string `json:"sourceId"`
		ID       string `json:"id"` // the route's spelling of sourceId
		TargetID string `json:"targetId"`
		Actor    string `json:"actor,omitempty"`
	}
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	source, target := strings.TrimSpace(in.SourceID), strings.TrimSpace(in.TargetID)
	switch old := strings.TrimSpace(in.ID); {
	case source != "" && old != "":
		return proposed{}, errs.BadRequest("payload: give field 'sourceId' or its old spelling 'id', not both")
	case source == "" && old == "":
		return proposed{}, errs.BadRequest("payload: field 'sourceId' is required")
	case source == "":
		source = old
	}
	if target == "" {
		return proposed{}, errs.BadRequest("payload: field 'targetId' is required")
	}
	return proposed{targets: []string{source, target}, fields: []string{"archivedAt", "mergedInto"}, apply: func(tx *store.Tx) (wire.ApprovalResult, error) {
		c, err := cases.MergeTx(tx, source, target)
		return wire.ApprovalResult{Case: c}, err
	}}, nil
}

// parseCreateCase reads create_case: the create route's body. Its target is
// the parent it would join, which must still be there.
func parseCreateCase(raw json.RawMessage, _ []string) (proposed, error) {
	var in wire.CaseCreate
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	var p proposed
	if parent := strings.TrimSpace(in.ParentID); parent != "" {
		p.targets = []string{parent}
	}
	p.apply = func(tx *store.Tx) (wire.ApprovalResult, error) {
		c, found, err := cases.CreateTx(tx, in)
		if found {
			return wire.ApprovalResult{Case: c, Existing: true}, nil
		}
		return wire.ApprovalResult{Case: c}, err
	}
	return p, nil
}

func parseUpdateReminder(raw json.RawMessage, keys []string) (proposed, error) {
	var in struct {
		ID string `json:"id"`
		wire.ReminderPatch
	}
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	if err := targeted(in.ID, in.ExpectedVersion); err != nil {
		return proposed{}, err
	}
	return proposed{targets: []string{in.ID}, fields: keys, apply: func(tx *store.Tx) (wire.ApprovalResult, error) {
		r, err := reminders.PatchTx(tx, in.ID, in.ReminderPatch)
		return wire.ApprovalResult{Reminder: r}, err
	}}, nil
}

func parseUpdateEvent(raw json.RawMessage, keys []string) (proposed, error) {
	var in struct {
		ID string `json:"id"`
		wire.EventPatch
	}
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	if err := targeted(in.ID, in.ExpectedVersion); err != nil {
		return proposed{}, err
	}
	return proposed{targets: []string{in.ID}, fields: keys, apply: func(tx *store.Tx) (wire.ApprovalResult, error) {
		e, err := events.PatchTx(tx, in.ID, in.EventPatch)
		return wire.ApprovalResult{Event: e}, err
	}}, nil
}

// parseUndo reads undo: { version, through? } or { writesBy, since,
// through? }, the writes to undo. The agent has no undo of its own; this is
// how it asks the person for one.
func parseUndo(raw json.RawMessage, _ []string) (proposed, error) {
	var in wire.UndoPayload
	if err := strictDecode(raw, &in); err != nil {
		return proposed{}, err
	}
	req, err := undo.Parse(wire.UndoRequest{Version: in.Version, WritesBy: in.WritesBy, Since: in.Since, Through: in.Through})
	if err != nil {
		return proposed{}, errs.BadRequest("payload: %v", err)
	}
	return proposed{apply: func(tx *store.Tx) (wire.ApprovalResult, error) {
		plan, err := undo.ApplyTx(tx, req)
		if err != nil {
			return wire.ApprovalResult{}, err
		}
		out := wire.ApprovalResult{OK: true}
		for _, w := range undo.Describe(plan.Writes) {
			out.Undone = append(out.Undone, w.Version)
		}
		return out, nil
	}}, nil
}
