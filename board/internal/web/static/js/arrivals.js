// @ts-check
// What someone else just did to the board, in view: a case the agent (or
// the board's own jobs) created, moved or changed while this page is open
// is marked for a few seconds and said once in the live region. The
// person's own writes, from this page or another, are not: they know.
import { subscribe } from './live.js';
import { allCases, createStore } from './state.js';
import { announce } from './announce.js';
import { laneName } from './format.js';

// MARK_MS is how long a card stays marked.
export const MARK_MS = 4000;

// arrivals holds the ids of the cases marked now.
/** @type {import('./state.js').Store<Set<string>>} */
export const arrivals = createStore(new Set());

// said holds what was announced, as id@updatedAt: a change set can repeat
// a record when a surface lags behind, and it is said once all the same.
/** @type {Set<string>} */
const said = new Set();
// lanes remembers each case's lane as this page last saw it, to tell a
// move from an edit when the held list has already taken the change.
/** @type {Map<string, string>} */
const lanes = new Map();

/** @param {string} actor */
function who(actor) {
  return actor === 'agent' ? 'Agent' : 'The board';
}

/**
 * @param {any} c the case summary as it is now
 * @param {string | undefined} was its lane before, undefined when new
 * @param {string} actor
 */
function sentence(c, was, actor) {
  const title = `'${c.title}'`;
  if (was === undefined) return `${who(actor)} added ${title} to ${laneName(c.status)}`;
  if (was !== c.status) return `${who(actor)} moved ${title} to ${laneName(c.status)}`;
  return `${who(actor)} changed ${title} in ${laneName(c.status)}`;
}

// timers holds each marked card's end of mark: a card that arrives again
// while marked keeps its mark for the full time from then.
/** @type {Map<string, ReturnType<typeof setTimeout>>} */
const timers = new Map();

/** @param {string} id */
function mark(id) {
  clearTimeout(timers.get(id));
  arrivals.set((s) => (s.has(id) ? s : new Set(s).add(id)));
  timers.set(id, setTimeout(() => {
    timers.delete(id);
    arrivals.set((s) => {
      const next = new Set(s);
      next.delete(id);
      return next;
    });
  }, MARK_MS));
}

// The subscription is made when this module loads, before any view
// subscribes the case list, so the list it reads is still the one from
// before this change set.
subscribe((_v, _force, ch) => {
  if (!ch) return;
  const held = allCases.get().data;
  for (const c of (held && held.cases) || []) if (!lanes.has(c.id)) lanes.set(c.id, c.status);
  for (const r of ch.changed) {
    if (r.kind !== 'case' || !r.record) continue;
    const c = r.record;
    const was = lanes.get(c.id);
    lanes.set(c.id, c.status);
    if (!r.actor || r.actor === 'human' || c.archivedAt || c.kind === 'initiative' || c.kind === 'workstream') continue;
    const key = `${c.id}@${c.updatedAt}`;
    if (said.has(key)) continue;
    said.add(key);
    if (said.size > 500) said.delete(said.values().next().value || '');
    mark(c.id);
    announce(sentence(c, was, r.actor));
  }
  for (const r of ch.removed) if (r.kind === 'case') lanes.delete(r.id);
});
