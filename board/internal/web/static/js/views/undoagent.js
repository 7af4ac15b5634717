// @ts-check
// "Undo everything the agent did since <time>": one action of the Activity
// view. A dry run lists the agent's writes first; applying undoes them in
// one write. Later changes of the person to the same records stand in the
// way and are named; the person may undo them too.
import { useState } from 'preact/hooks';
import { html } from '../ui.js';
import { api, ApiError, messageOf } from '../api.js';
import { toast } from '../state.js';
import { timeOf, plural } from '../format.js';
import { boardToday, wallToInstant } from '../zone.js';
import { conflictText } from '../undo.js';

// startOfToday is the value of a datetime-local field at 00:00 today on
// the board's clock.
function startOfToday() {
  return `${boardToday()}T00:00`;
}

/** @param {string} local a datetime-local value, read on the board's clock */
function rfc3339(local) {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(local || '');
  if (!m) return '';
  const t = wallToInstant(m[1], m[2]);
  return isNaN(t) ? '' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function UndoAgent() {
  const [open, setOpen] = useState(false);
  const [since, setSince] = useState(startOfToday());
  /** @type {[any, (v: any) => void]} */
  const [plan, setPlan] = useState(null);
  const [busy, setBusy] = useState(false);

  /** @param {boolean} dryRun @param {boolean} through */
  async function run(dryRun, through) {
    const at = rfc3339(since);
    if (!at) {
      setPlan({ error: 'Pick a date and time.' });
      return;
    }
    setBusy(true);
    try {
      // The apply undoes what the dry run listed, not what the agent wrote since.
      const until = !dryRun && plan && plan.version ? plan.version : undefined;
      const ans = await api.undo({ writesBy: 'agent', since: at, dryRun, through, until });
      if (dryRun) setPlan({ writes: ans.undone, through, version: ans.version });
      else {
        toast(ans.undone.length ? `Undone: ${plural(ans.undone.length, 'change')} by the agent` : 'The agent changed nothing since then.', 'ok');
        setPlan(null);
        setOpen(false);
      }
    } catch (e) {
      const conflicts = e instanceof ApiError && e.body && e.body.conflicts;
      setPlan(conflicts ? { conflicts } : { error: messageOf(e) });
    } finally {
      setBusy(false);
    }
  }

  if (!open) {
    return html`<button type="button" class="btn btn-sm" onClick=${() => setOpen(true)}>Undo the agent…</button>`;
  }
  return html`<div class="undo-agent card" role="group" aria-label="Undo everything the agent did since a time">
    <label>Undo everything the agent did since
      <input type="datetime-local" aria-label="Since" value=${since} onInput=${(e) => { setSince(e.currentTarget.value); setPlan(null); }} /></label>
    <div class="undo-agent-actions">
      <button type="button" class="btn btn-sm" disabled=${busy} onClick=${() => run(true, false)}>Show what it did</button>
      <button type="button" class="btn btn-ghost btn-sm" onClick=${() => { setOpen(false); setPlan(null); }}>Close</button>
    </div>
    ${plan && plan.error ? html`<p class="error-text" role="alert">${plan.error}</p>` : null}
    ${plan && plan.conflicts ? html`<div role="alert"><p>Not undone: ${conflictText(plan.conflicts)}. Undo those later changes too, or leave it.</p>
      <button type="button" class="btn btn-sm" disabled=${busy} onClick=${() => run(true, true)}>Show with the later changes</button></div>` : null}
    ${plan && plan.writes ? html`<div class="undo-agent-plan">
      ${plan.writes.length ? html`<ol class="undo-writes">${plan.writes.map((w) => html`<li key=${w.version}>
        <time datetime=${w.at}>${timeOf(w.at)}</time> ${w.actor === 'agent' ? 'agent' : 'you'}: ${w.records.map((r) => r.id).join(', ')}</li>`)}</ol>
        <button type="button" class="btn btn-danger btn-sm" disabled=${busy} onClick=${() => run(false, plan.through)}>Undo ${plural(plan.writes.length, 'change')}</button>`
        : html`<p class="muted">The agent changed nothing since then that undo still reaches.</p>`}
    </div>` : null}
  </div>`;
}
