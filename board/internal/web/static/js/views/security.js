// @ts-check
// Security: the prompt-injection guard, through the board's proxies. The
// master switch, the state banner, the dependency checklist, retention of
// released mail, the person's own address (for sender trust), the model
// catalog with a setup line per model, the sender-trust list and the
// quarantine with Release and Dismiss. The guard's lists refetch on the
// stream's guard event; the board's own changes (the principal setting)
// arrive as usual.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { html, Icon, Spinner, Empty } from '../ui.js';
import { api } from '../api.js';
import { useLive, onGuard, onHealth, refreshHealth } from '../live.js';
import { fail, toast, confirmDialog } from '../state.js';
import { relTime } from '../format.js';

const DEPS = [
  ['torch', 'Inference runtime'],
  ['transformers', 'Tokenizer loads'],
  ['modelCached', 'Model weights on disk'],
  ['hfToken', 'Model hub token (only to download a gated model)'],
  ['ready', 'Ready to screen'],
];

// useGuard loads a guard list and loads it again on every guard event and
// on demand; a failed load keeps the last answer.
/**
 * @param {() => Promise<any>} load one of api.guard's reads (a fixed function, so reload stays the same)
 * @returns {{ data: any, error: any, reload: () => void }}
 */
function useGuard(load) {
  const [st, set] = useState(/** @type {{ data: any, error: any }} */ ({ data: null, error: null }));
  const reload = useCallback(() => {
    load().then((data) => set({ data, error: null }), (error) => set((s) => ({ data: s.data, error })));
  }, [load]);
  useEffect(() => {
    reload();
    return onGuard(reload);
  }, [reload]);
  return { ...st, reload };
}

// useGuardHealth is the guard's line of the board's health, kept current.
function useGuardHealth() {
  const [line, set] = useState(/** @type {any} */ (null));
  useEffect(() => {
    const off = onHealth((h) => set((h && h.guard) || { state: 'none' }));
    refreshHealth();
    const offGuard = onGuard(() => refreshHealth());
    return () => {
      off();
      offGuard();
    };
  }, []);
  return line;
}

export function SecurityPage() {
  // The configuration also carries the principal, a board setting: it
  // follows the board's version as well as the guard's events.
  const cfgLive = useLive(() => api.guard.config(), []);
  useEffect(() => onGuard(() => cfgLive.reload()), [cfgLive.reload]);
  const models = useGuard(api.guard.models);
  const trust = useGuard(api.guard.trust);
  const quarantine = useGuard(api.guard.quarantine);
  const health = useGuardHealth();
  const cfg = cfgLive.data;
  const offline = !!(cfg && cfg.offline);
  const refresh = () => {
    cfgLive.reload();
    models.reload();
    trust.reload();
    quarantine.reload();
    refreshHealth();
  };
  return html`<section class="page page-narrow page-security" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Security</h1></div>
      <p class="lede">The guard screens mail from other people for prompt injection before the agent reads it. Even clean mail is only ever data, never instructions.</p></header>
    ${cfgLive.loading && !cfg ? html`<${Spinner} />` : null}
    <${StateBanner} health=${health} cfg=${cfg} />
    ${cfg ? html`<${Switch} cfg=${cfg} offline=${offline} />` : null}
    ${cfg && !offline ? html`<${Checklist} cfg=${cfg} onRefresh=${refresh} />` : null}
    ${offline ? html`<div class="btn-row guard-retry"><button type="button" class="btn btn-sm" onClick=${refresh}><${Icon} name="restore" size=${14} />Try again</button></div>` : null}
    <${Quarantine} data=${quarantine.data} offline=${offline || !!(quarantine.data && quarantine.data.offline)} />
    <${TrustList} data=${trust.data} offline=${offline || !!(trust.data && trust.data.offline)} />
    ${cfg ? html`<${Settings} cfg=${cfg} offline=${offline} />` : null}
    <${Catalog} data=${models.data} />
  </section>`;
}

// StateBanner says what the guard is doing, from the board's health.
function StateBanner({ health, cfg }) {
  if (!health) return null;
  const url = health.url || (cfg && cfg.url) || '';
  /** @type {Record<string, [string, string, any]>} */
  const states = {
    on: ['banner-ok', 'shield', html`<strong>The guard is on.</strong> Mail is screened by ${health.classifier ? html`<code>${health.classifier.replace(/^model:/, '')}</code>` : 'a model'}.`],
    degraded: ['banner-warn', 'alert', html`<strong>The guard is on, with the heuristic only.</strong> No model is loaded: a rule-based detector screens mail, which catches less.`],
    off: ['banner-warn', 'alert', html`<strong>The guard is off.</strong> Mail reaches the board unscreened.`],
    unreachable: ['banner-danger', 'alert', html`<strong>The guard sidecar is unreachable${url ? html` at <code>${url}</code>` : null}.</strong> The agent treats all mail as untrusted until it is back; nothing here can be changed meanwhile.`],
    none: ['banner-warn', 'alert', html`<strong>This board has no guard address.</strong> Set SVC_GUARD_URL and restart the board.`],
  };
  const [cls, icon, text] = states[health.state] || states.unreachable;
  return html`<div class=${'banner ' + cls} role="status" data-guard-state=${health.state}><${Icon} name=${icon} size=${16} /><div>${text}</div></div>`;
}

