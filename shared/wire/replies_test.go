package wire

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The board wrote its replies as maps, which encode their keys sorted. The
// reply types keep that wire form by declaring their fields in key order.
func TestReplyFieldsInKeyOrder(t *testing.T) {
	for _, v := range []any{
		ActorOnly{}, Deleted{}, CaseList{}, CaseDetail{}, CaseReply{}, CleanReply{}, TaskReply{}, NoteReply{},
		TreeReply{}, ActivityFeed{}, MessageList{}, MessageReply{}, UnreadCount{}, EventList{}, EventReply{},
		ReminderList{}, ReminderDetail{}, ReminderReply{}, ReminderMessageReply{}, PriorityList{}, PriorityReply{},
		ProposalList{}, ProposalReply{}, ApproveReply{}, ApprovalResult{}, RejectReply{}, PrefsReply{},
		ViewList{}, ViewReply{}, ViewSaved{}, TemplateList{}, TemplateReply{}, TemplateSaved{},
		LabelList{}, LabelReply{}, BundleList{}, BundleInstalled{}, BundleUninstalled{}, Health{}, ErrorReply{}, Connect{}, ConnectServer{},
		Changes{}, ChangedRecord{}, RecordRef{}, CaseSummaryList{}, TreeSummaryReply{}, MessageSummaryList{}, MessageDetail{},
		UndoReply{}, UndoneWrite{}, UndoConflict{},
	} {
		typ := reflect.TypeOf(v)
		var keys []string
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			keys = append(keys, name)
		}
		if !slices.IsSorted(keys) {
			t.Errorf("%s declares its fields as %v: the board writes them sorted", typ.Name(), keys)
		}
	}
}

func TestReplyJSON(t *testing.T) {
	c := Case{ID: "CASE-1", Title: "Desks", Status: "todo", Domain: "work", Kind: "case", CreatedAt: "t0", UpdatedAt: "t1"}
	const cj = `{"id":"CASE-1","title":"Desks","status":"todo","domain":"work","kind":"case","createdAt":"t0","updatedAt":"t1"}`
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"a write leaves existing out", CaseReply{Case: c, Version: 3}, `{"case":` + cj + `,"version":3}`},
		{"a deduplicated create says existing", CaseReply{Case: c, Existing: true, Version: 3}, `{"case":` + cj + `,"existing":true,"version":3}`},
		{"a list the board had none of is null", CaseList{Version: 1}, `{"cases":null,"version":1}`},
		{"an empty list is empty", CaseList{Cases: []Case{}, Version: 1}, `{"cases":[],"version":1}`},
		{"a delete says ok", Deleted{OK: true, Version: 2}, `{"ok":true,"version":2}`},
		{"a hard delete names the node", Deleted{Deleted: "CASE-1", OK: true, Version: 2}, `{"deleted":"CASE-1","ok":true,"version":2}`},
		{"a replaced view says created false", ViewSaved{Version: 4, View: View{ID: "VIEW-1", Name: "Mine", Filters: json.RawMessage(`{}`)}},
			`{"created":false,"version":4,"view":{"id":"VIEW-1","name":"Mine","filters":{},"createdAt":"","updatedAt":""}}`},
		{"an approved patch answers the case", ApproveReply{Proposal: Proposal{ID: "PROP-1", Verb: "update_case", Payload: json.RawMessage(`{}`)}, Result: ApprovalResult{Case: &c}, Version: 5},
			`{"proposal":{"id":"PROP-1","verb":"update_case","payload":{},"summary":"","actor":"","createdAt":""},"result":{"case":` + cj + `},"version":5}`},
		{"an approved delete answers ok and the id", ApprovalResult{Deleted: "CASE-4", OK: true}, `{"deleted":"CASE-4","ok":true}`},
		{"a reminder's email reply", ReminderMessageReply{Message: Message{ID: "M-1"}, Reminder: Reminder{ID: "REM-1", Title: "Lease", Status: "open"}, Version: 6},
			`{"message":{"id":"M-1","read":false},"reminder":{"id":"REM-1","title":"Lease","status":"open","createdAt":"","updatedAt":""},"version":6}`},
		{"a tree node is the case with children and rollup", TreeNode{Case: c, Children: []*TreeNode{}, Rollup: Rollup{TotalCases: 1}},
			`{"id":"CASE-1","title":"Desks","status":"todo","domain":"work","kind":"case","createdAt":"t0","updatedAt":"t1","children":[],"rollup":{"totalCases":1,"doneCases":0,"totalTasks":0,"doneTasks":0,"ratio":0,"childCount":0}}`},
		{"a case's feed row names no reminder or event", ActivityEntry{Activity: Activity{Actor: "human", Verb: "created", TS: "t0"}, Category: "lifecycle", CaseID: "CASE-1", CaseTitle: "Desks"},
			`{"actor":"human","verb":"created","ts":"t0","category":"lifecycle","caseId":"CASE-1","caseTitle":"Desks"}`},
		{"health", Health{OK: true, Problems: []string{}, Release: "dev", SchemaVersion: 7, StorePath: "/b.json", Version: 9},
			`{"degraded":false,"ok":true,"problems":[],"release":"dev","schemaVersion":7,"storePath":"/b.json","version":9}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
