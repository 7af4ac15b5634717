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
	col, err := columns(header, m)
	if err != nil {
		return imports.Plan{}, err
	}
	r := reader{col: col, labels: map[string]bool{}, seen: map[string]int{}}
	r.plan.Format = wire.ImportCSV
	if root = strings.TrimSpace(root); root != "" {
		r.rootID = Prefix + "root:" + root
		r.plan.Nodes = append(r.plan.Nodes, imports.Node{Row: "file", SourceID: r.rootID, Kind: wire.KindInitiative, Title: root})
	}
	for rec, err := range rows {
		if err != nil {
			return imports.Plan{}, err
		}
		if err := r.row(rec); err != nil {
			return imports.Plan{}, err
		}
	}
	at, err := attachTasks(r.nodes, r.tasks)
	if err != nil {
		return imports.Plan{}, err
	}
	ordered, err := parentsFirst(r.nodes, at)
	if err != nil {
		return imports.Plan{}, err
	}
	r.plan.Nodes = append(r.plan.Nodes, ordered...)
	return r.plan, nil
}

// columns is the column of each field: a header named like a field maps
// itself (the first such column wins), then m adds or overrides.
func columns(header []string, m map[string]string) (map[string]int, error) {
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
			return nil, imports.BadRow("mapping", "%s=%s: field must be one of %s", c, f, strings.Join(Fields, ", "))
		}
		i := -1
		for k, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(c)) {
				i = k
			}
		}
		if i < 0 {
			return nil, imports.BadRow("mapping", "%s=%s: the header has no column %q", c, f, c)
		}
		col[field] = i
	}
	if _, ok := col["title"]; !ok {
		return nil, imports.BadRow("row 1", "no column maps to title: name one with --map <column>=title")
	}
	return col, nil
}

// taskRow is a task row, kept until every case row is read: its case may
// come later in the file.
type taskRow struct {
	row, parent string
	task        imports.Task
}

// reader collects the rows of one file.
type reader struct {
	col    map[string]int
	rootID string
	plan   imports.Plan // the root node and the labels, in the order met
	nodes  []imports.Node
	tasks  []taskRow
	labels map[string]bool
	seen   map[string]int // title and parent -> rows so far, for ids by hash
}

// row reads one row into a node or a task.
func (r *reader) row(rec imports.CSVRow) error {
	row := rec.Name
	get := func(f string) string { return rec.Get(r.col, f) }
	title := get("title")
	if title == "" {
		return imports.BadRow(row, "title is empty")
	}
	due, ok := imports.Due(get("dueAt"))
	if !ok {
		return imports.BadRow(row, "dueAt %q is not a date (YYYY-MM-DD or an ISO datetime)", get("dueAt"))
	}
	parent := get("parentId")
	src := r.sourceID(get, parent, title)
	done, completedAt, err := completion(get("completedAt"))
	if err != nil {
		return imports.BadRow(row, "%v", err)
	}
	typ := strings.ToLower(get("type"))
	kind := strings.ToLower(get("kind"))
	switch typ {
	case "task":
		if parent == "" {
			return imports.BadRow(row, "a task row needs parentId: the id of its case")
		}
		r.tasks = append(r.tasks, taskRow{row: row, parent: parent, task: imports.Task{SourceID: src, Title: title, Detail: get("summary"), DueAt: due, CompletedAt: completedAt, Done: done}})
		return nil
	case "", "case":
	case "initiative", "workstream":
		kind = typ
	default:
		return imports.BadRow(row, "type must be case or task, not %q", typ)
	}
	if kind != "" && !slicesContains(wire.Kinds(), kind) {
		return imports.BadRow(row, "kind must be one of %s, not %q", strings.Join(wire.Kinds(), ", "), kind)
	}
	n := imports.Node{Row: row, SourceID: src, Kind: wire.Kind(kind), Title: title, Summary: get("summary"), DueAt: due,
		Domain: wire.Domain(strings.ToLower(get("domain"))), ArchivedAt: get("archivedAt")}
	if n.Kind == "" {
		n.Kind = wire.KindCase
	}
	if parent != "" {
		n.ParentSourceID = Prefix + parent
	} else if r.rootID != "" && n.Kind != wire.KindInitiative {
		n.ParentSourceID = r.rootID
	}
	if err := r.fill(&n, get, done); err != nil {
		return err
	}
	r.nodes = append(r.nodes, n)
	return nil
}

// sourceID is a row's source id: its id column, else its sourceId column,
// else a hash of its title and parent counted over repeats.
func (r *reader) sourceID(get func(string) string, parent, title string) string {
	src := get("sourceId")
	if id := get("id"); id != "" {
		src = Prefix + id
	}
	if src == "" {
		key := parent + "\x00" + title
		r.seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(r.seen[key])))
		src = Prefix + "#" + hex.EncodeToString(sum[:8])
	}
	return src
}

// fill sets a node's lane, star, labels and note from its row, adding each
// label to the plan the first time it is met.
func (r *reader) fill(n *imports.Node, get func(string) string, done bool) error {
	if s := get("status"); s != "" {
		lane, ok := imports.LaneOf(s)
		if !ok {
			return imports.BadRow(n.Row, "status %q is not a lane (one of %s)", s, strings.Join(wire.Lanes(), ", "))
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
		if !r.labels[l] {
			r.labels[l] = true
			r.plan.Labels = append(r.plan.Labels, imports.Label{Key: l, Title: l})
		}
	}
	if note := get("notes"); note != "" {
		n.Notes = append(n.Notes, imports.Note{Text: note})
	}
	return nil
}

// attachTasks gives each task to the node its parentId names and answers
// where each node's source id sits in nodes.
func attachTasks(nodes []imports.Node, tasks []taskRow) (map[string]int, error) {
	at := map[string]int{}
	for i, n := range nodes {
		if _, dup := at[n.SourceID]; dup {
			return nil, imports.BadRow(n.Row, "id %s appears twice", strings.TrimPrefix(n.SourceID, Prefix))
		}
		at[n.SourceID] = i
	}
	for _, t := range tasks {
		i, ok := at[Prefix+t.parent]
		if !ok {
			return nil, imports.BadRow(t.row, "parentId %s is no case row of the file", t.parent)
		}
		nodes[i].Tasks = append(nodes[i].Tasks, t.task)
	}
	return at, nil
}

// parentsFirst orders nodes by depth, keeping the file's order within one
// depth: a row may come before its parent's row.
func parentsFirst(nodes []imports.Node, at map[string]int) ([]imports.Node, error) {
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
			return nil, imports.BadRow(n.Row, "parentId makes a cycle")
		}
	}
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return depths[order[a]] < depths[order[b]] })
	out := make([]imports.Node, 0, len(nodes))
	for _, i := range order {
		out = append(out, nodes[i])
	}
	return out, nil
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
