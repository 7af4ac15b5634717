package render

import (
	"fmt"

	"github.com/opsboard/opsboard/shared/wire"
)

// ProposalLine is one pending proposal.
func ProposalLine(p wire.Proposal) string {
	s := fmt.Sprintf("%s - %s - %s", p.ID, p.Verb, oneLine(p.Summary))
	if p.Target != "" {
		s += " - target " + p.Target
	}
	if p.Actor != "" {
		s += " - by " + string(p.Actor)
	}
	if p.CreatedAt != "" {
		s += " - " + p.CreatedAt
	}
	return s
}
