// @ts-check
// Strategy: the initiative > workstream > case tree with rollup progress,
// expand and collapse, and regrouping (set parent) by drag or by menu.
import { useState } from 'preact/hooks';
import { html, Icon, TierBadge, Menu, Problem, Spinner, Empty, Modal, CaseSelect } from '../ui.js';
import { api } from '../api.js';
import { laneName, plural } from '../format.js';
import { dragStart } from '../dnd.js';
import { startKeyMove } from '../keymove.js';
import { setQuery } from '../router.js';
import { useLive } from '../live.js';
import { useCases, fail, toast, promptDialog } from '../state.js';
import { canHold, toggleStar, archiveCase } from '../cases.js';

const FOLD_KEY = 'opsboard.folded';
const LOOSE_PAGE = 50;

function loadFolded() {
  try {
    return new Set(JSON.parse(localStorage.getItem(FOLD_KEY) || '[]'));
  } catch {
    return new Set();
  }
}

async function setParent(node, parentId) {
  if ((node.parentId || null) === (parentId || null)) return;
  try {
    await api.cases.patch(node.id, { parentId: parentId || null });
    toast(parentId ? `Moved “${node.title}” under ${parentId}` : `Detached “${node.title}”`, 'ok');
  } catch (e) {
    fail(e);
  }
}

const NO_ROLLUP = { totalCases: 0, doneCases: 0, totalTasks: 0, doneTasks: 0, ratio: 0, childCount: 0 };

// patchTree applies a change set to the tree held when no rollup can have
// moved: a node's own fields changed in place (a container's, or a case's
// whose lane and tasks did not change under a parent), or an ungrouped case
// came, went or was archived. Anything else (a move, a case done under a
// workstream) is left to the board, which owns the rollups: undefined
// refetches the tree.
/**
 * @param {any} data the api.tree answer (summary view) held
 * @param {import('../live.js').ChangeSet} ch
 * @param {string} [domain] the domain filter, '' or none for all
 */
function patchTree(data, ch, domain) {
  const changed = ch.changed.filter((r) => r.kind === 'case');
  const removed = ch.removed.filter((r) => r.kind === 'case');
  let roots = data.tree;
  /** @param {any} n @param {any} p @param {Map<string, any>} ids @param {Map<string, any>} parents */
  const walk = (n, p, ids, parents) => {
    ids.set(n.id, n);
    parents.set(n.id, p);
    for (const k of n.children || []) walk(k, n, ids, parents);
  };
  for (const r of [...changed, ...removed]) {
    /** @type {Map<string, any>} */
    const ids = new Map();
    /** @type {Map<string, any>} */
    const parents = new Map();
    for (const n of roots) walk(n, null, ids, parents);
    const n = ids.get(r.id);
    /** @type {any} */
    const c = 'record' in r ? r.record : null;
    const leafRoot = (x) => x && !parents.get(x.id) && !(x.children || []).length && (x.kind || 'case') === 'case';
    if (!c || c.archivedAt) { // removed or archived
      if (!n) continue;
      if (!leafRoot(n)) return undefined;
      roots = roots.filter((x) => x.id !== r.id);
      continue;
    }
    if (!n) { // new: only an ungrouped case has an obvious place
      if (c.parentId || (c.kind || 'case') !== 'case') return undefined;
      if (!domain || c.domain === domain) roots = [...roots, { ...c, children: [], rollup: NO_ROLLUP }];
      continue;
    }
    const parent = parents.get(r.id);
    if ((n.parentId || '') !== (c.parentId || '') || (n.kind || 'case') !== (c.kind || 'case')) return undefined;
    if (!parent && domain && c.domain !== domain) return undefined;
    if (parent && (c.kind || 'case') === 'case' && (n.status !== c.status || n.taskCount !== c.taskCount || n.tasksDone !== c.tasksDone)) return undefined;
    // Replace the node, and each ancestor with a copy that holds the new child.
    let old = n;
    let next = { ...c, children: n.children, rollup: n.rollup };
    for (let p = parents.get(old.id); p; p = parents.get(p.id)) {
      const from = old;
      const to = next;
      next = { ...p, children: p.children.map((k) => (k === from ? to : k)) };
      old = p;
    }
    const from = old;
    const to = next;
    roots = roots.map((x) => (x === from ? to : x));
  }
  return { ...data, tree: roots, version: ch.version };
}

