package render

import (
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// Priorities renders get_priorities: starred nodes as
// `id - [tier] - title - [lane]`, then notes as `PRI-id - text`.
func Priorities(p wire.PriorityList) string {
	var b strings.Builder
	b.WriteString("Starred:\n")
	if len(p.Starred) == 0 {
		b.WriteString("(no starred nodes)\n")
	}
	for _, c := range p.Starred {
		fmt.Fprintf(&b, "%s - [%s] - %s - [%s]\n", c.ID, kindOf(&c), c.Title, c.Status)
	}
	b.WriteString("Priority notes:\n")
	if len(p.Priorities) == 0 {
		b.WriteString("(no priority notes)\n")
	}
	for _, n := range p.Priorities {
		fmt.Fprintf(&b, "%s - %s\n", n.ID, oneLine(n.Text))
	}
	return strings.TrimRight(b.String(), "\n")
}
