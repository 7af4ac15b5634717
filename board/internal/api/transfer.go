package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/export"
	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/board/internal/imports/parse"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// maxImport bounds an import's body: a file is larger than any other write.
const maxImport = wire.MaxImportBody

// GET /api/export?format=json|csv|markdown
func (a *API) export(w http.ResponseWriter, r *http.Request) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "json"
	}
	f, err := export.Render(a.store.DocWithBodies(a.store.Snapshot()), format, a.now())
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
	if !dry {
		a.syncPages(r.Context()) // imported cases may link pages
	}
	httpjson.Reply(w, http.StatusOK, wire.ImportReply{DryRun: dry, Format: plan.Format, Created: counts, Version: v})
}

// decodeImport is decode with the import's larger bound, and a message
// that says how large a file may be.
func decodeImport(w http.ResponseWriter, r *http.Request, v *wire.ImportRequest) error {
	err := decodeWithin(w, r, v, maxImport)
	var big *http.MaxBytesError
	if errors.As(err, &big) {
		return errs.TooLarge("the file is larger than %d MB", maxImport>>20)
	}
	return err
}

// maxDateText bounds a date in words: the parser's time grows with the
// text (about 2s for 400 KB), and a date is a few words of it.
const maxDateText = wire.MaxDateText

// GET /api/dates/parse?text=...
func (a *API) parseDate(w http.ResponseWriter, r *http.Request) {
	text := r.URL.Query().Get("text")
	if len(text) > maxDateText {
		a.fail(w, errs.BadRequest("query 'text' is longer than %d bytes: send the words that say the date", maxDateText))
		return
	}
	loc := saved.Zone(a.store.Snapshot(), a.zone)
	res, ok := a.dates.Parse(text, a.now(), loc)
	if !ok {
		a.fail(w, errs.BadRequest("no date found in %q: try \"tomorrow 9am\", \"next fri\" or \"in 3 days\"", text))
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.DateParse{DueAt: res.DueAt, AllDay: res.AllDay, Text: res.Text, Timezone: loc.String()})
}
