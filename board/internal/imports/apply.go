package imports

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/activity"
	"github.com/opsboard/opsboard/board/internal/rules/cases"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/hierarchy"
	"github.com/opsboard/opsboard/board/internal/rules/labels"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// errDryRun ends a dry run's write once it has counted, so nothing commits.
var errDryRun = errors.New("dry run")

// Run applies p as one write, or with dryRun counts what it would create
// and writes nothing. The version is the post-write one (the current one
// after a dry run).
func Run(ctx context.Context, s *store.Store, actor wire.Actor, p Plan, dryRun bool) (wire.ImportCounts, int64, error) {
	var counts wire.ImportCounts
	var current int64
	v, err := s.Update(ctx, actor, nil, func(tx *store.Tx) error {
		current = tx.Doc().Version
		c, err := ApplyTx(tx, p)
		counts = c
		if err == nil && dryRun {
			return errDryRun
		}
		return err
	})
	if errors.Is(err, errDryRun) {
		return counts, current, nil
	}
	if err != nil {
		return wire.ImportCounts{}, 0, err
	}
	return counts, v, nil
}

// ApplyTx writes p inside a write: labels first, then the nodes parents
// first, each through the case rules (hierarchy, label catalog, fields). A
// node whose sourceId the board holds is skipped, but tasks of it the board
// lacks are added. Any error rejects the whole plan and names the row.
func ApplyTx(tx *store.Tx, p Plan) (wire.ImportCounts, error) {
	var n wire.ImportCounts
	labelIDs, err := applyLabels(tx, p.Labels, &n)
	if err != nil {
		return n, err
	}
	bySource := map[string]string{} // sourceId -> board id
	byOrig := map[string]string{}   // id + createdAt -> board id
	for _, c := range tx.Doc().Cases.All() {
		if c.SourceID != "" {
			bySource[c.SourceID] = c.ID
		}
		byOrig[c.ID+"\x00"+c.CreatedAt] = c.ID
	}
	// One index of the tree serves every node's check; a scan of every case
	// per node made a large import quadratic.
	ix := hierarchy.NewIndex(tx.Doc().Cases)
	check := func(n hierarchy.Node) error { return ix.Violation(n) }
	for _, node := range p.Nodes {
		if node.SourceID != "" {
			if id, ok := bySource[node.SourceID]; ok {
				n.Skipped++
				if err := addNewTasks(tx, id, node, &n); err != nil {
					return n, err
				}
				continue
			}
		}
		if id, ok := byOrig[node.OrigID+"\x00"+node.OrigCreatedAt]; ok && node.OrigID != "" {
			bySource[node.SourceID] = id
			n.Skipped++
			continue
		}
		id, err := createNode(tx, node, bySource, labelIDs, check)
		if err != nil {
			return n, rowErr(node.Row, err)
		}
		if node.SourceID != "" {
			bySource[node.SourceID] = id
		}
		if c, ok := tx.Cases().Get(id); ok {
			ix.Put(c)
		}
		switch node.Kind {
		case wire.KindInitiative:
			n.Initiatives++
		case wire.KindWorkstream:
			n.Workstreams++
		default:
			n.Cases++
		}
		n.Tasks += len(node.Tasks)
		n.Notes += len(node.Notes)
	}
	return n, nil
}

// rowErr names the row in a rule's refusal, keeping its status.
func rowErr(row string, err error) error {
	var bad *errs.BadRequestError
	if errors.As(err, &bad) {
		return errs.BadRequest("%s: %s", row, bad.Msg)
	}
	var nf *errs.NotFoundError
	if errors.As(err, &nf) {
		return errs.BadRequest("%s: %s", row, nf.Msg)
	}
	return fmt.Errorf("%s: %w", row, err)
}

// applyLabels finds each label of the plan in the catalog (same id, same
// title or the id its title would get) or creates it, and maps its key to
// the catalog's id.
func applyLabels(tx *store.Tx, ls []Label, n *wire.ImportCounts) (map[string]string, error) {
	ids := map[string]string{}
	byTitle := map[string]string{}
	for _, l := range tx.Doc().Labels.All() {
		byTitle[strings.ToLower(strings.TrimSpace(l.Title))] = l.ID
	}
	for _, l := range ls {
		if _, done := ids[l.Key]; done {
			continue
		}
		title := strings.TrimSpace(l.Title)
		if title == "" {
			title = l.Key
		}
		if _, ok := tx.Labels().Get(l.Key); ok {
			ids[l.Key] = l.Key
			continue
		}
		if id, ok := byTitle[strings.ToLower(title)]; ok {
			ids[l.Key] = id
			continue
		}
		if _, ok := tx.Labels().Get(labels.Kebab(title)); ok {
			ids[l.Key] = labels.Kebab(title)
			continue
		}
		keep := ""
		if l.Key != title { // the key is the source's own id: keep it when it fits
			keep = l.Key
		}
		color := l.Color
		if !validColor(color) {
			color = ""
		}
		def, err := labels.CreateTx(tx, keep, title, l.Description, color)
		if err != nil {
			return nil, rowErr("label "+l.Key, err)
		}
		ids[l.Key] = def.ID
		byTitle[strings.ToLower(title)] = def.ID
		n.Labels++
	}
	return ids, nil
}

