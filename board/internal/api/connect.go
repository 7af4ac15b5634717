package api

import (
	"net/http"
	"os"
	"path/filepath"

	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// toolServers are the agent's tool servers that `make build` puts beside
// the board, in the order the first-run panel lists them.
var toolServers = []string{"mcp-board", "mcp-calendar", "mcp-guard"}

// GET /api/connect: the board's address and where each tool server's
// binary is, so the page can show a client configuration ready to paste.
// The address is the one the page reached the board at.
func (a *API) connect(w http.ResponseWriter, r *http.Request) {
	boardURL := boardBase(r)
	out := wire.Connect{BoardURL: boardURL, Servers: make([]wire.ConnectServer, 0, len(toolServers))}
	for _, name := range toolServers {
		s := wire.ConnectServer{Name: name}
		if a.toolDir != "" {
			s.Path = filepath.Join(a.toolDir, name)
			if fi, err := os.Stat(s.Path); err == nil && !fi.IsDir() {
				s.Exists = true
			}
		}
		switch name {
		case "mcp-guard":
			if a.guardURL != "" {
				s.Env = map[string]string{"SVC_GUARD_URL": a.guardURL}
			}
		default:
			s.Env = map[string]string{"CRM_BASE_URL": boardURL}
		}
		out.Servers = append(out.Servers, s)
	}
	httpjson.Reply(w, http.StatusOK, out)
}