// Strategy is the board in strategy mode: initiatives, their workstreams
// and cases as a tree.
/** @param {{ filters: import('../types.js').Filters }} props */
export function Strategy({ filters }) {
  const { data, error, loading } = useLive(() => api.tree({ domain: filters.domain, view: 'summary' }), [filters.domain],
    { kinds: ['case'], patch: (d, ch) => patchTree(d, ch, filters.domain) });
  const [folded, setFolded] = useState(loadFolded);
  const [moving, setMoving] = useState(null);
  // Ungrouped cases draw a page at a time, like a kanban lane.
  const [looseShown, setLooseShown] = useState(LOOSE_PAGE);
  const toggle = (id) => {
    const next = new Set(folded);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setFolded(next);
    localStorage.setItem(FOLD_KEY, JSON.stringify([...next]));
  };
  if (error && !data) return html`<${Problem} error=${error} what="The tree" />`;
  if (loading && !data) return html`<${Spinner} />`;
  const tree = (data && data.tree) || [];
  const needle = (filters.q || '').toLowerCase();
  const keep = (n) => {
    if (filters.starred && !n.starred && !(n.children || []).some(keep)) return false;
    if (filters.label && !(n.labels || []).includes(filters.label) && !(n.children || []).some(keep)) return false;
    if (needle && !`${n.id} ${n.title}`.toLowerCase().includes(needle) && !(n.children || []).some(keep)) return false;
    return true;
  };
  const roots = tree.filter(keep);
  const containers = roots.filter((n) => n.kind === 'initiative' || n.kind === 'workstream');
  const loose = roots.filter((n) => !(n.kind === 'initiative' || n.kind === 'workstream'));
  const byId = {};
  const walk = (n) => {
    byId[n.id] = n;
    (n.children || []).forEach(walk);
  };
  tree.forEach(walk);

  const onDrag = (e, node, el) =>
    dragStart(e, {
      el,
      zones: '[data-drop-parent]',
      mode: 'into',
      accept: (zone) => {
        const pid = zone.dataset.dropParent;
        return pid === '' ? (node.kind || 'case') === 'case' : canHold(byId[pid], node);
      },
      onDrop: ({ zone }) => setParent(node, zone.dataset.dropParent || null),
    });
  const onKeyMove = (node, el) => startKeyMove({
    el, name: `'${node.title}'`, zones: '[data-drop-parent]', mode: 'into',
    accept: (zone) => {
      const pid = zone.dataset.dropParent;
      return pid === '' ? (node.kind || 'case') === 'case' : canHold(byId[pid], node);
    },
    start: /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-drop-parent]')]).find((z) => z.dataset.dropParent === (node.parentId || '')) || null,
    where: (zone) => (zone.dataset.dropParent ? `under ${(byId[zone.dataset.dropParent] || {}).title || zone.dataset.dropParent}` : 'Ungrouped cases'),
    onDrop: ({ zone }) => setParent(node, zone.dataset.dropParent || null),
    refocus: () => document.querySelector(`[data-node="${CSS.escape(node.id)}"] [data-move]`),
  });
  const ctx = { folded, toggle, onDrag, onKeyMove, onMove: setMoving, filtersKeep: keep };
  return html`<div class="strategy">
    ${!tree.length ? html`<${Empty} icon="tree" title="No initiatives yet">Create an initiative to group workstreams and cases under a goal.</${Empty}>` : null}
    <div class="tree" role="tree" aria-label="Initiatives, workstreams and cases">
      ${containers.map((n) => html`<${Node} key=${n.id} n=${n} depth=${0} ctx=${ctx} />`)}
    </div>
    ${loose.length ? html`<section class="tree-loose" data-drop-parent="" aria-label="Ungrouped cases">
      <h2 class="section-title">Ungrouped cases <span class="count">${loose.length}</span></h2>
      <div role="tree" aria-label="Ungrouped cases">${loose.slice(0, looseShown).map((n) => html`<${Node} key=${n.id} n=${n} depth=${0} ctx=${ctx} />`)}</div>
      ${loose.length > looseShown ? html`<button type="button" class="lane-add lane-more" onClick=${() => setLooseShown(looseShown + LOOSE_PAGE * 4)}>
        Show ${plural(Math.min(loose.length - looseShown, LOOSE_PAGE * 4), 'more case')} of ${loose.length - looseShown}</button>` : null}
    </section>` : null}
    ${moving ? html`<${MoveDialog} node=${moving} onClose=${() => setMoving(null)} />` : null}
  </div>`;
}

function Progress({ r }) {
  if (!r) return null;
  const pct = Math.round((r.ratio || 0) * 100);
  return html`<div class="rollup" title=${`${r.doneCases} of ${r.totalCases} cases done · ${r.doneTasks} of ${r.totalTasks} tasks done`}>
    <div class="bar" role="progressbar" aria-label="Cases done" aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct}><span style=${`width:${pct}%`}></span></div>
    <span class="rollup-text">${r.doneCases}/${r.totalCases} cases${r.totalTasks ? ` · ${r.doneTasks}/${r.totalTasks} tasks` : ''}</span>
  </div>`;
}

