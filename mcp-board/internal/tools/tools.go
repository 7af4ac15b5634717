// Package tools holds the board tool server's agent verbs: one constructor
// per tool returning the tool and its handler, read and write tools listed
// apart so a read-only hint cannot lie. Each handler builds one request from
// typed arguments, calls the board through the shared client and renders a
// compact text answer.
package tools

import (
	"github.com/opsboard/opsboard/shared/client"
	"github.com/opsboard/opsboard/shared/mcptool"
)

// Name and Version identify the server to MCP clients; the version is the
// tool surface's, raised when tools change (4.0.0 grouped them in toolsets,
// typed propose's payload and gave approval back to the person; 4.1.0 added
// the backup tools to admin; 4.2.0 added the vault set and moved the
// batch writes to bulk, to keep the default set within its budget; 4.3.0
// added list_toolsets, enable_toolset and what_changed to the default set,
// the batch forms complete_tasks, link_messages and update_cases' items,
// undo_agent_writes to admin, and moved the tree's shortcuts to tree).
const (
	Name    = "mcp-board"
	Version = "4.3.0"
)

// DefaultHTTPAddr is where --http serves when given no address: the board
// tool server's own port.
const DefaultHTTPAddr = "127.0.0.1:8002"

// Instructions is what a client may put before the agent once per session:
// the rules every tool shares, said once here rather than in each
// description.
const Instructions = `Agent verbs over the person's operations board: cases in an initiative > workstream > case tree, with tasks, notes, messages, reminders, priorities, labels and search; and the vault, one page per person, organisation, project or topic.
Rules:
- Search before creating: call search with several queries (the entity name and the topic) and get_tree; update a match instead of duplicating; a match that is archived is restored and relinked, not recreated.
- Call list_labels before passing labels: an unknown label id is refused.
- Who is someone? find_entity before create_page: one page per person or organisation.
- The person's manual actions are authoritative (get_case lists them first): never revert them; add a note, or propose the change for their approval. Approving a proposal is the person's, not yours.
- At the start of a run, what_changed says what the person did since your last one.
- More verbs are in toolsets (hard delete, the label catalog, backups, undoing your own writes, batches, vault writes): list_toolsets, then enable_toolset.`

// The toolsets, as --toolsets names them. The bulk sweep of done cases is
// the person's, from the page, and is no agent tool in any set.
const (
	SetCore   = "core"
	SetLabels = "labels"
	SetSaved  = "saved"
	SetAdmin  = "admin"
	SetVault  = "vault"
	SetBulk   = "bulk"
	SetTree   = "tree"
)

// Constructor is one board tool: built around the board client.
type Constructor = mcptool.Constructor[*client.Client]

// Server is the board tool server: its identity, instructions and
// toolsets. core is served by default; the others hold what an agent needs
// rarely (saved views and templates, the label catalog, the batch writes),
// what changes the board past undoing (hard delete, catalog writes), or the
// vault's writes (the vault tool server: its two reads are in core too, so
// an agent can tell who someone is without asking for the set). The batch
// writes left core to make room for those two within the default budget;
// update_case and set_parent do one node at a time there. The tree's
// shortcuts (create_initiative, create_workstream, list_initiatives) left
// it for what_changed and the two toolset tools: create_case with kind,
// list_cases and get_tree do the same in core. An agent enables any set
// while it runs (enable_toolset).
func Server() mcptool.Server[*client.Client] {
	return mcptool.Server[*client.Client]{
		Name: Name, Version: Version, Instructions: Instructions,
		Default: []string{SetCore}, Dynamic: true,
		Toolsets: []mcptool.Toolset[*client.Client]{
			{
				Name: SetCore, Description: "Cases and the tree, tasks, notes, messages, reminders, priorities, search and proposals.",
				Read: []Constructor{
					getCase, listCases, getTree, listProposals,
					listReminders, getReminder,
					getPriorities,
					listLabels,
					search, agenda, listMessages,
					findEntity, getPage, whatChanged,
				},
				Write: []Constructor{
					createCase, updateCase, archiveCase, restoreCase, mergeCases,
					addTask, updateTask, completeTask, deleteTask, addNote, linkMessage, updateMessage,
					setParent, propose,
					createReminder, updateReminder, completeReminder, deleteReminder, linkReminder, linkReminderMessage,
					addPriority, updatePriority, removePriority, setStarred,
				},
			},
			{
				Name: SetLabels, Description: "Read the label catalog and its bundles.",
				Read: []Constructor{listLabels, listLabelBundles},
			},
			{
				Name: SetSaved, Description: "Saved views, case templates and board preferences.",
				Read:  []Constructor{listViews, listTemplates, getPrefs},
				Write: []Constructor{saveView, deleteView, saveTemplate, deleteTemplate, setPrefs},
			},
			{
				Name: SetAdmin, Description: "Past undoing or rarely needed: hard delete of a case, writes to the label catalog, the off-site backup, and undoing your own writes.",
				Read:  []Constructor{backupStatus},
				Write: []Constructor{deleteCase, createLabel, updateLabel, deleteLabel, installLabelBundle, uninstallLabelBundle, runBackup, undoAgentWrites},
			},
			{
				Name: SetVault, Description: "The vault tool server: pages for people, organisations, projects and topics, linked with cases both ways.",
				Read:  []Constructor{findEntity, getPage, listUnresolvedSenders},
				Write: []Constructor{createPage, updatePage, linkPage, mergePages},
			},
			{
				Name: SetBulk, Description: "Many items at once, checked first, one bad item changes nothing: update_cases, regroup_cases, complete_tasks, link_messages.",
				Write: []Constructor{updateCases, regroupCases, completeTasks, linkMessages},
			},
			{
				Name: SetTree, Description: "Shortcuts over the tree: create_initiative, create_workstream, list_initiatives.",
				Read:  []Constructor{listInitiatives},
				Write: []Constructor{createInitiative, createWorkstream},
			},
		},
	}
}
