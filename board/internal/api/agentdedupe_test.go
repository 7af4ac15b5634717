package api_test

import (
	"testing"
)

// The agent sending the same task, note or priority note twice makes one:
// the second answers the first with existing true and writes nothing. The
// person's own repeats stay theirs to make, and a task that is done no
// longer stands in the way of a new one of the same title.
func TestAgentRepeatsMakeOneRecord(t *testing.T) {
	b := newBoard(t)
	id := b.must(201, "POST", "/api/cases", map[string]any{"title": "Lease"}).Get("case.id").String()
	for _, tc := range []struct {
		name, path, key string
		body, again     map[string]any
	}{
		{"task", "/api/cases/" + id + "/tasks", "task", map[string]any{"title": "Call the landlord"}, map[string]any{"title": "  call the LANDLORD "}},
		{"note", "/api/cases/" + id + "/notes", "note", map[string]any{"text": "Rent is due on the 1st"}, map[string]any{"text": "Rent is due on the 1st "}},
		{"priority", "/api/priorities", "priority", map[string]any{"text": "Ship the lease"}, map[string]any{"text": "Ship the lease"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := b.must(201, "POST", tc.path, tc.body, agent...)
			v := b.must(200, "GET", "/api/health", nil).Get("version").Int()
			again := b.must(200, "POST", tc.path, tc.again, agent...)
			if !again.Get("existing").Bool() || again.Get(tc.key+".id").String() != first.Get(tc.key+".id").String() {
				t.Fatalf("the repeat answered %s, want the first %s with existing true", again.Raw, tc.key)
			}
			if got := b.must(200, "GET", "/api/health", nil).Get("version").Int(); got != v {
				t.Errorf("the repeat wrote: version %d -> %d", v, got)
			}
			if person := b.must(201, "POST", tc.path, tc.body); person.Get("existing").Bool() {
				t.Errorf("the person's repeat was folded into the agent's: %s", person.Raw)
			}
		})
	}
	task := b.must(200, "GET", "/api/cases/"+id, nil).Get("case.tasks.0.id").String()
	b.must(200, "PATCH", "/api/cases/"+id+"/tasks/"+task, map[string]any{"completed": true})
	b.must(200, "PATCH", "/api/cases/"+id+"/tasks/"+b.must(200, "GET", "/api/cases/"+id, nil).Get("case.tasks.1.id").String(), map[string]any{"completed": true})
	if again := b.must(201, "POST", "/api/cases/"+id+"/tasks", map[string]any{"title": "Call the landlord"}, agent...); again.Get("existing").Bool() {
		t.Errorf("a done task stood in the way of a new one: %s", again.Raw)
	}
}

// The agent posting the same mail without a Message-ID or a date twice
// makes one message: the board's stamp of the time is no difference.
func TestAgentRepeatedUndatedMailIsOneMessage(t *testing.T) {
	b := newBoard(t)
	mail := map[string]any{"from": "Alice <alice@example.test>", "to": []string{"me@home.test"}, "subject": "Lease", "body": "Signed copy attached."}
	first := b.must(201, "POST", "/api/messages", mail, agent...)
	again := b.must(200, "POST", "/api/messages", mail, agent...)
	if !again.Get("existing").Bool() || again.Get("message.id").String() != first.Get("message.id").String() {
		t.Fatalf("the repeat answered %s, want the first message with existing true", again.Raw)
	}
	other := map[string]any{"from": "Alice <alice@example.test>", "to": []string{"me@home.test"}, "subject": "Lease", "body": "A different text."}
	if r := b.must(201, "POST", "/api/messages", other, agent...); r.Get("existing").Bool() {
		t.Errorf("a different body was taken for the same mail: %s", r.Raw)
	}
	if person := b.must(201, "POST", "/api/messages", mail); person.Get("existing").Bool() {
		t.Errorf("the person's own repeat was folded into the agent's: %s", person.Raw)
	}
}
