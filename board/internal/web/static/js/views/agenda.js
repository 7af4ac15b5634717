// @ts-check
// Agenda: what needs the person now. Overdue, today and the next seven days
// of open tasks, open reminders and events (the board's agenda, on its
// clock), and the proposals waiting for a yes or no, each acted on in place.
// It follows the live stream, so what the agent writes shows without a
// reload.
import { html, Icon, Due, Problem, Spinner, Empty, ActorBadge } from '../ui.js';
import { api } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { proposals, useCases, fail, toast } from '../state.js';
import { dayHeading, shortDate, dueState } from '../format.js';
import { dayOf, wallOf, boardToday, shiftDay } from '../zone.js';
import { hrefOf } from '../notify.js';
import { approveProposal, rejectProposal } from './proposals.js';

/**
 * @typedef {object} Item one row of the agenda, as the board lists it
 * @property {'task' | 'reminder' | 'event'} kind
 * @property {string} id
 * @property {string} [caseId]
 * @property {string} title
 * @property {string} dueAt a day (YYYY-MM-DD) or a time with the board's offset
 * @property {boolean} [overdue]
 * @property {boolean} [allDay]
 */

const KIND_NAMES = { task: 'Task', reminder: 'Reminder', event: 'Event' };

// groups puts the items under Overdue, Today and each later day, in the
// board's order (by time).
/** @param {Item[]} items */
export function groups(items) {
  const today = boardToday();
  /** @type {{ key: string, title: string, tone?: string, items: Item[] }[]} */
  const out = [{ key: 'overdue', title: 'Overdue', tone: 'danger', items: [] }, { key: today, title: 'Today', items: [] }];
  for (const it of items) {
    const day = dayOf(it.dueAt);
    let g = it.overdue ? out[0] : day <= today ? out[1] : out.find((x) => x.key === day);
    if (!g) {
      g = { key: day, title: day === shiftDay(today, 1) ? 'Tomorrow' : dayHeading(day), items: [] };
      out.push(g);
    }
    g.items.push(it);
  }
  return out;
}

// dueNow is how many tasks and reminders are overdue or due today: the
// sidebar's count. Events are not counted: there is nothing to complete.
/** @param {Item[]} items */
export function dueNow(items) {
  return items.filter((i) => i.kind !== 'event' && ['overdue', 'today'].includes(dueState(i.dueAt))).length;
}

// snoozed is a due date one day later than the later of its own day and
// today, keeping its time of day.
/** @param {string} dueAt */
export function snoozed(dueAt) {
  const w = wallOf(dueAt);
  const today = boardToday();
  const from = w && w.day > today ? w.day : today;
  const day = shiftDay(from, 1);
  return w && w.time ? `${day}T${w.time}` : day;
}

/** @param {Item} it @param {'done' | 'snooze'} how */
async function act(it, how) {
  try {
    if (it.kind === 'task' && it.caseId) {
      await api.cases.patchTask(it.caseId, it.id, { completed: true });
      toast('Done: ' + it.title, 'ok');
    } else if (how === 'done') {
      await api.reminders.patch(it.id, { status: 'done' });
      toast('Done: ' + it.title, 'ok');
    } else {
      const to = snoozed(it.dueAt);
      await api.reminders.patch(it.id, { dueAt: to });
      toast(`Snoozed “${it.title}” to ${shortDate(to.slice(0, 10))}`, 'ok');
    }
  } catch (e) {
    fail(e);
  }
}

export function AgendaPage() {
  const { data, error, loading } = useLive(() => api.agenda(), [], { kinds: ['case', 'reminder', 'event'] });
  const waiting = proposals.use();
  const items = /** @type {Item[]} */ ((data && data.items) || []);
  const pending = (waiting.data && waiting.data.pending) || [];
  const shown = groups(items).filter((g) => g.items.length);
  return html`<section class="page page-narrow page-agenda" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Agenda</h1>
      <span class="count" data-agenda-due>${dueNow(items)} due</span></div>
      <p class="lede">What is overdue, today and in the next seven days, and what the agent is waiting on you for.</p></header>
    <${Problem} error=${error} what="The agenda" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${pending.length ? html`<section class="group" aria-labelledby="agenda-proposals">
      <h2 class="section-title tone-warn" id="agenda-proposals">Waiting for you <span class="count">${pending.length}</span></h2>
      <ul class="rows">${pending.map((p) => html`<${ProposalRow} key=${p.id} p=${p} version=${waiting.data.version} />`)}</ul>
    </section>` : null}
    ${shown.map((g) => html`<section class="group" key=${g.key} aria-labelledby=${'agenda-' + g.key} data-group=${g.key === 'overdue' ? 'overdue' : g.key === boardToday() ? 'today' : g.key}>
      <h2 class=${'section-title' + (g.tone ? ' tone-' + g.tone : '')} id=${'agenda-' + g.key}>${g.title} <span class="count">${g.items.length}</span></h2>
      <ul class="rows">${g.items.map((it) => html`<${ItemRow} key=${it.kind + it.id + it.dueAt} it=${it} />`)}</ul>
    </section>`)}
    ${data && !shown.length && !pending.length ? html`<${Empty} icon="checkCircle" title="Nothing due">No task, reminder or event in the next seven days, and no proposal waiting.</${Empty}>` : null}
  </section>`;
}

/** @param {{ it: Item }} props */
function ItemRow({ it }) {
  const { byId } = useCases();
  const c = it.caseId ? byId[it.caseId] : null;
  const doable = it.kind !== 'event';
  return html`<li class="row agenda-item" data-item=${it.kind + ':' + it.id}>
    ${doable ? html`<button type="button" class="check-circle" aria-label=${'Complete ' + it.title} data-complete onClick=${() => act(it, 'done')}><${Icon} name="check" size=${13} /></button>`
      : html`<span class="agenda-kind-icon" aria-hidden="true"><${Icon} name="calendar" size=${15} /></span>`}
    <div class="row-main">
      <div class="agenda-title"><span class="pill">${KIND_NAMES[it.kind] || it.kind}</span> <a class="strong" href=${hrefOf(it)}>${it.title}</a></div>
      ${c || it.caseId ? html`<div class="muted small">${c ? c.title : it.caseId}</div>` : null}
    </div>
    <${Due} at=${it.dueAt} />
    <div class="btn-row">
      ${it.kind === 'reminder' ? html`<button type="button" class="btn btn-sm" data-snooze onClick=${() => act(it, 'snooze')}>Snooze</button>` : null}
      ${it.caseId ? html`<button type="button" class="btn btn-sm btn-ghost" data-open-case onClick=${() => setQuery({ case: it.caseId })}>Open case</button>` : null}
    </div>
  </li>`;
}

/** @param {{ p: import('../types.js').Proposal, version: number }} props */
function ProposalRow({ p, version }) {
  return html`<li class="row agenda-proposal" data-proposal=${p.id}>
    <${ActorBadge} actor=${p.actor} />
    <div class="row-main"><span class="strong">${p.summary || p.verb}</span>
      ${p.changedSince ? html` <span class="pill pill-warn">Changed since proposed</span>` : null}</div>
    <div class="btn-row">
      <button type="button" class="btn btn-sm btn-primary" data-approve disabled=${p.targetGone} onClick=${() => approveProposal(p, version)}>Approve</button>
      <button type="button" class="btn btn-sm" data-reject onClick=${() => rejectProposal(p)}>Reject</button>
      ${p.target && /^CASE-/.test(p.target) ? html`<button type="button" class="btn btn-sm btn-ghost" onClick=${() => setQuery({ case: p.target })}>Open case</button>` : null}
    </div>
  </li>`;
}
