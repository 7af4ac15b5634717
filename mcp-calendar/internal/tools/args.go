package tools

import (
	"fmt"
	"math"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/opsboard/opsboard/shared/wire"
)

// args reads a call's arguments. They were checked against the tool's
// schema before the handler runs (types, enums, patterns, required, no
// unknown names; see validated), so the getters only convert; a value of
// the wrong type still fails loudly through err rather than being dropped.
type args struct {
	m   map[string]any
	err error
}

func argsOf(req mcp.CallToolRequest) *args { return &args{m: req.GetArguments()} }

func (a *args) fail(format string, v ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, v...)
	}
}

func (a *args) has(k string) bool {
	_, ok := a.m[k]
	return ok
}

// str is a trimmed string argument, "" when absent or null.
func (a *args) str(k string) string { return strings.TrimSpace(a.text(k)) }

// text is a string argument kept as given.
func (a *args) text(k string) string {
	v, ok := a.m[k]
	if !ok || v == nil {
		return ""
	}
	s, isStr := v.(string)
	if !isStr {
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
	return wire.Some(a.text(k))
}

// link is a link argument: absent keeps it, null or "" clears it (sent as
// null), anything else sets it.
func (a *args) link(k string) wire.Opt[string] {
	o := a.optStr(k)
	if o.Set && !o.Null {
		if o.V = strings.TrimSpace(o.V); o.V == "" {
			return wire.Null[string]()
		}
	}
	return o
}

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

func (a *args) boolOr(k string, def bool) bool {
	if o := a.optBool(k); o.Set {
		return o.V
	}
	return def
}

func (a *args) intOr(k string, def int) int {
	v, ok := a.m[k]
	if !ok || v == nil {
		return def
	}
	f, isNum := v.(float64)
	if !isNum || f != math.Trunc(f) {
		a.fail("argument %q must be a whole number", k)
		return def
	}
	return int(f)
}

func (a *args) expected() *int64 {
	if !a.has("expectedVersion") || a.m["expectedVersion"] == nil {
		return nil
	}
	v := int64(a.intOr("expectedVersion", 0))
	return &v
}
