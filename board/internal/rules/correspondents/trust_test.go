package correspondents_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/board/internal/rules/correspondents"
	"github.com/opsboard/opsboard/shared/wire"
)

const me = "me@home.org"

func in(from, at string) wire.Message { return wire.Message{From: from, ReceivedAt: at} }

func out(at string, to []string, cc ...string) wire.Message {
	return wire.Message{From: me, To: to, Cc: cc, ReceivedAt: at, Outbound: true}
}

func TestDerive(t *testing.T) {
	for _, tc := range []struct {
		name      string
		principal string
		msgs      []wire.Message
		want      []string
	}{
		{"A: a reply to the sender trusts the sender", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("2026-01-01T11:00:00Z", []string{"ann@x.com", "bob@y.com"}),
		}, []string{"ann@x.com"}},
		{"A: a message to the sender sent before they wrote in is no reply", me, []wire.Message{
			out("2026-01-01T09:00:00Z", []string{"ann@x.com", "bob@y.com"}, "carl@z.com"),
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			in("dan@w.com", "2026-01-01T08:00:00Z"),
		}, nil},
		{"A: an inbound without a reply trusts no one", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
		}, nil},
		{"B: the sole recipient without cc, even on a reply", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("2026-01-01T11:00:00Z", []string{"bob@y.com"}),
		}, []string{"bob@y.com"}},
		{"B: a cc takes the rule away on a reply", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("2026-01-01T11:00:00Z", []string{"bob@y.com"}, "carl@z.com"),
		}, nil},
		{"C: an originated message trusts its to and cc", me, []wire.Message{
			out("2026-01-01T09:00:00Z", []string{"ann@x.com", "bob@y.com"}, "carl@z.com"),
			in("ann@x.com", "2026-01-01T10:00:00Z"),
		}, []string{"ann@x.com", "bob@y.com", "carl@z.com"}},
		{"C: a reply's other recipients are not trusted", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("2026-01-01T11:00:00Z", []string{"bob@y.com", "dan@w.com"}, "carl@z.com"),
		}, nil},
		{"C: judged per outbound message, not only the first", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("2026-01-01T11:00:00Z", []string{"bob@y.com", "dan@w.com"}),
			out("2026-01-01T08:00:00Z", []string{"eve@v.com", "fay@u.com"}),
		}, []string{"eve@v.com", "fay@u.com"}},
		{"tie: an inbound at the same instant makes the outbound a reply", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("2026-01-01T10:00:00Z", []string{"ann@x.com", "bob@y.com"}, "carl@z.com"),
		}, []string{"ann@x.com"}},
		{"tie: the same instant in other zones is still a tie", me, []wire.Message{
			in("ann@x.com", "2026-01-01T12:00:00+02:00"),
			out("2026-01-01T10:00:00Z", []string{"bob@y.com", "carl@z.com"}),
		}, nil},
		{"the principal in cc is never trusted", me, []wire.Message{
			out("2026-01-01T09:00:00Z", []string{"ann@x.com"}, "Me@Home.org"),
		}, []string{"ann@x.com"}},
		{"the principal in cc blocks rule B on a reply", me, []wire.Message{
			in("ann@x.com", "2026-01-01T08:00:00Z"),
			out("2026-01-01T09:00:00Z", []string{"bob@y.com"}, me),
		}, nil},
		{"the principal writing in is never trusted", me, []wire.Message{
			in("Me <me@home.org>", "2026-01-01T08:00:00Z"),
			out("2026-01-01T09:00:00Z", []string{"me@home.org", "bob@y.com"}),
		}, nil},
		{"invalid addresses are skipped", me, []wire.Message{
			out("2026-01-01T09:00:00Z", []string{"not an email", "ann@localhost", "", "bob@y.com"}, "@z.com"),
			out("2026-01-01T09:30:00Z", []string{"carl"}),
		}, []string{"bob@y.com"}},
		{"mixed case and display names match and come out lowercase", me, []wire.Message{
			in("Ann Lee <Ann@X.com>", "2026-01-01T10:00:00Z"),
			out("2026-01-01T11:00:00Z", []string{"ANN@x.COM", "bob@y.com"}),
		}, []string{"ann@x.com"}},
		{"a principal in another case is still the principal", "ME@HOME.ORG", []wire.Message{
			out("2026-01-01T09:00:00Z", []string{"ann@x.com", "me@home.org"}),
		}, []string{"ann@x.com"}},
		{"no principal set trusts no one", "", []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("2026-01-01T11:00:00Z", []string{"ann@x.com"}),
		}, nil},
		{"an invalid principal trusts no one", "me", []wire.Message{
			out("2026-01-01T11:00:00Z", []string{"ann@x.com"}),
		}, nil},
		{"an outbound of unknown time supports only rule B", me, []wire.Message{
			in("ann@x.com", "2026-01-01T10:00:00Z"),
			out("yesterday", []string{"ann@x.com", "bob@y.com"}),
		}, nil},
		{"an inbound of unknown time predates every outbound", me, []wire.Message{
			in("ann@x.com", "soon"),
			out("2026-01-01T11:00:00Z", []string{"ann@x.com", "bob@y.com"}),
		}, nil},
		{"no messages", me, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := correspondents.Derive(tc.msgs, tc.principal)
			if len(got) == 0 {
				got = nil
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestAddress(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"Ann <Ann@X.com>", "ann@x.com", true},
		{" bob@y.co.uk ", "bob@y.co.uk", true},
		{"bob", "", false},
		{"bob@localhost", "", false},
		{"a@b@c.com", "", false},
		{"", "", false},
	} {
		got, ok := correspondents.Address(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Address(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
