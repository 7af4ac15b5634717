// @ts-check
// Calendar: a month grid and a week grid of events; create, edit, delete and
// link an event to a case.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Icon, Problem, Segmented } from '../ui.js';
import { api } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { isoDay, parseDay, addDays, todayISO } from '../format.js';
import { boardNow } from '../zone.js';
import { EventEditor } from '../editors.js';

// firstWeekday is 0 (Sunday) or 1 (Monday), from the person's locale.
function firstWeekday() {
  try {
    /** @type {any} getWeekInfo is not in every engine (nor in TypeScript's lib) yet */
    const loc = new Intl.Locale(navigator.language);
    const info = (loc.getWeekInfo && loc.getWeekInfo()) || loc.weekInfo;
    if (info && info.firstDay) return info.firstDay % 7;
  } catch {
    /* older engines: Monday */
  }
  return 1;
}
const FIRST = firstWeekday();

function startOfWeek(d) {
  const x = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const diff = (x.getDay() - FIRST + 7) % 7;
  return addDays(x, -diff);
}

const monthFmt = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
const wdFmt = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const rangeFmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

function minutes(t) {
  const m = /^(\d{1,2}):(\d{2})/.exec(t || '');
  return m ? +m[1] * 60 + +m[2] : null;
}

function sortEvents(list) {
  return [...list].sort((a, b) => (a.allDay === b.allDay ? 0 : a.allDay ? -1 : 1) || String(a.startTime || '').localeCompare(String(b.startTime || '')) || a.title.localeCompare(b.title));
}

/** @param {{ route: import('../types.js').Route }} props */
export function CalendarPage({ route }) {
  const mode = route.query.get('mode') === 'week' ? 'week' : 'month';
  const anchor = parseDay(route.query.get('d') || '') || /** @type {Date} */ (parseDay(todayISO()));
  const [editing, setEditing] = useState(/** @type {Partial<import('../types.js').CalendarEvent> | null} */ (null));
  let days;
  let title;
  if (mode === 'month') {
    const first = new Date(anchor.getFullYear(), anchor.getMonth(), 1);
    const start = startOfWeek(first);
    days = Array.from({ length: 42 }, (_, i) => addDays(start, i));
    title = monthFmt.format(first);
  } else {
    const start = startOfWeek(anchor);
    days = Array.from({ length: 7 }, (_, i) => addDays(start, i));
    title = `${rangeFmt.format(days[0])} – ${rangeFmt.format(days[6])}, ${days[6].getFullYear()}`;
  }
  const from = isoDay(days[0]);
  const to = isoDay(addDays(days[days.length - 1], 1));
  const { data, error } = useLive(() => api.events.list({ from, to }), [from, to], { kinds: ['event'] });
  const events = (data && data.events) || [];
  const byDay = {};
  for (const e of sortEvents(events)) (byDay[e.date] = byDay[e.date] || []).push(e);
  // An occurrence opens its series: the editor edits the master.
  const open = (e) => (e.occurrenceOf ? api.events.get(e.occurrenceOf).then((d) => setEditing(d.event), () => setEditing(e)) : setEditing(e));
  const step = (n) => {
    const d = mode === 'month' ? new Date(anchor.getFullYear(), anchor.getMonth() + n, 1) : addDays(anchor, 7 * n);
    setQuery({ d: isoDay(d) });
  };
  const onKey = (e) => {
    if (e.target.closest('input,textarea,select')) return;
    if (e.key === 'ArrowLeft') step(-1);
    if (e.key === 'ArrowRight') step(1);
  };
  return html`<section class="page page-calendar" aria-labelledby="page-title" onKeyDown=${onKey}>
    <header class="page-head"><div class="page-title-row">
      <h1 id="page-title">Calendar</h1>
      <div class="btn-row">
        <button type="button" class="btn" onClick=${() => setQuery({ d: null })}>Today</button>
        <button type="button" class="icon-btn" aria-label=${mode === 'month' ? 'Previous month' : 'Previous week'} onClick=${() => step(-1)}><${Icon} name="chevronLeft" /></button>
        <button type="button" class="icon-btn" aria-label=${mode === 'month' ? 'Next month' : 'Next week'} onClick=${() => step(1)}><${Icon} name="chevronRight" /></button>
      </div>
      <h2 class="cal-title" aria-live="polite">${title}</h2>
      <div class="grow"></div>
      <${Segmented} label="Calendar view" value=${mode} onChange=${(m) => setQuery({ mode: m === 'week' ? 'week' : null })}
        options=${[{ value: 'month', label: 'Month' }, { value: 'week', label: 'Week' }]} />
      <a class="btn btn-ghost" href=${api.events.icsURL} data-native title="Subscribe from a calendar app"><${Icon} name="link" size=${14} />.ics</a>
      <button type="button" class="btn btn-primary" onClick=${() => setEditing({ date: todayISO() })}><${Icon} name="plus" size=${15} />New event</button>
    </div></header>
    <${Problem} error=${error} what="The calendar" />
    ${mode === 'month'
      ? html`<${Month} days=${days} month=${anchor.getMonth()} byDay=${byDay} onNew=${(date) => setEditing({ date })} onOpen=${open} />`
      : html`<${Week} days=${days} byDay=${byDay} onNew=${(date, startTime) => setEditing({ date, startTime, endTime: startTime ? hourAfter(startTime) : undefined })} onOpen=${open} />`}
    ${editing ? html`<${EventEditor} value=${editing} onClose=${() => setEditing(null)} />` : null}
  </section>`;
}

