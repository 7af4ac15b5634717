// @ts-check
// Dates in words ("tomorrow 9am", "next fri", "in 3 days"): the board reads
// them in its own time zone (api.parseDate) and the page shows the
// date it resolved before anything is saved.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { api, statusOf } from './api.js';

/**
 * @typedef {{ dueAt: string, allDay: boolean, text: string, timezone: string }} ResolvedDate
 */

/**
 * resolveDate asks the board for the date in text; null when it holds none.
 * @param {string} text
 * @returns {Promise<ResolvedDate | null>}
 */
export async function resolveDate(text) {
  if (!text.trim()) return null;
  try {
    return await api.parseDate(text);
  } catch (e) {
    if (statusOf(e) === 400) return null;
    throw e;
  }
}

/**
 * describeDate writes a resolved date as people read it: "Fri 27 Nov 2026"
 * or "Fri 27 Nov 2026, 09:00", the wall clock of the board's zone.
 * @param {ResolvedDate} r
 */
export function describeDate(r) {
  const day = new Date(r.dueAt.slice(0, 10) + 'T12:00:00Z')
    .toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return r.allDay ? day : `${day}, ${r.dueAt.slice(11, 16)}`;
}

/**
 * useResolvedDate resolves text as the person types (debounced); null while
 * there is nothing to show.
 * @param {string} text
 * @returns {ResolvedDate | null}
 */
export function useResolvedDate(text) {
  const [res, setRes] = useState(/** @type {ResolvedDate | null} */ (null));
  useEffect(() => {
    let live = true;
    setRes(null);
    if (!text.trim()) return undefined;
    const t = setTimeout(() => {
      resolveDate(text).then((r) => { if (live) setRes(r); }, () => {});
    }, 200);
    return () => { live = false; clearTimeout(t); };
  }, [text]);
  return res;
}

/**
 * NLDate is a text entry for a date in words beside a date field: it shows
 * what the board resolved and hands it over with Use (or Enter).
 * @param {{ onPick: (r: ResolvedDate) => void, label?: string }} props
 */
export function NLDate({ onPick, label = 'Due in words' }) {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState(/** @type {ResolvedDate | null} */ (null));
  const res = useResolvedDate(text);
  const use = () => {
    if (!res) return;
    onPick(res);
    setPicked(res);
    setText('');
  };
  return html`<div class="nl-date">
    <input aria-label=${label} placeholder="or type: tomorrow 9am, next fri, in 3 days" value=${text}
      onInput=${(e) => setText(e.currentTarget.value)}
      onKeyDown=${(e) => { if (e.key === 'Enter') { e.preventDefault(); use(); } }} />
    ${text.trim() ? html`<div class="muted small" role="status" data-testid="nl-date-resolved">
      ${res ? html`${describeDate(res)} <button type="button" class="btn btn-sm" onClick=${use}>Use</button>` : 'No date found yet'}</div>`
      : picked ? html`<div class="muted small" role="status">Set to ${describeDate(picked)}</div>` : null}
  </div>`;
}

/**
 * remindWords is what to read a date from in a remind command: the words
 * after the verb, unless they already end in an ISO date ('' then).
 * @param {string} text
 */
export function remindWords(text) {
  const m = /^\s*remind\s+(.+)$/i.exec(text);
  if (!m || /\d{4}-\d{2}-\d{2}\S*\s*$/.test(m[1])) return '';
  return m[1];
}

/**
 * remindWith rewrites a remind command with its date in words replaced by
 * the resolved date, last, as the command's grammar wants; null when no
 * title would be left.
 * @param {string} text
 * @param {ResolvedDate} r
 */
export function remindWith(text, r) {
  const words = remindWords(text);
  const i = words.toLowerCase().lastIndexOf(r.text.toLowerCase());
  if (!words || i < 0) return null;
  const title = (words.slice(0, i) + ' ' + words.slice(i + r.text.length)).replace(/\s+/g, ' ').trim();
  return title ? `remind ${title} ${r.dueAt}` : null;
}
