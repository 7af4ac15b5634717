// Package command is the command bar's grammar: one typed line (new, move,
// done, star, archive, remind, note, find, help) parsed into a Command.
package command

import (
	"regexp"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/shared/wire"
)

// Help is the command bar's help text, also the body of the 400 an
// unknown command gets.
const Help = `Commands:
  new <title>              create a case
  move <CASE-n> <lane>     move a case to urgent, todo, in_progress, waiting_for_input or done
  done <CASE-n>            move a case to done
  star <CASE-n>            star a case (unstar <CASE-n> clears it)
  archive <CASE-n>         move a case to the Trash (restore <CASE-n> brings it back)
  remind <title> <date>    create a reminder due on a date (YYYY-MM-DD or an ISO datetime)
  note <CASE-n> <text>     add a note to a case
  find <text>              search case titles and ids, tasks, messages and reminders
  help                     this list`

// Command is one parsed line of the command bar.
type Command struct {
	Verb string    // new, move, done, star, unstar, archive, restore, remind, note, find, help
	ID   string    // the case, for verbs that take one
	Lane wire.Lane // move
	Text string    // the title (new, remind), note text or search text
	Date string    // remind
}

var caseRef = regexp.MustCompile(`^(?i:case-)?([0-9]+)$`)

// laneOf reads the spellings people type for a lane.
func laneOf(key string) (wire.Lane, bool) {
	switch key {
	case "in_progress", "inprogress", "progress", "doing":
		return wire.LaneInProgress, true
	case "waiting_for_input", "waiting":
		return wire.LaneWaiting, true
	case "todo", "to_do":
		return wire.LaneTodo, true
	case "urgent":
		return wire.LaneUrgent, true
	case "done":
		return wire.LaneDone, true
	}
	return "", false
}

// Parse reads one command line. An unknown verb, or a known one with
// missing or malformed arguments, is a BadRequestError carrying the help.
func Parse(text string) (Command, error) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return Command{}, errs.BadRequest("Field 'text' is required.\n\n%s", Help)
	}
	verb := strings.ToLower(fields[0])
	args := fields[1:]
	rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), fields[0]))
	usage := func(form string) (Command, error) {
		return Command{}, errs.BadRequest("usage: %s\n\n%s", form, Help)
	}
	ref := func(s string) (string, bool) {
		m := caseRef.FindStringSubmatch(s)
		if m == nil {
			return "", false
		}
		return "CASE-" + m[1], true
	}
	c := Command{Verb: verb}
	switch verb {
	case "help", "?":
		c.Verb = "help"
	case "new":
		if rest == "" {
			return usage("new <title>")
		}
		c.Text = rest
	case "find", "search":
		if rest == "" {
			return usage("find <text>")
		}
		c.Verb, c.Text = "find", rest
	case "done", "star", "unstar", "archive", "restore":
		id, ok := "", len(args) == 1
		if ok {
			id, ok = ref(args[0])
		}
		if !ok {
			return usage(verb + " <CASE-n>")
		}
		c.ID = id
	case "move":
		if len(args) < 2 {
			return usage("move <CASE-n> <lane>")
		}
		id, ok := ref(args[0])
		if !ok {
			return usage("move <CASE-n> <lane>")
		}
		key := strings.ToLower(strings.NewReplacer("-", "_", " ", "_").Replace(strings.Join(args[1:], "_")))
		lane, ok := laneOf(key)
		if !ok {
			return Command{}, errs.BadRequest("unknown lane %q: use one of %s", strings.Join(args[1:], " "), strings.Join(wire.Lanes(), ", "))
		}
		c.ID, c.Lane = id, lane
	case "note":
		if len(args) < 2 {
			return usage("note <CASE-n> <text>")
		}
		id, ok := ref(args[0])
		if !ok {
			return usage("note <CASE-n> <text>")
		}
		c.ID = id
		c.Text = strings.TrimSpace(strings.TrimPrefix(rest, args[0]))
	case "remind":
		if len(args) < 2 || !field.ValidDate(args[len(args)-1]) {
			return usage("remind <title> <date>, the date last (YYYY-MM-DD or an ISO datetime)")
		}
		c.Date = args[len(args)-1]
		c.Text = strings.TrimSpace(strings.TrimSuffix(rest, c.Date))
	default:
		return Command{}, errs.BadRequest("unknown command %q.\n\n%s", fields[0], Help)
	}
	return c, nil
}
