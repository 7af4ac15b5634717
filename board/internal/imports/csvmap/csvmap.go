// Package csvmap reads any CSV with a header row into an import plan,
// through a mapping of columns to fields. A column named like a field (or a
// common synonym: name for title, description for summary, lane for
// status, tags for labels, due for dueAt, parent for parentId) maps itself;
// the mapping adds or overrides columns. The board's own CSV export reads
// back with no mapping at all.
//
// Each row is a case node, unless its type is task: then it is a task of
// the node whose id is its parentId. A row's source id is its id column
// ("csv:<id>"), else its sourceId column, else a hash of its title and
// parent (with a count for repeats).
package csvmap

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/shared/wire"
)

// Prefix marks a source id as a generic CSV's.
const Prefix = "csv:"

// Fields are what a column can map to.
var Fields = []string{"title", "summary", "status", "labels", "dueAt", "kind", "id", "parentId", "type", "domain", "completedAt", "starred", "notes", "archivedAt", "sourceId"}

// synonyms maps a normalized header to the field it means.
var synonyms = map[string]string{
	"name": "title", "task": "title", "content": "title", "subject": "title",
	"description": "summary", "desc": "summary", "detail": "summary", "details": "summary", "body": "summary",
	"lane": "status", "state": "status", "column": "status",
	"label": "labels", "tags": "labels", "tag": "labels",
	"due": "dueAt", "duedate": "dueAt", "deadline": "dueAt",
	"parent": "parentId", "done": "completedAt", "completed": "completedAt", "note": "notes", "comment": "notes",
}

func norm(s string) string {
	return strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(strings.TrimSpace(s)))
}

// fieldOf is the field a name means, or "".
func fieldOf(name string) string {
	n := norm(name)
	for _, f := range Fields {
		if norm(f) == n {
			return f
		}
	}
	return synonyms[n]
}

// ParseMap reads "col=field,col=field" (the CLI's --map) into a mapping.
func ParseMap(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		col, f, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(col) == "" || strings.TrimSpace(f) == "" {
			return nil, fmt.Errorf("mapping %q is not column=field", pair)
		}
		out[strings.TrimSpace(col)] = strings.TrimSpace(f)
	}
	return out, nil
}

