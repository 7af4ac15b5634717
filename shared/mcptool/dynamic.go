package mcptool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The two tools a server with Dynamic toolsets adds to every selection, so
// an agent learns which verbs exist beyond the ones it was started with and
// asks for them without a restart.
const (
	ListToolsetsTool  = "list_toolsets"
	EnableToolsetTool = "enable_toolset"
)

// sessions is what a dynamic server's sessions have enabled, beyond the
// tools the server started with. mcp-go keeps a tool list per session for
// streamable HTTP; a stdio server serves one session, so its list is the
// server's own.
type sessions[D any] struct {
	s        Server[D]
	d        D
	readOnly bool
	started  []string        // the toolsets served from the start
	served   map[string]bool // tool names served from the start
	srv      *server.MCPServer

	mu      sync.Mutex
	enabled map[string][]string // session id -> toolsets it enabled
	added   map[string][]string // session id -> tool names it added
}

func newSessions[D any](s Server[D], d D, sel Selection, first []server.ServerTool) (*sessions[D], error) {
	sets, err := s.Resolve(sel.Toolsets)
	if err != nil {
		return nil, err
	}
	ss := &sessions[D]{s: s, d: d, readOnly: sel.ReadOnly, served: map[string]bool{}, enabled: map[string][]string{}, added: map[string][]string{}}
	for _, ts := range sets {
		ss.started = append(ss.started, ts.Name)
	}
	for _, st := range first {
		ss.served[st.Tool.Name] = true
	}
	return ss, nil
}

// tools are list_toolsets and enable_toolset. Both are read-only to the
// world (they change only what this session is served), so --read-only
// keeps them and an agent in a read-only session can still ask for reads.
func (ss *sessions[D]) tools() []server.ServerTool {
	list := mcp.NewTool(ListToolsetsTool,
		mcp.WithDescription("The toolsets: each with its tool count and whether it is on. enable_toolset adds one."),
		ReadOnly(),
	)
	enable := mcp.NewTool(EnableToolsetTool,
		mcp.WithDescription("Add a toolset's tools to this session."),
		mcp.WithString("toolset", mcp.Required(), mcp.Description("Name from list_toolsets.")),
		ReadOnly(),
	)
	return []server.ServerTool{
		{Tool: list, Handler: Validated(list, Handle(ss.list))},
		{Tool: enable, Handler: Validated(enable, Handle(ss.enable))},
	}
}

// sessionID names the caller's session; "" outside one (a test calling a
// handler directly).
func sessionID(ctx context.Context) string {
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		return cs.SessionID()
	}
	return ""
}

func (ss *sessions[D]) on(id, set string) bool {
	return slices.Contains(ss.started, set) || slices.Contains(ss.enabled[id], set) || slices.Contains(ss.enabled[id], AllToolsets)
}

func (ss *sessions[D]) list(ctx context.Context, _ *Args) (string, error) {
	id := sessionID(ctx)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var b strings.Builder
	for _, ts := range ss.s.Toolsets {
		state := "off"
		if ss.on(id, ts.Name) {
			state = "on"
		}
		n := len(ss.setTools(ts.Name))
		fmt.Fprintf(&b, "%s - %s - %d %s: %s\n", ts.Name, state, n, noun(n, "tool", "tools"), ts.Description)
	}
	if ss.readOnly {
		b.WriteString("Read-only session: counts are of the read tools.\n")
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// setTools are the tools a toolset serves in this server's mode.
func (ss *sessions[D]) setTools(name string) []server.ServerTool {
	tools, _ := ss.s.selected(ss.d, Selection{Toolsets: []string{name}, ReadOnly: ss.readOnly})
	return tools
}

func (ss *sessions[D]) enable(ctx context.Context, a *Args) (string, error) {
	name := strings.ToLower(a.Str("toolset"))
	if a.Err() != nil {
		return "", a.Err()
	}
	if _, err := ss.s.Resolve([]string{name}); err != nil {
		return "", err
	}
	id := sessionID(ctx)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var fresh []server.ServerTool
	for _, st := range ss.setTools(name) {
		if !ss.served[st.Tool.Name] && !slices.Contains(ss.added[id], st.Tool.Name) {
			fresh = append(fresh, st)
		}
	}
	if len(fresh) == 0 {
		return fmt.Sprintf("Toolset %s is already on: nothing added.", name), nil
	}
	if err := ss.add(ctx, id, fresh); err != nil {
		return "", err
	}
	var names []string
	for _, st := range fresh {
		names = append(names, st.Tool.Name)
		ss.added[id] = append(ss.added[id], st.Tool.Name)
	}
	ss.enabled[id] = append(ss.enabled[id], name)
	return fmt.Sprintf("Enabled %s: added %d %s: %s.", name, len(fresh), noun(len(fresh), "tool", "tools"), strings.Join(names, ", ")), nil
}

// forget drops what an ended session enabled.
func (ss *sessions[D]) forget(id string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.enabled, id)
	delete(ss.added, id)
}

// add serves tools to one session, which tells its client the list changed.
func (ss *sessions[D]) add(ctx context.Context, id string, tools []server.ServerTool) error {
	if ss.srv == nil {
		return errors.New("this server is not serving a session")
	}
	if _, perSession := server.ClientSessionFromContext(ctx).(server.SessionWithTools); perSession {
		return ss.srv.AddSessionTools(id, tools...)
	}
	// A session without a tool list of its own is stdio's: the process
	// serves that one session, so the server's list is the session's.
	ss.srv.AddTools(tools...)
	return nil
}

func noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
