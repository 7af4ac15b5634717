// Package export renders the whole board as a file to take elsewhere: the
// store document as JSON, cases and tasks as CSV, and a zip of Markdown
// files, one per initiative. Each is a pure function of a document, so the
// route and `board export` (which may read the files of a stopped board)
// render the same bytes.
package export

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// Formats lists the export formats.
var Formats = []string{"json", "csv", "markdown"}

// File is one rendered export.
type File struct {
	Name        string // the download's file name
	ContentType string
	Data        []byte
}

// Render renders d in format at the time at; an unknown format is an error
// naming the valid ones.
func Render(d *wire.Doc, format string, at time.Time) (File, error) {
	stamp := at.UTC().Format("20060102-150405")
	switch format {
	case "json":
		data, err := JSON(d, at)
		return File{Name: "opsboard-" + stamp + ".json", ContentType: "application/json", Data: data}, err
	case "csv":
		data, err := CSV(d)
		return File{Name: "opsboard-" + stamp + ".csv", ContentType: "text/csv; charset=utf-8", Data: data}, err
	case "markdown":
		data, err := Markdown(d, at)
		return File{Name: "opsboard-" + stamp + ".zip", ContentType: "application/zip", Data: data}, err
	}
	return File{}, fmt.Errorf("format must be one of %s, not %q", strings.Join(Formats, ", "), format)
}

// JSON is the store document with the export's format and time: what the
// board keeps on disk, so nothing is lost, and an import knows it for ours.
func JSON(d *wire.Doc, at time.Time) ([]byte, error) {
	out, err := json.MarshalIndent(wire.Export{ExportFormat: wire.ExportFormat, ExportedAt: at.UTC().Format(time.RFC3339), Doc: *d}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	return append(out, '\n'), nil
}

// CSVHeader is the CSV export's header. One row per case node, then one per
// task of it: type is case or task; parentId is a case's parent node or a
// task's case; status, kind and domain are empty on a task row; labels are
// ids joined by ";"; completedAt is empty on a case row; detail is a case's
// summary or a task's detail.
var CSVHeader = []string{"type", "id", "parentId", "kind", "title", "status", "domain", "labels", "dueAt", "completedAt", "archivedAt", "detail", "sourceId"}

// CSV is the cases and their tasks, in the document's order.
func CSV(d *wire.Doc) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	rows := [][]string{CSVHeader}
	for _, c := range d.Cases.All() {
		rows = append(rows, []string{"case", c.ID, c.ParentID, string(c.Kind), c.Title, string(c.Status), string(c.Domain),
			strings.Join(c.Labels, ";"), c.DueAt, "", c.ArchivedAt, c.Summary, c.SourceID})
		for _, t := range c.Tasks {
			rows = append(rows, []string{"task", t.ID, c.ID, "", t.Title, "", "", "", t.DueAt, t.CompletedAt, "", t.Detail, t.SourceID})
		}
	}
	if err := w.WriteAll(rows); err != nil {
		return nil, fmt.Errorf("write csv: %w", err)
	}
	return buf.Bytes(), nil
}

// Markdown is a zip of the folder opsboard/: one file per initiative with
// its tree, and no-initiative.md for the nodes outside any initiative.
// Archived nodes are left out (the JSON export holds them). Files and
// entries keep the document's order, so two exports of the same board are
// byte for byte the same but for the zip's time stamps, and a change to
// the board shows as a small diff of the unzipped folder.
func Markdown(d *wire.Doc, at time.Time) ([]byte, error) {
	files := MarkdownFiles(d)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: "opsboard/" + n, Method: zip.Deflate, Modified: at.UTC()})
		if err != nil {
			return nil, fmt.Errorf("zip %s: %w", n, err)
		}
		if _, err := f.Write([]byte(files[n])); err != nil {
			return nil, fmt.Errorf("zip %s: %w", n, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	return buf.Bytes(), nil
}

// MarkdownFiles is the Markdown folder as file name -> text.
func MarkdownFiles(d *wire.Doc) map[string]string {
	live := map[string]*wire.Case{}
	children := map[string][]*wire.Case{}
	for _, c := range d.Cases.All() {
		if c.ArchivedAt == "" {
			live[c.ID] = c
		}
	}
	var roots []*wire.Case
	for _, c := range d.Cases.All() {
		if live[c.ID] == nil {
			continue
		}
		if p := live[c.ParentID]; p != nil {
			children[p.ID] = append(children[p.ID], c)
		} else {
			roots = append(roots, c)
		}
	}
	labelTitle := map[string]string{}
	for _, l := range d.Labels.All() {
		labelTitle[l.ID] = l.Title
	}
	out := map[string]string{}
	var loose strings.Builder
	for _, r := range roots {
		if r.Kind != wire.KindInitiative {
			writeNode(&loose, r, 2, children, labelTitle)
			continue
		}
		var b strings.Builder
		writeNode(&b, r, 1, children, labelTitle)
		out[fileName(r)] = b.String()
	}
	if loose.Len() > 0 {
		out["no-initiative.md"] = "# Cases without an initiative\n\n" + loose.String()
	}
	return out
}

// fileName is the node's id and a slug of its title: the id keeps two
// initiatives of one title apart and the name stable across a rename's slug.
func fileName(c *wire.Case) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(c.Title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	slug := strings.TrimSuffix(b.String(), "-")
	if slug == "" {
		return c.ID + ".md"
	}
	return c.ID + "-" + slug + ".md"
}

func writeNode(b *strings.Builder, c *wire.Case, depth int, children map[string][]*wire.Case, labelTitle map[string]string) {
	if depth > 6 {
		depth = 6
	}
	kind := ""
	if c.Kind == wire.KindWorkstream {
		kind = "Workstream: "
	}
	fmt.Fprintf(b, "%s %s%s (%s)\n\n", strings.Repeat("#", depth), kind, oneLine(c.Title), c.ID)
	facts := []string{"Lane: " + string(c.Status)}
	if len(c.Labels) > 0 {
		ls := make([]string, len(c.Labels))
		for i, id := range c.Labels {
			ls[i] = id
			if t := labelTitle[id]; t != "" && t != id {
				ls[i] = t
			}
		}
		facts = append(facts, "Labels: "+strings.Join(ls, ", "))
	}
	if c.DueAt != "" {
		facts = append(facts, "Due: "+c.DueAt)
	}
	if c.Starred {
		facts = append(facts, "Starred")
	}
	for _, f := range facts {
		fmt.Fprintf(b, "- %s\n", f)
	}
	b.WriteString("\n")
	if s := strings.TrimSpace(c.Summary); s != "" {
		b.WriteString(s + "\n\n")
	}
	if len(c.Tasks) > 0 {
		for _, t := range c.Tasks {
			box := " "
			if t.CompletedAt != "" {
				box = "x"
			}
			line := fmt.Sprintf("- [%s] %s", box, oneLine(t.Title))
			if t.DueAt != "" {
				line += " (due " + t.DueAt + ")"
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
	for _, n := range c.Notes {
		fmt.Fprintf(b, "> %s, %s:\n", n.Actor, n.CreatedAt)
		for _, l := range strings.Split(strings.TrimSpace(n.Text), "\n") {
			b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
		}
		b.WriteString("\n")
	}
	for _, ch := range children[c.ID] {
		writeNode(b, ch, depth+1, children, labelTitle)
	}
}

// oneLine keeps a title on its heading's line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
