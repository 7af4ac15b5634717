// Package tools holds the board tool server's agent verbs: one constructor
// per tool returning the tool and its handler, read and write tools listed
// apart so a read-only hint cannot lie. Each handler builds one request from
// typed arguments, calls the board through the shared client and renders a
// compact text answer.
package tools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/opsboard/opsboard/shared/client"
)

// Name and Version identify the server to MCP clients; the version follows
// the spec's tool-server versioning (3.3.0 added priorities).
const (
	Name    = "mcp-board"
	Version = "3.3.0"
)

// Instructions is what a client may put before the agent once per session.
const Instructions = `Agent verbs over the person's operations board (cases in an initiative > workstream > case tree, tasks, notes, messages, reminders, priorities, labels, search, approvals).
Rules: before creating anything, call search with several queries (the entity name and the topic) and get_tree; update a match instead of duplicating; restore an archived match and relink it; call list_labels before passing labels.
The human's manual actions are authoritative (get_case lists them first): never revert them; add a note or propose the change instead.`

// constructor builds one tool and its handler around a board client.
type constructor func(*client.Client) (mcp.Tool, server.ToolHandlerFunc)

// readConstructors are the tools that only read the board.
func readConstructors() []constructor {
	return []constructor{
		getCase, listCases, getTree, listInitiatives, listPending,
		listReminders, getReminder,
		getPriorities,
		listLabels, listLabelBundles,
		listViews, listTemplates, getPrefs,
		search,
	}
}

// writeConstructors are the tools that change the board.
func writeConstructors() []constructor {
	return []constructor{
		createCase, updateCase, updateCases, archiveCase, restoreCase, deleteCase, mergeCases,
		addTask, updateTask, completeTask, deleteTask, addNote, linkMessage, updateMessage,
		createInitiative, createWorkstream, setParent, regroupCases, propose,
		createReminder, updateReminder, completeReminder, deleteReminder, linkReminder, linkReminderMessage,
		addPriority, updatePriority, removePriority, setStarred,
		createLabel, updateLabel, deleteLabel, installLabelBundle, uninstallLabelBundle,
		approvePending, rejectPending, saveView, deleteView, saveTemplate, deleteTemplate, setPrefs,
	}
}

func build(c *client.Client, cons []constructor) []server.ServerTool {
	out := make([]server.ServerTool, 0, len(cons))
	for _, f := range cons {
		t, h := f(c)
		out = append(out, server.ServerTool{Tool: t, Handler: validated(t, h)})
	}
	return out
}

// ReadTools are the read-only tools.
func ReadTools(c *client.Client) []server.ServerTool { return build(c, readConstructors()) }

// WriteTools are the tools that write.
func WriteTools(c *client.Client) []server.ServerTool { return build(c, writeConstructors()) }

// NewServer is the MCP server with every tool registered. Each handler is
// wrapped to check its arguments against the tool's schema first (see
// validated), so a wrong type, a value outside an enum or an unknown
// argument is a tool error the model can correct.
func NewServer(c *client.Client) *server.MCPServer {
	s := server.NewMCPServer(Name, Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(Instructions),
		server.WithRecovery(),
	)
	s.AddTools(ReadTools(c)...)
	s.AddTools(WriteTools(c)...)
	return s
}

// handlerFunc is a tool's work: it returns the answer text or an error whose
// message is shown to the model as a tool error.
type handlerFunc func(ctx context.Context, a *args) (string, error)

// handle adapts a handlerFunc to mcp-go. A failure is a tool result flagged
// as an error (not a protocol error), so the model reads the board's words.
func handle(fn handlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		text, err := fn(ctx, argsOf(req))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(text), nil
	}
}
