// @ts-check
// Words and dates as the page shows them.

import { VERBS, CATEGORIES as ACTIVITY_CATEGORIES, CATEGORY_OF, VERB_FAMILIES } from './verbs.js';
import { boardZone, wallOf, wallOfDate, boardToday, dayOf, clockOf, shiftDay } from './zone.js';

export { setZone, boardZone, wallOf, boardToday } from './zone.js';

/** @type {{ id: import('./types.js').Lane, name: string }[]} */
export const LANES = [
  { id: 'urgent', name: 'Urgent' },
  { id: 'todo', name: 'To do' },
  { id: 'in_progress', name: 'In progress' },
  { id: 'waiting_for_input', name: 'Waiting for input' },
  { id: 'done', name: 'Done' },
];
/** @type {(id: string) => string} */
export const laneName = (id) => (LANES.find((l) => l.id === id) || { name: id }).name;

/** @type {{ id: import('./types.js').Kind, name: string }[]} */
export const KINDS = [
  { id: 'initiative', name: 'Initiative' },
  { id: 'workstream', name: 'Workstream' },
  { id: 'case', name: 'Case' },
];
/** @type {(k: string | undefined) => string} */
export const kindName = (k) => (KINDS.find((x) => x.id === (k || 'case')) || { name: String(k) }).name;

/** @type {(a: string | undefined) => string} */
export const actorName = (a) => ({ human: 'You', agent: 'Agent', system: 'System' })[a] || a || 'Board';

// The category filters offer every category of the feed but ingest and
// backup, whose rows are the mail ingest and backup runs rather than changes
// to a record.
/** @type {string[]} */
export const CATEGORIES = ACTIVITY_CATEGORIES.filter((c) => c !== 'ingest' && c !== 'backup');

/** @param {number} n */
const pad = (n) => String(n).padStart(2, '0');

