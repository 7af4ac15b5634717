// @ts-check
// The repeat control: a small builder of the board's recurrence rules (a
// subset of an RFC 5545 RRULE: daily, weekly on days, monthly on a day or on
// the nth weekday, yearly; every N; ends never, on a date or after N times)
// in plain words, and a rule said back in words ("every 2 weeks on Mon,
// Thu"). The board checks every rule it is sent; this file only builds and
// reads them.
import { useState } from 'preact/hooks';
import { html, Modal } from './ui.js';

const CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const LONG = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const UNITS = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' };
const ADVERBS = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly', YEARLY: 'yearly' };

/** @param {number} n */
function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  return n + suffix;
}

/** @param {number} n 2 -> 2nd, -1 -> last, -2 -> 2nd-to-last */
function nth(n) {
  if (n === -1) return 'last';
  return n < 0 ? ordinal(-n) + '-to-last' : ordinal(n);
}

/**
 * @typedef {object} Rule
 * @property {string} freq DAILY, WEEKLY, MONTHLY or YEARLY
 * @property {number} interval
 * @property {{ n: number, day: number }[]} byDay day: 0 is Monday
 * @property {number[]} byMonthDay
 * @property {string} until YYYYMMDD or a time
 * @property {number} count
 */

/**
 * parseRule reads a rule of the subset; null when it is not one.
 * @param {string | undefined} s
 * @returns {Rule | null}
 */
export function parseRule(s) {
  const text = String(s || '').trim().toUpperCase().replace(/^RRULE:/, '').replace(/;$/, '');
  if (!text) return null;
  /** @type {Rule} */
  const r = { freq: '', interval: 1, byDay: [], byMonthDay: [], until: '', count: 0 };
  for (const part of text.split(';')) {
    const [k, v] = part.split('=');
    if (!v) return null;
    if (k === 'FREQ' && UNITS[v]) r.freq = v;
    else if (k === 'INTERVAL' && +v >= 1) r.interval = +v;
    else if (k === 'COUNT' && +v >= 1) r.count = +v;
    else if (k === 'UNTIL') r.until = v;
    else if (k === 'BYMONTHDAY') r.byMonthDay = v.split(',').map(Number);
    else if (k === 'BYDAY') {
      for (const d of v.split(',')) {
        const m = /^([+-]?\d)?(MO|TU|WE|TH|FR|SA|SU)$/.exec(d);
        if (!m) return null;
        r.byDay.push({ n: m[1] ? +m[1] : 0, day: CODES.indexOf(m[2]) });
      }
    } else return null;
  }
  return r.freq ? r : null;
}

/**
 * describeRule says a rule in plain words, as the board's tools do; a rule
 * this page cannot read shows as written.
 * @param {string | undefined} s
 */
export function describeRule(s) {
  const r = parseRule(s);
  if (!r) return String(s || '');
  let out = r.interval > 1 ? `every ${r.interval} ${UNITS[r.freq]}s` : ADVERBS[r.freq];
  if (r.freq === 'WEEKLY' && r.byDay.length) out += ' on ' + [...r.byDay].sort((a, b) => a.day - b.day).map((d) => SHORT[d.day]).join(', ');
  if (r.freq === 'MONTHLY' && r.byDay.length === 1) out += ` on the ${nth(r.byDay[0].n)} ${LONG[r.byDay[0].day]}`;
  if (r.freq === 'MONTHLY' && r.byMonthDay.length) {
    const names = r.byMonthDay.map((n) => (n < 0 ? nth(n) + ' day' : ordinal(n)));
    out += ' on the ' + (names.length > 1 ? names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1] : names[0]);
  }
  if (r.count === 1) out += ', once';
  else if (r.count > 1) out += `, ${r.count} times`;
  else if (r.until) out += `, until ${r.until.slice(0, 4)}-${r.until.slice(4, 6)}-${r.until.slice(6, 8)}`;
  return out;
}

/**
 * The builder's state.
 * @typedef {object} Form
 * @property {string} kind none, daily, weekly, monthday, monthnth, yearly or custom
 * @property {number} interval
 * @property {string[]} days weekday codes of a weekly rule
 * @property {number} monthDay 1..31, or -1 for the last day
 * @property {number} nth 1..5, or -1 for the last
 * @property {string} nthDay weekday code
 * @property {string} end never, until or count
 * @property {string} until YYYY-MM-DD
 * @property {number} count
 * @property {string} raw a rule the builder cannot show, kept as it is
 */

