// @ts-check
// Due items while the page is open: the tab title counts what is overdue,
// and, once the person opts in, a browser notification rings when a
// reminder, a case task or an event falls due. Everything is computed here
// from the agenda the page loaded once and the change sets of the live
// stream; a local timer wakes the page at the next due moment, so the board
// is never polled.
//
// When things ring: a timed item at its time; a date-only one at 09:00 on
// its day on the board's clock (as the calendar feed's alarm does). What
// counts as overdue follows the board's agenda: a timed task or reminder
// once its time has passed, a date-only one from the next day on; events
// ring but are never overdue.
import { useEffect } from 'preact/hooks';
import { html, Icon } from './ui.js';
import { api } from './api.js';
import { resource } from './live.js';
import { navigate } from './router.js';
import { createStore, toast } from './state.js';
import { wallToInstant, wallOf, boardToday, shiftDay } from './zone.js';

/**
 * An item with a due moment, as api.agenda lists it.
 * @typedef {object} Due
 * @property {string} kind task, reminder or event
 * @property {string} id
 * @property {string} [caseId]
 * @property {string} title
 * @property {string} dueAt a day (YYYY-MM-DD) or a datetime
 * @property {boolean} [allDay]
 */

// DAY_RING is when a date-only item rings, on the board's clock.
const DAY_RING = '09:00';
// WINDOW_DAYS is how far ahead the page holds the agenda.
const WINDOW_DAYS = 30;
// MAX_SLEEP caps one timer (browsers cap setTimeout near 24.8 days); the
// page simply looks again when it wakes.
const MAX_SLEEP = 6 * 3600 * 1000;
const OPT_KEY = 'opsboard.notify';
// RELOAD_DELAY is how long after a change to a case with open tasks, or
// to an event, the agenda is asked again (see reloadSoon).
const RELOAD_DELAY = 1000;

export { wallToInstant };

/** @param {string} day */
function nextDay(day) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

// moments reads when an item rings and when it turns overdue (ms), or null
// when its date does not read.
/**
 * @param {Due} item
 * @param {string} zone the board's zone
 * @returns {{ ring: number, overdue: number } | null}
 */
export function moments(item, zone) {
  const s = (item.dueAt || '').trim();
  let ring;
  let overdue;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    ring = wallToInstant(s, DAY_RING, zone);
    overdue = wallToInstant(nextDay(s), '00:00', zone);
  } else {
    const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(s);
    ring = m ? wallToInstant(m[1], `${m[2]}:${m[3]}`, zone) : Date.parse(s);
    if (isNaN(ring)) return null;
    overdue = ring;
  }
  if (item.kind === 'event') overdue = Infinity;
  return { ring, overdue };
}

// overdueAt lists the items overdue at instant t.
/**
 * @param {Due[]} items
 * @param {number} t
 * @param {string} zone
 */
export function overdueAt(items, t, zone) {
  return items.filter((it) => {
    const m = moments(it, zone);
    return !!m && m.overdue <= t;
  });
}

// ringingBetween lists the items that ring after from and up to to.
/**
 * @param {Due[]} items
 * @param {number} from
 * @param {number} to
 * @param {string} zone
 */
export function ringingBetween(items, from, to, zone) {
  return items.filter((it) => {
    const m = moments(it, zone);
    return !!m && m.ring > from && m.ring <= to;
  });
}

// nextMoment is the first instant after t when an item rings or turns
// overdue, or null when none will.
/**
 * @param {Due[]} items
 * @param {number} t
 * @param {string} zone
 */
export function nextMoment(items, t, zone) {
  let next = Infinity;
  for (const it of items) {
    const m = moments(it, zone);
    if (!m) continue;
    for (const x of [m.ring, m.overdue]) if (x > t && x < next) next = x;
  }
  return next === Infinity ? null : next;
}

// titled is a page title with the overdue count in front: "(3) opsboard".
/**
 * @param {string} title
 * @param {number} count
 */
export function titled(title, count) {
  const base = title.replace(/^\(\d+\) /, '');
  return count > 0 ? `(${count}) ${base}` : base;
}

// hrefOf is where an item opens in the page.
/** @param {Due} it */
export function hrefOf(it) {
  const q = encodeURIComponent;
  if (it.kind === 'reminder') return '/reminders?id=' + q(it.id);
  if (it.kind === 'task' && it.caseId) return '/board?case=' + q(it.caseId);
  return '/calendar?d=' + q((it.dueAt || '').slice(0, 10));
}

/** @param {string} s */
const isDay = (s) => /^\d{4}-\d{2}-\d{2}$/.test((s || '').trim());


// A case's summary in a change set does not hold its tasks: the agenda is
// asked again when a case with open tasks, or one whose tasks it holds,
// changed. Reminders are patched from the change set; events are asked
// again (a repeating one expands on the board).
/**
 * @param {import('./live.js').ChangeSet} ch
 * @param {any} data
 */
function needsReload(ch, data) {
  const items = /** @type {Due[]} */ ((data && data.items) || []);
  const holds = new Set(items.filter((i) => i.kind === 'task').map((i) => i.caseId));
  return ch.changed.some((r) => r.kind === 'event' || (r.kind === 'case' && (holds.has(r.id) || (r.record && r.record.taskCount > r.record.tasksDone)))) ||
    ch.removed.some((r) => r.kind === 'event' || (r.kind === 'case' && holds.has(r.id)));
}

