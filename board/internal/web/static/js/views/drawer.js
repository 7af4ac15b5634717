// @ts-check
// The case drawer: everything about one case node, editable in place.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Icon, TierBadge, ActorBadge, LabelPicker, Menu, Modal, CaseSelect, InlineText, Due, Problem, Spinner, Segmented, trapFocus } from '../ui.js';
import { api, enc, statusOf } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { useCases, fail, toast, confirmDialog, promptDialog, templates } from '../state.js';
import { LANES, KINDS, laneName, actorName, verbText, prettyDetail, relTime, shortDate, CATEGORIES, categoryOf, categoryName, wallOf, dueTitle } from '../format.js';
import { dragStart } from '../dnd.js';
import { canHold, checklistKey, sortTasks, taskPositionAt, toggleStar, archiveCase, restoreCase } from '../cases.js';
import { EventEditor, ReminderEditor } from '../editors.js';
import { RepeatText, RepeatDialog } from '../repeat.js';
import { NLDate } from '../nldate.js';
import { VaultLinks } from './vaultlinks.js';
import { useFocusReturn } from '../focusreturn.js';

async function patchCase(id, body) {
  try {
    return await api.cases.patch(id, body);
  } catch (e) {
    fail(e);
    return null;
  }
}

// changedFields lists what differs between two versions of a case.
function changedFields(before, after) {
  const names = { title: 'title', summary: 'summary', status: 'lane', domain: 'domain', dueAt: 'due date', labels: 'labels', kind: 'tier', parentId: 'parent', starred: 'star', tasks: 'tasks', notes: 'notes', archivedAt: 'archive state' };
  const out = [];
  for (const [k, name] of Object.entries(names)) {
    if (JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null)) out.push(name);
  }
  return out;
}

// useVersionedEdit saves a text field with expectedVersion set to the board
// version seen when the edit began. On a conflict it refetches: when this
// case did not change it retries once; otherwise it keeps the person's text
// and says what changed.
function useVersionedEdit(c, version, field) {
  const [text, setText] = useState(c[field] || '');
  const [dirty, setDirty] = useState(false);
  const [conflict, setConflict] = useState(/** @type {{ changed: string[], by: string, theirs: string } | null} */ (null));
  const [busy, setBusy] = useState(false);
  const base = useRef(/** @type {{ c: any, version: number } | null} */ (null)); // the case and board version the edit began from
  useEffect(() => {
    if (!dirty) setText(c[field] || '');
  }, [c[field], dirty]);
  const edit = (v) => {
    if (!dirty) base.current = { c, version };
    setDirty(true);
    setText(v);
  };
  const cancel = () => {
    setDirty(false);
    setConflict(null);
    setText(c[field] || '');
  };
  const save = async () => {
    if (!base.current) return;
    setBusy(true);
    const send = (v) => api.cases.patch(c.id, { [field]: text, expectedVersion: v });
    try {
      await send(base.current.version);
      setDirty(false);
      setConflict(null);
    } catch (e) {
      if (statusOf(e) !== 409) {
        fail(e);
      } else {
        try {
          const fresh = await api.cases.get(c.id);
          const changed = changedFields(base.current.c, fresh.case);
          if (!changed.includes(field)) {
            // Someone changed other things; this text is still theirs to set.
            await send(fresh.version);
            setDirty(false);
            setConflict(null);
            if (changed.length) toast(`Saved. Meanwhile this case changed: ${changed.join(', ')}.`, 'info');
          } else {
            const since = base.current.c.updatedAt;
            const who = [...(fresh.case.activity || [])].reverse().find((a) => a.ts > since);
            base.current = { c: fresh.case, version: fresh.version };
            setConflict({ changed, by: who ? actorName(who.actor) : '', theirs: fresh.case[field] || '' });
          }
        } catch (e2) {
          fail(e2);
        }
      }
    } finally {
      setBusy(false);
    }
  };
  return { text, edit, dirty, save, cancel, conflict, busy };
}