/** @param {string | undefined} start a due date or event date */
function startParts(start) {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(start || ''));
  const d = m ? new Date(+m[1], +m[2] - 1, +m[3]) : new Date();
  const wd = (d.getDay() + 6) % 7;
  return { code: CODES[wd], day: d.getDate(), week: d.getDate() > 28 ? -1 : Math.ceil(d.getDate() / 7) };
}

/**
 * toForm reads a rule into the builder; start gives the defaults (the
 * weekday and day of the month of the due date).
 * @param {string | undefined} rule
 * @param {string | undefined} start
 * @returns {Form}
 */
export function toForm(rule, start) {
  const p = startParts(start);
  /** @type {Form} */
  const f = { kind: 'none', interval: 1, days: [p.code], monthDay: p.day, nth: p.week, nthDay: p.code, end: 'never', until: '', count: 5, raw: '' };
  if (!String(rule || '').trim()) return f;
  const r = parseRule(rule);
  const custom = { ...f, kind: 'custom', raw: String(rule) };
  if (!r) return custom;
  f.interval = r.interval;
  if (r.count) Object.assign(f, { end: 'count', count: r.count });
  if (r.until) {
    if (!/^\d{8}$/.test(r.until)) return custom;
    Object.assign(f, { end: 'until', until: `${r.until.slice(0, 4)}-${r.until.slice(4, 6)}-${r.until.slice(6, 8)}` });
  }
  if (r.freq === 'DAILY') f.kind = 'daily';
  else if (r.freq === 'YEARLY') f.kind = 'yearly';
  else if (r.freq === 'WEEKLY') {
    f.kind = 'weekly';
    if (r.byDay.length) f.days = r.byDay.map((d) => CODES[d.day]);
  } else if (r.byDay.length === 1) Object.assign(f, { kind: 'monthnth', nth: r.byDay[0].n, nthDay: CODES[r.byDay[0].day] });
  else if (r.byMonthDay.length <= 1) Object.assign(f, { kind: 'monthday', monthDay: r.byMonthDay[0] || p.day });
  else return custom;
  return f;
}

/**
 * toRule writes the builder's state as the board's canonical rule; "" for
 * a one-off.
 * @param {Form} f
 */
export function toRule(f) {
  if (f.kind === 'none') return '';
  if (f.kind === 'custom') return f.raw;
  const freq = { daily: 'DAILY', weekly: 'WEEKLY', monthday: 'MONTHLY', monthnth: 'MONTHLY', yearly: 'YEARLY' }[f.kind];
  const parts = ['FREQ=' + freq];
  if (f.interval > 1) parts.push('INTERVAL=' + Math.floor(f.interval));
  if (f.kind === 'weekly' && f.days.length) parts.push('BYDAY=' + CODES.filter((c) => f.days.includes(c)).join(','));
  if (f.kind === 'monthnth') parts.push(`BYDAY=${f.nth}${f.nthDay}`);
  if (f.kind === 'monthday') parts.push('BYMONTHDAY=' + f.monthDay);
  if (f.end === 'until' && f.until) parts.push('UNTIL=' + f.until.replaceAll('-', ''));
  if (f.end === 'count' && f.count >= 1) parts.push('COUNT=' + Math.floor(f.count));
  return parts.join(';');
}

/**
 * RepeatField is the builder: pick how often, every how many, on which
 * days, until when; it reports the rule on every change and says it back in
 * words.
 * @param {{ value: string, start?: string, onChange: (rule: string) => void }} props
 */
