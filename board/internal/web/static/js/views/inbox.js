// @ts-check
// Inbox: every message, read and unread, each linkable to a case or a reminder.
import { useEffect } from 'preact/hooks';
import { html, Icon, CaseSelect, Problem, Spinner, Empty, Segmented } from '../ui.js';
import { api, enc } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { useCases, fail } from '../state.js';
import { relTime, shortDate, isoDay } from '../format.js';

const mpath = (id) => `/api/messages/${enc(id)}`;

async function patchMessage(m, body) {
  try {
    await api.patch(mpath(m.id), body);
  } catch (e) {
    fail(e);
  }
}

/** @param {{ route: import('../types.js').Route }} props */
export function InboxPage({ route }) {
  const { data, error, loading } = useLive(() => api.get('/api/messages'), []);
  const show = route.query.get('show') || 'all';
  const selected = route.query.get('m');
  const all = ((data && data.messages) || []).slice().sort((a, b) => String(b.receivedAt || '').localeCompare(String(a.receivedAt || '')));
  const list = all.filter((m) => (show === 'unread' ? !m.read : show === 'unlinked' ? !m.caseId && !m.reminderId : true));
  const unreadN = all.filter((m) => !m.read).length;
  const current = all.find((m) => m.id === selected);
  return html`<section class=${'page page-inbox' + (current ? ' reading' : '')} aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row">
      <h1 id="page-title">Inbox</h1><span class="count">${unreadN} unread</span>
      <div class="grow"></div>
      <${Segmented} label="Show messages" value=${show} onChange=${(v) => setQuery({ show: v === 'all' ? null : v })}
        options=${[{ value: 'all', label: 'All' }, { value: 'unread', label: 'Unread' }, { value: 'unlinked', label: 'Not linked' }]} />
    </div></header>
    <${Problem} error=${error} what="The inbox" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${data && !all.length ? html`<${Empty} icon="inbox" title="No messages">Emails the agent files onto the board show up here.</${Empty}>` : null}
    ${all.length ? html`<div class="split">
      <ul class="inbox-list" aria-label="Messages">
        ${list.map((m) => html`<li key=${m.id}><a href=${'/inbox?' + new URLSearchParams({ ...(show !== 'all' ? { show } : {}), m: m.id })}
          class=${'inbox-row' + (m.read ? '' : ' unread') + (m.id === selected ? ' selected' : '')} aria-current=${m.id === selected ? 'true' : undefined}>
          <span class="unread-dot" aria-label=${m.read ? undefined : 'Unread'}></span>
          <span class="inbox-from">${m.outbound ? 'To ' + (m.to || []).join(', ') : m.from || m.source || 'Unknown'}</span>
          <time class="inbox-date">${m.receivedAt ? (isoDay(new Date(m.receivedAt)) === isoDay(new Date()) ? relTime(m.receivedAt) : shortDate(m.receivedAt.slice(0, 10))) : ''}</time>
          <span class="inbox-subject">${m.subject || '(no subject)'}</span>
          <span class="inbox-preview">${m.preview || (m.body || '').slice(0, 140)}</span>
          ${m.caseId || m.reminderId ? html`<span class="inbox-links">${m.caseId ? html`<span class="pill"><${Icon} name="layers" size=${11} />${m.caseId}</span>` : null}${m.reminderId ? html`<span class="pill"><${Icon} name="bell" size=${11} />${m.reminderId}</span>` : null}</span>` : null}
        </a></li>`)}
        ${!list.length ? html`<li class="muted pad">Nothing here.</li>` : null}
      </ul>
      <div class="reader">${current ? html`<${Reader} key=${current.id} m=${current} />` : html`<div class="reader-empty muted">Choose a message to read it.</div>`}</div>
    </div>` : null}
  </section>`;
}

function Reader({ m }) {
  const { list, byId } = useCases();
  const rems = useLive(() => api.get('/api/reminders?status=open'), []);
  const reminders = ((rems.data && rems.data.reminders) || []).slice().sort((a, b) => a.title.localeCompare(b.title));
  useEffect(() => {
    if (!m.read) patchMessage(m, { read: true });
  }, [m.id]);
  return html`<article class="message" aria-labelledby="msg-subject">
    <header class="message-head">
      <button type="button" class="icon-btn back" aria-label="Back to the list" onClick=${() => setQuery({ m: null })}><${Icon} name="chevronLeft" /></button>
      <h2 id="msg-subject">${m.subject || '(no subject)'}</h2>
      <div class="message-meta">
        <div><span class="muted">From</span> ${m.from || '—'}</div>
        ${m.to && m.to.length ? html`<div><span class="muted">To</span> ${m.to.join(', ')}</div>` : null}
        ${m.cc && m.cc.length ? html`<div><span class="muted">Cc</span> ${m.cc.join(', ')}</div>` : null}
        <div class="muted">${m.receivedAt ? new Date(m.receivedAt).toLocaleString() : ''}${m.source ? ' · ' + m.source : ''}</div>
      </div>
      <div class="btn-row">
        <button type="button" class="btn btn-sm" onClick=${() => patchMessage(m, { read: !m.read })}>${m.read ? 'Mark unread' : 'Mark read'}</button>
        ${m.url ? html`<a class="btn btn-sm btn-ghost" href=${m.url} target="_blank" rel="noopener noreferrer"><${Icon} name="external" size=${13} />Open original</a>` : null}
      </div>
    </header>
    <div class="link-bar">
      <label class="field"><span>Case</span>
        <${CaseSelect} label="Link to a case" value=${m.caseId || ''} cases=${list} none="Not linked" onChange=${(v) => patchMessage(m, { caseId: v || null })} /></label>
      ${m.caseId ? html`<button type="button" class="btn btn-ghost btn-sm" onClick=${() => setQuery({ case: m.caseId })}>Open ${byId[m.caseId] ? byId[m.caseId].title : m.caseId}</button>` : null}
      <label class="field"><span>Reminder</span>
        <select aria-label="Link to a reminder" value=${m.reminderId || ''} onChange=${(e) => patchMessage(m, { reminderId: e.target.value || null })}>
          <option value="">Not linked</option>
          ${m.reminderId && !reminders.some((r) => r.id === m.reminderId) ? html`<option value=${m.reminderId}>${m.reminderId}</option>` : null}
          ${reminders.map((r) => html`<option key=${r.id} value=${r.id}>${r.title} · ${r.id}</option>`)}
        </select></label>
      ${m.reminderId ? html`<a class="btn btn-ghost btn-sm" href=${'/reminders?id=' + enc(m.reminderId)}>Open reminder</a>` : null}
    </div>
    <div class="message-body">${m.body || m.preview || html`<span class="muted">No text.</span>`}</div>
  </article>`;
}
