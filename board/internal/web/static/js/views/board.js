// @ts-check
// My Issues: the five-lane kanban, its filters, quick add, clean, saved views
// and new-from-template. Every gesture calls the route the agent's verb uses.
import { Component } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { html, Icon, Labels, Due, Menu, EditField, Problem, Spinner, Segmented } from '../ui.js';
import { api } from '../api.js';
import { LANES, laneName, plural } from '../format.js';
import { dragStart } from '../dnd.js';
import { setQuery, hrefWith, navigate } from '../router.js';
import { useCases, useCatalog, toast, fail, confirmDialog, promptDialog, prefs, views, overlay } from '../state.js';
import { Strategy } from './strategy.js';
import { WelcomePanel } from './welcome.js';
import { toggleStar, archiveCase, moveCase, renameCase } from '../cases.js';
import { laneKey, sortLane, positionAt } from '../lanes.js';
import { arrivals } from '../arrivals.js';
import { startKeyMove } from '../keymove.js';

// Filters read from the address, so a saved view or a shared link restores them.
/**
 * @param {URLSearchParams} query
 * @returns {import('../types.js').Filters}
 */
function readFilters(query) {
  return {
    q: query.get('q') || '',
    domain: query.get('domain') || '',
    label: query.get('label') || '',
    starred: query.get('starred') === '1',
    in: query.get('in') || '',
  };
}

// isContainer: initiatives and workstreams hold cases; the kanban shows
// the cases, and the containers as a scope to pick and on each card.
/** @param {import('../types.js').Case} c */
const isContainer = (c) => c.kind === 'initiative' || c.kind === 'workstream';

// within says whether c sits under the container id (its parent, or its
// parent's parent).
/**
 * @param {import('../types.js').Case} c
 * @param {string} id
 * @param {Record<string, import('../types.js').Case>} byId
 */
function within(c, id, byId) {
  for (let p = c.parentId, depth = 0; p && depth < 3; depth++) {
    if (p === id) return true;
    p = byId[p] ? byId[p].parentId : '';
  }
  return false;
}

// matches says whether a card passes the filters.
/**
 * @param {import('../types.js').Case} c
 * @param {import('../types.js').Filters} f
 * @param {Record<string, { title: string }>} byLabel
 * @param {Record<string, import('../types.js').Case>} byId
 */
function matches(c, f, byLabel, byId) {
  if (f.in && !within(c, f.in, byId)) return false;
  if (f.domain && (c.domain || 'work') !== f.domain) return false;
  if (f.label && !(c.labels || []).includes(f.label)) return false;
  if (f.starred && !c.starred) return false;
  if (f.q) {
    const needle = f.q.toLowerCase();
    const hay = [c.id, c.title, c.summary, ...(c.tags || []), ...(c.labels || []).map((id) => (byLabel[id] || {}).title || id)]
      .join(' ')
      .toLowerCase();
    if (!needle.split(/\s+/).every((w) => hay.includes(w))) return false;
  }
  return true;
}

// The operational or strategy toggle lives in the prefs as `view`.
/**
 * @param {any} data the api.prefs answer
 * @returns {'strategy' | 'operational'}
 */
function boardMode(data) {
  const p = (data && data.prefs) || {};
  return p.view === 'strategy' ? 'strategy' : 'operational';
}

/** @param {string} mode */
async function setBoardMode(mode) {
  navigate(hrefWith(mode === 'strategy' ? '/strategy' : '/board', {}));
  try {
    await api.prefs.patch({ view: mode });
  } catch (e) {
    fail(e);
  }
}