// dues is the agenda the page keeps: overdue items and the next weeks'.
export const dues = resource(() => {
  return api.agenda(shiftDay(boardToday(), WINDOW_DAYS));
}, {
  relevant: (ch, data) => needsReload(ch, data) || [...ch.changed, ...ch.removed].some((r) => r.kind === 'reminder'),
  patch(data, ch) {
    if (needsReload(ch, data)) reloadSoon();
    const touched = new Set([...ch.changed, ...ch.removed].filter((r) => r.kind === 'reminder').map((r) => r.id));
    /** @type {Due[]} */
    const items = (data.items || []).filter((/** @type {Due} */ i) => !(i.kind === 'reminder' && touched.has(i.id)));
    for (const r of ch.changed) {
      const rec = r.record;
      if (r.kind !== 'reminder' || !rec || rec.status !== 'open' || !rec.dueAt) continue;
      items.push({ kind: 'reminder', id: rec.id, caseId: rec.caseId, title: rec.title, dueAt: rec.dueAt, allDay: isDay(rec.dueAt) });
    }
    return { ...data, items, version: ch.version };
  },
});

// reloadSoon asks the agenda again a moment after a burst of changes ends:
// a due moment is minutes away, while the view drawing the change is now.
/** @type {ReturnType<typeof setTimeout> | undefined} */
let reloadTimer;
function reloadSoon() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => dues.reload(), RELOAD_DELAY);
}

// optIn is whether the person asked to be notified, kept in this browser.
const optIn = createStore(readOptIn());

function readOptIn() {
  try {
    return localStorage.getItem(OPT_KEY) === '1';
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function setOptIn(on) {
  try {
    localStorage.setItem(OPT_KEY, on ? '1' : '0');
  } catch {
    /* private mode: the choice lasts this visit */
  }
  optIn.set(on);
}

const canNotify = () => typeof Notification !== 'undefined';

// NotifyToggle is the "Notify me" switch: turning it on asks the browser's
// permission first.
export function NotifyToggle() {
  const on = optIn.use();
  const toggle = async () => {
    if (on) {
      setOptIn(false);
      return;
    }
    if (!canNotify()) {
      toast('This browser cannot show notifications.', 'error');
      return;
    }
    let p = Notification.permission;
    if (p !== 'granted') {
      try {
        p = await Notification.requestPermission();
      } catch {
        p = 'denied';
      }
    }
    if (p !== 'granted') {
      toast('Notifications are blocked for this page in the browser’s site settings.', 'error');
      return;
    }
    setOptIn(true);
    toast('You will be notified when reminders, tasks and events fall due while the board is open.', 'ok');
  };
  const label = on ? 'Notify me: on (turn off)' : 'Notify me when reminders, tasks and events fall due';
  return html`<button type="button" class=${'icon-btn' + (on ? ' on' : '')} aria-pressed=${on ? 'true' : 'false'} aria-label=${label} title=${label}
    data-notify-toggle onClick=${toggle}><${Icon} name="bell" size=${16} /></button>`;
}

// What the effect keeps between wake-ups: items ring once, and only those
// whose moment passes while the page is open (what fell due before shows in
// the title count, not as a burst of notifications).
const seen = { since: Date.now(), fired: new Set(), count: 0, moved: 0 };

function applyTitle() {
  const want = titled(document.title, seen.count);
  if (document.title !== want) document.title = want;
}

/** @param {Due} it */
function ring(it) {
  const when = isDay(it.dueAt) ? 'today' : (wallOf(it.dueAt) || { time: '' }).time; // on the board's clock
  const kind = { reminder: 'Reminder', task: 'Task', event: 'Event' }[it.kind] || 'Due';
  try {
    const n = new Notification(it.title, { body: `${kind} ${it.kind === 'event' ? 'starts' : 'due'} ${when}`, tag: `${it.kind}:${it.id}:${it.dueAt}` });
    n.onclick = () => {
      window.focus();
      navigate(hrefOf(it));
      n.close();
    };
  } catch (e) {
    console.warn('notification', e);
  }
}

// Notifier keeps the title count and the next wake-up current; it draws
// nothing.
export function Notifier() {
  const { data } = dues.use();
  const on = optIn.use();
  useEffect(() => {
    const el = document.querySelector('title');
    if (!el) return undefined;
    // Views set the title as they open; the count stays in front of it.
    const obs = new MutationObserver(applyTitle);
    obs.observe(el, { childList: true, characterData: true, subtree: true });
    return () => obs.disconnect();
  }, []);
  useEffect(() => {
    if (!data) return undefined;
    const items = /** @type {Due[]} */ (data.items || []);
    const zone = data.timezone || '';
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const tick = () => {
      const now = Date.now();
      seen.count = overdueAt(items, now, zone).filter((i) => i.kind !== 'event').length;
      applyTitle();
      for (const it of ringingBetween(items, seen.since, now, zone)) {
        // By instant, not text: the agenda and a change set may write one
        // due time differently.
        const m = moments(it, zone);
        const key = `${it.kind}:${it.id}:${m ? m.ring : it.dueAt}`;
        if (seen.fired.has(key)) continue;
        seen.fired.add(key);
        if (on && canNotify() && Notification.permission === 'granted') ring(it);
      }
      seen.since = now;
      // The held agenda ends at data.to: past it, ask for the next weeks.
      const end = Date.parse(data.to);
      if (end <= now) {
        // At most hourly: a browser clock far ahead of the board's must not
        // turn this into a loop of requests.
        if (now - seen.moved > 3600 * 1000) {
          seen.moved = now;
          dues.reload();
        }
        return;
      }
      const next = Math.min(nextMoment(items, now, zone) ?? Infinity, end || Infinity);
      if (next !== Infinity) timer = setTimeout(tick, Math.min(Math.max(next - now, 0) + 50, MAX_SLEEP));
    };
    tick();
    return () => clearTimeout(timer);
  }, [data, on]);
  return null;
}
