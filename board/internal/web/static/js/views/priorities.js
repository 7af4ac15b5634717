// @ts-check
// Priorities: ordered priority notes in the person's own words (add, edit,
// reorder by drag, remove), above the starred nodes.
import { useRef, useState } from 'preact/hooks';
import { html, Icon, TierBadge, InlineText, Problem, Spinner, Empty, Menu } from '../ui.js';
import { api, statusOf } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { fail, confirmDialog } from '../state.js';
import { laneName } from '../format.js';
import { dragStart } from '../dnd.js';
import { startKeyMove } from '../keymove.js';
import { toggleStar } from '../cases.js';


// notePos is where a note sorts: its position, or after every positioned one.
function notePos(p, i) {
  return typeof p.position === 'number' ? p.position : 1e9 + i;
}

export function PrioritiesPage() {
  const { data, error, loading } = useLive(() => api.priorities.list(), [], { kinds: ['priority', 'case'] }); // the answer lists the starred cases too
  const [text, setText] = useState('');
  const notes = ((data && data.priorities) || []).map((p, i) => ({ ...p, key: notePos(p, i) }));
  const starred = (data && data.starred) || [];
  const add = async (e) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    try {
      const last = notes.length ? notes[notes.length - 1].key : 0;
      await api.priorities.create({ text: t, position: Math.floor(last) + 1 });
      setText('');
    } catch (err) {
      fail(err);
    }
  };
  const edit = async (p, t) => {
    try {
      await api.priorities.patch(p.id, { text: t, expectedVersion: data.version });
    } catch (err) {
      if (statusOf(err) === 409) {
        // The board moved on since this list loaded: check the note itself.
        try {
          const fresh = await api.priorities.list();
          const now = (fresh.priorities || []).find((x) => x.id === p.id);
          if (!now) return fail(new Error('This priority was removed meanwhile; your text was not saved.'));
          if (now.text !== p.text) {
            const ok = await confirmDialog({ title: 'This priority changed meanwhile', message: `It now reads: “${now.text}”. Replace it with your text: “${t}”?`, ok: 'Use my text' });
            if (!ok) return;
          }
          await api.priorities.patch(p.id, { text: t, expectedVersion: fresh.version });
        } catch (e2) {
          fail(e2);
        }
      } else fail(err);
    }
  };
  const remove = async (p) => {
    try {
      await api.priorities.remove(p.id);
    } catch (err) {
      fail(err);
    }
  };
  const move = async (p, index) => {
    const others = notes.filter((x) => x.id !== p.id);
    const prev = others[index - 1];
    const next = others[index];
    let pos;
    if (!prev && !next) return;
    if (!prev) pos = next.key - 1;
    else if (!next) pos = prev.key + 1;
    else pos = (prev.key + next.key) / 2;
    if (pos === p.key) return;
    try {
      await api.priorities.patch(p.id, { position: pos });
    } catch (err) {
      fail(err);
    }
  };
  return html`<section class="page page-narrow" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Priorities</h1></div>
      <p class="lede">What matters most, in your words. The agent reads this list before it plans.</p></header>
    <${Problem} error=${error} what="Priorities" />
    ${loading && !data ? html`<${Spinner} />` : null}
    <section aria-labelledby="h-notes">
      <h2 id="h-notes" class="section-title">Priority notes <span class="count">${notes.length}</span></h2>
      <ol class="priorities" data-prio-list>
        ${notes.map((p, i) => html`<${NoteRow} key=${p.id} p=${p} n=${i + 1} onEdit=${(t) => edit(p, t)} onRemove=${() => remove(p)}
          onDrag=${(e, el) => dragStart(e, { el, zones: '[data-prio-list]', items: '[data-prio]', mode: 'list', onDrop: ({ index }) => move(p, index) })}
          onKeyMove=${(el) => startKeyMove({ el, name: `priority ${i + 1}`, zones: '[data-prio-list]', items: '[data-prio]', where: () => 'Priority notes',
            onDrop: ({ index }) => move(p, index), refocus: () => document.querySelector(`[data-prio][data-id="${CSS.escape(p.id)}"] [data-move]`) })}
          onMove=${(d) => move(p, i + d)} first=${i === 0} last=${i === notes.length - 1} />`)}
      </ol>
      <form class="add-row big" onSubmit=${add}>
        <${Icon} name="plus" size=${15} />
        <input aria-label="New priority" placeholder="Add a priority, e.g. Close the Series A by March" value=${text} onInput=${(e) => setText(e.target.value)} />
        ${text.trim() ? html`<button type="submit" class="btn btn-primary btn-sm">Add</button>` : null}
      </form>
    </section>
    <section aria-labelledby="h-starred" class="starred-block">
      <h2 id="h-starred" class="section-title">Starred <span class="count">${starred.length}</span></h2>
      ${data && !starred.length ? html`<${Empty} icon="star" title="Nothing starred">Star an initiative, workstream or case to keep it here.</${Empty}>` : null}
      <ul class="starred-list">${starred.map((c) => html`<li key=${c.id} class="starred-row">
        <button type="button" class="icon-btn star on" aria-label=${'Unstar ' + c.title} onClick=${() => toggleStar(c)}><${Icon} name="star" size=${15} filled /></button>
        <${TierBadge} kind=${c.kind} />
        <button type="button" class="linkish strong" onClick=${() => setQuery({ case: c.id })}>${c.title}</button>
        <span class="card-id">${c.id}</span>
        <div class="grow"></div>
        <span class=${'lane-pill lane-' + c.status}>${laneName(c.status)}</span>
      </li>`)}</ul>
    </section>
  </section>`;
}

function NoteRow({ p, n, onEdit, onRemove, onDrag, onKeyMove, onMove, first, last }) {
  const ref = useRef(null);
  return html`<li class="prio" data-prio data-id=${p.id} ref=${ref} onPointerDown=${(e) => onDrag(e, ref.current)}>
    <button type="button" class="drag-handle" data-drag-handle data-move aria-label=${'Move priority ' + n}
      title="Drag to reorder, or press Space or Enter to move with the arrow keys"
      onKeyDown=${(e) => { if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); onKeyMove(ref.current); } }}><${Icon} name="grip" size=${14} /></button>
    <span class="prio-n" aria-hidden="true">${n}</span>
    <${InlineText} value=${p.text} label=${'priority ' + n} className="prio-text" multiline onSave=${onEdit} />
    <${Menu} label=${'Actions for priority ' + n} items=${[
      !first ? { label: 'Move up', icon: 'chevronLeft', onSelect: () => onMove(-1) } : null,
      !last ? { label: 'Move down', icon: 'chevronRight', onSelect: () => onMove(1) } : null,
      { label: 'Remove', icon: 'trash', danger: true, onSelect: onRemove },
    ]} />
  </li>`;
}
