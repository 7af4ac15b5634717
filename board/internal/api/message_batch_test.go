package api_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A batch writes every new message once and answers each in order, created
// or the record already held, with dedupe inside the batch too.
func TestMessageBatchAnswersEachItem(t *testing.T) {
	b := newBoard(t)
	caseID := b.must(201, "POST", "/api/cases", map[string]any{"title": "Vendor renewal"}).Get("case.id").String()
	held := b.must(201, "POST", "/api/messages", map[string]any{"from": "ann@vendor.example", "body": "first", "messageId": "<m1@x>"})
	before := b.must(200, "GET", "/api/messages", nil).Get("version").Int()

	got := b.must(201, "POST", "/api/messages", map[string]any{"messages": []map[string]any{
		{"from": "ann@vendor.example", "body": "again", "messageId": "m1@x"},
		{"from": "bob@vendor.example", "body": "new", "messageId": "<m2@x>", "caseId": caseID},
		{"from": "bob@vendor.example", "body": "new copy", "messageId": "m2@x"},
	}}, "x-actor", "system")
	res := got.Get("results").Array()
	if len(res) != 3 {
		t.Fatalf("results %s, want 3", got.Raw)
	}
	if !res[0].Get("existing").Bool() || res[0].Get("message.id").String() != held.Get("message.id").String() {
		t.Errorf("item 0 %s, want the message held", res[0].Raw)
	}
	if res[1].Get("existing").Bool() || res[1].Get("message.caseId").String() != caseID {
		t.Errorf("item 1 %s, want created on %s", res[1].Raw, caseID)
	}
	if !res[2].Get("existing").Bool() || res[2].Get("message.id").String() != res[1].Get("message.id").String() {
		t.Errorf("item 2 %s, want the copy answered with item 1's record", res[2].Raw)
	}
	if v := got.Get("version").Int(); v != before+1 {
		t.Errorf("version %d after the batch, want %d: one write", v, before+1)
	}
	if n := len(b.must(200, "GET", "/api/messages", nil).Get("messages").Array()); n != 2 {
		t.Errorf("%d messages on the board, want 2", n)
	}
	if act := b.must(200, "GET", "/api/cases/"+caseID, nil).Get("case.activity.#(verb==\"message_linked\")"); !act.Exists() {
		t.Errorf("no message_linked on the case: the batch must link as the single create does")
	}

	// Every item held already: 200, nothing written, the version unchanged.
	again := b.must(200, "POST", "/api/messages", map[string]any{"messages": []map[string]any{{"from": "x@y", "body": "b", "messageId": "m2@x"}}})
	if !again.Get("results.0.existing").Bool() || again.Get("version").Int() != before+1 {
		t.Errorf("a batch of copies answered %s, want existing at version %d", again.Raw, before+1)
	}
}

// One bad item refuses the whole batch, naming its index, and writes
// nothing; the limits of the batch are refused with 413.
func TestMessageBatchBadItemWritesNothing(t *testing.T) {
	b := newBoard(t)
	before := b.must(200, "GET", "/api/messages", nil).Get("version").Int()
	b.fails(400, "messages[2]: ", "POST", "/api/messages", map[string]any{"messages": []map[string]any{
		{"from": "a@x", "body": "one"}, {"from": "b@x", "body": "two"}, {"body": "three", "scan": "maybe"},
	}})
	b.fails(400, "messages[1]: case CASE-404 not found", "POST", "/api/messages", map[string]any{"messages": []map[string]any{
		{"from": "a@x", "body": "one"}, {"from": "b@x", "body": "two", "caseId": "CASE-404"},
	}})
	got := b.must(200, "GET", "/api/messages", nil)
	if n := len(got.Get("messages").Array()); n != 0 || got.Get("version").Int() != before {
		t.Errorf("a refused batch left %d messages at version %d (was %d)", n, got.Get("version").Int(), before)
	}
	b.fails(400, "field 'messages'", "POST", "/api/messages", map[string]any{"messages": []map[string]any{}})
	b.fails(400, "not both", "POST", "/api/messages", map[string]any{"body": "x", "messages": []map[string]any{{"body": "y"}}})
	many := make([]map[string]any, 101)
	for i := range many {
		many[i] = map[string]any{"from": "a@x", "body": fmt.Sprint(i)}
	}
	b.fails(413, "at most 100", "POST", "/api/messages", map[string]any{"messages": many})
	big := strings.Repeat("x", 300<<10)
	b.fails(413, "larger than", "POST", "/api/messages", map[string]any{"messages": []map[string]any{
		{"body": big}, {"body": big + "1"}, {"body": big + "2"}, {"body": big + "3"},
	}})
}

// The Idempotency-Key covers the whole batch: its repeat answers the first
// answer and writes nothing more.
func TestMessageBatchIdempotencyKeyReplaysTheBatch(t *testing.T) {
	b := newBoard(t)
	body := map[string]any{"messages": []map[string]any{{"from": "a@x", "body": "one"}, {"from": "b@x", "body": "two"}}}
	first := b.do("POST", "/api/messages", body, "Idempotency-Key", "batch-1")
	second := b.do("POST", "/api/messages", body, "Idempotency-Key", "batch-1")
	if first.Code != 201 || second.Code != 201 || first.Raw != second.Raw {
		t.Fatalf("repeat answered %d %s, want the first answer %d %s", second.Code, second.Raw, first.Code, first.Raw)
	}
	if n := len(b.must(200, "GET", "/api/messages", nil).Get("messages").Array()); n != 2 {
		t.Errorf("%d messages after the repeat, want 2", n)
	}
	body["messages"] = []map[string]any{{"from": "c@x", "body": "three"}}
	if other := b.do("POST", "/api/messages", body, "Idempotency-Key", "batch-1"); other.Code != 409 {
		t.Errorf("the key with another batch answered %d, want 409", other.Code)
	}
}

// Each message of a batch resolves its sender's page, as a single create.
func TestMessageBatchResolvesEntities(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "people"), 0o755); err != nil {
		t.Fatal(err)
	}
	page := "---\ntype: person\nemails: [ann@example.test]\n---\nAnn\n"
	if err := os.WriteFile(filepath.Join(dir, "people", "Ann.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBoardWith(t, dir)
	got := b.must(201, "POST", "/api/messages", map[string]any{"messages": []map[string]any{
		{"from": "someone@else.test", "body": "no page"}, {"from": "Ann <ann@example.test>", "body": "hi"},
	}})
	if ents := got.Get("results.1.message.entities").Array(); len(ents) != 1 || !strings.HasPrefix(ents[0].String(), "V-") {
		t.Errorf("entities %s, want Ann's page id", got.Get("results.1.message.entities").Raw)
	}
	if ents := got.Get("results.0.message.entities").Array(); len(ents) != 0 {
		t.Errorf("a sender without a page resolved to %s", got.Get("results.0.message.entities").Raw)
	}
}
