package wire

// Lane is a column of the kanban, the status of a case node.
type Lane string

// The lanes, in board order.
const (
	LaneUrgent     Lane = "urgent"
	LaneTodo       Lane = "todo"
	LaneInProgress Lane = "in_progress"
	LaneWaiting    Lane = "waiting_for_input"
	LaneDone       Lane = "done"
)

// Kind is what a node of the tree is.
type Kind string

// The kinds of node, from the top of the tree down.
const (
	KindInitiative Kind = "initiative"
	KindWorkstream Kind = "workstream"
	KindCase       Kind = "case"
)

// Domain is the part of life a case, event or reminder belongs to.
type Domain string

// The domains.
const (
	DomainWork Domain = "work"
	DomainLife Domain = "life"
)

// ReminderStatus is where a reminder stands (distinct from case lanes).
type ReminderStatus string

// The reminder statuses.
const (
	ReminderOpen      ReminderStatus = "open"
	ReminderDone      ReminderStatus = "done"
	ReminderDismissed ReminderStatus = "dismissed"
)

// Lanes lists the lanes in board order, as the strings requests carry. Each
// call returns a new slice, so no caller can change the set for another.
func Lanes() []string { return names(LaneUrgent, LaneTodo, LaneInProgress, LaneWaiting, LaneDone) }

// Kinds lists the kinds of node from the top of the tree down.
func Kinds() []string { return names(KindInitiative, KindWorkstream, KindCase) }

// Domains lists the domains.
func Domains() []string { return names(DomainWork, DomainLife) }

// ReminderStatuses lists the reminder statuses.
func ReminderStatuses() []string { return names(ReminderOpen, ReminderDone, ReminderDismissed) }

func names[T ~string](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
