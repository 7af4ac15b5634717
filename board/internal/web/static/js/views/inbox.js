// @ts-check
// Inbox: every message, read and unread, each linkable to a case or a reminder.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html, Icon, CaseSelect, Problem, Spinner, Empty, Segmented } from '../ui.js';
import { api, enc } from '../api.js';
import { useLive } from '../live.js';
import { setQuery } from '../router.js';
import { useCases, usePages, fail, unread } from '../state.js';
import { PageName } from '../pages.js';
import { relTime, shortDate } from '../format.js';
import { dayOf, boardToday, dateTimeOf } from '../zone.js';


async function patchMessage(m, body) {
  try {
    await api.messages.patch(m.id, body);
  } catch (e) {
    fail(e);
  }
}

// The inbox holds message summaries a page at a time, newest first, and
// draws only the rows on screen: at ten thousand messages neither the
// bodies nor the rows of the whole mailbox are ever in the page.
const PAGE = 100;
const ROW = 96; // px: every row has one height, so the window is arithmetic
const OVERSCAN = 8;

/** @param {string} show */
const filterOf = (show) => (show === 'unread' ? { unread: 1 } : show === 'unlinked' ? { unlinked: 1 } : {});

/**
 * @param {string} show
 * @returns {(m: any) => boolean}
 */
const keepFor = (show) => (show === 'unread' ? (m) => !m.read : show === 'unlinked' ? (m) => !m.caseId && !m.reminderId : () => true);

/** @param {any} a @param {any} b */
// pageNames are the titles of the vault pages a message's sender (or, sent,
// its recipients) resolved to, people before organizations; pages the list
// does not hold are left out.
/**
 * @param {{ entities?: string[] }} m
 * @param {Record<string, import('../types.js').PageSummary>} pages
 */
function pageNames(m, pages) {
  const found = (m.entities || []).map((k) => pages[k]).filter(Boolean);
  found.sort((a, b) => (a.type === 'person' ? 0 : 1) - (b.type === 'person' ? 0 : 1));
  return found.map((p) => p.title).join(', ');
}

const newestFirst = (a, b) => String(b.receivedAt || '').localeCompare(String(a.receivedAt || '')) || String(b.id).localeCompare(String(a.id));

// patchInbox applies a change set to the pages held: a changed message
// takes its place in the order when it falls within what is loaded (or
// everything is loaded), and leaves when it no longer passes the filter.
/**
 * @param {any} data
 * @param {import('../live.js').ChangeSet} ch
 * @param {string} show
 */
function patchInbox(data, ch, show) {
  const keep = keepFor(show);
  const changed = ch.changed.filter((r) => r.kind === 'message');
  const removed = new Set(ch.removed.filter((r) => r.kind === 'message').map((r) => r.id));
  if (!changed.length && !removed.size) return { ...data, version: ch.version };
  const next = new Map(changed.map((r) => [r.id, r.record]));
  let list = (data.messages || []).filter((m) => !removed.has(m.id) && !next.has(m.id));
  const last = list[list.length - 1];
  for (const m of next.values()) {
    if (!keep(m)) continue;
    // Past the last loaded row it belongs to a page not yet loaded.
    if (data.nextCursor && last && newestFirst(m, last) > 0) continue;
    list.push(m);
  }
  list.sort(newestFirst);
  return { ...data, messages: list, version: ch.version };
}

/** @param {{ route: import('../types.js').Route }} props */
export function InboxPage({ route }) {
  const show = route.query.get('show') || 'all';
  const { data, error, loading, update } = useLive(() => api.messages.list({ view: 'summary', limit: PAGE, ...filterOf(show) }), [show],
    { kinds: ['message'], patch: (d, ch) => patchInbox(d, ch, show) });
  const count = unread.use();
  const { byKey: pages } = usePages();
  const selected = route.query.get('m');
  const list = (data && data.messages) || [];
  const unreadN = count.data ? count.data.count : list.filter((m) => !m.read).length;
  const more = useRef(false);
  const loadMore = async () => {
    if (more.current || !data || !data.nextCursor) return;
    more.current = true;
    try {
      const page = await api.messages.list({ view: 'summary', limit: PAGE, cursor: data.nextCursor, ...filterOf(show) });
      update((d) => {
        const have = new Set(d.messages.map((m) => m.id));
        return { ...d, messages: [...d.messages, ...page.messages.filter((m) => !have.has(m.id))], nextCursor: page.nextCursor };
      });
    } catch (e) {
      fail(e);
    } finally {
      more.current = false;
    }
  };
  const empty = data && !list.length && show === 'all';
  return html`<section class=${'page page-inbox' + (selected ? ' reading' : '')} aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row">
      <h1 id="page-title">Inbox</h1><span class="count">${unreadN} unread</span>
      <div class="grow"></div>
      <${Segmented} label="Show messages" value=${show} onChange=${(v) => setQuery({ show: v === 'all' ? null : v })}
        options=${[{ value: 'all', label: 'All' }, { value: 'unread', label: 'Unread' }, { value: 'unlinked', label: 'Not linked' }]} />
    </div></header>
    <${Problem} error=${error} what="The inbox" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${empty ? html`<${Empty} icon="inbox" title="No messages">Emails the agent files onto the board show up here.</${Empty}>` : null}
    ${data && !empty ? html`<div class="split">
      <${MessageList} list=${list} pages=${pages} show=${show} selected=${selected} hasMore=${!!data.nextCursor} onMore=${loadMore} />
      <div class="reader">${selected ? html`<${Reader} key=${selected} id=${selected} />` : html`<div class="reader-empty muted">Choose a message to read it.</div>`}</div>
    </div>` : null}
  </section>`;
}

