// @ts-check
// The command bar (Ctrl+K or /): search as you type and jump to a result, or
// run a command through api.command. Also the keyboard shortcut sheet (?).
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Icon, Modal, TierBadge, trapFocus } from '../ui.js';
import { api, statusOf, messageOf } from '../api.js';
import { navigate, hrefWith } from '../router.js';
import { overlay, toast, fail } from '../state.js';
import { laneName } from '../format.js';
import { groupOf, pageHref } from '../pages.js';
import { useResolvedDate, describeDate, remindWords, remindWith } from '../nldate.js';

const VERBS = ['new', 'move', 'done', 'star', 'unstar', 'archive', 'restore', 'remind', 'note', 'find', 'help', '?'];

function isCommand(text) {
  return VERBS.includes(text.trim().split(/\s+/)[0].toLowerCase());
}

// hitsOf flattens search results into rows the bar can jump to.
/** @typedef {{ key: string, kind: string, title: string, sub: string, href?: string, tier?: string, cmd?: string }} Hit a row of the bar: a search hit (href) or a command to run (cmd) */
/** @returns {Hit[]} */
function hitsOf(r) {
  if (!r) return [];
  const out = [];
  for (const c of r.cases || []) out.push({ key: 'c' + c.id, kind: 'case', title: c.title, sub: `${c.id} · ${laneName(c.status)}${c.archivedAt ? ' · in Trash' : ''}`, tier: c.kind, href: hrefWith(location.pathname, { case: c.id }) });
  for (const t of r.tasks || []) out.push({ key: 't' + t.caseId + t.task.id, kind: 'task', title: t.task.title, sub: `Task in ${t.caseId}`, href: hrefWith(location.pathname, { case: t.caseId }) });
  for (const m of r.messages || []) out.push({ key: 'm' + m.id, kind: 'message', title: m.subject || '(no subject)', sub: `${m.from || ''} · ${m.id}`, href: '/inbox?m=' + encodeURIComponent(m.id) });
  for (const x of r.reminders || []) out.push({ key: 'r' + x.id, kind: 'reminder', title: x.title, sub: `${x.id} · ${x.status}${x.dueAt ? ' · due ' + x.dueAt.slice(0, 10) : ''}`, href: '/reminders?id=' + encodeURIComponent(x.id) });
  // Vault pages, when the board's search holds them (absent otherwise).
  for (const p of r.pages || []) out.push({ key: 'v' + p.path, kind: 'page', title: p.title, sub: `${groupOf(p).one}${p.id ? ' · ' + p.id : ''}`, href: pageHref(p) });
  return out;
}

async function search(q) {
  try {
    // Notes and email bodies too: a person expects to find what they wrote.
    return await api.search({ q, fields: 'body,notes' });
  } catch (e) {
    if (statusOf(e) !== 404 && statusOf(e) !== 405) throw e;
    const r = await api.command('find ' + q);
    return r.results || {};
  }
}

const kindIcon = { case: 'layers', task: 'checkCircle', message: 'mail', reminder: 'bell', page: 'user', command: 'command' };

