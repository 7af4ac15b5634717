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
