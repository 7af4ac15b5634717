package mcptool

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Validated checks a call's arguments against the tool's own input schema
// before the handler runs, so a misspelled name, a wrong type or a value
// outside an enum is a tool error in words the model can act on, and
// nothing is ever silently dropped. The schema is compiled once, here, and
// checked by santhosh-tekuri/jsonschema (all of JSON Schema, not the part
// we used to check by hand); its first failure is told in our own words
// (see describeFailure).
func Validated(t mcp.Tool, h server.ToolHandlerFunc) server.ToolHandlerFunc {
	check := Checker(t)
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := check(req.GetArguments()); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return h(ctx, req)
	}
}

// Checker compiles the tool's input schema once and returns the check
// Validated runs, for a tool that takes another tool's arguments inside its
// own (propose): the error names the tool and words the first failure the
// same way.
func Checker(t mcp.Tool) func(args map[string]any) error {
	schema := inputSchema(t)
	compiled, err := compileSchema(t.Name, schema)
	return func(args map[string]any) error {
		if err != nil { // a bug in the tool's definition: say so on every call
			return fmt.Errorf("%s: %v", t.Name, err)
		}
		if args == nil {
			args = map[string]any{}
		}
		if err := compiled.Validate(args); err != nil {
			return fmt.Errorf("%s: %v", t.Name, describeFailure(err, schema, args))
		}
		return nil
	}
}

// inputSchema is the tool's input schema as a JSON Schema document,
// leaving out what a tool left unset (JSON Schema has no null for them).
func inputSchema(t mcp.Tool) map[string]any {
	s := map[string]any{"type": "object", "properties": map[string]any{}}
	if t.InputSchema.Properties != nil {
		s["properties"] = t.InputSchema.Properties
	}
	if len(t.InputSchema.Required) > 0 {
		s["required"] = t.InputSchema.Required
	}
	if t.InputSchema.AdditionalProperties != nil {
		s["additionalProperties"] = t.InputSchema.AdditionalProperties
	}
	return s
}

// compileSchema compiles a tool's input schema. It goes through JSON
// because the validator takes decoded JSON, and tool options build the
// schema from Go values ([]string, int).
func compileSchema(tool string, schema map[string]any) (*jsonschema.Schema, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("encode the input schema: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("decode the input schema: %w", err)
	}
	url := "mem:///tools/" + tool + ".json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("load the input schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compile the input schema: %w", err)
	}
	return s, nil
}

// describeFailure tells the first of the validator's failures the way a
// model can act on: it names the argument, what was expected and what was
// sent. The first is the one the old hand-written check reported: an
// object's unknown and missing arguments before its properties, the
// properties by name, array items in order.
func describeFailure(err error, schema map[string]any, args map[string]any) error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	leaves := failures(ve, nil)
	if len(leaves) == 0 {
		return err
	}
	first := slices.MinFunc(leaves, func(a, b *jsonschema.ValidationError) int {
		if c := comparePaths(a.InstanceLocation, b.InstanceLocation); c != 0 {
			return c
		}
		return cmp.Compare(kindRank(a.ErrorKind), kindRank(b.ErrorKind))
	})
	at := locate(schema, args, first.InstanceLocation)
	return describe(first, at)
}

// failures collects the errors that stand for themselves: those without
// causes, and those whose kind says something on its own.
func failures(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference:
	default:
		if len(e.Causes) == 0 {
			return append(out, e)
		}
	}
	for _, c := range e.Causes {
		out = failures(c, out)
	}
	return out
}

// comparePaths orders instance locations depth first: a location before
// anything inside it, names in order, array indexes by number.
func comparePaths(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			continue
		}
		na, errA := strconv.Atoi(a[i])
		nb, errB := strconv.Atoi(b[i])
		if errA == nil && errB == nil {
			return cmp.Compare(na, nb)
		}
		return strings.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}