function Conflict({ conflict, field }) {
  if (!conflict) return null;
  return html`<div class="conflict" role="alert"><${Icon} name="alert" size=${15} />
    <div><strong>This case changed while you were editing${conflict.by ? ` (by ${conflict.by})` : ''}: ${conflict.changed.join(', ')}.</strong>
    <div>Your text is kept. Save again to apply it${conflict.changed.includes(field) ? html`; the board now has: <q>${conflict.theirs || '(empty)'}</q>` : ''}.</div></div></div>`;
}

// touchesCase says whether a change set touches an open case: the case, a
// record linked to it now, or one the drawer shows as linked.
/**
 * @param {import('../live.js').ChangeSet} ch
 * @param {string} id
 * @param {any} d the api.cases.get answer held
 */
function touchesCase(ch, id, d) {
  const shown = new Set([...(d.messages || []), ...(d.events || []), ...(d.reminders || [])].map((r) => r.id));
  return ch.changed.some((r) => (r.kind === 'case' && r.id === id) || (r.record && r.record.caseId === id) || shown.has(r.id)) ||
    ch.removed.some((r) => r.id === id || shown.has(r.id));
}

/** @param {{ id: string }} props */
export function CaseDrawer({ id }) {
  const { data, error, loading } = useLive(() => api.cases.get(id), [id], { relevant: (ch, d) => touchesCase(ch, id, d) });
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  const close = () => setQuery({ case: null });
  useFocusReturn();
  useEffect(() => {
    if (ref.current) ref.current.focus();
  }, [id]);
  const onKey = (e) => {
    if (e.key === 'Escape' && !e.target.closest('input,textarea,select')) {
      e.stopPropagation();
      close();
    }
    if (e.key === 'Tab') trapFocus(e, ref.current);
  };
  return html`<div class="drawer-wrap">
    <div class="drawer-backdrop" onClick=${close}></div>
    <aside class="drawer" role="dialog" aria-modal="true" aria-labelledby="drawer-title" tabindex="-1" ref=${ref} onKeyDown=${onKey}>
      ${error && !data ? html`<div class="drawer-pad"><button type="button" class="icon-btn drawer-close" aria-label="Close" onClick=${close}><${Icon} name="x" /></button>
          <h2 id="drawer-title">${id}</h2><${Problem} error=${error} what=${'Case ' + id} /></div>`
        : loading && !data ? html`<div class="drawer-pad"><h2 id="drawer-title" class="sr-only">${id}</h2><${Spinner} /></div>`
        : html`<${CaseDetail} key=${id} d=${data} onClose=${close} />`}
    </aside>
  </div>`;
}

