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
	p := imports.Plan{Format: wire.ImportTodoist}
	root := imports.Node{Row: "project", SourceID: Prefix + "project:" + project, Kind: wire.KindInitiative, Title: project}
	p.Nodes = append(p.Nodes, root)
	labels := map[string]bool{}
	seen := map[string]int{}
	unique := func(key string) string {
		seen[key]++
		if n := seen[key]; n > 1 {
			key += "\x00" + strconv.Itoa(n)
		}
		sum := sha256.Sum256([]byte(key))
		return hex.EncodeToString(sum[:8])
	}
	parent := root.SourceID // where the next case goes
	section := ""
	current := -1 // the index in p.Nodes of the case sub-tasks and notes join
	for rec, err := range rows {
		if err != nil {
			return imports.Plan{}, err
		}
		row := rec.Name
		get := func(name string) string { return rec.Get(col, name) }
		typ, content := get("TYPE"), get("CONTENT")
		switch typ {
		case "", "meta":
			continue
		case "section":
			if content == "" {
				return imports.Plan{}, imports.BadRow(row, "a section needs a name in CONTENT")
			}
			section = content
			id := Prefix + "section:" + unique(project+"\x00"+content)
			p.Nodes = append(p.Nodes, imports.Node{Row: row, SourceID: id, ParentSourceID: root.SourceID, Kind: wire.KindWorkstream, Title: content})
			parent, current = id, -1
		case "task":
			title, tags := splitLabels(content)
			if title == "" {
				return imports.Plan{}, imports.BadRow(row, "a task needs a name in CONTENT")
			}
			indent := 1
			if s := get("INDENT"); s != "" {
				if indent, err = strconv.Atoi(s); err != nil || indent < 1 || indent > 5 {
					return imports.Plan{}, imports.BadRow(row, "INDENT must be 1 to 5, not %q", s)
				}
			}
			due, rest := date(get("DATE"))
			if indent > 1 {
				if current < 0 {
					return imports.Plan{}, imports.BadRow(row, "a sub-task (INDENT %d) needs a task above it", indent)
				}
				c := &p.Nodes[current]
				detail := strings.TrimSpace(get("DESCRIPTION") + "\n" + rest)
				c.Tasks = append(c.Tasks, imports.Task{SourceID: Prefix + "task:" + unique(c.SourceID+"\x00"+content), Title: title, Detail: detail, DueAt: due})
				continue
			}
			n := imports.Node{Row: row, SourceID: Prefix + "task:" + unique(section+"\x00"+content), ParentSourceID: parent,
				Kind: wire.KindCase, Title: title, Summary: strings.TrimSpace(get("DESCRIPTION") + "\n" + rest), DueAt: due, Labels: tags}
			switch prio := get("PRIORITY"); prio {
			case "1":
				n.Status = wire.LaneUrgent
			case "", "2", "3", "4":
			default:
				return imports.Plan{}, imports.BadRow(row, "PRIORITY must be 1 to 4, not %q", prio)
			}
			for _, l := range tags {
				if !labels[l] {
					labels[l] = true
					p.Labels = append(p.Labels, imports.Label{Key: l, Title: l})
				}
			}
			p.Nodes = append(p.Nodes, n)
			current = len(p.Nodes) - 1
		case "note":
			if current < 0 {
				return imports.Plan{}, imports.BadRow(row, "a note needs a task above it")
			}
			if content != "" {
				p.Nodes[current].Notes = append(p.Nodes[current].Notes, imports.Note{Text: content})
			}
		default:
			return imports.Plan{}, imports.BadRow(row, "TYPE must be task, section or note, not %q", typ)
		}
	}
	return p, nil
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
