package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/errs"
	"github.com/opsboard/opsboard/board/internal/rules/agenda"
	"github.com/opsboard/opsboard/board/internal/rules/field"
	"github.com/opsboard/opsboard/board/internal/rules/saved"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /api/agenda?from=&to=&domain=: open tasks, open reminders and events
// due in a range, sorted by time. Without from, every overdue task and
// reminder leads; without to, the range ends after today and the next seven
// days. A bare day in to includes that day.
func (a *API) agenda(w http.ResponseWriter, r *http.Request) {
	d := a.store.Snapshot()
	q := r.URL.Query()
	loc := saved.Zone(d, a.zone)
	now := a.now()
	rng := agenda.Default(now, loc)
	if s := q.Get("from"); s != "" {
		t, ok := agenda.ParseBound(s, loc, false)
		if !ok {
			a.fail(w, errs.BadRequest("query 'from' must be a day (YYYY-MM-DD) or datetime, not %q", s))
			return
		}
		rng.From = t
		rng.To = agenda.StartOfDay(t, loc).AddDate(0, 0, agenda.DefaultDays+1)
	}
	if s := q.Get("to"); s != "" {
		t, ok := agenda.ParseBound(s, loc, true)
		if !ok {
			a.fail(w, errs.BadRequest("query 'to' must be a day (YYYY-MM-DD) or datetime, not %q", s))
			return
		}
		rng.To = t
	}
	if !rng.From.IsZero() && !rng.From.Before(rng.To) {
		a.fail(w, errs.BadRequest("query 'from' (%s) must be before 'to' (%s)", q.Get("from"), q.Get("to")))
		return
	}
	dom := wire.Domain(q.Get("domain"))
	if err := field.CheckDomain(dom); err != nil {
		a.fail(w, err)
		return
	}
	out := wire.Agenda{
		Today:    now.In(loc).Format("2006-01-02"),
		Timezone: loc.String(),
		To:       rng.To.In(loc).Format("2006-01-02T15:04:05Z07:00"),
		Items:    agenda.Build(d, agenda.Query{Now: now, Loc: loc, Range: rng, Domain: dom}),
		Version:  d.Version,
	}
	if !rng.From.IsZero() {
		out.From = rng.From.In(loc).Format("2006-01-02T15:04:05Z07:00")
	}
	httpjson.Reply(w, http.StatusOK, out)
}
