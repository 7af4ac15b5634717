package humanedit

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/shared/wire"
)

// WindowPref is the preference that sets the window, in whole days.
const WindowPref = "humanEditWindow"

// WindowOf is the protection window the preferences set: humanEditWindow
// days, or Window when it is absent or not a valid number of days (a hand
// edit must not lift the protection).
func WindowOf(prefs json.RawMessage) time.Duration {
	if len(prefs) == 0 || !bytes.Contains(prefs, []byte(WindowPref)) {
		return Window // the common case costs no decode
	}
	var p map[string]any
	if json.Unmarshal(prefs, &p) != nil {
		return Window
	}
	v, ok := p[WindowPref]
	if !ok || CheckWindow(v) != nil {
		return Window
	}
	return time.Duration(v.(float64)) * 24 * time.Hour
}

// CheckWindow refuses a humanEditWindow preference (decoded JSON) that is
// not a whole number of days from 0 to the limit.
func CheckWindow(v any) error {
	n, ok := v.(float64)
	if !ok || n != float64(int(n)) || n < 0 || n > wire.MaxHumanEditWindowDays {
		return errs.BadRequest("field '%s' must be a whole number of days from 0 to %d (0 keeps only the rule against reverting the person's change)", WindowPref, wire.MaxHumanEditWindowDays)
	}
	return nil
}
