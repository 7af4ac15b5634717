// Package tools holds the board tool server's agent verbs: one constructor
// per tool returning the tool and its handler, read and write tools listed
// apart so a read-only hint cannot lie. Each handler builds one request from
// typed arguments, calls the board through the shared client and renders a
// compact text answer.
package tools

import "github.com/opsboard/opsboard/shared/mcptool"

// Name and Version identify the server to MCP clients; the version is the
// tool surface's, raised when tools are added (3.3.0 added priorities).
const (
	Name    = "mcp-board"
	Version = "3.3.0"
)

// Instructions is what a client may put before the agent once per session.
const Instructions = `Agent verbs over the person's operations board (cases in an initiative > workstream > case tree, tasks, notes, messages, reminders, priorities, labels, search, approvals).
Rules: before creating anything, call search with several queries (the entity name and the topic) and get_tree; update a match instead of duplicating; restore an archived match and relink it; call list_labels before passing labels.
The human's manual actions are authoritative (get_case lists them first): never revert them; add a note or propose the change instead.`

// Server is the board tool server: its identity, instructions and tools.
func Server() mcptool.Server {
	return mcptool.Server{
		Name: Name, Version: Version, Instructions: Instructions,
		Read: []mcptool.Constructor{
			getCase, listCases, getTree, listInitiatives, listProposals,
			listReminders, getReminder,
			getPriorities,
			listLabels, listLabelBundles,
			listViews, listTemplates, getPrefs,
			search, agenda, listMessages,
		},
		Write: []mcptool.Constructor{
			createCase, updateCase, updateCases, archiveCase, restoreCase, deleteCase, mergeCases,
			addTask, updateTask, completeTask, deleteTask, addNote, linkMessage, updateMessage,
			createInitiative, createWorkstream, setParent, regroupCases, propose,
			createReminder, updateReminder, completeReminder, deleteReminder, linkReminder, linkReminderMessage,
			addPriority, updatePriority, removePriority, setStarred,
			createLabel, updateLabel, deleteLabel, installLabelBundle, uninstallLabelBundle,
			approveProposal, rejectProposal, saveView, deleteView, saveTemplate, deleteTemplate, setPrefs,
		},
	}
}
