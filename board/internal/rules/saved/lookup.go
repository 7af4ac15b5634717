package saved

import (
	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// View is saved view id of d.
func View(d *wire.Doc, id string) (*wire.View, error) {
	for _, v := range d.Views.All() {
		if v.ID == id {
			return v, nil
		}
	}
	return nil, errs.NotFound("view %s not found", id)
}

// Template is case template id of d.
func Template(d *wire.Doc, id string) (*wire.Template, error) {
	for _, t := range d.Templates.All() {
		if t.ID == id {
			return t, nil
		}
	}
	return nil, errs.NotFound("template %s not found", id)
}
