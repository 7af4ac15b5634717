package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/opsboard/opsboard/shared/wire"
)

// Agenda renders an agenda: today's date and the board's zone on top, then
// one line per item grouped by day (overdue items first), each with a hint
// relative to today ("overdue 2 d", "today 15:00", "in 3 d").
func Agenda(a wire.Agenda) string {
	loc, err := time.LoadLocation(a.Timezone)
	if err != nil {
		loc = time.UTC
	}
	today, err := time.ParseInLocation("2006-01-02", a.Today, loc)
	if err != nil {
		today = time.Now().In(loc)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Today is %s %s (board time zone %s; dates and times without an offset are in this zone).\n", today.Format("Mon"), a.Today, a.Timezone)
	from := "overdue items"
	if a.From != "" {
		from = a.From
	}
	fmt.Fprintf(&b, "Agenda from %s until %s: %d %s.\n", from, a.To, len(a.Items), plural(len(a.Items), "item", "items"))
	if len(a.Items) == 0 {
		b.WriteString("Nothing is due in this range.")
		return b.String()
	}
	group := ""
	for _, it := range a.Items {
		at, ok := agendaTime(it, loc)
		day := startOfDay(at)
		g := day.Format("Mon 2006-01-02")
		switch {
		case !ok:
			g = "Undated"
		case it.Overdue:
			g = "Overdue"
		case day.Equal(today):
			g += " (today)"
		case day.Equal(today.AddDate(0, 0, 1)):
			g += " (tomorrow)"
		}
		if g != group {
			group = g
			fmt.Fprintf(&b, "\n%s\n", g)
		}
		b.WriteString("- " + AgendaLine(it, at, today) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// AgendaLine is one agenda item: kind, id, title, its case and when.
func AgendaLine(it wire.AgendaItem, at, today time.Time) string {
	s := fmt.Sprintf("[%s] %s - %s", it.Kind, it.ID, oneLine(it.Title))
	if it.CaseID != "" && it.Kind != wire.AgendaTask {
		s += " - case " + it.CaseID
	}
	if it.Kind == wire.AgendaTask && it.CaseID != "" {
		s += " - on " + it.CaseID
	}
	return s + " - " + relative(it, at, today)
}

// relative says when an item is due as seen from today.
func relative(it wire.AgendaItem, at, today time.Time) string {
	clock := ""
	if !it.AllDay {
		clock = " " + at.Format("15:04")
	}
	days := daysBetween(today, at)
	switch {
	case it.Overdue && days < 0:
		return fmt.Sprintf("overdue %d d (due %s%s)", -days, at.Format("2006-01-02"), clock)
	case it.Overdue:
		return "overdue since today" + clock
	case days == 0 && it.AllDay:
		return "today"
	case days == 0:
		return "today" + clock
	case days == 1:
		return "tomorrow" + clock
	case days < 0:
		return fmt.Sprintf("%d d ago%s", -days, clock)
	}
	return fmt.Sprintf("in %d d (%s%s)", days, at.Format("Mon 01-02"), clock)
}

func agendaTime(it wire.AgendaItem, loc *time.Location) (time.Time, bool) {
	if t, err := time.ParseInLocation("2006-01-02", it.DueAt, loc); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339, it.DueAt); err == nil {
		return t.In(loc), true
	}
	return time.Time{}, false
}

// daysBetween counts calendar days from a's day to b's day, on the wall
// clock, so a 23- or 25-hour day still counts as one.
func daysBetween(a, b time.Time) int {
	ua := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	ub := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(ub.Sub(ua).Hours() / 24)
}

func startOfDay(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}
