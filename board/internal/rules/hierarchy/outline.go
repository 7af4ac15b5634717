package hierarchy

import (
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// Outline is the tree of d's cases as GET /api/tree answers it (see Tree),
// or a not-found error when opt names a root d does not hold. A root that
// is archived still counts as held.
func Outline(d *wire.Doc, opt TreeOptions) ([]*TreeNode, error) {
	if opt.RootID != "" && find(d.Cases.Slice(), opt.RootID) == nil {
		return nil, errs.NotFound("case %s not found", opt.RootID)
	}
	return Tree(d.Cases.Slice(), opt), nil
}
