// @ts-check
// Labels: the catalog the person and the agent share. Your labels (create,
// edit the title, color and description, delete with or without stripping
// them from cases) and the built-in bundles (install, uninstall with the
// scrub choice). Every gesture calls the route the agent's label tools call;
// a conflict or a refusal is shown in the board's own words.
import { useState } from 'preact/hooks';
import { html, Icon, Spinner, Problem, Modal, Empty } from '../ui.js';
import { api, messageOf } from '../api.js';
import { useLive } from '../live.js';
import { useCatalog, useCases, toast, fail } from '../state.js';
import { plural } from '../format.js';

// The board's fixed palette, in its own order.
export const LABEL_COLORS = ['amber', 'blue', 'sky', 'teal', 'violet', 'red', 'fuchsia', 'orange', 'green', 'indigo', 'pink', 'gray'];

const KIND_NAMES = { universal: 'Universal', role: 'Roles', life: 'Life areas' };

export function LabelsPage() {
  const { labels } = useCatalog();
  const { list } = useCases();
  const bundles = useLive(() => api.labels.bundles(), []);
  /** @type {Record<string, number>} */
  const uses = {};
  for (const c of list) for (const id of c.labels || []) uses[id] = (uses[id] || 0) + 1;
  return html`<section class="page page-narrow page-labels" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Labels</h1></div>
      <p class="lede">Labels mark what a case or reminder needs (waiting on someone, a quick win). You and the agent draw from this one catalog: add your own, or install a bundle made for a role or an area of life.</p></header>
    <section aria-labelledby="h-yours">
      <h2 id="h-yours" class="section-title">In your catalog <span class="count">${labels.length}</span></h2>
      <${NewLabel} />
      ${labels.length ? html`<ul class="label-list">${[...labels].sort((a, b) => a.title.localeCompare(b.title)).map((l) => html`<${LabelRow} key=${l.id} l=${l} uses=${uses[l.id] || 0} />`)}</ul>`
        : html`<${Empty} icon="bookmark" title="No labels yet">Add one above, or install a bundle below.</${Empty}>`}
    </section>
    <section aria-labelledby="h-bundles">
      <h2 id="h-bundles" class="section-title">Bundles</h2>
      ${bundles.error ? html`<${Problem} error=${bundles.error} what="The bundles" />` : null}
      ${bundles.loading && !bundles.data ? html`<${Spinner} />` : null}
      ${bundles.data ? html`<${BundleList} bundles=${bundles.data.bundles || []} />` : null}
    </section>
  </section>`;
}

// ColorPicker is the palette as a row of swatches.
/** @param {{ value: string, onChange: (c: string) => void, name: string }} props */
function ColorPicker({ value, onChange, name }) {
  return html`<div class="color-picker" role="radiogroup" aria-label=${name}>
    ${LABEL_COLORS.map((c) => html`<button key=${c} type="button" role="radio" aria-checked=${value === c ? 'true' : 'false'} aria-label=${c} title=${c}
      class=${'color-dot lc-' + c + (value === c ? ' on' : '')} data-color=${c} onClick=${() => onChange(c)}><span class="swatch" aria-hidden="true"></span></button>`)}
  </div>`;
}

