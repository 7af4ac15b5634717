// Package imports brings boards from elsewhere onto this one. Each source
// has a pure parser in a package of its own (ownjson, todoist, trello,
// csvmap) that turns a file into a Plan: labels and a tree of nodes with
// their tasks and notes, each carrying its source's own id. Apply writes a
// plan inside one write, through the same rules as every other create, and
// skips what an earlier import of the same source brought.
package imports

import (
	"fmt"
	"strings"
	"time"

	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/shared/wire"
)

// Plan is what a file would bring, in no board's ids yet.
type Plan struct {
	Format string
	Labels []Label
	// Nodes come parents first: a node's ParentSourceID names a node before
	// it or one already on the board.
	Nodes []Node
}

// Label is a label the nodes of a plan name by Key.
type Label struct {
	Key         string // what Node.Labels hold: the source's label id or title
	Title       string
	Color       string // one of wire.LabelColors, or "" for gray
	Description string
}

// Node is an initiative, a workstream or a case to create.
type Node struct {
	// Row says where in the file the node came from ("row 12", "card
	// 5f1c..."), so an error names it.
	Row            string
	SourceID       string
	ParentSourceID string
	Kind           wire.Kind
	Title          string
	Summary        string
	Status         wire.Lane // "" for todo
	Domain         wire.Domain
	Labels         []string // Label keys
	DueAt          string
	Starred        bool
	ArchivedAt     string
	Tasks          []Task
	Notes          []Note
	// OrigID and OrigCreatedAt are the node's id and creation time on the
	// board that exported it: a node still there under them is the same
	// record, so importing an export into the board it came from brings
	// nothing new.
	OrigID, OrigCreatedAt string
}

// Task is a checklist row of a node.
type Task struct {
	SourceID    string
	Title       string
	Detail      string
	DueAt       string
	CompletedAt string
	Done        bool // done without a known time: completed at the import
}

// Note is a note on a node.
type Note struct {
	Text      string
	Actor     string // "" for the importing actor
	CreatedAt string // "" for the import's time
}

// RowError is a file that cannot be imported, naming the row at fault.
type RowError struct {
	Row string
	Msg string
}

func (e *RowError) Error() string { return e.Row + ": " + e.Msg }

// BadRow makes a RowError.
func BadRow(row, format string, args ...any) error {
	return &RowError{Row: row, Msg: fmt.Sprintf(format, args...)}
}

// Due reads a due date as sources write it: an ISO date or datetime (a
// zoned RFC 3339 stamp such as Trello's included), or a datetime with a
// space for the T, and answers it as the board stores it. ok is false for
// anything else.
func Due(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", true
	}
	if field.ValidDate(s) {
		return s, true
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02T15:04:05"), true
		}
	}
	return "", false
}

// LaneOf reads a lane from a name people give columns: the lane's own
// name, or a common synonym ("To Do", "Doing", "Blocked"). ok is false when
// the name is no lane.
func LaneOf(name string) (wire.Lane, bool) {
	k := strings.Join(strings.Fields(strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(name))), " ")
	switch k {
	case "urgent", "asap", "now":
		return wire.LaneUrgent, true
	case "todo", "to do", "backlog", "next", "open":
		return wire.LaneTodo, true
	case "in progress", "doing", "started", "wip":
		return wire.LaneInProgress, true
	case "waiting", "waiting for input", "blocked", "on hold":
		return wire.LaneWaiting, true
	case "done", "complete", "completed", "finished", "closed":
		return wire.LaneDone, true
	}
	return "", false
}
