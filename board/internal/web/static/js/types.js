// @ts-check
// The board's records as /api sends them, for the JSDoc types of the other
// modules (`import('./types.js').Case`). Nothing here runs: the page never
// imports this file, so it costs no request.

/**
 * @typedef {'urgent' | 'todo' | 'in_progress' | 'waiting_for_input' | 'done'} Lane
 * @typedef {'initiative' | 'workstream' | 'case'} Kind
 * @typedef {'human' | 'agent' | 'system'} Actor
 */

/**
 * @typedef {object} Task
 * @property {string} id
 * @property {string} title
 * @property {string} [detail]
 * @property {string} [completedAt]
 * @property {string} [dueAt]
 * @property {number} [position]
 * @property {string} [createdAt]
 * @property {string} [repeat] recurrence rule (an RRULE subset)
 * @property {string} [nextId] the task its completion added
 */

/**
 * @typedef {object} Note
 * @property {string} id
 * @property {string} text
 * @property {Actor} actor
 * @property {string} createdAt
 */

/**
 * @typedef {object} Activity
 * @property {Actor} actor
 * @property {string} verb
 * @property {string} ts
 * @property {string} [detail]
 */

/**
 * @typedef {object} Case
 * @property {string} id
 * @property {string} title
 * @property {string} [summary]
 * @property {Lane} status
 * @property {string} domain
 * @property {string[]} [tags]
 * @property {string[]} [labels]
 * @property {string} [eta]
 * @property {string} [dueAt]
 * @property {string[]} [vaultLinks]
 * @property {Task[]} [tasks]
 * @property {number} [taskCount] a summary's checklist size (no tasks then)
 * @property {number} [tasksDone] a summary's completed tasks
 * @property {number} [noteCount] a summary's notes
 * @property {Note[]} [notes]
 * @property {Activity[]} [activity]
 * @property {Kind} kind
 * @property {string} [parentId]
 * @property {boolean} [starred]
 * @property {string} [archivedAt]
 * @property {string} [mergedInto]
 * @property {number} [position]
 * @property {string} createdAt
 * @property {string} updatedAt
 */

/**
 * @typedef {object} CalendarEvent
 * @property {string} id
 * @property {string} title
 * @property {string} date
 * @property {boolean} allDay
 * @property {string} [startTime]
 * @property {string} [endTime]
 * @property {string} [description]
 * @property {string} [location]
 * @property {string} [caseId]
 * @property {string} [domain]
 * @property {string} [repeat] recurrence rule: the event is a series
 * @property {string} [occurrenceOf] on an occurrence of a ranged read: its series
 */

/**
 * @typedef {object} ReminderTask
 * @property {string} [id]
 * @property {string} title
 * @property {boolean} [done]
 */

/**
 * @typedef {object} Reminder
 * @property {string} id
 * @property {string} title
 * @property {string} [detail]
 * @property {'open' | 'done' | 'dismissed'} status
 * @property {string} [caseId]
 * @property {string} [dueAt]
 * @property {string} [domain]
 * @property {string[]} [labels]
 * @property {ReminderTask[]} [tasks]
 * @property {string} [repeat] recurrence rule (an RRULE subset)
 * @property {string} [nextId] the occurrence its completion created
 */

/**
 * A change the agent proposed instead of making, waiting for the person.
 * @typedef {object} Proposal
 * @property {string} id
 * @property {string} verb
 * @property {unknown} payload
 * @property {string} summary
 * @property {Actor} actor
 * @property {string} createdAt
 * @property {string} [target] the record it changes
 * @property {Record<string, unknown>} [before] the target's fields when proposed
 * @property {{ id: string, before?: Record<string, unknown> }[]} [others] the other records it changes, with theirs
 * @property {boolean} [changedSince] in the list: a target changed since
 * @property {boolean} [targetGone] in the list: a target no longer exists
 * @property {ProposalTarget[]} [targets] in the list: each target as it is now
 */