// Parse reads data with the mapping m (column header -> field). root, when
// not empty, names an initiative that holds the rows without a parent.
func Parse(data []byte, m map[string]string, root string) (imports.Plan, error) {
	header, rows, err := imports.ReadCSV(data)
	if err != nil {
		return imports.Plan{}, err
	}
	col := map[string]int{} // field -> column
	for i, h := range header {
		if f := fieldOf(h); f != "" {
			if _, taken := col[f]; !taken {
				col[f] = i
			}
		}
	}
	for c, f := range m {
		field := fieldOf(f)
		if field == "" {
			return imports.Plan{}, imports.BadRow("mapping", "%s=%s: field must be one of %s", c, f, strings.Join(Fields, ", "))
		}
		i := -1
		for k, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(c)) {
				i = k
			}
		}
		if i < 0 {
			return imports.Plan{}, imports.BadRow("mapping", "%s=%s: the header has no column %q", c, f, c)
		}
		col[field] = i
	}
	if _, ok := col["title"]; !ok {
		return imports.Plan{}, imports.BadRow("row 1", "no column maps to title: name one with --map <column>=title")
	}
	p := imports.Plan{Format: wire.ImportCSV}
	rootID := ""
	if root = strings.TrimSpace(root); root != "" {
		rootID = Prefix + "root:" + root
		p.Nodes = append(p.Nodes, imports.Node{Row: "file", SourceID: rootID, Kind: wire.KindInitiative, Title: root})
	}
	type taskRow struct {
		row, parent string
		task        imports.Task
	}
	var nodes []imports.Node
	var tasks []taskRow
	labels := map[string]bool{}
	seen := map[string]int{}
	for rec, err := range rows {
		if err != nil {
			return imports.Plan{}, err
		}
		row := rec.Name
		get := func(f string) string { return rec.Get(col, f) }
		title := get("title")
		if title == "" {
			return imports.Plan{}, imports.BadRow(row, "title is empty")
		}
		due, ok := imports.Due(get("dueAt"))
		if !ok {
			return imports.Plan{}, imports.BadRow(row, "dueAt %q is not a date (YYYY-MM-DD or an ISO datetime)", get("dueAt"))
		}
		src := get("sourceId")
		if id := get("id"); id != "" {
			src = Prefix + id
		}
		parent := get("parentId")
		if src == "" {
			key := parent + "\x00" + title
			seen[key]++
			sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(seen[key])))
			src = Prefix + "#" + hex.EncodeToString(sum[:8])
		}
		done, completedAt, err := completion(get("completedAt"))
		if err != nil {
			return imports.Plan{}, imports.BadRow(row, "%v", err)
		}
		typ := strings.ToLower(get("type"))
		kind := strings.ToLower(get("kind"))
		switch typ {
		case "task":
			if parent == "" {
				return imports.Plan{}, imports.BadRow(row, "a task row needs parentId: the id of its case")
			}
			tasks = append(tasks, taskRow{row: row, parent: parent, task: imports.Task{SourceID: src, Title: title, Detail: get("summary"), DueAt: due, CompletedAt: completedAt, Done: done}})
			continue
		case "", "case":
		case "initiative", "workstream":
			kind = typ
		default:
			return imports.Plan{}, imports.BadRow(row, "type must be case or task, not %q", typ)
		}
		if kind != "" && !slicesContains(wire.Kinds(), kind) {
			return imports.Plan{}, imports.BadRow(row, "kind must be one of %s, not %q", strings.Join(wire.Kinds(), ", "), kind)
		}
		n := imports.Node{Row: row, SourceID: src, Kind: wire.Kind(kind), Title: title, Summary: get("summary"), DueAt: due,
			Domain: wire.Domain(strings.ToLower(get("domain"))), ArchivedAt: get("archivedAt")}
		if n.Kind == "" {
			n.Kind = wire.KindCase
		}
		if parent != "" {
			n.ParentSourceID = Prefix + parent
		} else if rootID != "" && n.Kind != wire.KindInitiative {
			n.ParentSourceID = rootID
		}
		if s := get("status"); s != "" {
			lane, ok := imports.LaneOf(s)
			if !ok {
				return imports.Plan{}, imports.BadRow(row, "status %q is not a lane (one of %s)", s, strings.Join(wire.Lanes(), ", "))
			}
			n.Status = lane
		} else if done {
			n.Status = wire.LaneDone
		}
		switch strings.ToLower(get("starred")) {
		case "true", "yes", "1", "x", "*":
			n.Starred = true
		}
		for _, l := range strings.FieldsFunc(get("labels"), func(r rune) bool { return r == ';' || r == ',' }) {
			if l = strings.TrimSpace(l); l == "" {
				continue
			}
			n.Labels = append(n.Labels, l)
			if !labels[l] {
				labels[l] = true
				p.Labels = append(p.Labels, imports.Label{Key: l, Title: l})
			}
		}
		if note := get("notes"); note != "" {
			n.Notes = append(n.Notes, imports.Note{Text: note})
		}
		nodes = append(nodes, n)
	}
	at := map[string]int{}
	for i, n := range nodes {
		if _, dup := at[n.SourceID]; dup {
			return imports.Plan{}, imports.BadRow(n.Row, "id %s appears twice", strings.TrimPrefix(n.SourceID, Prefix))
		}
		at[n.SourceID] = i
	}
	for _, t := range tasks {
		i, ok := at[Prefix+t.parent]
		if !ok {
			return imports.Plan{}, imports.BadRow(t.row, "parentId %s is no case row of the file", t.parent)
		}
		nodes[i].Tasks = append(nodes[i].Tasks, t.task)
	}
	// Parents first: a row may come before its parent's row.
	depth := func(n imports.Node) int {
		d := 0
		for cur := n; cur.ParentSourceID != "" && d <= len(nodes); d++ {
			i, ok := at[cur.ParentSourceID]
			if !ok {
				break
			}
			cur = nodes[i]
		}
		return d
	}
	depths := make([]int, len(nodes))
	for i, n := range nodes {
		if depths[i] = depth(n); depths[i] > len(nodes) {
			return imports.Plan{}, imports.BadRow(n.Row, "parentId makes a cycle")
		}
	}
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return depths[order[a]] < depths[order[b]] })
	for _, i := range order {
		p.Nodes = append(p.Nodes, nodes[i])
	}
	return p, nil
}

// completion reads a completedAt cell: a date, or a yes/no word.
func completion(s string) (done bool, at string, err error) {
	switch strings.ToLower(s) {
	case "", "false", "no", "0", "open":
		return false, "", nil
	case "true", "yes", "1", "x", "done":
		return true, "", nil
	}
	if d, ok := imports.Due(s); ok {
		return true, d, nil
	}
	return false, "", fmt.Errorf("completedAt %q is neither a date nor yes/no", s)
}

func slicesContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