/** @param {{ route: import('../types.js').Route }} props */
export function BoardPage({ route }) {
  const p = prefs.use();
  const saved = views.use();
  const f = readFilters(route.query);
  const viewId = route.query.get('view');
  const view = viewId && ((saved.data && saved.data.views) || []).find((v) => v.id === viewId);
  let mode = route.path === '/strategy' ? 'strategy' : route.path === '/board' ? 'operational' : boardMode(p.data);
  return html`<section class="page page-board" aria-labelledby="page-title">
    <header class="page-head">
      <div class="page-title-row">
        <h1 id="page-title">My Issues</h1>
        <${Segmented} label="Board mode" value=${mode} onChange=${setBoardMode}
          options=${[{ value: 'operational', label: 'Operational', icon: 'board' }, { value: 'strategy', label: 'Strategy', icon: 'tree' }]} />
        ${view ? html`<span class="pill view-pill"><${Icon} name="bookmark" size=${12} />${view.name}</span>` : null}
        <div class="grow"></div>
        <${NewCaseButtons} mode=${mode} filters=${f} />
      </div>
      <${FilterBar} filters=${f} mode=${mode} />
    </header>
    <${FirstRun} />
    ${mode === 'strategy' ? html`<${Strategy} filters=${f} />` : html`<${Kanban} filters=${f} />`}
  </section>`;
}

// FirstRun greets a board with no cases yet; the first case retires it.
function FirstRun() {
  const { list, loading, error, data } = useCases();
  if (list.length || error || (loading && !data)) return null;
  return html`<${WelcomePanel} />`;
}

function NewCaseButtons({ mode, filters }) {
  return html`<div class="btn-row">
    <button type="button" class="btn" onClick=${() => overlay.set({ kind: 'template', filters })}>
      <${Icon} name="template" size=${15} />From template</button>
    <button type="button" class="btn btn-primary" onClick=${() => overlay.set({ kind: 'newcase', filters, mode })}>
      <${Icon} name="plus" size=${15} />New ${mode === 'strategy' ? 'node' : 'case'}</button>
  </div>`;
}

function FilterBar({ filters: f, mode }) {
  const { labels } = useCatalog();
  const { list } = useCases();
  const used = new Set(list.flatMap((c) => c.labels || []));
  const shown = labels.filter((l) => used.has(l.id) || l.id === f.label);
  const active = f.q || f.domain || f.label || f.starred || f.in;
  const [text, setText] = useState(f.q);
  const timer = useRef(0);
  const input = useRef(null);
  // A saved view or the back button changes the filter: show it, unless the
  // person is typing in the field right now.
  useEffect(() => {
    if (document.activeElement !== input.current) setText(f.q);
  }, [f.q]);
  const onText = (v) => {
    setText(v);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setQuery({ q: v.trim() || null, view: null }, { replace: true }), 150);
  };
  const save = async () => {
    const name = await promptDialog({ title: 'Save this view', label: 'Name', placeholder: 'e.g. Urgent work', ok: 'Save view' });
    if (!name) return;
    try {
      const res = await api.views.create({ name, filters: { q: f.q || undefined, domain: f.domain || undefined, label: f.label || undefined, starred: f.starred || undefined, in: (mode !== 'strategy' && f.in) || undefined, mode } });
      const v = res && res.view;
      toast(`Saved view “${name}”`, 'ok');
      if (v && v.id) setQuery({ view: v.id }, { replace: true });
      views.reload();
    } catch (e) {
      fail(e);
    }
  };
  return html`<div class="filters" role="search" aria-label="Filter cases">
    <label class="search-field"><${Icon} name="search" size=${15} />
      <input ref=${input} type="search" placeholder="Filter cases" aria-label="Filter by text" value=${text} onInput=${(e) => onText(e.target.value)} /></label>
    <select aria-label="Filter by domain" value=${f.domain} onChange=${(e) => setQuery({ domain: e.target.value || null, view: null })}>
      <option value="">All domains</option><option value="work">Work</option><option value="life">Life</option>
    </select>
    <select aria-label="Filter by label" value=${f.label} onChange=${(e) => setQuery({ label: e.target.value || null, view: null })}>
      <option value="">All labels</option>
      ${shown.map((l) => html`<option key=${l.id} value=${l.id}>${l.title}</option>`)}
    </select>
    ${mode !== 'strategy' ? html`<${ScopeSelect} value=${f.in} cases=${list} />` : null}
    <button type="button" class=${'btn btn-toggle' + (f.starred ? ' on' : '')} aria-pressed=${f.starred ? 'true' : 'false'}
      onClick=${() => setQuery({ starred: f.starred ? null : '1', view: null })}><${Icon} name="star" size=${14} filled=${f.starred} />Starred</button>
    ${active ? html`<button type="button" class="btn btn-ghost" onClick=${() => { setText(''); setQuery({ q: null, domain: null, label: null, starred: null, in: null, view: null }); }}>Clear</button>` : null}
    <div class="grow"></div>
    <button type="button" class="btn btn-ghost" onClick=${save}><${Icon} name="bookmark" size=${14} />Save view</button>
  </div>`;
}

