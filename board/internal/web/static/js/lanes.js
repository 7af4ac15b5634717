// @ts-check
// Where a card sits in its lane: the page's copy of the board's lane order
// (wire.LaneKey and wire.CompareLane in Go; the tools list in it too).
// Every card has one key, its position, else minus its creation time in
// seconds, so the newest card without a position is on top and a drop
// writes one position between its new neighbours' keys.

/** @typedef {{ id?: string, position?: number, createdAt?: string }} Spot */

/**
 * @param {Spot} c
 * @returns {number}
 */
export function laneKey(c) {
  if (typeof c.position === 'number') return c.position;
  const t = Date.parse(c.createdAt || '');
  return isNaN(t) ? 0 : -(t / 1000);
}

// compareLane orders two cards: by key, ties by id ascending (code units,
// as Go compares strings).
/**
 * @param {Spot} a
 * @param {Spot} b
 */
export function compareLane(a, b) {
  const d = laneKey(a) - laneKey(b);
  if (d) return d;
  const x = a.id || '';
  const y = b.id || '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * @template {Spot} T
 * @param {T[]} list
 * @returns {T[]}
 */
export function sortLane(list) {
  return [...list].sort(compareLane);
}

// positionAt is the position for a card dropped at index of its lane's
// other cards (in lane order), or undefined in an empty lane.
/**
 * @param {Spot[]} others
 * @param {number} index
 * @returns {number | undefined}
 */
export function positionAt(others, index) {
  const prev = others[index - 1];
  const next = others[index];
  if (!prev && !next) return undefined;
  if (!prev) return laneKey(next) - 1;
  if (!next) return laneKey(prev) + 1;
  return (laneKey(prev) + laneKey(next)) / 2;
}
