// @ts-check
// Vault pages in the page's words: their types in the order the People view
// groups them, and the address of a page's panel.
import { html } from './html.js';

// PAGE_GROUPS are the page types in the order the view groups them; a page
// without a type (or whose frontmatter does not parse) comes last.
export const PAGE_GROUPS = [
  { type: 'person', name: 'People', one: 'Person' },
  { type: 'organization', name: 'Organizations', one: 'Organization' },
  { type: 'project', name: 'Projects', one: 'Project' },
  { type: 'topic', name: 'Topics', one: 'Topic' },
  { type: '', name: 'Without a type', one: 'No type' },
];

// groupOf is the group a page falls in.
/** @param {{ type?: string }} p */
export const groupOf = (p) => PAGE_GROUPS.find((g) => g.type === (p.type || '')) || PAGE_GROUPS[PAGE_GROUPS.length - 1];

// VAULT_PREFIX is the address of the People view; a page opens below it.
export const VAULT_PREFIX = '/vault';

// pageHref is the address of a page's panel: its id, else its path, as one
// segment (the board's rendered links name pages the same way).
/** @param {{ id?: string, path: string } | string} p */
export function pageHref(p) {
  return VAULT_PREFIX + '/' + encodeURIComponent(typeof p === 'string' ? p : p.id || p.path);
}

// pageKeyOf is the page an address opens ('' for the list alone).
/** @param {string} path */
export function pageKeyOf(path) {
  if (!path.startsWith(VAULT_PREFIX + '/')) return '';
  const tail = path.slice(VAULT_PREFIX.length + 1);
  try {
    return decodeURIComponent(tail);
  } catch {
    return tail;
  }
}

// PageName links a page by its title (its id or path when the list does
// not hold it).
/** @param {{ k: string, pages: Record<string, import('./types.js').PageSummary>, className?: string }} props */
export function PageName({ k, pages, className = '' }) {
  const p = pages[k];
  return html`<a href=${pageHref(p || k)} class=${className} data-page=${k}>${p ? p.title : k}</a>`;
}
