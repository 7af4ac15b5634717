package storefile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func ptr[T any](v T) *T { return &v }

// migrated is the empty current-schema document the expectations start from:
// every collection a reader ranges over is present and empty.
func migrated(version int64) *wire.Doc {
	return &wire.Doc{
		SchemaVersion: wire.SchemaVersion, Version: version,
		Cases: wire.ListOf([]*wire.Case{}...), Messages: wire.ListOf([]*wire.Message{}...), Events: wire.ListOf([]*wire.Event{}...),
		Reminders: wire.ListOf([]*wire.Reminder{}...), Priorities: wire.ListOf([]*wire.Priority{}...), Labels: wire.ListOf([]*wire.LabelDef{}...),
		Counters: map[string]int64{},
	}
}

// TestOldSchemasLoadUnchangedInMeaning reads a file written at each schema
// version and checks it means the same at the current one: missing arrays
// read as empty, a missing domain is work, an absent kind is a leaf case,
// and the id counters sit at least at the highest id present.
func TestOldSchemasLoadUnchangedInMeaning(t *testing.T) {
	for _, tc := range []struct {
		file string
		want func() *wire.Doc
	}{
		{"v0.json", func() *wire.Doc { // no schemaVersion at all
			d := migrated(12)
			d.Cases = wire.ListOf([]*wire.Case{
				{ID: "CASE-1", Title: "Renew passport", Status: "todo", Domain: "work", Kind: "case", Tags: []string{"travel"},
					Tasks: []wire.Task{
						{ID: "CASE-1-T1", Title: "Book photo appointment"},
						{ID: "CASE-1-T2", Title: "Fill in form", CompletedAt: "2023-02-02T10:00:00Z"},
					},
					Position: ptr(1.0), CreatedAt: "2023-02-01T09:00:00Z", UpdatedAt: "2023-02-02T10:00:00Z"},
				{ID: "CASE-3", Title: "Quarterly VAT return", Summary: "Accountant needs the receipts by the 20th.", Status: "waiting_for_input",
					Domain: "work", Kind: "case", Position: ptr(1.0), CreatedAt: "2023-02-03T09:00:00Z", UpdatedAt: "2023-02-03T09:00:00Z"},
			}...)
			d.Messages = wire.ListOf([]*wire.Message{{ID: "M-4", From: "accountant@example.com", To: wire.Addresses{"me@example.com", "partner@example.com"},
				Subject: "Receipts for Q1", Preview: "Could you send the receipts", ReceivedAt: "2023-02-03T08:00:00Z", CaseID: "CASE-3"}}...)
			d.Counters = map[string]int64{"CASE": 3, "M": 4}
			return d
		}},
		{"v3.json", func() *wire.Doc { // base: no events, reminders or priorities
			d := migrated(40)
			d.Cases = wire.ListOf([]*wire.Case{
				{ID: "CASE-2", Title: "Launch the new pricing", Status: "in_progress", Domain: "work", Kind: "initiative",
					Position: ptr(1.0), CreatedAt: "2023-05-01T09:00:00Z", UpdatedAt: "2023-05-04T09:00:00Z"},
				{ID: "CASE-5", Title: "Update the pricing page", Status: "todo", Domain: "work", Kind: "case", ParentID: "CASE-2",
					Labels:   []string{"marketing"},
					Notes:    []wire.Note{{ID: "CASE-5-N1", Text: "Wait for legal sign-off", Actor: "human", CreatedAt: "2023-05-02T09:00:00Z"}},
					Activity: []wire.Activity{{Actor: "agent", Verb: "created", TS: "2023-05-02T09:00:00Z", Detail: "case"}},
					Position: ptr(1.0), CreatedAt: "2023-05-02T09:00:00Z", UpdatedAt: "2023-05-02T09:00:00Z"},
				{ID: "CASE-9", Title: "Call the plumber", Status: "urgent", Domain: "work", Kind: "case",
					Position: ptr(1.0), CreatedAt: "2023-05-03T09:00:00Z", UpdatedAt: "2023-05-03T09:00:00Z"},
			}...)
			d.Messages = wire.ListOf([]*wire.Message{{ID: "M-17", Source: "gmail", From: "legal@example.com", To: wire.Addresses{"me@example.com"},
				Subject: "Pricing copy approved", Body: "Approved with two edits, see attached.", ReceivedAt: "2023-05-03T11:00:00Z", Read: true, CaseID: "CASE-5"}}...)
			d.Labels = wire.ListOf([]*wire.LabelDef{{ID: "marketing", Title: "Marketing", Description: "Campaigns and copy", Color: "pink"}}...)
			d.Counters = map[string]int64{"CASE": 9, "M": 17}
			return d
		}},
		{"v4.json", func() *wire.Doc { // adds events
			d := migrated(51)
			d.Cases = wire.ListOf([]*wire.Case{{ID: "CASE-1", Title: "Dentist", Status: "todo", Domain: "life", Kind: "case",
				Position: ptr(1.0), CreatedAt: "2023-07-01T09:00:00Z", UpdatedAt: "2023-07-01T09:00:00Z"}}...)
			d.Events = wire.ListOf([]*wire.Event{{ID: "EVT-3", Title: "Dentist check-up", Date: "2023-07-12", StartTime: "09:30", EndTime: "10:00",
				Location: "High Street 4", CaseID: "CASE-1", CreatedAt: "2023-07-01T09:00:00Z", UpdatedAt: "2023-07-01T09:00:00Z"}}...)
			d.Counters = map[string]int64{"CASE": 1, "EVT": 3}
			return d
		}},
		{"v5.json", func() *wire.Doc { // adds reminders, still without labels or tasks
			d := migrated(77)
			d.Cases = wire.ListOf([]*wire.Case{{ID: "CASE-4", Title: "Car insurance renewal", Status: "todo", Domain: "life", Kind: "case",
				Position: ptr(1.0), CreatedAt: "2023-09-01T09:00:00Z", UpdatedAt: "2023-09-01T09:00:00Z"}}...)
			d.Messages = wire.ListOf([]*wire.Message{{ID: "M-8", From: "insurer@example.com", Subject: "Your renewal quote",
				ReceivedAt: "2023-09-01T08:00:00Z", CaseID: "CASE-4"}}...)
			d.Reminders = wire.ListOf([]*wire.Reminder{
				{ID: "REM-2", Title: "Compare two more quotes", Status: "open", CaseID: "CASE-4", DueAt: "2023-09-10", Domain: "life",
					CreatedAt: "2023-09-01T09:00:00Z", UpdatedAt: "2023-09-01T09:00:00Z"},
				{ID: "REM-6", Title: "Water the plants", Status: "open", CreatedAt: "2023-09-02T09:00:00Z", UpdatedAt: "2023-09-02T09:00:00Z"},
			}...)
			d.Counters = map[string]int64{"CASE": 4, "M": 8, "REM": 6}
			return d
		}},
		{"v6.json", func() *wire.Doc { // reminder labels and tasks, message reminderId
			d := migrated(90)
			d.Cases = wire.ListOf([]*wire.Case{{ID: "CASE-7", Title: "Hire a contractor for the kitchen", Status: "in_progress", Domain: "life", Kind: "case",
				Tasks:    []wire.Task{{ID: "CASE-7-T3", Title: "Ask for references", DueAt: "2023-10-05"}},
				Position: ptr(1.0), CreatedAt: "2023-10-01T09:00:00Z", UpdatedAt: "2023-10-02T09:00:00Z"}}...)
			d.Messages = wire.ListOf([]*wire.Message{
				{ID: "M-30", From: "builder@example.com", Subject: "Quote for the kitchen", ReceivedAt: "2023-10-02T08:00:00Z", Read: true,
					CaseID: "CASE-7", ReminderID: "REM-11"},
				{ID: "M-31", From: "newsletter@example.com", Subject: "Autumn sale", ReceivedAt: "2023-10-02T09:00:00Z",
					ReminderID: "REM-11", URL: "https://mail.example.com/m/31"},
			}...)
			d.Reminders = wire.ListOf([]*wire.Reminder{{ID: "REM-11", Title: "Pick a builder", Detail: "Three quotes in; decide by Friday.", Status: "done",
				Labels:    []string{"home"},
				Tasks:     []wire.ReminderTask{{ID: "REM-11-T1", Title: "Read the quotes", Done: true}, {ID: "REM-11-T2", Title: "Call the favourite"}},
				CreatedAt: "2023-10-01T09:00:00Z", UpdatedAt: "2023-10-03T09:00:00Z", CompletedAt: "2023-10-03T09:00:00Z"}}...)
			d.Labels = wire.ListOf([]*wire.LabelDef{{ID: "home", Title: "Home", Description: "House and garden", Color: "teal"}}...)
			d.Counters = map[string]int64{"CASE": 7, "M": 31, "REM": 11}
			return d
		}},
		{"v7.json", func() *wire.Doc { // priorities and starred; counters kept, raised where behind
			d := migrated(130)
			d.Cases = wire.ListOf([]*wire.Case{
				{ID: "CASE-12", Title: "Board meeting prep", Status: "todo", Domain: "work", Kind: "workstream", ParentID: "CASE-11",
					Starred: true, Position: ptr(1.0), CreatedAt: "2024-01-02T09:00:00Z", UpdatedAt: "2024-01-02T09:00:00Z"},
				{ID: "CASE-11", Title: "Fundraising", Status: "in_progress", Domain: "work", Kind: "initiative",
					Position: ptr(1.0), CreatedAt: "2024-01-01T09:00:00Z", UpdatedAt: "2024-01-01T09:00:00Z"},
			}...)
			d.Priorities = wire.ListOf([]*wire.Priority{
				{ID: "PRI-2", Text: "Close the round before March", Position: ptr(1.0), CreatedAt: "2024-01-01T09:00:00Z", UpdatedAt: "2024-01-01T09:00:00Z"},
				{ID: "PRI-4", Text: "Protect Friday afternoons", CreatedAt: "2024-01-03T09:00:00Z", UpdatedAt: "2024-01-03T09:00:00Z"},
			}...)
			// CASE was behind the ids present; M is ahead (messages were deleted) and stays.
			d.Counters = map[string]int64{"CASE": 12, "M": 40, "PRI": 4}
			return d
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(data)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if diff := cmp.Diff(tc.want(), got); diff != "" {
				t.Errorf("decoded (-want +got)\n%s", diff)
			}
			// The shared reader (document plus an absent journal) agrees.
			loaded, err := Load(path)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if diff := cmp.Diff(tc.want(), loaded); diff != "" {
				t.Errorf("loaded (-want +got)\n%s", diff)
			}
		})
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "v10-newer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(data); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("decoding a schema 10 file: err %v, want a refusal naming it newer", err)
	}
	if _, err := Load(filepath.Join("testdata", "v10-newer.json")); err == nil {
		t.Fatal("Load accepted a schema 10 file")
	}
}

