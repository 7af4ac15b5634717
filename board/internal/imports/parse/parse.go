// Package parse picks the parser of an import's file: the format it is told,
// or the one its content shows (auto).
package parse

import (
	"bytes"
	"strings"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/board/internal/imports/csvmap"
	"github.com/opsboard/opsboard/board/internal/imports/ownjson"
	"github.com/opsboard/opsboard/board/internal/imports/todoist"
	"github.com/opsboard/opsboard/board/internal/imports/trello"
	"github.com/opsboard/opsboard/shared/wire"
)

// Detect names the format of data: json (the board's own export), trello,
// todoist, or csv for anything else that is not JSON; "" when none fits.
func Detect(data []byte) string {
	trimmed := bytes.TrimSpace(data)
	switch {
	case ownjson.Sniff(trimmed):
		return wire.ImportJSON
	case trello.Sniff(trimmed):
		return wire.ImportTrello
	case todoist.Sniff(trimmed):
		return wire.ImportTodoist
	case len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[':
		return wire.ImportCSV
	}
	return ""
}

// Request parses an import request's file into a plan. A file that does not
// read is a bad request naming the row.
func Request(in wire.ImportRequest) (imports.Plan, error) {
	data := []byte(in.Content)
	if len(bytes.TrimSpace(data)) == 0 {
		return imports.Plan{}, errs.BadRequest("field 'content' is empty: send the file's text")
	}
	format := strings.ToLower(strings.TrimSpace(in.Format))
	if format == "" || format == wire.ImportAuto {
		if format = Detect(data); format == "" {
			return imports.Plan{}, errs.BadRequest("the file is neither the board's JSON export, a Trello board export, a Todoist backup nor a CSV: name its format")
		}
	}
	if len(in.Map) > 0 && format != wire.ImportCSV {
		return imports.Plan{}, errs.BadRequest("field 'map' applies to the csv format only, not %s", format)
	}
	var p imports.Plan
	var err error
	switch format {
	case wire.ImportJSON:
		p, err = ownjson.Parse(data)
	case wire.ImportTrello:
		p, err = trello.Parse(data)
	case wire.ImportTodoist:
		p, err = todoist.Parse(data, in.Title)
	case wire.ImportCSV:
		p, err = csvmap.Parse(data, in.Map, in.Title)
	default:
		return imports.Plan{}, errs.BadRequest("field 'format' must be one of %s, not %q", strings.Join(wire.ImportFormats(), ", "), in.Format)
	}
	if err != nil {
		return imports.Plan{}, errs.BadRequest("%s", err.Error())
	}
	return p, nil
}
