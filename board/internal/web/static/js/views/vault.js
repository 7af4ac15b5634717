// @ts-check
// People: the vault's pages grouped by type, a search over them, the page
// panel of the one opened (/vault/<id or path>), and the senders no page
// holds yet, each attachable to a page or made into a new one.
import { useEffect, useState } from 'preact/hooks';
import { html, Icon, Problem, Spinner, Empty, Modal } from '../ui.js';
import { api } from '../api.js';
import { useLive, onVault } from '../live.js';
import { navigate, setQuery } from '../router.js';
import { usePages, vaultPages, fail, toast, VAULT_LIST } from '../state.js';
import { relTime, plural } from '../format.js';
import { PAGE_GROUPS, groupOf, pageHref, pageKeyOf } from '../pages.js';
import { PagePanel } from './pagepanel.js';

/** @param {{ route: import('../types.js').Route }} props */
export function PeoplePage({ route }) {
  const key = pageKeyOf(route.path);
  const q = route.query.get('q') || '';
  const { data, error, loading, reload, update } = useLive(() => api.vault.list({ q, limit: VAULT_LIST }), [q], { kinds: [] }); // pages change on the vault event
  useEffect(() => onVault(reload), [reload]);
  const [creating, setCreating] = useState(/** @type {any} */ (null));
  const list = /** @type {import('../types.js').PageSummary[]} */ ((data && data.pages) || []);
  const more = async () => {
    try {
      const next = await api.vault.list({ q, limit: VAULT_LIST, cursor: data.nextCursor });
      update((d) => ({ ...d, pages: [...d.pages, ...next.pages], nextCursor: next.nextCursor }));
    } catch (e) {
      fail(e);
    }
  };
  return html`<section class=${'page page-inbox page-vault' + (key ? ' reading' : '')} aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row">
      <h1 id="page-title">People</h1><span class="count">${plural(list.length, 'page')}${data && data.nextCursor ? '+' : ''}</span>
      <div class="grow"></div>
      <${Search} q=${q} />
      <button type="button" class="btn btn-primary btn-sm" onClick=${() => setCreating({})}><${Icon} name="plus" size=${14} />New page</button>
    </div>
      <p class="lede">One page per person, organization, project or topic, kept as Markdown in your vault folder. Cases link them; mail from their addresses is theirs.</p></header>
    <${Problem} error=${error} what="The vault" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${data ? html`<div class="split">
      <div class="inbox-scroll"><${PageGroups} list=${list} current=${key} q=${q} />
        ${data.nextCursor ? html`<div class="pad"><button type="button" class="btn btn-sm" onClick=${more}>Show more pages</button></div>` : null}</div>
      <div class="reader">${key ? html`<${PagePanel} key=${key} id=${key} />` : html`<${Unresolved} onNew=${setCreating} />`}</div>
    </div>` : null}
    ${creating ? html`<${NewPageDialog} from=${creating} onClose=${() => setCreating(null)} />` : null}
  </section>`;
}

// Search narrows the list by title, alias or address; the address keeps it.
/** @param {{ q: string }} props */
function Search({ q }) {
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (text.trim() === q) return undefined;
    const t = setTimeout(() => setQuery({ q: text.trim() || null }, { replace: true }), 250);
    return () => clearTimeout(t);
  }, [text]);
  return html`<label class="search-field"><${Icon} name="search" size=${14} />
    <input type="search" aria-label="Search pages" placeholder="Search pages" value=${text} onInput=${(e) => setText(e.target.value)} /></label>`;
}

/** @param {{ list: import('../types.js').PageSummary[], current: string, q: string }} props */
function PageGroups({ list, current, q }) {
  if (!list.length) {
    return q ? html`<p class="muted pad">No page matches “${q}”.</p>`
      : html`<${Empty} icon="user" title="No pages yet">Make one with New page, or from a sender below it. Pages you write in the vault folder show up here too.</${Empty}>`;
  }
  return html`${PAGE_GROUPS.map((g) => {
    const pages = list.filter((p) => (p.type || '') === g.type);
    if (!pages.length) return null;
    return html`<section key=${g.type} class="vault-group" aria-labelledby=${'vg-' + (g.type || 'none')}>
      <h2 id=${'vg-' + (g.type || 'none')} class="section-title">${g.name} <span class="count">${pages.length}</span></h2>
      <ul class="vault-list">${pages.map((p) => {
        const here = current === p.id || current === p.path;
        return html`<li key=${p.path}><a href=${pageHref(p)} class=${'vault-row' + (here ? ' selected' : '')} aria-current=${here ? 'page' : undefined} data-page=${p.id || p.path}>
          <span class="vault-title">${p.title}</span>
          ${p.broken ? html`<span class="pill pill-warn">Does not parse</span>` : null}
          <span class="vault-sub">${[...p.emails, ...p.domains].slice(0, 2).join(', ') || p.path}${p.cases.length ? ' · ' + plural(p.cases.length, 'case') : ''}</span>
        </a></li>`;
      })}</ul>
    </section>`;
  })}`;
}