function CaseDetail({ d, onClose }) {
  const c = d.case;
  const { list } = useCases();
  const title = useVersionedEdit(c, d.version, 'title');
  const summary = useVersionedEdit(c, d.version, 'summary');
  const [modal, setModal] = useState(/** @type {string | null} */ (null));
  const archived = !!c.archivedAt;
  const kind = c.kind || 'case';
  const children = list.filter((x) => x.parentId === c.id);

  const del = async () => {
    const ok = await confirmDialog({ title: `Delete “${c.title}” for good?`, message: 'This removes the case permanently. Its linked emails are unlinked, and children of a container are detached. Move to Trash instead if you may want it back.', ok: 'Delete permanently', danger: true });
    if (!ok) return;
    try {
      await api.cases.remove(c.id, { hard: true });
      toast(`Deleted ${c.id}`, 'ok');
      onClose();
    } catch (e) {
      fail(e);
    }
  };
  const saveTemplate = async () => {
    const name = await promptDialog({ title: 'Save as template', label: 'Template name', value: c.title, ok: 'Save template' });
    if (!name) return;
    try {
      await api.templates.create({
        name, title: c.title, summary: c.summary || undefined, status: c.status, domain: c.domain, kind,
        labels: c.labels || undefined, tags: c.tags || undefined, tasks: (c.tasks || []).map((t) => t.title),
      });
      templates.reload();
      toast(`Saved template “${name}”`, 'ok');
    } catch (e) {
      fail(e);
    }
  };
  const onTitleKey = (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      title.save();
    }
    if (e.key === 'Escape' && title.dirty) {
      e.stopPropagation();
      title.cancel();
    }
  };

  return html`<div class="drawer-inner">
    <header class="drawer-head">
      <span class="card-id">${c.id}</span><${TierBadge} kind=${kind} />
      ${archived ? html`<span class="pill pill-warn">In Trash</span>` : null}
      <div class="grow"></div>
      <button type="button" class=${'icon-btn star' + (c.starred ? ' on' : '')} aria-pressed=${c.starred ? 'true' : 'false'} aria-label=${c.starred ? 'Unstar' : 'Star'} title=${c.starred ? 'Unstar' : 'Star'}
        onClick=${() => toggleStar(c)}><${Icon} name="star" filled=${c.starred} /></button>
      <${Menu} label="Case actions" items=${[
        { label: 'Save as template', icon: 'template', onSelect: saveTemplate },
        { label: 'Merge into…', icon: 'layers', onSelect: () => setModal('merge') },
        archived ? { label: 'Restore from Trash', icon: 'restore', onSelect: () => restoreCase(c) } : { label: 'Move to Trash', icon: 'archive', onSelect: () => archiveCase(c) },
        { label: 'Delete permanently', icon: 'trash', danger: true, onSelect: del },
      ]} />
      <button type="button" class="icon-btn" aria-label="Close case" title="Close (Esc)" onClick=${onClose}><${Icon} name="x" /></button>
    </header>
    <div class="drawer-body">
      <h2 id="drawer-title" class="sr-only">${c.title}</h2>
      <textarea class="title-edit" rows="1" aria-label="Title" value=${title.text} onInput=${(e) => title.edit(e.target.value)} onKeyDown=${onTitleKey}
        onBlur=${() => title.dirty && !title.conflict && title.text.trim() && title.save()}></textarea>
      <${Conflict} conflict=${title.conflict} field="title" />
      ${title.dirty && title.conflict ? html`<div class="btn-row"><button type="button" class="btn btn-primary btn-sm" onClick=${title.save}>Save title</button><button type="button" class="btn btn-ghost btn-sm" onClick=${title.cancel}>Discard mine</button></div>` : null}

      <dl class="props">
        <dt><label for="f-status">Lane</label></dt>
        <dd><select id="f-status" value=${c.status} onChange=${(e) => patchCase(c.id, { status: e.target.value })}>
          ${LANES.map((l) => html`<option value=${l.id}>${l.name}</option>`)}</select></dd>
        <dt><label for="f-domain">Domain</label></dt>
        <dd><select id="f-domain" value=${c.domain || 'work'} onChange=${(e) => patchCase(c.id, { domain: e.target.value })}>
          <option value="work">Work</option><option value="life">Life</option></select></dd>
        <dt><label for="f-due">Due</label></dt>
        <dd class="due-edit"><input id="f-due" type="date" value=${(wallOf(c.dueAt) || { day: '' }).day}
          onChange=${(e) => { const t = (wallOf(c.dueAt) || { time: '' }).time; patchCase(c.id, { dueAt: e.target.value ? (t ? e.target.value + 'T' + t : e.target.value) : null }); }} />
          ${c.dueAt ? html`<${Due} at=${c.dueAt} done=${c.status === 'done'} />` : null}
          <${NLDate} label="Case due in words" onPick=${(r) => patchCase(c.id, { dueAt: r.allDay ? r.dueAt.slice(0, 10) : r.dueAt.slice(0, 16) })} /></dd>
        <dt><label for="f-kind">Tier</label></dt>
        <dd><select id="f-kind" value=${kind} onChange=${(e) => patchCase(c.id, { kind: e.target.value })}>
          ${KINDS.map((k) => html`<option value=${k.id}>${k.name}</option>`)}</select></dd>
        <dt><label for="f-parent">Parent</label></dt>
        <dd>${kind === 'initiative' ? html`<span class="muted">An initiative is always a root.</span>`
          : html`<${CaseSelect} id="f-parent" label="Parent" value=${c.parentId || ''} cases=${list} none=${kind === 'workstream' ? 'Choose an initiative' : 'No parent'}
            filter=${(x) => canHold(x, c)} onChange=${(v) => patchCase(c.id, { parentId: v || null })} />`}</dd>
        <dt>Labels</dt>
        <dd><${LabelPicker} value=${c.labels || []} onChange=${(labels) => patchCase(c.id, { labels })} /></dd>
      </dl>

      <section class="block" aria-labelledby="h-summary">
        <h3 id="h-summary">Summary</h3>
        <textarea class="summary-edit" rows="4" aria-label="Summary" placeholder="What is this about, and what does done look like?" value=${summary.text}
          onInput=${(e) => summary.edit(e.target.value)}></textarea>
        <${Conflict} conflict=${summary.conflict} field="summary" />
        ${summary.dirty ? html`<div class="btn-row"><button type="button" class="btn btn-primary btn-sm" disabled=${summary.busy} onClick=${summary.save}>Save summary</button>
          <button type="button" class="btn btn-ghost btn-sm" onClick=${summary.cancel}>Cancel</button></div>` : null}
      </section>

      <${Tasks} c=${c} />
      ${kind !== 'case' || children.length ? html`<${Children} c=${c} children=${children} />` : null}
      <${Notes} c=${c} />
      <${VaultLinks} c=${c} />
      <${Emails} messages=${d.messages || []} />
      <${Linked} c=${c} events=${d.events || []} reminders=${d.reminders || []} />
      <${ActivityLog} c=${c} />
      <p class="muted small">Created ${relTime(c.createdAt)} · updated ${relTime(c.updatedAt)}</p>
    </div>
    ${modal === 'merge' ? html`<${MergeDialog} c=${c} cases=${list} onClose=${() => setModal(null)} />` : null}
  </div>`;
}

