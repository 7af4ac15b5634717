// @ts-check
// Backups: the off-site backup's health from api.backups (read from
// local files; the page never makes the board contact the repository): the
// verdict and its reasons, whether the board backs up on its own, Back up
// now, the last run, the push state, the readiness checklist with what to
// do for each missing item, the snapshot history, where the repository
// setting came from, and the newest run's log. It refetches when a run
// starts or ends (the stream's backup event) as well as on new versions.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Icon, Spinner, Empty, Problem } from '../ui.js';
import { api, statusOf, messageOf } from '../api.js';
import { useLive, onBackup } from '../live.js';
import { fail } from '../state.js';
import { relTime } from '../format.js';
import { dateTimeOf } from '../zone.js';

const VERDICTS = {
  healthy: ['banner-ok', 'checkCircle', 'Backups are healthy.'],
  warning: ['banner-warn', 'alert', 'Backups need a look.'],
  error: ['banner-danger', 'alert', 'Backups are not working.'],
};

const OUTCOMES = {
  pushed: 'written and pushed',
  'local-only': 'committed locally; the push failed',
  locked: 'skipped: another run held the lock',
  'repo-guard': 'refused by the repository guard',
  failed: 'failed',
};

// size is a byte count in words.
/** @param {number} n */
export function size(n) {
  if (!n && n !== 0) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

// counts is a snapshot's record counts, largest first, the empty ones left out.
/** @param {Record<string, number> | undefined} c */
function counts(c) {
  return Object.entries(c || {}).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} ${k}`).join(', ');
}

/** @param {string} s */
function when(s) {
  if (!s) return '';
  const d = new Date(s);
  return isNaN(d.getTime()) ? s : `${dateTimeOf(s)} (${relTime(s)})`;
}

export function BackupsPage() {
  const live = useLive(() => api.backups.get(), []);
  useEffect(() => onBackup(() => live.reload()), [live.reload]);
  const st = live.data;
  return html`<section class="page page-narrow page-backups" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Backups</h1></div>
      <p class="lede">Encrypted snapshots of the board, pushed to your private git repository. Only your recovery passphrase opens them.</p></header>
    ${live.loading && !st ? html`<${Spinner} />` : null}
    ${live.error && !st ? html`<${Problem} error=${live.error} what="the backup status" />` : null}
    ${st ? html`
      <${Verdict} st=${st} />
      <${RunNow} st=${st} onDone=${live.reload} />
      <${LastRun} st=${st} />
      <${Readiness} checks=${st.readiness || []} onRefresh=${live.reload} />
      <${History} snapshots=${st.snapshots || []} />
      <${Repo} repo=${st.repo || {}} />
      <${Log} lines=${st.log || []} />` : null}
  </section>`;
}

function Verdict({ st }) {
  const [cls, icon, text] = VERDICTS[st.verdict] || VERDICTS.error;
  const auto = st.auto;
  return html`<div class=${'banner ' + cls} role="status" data-verdict=${st.verdict}><${Icon} name=${icon} size=${16} />
    <div><strong>${text}</strong>${st.running ? html` <span class="pill" data-running>Running now</span>` : null}
      ${(st.reasons || []).length ? html`<ul class="reasons">${st.reasons.map((r, i) => html`<li key=${i}>${r}</li>`)}</ul>` : null}
      ${auto ? html`<div class="small auto-line" data-auto=${auto.on ? 'on' : 'off'}>${auto.on
        ? html`Automatic backups are on: daily at 03:30${auto.nextDaily ? html` (next ${dateTimeOf(auto.nextDaily)})` : null}, and whenever the newest snapshot is older than 12 hours.`
        : html`Automatic backups are off on this board: ${auto.reason}.`}</div>` : null}</div></div>`;
}

// RunNow is Back up now and what the board answered, in words.
function RunNow({ st, onDone }) {
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState(/** @type {{ kind: string, text: string } | null} */ (null));
  // A run this page started that has ended: say how, in place of "started".
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !st.running && answer && answer.kind === 'started') {
      const r = st.lastRun;
      setAnswer({ kind: 'done', text: r ? `Backup finished: ${OUTCOMES[r.outcome] || r.outcome}${r.error ? ` (${r.error})` : ''}.` : 'Backup finished.' });
    }
    wasRunning.current = !!st.running;
  }, [st]);
  const run = async (force) => {
    setBusy(true);
    try {
      const ans = await api.backups.run(force);
      if (ans && ans.started) {
        wasRunning.current = true; // even when the run ends before the next status arrives
        setAnswer({ kind: 'started', text: 'Backup started. This page updates when it finishes.' });
      }
      else if (ans && ans.skipped === 'fresh') setAnswer({ kind: 'fresh', text: `Skipped: the newest snapshot is from ${when(ans.newest || '')}, under 12 hours old.` });
      onDone();
    } catch (e) {
      if (statusOf(e) === 409) setAnswer({ kind: 'busy', text: 'A backup is already running. Wait for it to finish.' });
      else if (statusOf(e) === 403) setAnswer({ kind: 'refused', text: `This board may not back up: ${messageOf(e)}` });
      else fail(e);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="backup-run">
    <div class="btn-row">
      <button type="button" class="btn btn-primary" disabled=${busy || st.running} onClick=${() => run(false)}><${Icon} name="archive" size=${14} />Back up now</button>
      ${answer && answer.kind === 'fresh' ? html`<button type="button" class="btn btn-sm" disabled=${busy || st.running} onClick=${() => run(true)}>Back up anyway</button>` : null}
    </div>
    ${answer ? html`<p class="small" role="status" data-run-answer=${answer.kind}>${answer.text}</p>` : null}
  </div>`;
}

