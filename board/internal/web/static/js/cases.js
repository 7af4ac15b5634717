// @ts-check
// Case rules and actions more than one view uses: where a card sits in its
// lane, which parent may hold which case, and the one-click writes (star,
// move, rename, trash, restore). Every action reports its own failure.
import { api } from './api.js';
import { toast, fail } from './state.js';

// canHold says whether parent may contain child under the hierarchy rules.
/** @typedef {{ id: string, kind?: string }} Node */
/**
 * @param {Node | undefined} parent
 * @param {Node} child
 */
export function canHold(parent, child) {
  if (!parent || parent.id === child.id) return false;
  const ck = child.kind || 'case';
  if (parent.kind === 'initiative') return ck === 'workstream' || ck === 'case';
  if (parent.kind === 'workstream') return ck === 'case';
  return false;
}

/**
 * Ordered is a task of a case's checklist, placed by position, else by
 * creation (lanes have their own order: lanes.js).
 * @typedef {{ id?: string, position?: number, createdAt?: string }} Ordered
 */

// checklistKey places a task in its checklist: its manual position when it has
// one, otherwise its creation time in seconds, oldest first, so every task
// has a place and a drop needs one write (a position between its new
// neighbours).
/**
 * @param {Ordered} c
 * @returns {number}
 */
export function checklistKey(c) {
  if (typeof c.position === 'number') return c.position;
  const t = Date.parse(c.createdAt || '');
  return isNaN(t) ? 0 : t / 1000;
}

// sortTasks is a checklist in its order.
/**
 * @template {Ordered} T
 * @param {T[]} list
 * @returns {T[]}
 */
export function sortTasks(list) {
  return [...list].sort((a, b) => checklistKey(a) - checklistKey(b) || String(a.createdAt).localeCompare(String(b.createdAt)) || (a.id || '').localeCompare(b.id || ''));
}

// taskPositionAt is the position for a task dropped at index of the others.
/**
 * @param {Ordered[]} others
 * @param {number} index
 * @returns {number | undefined}
 */
export function taskPositionAt(others, index) {
  const prev = others[index - 1];
  const next = others[index];
  if (!prev && !next) return undefined;
  if (!prev) return checklistKey(next) - 1;
  if (!next) return checklistKey(prev) + 1;
  return (checklistKey(prev) + checklistKey(next)) / 2;
}

/** @param {import('./types.js').Case} c */
export async function toggleStar(c) {
  try {
    await api.cases.patch(c.id, { starred: !c.starred });
  } catch (e) {
    fail(e);
  }
}

// archiveCase moves a case to Trash, with an Undo.
/** @param {import('./types.js').Case} c */
export async function archiveCase(c) {
  try {
    await api.cases.remove(c.id);
    toast(`Moved “${c.title}” to Trash`, 'info', { label: 'Undo', run: () => restoreCase(c) });
  } catch (e) {
    fail(e);
  }
}

/** @param {import('./types.js').Case} c */
export async function restoreCase(c) {
  try {
    await api.cases.restore(c.id);
    toast(`Restored “${c.title}”`, 'ok');
  } catch (e) {
    fail(e);
  }
}

/**
 * @param {import('./types.js').Case} c
 * @param {import('./types.js').Lane} lane
 */
export async function moveCase(c, lane) {
  try {
    await api.cases.patch(c.id, { status: lane });
  } catch (e) {
    fail(e);
  }
}

/**
 * @param {import('./types.js').Case} c
 * @param {string} title
 */
export async function renameCase(c, title) {
  try {
    await api.cases.patch(c.id, { title });
  } catch (e) {
    fail(e);
  }
}
