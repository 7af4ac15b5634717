package api

import (
	"net/http"

	"github.com/opsboard/opsboard/board/internal/rules/command"
	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// POST /api/command: { text }. Each command runs the rule the matching
// gesture's route runs, so the command bar is no separate path.
func (a *API) command(w http.ResponseWriter, r *http.Request) {
	var in wire.CommandInput
	if err := decode(w, r, &in); err != nil {
		a.fail(w, err)
		return
	}
	cmd, err := command.Parse(in.Text)
	if err != nil {
		a.fail(w, err)
		return
	}
	out, err := command.Run(r.Context(), a.store, actorOf(r, in.Actor), cmd)
	if err != nil {
		a.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, out)
}
