package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// HumanEdit is the person's last change to one field of a record.
type HumanEdit struct {
	At string `json:"at"` // when (RFC 3339)
	// Was is the value the change replaced, as JSON (null for a field that
	// was empty). It is absent from a stamp stored before the board kept
	// it, which then only holds for the protection window.
	Was json.RawMessage `json:"was,omitempty"`
}

// UnmarshalJSON reads both the object form and the older bare time
// string, so documents written before the replaced value was kept load
// unchanged.
func (h *HumanEdit) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		*h = HumanEdit{}
		return json.Unmarshal(data, &h.At)
	}
	var obj struct {
		At  string          `json:"at"`
		Was json.RawMessage `json:"was"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("a human edit is a time or {at, was}: %w", err)
	}
	*h = HumanEdit{At: obj.At, Was: obj.Was}
	return nil
}

// HumanEdits is a record's human edits by field name (its JSON name).
type HumanEdits map[string]HumanEdit
