package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/export"
	"github.com/opsboard/opsboard/board/internal/field"
	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/board/internal/imports/parse"
	"github.com/opsboard/opsboard/board/internal/saved"
	"github.com/opsboard/opsboard/shared/jsonbody"
	"github.com/opsboard/opsboard/shared/wire"
)

// maxImport bounds an import's body: a file is larger than any other write.
const maxImport = 32 << 20

// GET /api/export?format=json|csv|markdown
func (a *API) export(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "json"
	}
	f, err := export.Render(a.store.Snapshot(), format, a.now())
	if err != nil {
		a.fail(w, errs.BadRequest("query 'format': %s", err.Error()))
		return
	}
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f.Name))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(f.Data)))
	w.Write(f.Data)
}

// POST /api/import (?dryRun=1 counts and writes nothing; ?format= names the
// format when the body does not)
func (a *API) importFile(w http.ResponseWriter, r *http.Request) {
	var in wire.ImportRequest
	if err := decodeImport(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	if in.Format == "" { // the format may also come in the query
		in.Format = r.URL.Query().Get("format")
	}
	plan, err := parse.Request(in)
	if err != nil {
		a.fail(w, err)
		return
	}
	dry := boolQuery(r, "dryRun")
	counts, v, err := imports.Run(r.Context(), a.store, actorOf(r, in.Actor), plan, dry)
	if err != nil {
		a.fail(w, err)
		return
	}
	a.reply(w, http.StatusOK, wire.ImportReply{DryRun: dry, Format: plan.Format, Created: counts, Version: v})
}

// decodeImport is decode with the import's larger bound; a file's text is
// one string, so the body's nesting needs no check beyond the decoder's.
func decodeImport(w http.ResponseWriter, r *http.Request, v *wire.ImportRequest) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxImport))
	if err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			return errs.TooLarge("the file is larger than %d MB", maxImport>>20)
		}
		return err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errs.BadRequest("the request body must be a JSON object")
	}
	if depth, key := field.Depth(trimmed); depth > maxBodyDepth {
		return errs.BadRequest("field '%s' is nested %d levels deep; at most %d are allowed", key, depth-1, field.MaxFreeFormDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errs.BadRequest("%s", jsonbody.Problem(err))
	}
	if dec.More() {
		return errs.BadRequest("the request body has data after the JSON object")
	}
	return nil
}

// GET /api/dates/parse?text=...
func (a *API) parseDate(w http.ResponseWriter, r *http.Request) {
	text := r.URL.Query().Get("text")
	loc := saved.Zone(a.store.Snapshot(), a.zone)
	res, ok := a.dates.Parse(text, a.now(), loc)
	if !ok {
		a.fail(w, errs.BadRequest("no date found in %q: try \"tomorrow 9am\", \"next fri\" or \"in 3 days\"", text))
		return
	}
	a.reply(w, http.StatusOK, wire.DateParse{DueAt: res.DueAt, AllDay: res.AllDay, Text: res.Text, Timezone: loc.String()})
}