// isoDay is a Date's local calendar day as YYYY-MM-DD.
/** @param {Date} d */
export function isoDay(d) {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

// parseDay reads YYYY-MM-DD as a local date (not UTC midnight).
/**
 * @param {string | undefined | null} s
 * @returns {Date | null}
 */
export function parseDay(s) {
  if (!s) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return new Date(+m[1], +m[2] - 1, +m[3]);
  const d = new Date(s);
  return isNaN(d.getTime()) ? null : d;
}

// todayISO is today on the board's clock.
/** @returns {string} */
export function todayISO() { return boardToday(); }

/**
 * @param {Date} d
 * @param {number} n
 */
export function addDays(d, n) {
  const x = new Date(d);
  x.setDate(x.getDate() + n);
  return x;
}

const dayFmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const dayYearFmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
const longDayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric' });

// shortDate shows a date without the year when it is this year.
/** @param {string | undefined} s */
export function shortDate(s) {
  const d = parseDay(s);
  if (!d) return s || '';
  return String(d.getFullYear()) === boardToday().slice(0, 4) ? dayFmt.format(d) : dayYearFmt.format(d);
}

// timeOf is an instant's time of day on the board's clock.
/** @param {string} s */
export function timeOf(s) {
  return clockOf(s);
}

// dueState tells how close a due date is: overdue, today, soon (2 days) or
// later, on the board's clock; a due time that has passed today is overdue.
/**
 * @param {string | undefined} s
 * @returns {'' | 'overdue' | 'today' | 'soon' | 'later'}
 */
export function dueState(s) {
  const w = wallOf(s);
  if (!w) return '';
  const now = wallOfDate(new Date());
  const diff = dayDiff(now.day, w.day);
  if (diff < 0 || (diff === 0 && w.time && w.time < now.time)) return 'overdue';
  if (diff === 0) return 'today';
  if (diff <= 2) return 'soon';
  return 'later';
}

/**
 * @param {string} from YYYY-MM-DD
 * @param {string} to YYYY-MM-DD
 */
function dayDiff(from, to) {
  const a = parseDay(from);
  const b = parseDay(to);
  if (!a || !b) return 0;
  return Math.round((Date.UTC(b.getFullYear(), b.getMonth(), b.getDate()) - Date.UTC(a.getFullYear(), a.getMonth(), a.getDate())) / 86400000);
}

// dueLabel is the day (Today, Tomorrow, a date) and, when the value has
// one, its time on the board's clock: "Today 15:00".
/** @param {string | undefined} s */
export function dueLabel(s) {
  const w = wallOf(s);
  if (!w) return s || '';
  const diff = dayDiff(boardToday(), w.day);
  const day = diff === 0 ? 'Today' : diff === 1 ? 'Tomorrow' : shortDate(w.day);
  return w.time ? `${day} ${w.time}` : day;
}

// dueTitle is the full due date for a tooltip, naming the zone of a time.
/** @param {string | undefined} s */
export function dueTitle(s) {
  const w = wallOf(s);
  if (!w) return 'Due ' + (s || '');
  return 'Due ' + w.day + (w.time ? ' ' + w.time + (boardZone() ? ' (' + boardZone() + ')' : '') : '');
}

// relTime is "3 min ago", "yesterday", or a date, by the board's days.
/** @param {string} s */
export function relTime(s) {
  const d = new Date(s);
  if (isNaN(d.getTime())) return '';
  const sec = Math.round((Date.now() - d.getTime()) / 1000);
  if (sec < 45) return 'just now';
  if (sec < 3600) return `${Math.round(sec / 60)} min ago`;
  const day = dayOf(s);
  if (sec < 86400 && day === boardToday()) return `${Math.round(sec / 3600)} h ago`;
  if (day === shiftDay(boardToday(), -1)) return 'yesterday ' + clockOf(s);
  return shortDate(day);
}

// dayHeading names a day (YYYY-MM-DD on the board's clock) for the grouped
// feeds.
/** @param {string} day */
export function dayHeading(day) {
  if (day === boardToday()) return 'Today';
  if (day === shiftDay(boardToday(), -1)) return 'Yesterday';
  const d = parseDay(day);
  return d ? longDayFmt.format(d) : day;
}

// verbText turns an activity verb into words.
/** @param {string} verb */
export function verbText(verb) {
  /** @type {Record<string, string>} */
  const words = {
    [VERBS.created]: 'created',
    [VERBS.archived]: 'archived',
    [VERBS.restored]: 'restored',
    [VERBS.statusChanged]: 'moved',
    [VERBS.titleChanged]: 'renamed',
    [VERBS.summaryChanged]: 'edited the summary of',
    [VERBS.domainChanged]: 'changed the domain of',
    [VERBS.etaChanged]: 'changed the ETA of',
    [VERBS.dueChanged]: 'changed the due date of',
    [VERBS.tagsChanged]: 'retagged',
    [VERBS.labelsChanged]: 'relabeled',
    [VERBS.vaultLinksChanged]: 'changed vault links of',
    [VERBS.starred]: 'starred',
    [VERBS.unstarred]: 'unstarred',
    [VERBS.positionChanged]: 'reordered',
    [VERBS.kindChanged]: 'changed the tier of',
    [VERBS.parentChanged]: 'regrouped',
    [VERBS.childDetached]: 'detached a child from',
    [VERBS.childAdopted]: 'adopted a child into',
    [VERBS.mergedInto]: 'merged',
    [VERBS.mergedFrom]: 'merged another case into',
    [VERBS.taskAdded]: 'added a task to',
    [VERBS.taskCompleted]: 'completed a task on',
    [VERBS.taskReopened]: 'reopened a task on',
    [VERBS.taskUpdated]: 'edited a task on',
    [VERBS.taskDeleted]: 'deleted a task from',
    [VERBS.noteAdded]: 'added a note to',
    [VERBS.messageLinked]: 'linked an email to',
    [VERBS.messageUnlinked]: 'unlinked an email from',
    [VERBS.eventLinked]: 'linked an event to',
    [VERBS.eventUnlinked]: 'unlinked an event from',
    [VERBS.eventUpdated]: 'updated an event on',
    [VERBS.reminderLinked]: 'linked a reminder to',
    [VERBS.reminderUnlinked]: 'unlinked a reminder from',
    [VERBS.reminderCompleted]: 'completed a reminder on',
    [VERBS.reminderUpdated]: 'updated a reminder on',
    [VERBS.backupRun]: 'backed up the board',
    [VERBS.backupFailed]: 'could not back up the board',
  };
  return words[verb] || String(verb || '').replace(/_/g, ' ');
}

// prettyDetail makes an activity detail read well: "todo → done" as lane names.
/**
 * @param {string} verb
 * @param {string | undefined} detail
 */
export function prettyDetail(verb, detail) {
  // Edits of a text field name the field, which the verb already says.
  if (!detail || [VERBS.summaryChanged, VERBS.etaChanged, VERBS.dueChanged, VERBS.vaultLinksChanged, VERBS.positionChanged].includes(verb)) return '';
  if (verb === VERBS.domainChanged) return detail === 'life' ? 'to Life' : 'to Work';
  if (verb === VERBS.statusChanged) {
    return detail.split(' → ').map(laneName).join(' → ');
  }
  return detail;
}

/**
 * @param {number} n
 * @param {string} one
 * @param {string} [many]
 */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + 's'}`;
}

// categoryOf groups activity verbs the way the board's Activity feed does.
/**
 * @param {string} verb
 * @returns {string}
 */
export function categoryOf(verb) {
  const v = String(verb || '');
  if (Object.hasOwn(CATEGORY_OF, v)) return CATEGORY_OF[v];
  const family = VERB_FAMILIES.find(([prefix]) => v.startsWith(prefix));
  return family ? family[1] : 'edit';
}

/** @type {(c: string) => string} */
export const categoryName = (c) => (c ? c[0].toUpperCase() + c.slice(1) : '');