function NewLabel() {
  const [f, setF] = useState({ title: '', color: 'blue', description: '' });
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setErr('');
    try {
      const res = await api.labels.create({ title: f.title, color: f.color, description: f.description.trim() || undefined });
      toast(`Added label “${res.label.title}” (${res.label.id})`, 'ok');
      setF({ title: '', color: f.color, description: '' });
    } catch (e2) {
      setErr(messageOf(e2));
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="label-new" onSubmit=${submit} data-new-label>
    <div class="label-new-row">
      <input aria-label="New label title" placeholder="New label, e.g. Needs budget" value=${f.title} onInput=${(e) => setF({ ...f, title: e.target.value })} />
      <button type="submit" class="btn btn-primary btn-sm" disabled=${busy}><${Icon} name="plus" size=${14} />Add label</button>
    </div>
    <input aria-label="New label description" placeholder="When it applies (the agent reads this)" value=${f.description} onInput=${(e) => setF({ ...f, description: e.target.value })} />
    <${ColorPicker} name="New label color" value=${f.color} onChange=${(color) => setF({ ...f, color })} />
    ${err ? html`<p class="form-error" role="alert" data-error>${err}</p>` : null}
  </form>`;
}

/** @param {{ l: { id: string, title: string, description?: string, color: string }, uses: number }} props */
function LabelRow({ l, uses }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return html`<li class="label-row" data-label=${l.id}>
    ${editing ? html`<${LabelEdit} l=${l} onDone=${() => setEditing(false)} />` : html`
      <span class=${'chip lc-' + (l.color || 'gray')}><span class="chip-dot" aria-hidden="true"></span>${l.title}</span>
      <div class="label-main"><code class="muted small">${l.id}</code>${l.description ? html`<div class="muted small label-desc">${l.description}</div>` : null}</div>
      <span class="muted small label-uses">${uses ? plural(uses, 'case') : ''}</span>
      <button type="button" class="btn btn-ghost btn-sm" aria-label=${'Edit label ' + l.title} onClick=${() => setEditing(true)}><${Icon} name="edit" size=${13} />Edit</button>
      <button type="button" class="btn btn-ghost btn-sm" aria-label=${'Delete label ' + l.title} onClick=${() => setDeleting(true)}><${Icon} name="trash" size=${13} />Delete</button>`}
    ${deleting ? html`<${DeleteLabel} l=${l} uses=${uses} onClose=${() => setDeleting(false)} />` : null}
  </li>`;
}

/** @param {{ l: { id: string, title: string, description?: string, color: string }, onDone: () => void }} props */
function LabelEdit({ l, onDone }) {
  const [f, setF] = useState({ title: l.title, color: l.color || 'gray', description: l.description || '' });
  const [err, setErr] = useState('');
  const save = async (e) => {
    e.preventDefault();
    /** @type {Record<string, string>} */
    const body = {};
    if (f.title !== l.title) body.title = f.title;
    if (f.color !== (l.color || 'gray')) body.color = f.color;
    if (f.description !== (l.description || '')) body.description = f.description;
    if (!Object.keys(body).length) return onDone();
    try {
      await api.labels.patch(l.id, body);
      toast(`Saved label “${f.title.trim() || l.title}”`, 'ok');
      onDone();
    } catch (e2) {
      setErr(messageOf(e2));
    }
  };
  return html`<form class="label-edit" onSubmit=${save} onKeyDown=${(e) => { if (e.key === 'Escape') onDone(); }}>
    <input autofocus aria-label=${'Title of label ' + l.id} value=${f.title} onInput=${(e) => setF({ ...f, title: e.target.value })} />
    <input aria-label=${'Description of label ' + l.id} placeholder="When it applies" value=${f.description} onInput=${(e) => setF({ ...f, description: e.target.value })} />
    <${ColorPicker} name=${'Color of label ' + l.id} value=${f.color} onChange=${(color) => setF({ ...f, color })} />
    <div class="btn-row"><button type="submit" class="btn btn-primary btn-sm">Save</button><button type="button" class="btn btn-ghost btn-sm" onClick=${onDone}>Cancel</button></div>
    ${err ? html`<p class="form-error" role="alert" data-error>${err}</p>` : null}
  </form>`;
}

/** @param {{ l: { id: string, title: string }, uses: number, onClose: () => void }} props */
function DeleteLabel({ l, uses, onClose }) {
  const [scrub, setScrub] = useState(true);
  const [err, setErr] = useState('');
  const go = async () => {
    try {
      await api.labels.remove(l.id, { scrub });
      toast(`Deleted label “${l.title}”`, 'ok');
      onClose();
    } catch (e) {
      setErr(messageOf(e));
    }
  };
  return html`<${Modal} title=${`Delete label “${l.title}”?`} onClose=${onClose} labelledBy="delete-label-title"
    footer=${html`<button type="button" class="btn" onClick=${onClose}>Cancel</button>
      <button type="button" class="btn btn-danger" onClick=${go}>Delete</button>`}>
    <p>It leaves the catalog, so neither you nor the agent can pick it again.${uses ? ` ${plural(uses, 'case')} on the board carry it.` : ''}</p>
    <label class="choice-row"><input type="checkbox" checked=${scrub} onChange=${(e) => setScrub(e.target.checked)} />
      <span>Also remove it from every case and reminder</span></label>
    ${!scrub ? html`<p class="muted small">Cases keep the id; it shows as an unknown label until you delete it there.</p>` : null}
    ${err ? html`<p class="form-error" role="alert" data-error>${err}</p>` : null}
  </${Modal}>`;
}

/** @param {{ bundles: any[] }} props */
function BundleList({ bundles }) {
  const [removing, setRemoving] = useState(/** @type {any} */ (null));
  // The conflicts of the last install, shown under its bundle.
  const [conflicts, setConflicts] = useState(/** @type {{ bundle: string, items: any[] } | null} */ (null));
  const install = async (b) => {
    try {
      const res = await api.labels.installBundle(b.id);
      const added = (res.added || []).length;
      toast(`Installed ${b.title}: ${plural(added, 'label')} added`, 'ok');
      setConflicts((res.conflicts || []).length ? { bundle: b.id, items: res.conflicts } : null);
    } catch (e) {
      fail(e);
    }
  };
  const kinds = ['universal', 'role', 'life'].filter((k) => bundles.some((b) => b.kind === k));
  return html`${kinds.map((k) => html`<div key=${k} class="bundle-group">
      <h3 class="bundle-kind">${KIND_NAMES[k] || k}</h3>
      <ul class="bundle-list">${bundles.filter((b) => b.kind === k).map((b) => html`<li key=${b.id} class=${'bundle' + (b.installed ? ' installed' : '')} data-bundle=${b.id}>
        <div class="bundle-main"><strong>${b.title}</strong>
          <div class="muted small">${b.description}</div></div>
        <span class="muted small bundle-count" data-bundle-count>${b.installed ? `${b.installedCount} of ${b.labelCount} in catalog` : plural(b.labelCount, 'label')}</span>
        ${b.installed
          ? html`<button type="button" class="btn btn-sm" aria-label=${'Uninstall ' + b.title} onClick=${() => setRemoving(b)}>Uninstall</button>`
          : html`<button type="button" class="btn btn-sm btn-primary" aria-label=${'Install ' + b.title} onClick=${() => install(b)}>Install</button>`}
        ${conflicts && conflicts.bundle === b.id ? html`<${ConflictPanel} bundle=${b.title} items=${conflicts.items} onClose=${() => setConflicts(null)} />` : null}
      </li>`)}</ul></div>`)}
    ${removing ? html`<${Uninstall} b=${removing} onClose=${() => setRemoving(null)} />` : null}`;
}

/** @param {{ b: any, onClose: () => void }} props */
function Uninstall({ b, onClose }) {
  const [scrub, setScrub] = useState(true);
  const go = async () => {
    try {
      const res = await api.labels.removeBundle(b.id, scrub);
      toast(`Uninstalled ${b.title}: ${plural((res.removed || []).length, 'label')} removed`, 'ok');
      onClose();
    } catch (e) {
      fail(e);
    }
  };
  return html`<${Modal} title=${`Uninstall ${b.title}?`} onClose=${onClose} labelledBy="uninstall-title"
    footer=${html`<button type="button" class="btn" onClick=${onClose}>Cancel</button>
      <button type="button" class="btn btn-danger" onClick=${go}>Uninstall</button>`}>
    <p>This removes the ${plural(b.ownedCount, 'label')} only this bundle brought. Labels another bundle or you also use stay.</p>
    <fieldset class="scrub-choice"><legend>Cases and reminders that carry them</legend>
      <label class="choice-row"><input type="radio" name="scrub" checked=${scrub} onChange=${() => setScrub(true)} /><span>Remove the labels from them too</span></label>
      <label class="choice-row"><input type="radio" name="scrub" checked=${!scrub} onChange=${() => setScrub(false)} /><span>Keep the ids on them</span></label>
    </fieldset>
  </${Modal}>`;
}

// ConflictPanel lists the bundle labels the install kept out: the id was
// already in the catalog with another meaning, and the existing one stays.
/** @param {{ bundle: string, items: any[], onClose: () => void }} props */
function ConflictPanel({ bundle, items, onClose }) {
  return html`<div class="banner banner-warn" role="alert" data-conflicts>
    <${Icon} name="alert" size=${16} />
    <div class="grow"><strong>${bundle}: ${plural(items.length, 'label')} not installed.</strong> The catalog already has ${items.length === 1 ? 'this id' : 'these ids'} with another meaning; yours ${items.length === 1 ? 'stays' : 'stay'}. Rename yours to make room for the bundle's.
      <ul>${items.map((c) => html`<li key=${c.id} data-conflict=${c.id}><code>${c.id}</code>: yours is “${c.existing.title}”${c.existing.description ? ` (${c.existing.description})` : ''}; the bundle's is “${c.incoming.title}” (${c.incoming.description})</li>`)}</ul></div>
    <button type="button" class="icon-btn" aria-label="Dismiss the conflicts" onClick=${onClose}><${Icon} name="x" /></button>
  </div>`;
}