function Node({ n, depth, ctx }) {
  const kids = (n.children || []).filter(ctx.filtersKeep);
  const container = n.kind === 'initiative' || n.kind === 'workstream';
  const open = !ctx.folded.has(n.id);
  let el = null;
  const add = async (kind) => {
    const title = await promptDialog({ title: kind === 'workstream' ? `New workstream in ${n.title}` : `New case in ${n.title}`, label: 'Title', ok: 'Create' });
    if (!title) return;
    try {
      await api.cases.create({ title, kind, parentId: n.id, domain: n.domain || undefined });
    } catch (e) {
      fail(e);
    }
  };
  const menu = [
    { label: 'Open', icon: 'external', onSelect: () => setQuery({ case: n.id }) },
    n.kind === 'initiative' ? { label: 'New workstream here', icon: 'plus', onSelect: () => add('workstream') } : null,
    container ? { label: 'New case here', icon: 'plus', onSelect: () => add('case') } : null,
    n.kind !== 'initiative' ? { label: 'Move to…', icon: 'layers', onSelect: () => ctx.onMove(n) } : null,
    { label: n.starred ? 'Unstar' : 'Star', icon: 'star', onSelect: () => toggleStar(n) },
    { label: 'Move to Trash', icon: 'archive', danger: true, onSelect: () => archiveCase(n) },
  ];
  return html`<div class=${'node node-' + (n.kind || 'case')} role="treeitem" aria-expanded=${container ? (open ? 'true' : 'false') : undefined}
    aria-level=${depth + 1} data-title=${n.title}>
    <div class="node-row" style=${`--depth:${depth}`} data-node=${n.id} data-drop-parent=${container ? n.id : undefined} ref=${(x) => (el = x)}
      onPointerDown=${(e) => n.kind !== 'initiative' && ctx.onDrag(e, n, el)}>
      ${n.kind !== 'initiative' ? html`<button type="button" class="drag-handle" data-drag-handle data-move aria-label=${'Move ' + n.title}
          title="Drag onto an initiative or workstream, or press Space or Enter to choose one with the arrow keys"
          onKeyDown=${(e) => { if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); ctx.onKeyMove(n, el); } }}><${Icon} name="grip" size=${12} /></button>` : null}
      ${container
        ? html`<button type="button" class="icon-btn fold" aria-label=${(open ? 'Collapse ' : 'Expand ') + n.title} onClick=${() => ctx.toggle(n.id)}>
            <${Icon} name=${open ? 'chevronDown' : 'chevronRight'} size=${14} /></button>`
        : html`<span class="fold-pad" aria-hidden="true"></span>`}
      <${TierBadge} kind=${n.kind} />
      <button type="button" class="node-title linkish" onClick=${() => setQuery({ case: n.id })}>${n.title}</button>
      <span class="card-id">${n.id}</span>
      ${n.starred ? html`<span class="star on" title="Starred"><${Icon} name="star" size=${13} filled /></span>` : null}
      <div class="grow"></div>
      ${container ? html`<${Progress} r=${n.rollup} />` : html`<span class=${'lane-pill lane-' + n.status}>${laneName(n.status)}</span>`}
      <${Menu} label=${'Actions for ' + n.title} items=${menu} />
    </div>
    ${container && open && kids.length ? html`<div role="group">${kids.map((k) => html`<${Node} key=${k.id} n=${k} depth=${depth + 1} ctx=${ctx} />`)}</div>` : null}
    ${container && open && !kids.length ? html`<div class="node-empty" style=${`--depth:${depth + 1}`}>Nothing here yet. Drag a case onto ${n.title} or use its menu.</div>` : null}
  </div>`;
}

function MoveDialog({ node, onClose }) {
  const { list } = useCases();
  const [parent, setP] = useState(node.parentId || '');
  const kind = node.kind || 'case';
  const save = async () => {
    onClose();
    await setParent(node, parent || null);
  };
  return html`<${Modal} title=${`Move “${node.title}”`} onClose=${onClose}
    footer=${html`<button type="button" class="btn" onClick=${onClose}>Cancel</button><button type="button" class="btn btn-primary" onClick=${save}>Move</button>`}>
    <label class="field"><span>New parent</span>
      <${CaseSelect} label="New parent" value=${parent} onChange=${(v) => setP(v || '')} cases=${list}
        none=${kind === 'workstream' ? 'Choose an initiative' : 'No parent (ungrouped)'} filter=${(c) => canHold(c, node)} /></label>
    <p class="muted">${kind === 'workstream' ? 'A workstream lives under an initiative.' : `A case can sit under an initiative or a workstream, or stand alone. ${plural(list.filter((c) => canHold(c, node)).length, 'place')} to choose from.`}</p>
  </${Modal}>`;
}
