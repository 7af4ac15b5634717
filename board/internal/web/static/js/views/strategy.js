// @ts-check
// Strategy: the initiative > workstream > case tree with rollup progress,
// expand and collapse, and regrouping (set parent) by drag or by menu.
import { useState } from 'preact/hooks';
import { html, Icon, TierBadge, Menu, Problem, Spinner, Empty, Modal, CaseSelect } from '../ui.js';
import { api, enc, qs } from '../api.js';
import { laneName, plural } from '../format.js';
import { dragStart } from '../dnd.js';
import { setQuery } from '../router.js';
import { useLive } from '../live.js';
import { useCases, fail, toast, promptDialog } from '../state.js';
import { canHold, toggleStar, archiveCase } from '../cases.js';

const FOLD_KEY = 'opsboard.folded';

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
    await api.patch(`/api/cases/${enc(node.id)}`, { parentId: parentId || null });
    toast(parentId ? `Moved “${node.title}” under ${parentId}` : `Detached “${node.title}”`, 'ok');
  } catch (e) {
    fail(e);
  }
}

// Strategy is the board in strategy mode: initiatives, their workstreams
// and cases as a tree.
/** @param {{ filters: import('../types.js').Filters }} props */
export function Strategy({ filters }) {
  const { data, error, loading } = useLive(() => api.get('/api/tree' + qs({ domain: filters.domain, view: 'summary' })), [filters.domain], { kinds: ['case'] });
  const [folded, setFolded] = useState(loadFolded);
  const [moving, setMoving] = useState(null);
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
  const ctx = { folded, toggle, onDrag, onMove: setMoving, filtersKeep: keep };
  return html`<div class="strategy">
    ${!tree.length ? html`<${Empty} icon="tree" title="No initiatives yet">Create an initiative to group workstreams and cases under a goal.</${Empty}>` : null}
    <div class="tree" role="tree" aria-label="Initiatives, workstreams and cases">
      ${containers.map((n) => html`<${Node} key=${n.id} n=${n} depth=${0} ctx=${ctx} />`)}
    </div>
    ${loose.length ? html`<section class="tree-loose" data-drop-parent="" aria-label="Ungrouped cases">
      <h2 class="section-title">Ungrouped cases <span class="count">${loose.length}</span></h2>
      <div role="tree" aria-label="Ungrouped cases">${loose.map((n) => html`<${Node} key=${n.id} n=${n} depth=${0} ctx=${ctx} />`)}</div>
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
      await api.post('/api/cases', { title, kind, parentId: n.id, domain: n.domain || undefined });
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
    aria-level=${depth + 1} aria-label=${n.title}>
    <div class="node-row" style=${`--depth:${depth}`} data-drop-parent=${container ? n.id : undefined} ref=${(x) => (el = x)}
      onPointerDown=${(e) => n.kind !== 'initiative' && ctx.onDrag(e, n, el)}>
      ${n.kind !== 'initiative' ? html`<span class="drag-handle" data-drag-handle title="Drag onto an initiative or workstream" aria-hidden="true"><${Icon} name="grip" size=${12} /></span>` : null}
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
