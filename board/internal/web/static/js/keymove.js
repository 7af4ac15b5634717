// @ts-check
// Drag and drop by keyboard, the same gesture wherever an item can be
// dragged (lane cards, priority notes, the tree's nodes): Space or Enter
// picks the item up, the arrows move it (up and down within a list, left
// and right between lists; in "into" mode every arrow steps through the
// places it may go), Space or Enter drops it with the same one write a
// pointer drop makes, Escape (or leaving with Tab) puts it back with nothing
// written. Each step is said in the live region. The marks are dnd.js's, so
// both gestures look the same.
import { announce } from './announce.js';

/**
 * @typedef {object} KeyMoveOptions
 * @property {HTMLElement} el the item being moved
 * @property {string} name the item's name, as said: "'Renew lease'"
 * @property {string} zones CSS selector of the lists (or places) it may go
 * @property {string} [items] CSS selector of the items inside a list
 * @property {'list' | 'into'} [mode]
 * @property {(zone: HTMLElement) => boolean} [accept]
 * @property {HTMLElement | null} [start] where the move starts (in "into"
 *   mode, the item's place now), when that is not the list around it
 * @property {(zone: HTMLElement) => string} where how a list or place is said
 * @property {(drop: { zone: HTMLElement, index: number }) => unknown} onDrop
 * @property {() => HTMLElement | null} [refocus] the item's element after the
 *   drop's redraw (a card moved to another lane is a new element)
 */

/** @type {any} the move under way */
let active = null;

// moving reports whether a keyboard move is under way, so a view leaves
// the item alone meanwhile.
export function moving() {
  return active !== null;
}

/** @param {KeyMoveOptions} opts */
export function startKeyMove(opts) {
  if (active) stop(active);
  const mode = opts.mode || 'list';
  const zones = allZones(opts);
  if (!zones.length) return;
  const home = opts.start || /** @type {HTMLElement | null} */ (opts.el.closest(opts.zones));
  let z = home ? zones.indexOf(home) : -1;
  if (z < 0) z = 0;
  const s = { opts, mode, zones, z, index: 0, marked: /** @type {HTMLElement[]} */ ([]) };
  if (mode === 'list') {
    // Its place now: as many items before it as it has.
    const all = [...zones[z].querySelectorAll(opts.items || '')].filter((it) => it.closest(opts.zones) === zones[z]);
    s.index = Math.max(0, all.indexOf(opts.el));
  }
  active = s;
  opts.el.classList.add('is-dragging', 'is-lifted');
  opts.el.setAttribute('aria-grabbed', 'true');
  document.addEventListener('keydown', onKey, true);
  paint(s);
  announce(`Picked up ${opts.name}. ${place(s)}. Arrow keys move it, Space or Enter drops it, Escape cancels.`);
}

/** @param {KeyMoveOptions} opts */
function allZones(opts) {
  const list = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(opts.zones)]);
  return list.filter((z) => (!opts.accept || opts.accept(z)) && !(opts.mode === 'into' && (z === opts.el || opts.el.contains(z))));
}

/** @param {HTMLElement} zone */
function others(s, zone) {
  const sel = s.opts.items || '';
  return /** @type {HTMLElement[]} */ ([...zone.querySelectorAll(sel)]).filter((it) => it !== s.opts.el && it.closest(s.opts.zones) === zone);
}

function place(s) {
  const zone = s.zones[s.z];
  if (s.mode === 'into') return s.opts.where(zone);
  return `${s.opts.where(zone)}, position ${s.index + 1} of ${others(s, zone).length + 1}`;
}

function clear(s) {
  for (const el of s.marked) el.classList.remove('drop-active', 'drop-end', 'drop-into', 'drop-before');
  s.marked = [];
}

function paint(s) {
  clear(s);
  const zone = s.zones[s.z];
  if (s.mode === 'into') {
    zone.classList.add('drop-into');
    s.marked.push(zone);
    return;
  }
  zone.classList.add('drop-active');
  s.marked.push(zone);
  const before = others(s, zone)[s.index];
  if (before) {
    before.classList.add('drop-before');
    s.marked.push(before);
  } else zone.classList.add('drop-end');
}

function stop(s) {
  clear(s);
  s.opts.el.classList.remove('is-dragging', 'is-lifted');
  s.opts.el.removeAttribute('aria-grabbed');
  document.removeEventListener('keydown', onKey, true);
  active = null;
}

/**
 * @param {any} s
 * @param {number} dz lists to step across
 * @param {number} di places to step within a list
 */
function step(s, dz, di) {
  if (s.mode === 'into') {
    s.z = (s.z + dz + di + s.zones.length) % s.zones.length;
  } else {
    s.z = Math.min(s.zones.length - 1, Math.max(0, s.z + dz));
    const n = others(s, s.zones[s.z]).length;
    s.index = Math.min(n, Math.max(0, s.index + di));
  }
  paint(s);
  announce(`${s.opts.name}: ${place(s)}`);
}

/** @param {KeyboardEvent} e */
function onKey(e) {
  const s = active;
  if (!s) return;
  const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (e.key === 'Tab') {
    stop(s);
    announce(`Move of ${s.opts.name} cancelled.`);
    return;
  }
  if (!(e.key in moves) && e.key !== ' ' && e.key !== 'Enter' && e.key !== 'Escape') return;
  e.preventDefault();
  e.stopPropagation();
  if (e.key in moves) return step(s, moves[e.key][0], moves[e.key][1]);
  const zone = s.zones[s.z];
  const where = place(s);
  stop(s);
  if (e.key === 'Escape') {
    announce(`Move of ${s.opts.name} cancelled.`);
    return;
  }
  announce(`Dropped ${s.opts.name}: ${where}.`);
  drop(s, zone);
}

/**
 * @param {any} s
 * @param {HTMLElement} zone
 */
async function drop(s, zone) {
  // The keyup of the key that dropped would click the focused button.
  const swallow = (/** @type {Event} */ ev) => ev.preventDefault();
  document.addEventListener('keyup', swallow, { capture: true, once: true });
  try {
    await s.opts.onDrop({ zone, index: s.index });
  } finally {
    keepFocus(s.opts);
  }
}

// keepFocus keeps the moved item focused while the page redraws it: the
// redraw follows the write's change set, and may replace the element (a
// card in another lane) a moment after the write answered. It gives up as
// soon as the person puts the focus elsewhere, and after a few seconds.
/** @param {KeyMoveOptions} opts */
function keepFocus(opts) {
  const until = performance.now() + 3000;
  /** @type {Element | null} */
  let mine = document.activeElement;
  const check = () => {
    const now = document.activeElement;
    if (now && now !== document.body && now !== mine) return; // the person moved on
    const el = opts.refocus ? opts.refocus() : opts.el;
    if (el && el.isConnected && now !== el) el.focus({ preventScroll: true });
    mine = el || mine;
    if (performance.now() < until) setTimeout(check, 50);
  };
  check();
}
