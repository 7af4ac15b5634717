package pages

import (
	"slices"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/vaultpage"
	"github.com/opsboard/opsboard/shared/wire"
)

// HeldFor says whether a page create must wait for the person: the agent
// makes it from mail (fromMessage) the guard did not screen clean, whose
// words may be an attacker's. A create that could never be made is
// refused now rather than filed.
func HeldFor(d *wire.Doc, by wire.Actor, in wire.PageCreate) (bool, error) {
	from := strings.TrimSpace(in.FromMessage)
	if from == "" {
		return false, nil
	}
	i := d.Messages.IndexFunc(func(m *wire.Message) bool { return m.ID == from })
	if i < 0 {
		return false, errs.BadRequest("field 'fromMessage' names no message: %s", from)
	}
	if by != wire.ActorAgent || d.Messages.At(i).Scan == wire.ScanClean {
		return false, nil
	}
	if !slices.Contains(wire.PageTypes(), in.Type) {
		return false, errs.BadRequest("field 'type' must be person, organization, project or topic, not %q", in.Type)
	}
	if err := vaultpage.CheckTitle(strings.TrimSpace(in.Title)); err != nil {
		return false, errs.BadRequest("field 'title': %v", err)
	}
	return true, nil
}
