package render

import (
	"fmt"

	"github.com/opsboard/opsboard/shared/wire"
)

// LabelLine is one catalog label: id, title, description and color.
func LabelLine(l wire.LabelDef) string {
	s := l.ID + " - " + l.Title
	if d := oneLine(l.Description); d != "" {
		s += " - " + d
	}
	if l.Color != "" {
		s += " [" + l.Color + "]"
	}
	return s
}

// BundleLine is one installable bundle with its install state.
func BundleLine(b wire.BundleStatus) string {
	state := "not installed"
	if b.Installed {
		state = "installed"
	}
	return fmt.Sprintf("%s - %s [%s] - %d labels, %d in catalog, %d owned - %s", b.ID, b.Title, b.Kind, b.LabelCount, b.InstalledCount, b.OwnedCount, state)
}