function MergeDialog({ c, cases, onClose }) {
  const [target, setTarget] = useState('');
  const merge = async () => {
    if (!target) return;
    try {
      await api.cases.merge(c.id, target);
      toast(`Merged ${c.id} into ${target}`, 'ok');
      onClose();
      setQuery({ case: target });
    } catch (e) {
      fail(e);
    }
  };
  return html`<${Modal} title=${`Merge “${c.title}” into…`} onClose=${onClose}
    footer=${html`<button type="button" class="btn" onClick=${onClose}>Cancel</button><button type="button" class="btn btn-primary" disabled=${!target} onClick=${merge}>Merge</button>`}>
    <label class="field"><span>Target</span><${CaseSelect} label="Merge target" value=${target} onChange=${(v) => setTarget(v || '')} cases=${cases} none="Choose a case" filter=${(x) => x.id !== c.id} /></label>
    <p class="muted">Tasks, notes, emails, events and reminders move to the target; this case goes to Trash.</p>
  </${Modal}>`;
}

function taskKey(t) {
  return typeof t.position === 'number' ? t.position : checklistKey({ createdAt: t.createdAt });
}

function Tasks({ c }) {
  const [title, setTitle] = useState('');
  const tasks = [...(c.tasks || [])].sort((a, b) => taskKey(a) - taskKey(b) || a.id.localeCompare(b.id, undefined, { numeric: true }));
  const done = tasks.filter((t) => t.completedAt).length;
  const patch = async (t, body) => {
    try {
      const ans = await api.cases.patchTask(c.id, t.id, body);
      if (ans && ans.next) toast(`Next “${ans.next.title}” due ${shortDate(String(ans.next.dueAt).slice(0, 10))}`, 'ok');
    } catch (e) {
      fail(e);
    }
  };
  const add = async (e) => {
    e.preventDefault();
    const t = title.trim();
    if (!t) return;
    setTitle('');
    try {
      await api.cases.addTask(c.id, { title: t });
    } catch (err) {
      setTitle(t);
      fail(err);
    }
  };
  const remove = async (t) => {
    try {
      await api.cases.removeTask(c.id, t.id);
    } catch (e) {
      fail(e);
    }
  };
  const onDrag = (e, t, el) => dragStart(e, {
    el, zones: '[data-task-list]', items: '[data-task]', mode: 'list',
    onDrop: ({ index }) => {
      const others = tasks.filter((x) => x.id !== t.id).map((x) => ({ ...x, position: taskKey(x) }));
      const pos = taskPositionAt(sortTasks(others), index);
      if (pos !== undefined && pos !== taskKey(t)) patch(t, { position: pos });
    },
  });
  return html`<section class="block" aria-labelledby="h-tasks">
    <h3 id="h-tasks">Tasks ${tasks.length ? html`<span class="count">${done}/${tasks.length}</span>` : null}</h3>
    ${tasks.length ? html`<div class="bar thin" role="progressbar" aria-label="Tasks done" aria-valuemin="0" aria-valuemax=${tasks.length} aria-valuenow=${done}><span style=${`width:${Math.round((done / tasks.length) * 100)}%`}></span></div>` : null}
    <ul class="task-list" data-task-list>
      ${tasks.map((t) => html`<${TaskRow} key=${t.id} t=${t} onPatch=${(b) => patch(t, b)} onRemove=${() => remove(t)} onDrag=${onDrag} />`)}
    </ul>
    <form class="add-row" onSubmit=${add}>
      <${Icon} name="plus" size=${14} />
      <input aria-label="New task" placeholder="Add a task" value=${title} onInput=${(e) => setTitle(e.target.value)} />
      ${title.trim() ? html`<button type="submit" class="btn btn-sm btn-primary">Add</button>` : null}
    </form>
  </section>`;
}

