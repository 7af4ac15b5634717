package tools

import (
	"fmt"
	"math"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/wire"
)

// args reads a call's arguments. They were checked against the tool's
// schema before the handler runs (types, enums, required, no unknown names;
// see validated), so the getters only convert; a value of the wrong type
// still fails loudly through err rather than being dropped.
type args struct {
	m   map[string]any
	err error
}

func argsOf(req mcp.CallToolRequest) *args {
	return &args{m: req.GetArguments()}
}

func (a *args) fail(format string, v ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, v...)
	}
}

// has reports whether the argument was passed (null included).
func (a *args) has(k string) bool {
	_, ok := a.m[k]
	return ok
}

// str is a string argument, "" when absent or null, trimmed.
func (a *args) str(k string) string {
	v, ok := a.m[k]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		a.fail("argument %q must be a string", k)
		return ""
	}
	return strings.TrimSpace(s)
}

// text is a string argument kept as given (free text).
func (a *args) text(k string) string {
	v, ok := a.m[k]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		a.fail("argument %q must be a string", k)
	}
	return s
}

// optStr tells absent from null from a value.
func (a *args) optStr(k string) wire.Opt[string] {
	v, ok := a.m[k]
	switch {
	case !ok:
		return wire.Opt[string]{}
	case v == nil:
		return wire.Null[string]()
	}
	s, isStr := v.(string)
	if !isStr {
		a.fail("argument %q must be a string", k)
	}
	return wire.Some(s)
}

// link is an optional link argument: absent keeps the link, null or ""
// clears it (sent as null), anything else sets it.
func (a *args) link(k string) wire.Opt[string] {
	o := a.optStr(k)
	if o.Set && !o.Null && strings.TrimSpace(o.V) == "" {
		return wire.Null[string]()
	}
	if o.Set && !o.Null {
		o.V = strings.TrimSpace(o.V)
	}
	return o
}

// strs is a string-array argument, trimmed, empties dropped.
func (a *args) strs(k string) []string {
	v, ok := a.m[k]
	if !ok || v == nil {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		a.fail("argument %q must be an array of strings", k)
		return nil
	}
	var out []string
	for i, x := range list {
		s, isStr := x.(string)
		if !isStr {
			a.fail("argument %s[%d] must be a string", k, i)
			return nil
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// optStrs is a string-array argument that may be absent; [] or null clears.
func (a *args) optStrs(k string) wire.Opt[[]string] {
	if !a.has(k) {
		return wire.Opt[[]string]{}
	}
	list := a.strs(k)
	if list == nil {
		list = []string{}
	}
	return wire.Some(list)
}

// optBool tells absent from a value.
func (a *args) optBool(k string) wire.Opt[bool] {
	v, ok := a.m[k]
	if !ok || v == nil {
		return wire.Opt[bool]{}
	}
	b, isBool := v.(bool)
	if !isBool {
		a.fail("argument %q must be a boolean", k)
	}
	return wire.Some(b)
}

// boolOr is a boolean argument with a default.
func (a *args) boolOr(k string, def bool) bool {
	if o := a.optBool(k); o.Set {
		return o.V
	}
	return def
}

// optNum tells absent from null from a number.
func (a *args) optNum(k string) wire.Opt[float64] {
	v, ok := a.m[k]
	switch {
	case !ok:
		return wire.Opt[float64]{}
	case v == nil:
		return wire.Null[float64]()
	}
	f, isNum := v.(float64)
	if !isNum {
		a.fail("argument %q must be a number", k)
	}
	return wire.Some(f)
}

// num is an optional number as a pointer (nil when absent or null).
func (a *args) num(k string) *float64 {
	o := a.optNum(k)
	if !o.Set || o.Null {
		return nil
	}
	return &o.V
}

// intOr is an integer argument with a default.
func (a *args) intOr(k string, def int) int {
	o := a.optNum(k)
	if !o.Set || o.Null {
		return def
	}
	if o.V != math.Trunc(o.V) {
		a.fail("argument %q must be a whole number", k)
		return def
	}
	return int(o.V)
}

// objects is an array-of-objects argument.
func (a *args) objects(k string) []map[string]any {
	v, ok := a.m[k]
	if !ok || v == nil {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		a.fail("argument %q must be an array of objects", k)
		return nil
	}
	out := make([]map[string]any, 0, len(list))
	for i, x := range list {
		o, isObj := x.(map[string]any)
		if !isObj {
			a.fail("argument %s[%d] must be an object", k, i)
			return nil
		}
		out = append(out, o)
	}
	return out
}

// object is an object argument.
func (a *args) object(k string) map[string]any {
	v, ok := a.m[k]
	if !ok || v == nil {
		return nil
	}
	o, isObj := v.(map[string]any)
	if !isObj {
		a.fail("argument %q must be an object", k)
	}
	return o
}

// expected is the optional expectedVersion guard.
func (a *args) expected() *int64 {
	if !a.has("expectedVersion") || a.m["expectedVersion"] == nil {
		return nil
	}
	v := int64(a.intOr("expectedVersion", 0))
	return &v
}
