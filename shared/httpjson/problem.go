package httpjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Problem says what is wrong with a body that did not decode, in words a
// person or a model can act on: the field and the type it must have, or
// where the JSON breaks.
func Problem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return "the request body must be a JSON object"
		}
		return fmt.Sprintf("field '%s' must be %s, not %s", typ.Field, TypeName(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: the body ends too soon"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// TypeName names a Go type as JSON: "a string", "a whole number", "an array
// of strings". An optional field (wire.Opt[T]) is named for its T.
func TypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if strings.HasPrefix(t.Name(), "Opt[") && t.NumField() == 3 {
		t = t.Field(2).Type
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(TypeName(t.Elem()), "a "), "an ") + "s"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}
