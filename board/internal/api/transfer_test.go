package api_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/api"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// counts reads an import reply's created counts.
func counts(t *testing.T, b *board, path string, in wire.ImportRequest) wire.ImportCounts {
	t.Helper()
	body := b.must(http.StatusOK, "POST", path, in)
	var out wire.ImportCounts
	if err := json.Unmarshal([]byte(body.Get("created").Raw), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// importTwice checks the dry run counts want and writes nothing, the apply
// creates exactly that, and a second import creates nothing new and skips
// skipped records.
func importTwice(t *testing.T, b *board, in wire.ImportRequest, want wire.ImportCounts, skipped int) {
	t.Helper()
	before := b.Store.Version()
	if diff := cmp.Diff(want, counts(t, b, "/api/import?dryRun=1", in)); diff != "" {
		t.Errorf("dry run (-want +got)\n%s", diff)
	}
	if b.Store.Version() != before {
		t.Fatal("the dry run wrote")
	}
	if diff := cmp.Diff(want, counts(t, b, "/api/import", in)); diff != "" {
		t.Errorf("apply (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(wire.ImportCounts{Skipped: skipped}, counts(t, b, "/api/import", in)); diff != "" {
		t.Errorf("re-import (-want +got)\n%s", diff)
	}
}

// caseByTitle finds a case of the board by its title.
func caseByTitle(t *testing.T, b *board, title string) wire.Case {
	t.Helper()
	for _, c := range b.Store.Snapshot().Cases.All() {
		if c.Title == title {
			return *c
		}
	}
	t.Fatalf("no case %q", title)
	return wire.Case{}
}

const trelloFile = `{
  "id": "b1", "name": "Website",
  "labels": [{"id": "l1", "name": "Bug", "color": "red"}],
  "lists": [{"id": "L1", "name": "Doing"}, {"id": "L2", "name": "Ideas"}],
  "cards": [
    {"id": "c1", "name": "Fix header", "idList": "L1", "idLabels": ["l1"], "due": "2026-12-01T12:00:00.000Z"},
    {"id": "c2", "name": "Dark mode", "idList": "L2"}
  ],
  "checklists": [{"id": "k1", "idCard": "c1", "checkItems": [
    {"id": "i1", "name": "Find cause", "state": "complete", "pos": 1},
    {"id": "i2", "name": "Test on phone", "state": "incomplete", "pos": 2}]}],
  "actions": [{"type": "commentCard", "date": "2026-11-01T10:00:00.000Z", "data": {"text": "Seen on iOS", "card": {"id": "c1"}}, "memberCreator": {"fullName": "Ann"}}]
}`

func TestImportTrello(t *testing.T) {
	b := newBoard(t)
	in := wire.ImportRequest{Content: trelloFile} // format told by the content
	importTwice(t, b, in, wire.ImportCounts{Labels: 2, Initiatives: 1, Cases: 2, Tasks: 2, Notes: 1}, 3)

	root := caseByTitle(t, b, "Website")
	c := caseByTitle(t, b, "Fix header")
	if c.ParentID != root.ID || c.Status != wire.LaneInProgress || c.DueAt != "2026-12-01T12:00:00.000Z" || c.SourceID != "trello:c1" {
		t.Errorf("card: %+v", c)
	}
	if diff := cmp.Diff([]string{"bug"}, c.Labels); diff != "" {
		t.Errorf("labels (-want +got)\n%s", diff)
	}
	if len(c.Tasks) != 2 || c.Tasks[0].CompletedAt == "" || c.Tasks[1].CompletedAt != "" || c.Tasks[0].SourceID != "trello:i1" {
		t.Errorf("tasks: %+v", c.Tasks)
	}
	if len(c.Notes) != 1 || c.Notes[0].Text != "Ann: Seen on iOS" {
		t.Errorf("notes: %+v", c.Notes)
	}
	if got := caseByTitle(t, b, "Dark mode"); got.Status != wire.LaneTodo || !cmp.Equal(got.Labels, []string{"ideas"}) {
		t.Errorf("a list that is no lane becomes a label: %+v", got)
	}

	// The checklist grew at the source: a new import adds only the new item.
	grown := strings.Replace(trelloFile, `"state": "incomplete", "pos": 2}]`, `"state": "incomplete", "pos": 2}, {"id": "i3", "name": "Ship", "state": "incomplete", "pos": 3}]`, 1)
	if diff := cmp.Diff(wire.ImportCounts{Tasks: 1, Skipped: 3}, counts(t, b, "/api/import", wire.ImportRequest{Format: "trello", Content: grown})); diff != "" {
		t.Errorf("grown checklist (-want +got)\n%s", diff)
	}

	// One bad card rejects the whole file and names it.
	bad := strings.Replace(trelloFile, `{"id": "c2", "name": "Dark mode"`, `{"id": "c9", "name": "New card", "idList": "L1"}, {"id": "c2", "name": ""`, 1)
	b.fails(http.StatusBadRequest, "card c2: a card needs a name", "POST", "/api/import", wire.ImportRequest{Format: "trello", Content: bad})
}

func TestImportTodoist(t *testing.T) {
	b := newBoard(t)
	file := "TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\n" +
		"section,Planning,,,,,,,,\n" +
		"task,Write brief @work,Two pages,1,1,Ann (1),,2026-12-01,en,Europe/Berlin\n" +
		"task,Outline,,4,2,Ann (1),,,en,Europe/Berlin\n" +
		"note,Ask Bo first,,,,Ann (1),,,,\n" +
		"task,Loose end,,4,1,Ann (1),,,en,Europe/Berlin\n"
	in := wire.ImportRequest{Format: "todoist", Content: file, Title: "Q4 plan"}
	importTwice(t, b, in, wire.ImportCounts{Labels: 1, Initiatives: 1, Workstreams: 1, Cases: 2, Tasks: 1, Notes: 1}, 4)
	root, ws, c := caseByTitle(t, b, "Q4 plan"), caseByTitle(t, b, "Planning"), caseByTitle(t, b, "Write brief")
	if ws.ParentID != root.ID || ws.Kind != wire.KindWorkstream || c.ParentID != ws.ID || c.Status != wire.LaneUrgent || c.DueAt != "2026-12-01" {
		t.Errorf("tree: %+v / %+v / %+v", root, ws, c)
	}
	if len(c.Tasks) != 1 || c.Tasks[0].Title != "Outline" || len(c.Notes) != 1 || !cmp.Equal(c.Labels, []string{"work"}) {
		t.Errorf("case: %+v", c)
	}
	// The format may come in the query instead of the body.
	if diff := cmp.Diff(wire.ImportCounts{Skipped: 4}, counts(t, b, "/api/import?format=todoist&dryRun=1", wire.ImportRequest{Content: file, Title: "Q4 plan"})); diff != "" {
		t.Errorf("format in the query (-want +got)\n%s", diff)
	}
	b.fails(http.StatusBadRequest, `row 8: TYPE must be task, section or note, not "folder"`, "POST", "/api/import",
		wire.ImportRequest{Format: "todoist", Content: file + "task,New one,,4,1,,,,,\nfolder,X,,,,,,,,\n"})
}

func TestImportMappedCSV(t *testing.T) {
	b := newBoard(t)
	file := "Key,Summary Line,Lane,Tags,Due Date\nA-1,Renew passport,Doing,home;admin,2026-12-01\nA-2,Book flights,,travel,\n"
	in := wire.ImportRequest{Format: "csv", Content: file, Map: map[string]string{"Key": "id", "Summary Line": "title"}}
	importTwice(t, b, in, wire.ImportCounts{Labels: 3, Cases: 2}, 2)
	if c := caseByTitle(t, b, "Renew passport"); c.Status != wire.LaneInProgress || c.SourceID != "csv:A-1" || c.ParentID != "" {
		t.Errorf("case: %+v", c)
	}
	// A label already in the catalog (the universal bundle's) is reused, not
	// created again.
	labels := b.Store.Snapshot().Labels.Len()
	b.must(http.StatusOK, "POST", "/api/import", wire.ImportRequest{Format: "csv", Content: "title,labels\nX," + b.Store.Snapshot().Labels.At(0).Title + "\n"})
	if got := b.Store.Snapshot().Labels.Len(); got != labels {
		t.Errorf("labels %d -> %d", labels, got)
	}
	b.fails(http.StatusBadRequest, `row 3: status "someday" is not a lane`, "POST", "/api/import",
		wire.ImportRequest{Format: "csv", Content: "title,status\nFine,todo\nBad,someday\n"})
	b.fails(http.StatusBadRequest, "row 2: field 'domain' must be one of work, life", "POST", "/api/import",
		wire.ImportRequest{Format: "csv", Content: "title,domain\nBad,space\n"})
}

func TestImportRefusesBadRequests(t *testing.T) {
	b := newBoard(t)
	for _, tc := range []struct {
		name string
		body any
		msg  string
	}{
		{"empty file", wire.ImportRequest{}, "field 'content' is empty"},
		{"unknown format", wire.ImportRequest{Format: "xls", Content: "a"}, "field 'format' must be one of auto, json, todoist, trello, csv"},
		{"unknown JSON", wire.ImportRequest{Content: `{"hello": 1}`}, "name its format"},
		{"map on JSON", wire.ImportRequest{Format: "trello", Content: trelloFile, Map: map[string]string{"a": "title"}}, "field 'map' applies to the csv format only"},
		{"not an object", `"text"`, "must be a JSON object"},
		{"a parent that is not there", wire.ImportRequest{Format: "csv", Content: "id,title,parentId\n1,A,99\n"}, "row 2: parent csv:99 is neither in the file before it nor on the board"},
	} {
		t.Run(tc.name, func(t *testing.T) { b.fails(http.StatusBadRequest, tc.msg, "POST", "/api/import", tc.body) })
	}
	b.fails(http.StatusUnsupportedMediaType, "Content-Type", "POST", "/api/import", "title\nA\n", "Content-Type", "text/csv")
}

// tree is a board's cases without ids and stamps: each node with its
// parent's title, for comparing two boards.
type node struct {
	Title, Parent, Summary, DueAt string
	Kind                          wire.Kind
	Status                        wire.Lane
	Domain                        wire.Domain
	Labels                        []string
	Starred, Archived             bool
	Tasks                         []string
	Notes                         []string
}

func tree(d *wire.Doc) []node {
	title := map[string]string{}
	for _, c := range d.Cases.All() {
		title[c.ID] = c.Title
	}
	var out []node
	for _, c := range d.Cases.All() {
		n := node{Title: c.Title, Parent: title[c.ParentID], Summary: c.Summary, DueAt: c.DueAt, Kind: c.Kind, Status: c.Status,
			Domain: c.Domain, Labels: c.Labels, Starred: c.Starred, Archived: c.ArchivedAt != ""}
		for _, t := range c.Tasks {
			n.Tasks = append(n.Tasks, t.Title+"|"+t.Detail+"|"+t.DueAt+"|"+t.CompletedAt)
		}
		for _, nt := range c.Notes {
			n.Notes = append(n.Notes, string(nt.Actor)+"|"+nt.CreatedAt+"|"+nt.Text)
		}
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Title < out[j].Title })
	return out
}

// seed fills a board through its routes: a tree, labels, tasks, notes, a
// done task, a starred case and an archived one.
func seed(t *testing.T, b *board) {
	t.Helper()
	b.must(http.StatusCreated, "POST", "/api/labels", map[string]any{"title": "Client ACME", "color": "blue"})
	ini := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Launch site", "kind": "initiative", "summary": "New site"}).Get("case.id").String()
	ws := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Build", "kind": "workstream", "parentId": ini}).Get("case.id").String()
	leaf := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Pick a host", "parentId": ws, "status": "urgent", "labels": []string{"client-acme"},
		"dueAt": "2026-12-01", "starred": true, "tasks": []map[string]any{{"title": "Compare prices"}, {"title": "Sign up", "dueAt": "2026-11-30", "detail": "yearly"}}}).Get("case.id").String()
	b.must(http.StatusOK, "PATCH", "/api/cases/"+leaf+"/tasks/"+leaf+"-T1", map[string]any{"completed": true})
	b.must(http.StatusCreated, "POST", "/api/cases/"+leaf+"/notes", map[string]any{"text": "Ask Bo"})
	b.must(http.StatusCreated, "POST", "/api/cases/"+leaf+"/notes", map[string]any{"text": "Bo says Hetzner"}, agent...)
	b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Dentist", "domain": "life"})
	old := b.must(http.StatusCreated, "POST", "/api/cases", map[string]any{"title": "Old thing"}).Get("case.id").String()
	b.must(http.StatusOK, "DELETE", "/api/cases/"+old, nil)
}

