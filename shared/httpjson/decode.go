package httpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// DefaultLimit bounds a body when a Decoder names no Limit.
const DefaultLimit = 1 << 20

// Decoder reads a JSON object request body. Its zero value is strict: the
// body must be sent as JSON, within DefaultLimit, hold one object and no
// field the target does not have.
type Decoder struct {
	// Limit is the largest body in bytes; a larger one is a 413.
	Limit int64
	// Lenient ignores unknown fields and the Content-Type, for a protocol
	// that promises either side may add fields.
	Lenient bool
	// Check looks at the whitespace-trimmed object before it is decoded; its
	// error is returned as it is.
	Check func(body []byte) error
}

// Decode reads a JSON object body into v with the strict Decoder.
func Decode(w http.ResponseWriter, r *http.Request, v any) error {
	return Decoder{}.Decode(w, r, v)
}

// DecodeOptional is Decode for routes whose body may be absent.
func DecodeOptional(w http.ResponseWriter, r *http.Request, v any) error {
	return Decoder{}.DecodeOptional(w, r, v)
}

// DecodeOptional leaves v as it is when the request has no body.
func (d Decoder) DecodeOptional(w http.ResponseWriter, r *http.Request, v any) error {
	if !HasBody(r) {
		return nil
	}
	return d.Decode(w, r, v)
}

// Decode reads a JSON object body into v. It refuses anything that is not
// an object (null included), trailing data and oversized bodies, and, unless
// Lenient, unknown fields and a body not sent as JSON, with an *Error whose
// message names the problem. A failed read is returned as it is.
func (d Decoder) Decode(w http.ResponseWriter, r *http.Request, v any) error {
	if !d.Lenient && HasBody(r) && !IsJSON(r.Header.Get("Content-Type")) {
		return errNotJSON
	}
	limit := d.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf("request body is larger than %d bytes", limit), err: err}
		}
		return err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return BadRequest("the request body must be a JSON object")
	}
	if d.Check != nil {
		if err := d.Check(trimmed); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if !d.Lenient {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return BadRequest("%s", Problem(err))
	}
	if dec.More() {
		return BadRequest("the request body has data after the JSON object")
	}
	return nil
}

// errNotJSON refuses a body sent as anything but JSON: a web page can post
// a form to a local address without asking first, but not JSON.
var errNotJSON = Errorf(http.StatusUnsupportedMediaType, "a request body must be sent as Content-Type: application/json")

// HasBody reports whether the request carries a body.
func HasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

// IsJSON reports whether a Content-Type names JSON, parameters aside.
func IsJSON(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}
