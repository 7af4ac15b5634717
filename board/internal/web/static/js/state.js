// @ts-check
// Page-wide state that is not board data: toasts, dialogs, the command bar,
// and the label catalog shared by every view that draws labels.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { resource, onVault, onHealth } from './live.js';

/**
 * A Store is one value the page shares; use() is a hook that redraws its
 * component whenever the value is set.
 * @template T
 * @typedef {object} Store
 * @property {() => T} get
 * @property {(next: T | ((prev: T) => T)) => void} set
 * @property {() => T} use
 */

/**
 * @template T
 * @param {T} initial
 * @returns {Store<T>}
 */
export function createStore(initial) {
  let value = initial;
  /** @type {Set<(v: T) => void>} */
  const subs = new Set();
  return {
    get: () => value,
    set(next) {
      value = typeof next === 'function' ? /** @type {(prev: T) => T} */ (next)(value) : next;
      for (const fn of [...subs]) fn(value);
    },
    use() {
      const [v, set] = useState(value);
      useEffect(() => {
        subs.add(set);
        set(value);
        return () => subs.delete(set);
      }, []);
      return v;
    },
  };
}

/**
 * @typedef {object} ToastAction
 * @property {string} label
 * @property {() => void} run
 */
/** @typedef {{ id: number, message: string, kind: string, action?: ToastAction }} Toast */

/** @type {Store<Toast[]>} */
export const toasts = createStore(/** @type {Toast[]} */ ([]));
let toastSeq = 0;

// toast shows a short message; kind is info, ok or error.
// An action ({ label, run }) adds a button, such as Undo.
/**
 * @param {string} message
 * @param {'info' | 'ok' | 'error'} [kind]
 * @param {ToastAction} [action]
 */
export function toast(message, kind = 'info', action) {
  const id = ++toastSeq;
  toasts.set((list) => [...list.slice(-3), { id, message, kind, action }]);
  setTimeout(() => dismissToast(id), kind === 'error' ? 7000 : action ? 6000 : 3500);
}

/** @param {number} id */
export function dismissToast(id) {
  toasts.set((list) => list.filter((t) => t.id !== id));
}

// fail reports a failed write the way every view does.
/** @param {any} e */
export function fail(e) {
  console.warn(e);
  toast(e && e.message ? e.message : String(e), 'error');
}

// dialog holds the open confirmation or prompt, if any.
/** @type {Store<any>} */
export const dialog = createStore(null);

// confirmDialog asks a yes or no question; it resolves to the answer.
/**
 * @param {{ title: string, message?: string, ok?: string, danger?: boolean }} opts
 * @returns {Promise<boolean>}
 */
export function confirmDialog(opts) {
  return new Promise((resolve) => dialog.set({ kind: 'confirm', ...opts, resolve }));
}

// promptDialog asks for one line of text; it resolves to it, or null.
/**
 * @param {{ title: string, label?: string, value?: string, ok?: string, placeholder?: string }} opts
 * @returns {Promise<string | null>}
 */
export function promptDialog(opts) {
  return new Promise((resolve) => dialog.set({ kind: 'prompt', ...opts, resolve }));
}

// overlay is the open page-wide overlay: the command bar, the shortcut sheet,
// a new case or a template, with what it was opened with.
/** @type {Store<{ kind: string, [k: string]: any } | null>} */
export const overlay = createStore(/** @type {{ kind: string, [k: string]: any } | null} */ (null));

// patchList applies a change set to a list of records of one kind held
// under data[key]: a changed record replaces its old self (or joins the end,
// where the board puts a new one), a removed one, or one keep() refuses,
// leaves. It returns data unchanged when nothing of that kind changed.
/**
 * @param {any} data
 * @param {string} key
 * @param {string} kind
 * @param {import('./live.js').ChangeSet} ch
 * @param {(rec: any) => boolean} [keep]
 */