// Unresolved lists the senders of mail no page holds, with the pages the
// board thinks they might be.
/** @param {{ onNew: (from: any) => void }} props */
function Unresolved({ onNew }) {
  const { data, error, loading, reload } = useLive(() => api.vault.unresolved(), [], { kinds: ['message'] });
  useEffect(() => onVault(reload), [reload]);
  const [attaching, setAttaching] = useState(/** @type {import('../types.js').UnresolvedSender | null} */ (null));
  const { byKey } = usePages();
  const senders = /** @type {import('../types.js').UnresolvedSender[]} */ ((data && data.senders) || []);
  return html`<section class="vault-senders" aria-labelledby="h-senders">
    <h2 id="h-senders" class="section-title">Senders without a page <span class="count">${senders.length}</span></h2>
    <${Problem} error=${error} what="The unresolved senders" />
    ${loading && !data ? html`<${Spinner} />` : null}
    ${data && !senders.length ? html`<p class="muted">Every sender of your mail has a page. Choose a page to read it.</p>` : null}
    <ul class="rows">${senders.map((s) => html`<li key=${s.address} class="row sender" data-sender=${s.address}>
      <div class="row-main">
        <div class="strong">${s.name || s.address}</div>
        <div class="muted small">${s.name ? s.address + ' · ' : ''}${plural(s.messages, 'message')}${s.lastAt ? ' · last ' + relTime(s.lastAt) : ''}</div>
        ${s.suggestions && s.suggestions.length ? html`<div class="small">Maybe ${s.suggestions.map((g, i) => html`${i ? ', ' : ''}<a href=${pageHref(g.id)}>${byKey[g.id] ? byKey[g.id].title : g.id}</a> <span class="muted">(${g.reason})</span>`)}</div>` : null}
      </div>
      <button type="button" class="btn btn-sm" aria-label=${'Attach to a page: ' + s.address} onClick=${() => setAttaching(s)}><${Icon} name="link" size=${14} />Attach to a page</button>
      <button type="button" class="btn btn-sm" aria-label=${'New page: ' + s.address} onClick=${() => onNew({ title: s.name || '', emails: s.address })}><${Icon} name="plus" size=${14} />New page</button>
    </li>`)}</ul>
    ${attaching ? html`<${AttachDialog} sender=${attaching} onClose=${() => setAttaching(null)} />` : null}
  </section>`;
}

// AttachDialog adds a sender's address to a page's emails; the board then
// files the sender's past mail under the page as well.
/** @param {{ sender: import('../types.js').UnresolvedSender, onClose: () => void }} props */
function AttachDialog({ sender, onClose }) {
  const { list, byKey } = usePages();
  const suggested = (sender.suggestions || []).map((g) => byKey[g.id]).filter(Boolean);
  const [target, setTarget] = useState(suggested.length ? suggested[0].id || suggested[0].path : '');
  const others = list.filter((p) => !suggested.includes(p) && !p.broken).sort((a, b) => (a.type === 'person' ? 0 : 1) - (b.type === 'person' ? 0 : 1));
  const attach = async () => {
    try {
      // The page's emails as they are now, so an address added meanwhile stays.
      const { page } = await api.vault.get(target);
      await api.vault.patch(target, { emails: [...(page.emails || []), sender.address] });
      toast(`${sender.address} is now on ${page.title}`, 'ok');
      vaultPages.reload();
      onClose();
    } catch (e) {
      fail(e);
    }
  };
  return html`<${Modal} title=${'Attach ' + sender.address + ' to a page'} onClose=${onClose} labelledBy="attach-title"
    footer=${html`<button type="button" class="btn" onClick=${onClose}>Cancel</button><button type="button" class="btn btn-primary" disabled=${!target} onClick=${attach}>Attach</button>`}>
    <label class="field"><span>Page</span>
      <select aria-label="Page" value=${target} onChange=${(e) => setTarget(e.target.value)}>
        <option value="">Choose a page</option>
        ${suggested.length ? html`<optgroup label="Suggested">${suggested.map((p) => html`<option key=${p.path} value=${p.id || p.path}>${p.title}</option>`)}</optgroup>` : null}
        ${others.map((p) => html`<option key=${p.path} value=${p.id || p.path}>${p.title} · ${groupOf(p).one}</option>`)}
      </select></label>
    <p class="muted">The address joins the page's emails, and the mail it sent so far is filed under the page.</p>
  </${Modal}>`;
}

// NewPageDialog makes a page; a page already holding the title, an alias
// or the address is opened instead, as the board answers.
/** @param {{ from: { title?: string, emails?: string }, onClose: () => void }} props */
function NewPageDialog({ from, onClose }) {
  const [f, setF] = useState({ title: from.title || '', type: 'person', emails: from.emails || '' });
  const set = (/** @type {string} */ k) => (/** @type {any} */ e) => setF({ ...f, [k]: e.target.value });
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const emails = f.emails.split(/[\s,;]+/).filter(Boolean);
    const domains = f.type === 'organization' ? emails.filter((x) => !x.includes('@')) : [];
    try {
      const res = await api.vault.create({ title: f.title.trim(), type: f.type, emails: emails.filter((x) => !domains.includes(x)), domains });
      toast(res.existing ? `${res.page.title} already has a page` : `Made the page ${res.page.title}`, res.existing ? 'info' : 'ok');
      vaultPages.reload();
      onClose();
      navigate(pageHref(res.page));
    } catch (err) {
      fail(err);
    }
  };
  return html`<${Modal} title="New page" onClose=${onClose} labelledBy="newpage-title"
    footer=${html`<button type="button" class="btn" onClick=${onClose}>Cancel</button><button type="submit" form="newpage-form" class="btn btn-primary" disabled=${!f.title.trim()}>Make the page</button>`}>
    <form id="newpage-form" class="form-stack" onSubmit=${submit}>
      <label class="field"><span>Title</span><input autofocus required value=${f.title} onInput=${set('title')} placeholder="Ada Lovelace" /></label>
      <label class="field"><span>Type</span><select value=${f.type} onChange=${set('type')}>
        ${PAGE_GROUPS.filter((g) => g.type).map((g) => html`<option value=${g.type}>${g.one}</option>`)}</select></label>
      <label class="field"><span>${f.type === 'organization' ? 'Emails and domains' : 'Emails'}</span><input value=${f.emails} onInput=${set('emails')} placeholder="ada@example.com" /></label>
    </form>
  </${Modal}>`;
}