function LastRun({ st }) {
  const r = st.lastRun;
  const push = st.push || { state: 'never' };
  return html`<section aria-labelledby="h-last">
    <h2 id="h-last" class="section-title">Last run</h2>
    ${r ? html`<dl class="facts" data-last-run=${r.outcome}>
      <dt>Started</dt><dd>${when(r.startedAt)}</dd>
      <dt>Outcome</dt><dd>${OUTCOMES[r.outcome] || r.outcome} <span class="muted">(exit ${r.exit})</span></dd>
      ${r.file ? html`<dt>Snapshot</dt><dd><code>${r.file}</code>, ${size(r.size)}, store version ${r.storeVersion}</dd>` : null}
      ${r.counts ? html`<dt>Holds</dt><dd>${counts(r.counts)}</dd>` : null}
      ${r.error ? html`<dt>Error</dt><dd class="danger">${r.error}</dd>` : null}
      ${(r.warnings || []).length ? html`<dt>Warnings</dt><dd><ul class="warnings">${r.warnings.map((w, i) => html`<li key=${i} class="warn">${w}</li>`)}</ul></dd>` : null}
    </dl>` : html`<p class="muted">No backup has run on this board yet.</p>`}
    <p class="small" data-push=${push.state}>${{
      pushed: html`Last push succeeded ${when(push.at)}.`,
      failed: html`Last push failed ${when(push.at)}${push.error ? html`: ${push.error}` : null}. Snapshots wait in the local copy until a push succeeds.`,
    }[push.state] || 'Nothing has been pushed yet.'}</p>
  </section>`;
}

function Readiness({ checks, onRefresh }) {
  return html`<section aria-labelledby="h-ready">
    <h2 id="h-ready" class="section-title">Readiness
      <button type="button" class="btn btn-xs" onClick=${onRefresh}><${Icon} name="restore" size=${12} />Refresh</button></h2>
    <ul class="readiness">${checks.map((c) => html`<li key=${c.id} data-check=${c.id} class=${c.ok ? 'ok' : 'missing'}>
      <div class="check-head"><${Icon} name=${c.ok ? 'checkCircle' : 'x'} size=${14} /><span>${c.label}</span><span class="sr-only">${c.ok ? ': yes' : ': no'}</span></div>
      ${c.detail ? html`<div class="muted small">${c.detail}</div>` : null}
      ${!c.ok && c.fix ? html`<div class="small fix" data-fix>${c.fix}</div>` : null}
    </li>`)}</ul>
  </section>`;
}

function History({ snapshots }) {
  return html`<section aria-labelledby="h-history">
    <h2 id="h-history" class="section-title">History <span class="count">${snapshots.length}</span></h2>
    ${!snapshots.length ? html`<${Empty} icon="archive" title="No snapshots yet">Each backup adds one encrypted snapshot; none is ever overwritten.</${Empty}>` : html`
    <div class="table-wrap"><table class="snapshots">
      <thead><tr><th scope="col">Taken</th><th scope="col">Size</th><th scope="col">Store version</th><th scope="col">Holds</th></tr></thead>
      <tbody>${snapshots.map((s) => html`<tr key=${s.file} data-snapshot=${s.file}>
        <td title=${s.file}>${when(s.created)}</td><td>${size(s.size)}</td><td>${s.storeVersion}</td><td class="small">${counts(s.counts)}</td></tr>`)}</tbody>
    </table></div>`}
  </section>`;
}

function Repo({ repo }) {
  const source = { SVC_BACKUP_REPO: 'the SVC_BACKUP_REPO variable', 'backup.json': 'backup.json beside the data', default: 'the default (none)' }[repo.source] || repo.source;
  return html`<section aria-labelledby="h-repo">
    <h2 id="h-repo" class="section-title">Repository</h2>
    <dl class="facts" data-repo-match=${repo.match ? 'yes' : 'no'}>
      <dt>Backs up to</dt><dd>${repo.effective ? html`<code>${repo.effective}</code>` : html`<span class="muted">none configured</span>`}</dd>
      <dt>Set by</dt><dd>${source}</dd>
      <dt>Expected</dt><dd>${repo.expected ? html`<code>${repo.expected}</code>` : html`<span class="muted">none recorded</span>`}${repo.effective && !repo.match ? html` <span class="pill pill-danger">does not match</span>` : null}</dd>
      ${repo.clone ? html`<dt>Local copy</dt><dd><code>${repo.clone}</code></dd>` : null}
    </dl>
  </section>`;
}

function Log({ lines }) {
  return html`<section aria-labelledby="h-log">
    <h2 id="h-log" class="section-title">Log of the last run</h2>
    ${lines.length ? html`<pre class="backup-log" tabindex="0" aria-label="Log of the last run">${lines.join('\n')}</pre>` : html`<p class="muted">No log yet.</p>`}
  </section>`;
}
