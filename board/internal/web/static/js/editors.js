// @ts-check
// The event and reminder dialogs, opened from their own pages and from a
// case's drawer. Each creates a record (a value without id) or edits one,
// sending only the fields that changed.
import { useState } from 'preact/hooks';
import { html, Icon, Modal, CaseSelect, LabelPicker } from './ui.js';
import { api } from './api.js';
import { setQuery } from './router.js';
import { useCases, fail, toast, confirmDialog, prefs } from './state.js';
import { todayISO, wallOf } from './format.js';
import { RepeatField } from './repeat.js';
import { NLDate } from './nldate.js';

// EventEditor creates an event (value without id) or edits one.
/** @param {{ value: Partial<import('./types.js').CalendarEvent>, onClose: () => void }} props */
export function EventEditor({ value, onClose }) {
  const { list } = useCases();
  const zone = prefs.use().data?.prefs?.timezone; // unset: the machine's zone
  const isNew = !value.id;
  const [f, setF] = useState({
    title: value.title || '', date: value.date || todayISO(), allDay: !!value.allDay, startTime: value.startTime || '', endTime: value.endTime || '',
    location: value.location || '', description: value.description || '', caseId: value.caseId || '', domain: value.domain || '',
    repeat: value.repeat || '',
  });
  const [busy, setBusy] = useState(false);
  const set = (k) => (e) => setF({ ...f, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const save = async (e) => {
    e.preventDefault();
    if (!f.title.trim()) return;
    setBusy(true);
    try {
      if (isNew) {
        const body = { title: f.title.trim(), date: f.date, allDay: f.allDay };
        for (const k of ['startTime', 'endTime', 'location', 'description', 'caseId', 'domain', 'repeat']) if (f[k] && !(f.allDay && (k === 'startTime' || k === 'endTime'))) body[k] = f[k];
        await api.events.create(body);
        toast(`Added “${body.title}”`, 'ok');
      } else {
        const body = {};
        const norm = { ...f, title: f.title.trim() };
        if (norm.allDay) {
          norm.startTime = '';
          norm.endTime = '';
        }
        for (const k of Object.keys(norm)) {
          const before = k === 'allDay' ? !!value.allDay : value[k] || '';
          if (norm[k] !== before) body[k] = norm[k] === '' ? null : norm[k];
        }
        if (Object.keys(body).length) await api.events.patch(/** @type {string} */ (value.id), body); // not new, so it has an id
      }
      onClose();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const del = async () => {
    const ok = await confirmDialog({ title: `Delete “${value.title}”?`, message: 'The event is removed from the calendar.', ok: 'Delete', danger: true });
    if (!ok) return;
    try {
      await api.events.remove(/** @type {string} */ (value.id)); // only a saved event offers Delete
      onClose();
    } catch (err) {
      fail(err);
    }
  };
  return html`<${Modal} title=${isNew ? 'New event' : 'Edit event'} onClose=${onClose} labelledBy="event-title"
    footer=${html`${!isNew ? html`<button type="button" class="btn btn-danger-ghost" onClick=${del}><${Icon} name="trash" size=${14} />Delete</button>` : null}
      <div class="grow"></div><button type="button" class="btn" onClick=${onClose}>Cancel</button>
      <button type="submit" form="event-form" class="btn btn-primary" disabled=${busy || !f.title.trim()}>${isNew ? 'Add event' : 'Save'}</button>`}>
    <form id="event-form" class="form-grid" onSubmit=${save}>
      <label class="field span2"><span>Title</span><input autofocus required value=${f.title} onInput=${set('title')} placeholder="What is happening" /></label>
      <label class="field"><span>Date</span><input type="date" required value=${f.date} onInput=${set('date')} /></label>
      <div class="field"><span>Date in words</span><${NLDate} label="Date in words" onPick=${(r) => setF({ ...f, date: r.dueAt.slice(0, 10), ...(r.allDay ? {} : { allDay: false, startTime: r.dueAt.slice(11, 16) }) })} /></div>
      <label class="field check"><input type="checkbox" checked=${f.allDay} onChange=${set('allDay')} /><span>All day</span></label>
      ${!f.allDay ? html`<label class="field"><span>Starts</span><input type="time" value=${f.startTime} onInput=${set('startTime')} /></label>
        <label class="field"><span>Ends</span><input type="time" value=${f.endTime} onInput=${set('endTime')} /></label>
        <p class="muted small span2">Times are wall-clock times in the board's time zone${zone ? ' (' + zone + ')' : ''}.</p>` : null}
      <label class="field span2"><span>Location</span><input value=${f.location} onInput=${set('location')} /></label>
      <label class="field span2"><span>Description</span><textarea rows="3" value=${f.description} onInput=${set('description')}></textarea></label>
      <label class="field"><span>Linked case</span><${CaseSelect} label="Linked case" value=${f.caseId} cases=${list} none="Not linked" onChange=${(v) => setF({ ...f, caseId: v || '' })} /></label>
      <label class="field"><span>Domain</span><select value=${f.domain} onChange=${set('domain')}><option value="">None</option><option value="work">Work</option><option value="life">Life</option></select></label>
      <${RepeatField} value=${f.repeat} start=${f.date} onChange=${(repeat) => setF((cur) => ({ ...cur, repeat }))} />
      ${f.repeat ? html`<p class="muted small span2">Changes apply to every occurrence.</p>` : null}
      ${f.caseId ? html`<p class="span2 small"><button type="button" class="linkish" onClick=${() => { onClose(); setQuery({ case: f.caseId }); }}>Open ${f.caseId}</button></p>` : null}
    </form>
  </${Modal}>`;
}

// ReminderEditor creates a reminder (value without id) or edits one.
/** @param {{ value: Partial<import('./types.js').Reminder>, onClose: () => void }} props */
export function ReminderEditor({ value, onClose }) {
  const { list } = useCases();
  const isNew = !value.id;
  // The due date and its optional time, on the board's clock.
  const orig = wallOf(value.dueAt) || { day: '', time: '' };
  const [f, setF] = useState({
    title: value.title || '', detail: value.detail || '', dueAt: orig.day, dueTime: orig.time, caseId: value.caseId || '',
    domain: value.domain || '', labels: value.labels || [], tasks: (value.tasks || []).map((t) => ({ ...t })), repeat: value.repeat || '',
  });
  const [newTask, setNewTask] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (k) => (e) => setF({ ...f, [k]: e.target.value });
  const save = async (e) => {
    e.preventDefault();
    if (!f.title.trim()) return;
    setBusy(true);
    const tasks = [...f.tasks, ...(newTask.trim() ? [{ title: newTask.trim(), done: false }] : [])].filter((t) => t.title.trim());
    const due = f.dueAt ? (f.dueTime ? f.dueAt + 'T' + f.dueTime : f.dueAt) : '';
    try {
      if (isNew) {
        const body = { title: f.title.trim() };
        if (f.detail.trim()) body.detail = f.detail.trim();
        if (due) body.dueAt = due;
        if (f.caseId) body.caseId = f.caseId;
        if (f.domain) body.domain = f.domain;
        if (f.labels.length) body.labels = f.labels;
        if (tasks.length) body.tasks = tasks.map((t) => ({ title: t.title, done: !!t.done }));
        if (f.repeat) body.repeat = f.repeat;
        await api.reminders.create(body);
        toast(`Added reminder “${body.title}”`, 'ok');
      } else {
        const body = {};
        if (f.title.trim() !== value.title) body.title = f.title.trim();
        if (f.detail !== (value.detail || '')) body.detail = f.detail || null;
        if (f.dueAt !== orig.day || (f.dueAt && f.dueTime !== orig.time)) body.dueAt = due || null;
        if (f.caseId !== (value.caseId || '')) body.caseId = f.caseId || null;
        if (f.domain !== (value.domain || '')) body.domain = f.domain || null;
        if (JSON.stringify(f.labels) !== JSON.stringify(value.labels || [])) body.labels = f.labels;
        if (f.repeat !== (value.repeat || '')) body.repeat = f.repeat || null;
        const rows = tasks.map((t) => (t.id ? { id: t.id, title: t.title, done: !!t.done } : { title: t.title, done: !!t.done }));
        if (JSON.stringify(rows) !== JSON.stringify((value.tasks || []).map((t) => ({ id: t.id, title: t.title, done: !!t.done })))) body.tasks = rows;
        if (Object.keys(body).length) await api.reminders.patch(/** @type {string} */ (value.id), body); // not new, so it has an id
      }
      onClose();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const taskRow = (t, i) => html`<li key=${t.id || 'n' + i} class="check-edit">
    <input type="checkbox" aria-label=${'Done: ' + t.title} checked=${!!t.done} onChange=${(e) => setF({ ...f, tasks: f.tasks.map((x, j) => (j === i ? { ...x, done: e.target.checked } : x)) })} />
    <input aria-label="Checklist item" value=${t.title} onInput=${(e) => setF({ ...f, tasks: f.tasks.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)) })} />
    <button type="button" class="icon-btn icon-btn-sm" aria-label=${'Remove ' + t.title} onClick=${() => setF({ ...f, tasks: f.tasks.filter((_, j) => j !== i) })}><${Icon} name="x" size=${13} /></button>
  </li>`;
  return html`<${Modal} title=${isNew ? 'New reminder' : 'Edit reminder'} onClose=${onClose} labelledBy="reminder-title"
    footer=${html`<div class="grow"></div><button type="button" class="btn" onClick=${onClose}>Cancel</button>
      <button type="submit" form="reminder-form" class="btn btn-primary" disabled=${busy || !f.title.trim()}>${isNew ? 'Add reminder' : 'Save'}</button>`}>
    <form id="reminder-form" class="form-grid" onSubmit=${save}>
      <label class="field span2"><span>Title</span><input autofocus required value=${f.title} onInput=${set('title')} placeholder="Renew the parking permit" /></label>
      <div class="field"><span>Due</span><div class="due-inputs"><input type="date" aria-label="Due date" value=${f.dueAt} onInput=${set('dueAt')} />
        <input type="time" aria-label="Due time (optional)" value=${f.dueTime} disabled=${!f.dueAt} onInput=${set('dueTime')} /></div></div>
      <div class="field"><span>Due in words</span><${NLDate} onPick=${(r) => setF({ ...f, dueAt: r.dueAt.slice(0, 10), dueTime: r.allDay ? '' : r.dueAt.slice(11, 16) })} /></div>
      <label class="field"><span>Domain</span><select value=${f.domain} onChange=${set('domain')}><option value="">None</option><option value="work">Work</option><option value="life">Life</option></select></label>
      <${RepeatField} value=${f.repeat} start=${f.dueAt} onChange=${(repeat) => setF((cur) => ({ ...cur, repeat }))} />
      <label class="field span2"><span>Detail</span><textarea rows="2" value=${f.detail} onInput=${set('detail')}></textarea></label>
      <div class="field span2"><span>Labels</span><${LabelPicker} value=${f.labels} onChange=${(labels) => setF({ ...f, labels })} /></div>
      <div class="field span2"><span>Checklist</span>
        <ul class="checklist-edit">${f.tasks.map(taskRow)}
          <li class="check-edit"><${Icon} name="plus" size=${14} /><input aria-label="New checklist item" placeholder="Add an item" value=${newTask} onInput=${(e) => setNewTask(e.target.value)}
            onKeyDown=${(e) => { if (e.key === 'Enter') { e.preventDefault(); if (newTask.trim()) { setF({ ...f, tasks: [...f.tasks, { title: newTask.trim(), done: false }] }); setNewTask(''); } } }} /></li>
        </ul></div>
      <label class="field span2"><span>Linked case</span><${CaseSelect} label="Linked case" value=${f.caseId} cases=${list} none="Not linked" onChange=${(v) => setF({ ...f, caseId: v || '' })} /></label>
    </form>
  </${Modal}>`;
}
