// @ts-check
// Time on the board's clock. The board keeps one time zone (its IANA name,
// from the health answer): a date or time it stores without an offset is a
// wall-clock time there, an instant is shown there, and "today" is its
// today, whatever zone the browser runs in. Every date and time the page
// shows goes through this module, which formats with Intl.DateTimeFormat in
// that zone. Until the board says, the browser's zone stands in.

let zone = '';

/** @type {Map<string, Intl.DateTimeFormat>} */
const fmts = new Map();

// fmt is a formatter in the board's zone, kept per zone and options.
/**
 * @param {string} key
 * @param {Intl.DateTimeFormatOptions} opts
 * @param {string} [locale] undefined: the person's
 */
function fmt(key, opts, locale) {
  const k = zone + '|' + key;
  let f = fmts.get(k);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...opts, timeZone: zone || undefined });
    fmts.set(k, f);
  }
  return f;
}

// setZone takes the board's zone; it answers whether it changed. A zone
// this browser does not know leaves the browser's own.
/** @param {string | undefined | null} z */
export function setZone(z) {
  if (!z || z === zone) return false;
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: z });
  } catch {
    return false;
  }
  zone = z;
  return true;
}

// boardZone is the board's zone ('' until the board said).
export const boardZone = () => zone;

// browserZone is the zone the browser runs in.
export const browserZone = () => new Intl.DateTimeFormat().resolvedOptions().timeZone || '';

// zoneDiffers says whether the board's clock is not the browser's, so the
// page names the board's zone once.
export function zoneDiffers() {
  if (!zone) return false;
  const t = Date.now();
  return zone !== browserZone() && offsetAt(t, zone) !== offsetAt(t, '');
}

// wallOfDate is an instant as YYYY-MM-DD and HH:MM on the board's clock.
/** @param {Date} d */
export function wallOfDate(d) {
  /** @type {Record<string, string>} */
  const p = {};
  const f = fmt('wall', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, 'en-CA');
  for (const x of f.formatToParts(d)) p[x.type] = x.value;
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour === '24' ? '00' : p.hour}:${p.minute}` };
}

// wallOf reads a stored date or datetime as the board's calendar day and,
// when it has one, its time of day (HH:MM): a bare day stays a day, a time
// without an offset is taken as written, one with an offset is moved into
// the board's zone.
/**
 * @param {string | undefined | null} s
 * @returns {{ day: string, time: string } | null}
 */
export function wallOf(s) {
  if (!s) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return { day: s, time: '' };
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (m && !m[4]) return { day: m[1], time: `${m[2]}:${m[3]}` };
  const d = new Date(s);
  return isNaN(d.getTime()) ? null : wallOfDate(d);
}

// boardToday is today's date on the board's clock.
export function boardToday() {
  return wallOfDate(new Date()).day;
}

// boardNow is the board's wall clock now: its day and HH:MM.
export function boardNow() {
  return wallOfDate(new Date());
}

// dayOf is the board's calendar day of a stored date or instant ('' when
// it does not read).
/** @param {string | undefined | null} s */
export function dayOf(s) {
  const w = wallOf(s);
  return w ? w.day : '';
}

// clockOf is an instant's time of day on the board's clock, in the
// person's way of writing it ("15:04", "3:04 PM").
/** @param {string | undefined | null} s */
export function clockOf(s) {
  const d = new Date(s || '');
  return isNaN(d.getTime()) ? '' : fmt('clock', { hour: 'numeric', minute: '2-digit' }).format(d);
}

// dateTimeOf is an instant's full date and time on the board's clock.
/** @param {string | undefined | null} s */
export function dateTimeOf(s) {
  const d = new Date(s || '');
  return isNaN(d.getTime()) ? String(s || '') : fmt('full', { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

// offsetAt is how far zone z's wall clock is ahead of UTC at instant t
// (ms); '' is the browser's zone.
/**
 * @param {number} t
 * @param {string} z
 */
export function offsetAt(t, z) {
  const k = 'offset|' + z;
  let f = fmts.get(k);
  if (!f) {
    const opts = /** @type {Intl.DateTimeFormatOptions} */ ({ hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    try {
      f = new Intl.DateTimeFormat('en-US', { ...opts, timeZone: z || undefined });
    } catch {
      f = new Intl.DateTimeFormat('en-US', opts);
    }
    fmts.set(k, f);
  }
  /** @type {Record<string, number>} */
  const p = {};
  for (const x of f.formatToParts(new Date(t))) p[x.type] = Number(x.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
  return wall - Math.floor(t / 1000) * 1000;
}

// wallToInstant is the instant (ms) a wall-clock day and HH:MM in zone z
// name ('' the browser's zone); a time a daylight saving change skips
// lands just after it.
/**
 * @param {string} day YYYY-MM-DD
 * @param {string} time HH:MM
 * @param {string} [z] defaults to the board's zone
 */
export function wallToInstant(day, time, z = zone) {
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const guess = Date.UTC(y, m - 1, d, hh, mm);
  const first = offsetAt(guess, z);
  const t = guess - first;
  const second = offsetAt(t, z);
  return second === first ? t : guess - second;
}

// shiftDay is a YYYY-MM-DD day n days later (earlier when n < 0).
/**
 * @param {string} day
 * @param {number} n
 */
export function shiftDay(day, n) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
