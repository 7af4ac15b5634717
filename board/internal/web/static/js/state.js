// Page-wide state that is not board data: toasts, dialogs, the command bar,
// and the label catalog shared by every view that draws labels.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { resource } from './live.js';

export function createStore(initial) {
  let value = initial;
  const subs = new Set();
  return {
    get: () => value,
    set(next) {
      value = typeof next === 'function' ? next(value) : next;
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

export const toasts = createStore([]);
let toastSeq = 0;

// toast shows a short message; kind is info, ok or error.
// An action ({ label, run }) adds a button, such as Undo.
export function toast(message, kind = 'info', action) {
  const id = ++toastSeq;
  toasts.set((list) => [...list.slice(-3), { id, message, kind, action }]);
  setTimeout(() => dismissToast(id), kind === 'error' ? 7000 : action ? 6000 : 3500);
}

export function dismissToast(id) {
  toasts.set((list) => list.filter((t) => t.id !== id));
}

// fail reports a failed write the way every view does.
export function fail(e) {
  console.warn(e);
  toast(e && e.message ? e.message : String(e), 'error');
}

// dialog holds the open confirmation or prompt, if any.
export const dialog = createStore(null);

export function confirmDialog(opts) {
  return new Promise((resolve) => dialog.set({ kind: 'confirm', ...opts, resolve }));
}

export function promptDialog(opts) {
  return new Promise((resolve) => dialog.set({ kind: 'prompt', ...opts, resolve }));
}

export const overlay = createStore(null); // 'command' | 'help' | 'template' | null

// Shared live data: one fetch per board version for every view using it.
export const catalog = resource(() => api.get('/api/labels'));
export const allCases = resource(() => api.get('/api/cases'));
export const unread = resource(() => api.get('/api/unread-count'));
export const pending = resource(() => api.get('/api/pending'));
export const prefs = resource(() => api.get('/api/prefs'));
export const views = resource(() => api.get('/api/views'));
export const templates = resource(() => api.get('/api/templates'));

// useCatalog is the label catalog, kept live, with a lookup by id.
export function useCatalog() {
  const { data } = catalog.use();
  const labels = (data && data.labels) || [];
  const byId = {};
  for (const l of labels) byId[l.id] = l;
  return { labels, byId };
}

// useCases is every non-archived case node, kept live, with a lookup by id.
export function useCases() {
  const r = allCases.use();
  const list = (r.data && r.data.cases) || [];
  const byId = {};
  for (const c of list) byId[c.id] = c;
  return { ...r, list, byId };
}
