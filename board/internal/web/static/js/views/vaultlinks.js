// @ts-check
// The case drawer's linked pages: the vault pages a case links (its
// vaultLinks), with add and remove. The board keeps each page's `cases` in
// step, so the link shows on the page too.
import { html, Icon } from '../ui.js';
import { api } from '../api.js';
import { usePages, vaultPages, fail } from '../state.js';
import { PAGE_GROUPS, groupOf, PageName } from '../pages.js';

/** @param {{ c: import('../types.js').Case }} props */
export function VaultLinks({ c }) {
  const { list, byKey, error } = usePages();
  const links = c.vaultLinks || [];
  const linked = new Set(links.flatMap((k) => (byKey[k] ? [byKey[k].path] : [k])));
  const free = list.filter((p) => !linked.has(p.path) && !p.broken);
  const save = async (/** @type {string[]} */ next) => {
    try {
      await api.cases.patch(c.id, { vaultLinks: next });
      vaultPages.reload();
    } catch (e) {
      fail(e);
    }
  };
  return html`<section class="block" aria-labelledby="h-pages">
    <h3 id="h-pages">Linked pages ${links.length ? html`<span class="count">${links.length}</span>` : null}</h3>
    ${links.length ? html`<ul class="link-list">${links.map((k) => {
      const p = byKey[k];
      return html`<li key=${k} data-link=${k}><${Icon} name="user" size=${14} /><${PageName} k=${k} pages=${byKey} className="linkish" />
        ${p ? html`<span class="muted small">${groupOf(p).one}</span>` : null}
        <button type="button" class="icon-btn icon-btn-sm" aria-label=${'Unlink ' + (p ? p.title : k)} title="Unlink" onClick=${() => save(links.filter((x) => x !== k))}><${Icon} name="x" size=${12} /></button></li>`;
    })}</ul>` : html`<p class="muted">No pages linked. Link the people and organizations this case is for.</p>`}
    ${error && !list.length ? html`<p class="muted small">The vault is not answering: ${error.message}</p>` : html`<select class="link-page" aria-label="Link a page" value="" onChange=${(e) => { const v = e.target.value; e.target.value = ''; if (v) save([...links, v]); }}>
      <option value="">Link a page…</option>
      ${PAGE_GROUPS.map((g) => {
        const pages = free.filter((p) => (p.type || '') === g.type);
        return pages.length ? html`<optgroup key=${g.type} label=${g.name}>${pages.map((p) => html`<option key=${p.path} value=${p.id || p.path}>${p.title}</option>`)}</optgroup>` : null;
      })}
    </select>`}
  </section>`;
}
