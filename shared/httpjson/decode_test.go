package httpjson_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/httpjson"
)

type body struct {
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

func post(payload, contentType string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(payload))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	return r
}

// outcome is what a decode came to: the value, or the status and message.
type outcome struct {
	Body   body
	Status int
	Msg    string
}

func decodeWith(d httpjson.Decoder, r *http.Request) outcome {
	var v body
	err := d.Decode(httptest.NewRecorder(), r, &v)
	if err == nil {
		return outcome{Body: v}
	}
	var e *httpjson.Error
	if !errors.As(err, &e) {
		return outcome{Status: -1, Msg: err.Error()}
	}
	return outcome{Status: e.Status, Msg: e.Msg}
}

func TestDecode(t *testing.T) {
	const ct = "application/json"
	tooDeep := errors.New("too deep")
	small := httpjson.Decoder{Limit: 16}
	lenient := httpjson.Decoder{Lenient: true}
	checked := httpjson.Decoder{Check: func(b []byte) error {
		if strings.Contains(string(b), "[[") {
			return tooDeep
		}
		return nil
	}}
	for _, tc := range []struct {
		name string
		d    httpjson.Decoder
		r    *http.Request
		want outcome
	}{
		{"an object", httpjson.Decoder{}, post(`{"title":"x","done":true}`, ct), outcome{Body: body{Title: "x", Done: true}}},
		{"JSON with parameters", httpjson.Decoder{}, post(`{"title":"x"}`, "Application/JSON; charset=utf-8"), outcome{Body: body{Title: "x"}}},
		{"an unknown field", httpjson.Decoder{}, post(`{"title":"x","by":"me"}`, ct), outcome{Status: 400, Msg: `unknown field "by"`}},
		{"a wrong type", httpjson.Decoder{}, post(`{"done":"yes"}`, ct), outcome{Status: 400, Msg: "field 'done' must be a boolean, not string"}},
		{"an empty body", httpjson.Decoder{}, post(``, ct), outcome{Status: 400, Msg: "the request body must be a JSON object"}},
		{"null", httpjson.Decoder{}, post(`null`, ct), outcome{Status: 400, Msg: "the request body must be a JSON object"}},
		{"an array", httpjson.Decoder{}, post(` [1]`, ct), outcome{Status: 400, Msg: "the request body must be a JSON object"}},
		{"malformed", httpjson.Decoder{}, post(`{"title":`, ct), outcome{Status: 400, Msg: "malformed JSON: the body ends too soon"}},
		{"trailing data", httpjson.Decoder{}, post(`{"title":"x"} {}`, ct), outcome{Status: 400, Msg: "the request body has data after the JSON object"}},
		{"a form", httpjson.Decoder{}, post(`{"title":"x"}`, "text/plain"), outcome{Status: 415, Msg: "a request body must be sent as Content-Type: application/json"}},
		{"no content type", httpjson.Decoder{}, post(`{"title":"x"}`, ""), outcome{Status: 415, Msg: "a request body must be sent as Content-Type: application/json"}},
		{"over the limit", small, post(`{"title":"a long title"}`, ct), outcome{Status: 413, Msg: "request body is larger than 16 bytes"}},
		{"within the limit", small, post(`{"title":"ab"}`, ct), outcome{Body: body{Title: "ab"}}},
		{"over the default limit", httpjson.Decoder{}, post(`{"title":"`+strings.Repeat("x", httpjson.DefaultLimit)+`"}`, ct), outcome{Status: 413, Msg: "request body is larger than 1048576 bytes"}},
		{"lenient: an unknown field", lenient, post(`{"title":"x","by":"me"}`, ct), outcome{Body: body{Title: "x"}}},
		{"lenient: no content type", lenient, post(`{"title":"x"}`, ""), outcome{Body: body{Title: "x"}}},
		{"lenient: still an object", lenient, post(`null`, ""), outcome{Status: 400, Msg: "the request body must be a JSON object"}},
		{"lenient: still well-formed", lenient, post(`{"title":}`, ""), outcome{Status: 400, Msg: "malformed JSON at byte 10: invalid character '}' looking for beginning of value"}},
		{"a check passed", checked, post(`{"title":"x"}`, ct), outcome{Body: body{Title: "x"}}},
		{"a check's error as it is", checked, post(`{"title":[[1]]}`, ct), outcome{Status: -1, Msg: "too deep"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, decodeWith(tc.d, tc.r)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestDecodeOverLimitUnwrapsToMaxBytesError(t *testing.T) {
	err := httpjson.Decoder{Limit: 4}.Decode(httptest.NewRecorder(), post(`{"title":"x"}`, "application/json"), &body{})
	var big *http.MaxBytesError
	if !errors.As(err, &big) || big.Limit != 4 {
		t.Errorf("%v does not unwrap to the *http.MaxBytesError", err)
	}
}

func TestDecodeOptional(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *http.Request
		want outcome
	}{
		{"no body", httptest.NewRequest(http.MethodDelete, "/x", nil), outcome{Body: body{Title: "kept"}}},
		{"a body", post(`{"title":"x"}`, "application/json"), outcome{Body: body{Title: "x"}}},
		{"a bad body", post(`{"by":"me"}`, "application/json"), outcome{Status: 400, Msg: `unknown field "by"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := body{Title: "kept"}
			got := outcome{Body: v}
			if err := httpjson.DecodeOptional(httptest.NewRecorder(), tc.r, &v); err != nil {
				var e *httpjson.Error
				errors.As(err, &e)
				got = outcome{Status: e.Status, Msg: e.Msg}
			} else {
				got.Body = v
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestHasBody(t *testing.T) {
	chunked := post(`{}`, "")
	chunked.ContentLength = -1
	for _, tc := range []struct {
		name string
		r    *http.Request
		want bool
	}{
		{"none", httptest.NewRequest(http.MethodPost, "/x", nil), false},
		{"a length", post(`{}`, ""), true},
		{"chunked", chunked, true},
	} {
		if got := httpjson.HasBody(tc.r); got != tc.want {
			t.Errorf("%s: HasBody = %v, want %v", tc.name, got, tc.want)
		}
	}
}
