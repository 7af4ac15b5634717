package searchdoc_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/searchdoc"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestJoin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts []string
		want  string
	}{
		{"nothing", nil, ""},
		{"one field", []string{"Renew passport"}, "Renew passport"},
		{"one line per field", []string{"a", "b", "c"}, "a\nb\nc"},
		{"fields are trimmed", []string{"  a ", "\tb\n"}, "a\nb"},
		{"empty and blank fields leave no line", []string{"", "a", "   ", "b", ""}, "a\nb"},
		{"only blanks", []string{" ", "\n", ""}, ""},
		{"inner newlines stay", []string{"first\nsecond", "third"}, "first\nsecond\nthird"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := searchdoc.Join(tc.parts...); got != tc.want {
				t.Errorf("Join(%q) = %q, want %q", tc.parts, got, tc.want)
			}
		})
	}
}

func TestDocPerType(t *testing.T) {
	c := &wire.Case{ID: "CASE-1", Title: "Renew passport", Summary: " Appointment at the consulate ", Tags: []string{"travel", "eu"}, Labels: []string{"waiting-on"},
		Status: "todo", Domain: "life", Kind: "case", Eta: "2026-01-01", Notes: []wire.Note{{ID: "N-1", Text: "notes are not indexed"}},
		Tasks: []wire.Task{{ID: "CASE-1-T1", Title: "Book photo booth", Detail: "two photos", DueAt: "2026-02-01"}, {ID: "CASE-1-T2", Title: "Pay fee"}}}
	archived := &wire.Case{ID: "CASE-2", Title: "Old claim", Status: "done", Domain: "work", ArchivedAt: "2024-01-01T00:00:00Z"}
	bare := &wire.Case{ID: "CASE-3", Title: "Only a title", Status: "urgent"}
	for _, tc := range []struct {
		name string
		got  searchdoc.Doc
		want searchdoc.Doc
	}{
		{"case: title, summary, tags, labels; its own case; lane and domain for the filters",
			searchdoc.Case(c),
			searchdoc.Doc{ID: "CASE-1", Type: "case", CaseID: "CASE-1", Domain: "life", Status: "todo", Text: "Renew passport\nAppointment at the consulate\ntravel eu\nwaiting-on"}},
		{"archived case",
			searchdoc.Case(archived),
			searchdoc.Doc{ID: "CASE-2", Type: "case", CaseID: "CASE-2", Domain: "work", Status: "done", Archived: true, Text: "Old claim"}},
		{"case without optional fields leaves no blank lines",
			searchdoc.Case(bare),
			searchdoc.Doc{ID: "CASE-3", Type: "case", CaseID: "CASE-3", Status: "urgent", Text: "Only a title"}},
		{"task: title and detail, id under its case, the case's domain and lane",
			searchdoc.Task(c, &c.Tasks[0]),
			searchdoc.Doc{ID: "CASE-1::CASE-1-T1", Type: "task", CaseID: "CASE-1", Domain: "life", Status: "todo", Text: "Book photo booth\ntwo photos"}},
		{"a task of an archived case is not archived itself",
			searchdoc.Task(archived, &wire.Task{ID: "CASE-2-T1", Title: "File it"}),
			searchdoc.Doc{ID: "CASE-2::CASE-2-T1", Type: "task", CaseID: "CASE-2", Domain: "work", Status: "done", Text: "File it"}},
		{"message: subject, from, preview; not the body or recipients",
			searchdoc.Message(&wire.Message{ID: "M-1", Subject: "Your appointment", From: "consulate@example.org", To: []string{"me@example.org"}, Preview: "Bring two photos", Body: "long body", CaseID: "CASE-1"}),
			searchdoc.Doc{ID: "M-1", Type: "message", CaseID: "CASE-1", Text: "Your appointment\nconsulate@example.org\nBring two photos"}},
		{"unlinked message has no case",
			searchdoc.Message(&wire.Message{ID: "M-2", Subject: "Invoice 42", From: "billing@example.com"}),
			searchdoc.Doc{ID: "M-2", Type: "message", Text: "Invoice 42\nbilling@example.com"}},
		{"reminder: title, detail, labels, task titles, domain; no status for the filters",
			searchdoc.Reminder(&wire.Reminder{ID: "REM-1", Title: "Passport photos", Detail: "pick up", Status: "done", Domain: "life", CaseID: "CASE-1", Labels: []string{"follow-up", "errand"},
				Tasks: []wire.ReminderTask{{ID: "REM-1-T1", Title: "print"}, {ID: "REM-1-T2", Title: "frame"}}}),
			searchdoc.Doc{ID: "REM-1", Type: "reminder", CaseID: "CASE-1", Domain: "life", Text: "Passport photos\npick up\nfollow-up errand\nprint\nframe\nlife"}},
		{"domainless reminder",
			searchdoc.Reminder(&wire.Reminder{ID: "REM-2", Title: "Expiry check", Status: "dismissed"}),
			searchdoc.Doc{ID: "REM-2", Type: "reminder", Text: "Expiry check"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestAllInStoreOrder(t *testing.T) {
	d := &wire.Doc{
		Cases: wire.ListOf([]*wire.Case{
			{ID: "CASE-1", Title: "one", Tasks: []wire.Task{{ID: "CASE-1-T1", Title: "a"}, {ID: "CASE-1-T2", Title: "b"}}},
			{ID: "CASE-2", Title: "two", ArchivedAt: "2024-01-01T00:00:00Z", Tasks: []wire.Task{{ID: "CASE-2-T1", Title: "c"}}},
		}...),
		Messages:  wire.ListOf([]*wire.Message{{ID: "M-1", Subject: "m"}}...),
		Reminders: wire.ListOf([]*wire.Reminder{{ID: "REM-1", Title: "r", Status: "done"}, {ID: "REM-2", Title: "s", Status: "dismissed"}}...),
	}
	var got []string
	for _, doc := range searchdoc.All(d) {
		got = append(got, doc.Type+" "+doc.ID)
	}
	want := []string{"case CASE-1", "task CASE-1::CASE-1-T1", "task CASE-1::CASE-1-T2", "case CASE-2", "task CASE-2::CASE-2-T1", "message M-1", "reminder REM-1", "reminder REM-2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if docs := searchdoc.All(&wire.Doc{}); len(docs) != 0 {
		t.Errorf("empty store: %v", docs)
	}
}

func TestTypes(t *testing.T) {
	if diff := cmp.Diff([]string{"case", "task", "message", "reminder"}, searchdoc.Types()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	searchdoc.Types()[0] = "changed"
	if searchdoc.Types()[0] != "case" {
		t.Error("a caller changed the list every other caller sees")
	}
	for _, typ := range searchdoc.Types() {
		if !searchdoc.IsType(typ) {
			t.Errorf("IsType(%q) = false", typ)
		}
	}
	for _, typ := range []string{"", "event", "Case", "cases", "note"} {
		if searchdoc.IsType(typ) {
			t.Errorf("IsType(%q) = true", typ)
		}
	}
}

func ExampleTaskID() {
	fmt.Println(searchdoc.TaskID("CASE-7", "CASE-7-T2"))
	// Output: CASE-7::CASE-7-T2
}

func TestQueries(t *testing.T) {
	many := slices.Repeat([]string{"q"}, 40)
	many[0], many[1] = " ", " spaced "
	for _, tc := range []struct {
		name string
		in   []string
		want []string
	}{
		{"none", nil, nil},
		{"only blanks", []string{"", "  ", "\t\n"}, nil},
		{"trimmed, empties dropped, order kept", []string{" b ", "", "a"}, []string{"b", "a"}},
		{"the first 32 count, blanks among them", many, append([]string{"spaced"}, slices.Repeat([]string{"q"}, 30)...)},
		{"duplicates stay", []string{"x", "x"}, []string{"x", "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, searchdoc.Queries(tc.in)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestFilterMatch(t *testing.T) {
	type doc struct {
		typ, domain, status string
		archived            bool
	}
	var (
		workCase     = doc{"case", "work", "todo", false}
		archivedCase = doc{"case", "work", "done", true}
		lifeTask     = doc{"task", "life", "in_progress", false}
		message      = doc{"message", "", "", false}
		lifeReminder = doc{"reminder", "life", "done", false} // a reminder status, not a lane
		bareReminder = doc{"reminder", "", "", false}
	)
	all := []doc{workCase, archivedCase, lifeTask, message, lifeReminder, bareReminder}
	for _, tc := range []struct {
		name   string
		filter searchdoc.Filter
		want   []doc
	}{
		{"no filter hides archived cases only", searchdoc.Filter{}, []doc{workCase, lifeTask, message, lifeReminder, bareReminder}},
		{"includeArchived shows everything", searchdoc.Filter{IncludeArchived: true}, all},
		{"types", searchdoc.Filter{Types: map[string]bool{"task": true, "message": true}}, []doc{lifeTask, message}},
		{"types still hide archived cases", searchdoc.Filter{Types: map[string]bool{"case": true}}, []doc{workCase}},
		{"an empty types map is every type", searchdoc.Filter{Types: map[string]bool{}, IncludeArchived: true}, all},
		{"domain drops other domains; messages and domainless reminders are exempt", searchdoc.Filter{Domain: "work", IncludeArchived: true},
			[]doc{workCase, archivedCase, message, bareReminder}},
		{"status drops other lanes; reminders and messages are exempt", searchdoc.Filter{Status: "in_progress", IncludeArchived: true},
			[]doc{lifeTask, message, lifeReminder, bareReminder}},
		{"a reminder with a status is still exempt from the status filter", searchdoc.Filter{Status: "todo"}, []doc{workCase, message, lifeReminder, bareReminder}},
		{"filters combine", searchdoc.Filter{Types: map[string]bool{"case": true, "reminder": true}, Domain: "life", Status: "done", IncludeArchived: true},
			[]doc{lifeReminder, bareReminder}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []doc
			for _, d := range all {
				if tc.filter.Match(d.typ, d.domain, d.status, d.archived) {
					got = append(got, d)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(doc{})); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestParseFilter(t *testing.T) {
	type in struct {
		types           []string
		domain, status  string
		includeArchived bool
	}
	for _, tc := range []struct {
		name string
		in   in
		want searchdoc.Filter
		err  string
	}{
		{"nothing set is no filter", in{}, searchdoc.Filter{}, ""},
		{"every field", in{[]string{"task", "reminder", "task"}, "life", "done", true},
			searchdoc.Filter{Types: map[string]bool{"task": true, "reminder": true}, Domain: "life", Status: "done", IncludeArchived: true}, ""},
		{"an empty types list is every type", in{types: []string{}}, searchdoc.Filter{}, ""},
		{"unknown type names the field and the allowed values", in{types: []string{"case", "event"}}, searchdoc.Filter{},
			`field 'types' holds "event"; allowed: case, task, message, reminder`},
		{"unknown domain", in{domain: "home"}, searchdoc.Filter{}, "field 'domain' must be one of work, life"},
		{"status must be a case lane, not a reminder status", in{status: "open"}, searchdoc.Filter{},
			"field 'status' must be one of urgent, todo, in_progress, waiting_for_input, done"},
		{"types are checked before domain", in{types: []string{"x"}, domain: "y"}, searchdoc.Filter{}, "field 'types'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := searchdoc.ParseFilter(tc.in.types, tc.in.domain, tc.in.status, tc.in.includeArchived)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestPageDoc(t *testing.T) {
	p := &wire.PageSummary{ID: "V-3", Path: "people/Ann Lee.md", Title: "Ann Lee", Type: wire.PagePerson,
		Aliases: []string{"Annie"}, Emails: []string{"ann@x.example"}, Domains: []string{}, Cases: []string{"CASE-1"}}
	want := searchdoc.Doc{ID: "V-3", Type: "page", Text: "Ann Lee\nAnnie\nann@x.example\nMet at the fair."}
	if diff := cmp.Diff(want, searchdoc.Page(p, " Met at the fair.\n")); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	p.ID = ""
	if got := searchdoc.Page(p, "").ID; got != "people/Ann Lee.md" {
		t.Errorf("a page without an id is found by its path, got %q", got)
	}
}

func TestPageIsASearchType(t *testing.T) {
	if diff := cmp.Diff([]string{"case", "task", "message", "reminder", "page"}, searchdoc.SearchTypes()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	f, err := searchdoc.ParseFilter([]string{"page"}, "work", "todo", false)
	if err != nil {
		t.Fatal(err)
	}
	// A page has no domain or lane, so those filters never drop it.
	if !f.Match("page", "", "", false) || f.Match("case", "work", "todo", false) {
		t.Errorf("filter %+v: a page must pass and a case must not", f)
	}
	if _, err := searchdoc.ParseFilter([]string{"pages"}, "", "", false); err == nil || !strings.Contains(err.Error(), "allowed: case, task, message, reminder, page") {
		t.Errorf("error %v, want one naming page among the allowed values", err)
	}
}