function hourAfter(t) {
  const m = Math.min((minutes(t) ?? 0) + 60, 23 * 60 + 59);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

function Month({ days, month, byDay, onNew, onOpen }) {
  const today = todayISO();
  return html`<div class="month" role="grid" aria-label="Month">
    <div class="month-head" role="row">${days.slice(0, 7).map((d) => html`<div role="columnheader" class="wd">${wdFmt.format(d)}</div>`)}</div>
    <div class="month-body">
      ${Array.from({ length: 6 }, (_, w) => html`<div class="month-week" role="row" key=${w}>
        ${days.slice(w * 7, w * 7 + 7).map((d) => {
          const day = isoDay(d);
          const list = byDay[day] || [];
          return html`<div key=${day} role="gridcell" class=${'day' + (d.getMonth() !== month ? ' other' : '') + (day === today ? ' today' : '')}
            onClick=${(e) => { if (e.target === e.currentTarget) onNew(day); }}>
            <button type="button" class="day-num" aria-label=${d.getDate() + ': new event on ' + day} onClick=${() => onNew(day)}>${d.getDate()}</button>
            <div class="day-events">
              ${list.slice(0, 4).map((e) => html`<button type="button" key=${e.id} class=${'ev' + (e.caseId ? ' linked' : '') + (e.domain === 'life' ? ' life' : '')} title=${e.title} onClick=${() => onOpen(e)}>
                ${e.allDay ? null : html`<span class="ev-time">${e.startTime}</span>`}<span class="ev-title">${e.repeat ? '↻ ' : ''}${e.title}</span></button>`)}
              ${list.length > 4 ? html`<span class="ev-more">+${list.length - 4} more</span>` : null}
            </div>
          </div>`;
        })}
      </div>`)}
    </div>
  </div>`;
}

const HOUR = 44;

// layout gives overlapping timed events side-by-side columns.
function layout(list) {
  const items = list.map((e) => {
    const s = minutes(e.startTime) ?? 0;
    let en = minutes(e.endTime);
    if (en === null || en <= s) en = s + 60;
    return { e, s, en, col: 0, cols: 1 };
  }).sort((a, b) => a.s - b.s);
  let group = [];
  let end = -1;
  const flush = () => {
    const n = Math.max(1, ...group.map((x) => x.col + 1));
    for (const x of group) x.cols = n;
    group = [];
  };
  for (const it of items) {
    if (it.s >= end) flush();
    const used = new Set(group.filter((x) => x.en > it.s).map((x) => x.col));
    let c = 0;
    while (used.has(c)) c++;
    it.col = c;
    group.push(it);
    end = Math.max(end, it.en);
  }
  flush();
  return items;
}

function Week({ days, byDay, onNew, onOpen }) {
  const body = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => {
    if (body.current) body.current.scrollTop = HOUR * 7 - 10;
  }, []);
  const today = todayISO();
  const nowTop = ((minutes(boardNow().time) ?? 0) / 60) * HOUR;
  return html`<div class="week" role="grid" aria-label="Week">
    <div class="week-head" role="row"><div class="gutter"></div>
      ${days.map((d) => html`<div role="columnheader" class=${'week-day' + (isoDay(d) === today ? ' today' : '')}>
        <span class="wd">${wdFmt.format(d)}</span><span class="wd-num">${d.getDate()}</span></div>`)}
    </div>
    <div class="week-allday" role="row"><div class="gutter small muted">all day</div>
      ${days.map((d) => {
        const day = isoDay(d);
        return html`<div class="allday-cell" role="gridcell">${(byDay[day] || []).filter((e) => e.allDay).map((e) => html`<button type="button" key=${e.id} class="ev" onClick=${() => onOpen(e)}>${e.title}</button>`)}</div>`;
      })}
    </div>
    <div class="week-body" ref=${body}>
      <div class="week-grid" role="row" style=${`height:${HOUR * 24}px`}>
        <div class="gutter">${Array.from({ length: 24 }, (_, h) => html`<div class="hour-label" style=${`top:${h * HOUR}px`}>${h ? `${String(h).padStart(2, '0')}:00` : ''}</div>`)}</div>
        ${days.map((d) => {
          const day = isoDay(d);
          const timed = layout((byDay[day] || []).filter((e) => !e.allDay));
          return html`<div class=${'week-col' + (day === today ? ' today' : '')} role="gridcell"
            onClick=${(ev) => {
              if (ev.target !== ev.currentTarget) return;
              const r = ev.currentTarget.getBoundingClientRect();
              const h = Math.max(0, Math.min(23, Math.floor((ev.clientY - r.top) / HOUR)));
              onNew(day, `${String(h).padStart(2, '0')}:00`);
            }}>
            <span class="sr-only">${day}</span>
            ${timed.map(({ e, s, en, col, cols }) => html`<button type="button" key=${e.id} class=${'ev ev-timed' + (en - s < 45 ? ' short' : '') + (e.caseId ? ' linked' : '') + (e.domain === 'life' ? ' life' : '')}
              style=${`top:${(s / 60) * HOUR}px;height:${Math.max(22, ((en - s) / 60) * HOUR - 2)}px;left:calc(${(col / cols) * 100}% + 2px);width:calc(${100 / cols}% - 4px)`}
              title=${`${e.title}, ${e.startTime}${e.endTime ? '–' + e.endTime : ''}`} onClick=${() => onOpen(e)}><span class="ev-time">${e.startTime}${e.endTime && en - s >= 45 ? '–' + e.endTime : ''}</span><span class="ev-title">${e.title}</span>
              ${e.location ? html`<span class="ev-loc">${e.location}</span>` : null}</button>`)}
            ${day === today ? html`<div class="now-line" style=${`top:${nowTop}px`} aria-hidden="true"></div>` : null}
          </div>`;
        })}
      </div>
    </div>
  </div>`;
}
