package mcptool

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Validated checks a call's arguments against the tool's own input schema
// before the handler runs, so a misspelled name, a wrong type or a value
// outside an enum is a tool error in words the model can act on, and
// nothing is ever silently dropped. It covers the part of JSON Schema these
// tools use: type (a name or a list), enum, pattern, minLength, minimum,
// maximum, minItems, items, properties, required, additionalProperties.
func Validated(t mcp.Tool, h server.ToolHandlerFunc) server.ToolHandlerFunc {
	schema := map[string]any{
		"type": "object", "properties": t.InputSchema.Properties, "required": t.InputSchema.Required,
		"additionalProperties": t.InputSchema.AdditionalProperties,
	}
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.GetArguments()
		if args == nil {
			args = map[string]any{}
		}
		if err := checkValue("", schema, args); err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("%s: %v", t.Name, err)), nil
		}
		return h(ctx, req)
	}
}

// checkValue checks v against the schema s; path names v in messages.
func checkValue(path string, s map[string]any, v any) error {
	types := schemaTypes(s["type"])
	name := "argument " + path
	if path == "" {
		name = "the arguments"
	}
	if v == nil {
		if len(types) == 0 || slices.Contains(types, "null") {
			return nil
		}
		return fmt.Errorf("%s must not be null", name)
	}
	kind := jsonKind(v)
	if len(types) > 0 && !slices.Contains(types, kind) && !(kind == "integer" && slices.Contains(types, "number")) {
		return fmt.Errorf("%s must be %s, not %s", name, strings.Join(withArticles(types), " or "), describe(v))
	}
	switch x := v.(type) {
	case string:
		if enum := toStrings(s["enum"]); len(enum) > 0 && !slices.Contains(enum, x) {
			return fmt.Errorf("%s must be one of %s, not %q", name, strings.Join(enum, ", "), x)
		}
		if p, ok := s["pattern"].(string); ok {
			re, err := regexp.Compile(p)
			if err != nil {
				return fmt.Errorf("%s: bad pattern in the schema: %w", name, err)
			}
			if !re.MatchString(x) {
				return fmt.Errorf("%s %q does not have the expected form (%s)", name, x, s["description"])
			}
		}
		if n, ok := number(s["minLength"]); ok && float64(len([]rune(x))) < n {
			return fmt.Errorf("%s must not be empty", name)
		}
	case float64:
		if slices.Contains(types, "integer") && !slices.Contains(types, "number") && x != math.Trunc(x) {
			return fmt.Errorf("%s must be a whole number, not %v", name, x)
		}
		if n, ok := number(s["minimum"]); ok && x < n {
			return fmt.Errorf("%s must be at least %v, not %v", name, n, x)
		}
		if n, ok := number(s["maximum"]); ok && x > n {
			return fmt.Errorf("%s must be at most %v, not %v", name, n, x)
		}
	case []any:
		if n, ok := number(s["minItems"]); ok && float64(len(x)) < n {
			return fmt.Errorf("%s needs at least %v item(s)", name, n)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				if err := checkValue(fmt.Sprintf("%s[%d]", path, i), items, e); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if closed, ok := s["additionalProperties"].(bool); ok && !closed {
			var unknown []string
			for k := range x {
				if _, ok := props[k]; !ok {
					unknown = append(unknown, k)
				}
			}
			if len(unknown) > 0 {
				sort.Strings(unknown)
				where := ""
				if path != "" {
					where = " in " + path
				}
				return fmt.Errorf("unknown argument%s %s%s: the accepted ones are %s", plural(len(unknown)), strings.Join(unknown, ", "), where, strings.Join(sortedKeys(props), ", "))
			}
		}
		for _, r := range toStrings(s["required"]) {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("argument %s is required", join(path, r))
			}
		}
		for _, k := range sortedKeys(x) {
			if ps, ok := props[k].(map[string]any); ok {
				if err := checkValue(join(path, k), ps, x[k]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func schemaTypes(t any) []string {
	if s, ok := t.(string); ok {
		return []string{s}
	}
	return toStrings(t)
}

func toStrings(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// jsonKind names a decoded JSON value the way a schema's type does.
func jsonKind(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}

func withArticles(types []string) []string {
	out := make([]string, 0, len(types))
	for _, t := range types {
		switch t {
		case "integer", "array", "object":
			out = append(out, "an "+t)
		case "null":
			out = append(out, "null")
		default:
			out = append(out, "a "+t)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