// MessageList is a windowed list: a spacer as tall as every row, and only
// the rows in view (plus a few either side) drawn at their place in it. It
// asks for the next page when the view nears the end of what is loaded.
function MessageList({ list, pages, show, selected, hasMore, onMore }) {
  const ref = useRef(/** @type {HTMLElement | null} */ (null));
  const [view, setView] = useState({ top: 0, height: 800 });
  const measure = () => {
    const el = ref.current;
    if (el) setView({ top: el.scrollTop, height: el.clientHeight || 800 });
  };
  useEffect(() => {
    measure();
    addEventListener('resize', measure);
    return () => removeEventListener('resize', measure);
  }, []);
  const first = Math.max(0, Math.floor(view.top / ROW) - OVERSCAN);
  const end = Math.min(list.length, Math.ceil((view.top + view.height) / ROW) + OVERSCAN);
  useEffect(() => {
    if (hasMore && end >= list.length - OVERSCAN) onMore();
  }, [hasMore, end, list.length]);
  const rows = list.slice(first, end);
  return html`<div class="inbox-scroll" ref=${ref} onScroll=${measure}>
    <ul class="inbox-list" aria-label="Messages" style=${{ height: Math.max(list.length, 1) * ROW + 'px' }}>
      ${rows.map((m, i) => {
        const names = pageNames(m, pages);
        return html`<li key=${m.id} class="inbox-item" style=${{ top: (first + i) * ROW + 'px', height: ROW + 'px' }}><a href=${'/inbox?' + new URLSearchParams({ ...(show !== 'all' ? { show } : {}), m: m.id })}
        class=${'inbox-row' + (m.read ? '' : ' unread') + (m.id === selected ? ' selected' : '')} aria-current=${m.id === selected ? 'true' : undefined}>
        <span class="unread-dot" aria-label=${m.read ? undefined : 'Unread'}></span>
        <span class="inbox-from">${names ? html`<span class="inbox-page" data-page-name>${names}</span> ` : null}${m.outbound ? 'To ' + (m.to || []).join(', ') : m.from || m.source || 'Unknown'}</span>
        <time class="inbox-date">${m.receivedAt ? (dayOf(m.receivedAt) === boardToday() ? relTime(m.receivedAt) : shortDate(dayOf(m.receivedAt))) : ''}</time>
        <span class="inbox-subject">${m.subject || '(no subject)'}</span>
        <span class="inbox-preview">${m.preview || ''}</span>
        ${m.caseId || m.reminderId ? html`<span class="inbox-links">${m.caseId ? html`<span class="pill"><${Icon} name="layers" size=${11} />${m.caseId}</span>` : null}${m.reminderId ? html`<span class="pill"><${Icon} name="bell" size=${11} />${m.reminderId}</span>` : null}</span>` : null}
      </a></li>`;
      })}
      ${!list.length ? html`<li class="muted pad">Nothing here.</li>` : null}
    </ul>
  </div>`;
}

// Reader loads the whole message (its body) when it is opened.
/** @param {{ id: string }} props */
function Reader({ id }) {
  const { data, error } = useLive(() => api.messages.get(id), [id],
    { relevant: (ch) => ch.changed.some((r) => r.kind === 'message' && r.id === id) || ch.removed.some((r) => r.kind === 'message' && r.id === id) });
  if (error && !data) return html`<${Problem} error=${error} what=${'Message ' + id} />`;
  if (!data) return html`<${Spinner} />`;
  return html`<${Message} m=${data.message} />`;
}

function Message({ m }) {
  const { list, byId } = useCases();
  const rems = useLive(() => api.reminders.list({ status: 'open' }), []);
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
        <${MessagePages} m=${m} />
        ${m.to && m.to.length ? html`<div><span class="muted">To</span> ${m.to.join(', ')}</div>` : null}
        ${m.cc && m.cc.length ? html`<div><span class="muted">Cc</span> ${m.cc.join(', ')}</div>` : null}
        <div class="muted">${m.receivedAt ? dateTimeOf(m.receivedAt) : ''}${m.source ? ' · ' + m.source : ''}</div>
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

// MessagePages links the vault pages a message resolved to.
/** @param {{ m: import('../types.js').Message }} props */
function MessagePages({ m }) {
  const { byKey } = usePages();
  const ids = m.entities || [];
  if (!ids.length) return null;
  return html`<div class="message-pages"><span class="muted">${ids.length === 1 ? 'Page' : 'Pages'}</span> ${ids.map((k, i) => html`${i ? ', ' : ''}<${PageName} k=${k} pages=${byKey} />`)}</div>`;
}
