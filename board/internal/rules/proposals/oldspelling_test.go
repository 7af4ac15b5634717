package proposals

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/storefile"
	"github.com/opsboard/opsboard/shared/wire"
)

// openDoc writes d as the board's document and opens a store on it, as a
// board started on data written by an older version would.
func openDoc(t *testing.T, d *wire.Doc) *store.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "board.json")
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(store.Config{Path: path, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestOldSpellingsStillApprove: proposals filed in the route's spelling
// before propose took the tools' ({id, targetId} for merge, {ids, patch}
// for update_cases) sit in the document and approve as they were meant,
// and the activity entry names who proposed and who approved.
func TestOldSpellingsStillApprove(t *testing.T) {
	d := storefile.New()
	d.Cases = wire.ListOf([]*wire.Case{
		{ID: "CASE-1", Title: "Movers (dup)", Kind: wire.KindCase, Status: "todo", Domain: "work", CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z"},
		{ID: "CASE-2", Title: "Movers", Kind: wire.KindCase, Status: "todo", Domain: "work", CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z"},
		{ID: "CASE-3", Title: "Desks", Kind: wire.KindCase, Status: "todo", Domain: "work", CreatedAt: "2026-01-01T00:00:00Z", UpdatedAt: "2026-01-01T00:00:00Z"},
	}...)
	d.Proposals = wire.ListOf([]*wire.Proposal{
		{ID: "PROP-1", Verb: "merge", Payload: json.RawMessage(`{"id":"CASE-1","targetId":"CASE-2"}`), Summary: "one movers case", Actor: wire.ActorAgent, CreatedAt: "2026-01-02T00:00:00Z",
			Target: "CASE-1", TargetUpdatedAt: "2026-01-01T00:00:00Z", Others: []wire.ProposalTarget{{ID: "CASE-2", UpdatedAt: "2026-01-01T00:00:00Z"}}},
		{ID: "PROP-2", Verb: "update_cases", Payload: json.RawMessage(`{"ids":["CASE-2","CASE-3"],"patch":{"status":"waiting_for_input"}}`), Summary: "both wait", Actor: wire.ActorAgent, CreatedAt: "2026-01-02T00:00:01Z",
			Target: "CASE-2", TargetUpdatedAt: "2026-01-01T00:00:00Z", Others: []wire.ProposalTarget{{ID: "CASE-3", UpdatedAt: "2026-01-01T00:00:00Z"}}},
	}...)
	d.Counters = map[string]int64{"CASE": 3, "PROP": 2}
	s := openDoc(t, d)
	ctx := context.Background()

	if _, res, _, err := Approve(ctx, s, wire.ActorHuman, "PROP-1", nil); err != nil {
		t.Fatalf("approve the old merge: %v", err)
	} else if res.Case == nil || res.Case.ID != "CASE-2" {
		t.Errorf("old merge answers %+v, want the case kept", res.Case)
	}
	if _, res, _, err := Approve(ctx, s, wire.ActorHuman, "PROP-2", nil); err != nil {
		t.Fatalf("approve the old batch: %v", err)
	} else if len(res.Cases) != 2 {
		t.Errorf("old batch changed %d cases, want 2", len(res.Cases))
	}
	snap := s.Snapshot()
	if snap.Proposals.Len() != 0 {
		t.Errorf("proposals left: %v", snap.Proposals)
	}
	for _, c := range snap.Cases.All() {
		if c.ID == "CASE-1" && c.MergedInto != "CASE-2" {
			t.Errorf("CASE-1 was not merged into CASE-2: %+v", c)
		}
		if c.ID != "CASE-1" && c.Status != "waiting_for_input" {
			t.Errorf("%s is %s after the old batch", c.ID, c.Status)
		}
	}
	// The change is the proposer's, and its entry names the proposal, the
	// proposer and the approver.
	var found bool
	for _, c := range snap.Cases.All() {
		if c.ID != "CASE-3" {
			continue
		}
		for _, a := range c.Activity {
			if a.Verb == "status_changed" {
				found = true
				if a.Actor != wire.ActorAgent || !strings.Contains(a.Detail, "PROP-2 update_cases: proposed by agent, approved by human") {
					t.Errorf("the change's entry %+v", a)
				}
			}
		}
	}
	if !found {
		t.Error("CASE-3 logs no status change")
	}
}

// TestNewSpellingsAsTheTools: merge takes sourceId as merge_cases does,
// update_cases takes the patch flat as the tool does; a payload mixing
// merge's spellings is refused.
func TestNewSpellingsAsTheTools(t *testing.T) {
	p, err := parseProposal("merge", json.RawMessage(`{"sourceId":"CASE-1","targetId":"CASE-2"}`))
	if err != nil || strings.Join(p.targets, ",") != "CASE-1,CASE-2" {
		t.Errorf("merge: %v %v", p.targets, err)
	}
	if _, err := parseProposal("merge", json.RawMessage(`{"sourceId":"CASE-1","id":"CASE-1","targetId":"CASE-2"}`)); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("both spellings: %v", err)
	}
	if _, err := parseProposal("merge", json.RawMessage(`{"targetId":"CASE-2"}`)); err == nil || !strings.Contains(err.Error(), "field 'sourceId' is required") {
		t.Errorf("no source: %v", err)
	}
	p, err = parseProposal("update_cases", json.RawMessage(`{"ids":["CASE-1","CASE-2"],"status":"done","labels":[]}`))
	if err != nil || strings.Join(p.targets, ",") != "CASE-1,CASE-2" || strings.Join(p.fields, ",") != "labels,status" {
		t.Errorf("flat update_cases: %v %v %v", p.targets, p.fields, err)
	}
	if _, err := parseProposal("update_cases", json.RawMessage(`{"ids":["CASE-1"],"status":"done","expectedVersion":3}`)); err == nil || !strings.Contains(err.Error(), "expectedVersion does not belong") {
		t.Errorf("flat update_cases with expectedVersion: %v", err)
	}
	if _, err := parseProposal("update_cases", json.RawMessage(`{"ids":["CASE-1"],"colour":"red"}`)); err == nil || !strings.Contains(err.Error(), `unknown field "colour"`) {
		t.Errorf("flat update_cases with an unknown field: %v", err)
	}
}
