// @ts-check
// Reminders: nudges by status with due dates, a checklist, labels and linked
// emails; complete, dismiss, reopen, edit, delete.
import { useEffect, useState } from 'preact/hooks';
import { html, Icon, Labels, Due, Menu, Problem, Spinner, Empty } from '../ui.js';
import { api, enc } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { useCases, fail, confirmDialog, patchList, toast } from '../state.js';
import { relTime, shortDate, dueState, plural } from '../format.js';
import { ReminderEditor } from '../editors.js';
import { RepeatText } from '../repeat.js';


async function patchReminder(r, body) {
  try {
    const ans = await api.reminders.patch(r.id, body);
    if (ans && ans.next) toast(`Next “${ans.next.title}” due ${shortDate(String(ans.next.dueAt).slice(0, 10))}`, 'ok');
  } catch (e) {
    fail(e);
  }
}

function byDue(a, b) {
  return String(a.dueAt || '9999').localeCompare(String(b.dueAt || '9999')) || String(a.createdAt).localeCompare(String(b.createdAt));
}

/** @param {{ route: import('../types.js').Route }} props */
export function RemindersPage({ route }) {
  const { data, error, loading } = useLive(() => api.reminders.list(), [], { kinds: ['reminder'] });
  const mail = useLive(() => api.messages.list({ view: 'summary', onReminder: true }), [], { kinds: ['message'], patch: (d, ch) => patchList(d, 'messages', 'message', ch) });
  const mailCount = {};
  for (const m of (mail.data && mail.data.messages) || []) if (m.reminderId) mailCount[m.reminderId] = (mailCount[m.reminderId] || 0) + 1;
  const [editing, setEditing] = useState(/** @type {Partial<import('../types.js').Reminder> | null} */ (null));
  const [showClosed, setShowClosed] = useState(false);
  const focus = route.query.get('id');
  useEffect(() => {
    if (!focus || !data) return;
    const el = document.getElementById('rem-' + focus);
    if (el) {
      el.scrollIntoView({ block: 'center' });
      el.focus();
    }
  }, [focus, !!data]);
  const list = (data && data.reminders) || [];
  const open = list.filter((r) => r.status === 'open').sort(byDue);
  const overdue = open.filter((r) => r.dueAt && dueState(r.dueAt) === 'overdue');
  const upcoming = open.filter((r) => !overdue.includes(r));
  const done = list.filter((r) => r.status === 'done').sort((a, b) => String(b.completedAt).localeCompare(String(a.completedAt)));
  const dismissed = list.filter((r) => r.status === 'dismissed').sort(byDue);
  return html`<section class="page page-narrow" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row">
      <h1 id="page-title">Reminders</h1><span class="count">${open.length} open</span>
      <div class="grow"></div>
      <button type="button" class="btn btn-primary" onClick=${() => setEditing({})}><${Icon} name="plus" size=${15} />New reminder</button>
    </div></header>
    <${Problem} error=${error} what="Reminders" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${data && !list.length ? html`<${Empty} icon="bell" title="No reminders">A reminder is a light nudge with a due date: renew the passport, follow up with the vendor.</${Empty}>` : null}
    ${overdue.length ? html`<${Group} title="Overdue" tone="danger" list=${overdue} focus=${focus} onEdit=${setEditing} mail=${mailCount} />` : null}
    ${upcoming.length ? html`<${Group} title=${overdue.length ? 'Upcoming' : 'Open'} list=${upcoming} focus=${focus} onEdit=${setEditing} mail=${mailCount} />` : null}
    ${done.length || dismissed.length ? html`<button type="button" class="btn btn-ghost section-toggle" aria-expanded=${showClosed ? 'true' : 'false'} onClick=${() => setShowClosed(!showClosed)}>
      <${Icon} name=${showClosed ? 'chevronDown' : 'chevronRight'} size=${14} />${done.length} done · ${dismissed.length} dismissed</button>` : null}
    ${showClosed || (focus && [...done, ...dismissed].some((r) => r.id === focus)) ? html`
      ${done.length ? html`<${Group} title="Done" list=${done} focus=${focus} onEdit=${setEditing} mail=${mailCount} />` : null}
      ${dismissed.length ? html`<${Group} title="Dismissed" list=${dismissed} focus=${focus} onEdit=${setEditing} mail=${mailCount} />` : null}` : null}
    ${editing ? html`<${ReminderEditor} value=${editing} onClose=${() => setEditing(null)} />` : null}
  </section>`;
}

function Group({ title, list, tone, focus, onEdit, mail }) {
  return html`<section class="group" aria-label=${title}>
    <h2 class=${'section-title' + (tone ? ' tone-' + tone : '')}>${title} <span class="count">${list.length}</span></h2>
    <ul class="reminders">${list.map((r) => html`<${ReminderRow} key=${r.id} r=${r} focused=${focus === r.id} onEdit=${onEdit} mails=${mail[r.id] || 0} />`)}</ul>
  </section>`;
}

