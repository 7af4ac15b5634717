// @ts-check
// Activity: the feed across cases, with reminder and event lifecycle rows,
// grouped by day and filtered by actor and category.
import { useEffect, useState } from 'preact/hooks';
import { html, Icon, ActorBadge, Problem, Spinner, Empty, Segmented } from '../ui.js';
import { api, enc } from '../api.js';
import { useLive } from '../live.js';
import { fail } from '../state.js';
import { setQuery } from '../router.js';
import { verbText, prettyDetail, dayHeading, timeOf, CATEGORIES, categoryOf, categoryName } from '../format.js';
import { dayOf, dateTimeOf } from '../zone.js';
import { VERBS } from '../verbs.js';
import { undoWrite } from '../undo.js';
import { UndoAgent } from './undoagent.js';

/** @param {{ route: import('../types.js').Route }} props */
export function ActivityPage({ route }) {
  const actor = route.query.get('actor') || '';
  const category = route.query.get('category') || '';
  const { data, error, loading } = useLive(() => api.activity({ actor, category, limit: FEED_PAGE, view: 'summary' }), [actor, category],
    { kinds: ['case', 'reminder', 'event', 'ingestRun', 'boardActivity'] });
  const older = useOlder(data, actor, category);
  const rows = [...((data && data.activity) || []), ...older.rows];
  /** @type {{ day: string, rows: any[] }[]} */
  const days = [];
  for (const r of rows) {
    const day = dayOf(r.ts);
    if (!days.length || days[days.length - 1].day !== day) days.push({ day, rows: [] });
    days[days.length - 1].rows.push(r);
  }
  return html`<section class="page page-narrow" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Activity</h1></div>
      <div class="filters">
        <${Segmented} label="Filter by actor" value=${actor} onChange=${(v) => setQuery({ actor: v || null })}
          options=${[{ value: '', label: 'Everyone' }, { value: 'human', label: 'You' }, { value: 'agent', label: 'Agent' }, { value: 'system', label: 'System' }]} />
        <select aria-label="Filter by category" value=${category} onChange=${(e) => setQuery({ category: e.target.value || null })}>
          <option value="">All categories</option>
          ${CATEGORIES.map((c) => html`<option value=${c}>${categoryName(c)}</option>`)}
        </select>
        <${UndoAgent} />
      </div>
    </header>
    <${Problem} error=${error} what="The activity feed" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${data && !rows.length ? html`<${Empty} icon="activity" title="Nothing yet">${actor || category ? 'No activity matches these filters.' : 'Changes to the board, by you or the agent, show up here.'}</${Empty}>` : null}
    ${days.map((g) => html`<section class="feed-day" key=${g.day} aria-label=${dayHeading(g.day)}>
      <h2 class="section-title">${dayHeading(g.day)} <span class="count">${g.rows.length}</span></h2>
      <ol class="feed">${g.rows.map((r, i) => html`<${Row} key=${i} r=${r} />`)}</ol>
    </section>`)}
    ${older.more ? html`<div class="feed-more"><button type="button" class="btn btn-ghost" data-older disabled=${older.busy} onClick=${older.load}>Show older activity</button></div>` : null}
  </section>`;
}

// The feed loads FEED_PAGE rows at a time: the newest page follows the
// live stream, older pages are fetched by cursor when asked for.
const FEED_PAGE = 400;

/**
 * useOlder holds the older pages of the feed below the live first page.
 * The board's cursor names a place in the feed, so a page fetched from it
 * stays right; when new rows push the first page's end down, the older rows
 * are fetched again from its new end, as many as were shown: the view keeps
 * showing the newest rows, as many as the person asked for, with no gap.
 * @param {any} data the first page
 * @param {string} actor
 * @param {string} category
 */