// ScopeSelect narrows the kanban to the cases under one initiative or
// workstream: containers are a scope, not cards among the cases.
/** @param {{ value: string, cases: import('../types.js').Case[] }} props */
function ScopeSelect({ value, cases }) {
  const inits = cases.filter((c) => c.kind === 'initiative').sort((a, b) => a.title.localeCompare(b.title));
  const streams = cases.filter((c) => c.kind === 'workstream');
  const orphans = streams.filter((w) => !inits.some((i) => i.id === w.parentId));
  const missing = value && !cases.some((c) => c.id === value);
  if (!inits.length && !streams.length && !value) return null;
  return html`<select aria-label="Scope to an initiative or workstream" data-scope value=${value} onChange=${(e) => setQuery({ in: e.target.value || null, view: null })}>
    <option value="">All initiatives</option>
    ${missing ? html`<option value=${value}>${value}</option>` : null}
    ${inits.map((i) => [
      html`<option key=${i.id} value=${i.id}>${i.title}</option>`,
      ...streams.filter((w) => w.parentId === i.id).sort((a, b) => a.title.localeCompare(b.title))
        .map((w) => html`<option key=${w.id} value=${w.id}>\u00a0\u00a0› ${w.title}</option>`),
    ])}
    ${orphans.map((w) => html`<option key=${w.id} value=${w.id}>${w.title}</option>`)}
  </select>`;
}

function Kanban({ filters }) {
  const { list, byId, error, loading } = useCases();
  const { byId: byLabel } = useCatalog();
  const scroller = useRef(null);
  const lanes = useMemo(() => {
    const out = {};
    for (const l of LANES) out[l.id] = [];
    for (const c of list) {
      if (isContainer(c) || !matches(c, filters, byLabel, byId)) continue;
      (out[c.status] || out.todo).push(c);
    }
    for (const k of Object.keys(out)) out[k] = sortLane(out[k]);
    return out;
  }, [list, filters, byLabel, byId]);
  // One handler for every card, so a card whose case did not change is not
  // redrawn (see PureCard); it drops through this render's drop.
  /** @type {{ current: any }} */
  const dropNow = useRef(null);
  const onDragCard = useCallback((e, c, el) => dragStart(e, { el, zones: '[data-lane]', items: '[data-card]', mode: 'list', scroller: scroller.current, onDrop: dropNow.current(c) }), []);
  const onKeyMove = useCallback((c, el) => startKeyMove({
    el, name: `'${c.title}'`, zones: '[data-lane]', items: '[data-card]',
    where: (zone) => laneName(zone.dataset.lane || ''),
    onDrop: (d) => dropNow.current(c)(d),
    refocus: () => document.querySelector(`[data-card][data-id="${CSS.escape(c.id)}"]`),
  }), []);
  if (error && !list.length) return html`<${Problem} error=${error} what="The case list" />`;
  if (loading && !list.length) return html`<${Spinner} />`;

  const drop = (c) => async ({ zone, index }) => {
    const lane = zone.dataset.lane;
    const others = lanes[lane].filter((x) => x.id !== c.id);
    const patch = {};
    if (lane !== c.status) patch.status = lane;
    const pos = positionAt(others, index);
    if (pos !== undefined && (lane !== c.status || pos !== laneKey(c))) patch.position = pos;
    if (!Object.keys(patch).length) return;
    try {
      await api.cases.patch(c.id, patch);
    } catch (e) {
      fail(e);
    }
  };
  dropNow.current = drop;
  return html`<div class="kanban" ref=${scroller}>
    ${LANES.map((l) => html`<${Lane} key=${l.id} lane=${l} cards=${lanes[l.id]} byId=${byId} filters=${filters} onDragCard=${onDragCard} onKeyMove=${onKeyMove} />`)}
  </div>`;
}

// A lane draws its first LANE_PAGE cards and more on request: a lane of a
// thousand cards costs its first screen only a few dozen.
const LANE_PAGE = 25;