func validColor(c string) bool {
	for _, ok := range wire.LabelColors {
		if c == ok {
			return true
		}
	}
	return false
}

// createNode creates one node through the case rules, then sets what a
// create body cannot carry: the source id, completed tasks, notes and the
// archive stamp.
func createNode(tx *store.Tx, node Node, bySource, labelIDs map[string]string, check func(hierarchy.Node) error) (string, error) {
	parent := ""
	if node.ParentSourceID != "" {
		var ok bool
		if parent, ok = bySource[node.ParentSourceID]; !ok {
			return "", errs.BadRequest("parent %s is neither in the file before it nor on the board", node.ParentSourceID)
		}
	}
	in := wire.CaseCreate{Title: node.Title, Kind: string(node.Kind), ParentID: parent, Status: string(node.Status),
		Domain: string(node.Domain), Summary: node.Summary, DueAt: node.DueAt, Starred: node.Starred}
	for _, key := range node.Labels {
		id, ok := labelIDs[key]
		if !ok {
			return "", errs.BadRequest("label %q is not declared in the file", key)
		}
		in.Labels = append(in.Labels, id)
	}
	for _, t := range node.Tasks {
		in.Tasks = append(in.Tasks, wire.TaskInput{Title: t.Title, Detail: t.Detail, DueAt: t.DueAt})
	}
	c, err := cases.CreateCheckedTx(tx, in, check)
	if err != nil {
		return "", err
	}
	c, _ = tx.Cases().Get(c.ID)
	c.SourceID = node.SourceID
	for i, t := range node.Tasks {
		if err := field.CheckDate(fmt.Sprintf("tasks[%d].completedAt", i), t.CompletedAt); err != nil {
			return "", err
		}
		c.Tasks[i].SourceID, c.Tasks[i].CompletedAt = t.SourceID, t.CompletedAt
		if t.Done && t.CompletedAt == "" {
			c.Tasks[i].CompletedAt = tx.Stamp()
		}
	}
	for _, nt := range node.Notes {
		text := strings.TrimSpace(nt.Text)
		if text == "" {
			continue
		}
		actor, at := wire.Actor(nt.Actor), nt.CreatedAt
		if actor == "" {
			actor = tx.Actor()
		}
		if at == "" {
			at = tx.Stamp()
		}
		c.Notes = append(c.Notes, wire.Note{ID: field.NextChildID(c.ID, "N", noteIDs(c)), Text: text, Actor: actor, CreatedAt: at})
	}
	if node.ArchivedAt != "" {
		if err := field.CheckDate("archivedAt", node.ArchivedAt); err != nil {
			return "", err
		}
		c.ArchivedAt = node.ArchivedAt
	}
	activity.Log(c, tx.Actor(), wire.VerbImported, orNone(node.SourceID), tx.Stamp())
	tx.Cases().Put(c)
	return c.ID, nil
}

// addNewTasks adds to an already imported node the tasks of node whose
// source ids it does not hold: a checklist that grew at the source.
func addNewTasks(tx *store.Tx, id string, node Node, n *wire.ImportCounts) error {
	c, ok := tx.Cases().Get(id)
	if !ok {
		return nil
	}
	have := map[string]bool{}
	var ids []string
	for _, t := range c.Tasks {
		have[t.SourceID] = true
		ids = append(ids, t.ID)
	}
	added := 0
	for i, t := range node.Tasks {
		if t.SourceID == "" || have[t.SourceID] {
			continue
		}
		title := strings.TrimSpace(t.Title)
		if title == "" {
			return errs.BadRequest("%s: task %d needs a title", node.Row, i+1)
		}
		for _, e := range []error{field.CheckDate(fmt.Sprintf("tasks[%d].dueAt", i), t.DueAt), field.CheckDate(fmt.Sprintf("tasks[%d].completedAt", i), t.CompletedAt)} {
			if e != nil {
				return rowErr(node.Row, e)
			}
		}
		if t.Done && t.CompletedAt == "" {
			t.CompletedAt = tx.Stamp()
		}
		tid := field.NextChildID(c.ID, "T", ids)
		ids = append(ids, tid)
		c.Tasks = append(c.Tasks, wire.Task{ID: tid, Title: title, Detail: t.Detail, DueAt: t.DueAt, CompletedAt: t.CompletedAt, CreatedAt: tx.Stamp(), SourceID: t.SourceID})
		activity.Log(c, tx.Actor(), wire.VerbTaskAdded, tid+" "+title, tx.Stamp())
		added++
	}
	if added > 0 {
		c.UpdatedAt = tx.Stamp()
		tx.Cases().Put(c)
		n.Tasks += added
	}
	return nil
}

func noteIDs(c *wire.Case) []string {
	out := make([]string, len(c.Notes))
	for i, n := range c.Notes {
		out[i] = n.ID
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