export function patchList(data, key, kind, ch, keep = () => true) {
  const changed = ch.changed.filter((r) => r.kind === kind);
  const removed = new Set(ch.removed.filter((r) => r.kind === kind).map((r) => r.id));
  if (!changed.length && !removed.size) return { ...data, version: ch.version };
  /** @type {Map<string, any>} */
  const next = new Map(changed.map((r) => [r.id, r.record]));
  const out = [];
  for (const rec of data[key] || []) {
    if (removed.has(rec.id)) continue;
    if (next.has(rec.id)) {
      const r = next.get(rec.id);
      next.delete(rec.id);
      if (keep(r)) out.push(r);
      continue;
    }
    out.push(rec);
  }
  for (const r of next.values()) if (keep(r)) out.push(r);
  return { ...data, [key]: out, version: ch.version };
}

// Shared live data: one fetch per board version for every view using it,
// and after that only what the change sets say (see live.js). Lists hold
// summaries; a record is loaded whole when it is opened.
export const catalog = resource(() => api.labels.list(), { kinds: ['label', 'labelSources'] });
// The kanban's cases: summaries of every node not archived, patched in place.
export const allCases = resource(() => api.cases.list({ view: 'summary' }), {
  kinds: ['case'],
  patch: (data, ch) => patchList(data, 'cases', 'case', ch, (c) => !c.archivedAt),
});
export const unread = resource(() => api.unreadCount(), { kinds: ['message'] });
// A proposal's entry says how its targets stand now, so a change to a target
// counts as well as one to a proposal.
export const proposals = resource(() => api.proposals.list(), {
  relevant: (ch, data) => {
    const targets = new Set(((data && data.pending) || []).flatMap((p) => (p.targets || []).map((t) => t.id)));
    return [...ch.changed, ...ch.removed].some((r) => r.kind === 'proposal' || targets.has(r.id));
  },
});
export const prefs = resource(() => api.prefs.get(), { kinds: ['prefs'] });
export const views = resource(() => api.views.list(), { kinds: ['view'] });
export const templates = resource(() => api.templates.list(), { kinds: ['template'] });

// useCatalog is the label catalog, kept live, with a lookup by id.
export function useCatalog() {
  const { data } = catalog.use();
  /** @type {{ id: string, title: string, description?: string, color: string }[]} */
  const labels = (data && data.labels) || [];
  /** @type {Record<string, { id: string, title: string, description?: string, color: string }>} */
  const byId = {};
  for (const l of labels) byId[l.id] = l;
  return { labels, byId };
}

// useCases is every non-archived case node, kept live, with a lookup by id.
export function useCases() {
  const r = allCases.use();
  /** @type {import('./types.js').Case[]} */
  const list = (r.data && r.data.cases) || [];
  /** @type {Record<string, import('./types.js').Case>} */
  const byId = {};
  for (const c of list) byId[c.id] = c;
  return { ...r, list, byId };
}

// The vault's pages by title, for the names the Inbox and the drawer show.
// Pages are files: no board record holds them, so no change set touches
// them (a case's links reach a page's `cases` by a write to its file), and
// every change of a page, by the board or by hand, comes as the stream's
// vault event.
// VAULT_LIST is the most pages the board gives in one answer.
export const VAULT_LIST = 500;
export const vaultPages = resource(() => api.vault.list({ limit: VAULT_LIST }), { kinds: [] });
onVault(() => vaultPages.reload());
// The vault answers 503 until its first scan ends; health says when it has.
onHealth((h) => {
  if (h && h.vault && !h.vault.loading && vaultPages.get().error) vaultPages.reload();
});

// usePages is the vault's pages, kept live, with a lookup by id and by path
// (a link may name either).
export function usePages() {
  const r = vaultPages.use();
  /** @type {import('./types.js').PageSummary[]} */
  const list = (r.data && r.data.pages) || [];
  /** @type {Record<string, import('./types.js').PageSummary>} */
  const byKey = {};
  for (const p of list) {
    byKey[p.path] = p;
    if (p.id) byKey[p.id] = p;
  }
  return { ...r, list, byKey };
}
