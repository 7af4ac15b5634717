// @ts-check
// A small history router: the path picks the view, the query carries state
// a link should keep (filters, the open case, the calendar's month).
import { useEffect, useState } from 'preact/hooks';
import { isAPI } from './api.js';

/** @type {Set<(r: import('./types.js').Route) => void>} */
const subs = new Set();

/** @returns {import('./types.js').Route} */
function current() {
  return { path: location.pathname, query: new URLSearchParams(location.search), hash: location.hash };
}

function emit() {
  const r = current();
  for (const fn of [...subs]) fn(r);
}

/**
 * @param {string} to
 * @param {{ replace?: boolean }} [opts]
 */
export function navigate(to, opts = {}) {
  const url = new URL(to, location.href);
  if (url.origin !== location.origin) {
    location.href = url.href;
    return;
  }
  const next = url.pathname + url.search + url.hash;
  if (next === location.pathname + location.search + location.hash) return;
  if (opts.replace) history.replaceState(null, '', next);
  else history.pushState(null, '', next);
  emit();
}

// setQuery changes some query parameters of the current address; a null or
// empty value removes one.
/**
 * @param {Record<string, string | number | boolean | null | undefined>} changes
 * @param {{ replace?: boolean }} [opts]
 */
export function setQuery(changes, opts = {}) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '' || v === false) q.delete(k);
    else q.set(k, v === true ? '1' : String(v));
  }
  const s = q.toString();
  navigate(location.pathname + (s ? '?' + s : ''), opts);
}

// hrefWith is path with the current query, some parameters changed.
/**
 * @param {string} path
 * @param {Record<string, string | number | null | undefined>} changes
 * @returns {string}
 */
export function hrefWith(path, changes) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') q.delete(k);
    else q.set(k, String(v));
  }
  const s = q.toString();
  return path + (s ? '?' + s : '');
}

// useRoute is where the page is, kept current.
/** @returns {import('./types.js').Route} */
export function useRoute() {
  const [r, set] = useState(current);
  useEffect(() => {
    subs.add(set);
    return () => subs.delete(set);
  }, []);
  return r;
}

addEventListener('popstate', emit);

// Same-origin links move inside the page instead of reloading it.
document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const t = /** @type {Element | null} */ (e.target);
  const a = /** @type {HTMLAnchorElement | null} */ (t && t.closest && t.closest('a[href]'));
  if (!a || a.target || a.hasAttribute('download') || a.dataset.native !== undefined) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || isAPI(url.pathname)) return;
  e.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});
