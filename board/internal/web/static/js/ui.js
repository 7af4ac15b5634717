// @ts-check
// Shared pieces of every view: badges, chips, menus, dialogs, pickers.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';
import { Icon } from './icons.js';
import { dialog, toasts, dismissToast, useCatalog } from './state.js';
import { useFocusReturn } from './focusreturn.js';
import { kindName, actorName, dueState, dueLabel, dueTitle } from './format.js';

export { html, Icon };

/** @param {{ kind?: string }} props */
export function TierBadge({ kind }) {
  const k = kind || 'case';
  return html`<span class=${'tier tier-' + k} title=${'Tier: ' + kindName(k)}>${kindName(k)}</span>`;
}

/** @param {{ actor?: string }} props */
export function ActorBadge({ actor }) {
  const a = actor || 'system';
  const icon = a === 'agent' ? 'bot' : a === 'human' ? 'user' : 'sparkle';
  return html`<span class=${'actor actor-' + a} title=${actorName(a)}><${Icon} name=${icon} size=${12} />${actorName(a)}</span>`;
}

/** @typedef {{ id: string, title: string, description?: string, color: string }} LabelDef */

/** @param {{ label?: LabelDef, id: string, onRemove?: () => void }} props */
export function LabelChip({ label, id, onRemove }) {
  const color = (label && label.color) || 'gray';
  const title = (label && label.title) || id;
  return html`<span class=${'chip lc-' + color} title=${(label && label.description) || title}>
    <span class="chip-dot" aria-hidden="true"></span>${title}
    ${onRemove ? html`<button class="chip-x" type="button" aria-label=${'Remove label ' + title} onClick=${onRemove}><${Icon} name="x" size=${11} /></button>` : null}
  </span>`;
}

/** @param {{ ids?: string[], max?: number }} props */
export function Labels({ ids, max }) {
  const { byId } = useCatalog();
  if (!ids || !ids.length) return null;
  const shown = max ? ids.slice(0, max) : ids;
  return html`<span class="chips">${shown.map((id) => html`<${LabelChip} key=${id} id=${id} label=${byId[id]} />`)}
    ${max && ids.length > max ? html`<span class="chip chip-more" title=${ids.slice(max).map((id) => (byId[id] || {}).title || id).join(', ')}>+${ids.length - max}</span>` : null}</span>`;
}

/** @param {{ at?: string, done?: boolean }} props */
export function Due({ at, done }) {
  if (!at) return null;
  const st = done ? 'later' : dueState(at);
  return html`<span class=${'due due-' + st} title=${dueTitle(at)} data-due=${at}><${Icon} name="clock" size=${12} />${dueLabel(at)}</span>`;
}

/** @param {{ icon?: string, title: string, children?: any }} props */
export function Empty({ icon = 'sparkle', title, children }) {
  return html`<div class="empty"><div class="empty-icon"><${Icon} name=${icon} size=${22} /></div><h3>${title}</h3>${children ? html`<p>${children}</p>` : null}</div>`;
}

// Problem explains a failed load: a route this board does not serve yet, or
// a board that is not answering.
/** @param {{ error: any, what?: string }} props */
export function Problem({ error, what }) {
  if (!error) return null;
  const missing = error.status === 404 || error.status === 405;
  return html`<div class="problem" role="alert"><${Icon} name="alert" size=${16} />
    <div><strong>${missing ? `${what || 'This view'} is not available on this board yet.` : `Could not load ${what || 'this view'}.`}</strong>
    <div class="muted">${error.message}</div></div></div>`;
}

/** @param {{ label?: string }} props */
export function Spinner({ label = 'Loading' }) {
  return html`<div class="spinner" role="status" aria-label=${label}><span></span></div>`;
}

// useOutside calls fn on a pointer press outside ref or on Escape.
/**
 * @param {{ current: HTMLElement | null }} ref
 * @param {() => void} fn
 * @param {boolean} active
 */
export function useOutside(ref, fn, active) {
  useEffect(() => {
    if (!active) return undefined;
    /** @param {PointerEvent} e */
    const down = (e) => { if (ref.current && !ref.current.contains(/** @type {Node} */ (e.target))) fn(); };
    /** @param {KeyboardEvent} e */
    const key = (e) => { if (e.key === 'Escape') { e.stopPropagation(); fn(); } };
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('keydown', key, true);
    return () => {
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('keydown', key, true);
    };
  }, [active, fn]);
}

