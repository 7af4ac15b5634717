package httpjson_test

import (
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/httpjson"
)

func TestReply(t *testing.T) {
	for _, tc := range []struct {
		name     string
		code     int
		v        any
		wantCode int
		wantBody string
	}{
		{"an object", http.StatusCreated, map[string]int{"version": 3}, 201, "{\"version\":3}\n"},
		{"an error", http.StatusNotFound, map[string]string{"error": "no such case"}, 404, "{\"error\":\"no such case\"}\n"},
		{"a value JSON cannot hold", http.StatusOK, math.Inf(1), 500, "{\"error\":\"encode response: json: unsupported value: +Inf\"}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			httpjson.Reply(w, tc.code, tc.v)
			if w.Code != tc.wantCode {
				t.Errorf("status %d, want %d", w.Code, tc.wantCode)
			}
			if diff := cmp.Diff(tc.wantBody, w.Body.String()); diff != "" {
				t.Errorf("body (-want +got)\n%s", diff)
			}
			want := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Cache-Control": {"no-store"}}
			if diff := cmp.Diff(want, w.Header()); diff != "" {
				t.Errorf("headers (-want +got)\n%s", diff)
			}
		})
	}
}

func TestReplyError(t *testing.T) {
	w := httptest.NewRecorder()
	httpjson.ReplyError(w, http.StatusForbidden, `host "x" is not allowed`)
	if w.Code != 403 || w.Body.String() != "{\"error\":\"host \\\"x\\\" is not allowed\"}\n" {
		t.Errorf("%d %s", w.Code, w.Body)
	}
}

func TestError(t *testing.T) {
	for _, tc := range []struct {
		name       string
		err        error
		wantStatus int
		wantMsg    string
	}{
		{"bad request", httpjson.BadRequest("field '%s' is required", "texts"), 400, "field 'texts' is required"},
		{"any status", httpjson.Errorf(http.StatusServiceUnavailable, "warming up"), 503, "warming up"},
		{"wrapped", errors.Join(errors.New("context"), httpjson.BadRequest("inner")), 400, "inner"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e *httpjson.Error
			if !errors.As(tc.err, &e) {
				t.Fatalf("%v is not an *Error", tc.err)
			}
			if e.Status != tc.wantStatus || e.Msg != tc.wantMsg {
				t.Errorf("got %d %q, want %d %q", e.Status, e.Msg, tc.wantStatus, tc.wantMsg)
			}
		})
	}
}
