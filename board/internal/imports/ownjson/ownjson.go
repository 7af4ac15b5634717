// Package ownjson reads the board's own JSON export (GET /api/export?format=json,
// or a board.json) into an import plan: the label catalog, and every case
// node with its tasks and notes, parents first. Messages, events, reminders,
// priorities, views and templates are not imported (`board restore` brings
// back a whole board).
package ownjson

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/shared/wire"
)

// Prefix marks a source id as one of this kind of board.
const Prefix = "opsboard:"

// Sniff reports whether data looks like the board's own export or document.
func Sniff(data []byte) bool {
	var head struct {
		ExportFormat  string          `json:"exportFormat"`
		SchemaVersion *int            `json:"schemaVersion"`
		Cases         json.RawMessage `json:"cases"`
	}
	if json.Unmarshal(data, &head) != nil {
		return false
	}
	return head.ExportFormat == wire.ExportFormat || (head.SchemaVersion != nil && head.Cases != nil)
}

// Parse reads an export into a plan.
func Parse(data []byte) (imports.Plan, error) {
	var ex wire.Export
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&ex); err != nil {
		return imports.Plan{}, imports.BadRow("file", "not the board's JSON export: %v", err)
	}
	if ex.ExportFormat == "" && !Sniff(data) { // a board.json: scan it again for its keys
		return imports.Plan{}, imports.BadRow("file", "not the board's JSON export: it has no exportFormat, nor schemaVersion and cases")
	}
	if ex.ExportFormat != "" && ex.ExportFormat != wire.ExportFormat {
		return imports.Plan{}, imports.BadRow("file", "export format %q is not %q", ex.ExportFormat, wire.ExportFormat)
	}
	if ex.SchemaVersion > wire.SchemaVersion {
		return imports.Plan{}, imports.BadRow("file", "schema version %d is newer than this board's %d", ex.SchemaVersion, wire.SchemaVersion)
	}
	p := imports.Plan{Format: wire.ImportJSON}
	known := map[string]bool{}
	for _, l := range ex.Labels.All() {
		if l == nil {
			continue
		}
		p.Labels = append(p.Labels, imports.Label{Key: l.ID, Title: l.Title, Color: l.Color, Description: l.Description})
		known[l.ID] = true
	}
	byID := map[string]*wire.Case{}
	for i, c := range ex.Cases.All() {
		if c == nil || c.ID == "" {
			return imports.Plan{}, imports.BadRow(fmt.Sprintf("cases[%d]", i), "a case needs an id")
		}
		if byID[c.ID] != nil {
			return imports.Plan{}, imports.BadRow(fmt.Sprintf("cases[%d]", i), "id %s appears twice", c.ID)
		}
		byID[c.ID] = c
		for _, l := range c.Labels { // a label since removed from the catalog
			if !known[l] {
				known[l] = true
				p.Labels = append(p.Labels, imports.Label{Key: l, Title: l})
			}
		}
	}
	// Parents first, each list keeping the document's order: initiatives
	// and other roots, then what sits under them, level by level.
	placed := map[string]bool{}
	for len(placed) < ex.Cases.Len() {
		progress := false
		for i, c := range ex.Cases.All() {
			if placed[c.ID] || (c.ParentID != "" && byID[c.ParentID] != nil && !placed[c.ParentID]) {
				continue
			}
			placed[c.ID] = true
			progress = true
			p.Nodes = append(p.Nodes, node(i, c, byID))
		}
		if !progress {
			for i, c := range ex.Cases.All() {
				if !placed[c.ID] {
					return imports.Plan{}, imports.BadRow(fmt.Sprintf("cases[%d]", i), "%s is in a parent cycle", c.ID)
				}
			}
		}
	}
	return p, nil
}

func node(i int, c *wire.Case, byID map[string]*wire.Case) imports.Node {
	src := c.SourceID
	if src == "" {
		src = Prefix + c.ID
	}
	n := imports.Node{
		Row: fmt.Sprintf("cases[%d] (%s)", i, c.ID), SourceID: src, Kind: c.Kind, Title: c.Title, Summary: c.Summary,
		Status: c.Status, Domain: c.Domain, Labels: c.Labels, DueAt: c.DueAt, Starred: c.Starred, ArchivedAt: c.ArchivedAt,
		OrigID: c.ID, OrigCreatedAt: c.CreatedAt,
	}
	if p := byID[c.ParentID]; p != nil {
		n.ParentSourceID = p.SourceID
		if n.ParentSourceID == "" {
			n.ParentSourceID = Prefix + p.ID
		}
	}
	for _, t := range c.Tasks {
		ts := t.SourceID
		if ts == "" {
			ts = Prefix + t.ID
		}
		n.Tasks = append(n.Tasks, imports.Task{SourceID: ts, Title: t.Title, Detail: t.Detail, DueAt: t.DueAt, CompletedAt: t.CompletedAt})
	}
	for _, nt := range c.Notes {
		n.Notes = append(n.Notes, imports.Note{Text: nt.Text, Actor: string(nt.Actor), CreatedAt: nt.CreatedAt})
	}
	return n
}