export function CommandBar() {
  const [text, setText] = useState('');
  const [hits, setHits] = useState(/** @type {Hit[]} */ ([]));
  const [sel, setSel] = useState(0);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  const input = useRef(/** @type {HTMLInputElement | null} */ (null));
  const seq = useRef(0);
  const close = () => overlay.set(null);
  useEffect(() => {
    if (input.current) input.current.focus();
  }, []);
  useEffect(() => {
    const q = text.trim();
    setNote('');
    if (!q || isCommand(q)) {
      setHits([]);
      return undefined;
    }
    const n = ++seq.current;
    const t = setTimeout(async () => {
      try {
        const r = await search(q);
        if (n === seq.current) {
          setHits(hitsOf(r).slice(0, 30));
          setSel(0);
        }
      } catch (e) {
        if (n === seq.current) setNote(messageOf(e));
      }
    }, 120);
    return () => clearTimeout(t);
  }, [text]);
  // A remind command may say its date in words: the board resolves it, the
  // row shows the date, and the command runs with the date written out.
  const due = useResolvedDate(remindWords(text));
  const dated = due && remindWith(text, due);
  /** @type {Hit[]} */
  const rows = [];
  if (text.trim()) {
    rows.push(isCommand(text)
      ? (dated ? { key: 'run', kind: 'command', cmd: dated, title: `Run “${dated}”`, sub: `Due ${describeDate(due)} · Enter creates the reminder` }
        : { key: 'run', kind: 'command', cmd: text.trim(), title: `Run “${text.trim()}”`, sub: 'Enter runs it on the board' })
      : { key: 'run', kind: 'command', cmd: 'find ' + text.trim(), title: `Find “${text.trim()}” everywhere`, sub: 'Runs find on the board' });
  }
  if (!isCommand(text)) rows.push(...hits);
  // A search query leads with its best hit; a command leads with running it.
  const order = isCommand(text) || !hits.length ? rows : [...rows.slice(1), rows[0]];
  const run = async (t) => {
    if (!t) return;
    setBusy(true);
    try {
      const r = await api.command(t);
      if (r.results) {
        setHits(hitsOf(r.results).slice(0, 30));
        setText(t.replace(/^find\s+/i, ''));
        setNote(r.message);
      } else if (r.href) {
        close();
        toast(r.message, 'ok');
        navigate(r.href.startsWith('/board?case=') ? hrefWith(location.pathname, { case: r.href.split('case=')[1] }) : r.href);
      } else {
        setNote(r.message);
      }
    } catch (e) {
      if (statusOf(e) === 400) setNote(messageOf(e));
      else fail(e);
    } finally {
      setBusy(false);
    }
  };
  const choose = (row) => {
    if (!row) return;
    if (row.kind === 'command') return run(row.cmd);
    close();
    navigate(row.href);
  };
  const onKey = (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      setSel((sel + 1) % Math.max(order.length, 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setSel((sel - 1 + order.length) % Math.max(order.length, 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(order[sel] || order[0]);
    } else if (e.key === 'Tab') {
      trapFocus(e, ref.current);
    }
  };
  return html`<div class="modal-backdrop top" onPointerDown=${(e) => { if (e.target === e.currentTarget) close(); }}>
    <div class="command" role="dialog" aria-modal="true" aria-label="Command bar" ref=${ref} onKeyDown=${onKey}>
      <div class="command-input"><${Icon} name="search" size=${18} />
        <input ref=${input} role="combobox" aria-expanded=${order.length ? 'true' : 'false'} aria-controls="command-list" aria-autocomplete="list"
          aria-activedescendant=${order[sel] ? 'cmd-' + order[sel].key : undefined} aria-label="Search or run a command"
          placeholder="Search cases, tasks, emails, reminders, or type a command (new, move, star, remind, find…)" value=${text}
          onInput=${(e) => { setText(e.target.value); setSel(0); }} disabled=${busy} />
        <kbd>Esc</kbd></div>
      ${note ? html`<pre class="command-note" role="status">${note}</pre>` : null}
      <ul id="command-list" class="command-list" role="listbox" aria-label="Results">
        ${order.map((r, i) => html`<li key=${r.key} id=${'cmd-' + r.key} role="option" aria-selected=${i === sel ? 'true' : 'false'}
          class=${'command-row' + (i === sel ? ' sel' : '')} onMouseMove=${() => i !== sel && setSel(i)} onClick=${() => choose(r)}>
          <span class="command-icon"><${Icon} name=${kindIcon[r.kind]} size=${15} /></span>
          <span class="command-title">${r.title}</span>${r.tier && r.tier !== 'case' ? html`<${TierBadge} kind=${r.tier} />` : null}
          <span class="command-sub">${r.sub}</span>
        </li>`)}
      </ul>
      ${!text.trim() ? html`<div class="command-help">
        <div><kbd>new</kbd> Call the landlord <span class="muted">creates a case</span></div>
        <div><kbd>move</kbd> CASE-12 done <span class="muted">moves a card</span></div>
        <div><kbd>star</kbd> CASE-3 · <kbd>archive</kbd> CASE-9 · <kbd>note</kbd> CASE-4 text</div>
        <div><kbd>remind</kbd> Renew passport next fri <span class="muted">creates a reminder (a date, or in words)</span></div>
        <div><kbd>find</kbd> invoice <span class="muted">or just type to search</span></div>
      </div>` : null}
    </div>
  </div>`;
}

const SHORTCUTS = [
  ['Ctrl K', 'Open the command bar'],
  ['/', 'Open the command bar'],
  ['?', 'Show these shortcuts'],
  ['Ctrl Z', 'Undo your last change (Cmd Z on a Mac)'],
  ['c', 'New case'],
  ['g d', 'Go to Agenda'],
  ['g b', 'Go to My Issues'],
  ['g s', 'Go to Strategy'],
  ['g i', 'Go to Inbox'],
  ['g a', 'Go to Activity'],
  ['g c', 'Go to Calendar'],
  ['g r', 'Go to Reminders'],
  ['g p', 'Go to Priorities'],
  ['g v', 'Go to Proposals'],
  ['g l', 'Go to Labels'],
  ['g u', 'Go to Security'],
  ['g k', 'Go to Backups'],
  ['g t', 'Go to Trash'],
  ['g x', 'Go to Import / Export'],
  ['g e', 'Go to People'],
  ['Enter', 'Open the focused card'],
  ['e', 'Rename the focused card'],
  ['s', 'Star or unstar the focused card'],
  ['[ ]', 'Move the focused card one lane left or right'],
  ['Space', 'Pick up the focused card (Space or Enter on any grip handle): arrows move it, Space or Enter drops it, Esc puts it back'],
  ['Delete', 'Move the focused card to Trash'],
  ['← →', 'Previous or next month in Calendar'],
  ['Esc', 'Close a drawer, dialog or menu'],
];

export function ShortcutHelp() {
  return html`<${Modal} title="Keyboard shortcuts" onClose=${() => overlay.set(null)} labelledBy="help-title">
    <table class="shortcuts"><tbody>
      ${SHORTCUTS.map(([k, v]) => html`<tr key=${k + v}><th scope="row">${k.split(' ').map((x) => html`<kbd>${x}</kbd> `)}</th><td>${v}</td></tr>`)}
    </tbody></table>
    <p><button type="button" class="btn btn-sm" onClick=${() => overlay.set({ kind: 'welcome' })}><${Icon} name="sparkle" size=${14} />Getting started: the board, the lanes, connecting your agent</button></p>
  </${Modal}>`;
}
