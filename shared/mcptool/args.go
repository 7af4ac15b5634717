package mcptool

import (
	"fmt"
	"math"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/wire"
)

// Args reads a call's arguments. They were checked against the tool's
// schema before the handler runs (types, enums, patterns, required, no
// unknown names; see Validated), so the getters only convert; a value of
// the wrong type still fails loudly through Err rather than being dropped.
type Args struct {
	m   map[string]any
	err error
}

// ArgsOf reads the arguments of one call.
func ArgsOf(req mcp.CallToolRequest) *Args {
	return NewArgs(req.GetArguments())
}

// NewArgs reads an argument object, such as one item of an array of
// objects, with the same getters.
func NewArgs(m map[string]any) *Args {
	return &Args{m: m}
}

// Err is the first failure a getter (or Fail) recorded.
func (a *Args) Err() error { return a.err }

// Fail records a failure unless one is recorded already, so the model
// reads the first problem, not the last.
func (a *Args) Fail(format string, v ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, v...)
	}
}

// Has reports whether the argument was passed (null included).
func (a *Args) Has(k string) bool {
	_, ok := a.m[k]
	return ok
}

// Str is a string argument, "" when absent or null, trimmed.
func (a *Args) Str(k string) string { return strings.TrimSpace(a.Text(k)) }

// Text is a string argument kept as given (free text).
func (a *Args) Text(k string) string {
	v, ok := a.m[k]
	if !ok || v == nil {
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
		a.Fail("argument %q must be a string", k)
	}
	return s
}

// OptStr tells absent from null from a value.
func (a *Args) OptStr(k string) wire.Opt[string] {
	v, ok := a.m[k]
	switch {
	case !ok:
		return wire.Opt[string]{}
	case v == nil:
		return wire.Null[string]()
	}
	return wire.Some(a.Text(k))
}

// Link is an optional link argument: absent keeps the link, null or ""
// clears it (sent as null), anything else sets it.
func (a *Args) Link(k string) wire.Opt[string] {
	o := a.OptStr(k)
	if o.Set && !o.Null {
		if o.V = strings.TrimSpace(o.V); o.V == "" {
			return wire.Null[string]()
		}
	}
	return o
}

// Strs is a string-array argument, trimmed, empties dropped.
func (a *Args) Strs(k string) []string {
	v, ok := a.m[k]
	if !ok || v == nil {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		a.Fail("argument %q must be an array of strings", k)
		return nil
	}
	var out []string
	for i, x := range list {
		s, isStr := x.(string)
		if !isStr {
			a.Fail("argument %s[%d] must be a string", k, i)
			return nil
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// OptStrs is a string-array argument that may be absent; [] or null clears.
func (a *Args) OptStrs(k string) wire.Opt[[]string] {
	if !a.Has(k) {
		return wire.Opt[[]string]{}
	}
	list := a.Strs(k)
	if list == nil {
		list = []string{}
	}
	return wire.Some(list)
}

// OptBool tells absent from a value.
func (a *Args) OptBool(k string) wire.Opt[bool] {
	v, ok := a.m[k]
	if !ok || v == nil {
		return wire.Opt[bool]{}
	}
	b, isBool := v.(bool)
	if !isBool {
		a.Fail("argument %q must be a boolean", k)
	}
	return wire.Some(b)
}

// BoolOr is a boolean argument with a default.
func (a *Args) BoolOr(k string, def bool) bool {
	if o := a.OptBool(k); o.Set {
		return o.V
	}
	return def
}

// OptNum tells absent from null from a number.
func (a *Args) OptNum(k string) wire.Opt[float64] {
	v, ok := a.m[k]
	switch {
	case !ok:
		return wire.Opt[float64]{}
	case v == nil:
		return wire.Null[float64]()
	}
	f, isNum := v.(float64)
	if !isNum {
		a.Fail("argument %q must be a number", k)
	}
	return wire.Some(f)
}

// Num is an optional number as a pointer (nil when absent or null).
func (a *Args) Num(k string) *float64 {
	o := a.OptNum(k)
	if !o.Set || o.Null {
		return nil
	}
	return &o.V
}

// IntOr is an integer argument with a default.
func (a *Args) IntOr(k string, def int) int {
	o := a.OptNum(k)
	if !o.Set || o.Null {
		return def
	}
	if o.V != math.Trunc(o.V) {
		a.Fail("argument %q must be a whole number", k)
		return def
	}
	return int(o.V)
}

// Objects is an array-of-objects argument.
func (a *Args) Objects(k string) []map[string]any {
	v, ok := a.m[k]
	if !ok || v == nil {
		return nil
	}
	list, isList := v.([]any)
	if !isList {
		a.Fail("argument %q must be an array of objects", k)
		return nil
	}
	out := make([]map[string]any, 0, len(list))
	for i, x := range list {
		o, isObj := x.(map[string]any)
		if !isObj {
			a.Fail("argument %s[%d] must be an object", k, i)
			return nil
		}
		out = append(out, o)
	}
	return out
}

// Object is an object argument.
func (a *Args) Object(k string) map[string]any {
	v, ok := a.m[k]
	if !ok || v == nil {
		return nil
	}
	o, isObj := v.(map[string]any)
	if !isObj {
		a.Fail("argument %q must be an object", k)
	}
	return o
}

// Expected is the optional expectedVersion guard.
func (a *Args) Expected() *int64 {
	if !a.Has("expectedVersion") || a.m["expectedVersion"] == nil {
		return nil
	}
	v := int64(a.IntOr("expectedVersion", 0))
	return &v
}
