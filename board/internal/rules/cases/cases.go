// Package cases holds the rules of case nodes (initiatives, workstreams and
// cases): create from a body or a template, patch one or many, archive,
// restore, delete, clean done cases, merge one into another, and the tasks
// and notes a case carries. Each rule is a function over a write (the ...Tx
// forms, which proposals reuse) with a one-call form that runs it as a write.
package cases

import (
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/store"
	"github.com/opsboard/opsboard/shared/wire"
)

// CheckLink refuses a caseId that names no case node (a 400: the body is
// wrong, not the route).
func CheckLink(tx *store.Tx, caseID string) error {
	if caseID == "" {
		return nil
	}
	if !tx.Cases().Has(caseID) {
		return errs.BadRequest("field 'caseId': case %s not found", caseID)
	}
	return nil
}

func taskIDs(c *wire.Case) []string {
	out := make([]string, len(c.Tasks))
	for i, t := range c.Tasks {
		out[i] = t.ID
	}
	return out
}

func noteIDs(c *wire.Case) []string {
	out := make([]string, len(c.Notes))
	for i, n := range c.Notes {
		out[i] = n.ID
	}
	return out
}

func findCase(cases []*wire.Case, id string) *wire.Case {
	for _, c := range cases {
		if c.ID == id {
			return c
		}
	}
	return nil
}
