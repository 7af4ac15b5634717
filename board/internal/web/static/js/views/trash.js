// @ts-check
// Trash: archived case nodes, restorable, or deleted for good.
import { html, Icon, TierBadge, Problem, Spinner, Empty } from '../ui.js';
import { api } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { fail, toast, confirmDialog, patchList } from '../state.js';
import { relTime, laneName } from '../format.js';
import { restoreCase } from '../cases.js';

export function TrashPage() {
  const { data, error, loading } = useLive(() => api.cases.list({ includeArchived: true, view: 'summary' }), [],
    { kinds: ['case'], patch: (d, ch) => patchList(d, 'cases', 'case', ch) });
  const list = ((data && data.cases) || []).filter((c) => c.archivedAt).sort((a, b) => String(b.archivedAt).localeCompare(String(a.archivedAt)));
  const purge = async (c) => {
    const ok = await confirmDialog({ title: `Delete “${c.title}” for good?`, message: 'It cannot be restored afterwards. Its linked emails are unlinked and stay in the Inbox.', ok: 'Delete permanently', danger: true });
    if (!ok) return;
    try {
      await api.cases.remove(c.id, { hard: true });
      toast(`Deleted ${c.id}`, 'ok');
    } catch (e) {
      fail(e);
    }
  };
  return html`<section class="page page-narrow" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Trash</h1><span class="count">${list.length}</span></div>
      <p class="lede">Archived cases stay here until you restore them or delete them for good. Search still finds them.</p></header>
    <${Problem} error=${error} what="The Trash" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${data && !list.length ? html`<${Empty} icon="trash" title="Trash is empty">Cases you archive land here.</${Empty}>` : null}
    <ul class="rows">${list.map((c) => html`<li key=${c.id} class="row">
      <${TierBadge} kind=${c.kind} />
      <div class="row-main">
        <button type="button" class="linkish strong" onClick=${() => setQuery({ case: c.id })}>${c.title}</button>
        <div class="muted small">${c.id} · ${laneName(c.status)} · archived ${relTime(c.archivedAt)}${c.mergedInto ? ` · merged into ${c.mergedInto}` : ''}</div>
      </div>
      <button type="button" class="btn btn-sm" onClick=${() => restoreCase(c)}><${Icon} name="restore" size=${14} />Restore</button>
      <button type="button" class="btn btn-sm btn-danger-ghost" onClick=${() => purge(c)}><${Icon} name="trash" size=${14} />Delete</button>
    </li>`)}</ul>
  </section>`;
}
