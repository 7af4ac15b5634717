package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/opsboard/opsboard/shared/wire"
)

// ViewLine is one saved view.
func ViewLine(v wire.View) string {
	return fmt.Sprintf("%s - %s - filters %s", v.ID, v.Name, compactJSON(v.Filters))
}

// TemplateLine is one case template.
func TemplateLine(t wire.Template) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s - %s", t.ID, t.Name)
	if t.Title != "" {
		b.WriteString(" - title " + t.Title)
	}
	if t.Kind != "" {
		b.WriteString(" - [" + string(t.Kind) + "]")
	}
	if t.Status != "" {
		b.WriteString(" - [" + string(t.Status) + "]")
	}
	if t.Domain != "" {
		b.WriteString(" - " + string(t.Domain))
	}
	if len(t.Labels) > 0 {
		b.WriteString(" - labels " + strings.Join(t.Labels, ","))
	}
	if len(t.Tasks) > 0 {
		fmt.Fprintf(&b, " - %d tasks", len(t.Tasks))
	}
	return b.String()
}

// compactJSON prints a JSON value on one line.
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return oneLine(string(raw))
	}
	out, err := json.Marshal(v)
	if err != nil {
		return oneLine(string(raw))
	}
	return string(out)
}

// Prefs prints the preferences object on one line.
func Prefs(p map[string]json.RawMessage) string {
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Sprint(p)
	}
	return compactJSON(raw)
}
