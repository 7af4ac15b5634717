// @ts-check
// Proposals: changes the agent proposed instead of making, with what changed
// on each target since, approved or rejected by the person.
import { html, Icon, ActorBadge, Problem, Spinner, Empty } from '../ui.js';
import { api, statusOf } from '../api.js';
import { setQuery } from '../router.js';
import { proposals, useCases, fail, toast, confirmDialog } from '../state.js';
import { relTime, laneName } from '../format.js';

const FIELD_NAMES = { status: 'Lane', dueAt: 'Due date', parentId: 'Parent', kind: 'Tier', labels: 'Labels', title: 'Title', summary: 'Summary', starred: 'Star', domain: 'Domain', archivedAt: 'Archived', caseId: 'Linked case', date: 'Date', startTime: 'Starts', endTime: 'Ends', targetId: 'Merge into', sourceId: 'Duplicate', ids: 'Cases' };
const fieldName = (k) => FIELD_NAMES[k] || k;

function show(v, field) {
  if (field === 'status' && typeof v === 'string') return laneName(v);
  if (v === undefined) return html`<span class="muted">—</span>`;
  if (v === null || v === '') return html`<span class="muted">empty</span>`;
  if (Array.isArray(v)) return v.length ? v.join(', ') : html`<span class="muted">none</span>`;
  if (typeof v === 'object') return html`<code>${JSON.stringify(v)}</code>`;
  return String(v);
}

function parse(raw) {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function ProposalsPage() {
  const { data, error, loading } = proposals.use();
  const items = (data && data.pending) || [];
  return html`<section class="page page-narrow" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Proposals</h1><span class="count">${items.length} waiting</span></div>
      <p class="lede">Changes the agent proposed instead of making. Your own edits win: each proposal shows what changed since it was filed.</p></header>
    <${Problem} error=${error} what="The proposals" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${data && !items.length ? html`<${Empty} icon="checkCircle" title="No proposals">When the agent proposes a change, it waits here for you.</${Empty}>` : null}
    <ul class="proposals">${items.map((p) => html`<${Proposal} key=${p.id} p=${p} version=${data.version} />`)}</ul>
  </section>`;
}

// approveProposal approves p as the person saw it at version: a stale one
// is confirmed first, and a board that moved on meanwhile is retried when
// p's targets still look as they did.
/**
 * @param {import('../types.js').Proposal} p
 * @param {number} version
 */
export async function approveProposal(p, version) {
  const changed = (p.targets || []).filter((t) => t.changedSince && !t.gone);
  if (changed.length) {
    const ok = await confirmDialog({
      title: 'Approve a stale proposal?',
      message: `${changed.map((t) => `${t.id} (${(t.changedFields || []).join(', ') || 'updated'})`).join('; ')} changed since the agent proposed this. Approving applies the proposal over those changes.`,
      ok: 'Approve anyway',
    });
    if (!ok) return;
  }
  /** @param {number} v */
  const send = (v) => api.proposals.approve(p.id, { expectedVersion: v });
  try {
    try {
      await send(version);
    } catch (e) {
      if (statusOf(e) !== 409) throw e;
      // The version is board-wide: retry when this proposal's targets look
      // the same as what the person just saw; otherwise show them again.
      const fresh = await api.proposals.list();
      const now = (fresh.pending || []).find((x) => x.id === p.id);
      /** @param {import('../types.js').Proposal} x */
      const sig = (x) => JSON.stringify((x.targets || []).map((t) => [t.id, t.gone, t.changedFields]));
      if (!now || sig(now) !== sig(p)) {
        proposals.reload();
        toast('The target changed while you looked; the proposal now shows the latest state.', 'info');
        return;
      }
      await send(fresh.version);
    }
    toast('Approved: ' + p.summary, 'ok');
  } catch (e) {
    fail(e);
  }
}

// rejectProposal rejects p.
/** @param {import('../types.js').Proposal} p */
export async function rejectProposal(p) {
  try {
    await api.proposals.reject(p.id);
    toast('Rejected: ' + p.summary);
  } catch (e) {
    fail(e);
  }
}

/** @param {{ p: import('../types.js').Proposal, version: number }} props */
function Proposal({ p, version }) {
  const { byId } = useCases();
  const payload = parse(p.payload) || {};
  const fields = Object.entries(payload).filter(([k]) => !['id', 'actor', 'expectedVersion'].includes(k));
  const targets = p.targets || [];
  const approve = () => approveProposal(p, version);
  const reject = () => rejectProposal(p);
  return html`<li class=${'proposal' + (p.changedSince ? ' stale' : '')}>
    <header class="proposal-head">
      <span class="verb">${p.verb}</span>
      <h2>${p.summary || p.verb}</h2>
      <div class="grow"></div>
      <${ActorBadge} actor=${p.actor} /><time datetime=${p.createdAt} class="muted small">${relTime(p.createdAt)}</time>
    </header>
    ${fields.length ? html`<table class="kv"><caption class="sr-only">Proposed values</caption>
      <tbody>${fields.map(([k, v]) => html`<tr key=${k}><th scope="row">${fieldName(k)}</th><td>${show(v, k)}</td></tr>`)}</tbody></table>` : null}
    ${targets.map((t) => html`<div key=${t.id} class=${'target' + (t.gone ? ' gone' : t.changedSince ? ' changed' : ' same')}>
      <div class="target-head">
        ${/^CASE-/.test(t.id) ? html`<button type="button" class="linkish strong" onClick=${() => setQuery({ case: t.id })}>${byId[t.id] ? byId[t.id].title : t.id}</button><span class="card-id">${t.id}</span>` : html`<strong>${t.id}</strong>`}
        ${t.gone ? html`<span class="pill pill-danger">No longer exists: approving will fail</span>`
          : t.changedSince ? html`<span class="pill pill-warn"><${Icon} name="alert" size=${12} />Changed since proposed${t.changedFields && t.changedFields.length ? ': ' + t.changedFields.map(fieldName).join(', ') : ''}</span>`
          : html`<span class="pill pill-ok"><${Icon} name="check" size=${12} />Unchanged since proposed</span>`}
      </div>
      ${t.changedFields && t.changedFields.length ? html`<table class="diff"><thead><tr><th scope="col">Field</th><th scope="col">When proposed</th><th scope="col">Now</th><th scope="col">Proposed</th></tr></thead>
        <tbody>${t.changedFields.map((f) => {
          const before = t.id === p.target ? p.before : ((p.others || []).find((o) => o.id === t.id) || {}).before;
          return html`<tr key=${f}><th scope="row">${fieldName(f)}</th><td>${show(parse(before && before[f]), f)}</td><td class="now">${show(parse(t.current && t.current[f]), f)}</td><td>${show(payload[f] !== undefined ? payload[f] : (payload.patch || {})[f], f)}</td></tr>`;
        })}</tbody></table>` : null}
    </div>`)}
    <footer class="btn-row">
      <button type="button" class="btn btn-primary" onClick=${approve} disabled=${p.targetGone}><${Icon} name="check" size=${14} />Approve</button>
      <button type="button" class="btn" onClick=${reject}><${Icon} name="x" size=${14} />Reject</button>
    </footer>
  </li>`;
}