function Lane({ lane, cards, byId, filters, onDragCard, onKeyMove }) {
  const [adding, setAdding] = useState(false);
  // On a phone an empty lane folds to a narrow strip (CSS on .is-empty),
  // so the first screen shows work; a tap opens it again.
  const [opened, setOpened] = useState(false);
  const folded = !cards.length && !adding && !opened;
  const [shown, setShown] = useState(LANE_PAGE);
  const marked = arrivals.use();
  // A card someone else just created, moved or changed is drawn wherever
  // it sits: the window grows to reach it (and stays, so it does not vanish
  // when its mark ends).
  const reach = cards.reduce((n, c, i) => (marked.has(c.id) ? i + 1 : n), 0);
  useEffect(() => { if (reach > shown) setShown(reach); }, [reach]);
  const limit = Math.max(shown, reach);
  const drawn = cards.length > limit ? cards.slice(0, limit) : cards;
  const clean = async () => {
    const ids = cards.map((c) => c.id);
    const ok = await confirmDialog({
      title: `Clean ${plural(ids.length, 'done case')}?`,
      message: `This permanently removes the ${plural(ids.length, 'done case')} in view and their linked emails (an email also linked to a reminder is kept). A backup copy of the board is kept on disk.`,
      ok: 'Clean',
      danger: true,
    });
    if (!ok) return;
    try {
      const res = await api.cases.clean(ids);
      toast(`Cleaned ${plural((res.removed || ids).length, 'case')}${res.messagesRemoved ? ` and ${plural(res.messagesRemoved, 'email')}` : ''}`, 'ok');
    } catch (e) {
      fail(e);
    }
  };
  return html`<section class=${'lane lane-' + lane.id + (folded ? ' is-empty' : '')} aria-label=${lane.name} data-lane-id=${lane.id}>
    <button type="button" class="lane-unfold" aria-label=${`Open ${lane.name}, no cases`} onClick=${() => setOpened(true)}>
      <span class="lane-dot" aria-hidden="true"></span><span class="lane-unfold-name">${lane.name}</span><span class="count">0</span></button>
    <header class="lane-head">
      <span class="lane-dot" aria-hidden="true"></span>
      <h2>${lane.name}</h2><span class="count" aria-label=${plural(cards.length, 'case')}>${cards.length}</span>
      <div class="grow"></div>
      ${lane.id === 'done' && cards.length ? html`<button type="button" class="btn btn-ghost btn-sm" onClick=${clean} title="Permanently remove the done cases in view">Clean</button>` : null}
      <button type="button" class="icon-btn" aria-label=${'Add a case to ' + lane.name} title="Add a case" onClick=${() => setAdding(true)}><${Icon} name="plus" /></button>
    </header>
    <div class="lane-body" data-lane=${lane.id} data-scroll-y>
      ${drawn.map((c) => html`<${PureCard} key=${c.id} c=${c} byId=${byId} onDrag=${onDragCard} onKeyMove=${onKeyMove} arrived=${marked.has(c.id)} />`)}
      ${drawn.length < cards.length ? html`<button type="button" class="lane-add lane-more" onClick=${() => setShown(shown + LANE_PAGE * 4)}>
        Show ${plural(Math.min(cards.length - drawn.length, LANE_PAGE * 4), 'more case')} of ${cards.length - drawn.length}</button>` : null}
      ${!cards.length && !adding ? html`<div class="lane-empty">No cases</div>` : null}
      ${adding ? html`<${QuickAdd} lane=${lane} filters=${filters} onClose=${() => setAdding(false)} />`
        : html`<button type="button" class="lane-add" onClick=${() => setAdding(true)}><${Icon} name="plus" size=${14} />Add case</button>`}
    </div>
  </section>`;
}