// kindRank orders failures at one location.
func kindRank(k jsonschema.ErrorKind) int {
	switch k.(type) {
	case *kind.AdditionalProperties:
		return 0
	case *kind.Required:
		return 1
	case *kind.Type:
		return 2
	case *kind.Enum:
		return 3
	case *kind.Pattern:
		return 4
	}
	return 5
}

// location is a failing value with its name and its schema.
type location struct {
	name   string         // as messages name it: tasks[0].title
	value  any            // the value sent
	schema map[string]any // its schema, nil when it has none
}

// locate walks the arguments and the schema along an instance location.
func locate(schema map[string]any, args map[string]any, path []string) location {
	at := location{value: args, schema: schema}
	for _, seg := range path {
		switch v := at.value.(type) {
		case []any:
			i, _ := strconv.Atoi(seg)
			if i >= 0 && i < len(v) {
				at.value = v[i]
			}
			at.name += "[" + seg + "]"
			at.schema, _ = at.schema["items"].(map[string]any)
		default:
			if m, ok := v.(map[string]any); ok {
				at.value = m[seg]
			}
			if at.name != "" {
				at.name += "."
			}
			at.name += seg
			props, _ := at.schema["properties"].(map[string]any)
			at.schema, _ = props[seg].(map[string]any)
		}
	}
	return at
}

// argument names a location in a message.
func (at location) argument() string {
	if at.name == "" {
		return "the arguments"
	}
	return "argument " + at.name
}

// describe words one failure.
func describe(e *jsonschema.ValidationError, at location) error {
	name := at.argument()
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		unknown := slices.Sorted(slices.Values(k.Properties))
		where := ""
		if at.name != "" {
			where = " in " + at.name
		}
		props, _ := at.schema["properties"].(map[string]any)
		return fmt.Errorf("unknown argument%s %s%s: the accepted ones are %s", plural(len(unknown)), strings.Join(unknown, ", "), where, strings.Join(sortedKeys(props), ", "))
	case *kind.Required:
		missing := make([]string, len(k.Missing))
		for i, m := range k.Missing {
			missing[i] = join(at.name, m)
		}
		if len(missing) == 1 {
			return fmt.Errorf("argument %s is required", missing[0])
		}
		return fmt.Errorf("arguments %s are required", strings.Join(missing, ", "))
	case *kind.Type:
		if k.Got == "null" {
			return fmt.Errorf("%s must not be null", name)
		}
		want := schemaTypes(at.schema["type"])
		if len(want) == 0 {
			want = k.Want
		}
		return fmt.Errorf("%s must be %s, not %s", name, strings.Join(withArticles(want), " or "), describeValue(at.value))
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return fmt.Errorf("%s must be one of %s, not %s", name, strings.Join(want, ", "), quoted(at.value))
	case *kind.Pattern:
		return fmt.Errorf("%s %q does not have the expected form (%s)", name, k.Got, at.schema["description"])
	case *kind.MinLength:
		if k.Want == 1 {
			return fmt.Errorf("%s must not be empty", name)
		}
		return fmt.Errorf("%s must be at least %d characters long", name, k.Want)
	case *kind.MaxLength:
		return fmt.Errorf("%s must be at most %d characters long, not %d", name, k.Want, k.Got)
	case *kind.Minimum:
		return fmt.Errorf("%s must be at least %s, not %s", name, ratString(k.Want), describeValue(at.value))
	case *kind.Maximum:
		return fmt.Errorf("%s must be at most %s, not %s", name, ratString(k.Want), describeValue(at.value))
	case *kind.MinItems:
		return fmt.Errorf("%s needs at least %d item(s)", name, k.Want)
	case *kind.MaxItems:
		return fmt.Errorf("%s takes at most %d item(s), not %d", name, k.Want, k.Got)
	}
	// A keyword these tools do not use yet: the validator's own words.
	return fmt.Errorf("%s is not accepted: %v", name, e)
}

func ratString(r *big.Rat) string {
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func quoted(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return describeValue(v)
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
	switch x := t.(type) {
	case string:
		return []string{x}
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

func describeValue(v any) string {
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

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