export function RepeatField({ value, start, onChange }) {
  const [f, setF] = useState(() => toForm(value, start));
  const p = startParts(start);
  const change = (patch) => {
    const next = { ...f, ...patch };
    setF(next);
    onChange(toRule(next));
  };
  // Picking how often starts from the due date as it is now: its weekday,
  // its day of the month, its week of the month.
  const num = (e) => Math.max(1, parseInt(e.target.value, 10) || 1);
  const unit = { daily: 'days', weekly: 'weeks', monthday: 'months', monthnth: 'months', yearly: 'years' }[f.kind];
  const kinds = [
    ['none', 'Does not repeat'], ['daily', 'Daily'], ['weekly', 'Weekly on…'],
    ['monthday', `Monthly on day ${f.kind === 'monthday' ? f.monthDay === -1 ? 'last' : f.monthDay : p.day}`],
    ['monthnth', `Monthly on the ${nth(f.kind === 'monthnth' ? f.nth : p.week)} ${LONG[CODES.indexOf(f.kind === 'monthnth' ? f.nthDay : p.code)]}`],
    ['yearly', 'Yearly'],
  ];
  if (f.kind === 'custom') kinds.push(['custom', 'Custom: ' + describeRule(f.raw)]);
  const words = describeRule(toRule(f));
  return html`<fieldset class="field span2 repeat-field">
    <legend>Repeat</legend>
    <div class="repeat-row">
      <select aria-label="Repeat" value=${f.kind} onChange=${(e) => change({ kind: e.target.value, days: [p.code], monthDay: p.day, nth: p.week, nthDay: p.code })}>
        ${kinds.map(([k, label]) => html`<option value=${k}>${label}</option>`)}
      </select>
      ${f.kind !== 'none' && f.kind !== 'custom' ? html`<label class="repeat-every">every
        <input type="number" min="1" max="999" aria-label="Repeat every" value=${f.interval} onInput=${(e) => change({ interval: num(e) })} /> ${unit}</label>` : null}
    </div>
    ${f.kind === 'weekly' ? html`<div class="repeat-days" role="group" aria-label="Repeat on">
      ${CODES.map((c, i) => html`<label class="repeat-day"><input type="checkbox" aria-label=${'Repeat on ' + LONG[i]} checked=${f.days.includes(c)}
        onChange=${(e) => change({ days: e.target.checked ? [...f.days, c] : f.days.filter((d) => d !== c) })} />${SHORT[i]}</label>`)}
    </div>` : null}
    ${f.kind === 'monthday' ? html`<label class="repeat-row">on day
      <select aria-label="Day of the month" value=${String(f.monthDay)} onChange=${(e) => change({ monthDay: +e.target.value })}>
        ${Array.from({ length: 31 }, (_, i) => html`<option value=${String(i + 1)}>${i + 1}</option>`)}<option value="-1">last</option>
      </select></label>` : null}
    ${f.kind === 'monthnth' ? html`<div class="repeat-row">on the
      <select aria-label="Which week" value=${String(f.nth)} onChange=${(e) => change({ nth: +e.target.value })}>
        ${[1, 2, 3, 4, 5, -1].map((n) => html`<option value=${String(n)}>${nth(n)}</option>`)}
      </select>
      <select aria-label="Weekday" value=${f.nthDay} onChange=${(e) => change({ nthDay: e.target.value })}>
        ${CODES.map((c, i) => html`<option value=${c}>${LONG[i]}</option>`)}
      </select></div>` : null}
    ${f.kind !== 'none' && f.kind !== 'custom' ? html`<div class="repeat-row">ends
      <select aria-label="Ends" value=${f.end} onChange=${(e) => change({ end: e.target.value })}>
        <option value="never">never</option><option value="until">on a date</option><option value="count">after a number of times</option>
      </select>
      ${f.end === 'until' ? html`<input type="date" aria-label="Last day" value=${f.until} onInput=${(e) => change({ until: e.target.value })} />` : null}
      ${f.end === 'count' ? html`<input type="number" min="1" max="999" aria-label="Times" value=${f.count} onInput=${(e) => change({ count: num(e) })} />` : null}
    </div>` : null}
    ${words ? html`<p class="muted small repeat-words" aria-live="polite">Repeats ${words}.</p>` : null}
  </fieldset>`;
}

/**
 * RepeatText shows a record's rule in words, or nothing.
 * @param {{ rule?: string }} props
 */
export function RepeatText({ rule }) {
  if (!rule) return null;
  const words = describeRule(rule);
  return html`<span class="repeat-text" title=${'Repeats ' + words}><span aria-hidden="true">↻ </span>${words}</span>`;
}

/**
 * RepeatDialog edits the rule of a record that has no editor of its own (a
 * case's task): it saves the rule, "" to stop repeating.
 * @param {{ title: string, value?: string, start?: string, onSave: (rule: string) => Promise<void> | void, onClose: () => void }} props
 */
export function RepeatDialog({ title, value, start, onSave, onClose }) {
  const [rule, setRule] = useState(value || '');
  const save = async (e) => {
    e.preventDefault();
    await onSave(rule);
    onClose();
  };
  return html`<${Modal} title=${title} onClose=${onClose} labelledBy="repeat-title"
    footer=${html`<div class="grow"></div><button type="button" class="btn" onClick=${onClose}>Cancel</button>
      <button type="submit" form="repeat-form" class="btn btn-primary">Save</button>`}>
    <form id="repeat-form" class="form-grid" onSubmit=${save}>
      ${!start ? html`<p class="muted small span2">A repeating item needs a due date to repeat from.</p>` : null}
      <${RepeatField} value=${rule} start=${start} onChange=${setRule} />
    </form>
  </${Modal}>`;
}