func TestUnreadableDocumentsAreRefused(t *testing.T) {
	for name, data := range map[string]string{
		"torn":            `{"schemaVersion": 7, "version": 3, "cases": [`,
		"not an object":   `[1, 2, 3]`,
		"negative schema": `{"schemaVersion": -1}`,
		"wrong type":      `{"schemaVersion": 7, "cases": {"id": "CASE-1"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if d, err := Decode([]byte(data)); err == nil {
				t.Fatalf("decoded %q as %+v", data, d)
			}
		})
	}
}

// TestMigratedDocumentReadsBackTheSame checks the migration is a fixed point:
// a migrated document written and read again does not change.
func TestMigratedDocumentReadsBackTheSame(t *testing.T) {
	for _, file := range []string{"v0.json", "v3.json", "v4.json", "v5.json", "v6.json", "v7.json"} {
		t.Run(file, func(t *testing.T) {
			first, err := ReadDoc(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(first)
			if err != nil {
				t.Fatal(err)
			}
			second, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("(-first +second)\n%s", diff)
			}
		})
	}
}

// TestSchema7LanesKeepTheirOrder loads a schema-7 board whose lanes mix
// manual positions, creation times and ties, and checks that each lane
// draws in the same order under the new lane order as it did under the old
// one (oldest first, then ties by creation time and id).
func TestSchema7LanesKeepTheirOrder(t *testing.T) {
	want := map[wire.Lane][]string{ // the order schema 7 drew
		wire.LaneTodo:       {"CASE-4", "CASE-1", "CASE-5", "CASE-6", "CASE-3", "CASE-2"},
		wire.LaneDone:       {"CASE-8", "CASE-7"},
		wire.LaneInProgress: {"CASE-9", "CASE-10"},
	}
	d, err := Load(filepath.Join("testdata", "v7-lanes.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[wire.Lane][]string{}
	cases := make([]wire.Case, d.Cases.Len())
	for i, c := range d.Cases.All() {
		cases[i] = *c
	}
	wire.SortLanes(cases)
	for _, c := range cases {
		got[c.Status] = append(got[c.Status], c.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lanes after the upgrade (-want +got)\n%s", diff)
	}
	if d.SchemaVersion != wire.SchemaVersion {
		t.Errorf("schema %d, want %d", d.SchemaVersion, wire.SchemaVersion)
	}
	// A card created after the upgrade, without a position, goes on top.
	fresh := append(cases, wire.Case{ID: "CASE-11", Status: wire.LaneTodo, CreatedAt: "2024-06-01T09:00:00Z"})
	wire.SortLanes(fresh)
	if fresh[0].ID != "CASE-11" { // no urgent card: To do is the first lane
		t.Errorf("a new card sorts at %s, want CASE-11 on top of To do", fresh[0].ID)
	}
}