// Menu is a button that opens a list of actions.
/**
 * A MenuItem is one choice, or a heading over the choices after it; null
 * and false entries are skipped, so a list can hold conditional items.
 * @typedef {object} MenuChoice
 * @property {string} [label]
 * @property {string} [heading]
 * @property {string} [icon]
 * @property {string} [hint]
 * @property {boolean} [danger]
 * @property {boolean} [checked]
 * @property {boolean} [disabled]
 * @property {() => void} [onSelect]
 * @typedef {MenuChoice | null | false | undefined} MenuItem
 */

/** @param {{ label: string, icon?: string, items: MenuItem[], text?: string, align?: string, className?: string }} props */
export function Menu({ label, icon = 'more', items, text, align = 'right', className = '' }) {
  const [open, setOpen] = useState(false);
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  const close = () => setOpen(false);
  useOutside(ref, close, open);
  useEffect(() => {
    if (open && ref.current) {
      const first = /** @type {HTMLElement | null} */ (ref.current.querySelector('[role=menuitem]'));
      if (first) first.focus();
    }
  }, [open]);
  const onKey = (e) => {
    if (!open || !['ArrowDown', 'ArrowUp'].includes(e.key)) return;
    e.preventDefault();
    if (!ref.current) return;
    const list = /** @type {HTMLElement[]} */ ([...ref.current.querySelectorAll('[role=menuitem]:not([disabled])')]);
    const i = list.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const next = list[(i + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length];
    if (next) next.focus();
  };
  return html`<div class=${'menu ' + className} ref=${ref} onKeyDown=${onKey}>
    <button type="button" class=${text ? 'btn btn-ghost btn-sm' : 'icon-btn'} aria-label=${label} title=${label} aria-haspopup="menu" aria-expanded=${open ? 'true' : 'false'}
      onClick=${(e) => { e.stopPropagation(); setOpen(!open); }}>
      ${icon ? html`<${Icon} name=${icon} />` : null}${text ? html`<span>${text}</span>` : null}
    </button>
    ${open ? html`<div class=${'menu-list menu-' + align} role="menu" aria-label=${label}>
      ${/** @type {MenuChoice[]} */ (items.filter(Boolean)).map((it, i) => it.heading
        ? html`<div class="menu-heading" key=${'h' + i}>${it.heading}</div>`
        : html`<button key=${i} type="button" role="menuitem" class=${'menu-item' + (it.danger ? ' danger' : '') + (it.checked ? ' checked' : '')} disabled=${it.disabled}
          onClick=${(e) => { e.stopPropagation(); close(); it.onSelect?.(); }}>
          ${it.icon ? html`<${Icon} name=${it.icon} size=${14} />` : html`<span class="menu-pad"></span>`}<span>${it.label}</span>${it.hint ? html`<kbd>${it.hint}</kbd>` : null}
        </button>`)}
    </div>` : null}
  </div>`;
}

// Modal is a dialog over the page; Escape and the backdrop close it.
/** @param {{ title: string, onClose: () => void, children?: any, wide?: boolean, footer?: any, labelledBy?: string }} props */
export function Modal({ title, onClose, children, wide, footer, labelledBy }) {
  /** @type {{ current: HTMLElement | null }} */
  const ref = useRef(null);
  useFocusReturn();
  useEffect(() => {
    const el = ref.current;
    const target = el && /** @type {HTMLElement | null} */ (el.querySelector('[autofocus]') || el.querySelector('input,textarea,select,button'));
    if (target) target.focus();
  }, []);
  const onKey = (e) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
    }
    if (e.key === 'Tab') trapFocus(e, ref.current);
  };
  const id = labelledBy || 'modal-title';
  return html`<div class="modal-backdrop" onPointerDown=${(e) => { if (e.target === e.currentTarget) onClose(); }}>
    <div class=${'modal' + (wide ? ' modal-wide' : '')} role="dialog" aria-modal="true" aria-labelledby=${id} ref=${ref} onKeyDown=${onKey}>
      <header class="modal-head"><h2 id=${id}>${title}</h2>
        <button type="button" class="icon-btn" aria-label="Close" onClick=${onClose}><${Icon} name="x" /></button></header>
      <div class="modal-body">${children}</div>
      ${footer ? html`<footer class="modal-foot">${footer}</footer>` : null}
    </div></div>`;
}

// trapFocus keeps Tab and Shift+Tab inside root.
/**
 * @param {KeyboardEvent} e
 * @param {HTMLElement | null} root
 */
export function trapFocus(e, root) {
  if (!root) return;
  const list = [...root.querySelectorAll(/** @type {'button'} */ ('a[href],button:not([disabled]),input:not([disabled]),select,textarea,[tabindex]:not([tabindex="-1"])'))]
    .filter((el) => el.offsetParent !== null);
  if (!list.length) return;
  const first = list[0];
  const last = list[list.length - 1];
  if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
}

