// @ts-check
// The page panel: one vault page read whole. Its properties, its body as the
// board renders it, the cases that link it, the newest mail from its
// addresses, the pages that link it, and a line added to its timeline.
import { useEffect, useState } from 'preact/hooks';
import { html, Icon, Problem, Spinner } from '../ui.js';
import { api, enc } from '../api.js';
import { useLive, onVault } from '../live.js';
import { navigate, setQuery } from '../router.js';
import { useCases, usePages, fail, toast } from '../state.js';
import { relTime, shortDate, laneName } from '../format.js';
import { groupOf, pageHref, VAULT_PREFIX } from '../pages.js';

// MAIL_SHOWN is how many of a page's messages the panel reads: the newest,
// by id, since the board mints message ids in arrival order.
const MAIL_SHOWN = 5;

/** @param {{ id: string }} props */
export function PagePanel({ id }) {
  const { data, error, reload } = useLive(() => api.vault.get(id), [id], { relevant: touchesPage });
  useEffect(() => onVault(reload), [reload]);
  if (error && !data) {
    return html`<div class="page-panel"><${Back} /><h2 class="sr-only" id="panel-title">${id}</h2><${Problem} error=${error} what=${'The page ' + id} /></div>`;
  }
  if (!data) return html`<${Spinner} />`;
  /** @type {import('../types.js').VaultPage} */
  const p = data.page;
  const group = groupOf(p);
  return html`<article class="page-panel" aria-labelledby="panel-title" data-panel=${p.id || p.path}>
    <header class="message-head">
      <${Back} />
      <h2 id="panel-title">${p.title}</h2>
      <div class="message-meta">
        <div><span class="pill">${group.one}</span> ${p.id ? html`<span class="card-id">${p.id}</span>` : null} <span class="muted small">${p.path} · updated ${relTime(p.updatedAt)}</span></div>
      </div>
    </header>
    ${p.broken ? html`<div class="conflict" role="alert"><${Icon} name="alert" size=${15} /><div><strong>This page's frontmatter does not parse, so the board will not change it.</strong> <div>${p.broken}</div></div></div>` : null}
    ${p.mergedInto ? html`<p class="banner banner-warn">Merged into <a href=${pageHref(p.mergedInto)}>${p.mergedInto}</a>.</p>` : null}
    <dl class="props">
      ${prop('Aliases', p.aliases)}${prop('Emails', p.emails)}${prop('Domains', p.domains)}
    </dl>
    ${p.html ? html`<div class="page-html" dangerouslySetInnerHTML=${{ __html: p.html }}></div>` : html`<p class="muted">This page has no text yet.</p>`}
    <${Timeline} p=${p} />
    <${LinkedCases} ids=${union(p.backlinks.cases, p.cases)} />
    <${RecentMail} ids=${p.backlinks.messages || []} version=${data.version} />
    <${Backlinks} keys=${p.backlinks.pages || []} />
  </article>`;
}

// touchesPage says whether a change set changes what a page's panel shows
// beyond its file (whose changes come as vault events): mail resolved to
// it, or a record it lists that went away.
/**
 * @param {import('../live.js').ChangeSet} ch
 * @param {any} d the api.vault.get answer held
 */
function touchesPage(ch, d) {
  /** @type {import('../types.js').VaultPage} */
  const p = d.page;
  const listed = new Set([...p.backlinks.messages, ...p.backlinks.cases]);
  return ch.changed.some((r) => r.kind === 'message' && !listed.has(r.id) && r.record && (r.record.entities || []).includes(p.id)) ||
    ch.removed.some((r) => listed.has(r.id));
}

function Back() {
  return html`<button type="button" class="icon-btn back" aria-label="Back to the list" onClick=${() => navigate(VAULT_PREFIX + location.search)}><${Icon} name="chevronLeft" /></button>`;
}

/**
 * @param {string} name
 * @param {string[]} values
 */
function prop(name, values) {
  if (!values || !values.length) return null;
  return html`<dt>${name}</dt><dd class="wrap">${values.join(', ')}</dd>`;
}

/**
 * @param {string[]} [a]
 * @param {string[]} [b]
 */
const union = (a, b) => [...new Set([...(a || []), ...(b || [])])];

// Timeline adds a dated line under the page's Timeline heading.
/** @param {{ p: import('../types.js').VaultPage }} props */
function Timeline({ p }) {
  const [text, setText] = useState('');
  if (p.broken) return null;
  const add = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    try {
      await api.vault.patch(p.id || p.path, { append: t });
      setText('');
      toast('Added to the timeline', 'ok');
    } catch (err) {
      fail(err);
    }
  };
  return html`<form class="add-row" onSubmit=${add}>
    <${Icon} name="clock" size=${14} />
    <input aria-label="Add to the timeline" placeholder="Add a line to the timeline" value=${text} onInput=${(e) => setText(e.target.value)} />
    ${text.trim() ? html`<button type="submit" class="btn btn-sm btn-primary">Add</button>` : null}
  </form>`;
}

/** @param {{ ids: string[] }} props */
function LinkedCases({ ids }) {
  const { byId } = useCases();
  return html`<section class="block" aria-labelledby="h-page-cases">
    <h3 id="h-page-cases">Linked cases ${ids.length ? html`<span class="count">${ids.length}</span>` : null}</h3>
    ${ids.length ? html`<ul class="link-list">${ids.map((id) => {
      const c = byId[id];
      return html`<li key=${id}><button type="button" class="linkish" onClick=${() => setQuery({ case: id })}><${Icon} name="layers" size=${14} />${c ? c.title : id}</button>
        ${c ? html`<span class=${'lane-pill lane-' + c.status}>${laneName(c.status)}</span>` : html`<span class="muted small">archived</span>`}</li>`;
    })}</ul>` : html`<p class="muted">No case links this page. Link it from a case's drawer.</p>`}
  </section>`;
}

// RecentMail reads the newest of the page's messages one by one: the
// message list has no filter by page, and a page holds only the ids.
/** @param {{ ids: string[], version: number }} props */
function RecentMail({ ids, version }) {
  const newest = [...ids].sort((a, b) => b.localeCompare(a, undefined, { numeric: true })).slice(0, MAIL_SHOWN);
  const { data } = useLive(async () => {
    const answers = await Promise.all(newest.map((id) => api.messages.get(id)));
    return { messages: answers.map((a) => a.message), version: Math.max(version, ...answers.map((a) => a.version)) };
  }, [newest.join(' ')], { relevant: (ch) => ch.changed.some((r) => newest.includes(r.id)) || ch.removed.some((r) => newest.includes(r.id)) });
  /** @type {import('../types.js').Message[]} */
  const list = ((data && data.messages) || []).slice().sort((a, b) => String(b.receivedAt || '').localeCompare(String(a.receivedAt || '')));
  return html`<section class="block" aria-labelledby="h-page-mail">
    <h3 id="h-page-mail">Recent mail ${ids.length ? html`<span class="count">${ids.length > newest.length ? `newest ${newest.length} of ${ids.length}` : ids.length}</span>` : null}</h3>
    ${!ids.length ? html`<p class="muted">No mail from this page's addresses yet.</p>` : null}
    <ul class="link-list">${list.map((m) => html`<li key=${m.id}>
      <a class="linkish" href=${'/inbox?m=' + enc(m.id)}><${Icon} name="mail" size=${14} />${m.subject || '(no subject)'}</a>
      <span class="muted small">${m.outbound ? 'to ' + (m.to || []).join(', ') : m.from}${m.receivedAt ? ' · ' + shortDate(m.receivedAt.slice(0, 10)) : ''}</span></li>`)}</ul>
  </section>`;
}

// Backlinks are the pages whose text links this one.
/** @param {{ keys: string[] }} props */
function Backlinks({ keys }) {
  const { byKey } = usePages();
  if (!keys.length) return null;
  return html`<section class="block" aria-labelledby="h-page-links">
    <h3 id="h-page-links">Linked from <span class="count">${keys.length}</span></h3>
    <ul class="link-list">${keys.map((k) => html`<li key=${k}><a class="linkish" href=${pageHref(k)}><${Icon} name="note" size=${14} />${byKey[k] ? byKey[k].title : k}</a></li>`)}</ul>
  </section>`;
}
