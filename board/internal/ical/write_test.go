package ical

import (
	"bytes"
	"strings"
	"testing"

	goical "github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"
)

func TestFold(t *testing.T) {
	a75 := strings.Repeat("a", 75)
	snow := "☃" // three octets
	for _, tc := range []struct {
		name string
		in   string
		want []string // the lines, without CRLF
	}{
		{"short", "SUMMARY:hi", []string{"SUMMARY:hi"}},
		{"exactly 75 octets", a75, []string{a75}},
		{"76 octets", a75 + "b", []string{a75, " b"}},
		{"continuations hold 74 octets after the space", strings.Repeat("a", 75+74+1),
			[]string{a75, " " + strings.Repeat("a", 74), " a"}},
		{"a rune across the limit moves whole to the next line", strings.Repeat("a", 74) + snow + "b",
			[]string{strings.Repeat("a", 74), " " + snow + "b"}},
		{"a rune ending at the limit stays", strings.Repeat("a", 72) + snow + "b",
			[]string{strings.Repeat("a", 72) + snow, " b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			fold(&b, tc.in)
			out := b.String()
			if !strings.HasSuffix(out, "\r\n") {
				t.Fatalf("no CRLF at the end: %q", out)
			}
			got := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lines (-want +got)\n%s", diff)
			}
			if unfolded := strings.ReplaceAll(strings.TrimSuffix(out, "\r\n"), "\r\n ", ""); unfolded != tc.in {
				t.Errorf("unfolds to %q, want %q", unfolded, tc.in)
			}
		})
	}
}

func TestContentLine(t *testing.T) {
	prop := func(name, value string, params goical.Params) *goical.Prop {
		return &goical.Prop{Name: name, Value: value, Params: params}
	}
	for _, tc := range []struct {
		name    string
		prop    *goical.Prop
		want    string
		wantErr string
	}{
		{"plain", prop("SUMMARY", `a\, b`, nil), `SUMMARY:a\, b`, ""},
		{"parameters sorted, quoted when they hold a separator", prop("DTSTART", "20260710T090000",
			goical.Params{"VALUE": {"DATE-TIME"}, "TZID": {"Europe/Berlin"}, "X-NOTE": {"a:b", "c"}}),
			`DTSTART;TZID=Europe/Berlin;VALUE=DATE-TIME;X-NOTE="a:b",c:20260710T090000`, ""},
		{"a tab is allowed", prop("SUMMARY", "a\tb", nil), "SUMMARY:a\tb", ""},
		{"a line feed is refused", prop("UID", "x\nBEGIN:VEVENT", nil), "", "control character"},
		{"a carriage return is refused", prop("UID", "x\rEND:VCALENDAR", nil), "", "control character"},
		{"a NUL is refused", prop("SUMMARY", "a\x00", nil), "", "control character"},
		{"a name with a colon is refused", prop("X-A:B", "v", nil), "", "not an iCalendar name"},
		{"an empty name is refused", prop("", "v", nil), "", "not an iCalendar name"},
		{"a parameter with a double quote is refused", prop("SUMMARY", "v", goical.Params{"X-A": {`"`}}), "", "double quote"},
		{"a parameter with a line break is refused", prop("SUMMARY", "v", goical.Params{"X-A": {"a\nb"}}), "", "control character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := contentLine(tc.prop)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %q, %v; want an error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestWriteEmptyCalendar(t *testing.T) {
	cal := goical.NewCalendar()
	cal.Props.SetText(goical.PropVersion, "2.0")
	var b bytes.Buffer
	if err := write(&b, cal); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