function TaskRow({ t, onPatch, onRemove, onDrag }) {
  const ref = useRef(null);
  const [showDetail, setShowDetail] = useState(false);
  const [repeating, setRepeating] = useState(false);
  return html`<li class=${'task' + (t.completedAt ? ' done' : '')} data-task ref=${ref} onPointerDown=${(e) => onDrag(e, t, ref.current)}>
    <span class="drag-handle" data-drag-handle title="Drag to reorder" aria-hidden="true"><${Icon} name="grip" size=${12} /></span>
    <input type="checkbox" checked=${!!t.completedAt} aria-label=${(t.completedAt ? 'Reopen ' : 'Complete ') + t.title} onChange=${(e) => onPatch({ completed: e.target.checked })} />
    <div class="task-main">
      <${InlineText} value=${t.title} label=${'task ' + t.title} className="task-title" onSave=${(title) => onPatch({ title })} />
      ${t.detail || showDetail ? html`<${InlineText} value=${t.detail || ''} placeholder="Add detail" multiline label="task detail" className="task-detail" onSave=${(detail) => onPatch({ detail })} />` : null}
      <${RepeatText} rule=${t.repeat} />
    </div>
    <${TaskDue} t=${t} onPatch=${onPatch} />
    <${Menu} label=${'Actions for task ' + t.title} items=${[
      !t.detail ? { label: 'Add detail', icon: 'note', onSelect: () => setShowDetail(true) } : null,
      { label: 'Repeat…', icon: 'clock', onSelect: () => setRepeating(true) },
      { label: 'Delete task', icon: 'trash', danger: true, onSelect: onRemove },
    ]} />
    ${repeating ? html`<${RepeatDialog} title=${'Repeat ' + t.title} value=${t.repeat} start=${t.dueAt} onSave=${(repeat) => onPatch({ repeat: repeat || null })} onClose=${() => setRepeating(false)} />` : null}
  </li>`;
}

// TaskDue edits a task's due day; a time it has is kept and shown on the
// board's clock beside it.
function TaskDue({ t, onPatch }) {
  const w = wallOf(t.dueAt) || { day: '', time: '' };
  const change = (day) => onPatch({ dueAt: day ? (w.time ? day + 'T' + w.time : day) : null });
  return html`<span class="task-due-wrap">
    <input type="date" class="task-due" aria-label=${'Due date of ' + t.title} value=${w.day} onChange=${(e) => change(e.target.value)} />
    ${w.time ? html`<span class="task-time" data-task-time title=${dueTitle(t.dueAt)}>${w.time}</span>` : null}</span>`;
}