func TestExportJSONRoundTrip(t *testing.T) {
	src := newBoard(t)
	seed(t, src)
	r := src.do("GET", "/api/export?format=json", nil)
	if r.Code != http.StatusOK || !strings.HasPrefix(r.Hdr.Get("Content-Disposition"), `attachment; filename="opsboard-`) || !strings.HasSuffix(r.Hdr.Get("Content-Disposition"), `.json"`) {
		t.Fatalf("export: %d %v", r.Code, r.Hdr)
	}
	if r.Body.Get("exportFormat").String() != wire.ExportFormat || r.Body.Get("schemaVersion").Int() != wire.SchemaVersion || r.Body.Get("version").Int() != src.Store.Version() {
		t.Errorf("export header: %s", r.Raw[:200])
	}

	dst := newBoard(t)
	importTwice(t, dst, wire.ImportRequest{Content: r.Raw}, wire.ImportCounts{Labels: 1, Initiatives: 1, Workstreams: 1, Cases: 3, Tasks: 2, Notes: 2}, 5)
	if diff := cmp.Diff(tree(src.Store.Snapshot()), tree(dst.Store.Snapshot())); diff != "" {
		t.Errorf("imported board differs (-exported +imported)\n%s", diff)
	}
	labelsOf := func(d *wire.Doc) []wire.LabelDef {
		var out []wire.LabelDef
		for _, l := range d.Labels.All() {
			out = append(out, *l)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
		return out
	}
	if diff := cmp.Diff(labelsOf(src.Store.Snapshot()), labelsOf(dst.Store.Snapshot())); diff != "" {
		t.Errorf("catalog differs (-exported +imported)\n%s", diff)
	}

	// One bad case rejects the whole file, naming it.
	empty := newBoard(t)
	bad := strings.Replace(r.Raw, `"status": "urgent"`, `"status": "someday"`, 1)
	empty.fails(http.StatusBadRequest, "(CASE-3): field 'status' must be one of", "POST", "/api/import", wire.ImportRequest{Content: bad})
	if n := empty.Store.Snapshot().Cases.Len(); n != 0 {
		t.Errorf("a rejected import left %d cases", n)
	}

	// Into the live board it came from: every node is already there.
	if diff := cmp.Diff(wire.ImportCounts{Skipped: 5}, counts(t, src, "/api/import", wire.ImportRequest{Format: "json", Content: r.Raw})); diff != "" {
		t.Errorf("into its own board (-want +got)\n%s", diff)
	}
}

func TestExportCSVAndMarkdown(t *testing.T) {
	b := newBoard(t)
	seed(t, b)
	r := b.do("GET", "/api/export?format=csv", nil)
	if r.Code != http.StatusOK || !strings.HasPrefix(r.Hdr.Get("Content-Type"), "text/csv") || !strings.HasSuffix(r.Hdr.Get("Content-Disposition"), `.csv"`) {
		t.Fatalf("csv: %d %v", r.Code, r.Hdr)
	}
	lines := strings.Split(strings.TrimSpace(r.Raw), "\n")
	if lines[0] != "type,id,parentId,kind,title,status,domain,labels,dueAt,completedAt,archivedAt,detail,sourceId" || len(lines) != 8 {
		t.Fatalf("csv:\n%s", r.Raw)
	}
	if !strings.Contains(r.Raw, ",case,Pick a host,urgent,work,client-acme,2026-12-01,,,,\n") || !strings.Contains(r.Raw, ",,Sign up,,,,2026-11-30,,,yearly,\n") {
		t.Errorf("csv rows:\n%s", r.Raw)
	}
	// The board's CSV reads back through the generic CSV import.
	other := newBoard(t)
	if got := counts(t, other, "/api/import", wire.ImportRequest{Format: "csv", Content: r.Raw}); got.Cases != 3 || got.Tasks != 2 || got.Initiatives != 1 || got.Workstreams != 1 {
		t.Errorf("csv back in: %+v", got)
	}

	resp, err := http.Get(b.URL + "/api/export?format=markdown")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Type") != "application/zip" || !strings.HasSuffix(resp.Header.Get("Content-Disposition"), `.zip"`) {
		t.Errorf("markdown headers: %v", resp.Header)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		body, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(body)
	}
	ini := caseByTitle(t, b, "Launch site")
	text, ok := files["opsboard/"+ini.ID+"-launch-site.md"]
	if !ok {
		t.Fatalf("files: %v", files)
	}
	for _, want := range []string{"# Launch site (" + ini.ID + ")", "## Workstream: Build", "### Pick a host", "- Labels: Client ACME", "- [x] Compare prices", "- [ ] Sign up (due 2026-11-30)", "> Bo says Hetzner"} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(files["opsboard/no-initiative.md"], "## Dentist") || strings.Contains(files["opsboard/no-initiative.md"], "Old thing") {
		t.Errorf("no-initiative.md:\n%s", files["opsboard/no-initiative.md"])
	}
	b.fails(http.StatusBadRequest, `query 'format': format must be one of json, csv, markdown, not "pdf"`, "GET", "/api/export?format=pdf", nil)
}

func TestParseDate(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)
	b := newBoard(t, func(_ *store.Config, c *api.Config) { c.Now = func() time.Time { return now } })
	b.must(http.StatusOK, "PATCH", "/api/prefs", map[string]any{"timezone": "America/New_York"})
	got := b.must(http.StatusOK, "GET", "/api/dates/parse?text=tomorrow+9am", nil)
	if got.Get("dueAt").String() != "2026-11-27T09:00:00-05:00" || got.Get("allDay").Bool() || got.Get("timezone").String() != "America/New_York" {
		t.Errorf("tomorrow 9am: %s", got.Raw)
	}
	got = b.must(http.StatusOK, "GET", "/api/dates/parse?text=in+3+days", nil)
	if got.Get("dueAt").String() != "2026-11-29" || !got.Get("allDay").Bool() {
		t.Errorf("in 3 days: %s", got.Raw)
	}
	b.fails(http.StatusBadRequest, `no date found in "whenever"`, "GET", "/api/dates/parse?text=whenever", nil)
	b.fails(http.StatusBadRequest, `no date found in ""`, "GET", "/api/dates/parse", nil)
	// The parser's durations wrap round past about 290 years: "in 1000000
	// days" came back as a day in 1842. No due date is that far off.
	b.fails(http.StatusBadRequest, `no date found in "in 1000000 days"`, "GET", "/api/dates/parse?text=in+1000000+days", nil)
	b.fails(http.StatusBadRequest, `no date found in "in 99999999999 years"`, "GET", "/api/dates/parse?text=in+99999999999+years", nil)
	// The parser's time grows with the text (about 2s for 400 KB): a date
	// in words is a few words, so a long text is refused before it runs.
	b.fails(http.StatusBadRequest, "query 'text' is longer than 1000 bytes", "GET", "/api/dates/parse?text="+strings.Repeat("tomorrow+", 200), nil)
}