// Dialogs draws the open confirmation or prompt from state.dialog.
export function Dialogs() {
  const d = dialog.use();
  const [text, setText] = useState('');
  useEffect(() => { if (d) setText(d.value || ''); }, [d]);
  if (!d) return null;
  const done = (v) => { dialog.set(null); d.resolve(v); };
  if (d.kind === 'prompt') {
    return html`<${Modal} title=${d.title} onClose=${() => done(null)} labelledBy="prompt-title"
      footer=${html`<button type="button" class="btn" onClick=${() => done(null)}>Cancel</button>
        <button type="submit" form="prompt-form" class="btn btn-primary">${d.ok || 'Save'}</button>`}>
      <form id="prompt-form" onSubmit=${(e) => { e.preventDefault(); if (text.trim()) done(text.trim()); }}>
        ${d.message ? html`<p class="muted">${d.message}</p>` : null}
        <label class="field"><span>${d.label || 'Name'}</span>
          <input autofocus value=${text} onInput=${(e) => setText(e.target.value)} placeholder=${d.placeholder || ''} /></label>
      </form>
    </${Modal}>`;
  }
  return html`<${Modal} title=${d.title} onClose=${() => done(false)} labelledBy="confirm-title"
    footer=${html`<button type="button" class="btn" onClick=${() => done(false)}>Cancel</button>
      <button type="button" autofocus class=${'btn ' + (d.danger ? 'btn-danger' : 'btn-primary')} onClick=${() => done(true)}>${d.ok || 'Confirm'}</button>`}>
    <p>${d.message}</p>
  </${Modal}>`;
}

// Toasts draws the short messages from state.toasts.
export function Toasts() {
  const list = toasts.use();
  return html`<div class="toasts" role="status" aria-live="polite">
    ${list.map((t) => html`<div key=${t.id} class=${'toast toast-' + t.kind}>
      <${Icon} name=${t.kind === 'error' ? 'alert' : t.kind === 'ok' ? 'check' : 'sparkle'} size=${15} />
      <span>${t.message}</span>
      ${t.action ? html`<button type="button" class="btn btn-ghost btn-sm" onClick=${() => { dismissToast(t.id); t.action?.run(); }}>${t.action.label}</button>` : null}
      <button type="button" class="icon-btn icon-btn-sm" aria-label="Dismiss" onClick=${() => dismissToast(t.id)}><${Icon} name="x" size=${13} /></button>
    </div>`)}
  </div>`;
}

// LabelPicker edits a list of label ids from the catalog.
/** @param {{ value?: string[], onChange: (ids: string[]) => void, label?: string }} props */
export function LabelPicker({ value, onChange, label = 'Labels' }) {
  const { labels, byId } = useCatalog();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const ref = useRef(null);
  const close = () => { setOpen(false); setQ(''); };
  useOutside(ref, close, open);
  const ids = value || [];
  const toggle = (id) => onChange(ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);
  const needle = q.trim().toLowerCase();
  const shown = labels.filter((l) => !needle || l.title.toLowerCase().includes(needle) || l.id.includes(needle) || (l.description || '').toLowerCase().includes(needle));
  return html`<div class="label-picker" ref=${ref}>
    <div class="chips">
      ${ids.map((id) => html`<${LabelChip} key=${id} id=${id} label=${byId[id]} onRemove=${() => toggle(id)} />`)}
      <button type="button" class="btn btn-ghost btn-sm" aria-haspopup="listbox" aria-expanded=${open ? 'true' : 'false'} onClick=${() => setOpen(!open)}>
        <${Icon} name="plus" size=${13} />${ids.length ? 'Edit' : 'Add label'}</button>
    </div>
    ${open ? html`<div class="popover picker">
      <input class="picker-search" autofocus placeholder="Find a label" aria-label=${'Find ' + label.toLowerCase()} value=${q} onInput=${(e) => setQ(e.target.value)} />
      <div class="picker-list" role="listbox" aria-label=${label} aria-multiselectable="true">
        ${shown.length ? shown.map((l) => html`<label key=${l.id} class="picker-row" title=${l.description}>
          <input type="checkbox" checked=${ids.includes(l.id)} onChange=${() => toggle(l.id)} />
          <span class=${'swatch lc-' + (l.color || 'gray')} aria-hidden="true"></span>
          <span class="picker-title">${l.title}</span><span class="picker-desc">${l.description}</span>
        </label>`) : html`<div class="muted pad">No label matches.</div>`}
      </div></div>` : null}
  </div>`;
}