function useOlder(data, actor, category) {
  const [st, setSt] = useState({ rows: /** @type {any[]} */ ([]), from: '', next: '', busy: false });
  useEffect(() => setSt({ rows: [], from: '', next: '', busy: false }), [actor, category]);
  const first = (data && data.nextCursor) || '';
  useEffect(() => {
    if (!st.rows.length || first === st.from) return undefined;
    if (!first) { setSt({ rows: [], from: '', next: '', busy: false }); return undefined; }
    let live = true;
    api.activity({ actor, category, view: 'summary', cursor: first, limit: st.rows.length })
      .then((d) => { if (live) setSt({ rows: d.activity || [], from: first, next: d.nextCursor || '', busy: false }); }, fail);
    return () => { live = false; };
  }, [first]);
  const cursor = st.rows.length ? st.next : first;
  const load = async () => {
    setSt((o) => ({ ...o, busy: true }));
    try {
      const d = await api.activity({ actor, category, view: 'summary', cursor, limit: FEED_PAGE });
      setSt((o) => ({ rows: [...o.rows, ...(d.activity || [])], from: o.rows.length ? o.from : first, next: d.nextCursor || '', busy: false }));
    } catch (e) {
      setSt((o) => ({ ...o, busy: false }));
      fail(e);
    }
  };
  return { rows: st.rows, more: !!cursor, busy: st.busy, load };
}

// Reminder and event rows name their record in the detail, as
// "REM-2 Pay quarterly VAT" or "EVT-3 Auditor kickoff call (2026-11-25)".
const RECORD_VERBS = {
  [VERBS.reminderCreated]: 'created the reminder',
  [VERBS.reminderCompleted]: 'completed the reminder',
  [VERBS.reminderLinked]: 'linked the reminder',
  [VERBS.reminderUnlinked]: 'unlinked the reminder',
  [VERBS.reminderUpdated]: 'updated the reminder',
  [VERBS.eventCreated]: 'added the event',
  [VERBS.eventLinked]: 'linked the event',
  [VERBS.eventUnlinked]: 'unlinked the event',
  [VERBS.eventUpdated]: 'updated the event',
};

function Row({ r }) {
  const cat = r.category || categoryOf(r.verb);
  const caseId = r.caseId || r.CaseID;
  const icon = { status: 'board', tasks: 'checkCircle', notes: 'note', messages: 'mail', events: 'calendar', reminders: 'bell', hierarchy: 'layers', labels: 'bookmark', priority: 'star', lifecycle: 'sparkle', backup: 'archive' }[cat] || 'edit';
  const caseLink = r.caseTitle && caseId ? html`<button type="button" class="linkish strong" onClick=${() => setQuery({ case: caseId })}>${r.caseTitle}</button>` : null;
  const rec = RECORD_VERBS[r.verb] && /^((?:REM|EVT)-\d+)\s+(.*?)(?:\s+\((\d{4}-\d{2}-\d{2})\))?$/.exec(r.detail || '');
  let body;
  if (rec) {
    const [, id, title, date] = rec;
    const href = id.startsWith('REM-') ? '/reminders?id=' + enc(id) : '/calendar' + (date ? '?d=' + date : '');
    body = html`<span>${RECORD_VERBS[r.verb]}</span> <a class="strong" href=${href}>${title || id}</a>
      ${caseLink ? html`<span class="muted"> ${r.verb.endsWith('unlinked') ? 'from' : r.verb.endsWith('linked') ? 'to' : 'on'} </span>${caseLink}` : null}`;
  } else {
    body = html`<span>${verbText(r.verb)}</span> ${caseLink}${r.detail ? html`<span class="muted"> · ${prettyDetail(r.verb, r.detail)}</span>` : null}`;
  }
  return html`<li class="feed-row">
    <span class=${'feed-icon cat-' + cat} aria-hidden="true"><${Icon} name=${icon} size=${14} /></span>
    <div class="feed-main"><${ActorBadge} actor=${r.actor} /> ${body}</div>
    <span class="feed-end">${r.actor === 'agent' && r.version ? html`<button type="button" class="btn btn-ghost btn-sm" aria-label=${'Undo this change by the agent (' + verbText(r.verb) + ')'}
      onClick=${() => undoWrite(r.version)}>Undo</button>` : null}
    <time datetime=${r.ts} title=${dateTimeOf(r.ts)}>${timeOf(r.ts)}</time></span>
  </li>`;
}