function QuickAdd({ lane, filters, onClose }) {
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef(/** @type {HTMLInputElement | null} */ (null));
  useEffect(() => { if (!busy && input.current) input.current.focus(); }, [busy]);
  const submit = async (e) => {
    e.preventDefault();
    const t = title.trim();
    if (!t) return onClose();
    setBusy(true);
    try {
      const body = { title: t, status: lane.id };
      if (filters.domain) body.domain = filters.domain;
      if (filters.label) body.labels = [filters.label];
      if (filters.starred) body.starred = true;
      if (filters.in) body.parentId = filters.in;
      await api.cases.create(body);
      setTitle('');
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="quick-add" onSubmit=${submit}>
    <input autofocus aria-label=${'New case title in ' + lane.name} placeholder="Case title, then Enter" value=${title} disabled=${busy}
      ref=${input}
      onInput=${(e) => setTitle(e.target.value)} onKeyDown=${(e) => { if (e.key === 'Escape') onClose(); }}
      onBlur=${() => { if (!title.trim()) onClose(); }} />
    <div class="quick-add-row"><button type="submit" class="btn btn-primary btn-sm" disabled=${busy}>Add</button>
      <button type="button" class="btn btn-ghost btn-sm" onClick=${onClose}>Cancel</button></div>
  </form>`;
}

// Crumbs is where a case sits: "Initiative › Workstream", small, above its
// title.
/** @param {{ c: import('../types.js').Case, byId: Record<string, import('../types.js').Case> }} props */
function Crumbs({ c, byId }) {
  if (!c.parentId) return null;
  /** @type {string[]} */
  const chain = [];
  for (let id = c.parentId, depth = 0; id && depth < 2; depth++) {
    const p = byId[id];
    chain.unshift(p ? p.title : id);
    id = p ? p.parentId || '' : '';
  }
  // The nearest container is the one to keep readable: the initiative
  // before it gives way first when the card is narrow.
  return html`<div class="crumbs" data-crumbs title=${'Part of ' + chain.join(' › ')}><${Icon} name="layers" size=${11} />
    ${chain.map((t, i) => html`${i ? html`<span class="crumb-sep" aria-hidden="true">›</span>` : null}<span class=${'crumb' + (i < chain.length - 1 ? ' crumb-outer' : '')}>${t}</span>`)}</div>`;
}

/**
 * The containers a card's crumbs name: its parent and grandparent records.
 * @param {any} c
 * @param {Record<string, any>} byId
 */
function ancestors(c, byId) {
  const parent = c.parentId ? byId[c.parentId] : undefined;
  return [parent, parent && parent.parentId ? byId[parent.parentId] : undefined];
}

// PureCard redraws its card only when the case, its containers, its mark
// or the handlers changed: a change set replaces just the records it names,
// so one agent write redraws one card rather than every card on the board.
// A card the person is dragging or typing in waits: it is redrawn when
// they let go, so a write from elsewhere never pulls it from under them.
class PureCard extends Component {
  /** @param {any} next */
  shouldComponentUpdate(next) {
    const p = this.props;
    const [a1, a2] = ancestors(p.c, p.byId);
    const [b1, b2] = ancestors(next.c, next.byId);
    const changed = next.c !== p.c || next.onDrag !== p.onDrag || next.arrived !== p.arrived || a1 !== b1 || a2 !== b2;
    if (changed && this.busy()) {
      this.later();
      return false;
    }
    return changed;
  }

  // busy says whether the person holds this card: dragging it (by pointer
  // or keyboard) or typing in it.
  busy() {
    const base = /** @type {any} */ (this).base;
    const el = base instanceof HTMLElement ? base : null;
    if (!el) return false;
    if (el.classList.contains('is-dragging')) return true;
    const f = document.activeElement;
    return !!f && el.contains(f) && f.matches('input, textarea, select, [contenteditable]');
  }

  // later redraws the card once the person lets go of it.
  later() {
    if (this.waiting) return;
    this.waiting = setInterval(() => {
      if (this.busy()) return;
      clearInterval(this.waiting);
      this.waiting = 0;
      /** @type {any} */ (this).forceUpdate();
    }, 250);
  }

  componentWillUnmount() {
    clearInterval(this.waiting);
  }

  /** @param {any} props */
  render(props) {
    return html`<${Card} ...${props} />`;
  }
}

function Card({ c, byId, onDrag, onKeyMove, arrived }) {
  const [editing, setEditing] = useState(false);
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  // A card holds the case's summary: its task counts, not its tasks.
  const taskCount = c.taskCount || 0;
  const doneTasks = c.tasksDone || 0;
  const open = () => setQuery({ case: c.id });
  const laneIdx = LANES.findIndex((l) => l.id === c.status);
  const onKey = (e) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter') { e.preventDefault(); open(); }
    else if (e.key === ' ') { e.preventDefault(); onKeyMove(c, ref.current); }
    else if (e.key === 'e' || e.key === 'F2') { e.preventDefault(); setEditing(true); }
    else if (e.key === 's') { e.preventDefault(); toggleStar(c); }
    else if (e.key === '[' && laneIdx > 0) { e.preventDefault(); moveCase(c, LANES[laneIdx - 1].id); }
    else if (e.key === ']' && laneIdx < LANES.length - 1) { e.preventDefault(); moveCase(c, LANES[laneIdx + 1].id); }
    else if (e.key === 'Delete' || e.key === 'Backspace') { e.preventDefault(); archiveCase(c); }
  };
  return html`<article class=${'card' + (c.starred ? ' starred' : '') + (arrived ? ' arrived' : '')} data-card data-id=${c.id} ref=${ref} tabindex="0"
    aria-label=${`${c.title}, ${laneName(c.status)}`}
    onPointerDown=${(e) => !editing && onDrag(e, c, ref.current)} onClick=${() => !editing && open()} onKeyDown=${onKey}>
    <div class="card-top">
      <button type="button" class="drag-handle" data-drag-handle data-move aria-label=${'Move ' + c.title} title="Drag, or press Space or Enter to move with the arrow keys"
        onClick=${(e) => e.stopPropagation()}
        onKeyDown=${(e) => { if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); e.stopPropagation(); onKeyMove(c, ref.current); } }}><${Icon} name="grip" size=${14} /></button>
      <div class="grow"></div>
      <button type="button" class="icon-btn hover-only" aria-label=${'Rename ' + c.title} title="Rename (E)"
        onClick=${(e) => { e.stopPropagation(); setEditing(true); }}><${Icon} name="edit" size=${13} /></button>
      <button type="button" class=${'icon-btn star' + (c.starred ? ' on' : ' hover-only')} aria-pressed=${c.starred ? 'true' : 'false'}
        aria-label=${c.starred ? 'Unstar ' + c.title : 'Star ' + c.title} title=${c.starred ? 'Unstar' : 'Star'}
        onClick=${(e) => { e.stopPropagation(); toggleStar(c); }}><${Icon} name="star" size=${14} filled=${c.starred} /></button>
      <${Menu} label=${'Actions for ' + c.title} items=${[
        { label: 'Open', icon: 'external', onSelect: open },
        { label: 'Rename', icon: 'edit', hint: 'E', onSelect: () => setEditing(true) },
        { label: c.starred ? 'Unstar' : 'Star', icon: 'star', hint: 'S', onSelect: () => toggleStar(c) },
        { heading: 'Move to' },
        ...LANES.filter((l) => l.id !== c.status).map((l) => ({ label: l.name, icon: 'chevronRight', onSelect: () => moveCase(c, l.id) })),
        { heading: '' },
        { label: 'Move to Trash', icon: 'archive', danger: true, onSelect: () => archiveCase(c) },
      ]} />
    </div>
    ${editing
      ? html`<${EditField} value=${c.title} label="Case title" className="card-title-input"
          onSave=${(t) => { setEditing(false); renameCase(c, t); }} onCancel=${() => { setEditing(false); ref.current && ref.current.focus(); }} />`
      : html`<h3 class="card-title">${c.title}</h3>`}
    <${Crumbs} c=${c} byId=${byId} />
    <${Labels} ids=${c.labels} max=${3} />
    <div class="card-meta">
      ${taskCount ? html`<span class=${'tasks' + (doneTasks === taskCount ? ' all-done' : '')} title=${`${doneTasks} of ${taskCount} tasks done`}>
        <${Icon} name="checkCircle" size=${13} />${doneTasks}/${taskCount}</span>` : null}
      <${Due} at=${c.dueAt} done=${c.status === 'done'} />
      ${c.domain === 'life' ? html`<span class="domain-pill">Life</span>` : null}
      <span class="card-id">${c.id}</span>
    </div>
  </article>`;
}