// CaseSelect picks a case node (or none). filter narrows the choices.
/** @param {{ value?: string | null, onChange: (id: string | null) => void, cases: import('./types.js').Case[], label: string, none?: string, filter?: (c: import('./types.js').Case) => boolean, id?: string }} props */
export function CaseSelect({ value, onChange, cases, label, none = 'None', filter, id }) {
  const list = (cases || []).filter((c) => !filter || filter(c));
  /** @type {[string, import('./types.js').Case[]][]} */
  const groups = ['initiative', 'workstream', 'case'].map((k) => [k, list.filter((c) => (c.kind || 'case') === k).sort((a, b) => a.title.localeCompare(b.title))]);
  const missing = value && !list.some((c) => c.id === value);
  return html`<select id=${id} aria-label=${label} value=${value || ''} onChange=${(e) => onChange(e.target.value || null)}>
    <option value="">${none}</option>
    ${missing ? html`<option value=${value}>${value}</option>` : null}
    ${groups.filter(([, cs]) => cs.length).map(([k, cs]) => html`<optgroup label=${kindName(k) + 's'}>
      ${cs.map((c) => html`<option key=${c.id} value=${c.id}>${c.title} · ${c.id}</option>`)}</optgroup>`)}
  </select>`;
}

// Segmented is a row of mutually exclusive choices.
/** @param {{ value: string, options: { value: string, label: string, icon?: string }[], onChange: (v: string) => void, label: string }} props */
export function Segmented({ value, options, onChange, label }) {
  return html`<div class="segmented" role="radiogroup" aria-label=${label}>
    ${options.map((o) => html`<button key=${o.value} type="button" role="radio" aria-checked=${value === o.value ? 'true' : 'false'}
      class=${value === o.value ? 'on' : ''} onClick=${() => onChange(o.value)}>${o.icon ? html`<${Icon} name=${o.icon} size=${14} />` : null}${o.label}</button>`)}
  </div>`;
}

// EditField is an input (or textarea) that saves on Enter or blur and
// cancels on Escape; it calls exactly one of onSave or onCancel.
/** @param {{ value?: string, onSave: (text: string) => void, onCancel?: () => void, label: string, className?: string, multiline?: boolean, placeholder?: string }} props */
export function EditField({ value, onSave, onCancel, label, className = '', multiline, placeholder }) {
  const [text, setText] = useState(value || '');
  /** @type {{ current: HTMLInputElement | null }} */
  const ref = useRef(null);
  const done = useRef(false);
  useEffect(() => {
    if (ref.current) {
      ref.current.focus();
      ref.current.select();
    }
  }, []);
  const finish = (save) => {
    if (done.current) return;
    done.current = true;
    const t = text.trim();
    if (save && t && t !== (value || '').trim()) onSave(t);
    else if (onCancel) onCancel();
  };
  const props = {
    ref, value: text, 'aria-label': label, class: 'inline-input ' + className, placeholder,
    onInput: (e) => setText(e.target.value),
    onBlur: () => finish(true),
    onClick: (e) => e.stopPropagation(),
    onPointerDown: (e) => e.stopPropagation(),
    onKeyDown: (e) => {
      e.stopPropagation();
      if (e.key === 'Enter' && (!multiline || !e.shiftKey)) { e.preventDefault(); finish(true); }
      if (e.key === 'Escape') { e.preventDefault(); finish(false); }
    },
  };
  return multiline ? html`<textarea rows="3" ...${props} />` : html`<input ...${props} />`;
}

// InlineText is text that turns into an EditField when clicked.
/** @param {{ value?: string, onSave: (text: string) => void, label: string, className?: string, multiline?: boolean, placeholder?: string }} props */
export function InlineText({ value, onSave, label, className = '', multiline, placeholder }) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return html`<${EditField} value=${value} label=${label} className=${className} multiline=${multiline}
      onSave=${(t) => { setEditing(false); onSave(t); }} onCancel=${() => setEditing(false)} />`;
  }
  return html`<span class=${'inline-text ' + className + (value ? '' : ' placeholder')} role="button" tabindex="0" aria-label=${'Edit ' + label + ': ' + (value || placeholder || '')} title="Click to edit"
    onClick=${(e) => { e.stopPropagation(); setEditing(true); }}
    onKeyDown=${(e) => { if (e.key === 'Enter' || e.key === 'F2') { e.preventDefault(); e.stopPropagation(); setEditing(true); } }}>${value || placeholder}</span>`;
}