// Switch is the master switch: off is always allowed, on only when ready.
function Switch({ cfg, offline }) {
  const [busy, setBusy] = useState(false);
  const on = !!cfg.enabled;
  const blocked = offline || (!on && !cfg.ready);
  const reason = offline ? 'The guard sidecar is not answering.' : !on && !cfg.ready ? `The active model (${cfg.preset || cfg.model || 'unknown'}) is not ready: see the checklist below.` : '';
  const flip = async () => {
    setBusy(true);
    try {
      await api.guard.setConfig({ enabled: !on });
      toast(on ? 'Guard switched off' : 'Guard switched on', 'ok');
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="guard-switch">
    <button type="button" role="switch" class=${'switch' + (on ? ' on' : '')} aria-checked=${on ? 'true' : 'false'} aria-label="Screen mail with the guard"
      aria-describedby=${reason ? 'switch-reason' : undefined} disabled=${blocked || busy} onClick=${flip}><span class="knob" aria-hidden="true"></span></button>
    <div><strong>Screen mail with the guard</strong>
      ${reason ? html`<div class="muted small" id="switch-reason" data-switch-reason>${reason}</div>` : html`<div class="muted small">${on ? 'Turning it off lets mail through unscreened.' : 'Turn it on to screen incoming mail.'}</div>`}</div>
  </div>`;
}

function Checklist({ cfg, onRefresh }) {
  const deps = cfg.deps || {};
  return html`<section aria-labelledby="h-deps">
    <h2 id="h-deps" class="section-title">Dependencies <span class="count">${cfg.preset || cfg.model}</span>
      <button type="button" class="btn btn-xs" onClick=${onRefresh}><${Icon} name="restore" size=${12} />Refresh</button></h2>
    <ul class="checklist">${DEPS.map(([k, label]) => html`<li key=${k} data-dep=${k} class=${deps[k] ? 'ok' : 'missing'}>
      <${Icon} name=${deps[k] ? 'checkCircle' : 'x'} size=${14} /><span>${label}</span><span class="sr-only">${deps[k] ? ': yes' : ': no'}</span></li>`)}</ul>
    <p class="muted small">Classifier <code>${cfg.classifier}</code>, threshold ${cfg.threshold}${cfg.maxTokens ? `, ${cfg.maxTokens} tokens a window` : ''}.</p>
  </section>`;
}

// Settings: retention of released mail and the person's own address.
function Settings({ cfg, offline }) {
  // Offline, the sidecar's settings are unknown: show none rather than 0.
  const ttl = offline ? '' : String(cfg.releasedTtlDays ?? '');
  const [days, setDays] = useState(ttl);
  const [me, setMe] = useState(cfg.principal || '');
  useEffect(() => setDays(ttl), [ttl]);
  useEffect(() => setMe(cfg.principal || ''), [cfg.principal]);
  const saveDays = async (e) => {
    e.preventDefault();
    const n = Number(days);
    if (!Number.isInteger(n) || n < 0) return fail(new Error('Retention is a whole number of days, 0 or more.'));
    try {
      await api.guard.setConfig({ releasedTtlDays: n });
      toast(n === 0 ? 'Released mail is kept until replayed' : `Released mail is kept ${n} days`, 'ok');
    } catch (err) {
      fail(err);
    }
  };
  const saveMe = async (e) => {
    e.preventDefault();
    try {
      await api.prefs.patch({ principalEmail: me.trim() || null });
      toast('Your address is saved', 'ok');
    } catch (err) {
      fail(err);
    }
  };
  return html`<section aria-labelledby="h-settings">
    <h2 id="h-settings" class="section-title">Settings</h2>
    <div class="guard-settings">
      <form class="field" onSubmit=${saveDays}>
        <label for="ttl-days">Keep released mail (days)</label>
        <div class="btn-row"><input id="ttl-days" type="number" min="0" step="1" value=${days} disabled=${offline} onInput=${(e) => setDays(e.target.value)} />
          <button type="submit" class="btn btn-sm" disabled=${offline}>Save</button></div>
        <span class="muted small">Released mail the sweep has not replayed is removed after this many days; 0 keeps it.</span>
      </form>
      <form class="field" onSubmit=${saveMe}>
        <label for="principal">Your email address</label>
        <div class="btn-row"><input id="principal" type="email" placeholder="you@example.com" value=${me} disabled=${cfg.principalFromEnv} onInput=${(e) => setMe(e.target.value)} />
          ${cfg.principalFromEnv ? null : html`<button type="submit" class="btn btn-sm">Save</button>`}</div>
        <span class="muted small">${cfg.principalFromEnv ? 'Set by SVC_PRINCIPAL_EMAIL when the board started.' : 'People you write to from this address become trusted senders. Unset, nobody is trusted automatically.'}</span>
      </form>
    </div>
  </section>`;
}

// setupLine is the shell line that starts the sidecar with a model: where
// its directory goes and which variables name it.
function setupLine(m) {
  if (!hasWeights(m)) return `SVC_GUARD_MODEL=${m.id} sidecar-guard`;
  // A raw model id (the catalog's custom entry) is named as itself; its
  // directory is the id with the slash written as two dashes.
  const key = m.id === 'custom' ? m.modelId : m.id;
  return `SVC_GUARD_MODEL=${key} SVC_GUARD_MODEL_DIR="$SVC_GUARD_DATA/models/${key.replace('/', '--')}" sidecar-guard`;
}

// hasWeights: the preset needs a model directory (every one but the
// heuristic's).
const hasWeights = (m) => !!m.modelId && m.id !== 'heuristic-only' && m.modelId !== 'heuristic-only';

function Catalog({ data }) {
  const list = (data && data.models) || [];
  const copy = async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      toast('Copied the setup line', 'ok');
    } catch {
      toast('Select the line and copy it: the browser refused the clipboard.', 'info');
    }
  };
  return html`<section aria-labelledby="h-models">
    <h2 id="h-models" class="section-title">Models <span class="count">${list.length}</span></h2>
    ${data && !list.length ? html`<p class="muted">${data.offline ? 'The catalog comes from the guard sidecar, which is not answering.' : 'No models.'}</p>` : null}
    <ul class="models">${list.map((m) => html`<li key=${m.id} class="model" data-model=${m.id}>
      <div class="model-head"><strong>${m.id}</strong>${m.current ? html`<span class="pill pill-ok">Active</span>` : null}
        ${m.gated ? html`<span class="pill pill-warn" title="Needs a license acceptance and a model hub token to download">Gated</span>` : null}
        ${m.deps && m.deps.ready ? html`<span class="pill">Ready</span>` : null}</div>
      <div class="muted small">${hasWeights(m) ? m.modelId : 'no model: the rule-based detector'} · threshold ${m.threshold} · ${m.languages && m.languages.length ? m.languages.join(' ') : 'no language model'}</div>
      ${m.description ? html`<p class="small">${m.description}</p>` : null}
      <div class="setup"><code data-setup>${setupLine(m)}</code>
        <button type="button" class="btn btn-xs" aria-label=${'Copy the setup line of ' + m.id} onClick=${() => copy(setupLine(m))}>Copy</button></div>
      ${hasWeights(m) ? html`<div class="muted small">Put the ONNX export of ${m.modelId} (model.onnx, tokenizer.json, config.json) in that directory, then restart the sidecar: a model is chosen at start.</div>` : null}
    </li>`)}</ul>
  </section>`;
}

function TrustList({ data, offline }) {
  const [q, setQ] = useState('');
  const [email, setEmail] = useState('');
  const [tier, setTier] = useState('blocked');
  const senders = ((data && data.senders) || []).filter((s) => !q || s.email.includes(q.trim().toLowerCase()));
  const add = async (e) => {
    e.preventDefault();
    if (!email.trim()) return;
    try {
      await api.guard.setTrust({ email: email.trim(), tier });
      setEmail('');
    } catch (err) {
      fail(err);
    }
  };
  const flip = async (s) => {
    try {
      await api.guard.setTrust({ email: s.email, tier: s.tier === 'blocked' ? 'trusted' : 'blocked' });
    } catch (err) {
      fail(err);
    }
  };
  const remove = async (s) => {
    const ok = await confirmDialog({ title: `Forget ${s.email}?`, message: 'The sender becomes unknown again: their mail is screened as anyone’s.', ok: 'Forget', danger: true });
    if (!ok) return;
    try {
      await api.guard.removeTrust(s.email);
    } catch (err) {
      fail(err);
    }
  };
  return html`<section aria-labelledby="h-trust">
    <h2 id="h-trust" class="section-title">Senders <span class="count">${(data && data.senders && data.senders.length) || 0}</span></h2>
    <div class="btn-row trust-tools">
      <input type="search" aria-label="Search senders" placeholder="Search senders" value=${q} onInput=${(e) => setQ(e.target.value)} />
    </div>
    <form class="btn-row trust-add" onSubmit=${add}>
      <input type="email" aria-label="Sender address" placeholder="name@example.com" value=${email} disabled=${offline} onInput=${(e) => setEmail(e.target.value)} />
      <select aria-label="Tier" value=${tier} disabled=${offline} onChange=${(e) => setTier(e.target.value)}>
        <option value="blocked">Block</option><option value="trusted">Trust</option></select>
      <button type="submit" class="btn btn-sm" disabled=${offline || !email.trim()}>Add sender</button>
    </form>
    ${data && !senders.length ? html`<p class="muted">${offline ? 'The sender list lives in the guard sidecar, which is not answering.' : q ? 'No sender matches.' : 'No senders yet. People you write to are trusted as you link their mail.'}</p>` : null}
    <ul class="trust-list">${senders.map((s) => html`<li key=${s.email} data-sender=${s.email}>
      <span class="strong">${s.email}</span>
      <span class=${'pill ' + (s.tier === 'blocked' ? 'pill-danger' : 'pill-ok')} data-tier>${s.tier}</span>
      ${s.note ? html`<span class="muted small">${s.note}</span>` : null}
      <div class="grow"></div>
      <button type="button" class="btn btn-xs" disabled=${offline} onClick=${() => flip(s)}>${s.tier === 'blocked' ? 'Trust' : 'Block'}<span class="sr-only"> ${s.email}</span></button>
      <button type="button" class="btn btn-xs btn-danger-ghost" disabled=${offline} onClick=${() => remove(s)}>Remove<span class="sr-only"> ${s.email}</span></button>
    </li>`)}</ul>
  </section>`;
}

// why are the flagged segments' reasons and matched rules.
function why(r) {
  const out = [];
  for (const s of r.segments || []) {
    if (!s.flagged) continue;
    const what = s.reason || [...new Set(s.rules || [])].join(', ');
    out.push(`${s.field} ${s.index + 1}: ${what || 'score ' + s.score.toFixed(2)}`);
  }
  return out;
}

function Quarantine({ data, offline }) {
  const records = (data && data.records) || [];
  const act = async (r, status) => {
    try {
      await api.guard.patchQuarantine(r.id, { status });
      toast(status === 'released' ? `Released: the mail sweep brings it in, and ${r.from} is trusted unless you blocked them.` : 'Dismissed', 'ok');
    } catch (err) {
      fail(err);
    }
  };
  return html`<section aria-labelledby="h-quarantine">
    <h2 id="h-quarantine" class="section-title">Quarantine <span class="count">${records.length}</span></h2>
    ${data && !records.length ? html`<${Empty} icon="shield" title=${offline ? 'Quarantine unavailable' : 'Nothing held back'}>${offline ? 'The quarantine lives in the guard sidecar, which is not answering.' : 'Mail the guard flags waits here for you.'}</${Empty}>` : null}
    <ul class="quarantine">${records.map((r) => html`<li key=${r.id} data-record=${r.id} data-status=${r.status}>
      <div class="q-head"><strong>${r.subject || '(no subject)'}</strong><span class="muted">${r.from}</span><div class="grow"></div>
        ${r.status === 'released' && !r.replayed ? html`<span class="pill pill-warn" data-waiting>Waiting for the mail sweep</span>`
          : html`<span class=${'pill' + (r.status === 'quarantined' ? ' pill-danger' : '')}>${r.status}</span>`}</div>
      <div class="muted small">score ${Number(r.maxScore).toFixed(2)} · ${r.classifier} · seen ${r.count} ${r.count === 1 ? 'time' : 'times'} · ${relTime(r.updatedAt || r.createdAt)}</div>
      ${why(r).length ? html`<ul class="why small">${why(r).map((w, i) => html`<li key=${i}>${w}</li>`)}</ul>` : null}
      ${r.status !== 'released' ? html`<div class="btn-row">
        <button type="button" class="btn btn-sm" disabled=${offline} onClick=${() => act(r, 'released')}>Release<span class="sr-only"> ${r.subject}</span></button>
        ${r.status === 'quarantined' ? html`<button type="button" class="btn btn-sm btn-ghost" disabled=${offline} onClick=${() => act(r, 'dismissed')}>Dismiss<span class="sr-only"> ${r.subject}</span></button>` : null}
      </div>` : null}
    </li>`)}</ul>
  </section>`;
}
