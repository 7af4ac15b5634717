package export_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/export"
	"github.com/opsboard/opsboard/shared/wire"
)

var at = time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)

// fixture is a small board: an initiative with a workstream and two cases,
// a loose case, an archived case and a label.
func fixture() *wire.Doc {
	return &wire.Doc{
		SchemaVersion: wire.SchemaVersion, Version: 42,
		Labels: wire.ListOf([]*wire.LabelDef{{ID: "client-acme", Title: "Client: ACME", Color: "blue"}}...),
		Cases: wire.ListOf([]*wire.Case{
			{ID: "CASE-1", Title: "Launch site", Kind: wire.KindInitiative, Status: wire.LaneInProgress, Domain: wire.DomainWork, Summary: "The new site."},
			{ID: "CASE-2", Title: "Build", Kind: wire.KindWorkstream, ParentID: "CASE-1", Status: wire.LaneTodo, Domain: wire.DomainWork},
			{ID: "CASE-3", Title: "Pick a host", Kind: wire.KindCase, ParentID: "CASE-2", Status: wire.LaneUrgent, Domain: wire.DomainWork,
				Labels: []string{"client-acme"}, DueAt: "2026-12-01", Starred: true,
				Tasks: []wire.Task{{ID: "CASE-3-T1", Title: "Compare prices", CompletedAt: "2026-11-20T10:00:00Z"}, {ID: "CASE-3-T2", Title: "Sign, up", DueAt: "2026-11-30"}},
				Notes: []wire.Note{{ID: "CASE-3-N1", Text: "Ask Bo.\nHe knows.", Actor: "human", CreatedAt: "2026-11-19T08:00:00Z"}}},
			{ID: "CASE-4", Title: "Direct case", Kind: wire.KindCase, ParentID: "CASE-1", Status: wire.LaneDone, Domain: wire.DomainWork},
			{ID: "CASE-5", Title: "Dentist", Kind: wire.KindCase, Status: wire.LaneTodo, Domain: wire.DomainLife},
			{ID: "CASE-6", Title: "Old thing", Kind: wire.KindCase, Status: wire.LaneTodo, Domain: wire.DomainLife, ArchivedAt: "2026-11-01T00:00:00Z"},
		}...),
	}
}

func TestRenderRefusesAnUnknownFormat(t *testing.T) {
	if _, err := export.Render(fixture(), "xml", at); err == nil || err.Error() != `format must be one of json, csv, markdown, not "xml"` {
		t.Fatalf("got %v", err)
	}
}

func TestFileNames(t *testing.T) {
	for format, want := range map[string]string{"json": "opsboard-20261126-093000.json", "csv": "opsboard-20261126-093000.csv", "markdown": "opsboard-20261126-093000.zip"} {
		f, err := export.Render(fixture(), format, at)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != want {
			t.Errorf("%s: name %q, want %q", format, f.Name, want)
		}
	}
}

func TestJSONIsTheDocumentWithItsFormat(t *testing.T) {
	data, err := export.JSON(fixture(), at)
	if err != nil {
		t.Fatal(err)
	}
	var got wire.Export
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.ExportFormat != wire.ExportFormat || got.ExportedAt != "2026-11-26T09:30:00Z" || got.SchemaVersion != wire.SchemaVersion || got.Version != 42 {
		t.Errorf("header: %+v", got)
	}
	if diff := cmp.Diff(fixture(), &got.Doc); diff != "" {
		t.Errorf("document (-want +got)\n%s", diff)
	}
}

func TestCSV(t *testing.T) {
	data, err := export.CSV(fixture())
	if err != nil {
		t.Fatal(err)
	}
	want := `type,id,parentId,kind,title,status,domain,labels,dueAt,completedAt,archivedAt,detail,sourceId
case,CASE-1,,initiative,Launch site,in_progress,work,,,,,The new site.,
case,CASE-2,CASE-1,workstream,Build,todo,work,,,,,,
case,CASE-3,CASE-2,case,Pick a host,urgent,work,client-acme,2026-12-01,,,,
task,CASE-3-T1,CASE-3,,Compare prices,,,,,2026-11-20T10:00:00Z,,,
task,CASE-3-T2,CASE-3,,"Sign, up",,,,2026-11-30,,,,
case,CASE-4,CASE-1,case,Direct case,done,work,,,,,,
case,CASE-5,,case,Dentist,todo,life,,,,,,
case,CASE-6,,case,Old thing,todo,life,,,,2026-11-01T00:00:00Z,,
`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestMarkdownFiles(t *testing.T) {
	want := map[string]string{
		"CASE-1-launch-site.md": `# Launch site (CASE-1)

- Lane: in_progress

The new site.

## Workstream: Build (CASE-2)

- Lane: todo

### Pick a host (CASE-3)

- Lane: urgent
- Labels: Client: ACME
- Due: 2026-12-01
- Starred

- [x] Compare prices
- [ ] Sign, up (due 2026-11-30)

> human, 2026-11-19T08:00:00Z:
> Ask Bo.
> He knows.

## Direct case (CASE-4)

- Lane: done

`,
		"no-initiative.md": `# Cases without an initiative

## Dentist (CASE-5)

- Lane: todo

`,
	}
	if diff := cmp.Diff(want, export.MarkdownFiles(fixture())); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestMarkdownZipHoldsTheFilesInOrder(t *testing.T) {
	data, err := export.Markdown(fixture(), at)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	files := export.MarkdownFiles(fixture())
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		if string(body) != files[f.Name[len("opsboard/"):]] {
			t.Errorf("%s: content differs", f.Name)
		}
	}
	if diff := cmp.Diff([]string{"opsboard/CASE-1-launch-site.md", "opsboard/no-initiative.md"}, names); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	again, _ := export.Markdown(fixture(), at)
	if !bytes.Equal(data, again) {
		t.Error("two exports of one board at one time differ")
	}
}
