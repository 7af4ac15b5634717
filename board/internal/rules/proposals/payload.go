package proposals

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
)

// targeted checks the payload of a verb that patches one record: it names
// the record, and carries no expectedVersion of its own (filing the proposal
// moves the version, so one taken now could never match at approval).
func targeted(id string, expected *int64) error {
	if err := needID(id); err != nil {
		return err
	}
	return noExpected(expected)
}

func needID(id string) error {
	if strings.TrimSpace(id) == "" {
		return errs.BadRequest("payload: field 'id' is required")
	}
	return nil
}

// noExpected refuses expectedVersion in a payload: filing the proposal moves
// the version, so it could never match; the approval carries its own.
func noExpected(v *int64) error {
	if v != nil {
		return errs.BadRequest("payload: expectedVersion does not belong in a proposal (filing it moves the version); send expectedVersion with the approval instead")
	}
	return nil
}

// payloadKeys lists the fields a payload sets, besides id, actor and
// expectedVersion, in a stable order.
func payloadKeys(raw json.RawMessage) ([]string, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errs.BadRequest("field 'payload' must be a JSON object: the body of the route the verb names")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, errs.BadRequest("payload: malformed JSON: %v", err)
	}
	var keys []string
	for k := range m {
		if k != "id" && k != "actor" && k != "expectedVersion" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys, nil
}

// strictDecode decodes a payload the way the routes decode bodies: unknown
// fields and trailing data are refused, with the field named.
func strictDecode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field != "" {
			return errs.BadRequest("payload: field '%s' has the wrong type (%s)", jsonPath(typ.Field), typ.Value)
		}
		return errs.BadRequest("payload: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return errs.BadRequest("payload: data after the JSON object")
	}
	return nil
}

// jsonPath drops the Go names of embedded structs from a decode error's
// field path (CasePatch.title is the payload's title).
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	out := parts[:0]
	for _, p := range parts {
		if p != "" && (p[0] < 'A' || p[0] > 'Z') {
			out = append(out, p)
		}
	}
	return strings.Join(out, ".")
}
