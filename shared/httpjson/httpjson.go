// Package httpjson is the HTTP plumbing every server of ours shares: JSON
// answers, request bodies decoded with a message that names what is wrong,
// one error type for a client's mistake, and the check that keeps a local
// service to this machine's own callers. The board and both sidecars use
// it, so their answers cannot drift apart.
package httpjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
)

// Reply writes v as JSON with status code. An answer is never cached: it
// reflects state that the next write changes.
func Reply(w http.ResponseWriter, code int, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		code = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, "{\"error\":%q}\n", "encode response: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// ReplyError writes { "error": msg }, the shape of every refusal.
func ReplyError(w http.ResponseWriter, code int, msg string) {
	Reply(w, code, errorBody{Error: msg})
}

type errorBody struct {
	Error string `json:"error"`
}

// Error is a client's mistake: the status to answer it with and a message
// that says what to do.
type Error struct {
	Status int
	Msg    string
	err    error // what caused it, for errors.As (an *http.MaxBytesError)
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.err }

// Errorf is an Error with status and a formatted message.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}

// BadRequest is a 400 with a formatted message.
func BadRequest(format string, args ...any) *Error {
	return Errorf(http.StatusBadRequest, format, args...)
}