function Children({ c, children }) {
  return html`<section class="block" aria-labelledby="h-children">
    <h3 id="h-children">${c.kind === 'initiative' ? 'Workstreams and cases' : 'Cases'} <span class="count">${children.length}</span></h3>
    ${children.length ? html`<ul class="link-list">${children.map((x) => html`<li key=${x.id}>
        <button type="button" class="linkish" onClick=${() => setQuery({ case: x.id })}><${TierBadge} kind=${x.kind} /> ${x.title}</button>
        <span class=${'lane-pill lane-' + x.status}>${laneName(x.status)}</span></li>`)}</ul>`
      : html`<p class="muted">Nothing grouped here yet. Set this as the parent of a case, or drag one onto it in Strategy.</p>`}
  </section>`;
}

function Notes({ c }) {
  const [text, setText] = useState('');
  const notes = [...(c.notes || [])].reverse();
  const add = async (e) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    try {
      await api.cases.addNote(c.id, { text: t });
      setText('');
    } catch (err) {
      fail(err);
    }
  };
  return html`<section class="block" aria-labelledby="h-notes">
    <h3 id="h-notes">Notes ${notes.length ? html`<span class="count">${notes.length}</span>` : null}</h3>
    <form class="note-form" onSubmit=${add}>
      <textarea rows="2" aria-label="New note" placeholder="Write a note" value=${text} onInput=${(e) => setText(e.target.value)}
        onKeyDown=${(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) add(e); }}></textarea>
      ${text.trim() ? html`<button type="submit" class="btn btn-sm btn-primary">Add note</button>` : null}
    </form>
    <ul class="notes">${notes.map((n) => html`<li key=${n.id} class="note">
      <div class="note-head"><${ActorBadge} actor=${n.actor} /><time datetime=${n.createdAt}>${relTime(n.createdAt)}</time></div>
      <div class="note-text">${n.text}</div></li>`)}</ul>
  </section>`;
}

function Emails({ messages }) {
  const [open, setOpen] = useState(/** @type {string | null} */ (null));
  const sorted = [...messages].sort((a, b) => String(b.receivedAt || '').localeCompare(String(a.receivedAt || '')));
  const unlink = async (m) => {
    try {
      await api.messages.patch(m.id, { caseId: null });
    } catch (e) {
      fail(e);
    }
  };
  return html`<section class="block" aria-labelledby="h-emails">
    <h3 id="h-emails">Linked emails ${sorted.length ? html`<span class="count">${sorted.length}</span>` : null}</h3>
    ${!sorted.length ? html`<p class="muted">No emails linked.</p>` : null}
    <ul class="mail-list">${sorted.map((m) => html`<li key=${m.id} class=${'mail' + (m.read ? '' : ' unread')}>
      <button type="button" class="mail-row" aria-expanded=${open === m.id ? 'true' : 'false'} onClick=${() => setOpen(open === m.id ? null : m.id)}>
        <span class="mail-from">${m.outbound ? 'To ' + (m.to || []).join(', ') : m.from}</span>
        <span class="mail-subject">${m.subject || '(no subject)'}</span>
        <time class="mail-date">${m.receivedAt ? shortDate(m.receivedAt.slice(0, 10)) : ''}</time>
      </button>
      ${open === m.id ? html`<div class="mail-body">
        <div class="mail-body-text">${m.body || m.preview || ''}</div>
        <div class="btn-row">
          ${m.url ? html`<a class="btn btn-ghost btn-sm" href=${m.url} target="_blank" rel="noopener noreferrer"><${Icon} name="external" size=${13} />Open original</a>` : null}
          <a class="btn btn-ghost btn-sm" href=${'/inbox?m=' + enc(m.id)}><${Icon} name="inbox" size=${13} />In Inbox</a>
          <button type="button" class="btn btn-ghost btn-sm" onClick=${() => unlink(m)}>Unlink</button>
        </div></div>` : null}
    </li>`)}</ul>
  </section>`;
}

