// @ts-check
// The first run: what the board holds, what the lanes mean, and how to give
// the agent this board, with this machine's tool-server paths and the
// board's address filled in (api.connect). An empty board shows it
// above the lanes; the help opens it at any time.
import { useEffect, useState } from 'preact/hooks';
import { html, Icon, Modal } from '../ui.js';
import { api } from '../api.js';
import { overlay, toast } from '../state.js';
import { LANES } from '../format.js';

const TIERS = [
  ['initiative', 'Initiative', 'A goal that runs for months, such as “Move to Lisbon” or “Launch the Q3 product”. Always at the top.'],
  ['workstream', 'Workstream', 'One line of work inside an initiative, such as “Visa paperwork”. Holds cases only.'],
  ['case', 'Case', 'One thing to get done, with its tasks, notes, emails, events and reminders. It sits in a lane; it may belong to an initiative or a workstream.'],
];

/** @type {Record<string, string>} */
const LANE_MEANING = {
  urgent: 'needs you today',
  todo: 'next, not started',
  in_progress: 'being worked on, by you or the agent',
  waiting_for_input: 'blocked on someone else or a decision',
  done: 'finished; Clean removes them for good',
};

// The names an MCP client knows each server by.
/** @type {Record<string, string>} */
const CLIENT_NAMES = { 'mcp-board': 'opsboard', 'mcp-calendar': 'opsboard-calendar', 'mcp-guard': 'opsboard-guard' };

/**
 * @typedef {{ name: string, path: string, exists: boolean, env?: Record<string, string> }} Server
 * @typedef {{ boardUrl: string, servers: Server[] }} ConnectInfo
 */

// clientConfig is the mcpServers block of an MCP client's JSON config.
/** @param {ConnectInfo} info */
export function clientConfig(info) {
  /** @type {Record<string, any>} */
  const servers = {};
  for (const s of info.servers) {
    servers[CLIENT_NAMES[s.name] || s.name] = { command: s.path, args: [], env: s.env || {} };
  }
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

// addLines are the `claude mcp add` lines, one a server.
/** @param {ConnectInfo} info */
export function addLines(info) {
  return info.servers.map((s) => ['claude mcp add', CLIENT_NAMES[s.name] || s.name,
    ...Object.entries(s.env || {}).map(([k, v]) => `-e ${k}=${v}`), '--', s.path].join(' ')).join('\n');
}

/** @param {string} text */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast('Copied', 'ok');
  } catch {
    toast('Copy did not work here: select the text and copy it.', 'error');
  }
}

// Connect is the "Connect your agent" block.
export function Connect() {
  const [info, setInfo] = useState(/** @type {ConnectInfo | null} */ (null));
  const [err, setErr] = useState('');
  useEffect(() => {
    api.connect().then(setInfo, (e) => setErr(e.message));
  }, []);
  if (err) return html`<p class="form-error" role="alert">${err}</p>`;
  if (!info) return html`<p class="muted small">Looking up the tool servers…</p>`;
  const missing = info.servers.filter((s) => !s.exists);
  const cfg = clientConfig(info);
  const lines = addLines(info);
  return html`<div class="connect" data-connect>
    <p>The agent works the board through tool servers over MCP. This board answers at <code data-board-url>${info.boardUrl}</code>.</p>
    <ul class="connect-servers">${info.servers.map((s) => html`<li key=${s.name} data-server=${s.name} class=${s.exists ? 'ok' : 'missing'}>
      <${Icon} name=${s.exists ? 'checkCircle' : 'alert'} size=${14} /><code>${s.path || s.name}</code>
      ${s.exists ? null : html`<span class="pill pill-warn" data-missing>not built yet: run <code>make build</code></span>`}</li>`)}</ul>
    ${missing.length ? html`<p class="muted small">Build the servers first: <code>make build</code> in your checkout puts them beside the board in <code>bin/</code>.</p>` : null}
    <div class="connect-block">
      <div class="connect-head"><span>Paste into your MCP client's JSON config</span>
        <button type="button" class="btn btn-xs" onClick=${() => copy(cfg)}>Copy config</button></div>
      <pre class="code" data-config>${cfg}</pre>
    </div>
    <div class="connect-block">
      <div class="connect-head"><span>Or, for Claude Code</span>
        <button type="button" class="btn btn-xs" onClick=${() => copy(lines)}>Copy commands</button></div>
      <pre class="code" data-claude>${lines}</pre>
    </div>
    <p class="muted small">The guard bridge matters only when the guard sidecar runs (see Security).</p>
  </div>`;
}

// WelcomeBody is what the panel and the dialog both show.
function WelcomeBody() {
  return html`<div class="welcome-grid">
    <section aria-labelledby="h-tiers">
      <h3 id="h-tiers">What the board holds</h3>
      <dl class="welcome-tiers">${TIERS.map(([k, name, text]) => html`<div key=${k}><dt><span class=${'tier tier-' + k}>${name}</span></dt><dd>${text}</dd></div>`)}</dl>
    </section>
    <section aria-labelledby="h-lanes">
      <h3 id="h-lanes">The five lanes</h3>
      <ul class="welcome-lanes">${LANES.map((l) => html`<li key=${l.id} class=${'lane-' + l.id}><span class="lane-dot" aria-hidden="true"></span><span><strong>${l.name}</strong>: ${LANE_MEANING[l.id]}</span></li>`)}</ul>
    </section>
    <section aria-labelledby="h-connect" class="welcome-connect">
      <h3 id="h-connect">Connect your agent</h3>
      <${Connect} />
    </section>
    <section aria-labelledby="h-day" class="welcome-day">
      <h3 id="h-day">Then, each day</h3>
      <p>Open the <a href="/agenda" data-welcome-agenda onClick=${() => overlay.set(null)}>Agenda</a>: what is overdue, due today and this week, and what the agent proposed and waits on you for, each done in place.</p>
    </section>
  </div>`;
}

// WelcomePanel greets an empty board above its lanes.
export function WelcomePanel() {
  return html`<section class="welcome" data-welcome aria-labelledby="welcome-title">
    <header class="welcome-head"><${Icon} name="sparkle" size=${18} />
      <div><h2 id="welcome-title">Welcome to your board</h2>
      <p class="muted">Nothing here yet. Add a case with <strong>New case</strong> (or press <kbd>c</kbd>), or connect your agent and let it file what it finds. This note goes away once the board has cases; the <strong>?</strong> in the sidebar brings it back.</p></div>
    </header>
    <${WelcomeBody} />
  </section>`;
}

// WelcomeDialog is the same, reopened from the help.
export function WelcomeDialog() {
  return html`<${Modal} wide title="Getting started" onClose=${() => overlay.set(null)} labelledBy="welcome-dialog-title">
    <div data-welcome><${WelcomeBody} /></div>
  </${Modal}>`;
}
