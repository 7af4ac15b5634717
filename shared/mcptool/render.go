package mcptool

import (
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/recur"
	"github.com/opsboard/opsboard/shared/wire"
)

// EventLine is one calendar event on one line. The board server shows a
// case's events with it and the calendar server its answers, so the agent
// reads an event the same way from both.
func EventLine(e wire.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s - %s", e.ID, e.Date)
	switch {
	case e.AllDay:
		b.WriteString(" all day")
	case e.StartTime != "" && e.EndTime != "":
		b.WriteString(" " + e.StartTime + "-" + e.EndTime)
	case e.StartTime != "":
		b.WriteString(" " + e.StartTime)
	}
	b.WriteString(" - " + e.Title)
	if e.Location != "" {
		b.WriteString(" @ " + e.Location)
	}
	if e.CaseID != "" {
		b.WriteString(" - case " + e.CaseID)
	}
	if e.Domain != "" {
		b.WriteString(" - " + string(e.Domain))
	}
	if e.Repeat != "" {
		b.WriteString(" - repeats " + recur.DescribeString(e.Repeat))
	}
	return b.String()
}