function Linked({ c, events, reminders }) {
  const [editing, setEditing] = useState(/** @type {{ kind: 'event' | 'reminder', value: any } | null} */ (null));
  const evs = [...events].sort((a, b) => `${a.date} ${a.startTime || ''}`.localeCompare(`${b.date} ${b.startTime || ''}`));
  const rems = [...reminders].sort((a, b) => (a.status === 'open' ? 0 : 1) - (b.status === 'open' ? 0 : 1) || String(a.dueAt || '~').localeCompare(String(b.dueAt || '~')));
  const complete = async (r) => {
    try {
      await api.reminders.patch(r.id, { status: r.status === 'done' ? 'open' : 'done' });
    } catch (e) {
      fail(e);
    }
  };
  return html`<section class="block" aria-labelledby="h-linked">
    <h3 id="h-linked">Events and reminders</h3>
    <ul class="link-list">
      ${evs.map((e) => html`<li key=${e.id}><button type="button" class="linkish" onClick=${() => setEditing({ kind: 'event', value: e })}>
        <${Icon} name="calendar" size=${14} /> ${e.title}</button>
        <span class="muted">${shortDate(e.date)}${e.allDay ? '' : e.startTime ? ' · ' + e.startTime : ''}</span></li>`)}
      ${rems.map((r) => html`<li key=${r.id} class=${r.status !== 'open' ? 'faded' : ''}>
        <input type="checkbox" checked=${r.status === 'done'} aria-label=${(r.status === 'done' ? 'Reopen ' : 'Complete ') + r.title} onChange=${() => complete(r)} />
        <button type="button" class="linkish" onClick=${() => setEditing({ kind: 'reminder', value: r })}><${Icon} name="bell" size=${14} /> ${r.title}</button>
        <${Due} at=${r.dueAt} done=${r.status !== 'open'} />${r.status === 'dismissed' ? html`<span class="pill">Dismissed</span>` : null}</li>`)}
    </ul>
    ${!evs.length && !rems.length ? html`<p class="muted">Nothing scheduled for this case.</p>` : null}
    <div class="btn-row">
      <button type="button" class="btn btn-ghost btn-sm" onClick=${() => setEditing({ kind: 'event', value: { caseId: c.id, domain: c.domain } })}><${Icon} name="calendar" size=${13} />Add event</button>
      <button type="button" class="btn btn-ghost btn-sm" onClick=${() => setEditing({ kind: 'reminder', value: { caseId: c.id, domain: c.domain } })}><${Icon} name="bell" size=${13} />Add reminder</button>
    </div>
    ${editing && editing.kind === 'event' ? html`<${EventEditor} value=${editing.value} onClose=${() => setEditing(null)} />` : null}
    ${editing && editing.kind === 'reminder' ? html`<${ReminderEditor} value=${editing.value} onClose=${() => setEditing(null)} />` : null}
  </section>`;
}

function ActivityLog({ c }) {
  const [actor, setActor] = useState('');
  const [cat, setCat] = useState('');
  const all = [...(c.activity || [])].reverse();
  const rows = all.filter((a) => (!actor || a.actor === actor) && (!cat || categoryOf(a.verb) === cat));
  const present = new Set(all.map((a) => categoryOf(a.verb)));
  return html`<section class="block" aria-labelledby="h-activity">
    <h3 id="h-activity">Activity</h3>
    <div class="filters compact">
      <${Segmented} label="Filter activity by actor" value=${actor} onChange=${setActor}
        options=${[{ value: '', label: 'All' }, { value: 'human', label: 'You' }, { value: 'agent', label: 'Agent' }, { value: 'system', label: 'System' }]} />
      <select aria-label="Filter activity by category" value=${cat} onChange=${(e) => setCat(e.target.value)}>
        <option value="">All categories</option>
        ${CATEGORIES.filter((x) => present.has(x) || x === cat).map((x) => html`<option value=${x}>${categoryName(x)}</option>`)}
      </select>
    </div>
    <ol class="timeline">
      ${rows.map((a, i) => html`<li key=${i}><${ActorBadge} actor=${a.actor} />
        <span class="tl-text">${verbText(a.verb)}${a.detail ? html` <span class="muted">${prettyDetail(a.verb, a.detail)}</span>` : null}</span>
        <time datetime=${a.ts} title=${a.ts}>${relTime(a.ts)}</time></li>`)}
      ${!rows.length ? html`<li class="muted">No activity matches.</li>` : null}
    </ol>
  </section>`;
}