function ReminderRow({ r, focused, onEdit, mails: mailN }) {
  const { byId } = useCases();
  const [mails, setMails] = useState(/** @type {import('../types.js').Message[] | null} */ (null));
  const tasks = r.tasks || [];
  const doneTasks = tasks.filter((t) => t.done).length;
  const toggleTask = (t) => patchReminder(r, { tasks: tasks.map((x) => ({ id: x.id, title: x.title, done: x.id === t.id ? !x.done : x.done })) });
  const showMail = async () => {
    if (mails) return setMails(null);
    try {
      const d = await api.reminders.get(r.id);
      setMails(d.messages || []);
    } catch (e) {
      fail(e);
    }
  };
  const del = async () => {
    const ok = await confirmDialog({ title: `Delete “${r.title}”?`, message: 'The reminder is removed for good. Linked emails stay in the Inbox.', ok: 'Delete', danger: true });
    if (ok) {
      try {
        await api.reminders.remove(r.id);
      } catch (e) {
        fail(e);
      }
    }
  };
  const linked = r.caseId && byId[r.caseId];
  return html`<li id=${'rem-' + r.id} tabindex="-1" class=${'reminder status-' + r.status + (focused ? ' focused' : '')}>
    <button type="button" class=${'check-circle' + (r.status === 'done' ? ' on' : '')} aria-label=${r.status === 'done' ? 'Reopen ' + r.title : 'Complete ' + r.title}
      aria-pressed=${r.status === 'done' ? 'true' : 'false'} onClick=${() => patchReminder(r, { status: r.status === 'done' ? 'open' : 'done' })}><${Icon} name="check" size=${13} /></button>
    <div class="reminder-main">
      <div class="reminder-title-row">
        <button type="button" class="reminder-title linkish" onClick=${() => onEdit(r)}>${r.title}</button>
        <${Due} at=${r.dueAt} done=${r.status !== 'open'} />
        <${RepeatText} rule=${r.repeat} />
        ${r.domain === 'life' ? html`<span class="domain-pill">Life</span>` : null}
      </div>
      ${r.detail ? html`<p class="reminder-detail">${r.detail}</p>` : null}
      <div class="reminder-meta">
        <${Labels} ids=${r.labels} />
        ${r.caseId ? html`<button type="button" class="parent linkish" onClick=${() => setQuery({ case: r.caseId })}><${Icon} name="layers" size=${12} /><span>${linked ? linked.title : r.caseId}</span></button>` : null}
        ${tasks.length ? html`<span class="tasks" title="Checklist">${doneTasks}/${tasks.length}</span>` : null}
        ${mailN ? html`<button type="button" class="btn btn-ghost btn-xs" aria-expanded=${mails ? 'true' : 'false'} onClick=${showMail}><${Icon} name="mail" size=${12} />${plural(mailN, 'email')}</button>` : null}
        ${r.status === 'done' && r.completedAt ? html`<span class="muted small">Done ${relTime(r.completedAt)}</span>` : null}
      </div>
      ${tasks.length ? html`<ul class="checklist">${tasks.map((t) => html`<li key=${t.id}><label>
        <input type="checkbox" checked=${t.done} onChange=${() => toggleTask(t)} /><span class=${t.done ? 'struck' : ''}>${t.title}</span></label></li>`)}</ul>` : null}
      ${mails ? html`<ul class="mail-list compact">${mails.length ? mails.map((m) => html`<li key=${m.id} class="mail"><a class="mail-row" href=${'/inbox?m=' + enc(m.id)}>
        <span class="mail-from">${m.from}</span><span class="mail-subject">${m.subject || '(no subject)'}</span>
        <time class="mail-date">${m.receivedAt ? shortDate(m.receivedAt.slice(0, 10)) : ''}</time></a></li>`) : html`<li class="muted small">No linked emails.</li>`}</ul>` : null}
    </div>
    <${Menu} label=${'Actions for ' + r.title} items=${[
      { label: 'Edit', icon: 'edit', onSelect: () => onEdit(r) },
      r.status !== 'done' ? { label: 'Complete', icon: 'check', onSelect: () => patchReminder(r, { status: 'done' }) } : { label: 'Reopen', icon: 'restore', onSelect: () => patchReminder(r, { status: 'open' }) },
      r.status === 'open' ? { label: 'Dismiss', icon: 'x', onSelect: () => patchReminder(r, { status: 'dismissed' }) } : null,
      r.status === 'dismissed' ? { label: 'Reopen', icon: 'restore', onSelect: () => patchReminder(r, { status: 'open' }) } : null,
      { label: 'Delete', icon: 'trash', danger: true, onSelect: del },
    ]} />
  </li>`;
}
