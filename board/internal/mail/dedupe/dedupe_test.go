package dedupe

import (
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

func TestKey(t *testing.T) {
	base := wire.Message{From: "Ann@Example.com", ReceivedAt: "2026-03-01T10:00:00Z", Body: "hello\r\nthere"}
	for _, tc := range []struct {
		name string
		a, b wire.Message
		same bool
	}{
		{"same Message-ID with or without brackets", wire.Message{MessageID: "<x@y>", Body: "a"}, wire.Message{MessageID: "x@y", Body: "b"}, true},
		{"different Message-IDs", wire.Message{MessageID: "<x@y>", Body: "a"}, wire.Message{MessageID: "<z@y>", Body: "a"}, false},
		{"no Message-ID: same sender, instant and body", base,
			wire.Message{From: " ann@example.com", ReceivedAt: "2026-03-01T11:00:00+01:00", Body: "hello\nthere\n", Subject: "other"}, true},
		{"no Message-ID: another body", base, wire.Message{From: base.From, ReceivedAt: base.ReceivedAt, Body: "bye"}, false},
		{"no Message-ID: another sender", base, wire.Message{From: "bob@example.com", ReceivedAt: base.ReceivedAt, Body: base.Body}, false},
		{"no Message-ID: another recipient", wire.Message{From: "a@x", To: wire.Addresses{"b@x"}, Body: "hi"}, wire.Message{From: "a@x", To: wire.Addresses{"c@x"}, Body: "hi"}, false},
		{"no Message-ID: recipients in any order and case", wire.Message{From: "a@x", To: wire.Addresses{"b@x", "C@x"}, Body: "hi"}, wire.Message{From: "a@x", To: wire.Addresses{"c@x", "b@x"}, Body: "hi"}, true},
		{"no Message-ID: another date", base, wire.Message{From: base.From, ReceivedAt: "2026-03-02T10:00:00Z", Body: base.Body}, false},
		{"a Message-ID never equals a hash", wire.Message{MessageID: "<x@y>", Body: "a"}, wire.Message{Body: "a"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Key(&tc.a) == Key(&tc.b); got != tc.same {
				t.Errorf("Key(a)==Key(b) is %v, want %v (%s vs %s)", got, tc.same, Key(&tc.a), Key(&tc.b))
			}
		})
	}
}
