// Package todoist reads a Todoist project backup (CSV: TYPE, CONTENT,
// DESCRIPTION, PRIORITY, INDENT, AUTHOR, RESPONSIBLE, DATE, DATE_LANG,
// TIMEZONE, ...) into an import plan.
//
// The project becomes one initiative, each section a workstream under it,
// each top-level task (INDENT 1) a case under its section's workstream (or
// under the initiative before any section), and each sub-task (INDENT 2 or
// deeper, flattened) a task of the case above it. A note row becomes a note
// on the case above it. "@name" words in a task's content become labels,
// PRIORITY 1 (Todoist's p1) the urgent lane, and a DATE that is an ISO date
// or datetime the due date; any other DATE ("every monday") is kept in the
// summary. The file has no ids, so a record's source id is made from the
// section, its parent and its content (with a count for repeats).
package todoist

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/shared/wire"
)

// Prefix marks a source id as Todoist's.
const Prefix = "todoist:"

// Sniff reports whether data starts like a Todoist backup.
func Sniff(data []byte) bool {
	line, _, _ := bytes.Cut(bytes.TrimPrefix(data, []byte("\ufeff")), []byte("\n"))
	return bytes.HasPrefix(bytes.TrimSpace(line), []byte("TYPE,CONTENT"))
}

// Parse reads a backup into a plan under an initiative called project.
func Parse(data []byte, project string) (imports.Plan, error) {
	header, rows, err := imports.ReadCSV(data)
	if err != nil {
		return imports.Plan{}, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToUpper(strings.TrimSpace(h))] = i
	}
	for _, need := range []string{"TYPE", "CONTENT"} {
		if _, ok := col[need]; !ok {
			return imports.Plan{}, imports.BadRow("row 1", "the header has no %s column: not a Todoist backup", need)
		}
	}
	project = strings.TrimSpace(project)
	if project == "" {
		project = "Todoist import"
	}
	root := imports.Node{Row: "project", SourceID: Prefix + "project:" + project, Kind: wire.KindInitiative, Title: project}
	r := reader{col: col, project: project, root: root.SourceID, parent: root.SourceID, current: -1,
		labels: map[string]bool{}, seen: map[string]int{}}
	r.p.Format = wire.ImportTodoist
	r.p.Nodes = append(r.p.Nodes, root)
	for rec, err := range rows {
		if err != nil {
			return imports.Plan{}, err
		}
		if err := r.row(rec); err != nil {
			return imports.Plan{}, err
		}
	}
	return r.p, nil
}

// reader builds the plan of one backup, row by row: a row joins the
// section and the case above it.
type reader struct {
	p       imports.Plan
	col     map[string]int
	project string
	root    string          // the project's source id
	labels  map[string]bool // labels already in p
	seen    map[string]int  // key -> times made into an id
	parent  string          // where the next case goes
	section string
	current int // the index in p.Nodes of the case sub-tasks and notes join
}

// unique is a source id for key, counted over repeats of it.
func (r *reader) unique(key string) string {
	r.seen[key]++
	if n := r.seen[key]; n > 1 {
		key += "\x00" + strconv.Itoa(n)
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// row reads one row by its TYPE.
func (r *reader) row(rec imports.CSVRow) error {
	row := rec.Name
	get := func(name string) string { return rec.Get(r.col, name) }
	typ, content := get("TYPE"), get("CONTENT")
	switch typ {
	case "", "meta":
		return nil
	case "section":
		if content == "" {
			return imports.BadRow(row, "a section needs a name in CONTENT")
		}
		r.section = content
		id := Prefix + "section:" + r.unique(r.project+"\x00"+content)
		r.p.Nodes = append(r.p.Nodes, imports.Node{Row: row, SourceID: id, ParentSourceID: r.root, Kind: wire.KindWorkstream, Title: content})
		r.parent, r.current = id, -1
		return nil
	case "task":
		return r.task(row, get, content)
	case "note":
		if r.current < 0 {
			return imports.BadRow(row, "a note needs a task above it")
		}
		if content != "" {
			r.p.Nodes[r.current].Notes = append(r.p.Nodes[r.current].Notes, imports.Note{Text: content})
		}
		return nil
	}
	return imports.BadRow(row, "TYPE must be task, section or note, not %q", typ)
}

// task reads a task row: a case at INDENT 1, else a task of the case above.
func (r *reader) task(row string, get func(string) string, content string) error {
	title, tags := splitLabels(content)
	if title == "" {
		return imports.BadRow(row, "a task needs a name in CONTENT")
	}
	indent := 1
	if s := get("INDENT"); s != "" {
		var err error
		if indent, err = strconv.Atoi(s); err != nil || indent < 1 || indent > 5 {
			return imports.BadRow(row, "INDENT must be 1 to 5, not %q", s)
		}
	}
	due, rest := date(get("DATE"))
	if indent > 1 {
		if r.current < 0 {
			return imports.BadRow(row, "a sub-task (INDENT %d) needs a task above it", indent)
		}
		c := &r.p.Nodes[r.current]
		detail := strings.TrimSpace(get("DESCRIPTION") + "\n" + rest)
		c.Tasks = append(c.Tasks, imports.Task{SourceID: Prefix + "task:" + r.unique(c.SourceID+"\x00"+content), Title: title, Detail: detail, DueAt: due})
		return nil
	}
	n := imports.Node{Row: row, SourceID: Prefix + "task:" + r.unique(r.section+"\x00"+content), ParentSourceID: r.parent,
		Kind: wire.KindCase, Title: title, Summary: strings.TrimSpace(get("DESCRIPTION") + "\n" + rest), DueAt: due, Labels: tags}
	switch prio := get("PRIORITY"); prio {
	case "1":
		n.Status = wire.LaneUrgent
	case "", "2", "3", "4":
	default:
		return imports.BadRow(row, "PRIORITY must be 1 to 4, not %q", prio)
	}
	for _, l := range tags {
		if !r.labels[l] {
			r.labels[l] = true
			r.p.Labels = append(r.p.Labels, imports.Label{Key: l, Title: l})
		}
	}
	r.p.Nodes = append(r.p.Nodes, n)
	r.current = len(r.p.Nodes) - 1
	return nil
}

// splitLabels takes the "@name" words out of a task's content.
func splitLabels(content string) (string, []string) {
	var words, tags []string
	for _, w := range strings.Fields(content) {
		if len(w) > 1 && strings.HasPrefix(w, "@") {
			tags = append(tags, w[1:])
			continue
		}
		words = append(words, w)
	}
	return strings.Join(words, " "), tags
}

// date answers a DATE the board can store as a due date, or the text to
// keep in the summary.
func date(s string) (due, rest string) {
	if s == "" {
		return "", ""
	}
	if d, ok := imports.Due(s); ok {
		return d, ""
	}
	return "", "Todoist date: " + s
}