/**
 * A proposal's target as it stands now.
 * @typedef {object} ProposalTarget
 * @property {string} id
 * @property {boolean} [gone]
 * @property {boolean} changedSince
 * @property {string} [updatedAt]
 * @property {Record<string, unknown>} [current] the present values of the proposal's before fields
 * @property {string[]} [changedFields] those of them that differ from before
 */

/**
 * A label of the catalog.
 * @typedef {object} Label
 * @property {string} id
 * @property {string} title
 * @property {string} description
 * @property {string} color
 */

/**
 * A bundle of labels the catalog offers, and how much of it is installed.
 * @typedef {object} Bundle
 * @property {string} id
 * @property {string} title
 * @property {string} kind
 * @property {string} description
 * @property {number} labelCount
 * @property {number} installedCount
 * @property {number} ownedCount
 * @property {boolean} installed
 */

/**
 * A message; a summary (a list's row) has no body, cc, url or messageId.
 * @typedef {object} Message
 * @property {string} id
 * @property {string} [source]
 * @property {string} [from]
 * @property {string[]} [to]
 * @property {string[]} [cc]
 * @property {string} [subject]
 * @property {string} [preview]
 * @property {string} [body]
 * @property {string} [receivedAt]
 * @property {boolean} read
 * @property {string} [caseId]
 * @property {string} [reminderId]
 * @property {boolean} [outbound]
 * @property {string} [url]
 * @property {string} [messageId]
 * @property {string} [threadId]
 * @property {string} [scan]
 * @property {string[]} [entities] the vault pages of its sender (or, sent, its recipients)
 */

/**
 * @typedef {'person' | 'organization' | 'project' | 'topic'} PageType
 */

/**
 * A vault page as the vault's list gives it. The id (V-n) is absent until
 * something refers to the page; path is relative to the vault, with .md.
 * @typedef {object} PageSummary
 * @property {string} [id]
 * @property {string} path
 * @property {string} title
 * @property {PageType} [type]
 * @property {string[]} aliases
 * @property {string[]} emails
 * @property {string[]} domains
 * @property {string[]} cases the cases that link the page
 * @property {string} [broken] why its frontmatter does not parse
 * @property {string} updatedAt
 */

/**
 * A vault page whole: html is its body rendered by the board (raw HTML
 * off, [[links]] turned into page links).
 * @typedef {PageSummary & { mergedInto?: string, frontmatter: Record<string, unknown>, body: string, html: string, backlinks: { cases: string[], messages: string[], pages: string[] } }} VaultPage
 */

/**
 * A sender of inbound mail no page holds, and the pages it might be.
 * @typedef {object} UnresolvedSender
 * @property {string} address
 * @property {string} [name]
 * @property {number} messages
 * @property {string} [lastAt]
 * @property {{ id: string, reason: string }[]} suggestions
 */

/**
 * One of the person's standing priorities.
 * @typedef {object} Priority
 * @property {string} id
 * @property {string} text
 * @property {number} [position]
 * @property {string} createdAt
 * @property {string} updatedAt
 */

/**
 * A saved view of the board: a name and the filters it restores.
 * @typedef {object} SavedView
 * @property {string} id
 * @property {string} name
 * @property {Filters & { mode?: string }} filters
 * @property {string} createdAt
 * @property {string} updatedAt
 */

/**
 * A case template: the fields a new case starts with.
 * @typedef {object} Template
 * @property {string} id
 * @property {string} name
 * @property {string} [title]
 * @property {string} [summary]
 * @property {Lane} [status]
 * @property {string} [domain]
 * @property {Kind} [kind]
 * @property {string[]} [labels]
 * @property {string[]} [tags]
 * @property {string[]} [tasks]
 * @property {string} createdAt
 * @property {string} updatedAt
 */

/**
 * The board's filters, read from the address.
 * @typedef {object} Filters
 * @property {string} [q]
 * @property {string} [domain]
 * @property {string} [label]
 * @property {boolean} [starred]
 * @property {string} [in] the initiative or workstream the kanban is scoped to
 */

/**
 * Where the page is: the path picks the view, the query carries its state.
 * @typedef {object} Route
 * @property {string} path
 * @property {URLSearchParams} query
 * @property {string} hash
 */

export {};
