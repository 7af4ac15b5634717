// @ts-check
// The page: navigation, the view for the address, the case drawer, dialogs,
// the command bar and the keyboard. Every view reads and writes through /api
// and stays live through the one change stream.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html, Icon, Dialogs, Toasts } from './ui.js';
import { api } from './api.js';
import { connect, onHealth, refreshHealth, useLiveStatus } from './live.js';
import { useRoute, navigate, setQuery } from './router.js';
import { overlay, unread, proposals, views, fail, confirmDialog } from './state.js';
import { boardZone, setZone } from './format.js';
import './undo.js';
import { BoardPage } from './views/board.js';
import { CaseDrawer } from './views/drawer.js';
import { InboxPage } from './views/inbox.js';
import { ActivityPage } from './views/activity.js';
import { CalendarPage } from './views/calendar.js';
import { RemindersPage } from './views/reminders.js';
import { PrioritiesPage } from './views/priorities.js';
import { ProposalsPage } from './views/proposals.js';
import { TrashPage } from './views/trash.js';
import { SecurityPage } from './views/security.js';
import { BackupsPage } from './views/backups.js';
import { LabelsPage } from './views/labels.js';
import { WelcomeDialog } from './views/welcome.js';
import { TransferPage } from './views/transfer.js';
import { PeoplePage } from './views/vault.js';
import { AgendaPage, dueNow } from './views/agenda.js';
import { ZoneNote } from './views/zonenote.js';
import { VAULT_PREFIX } from './pages.js';
import { CommandBar, ShortcutHelp } from './views/command.js';
import { NewCaseModal } from './views/newcase.js';
import { Notifier, NotifyToggle, dues } from './notify.js';

const NAV = [
  { path: '/agenda', label: 'Agenda', icon: 'clock', key: 'd', badge: 'due' },
  { path: '/', label: 'My Issues', icon: 'board', match: ['/', '/board', '/strategy'], key: 'b' },
  { path: '/inbox', label: 'Inbox', icon: 'inbox', key: 'i', badge: 'unread' },
  { path: VAULT_PREFIX, label: 'People', icon: 'user', key: 'e' },
  { path: '/activity', label: 'Activity', icon: 'activity', key: 'a' },
  { path: '/calendar', label: 'Calendar', icon: 'calendar', key: 'c' },
  { path: '/reminders', label: 'Reminders', icon: 'bell', key: 'r' },
  { path: '/priorities', label: 'Priorities', icon: 'flag', key: 'p' },
  { path: '/proposals', label: 'Proposals', icon: 'checkCircle', key: 'v', badge: 'proposals' },
  { path: '/labels', label: 'Labels', icon: 'tag', key: 'l' },
  { path: '/security', label: 'Security', icon: 'shield', key: 'u' },
  { path: '/backups', label: 'Backups', icon: 'archive', key: 'k' },
  { path: '/trash', label: 'Trash', icon: 'trash', key: 't' },
  { path: '/transfer', label: 'Import / Export', icon: 'external', key: 'x' },
];

const PAGES = {
  '/agenda': AgendaPage,
  '/': BoardPage,
  '/board': BoardPage,
  '/strategy': BoardPage,
  '/inbox': InboxPage,
  '/activity': ActivityPage,
  '/calendar': CalendarPage,
  '/reminders': RemindersPage,
  '/priorities': PrioritiesPage,
  '/proposals': ProposalsPage,
  '/trash': TrashPage,
  '/security': SecurityPage,
  '/backups': BackupsPage,
  '/labels': LabelsPage,
  '/transfer': TransferPage,
  [VAULT_PREFIX]: PeoplePage,
};

const TITLES = { '/agenda': 'Agenda', '/inbox': 'Inbox', '/activity': 'Activity', '/calendar': 'Calendar', '/reminders': 'Reminders', '/priorities': 'Priorities', '/proposals': 'Proposals', '/trash': 'Trash', '/security': 'Security', '/backups': 'Backups', '/labels': 'Labels', '/strategy': 'Strategy', '/transfer': 'Import / Export', [VAULT_PREFIX]: 'People' };

// viewOf is the view an address draws: a vault page's address is the
// People view with that page open.
/** @param {string} path */
const viewOf = (path) => (path.startsWith(VAULT_PREFIX + '/') ? VAULT_PREFIX : path);

// viewHref is where a saved view leads: the board with its filters.
function viewHref(v) {
  const f = (v && v.filters) || {};
  const q = new URLSearchParams();
  q.set('view', v.id);
  for (const k of ['q', 'domain', 'label', 'in']) if (f[k]) q.set(k, f[k]);
  if (f.starred) q.set('starred', '1');
  return (f.mode === 'strategy' ? '/strategy' : '/board') + '?' + q.toString();
}

// BADGE_WORDS say what a sidebar count counts.
const BADGE_WORDS = { unread: 'unread', proposals: 'waiting', due: 'due' };

function Nav({ route, open, onNavigate }) {
  const u = unread.use();
  const p = proposals.use();
  const v = views.use();
  const d = dues.use();
  const counts = {
    due: d.data ? dueNow(d.data.items || []) : 0,
    unread: u.data && typeof u.data.count === 'number' ? u.data.count : 0,
    proposals: p.data && p.data.pending ? p.data.pending.length : 0,
  };
  const saved = (v.data && v.data.views) || [];
  const activeView = route.query.get('view');
  const status = useLiveStatus();
  const removeView = async (view) => {
    const ok = await confirmDialog({ title: `Delete saved view “${view.name}”?`, message: 'The cases stay as they are; only the saved filter goes.', ok: 'Delete', danger: true });
    if (!ok) return;
    try {
      await api.views.remove(view.id);
    } catch (e) {
      fail(e);
    }
  };
  return html`<nav class=${'sidebar' + (open ? ' open' : '')} aria-label="Main">
    <a class="brand" href="/" onClick=${onNavigate}><span class="brand-mark" aria-hidden="true"></span><span>opsboard</span></a>
    <${ZoneNote} />
    <button type="button" class="search-button" onClick=${() => overlay.set({ kind: 'command' })} title="Search or run a command (Ctrl K)">
      <${Icon} name="search" size=${15} /><span>Search</span><kbd>Ctrl K</kbd></button>
    <ul class="nav-list">
      ${NAV.map((n) => {
        const active = (n.match || [n.path]).includes(viewOf(route.path)) && !(n.path === '/' && activeView);
        const count = n.badge ? counts[n.badge] : 0;
        return html`<li key=${n.path}><a href=${n.path} class=${'nav-item' + (active ? ' active' : '')} aria-current=${active ? 'page' : undefined} onClick=${onNavigate}>
          <${Icon} name=${n.icon} size=${17} /><span>${n.label}</span>
          ${count ? html`<span class=${'badge' + (n.badge === 'proposals' ? ' badge-warn' : '')} aria-label=${`${count} ${BADGE_WORDS[n.badge]}`}
            data-testid=${n.badge + '-count'}>${count}</span>` : null}</a></li>`;
      })}
    </ul>
    <div class="nav-section">
      <h2 class="nav-heading">Saved views</h2>
      <ul class="nav-list">
        ${saved.map((sv) => html`<li key=${sv.id} class="saved-view"><a href=${viewHref(sv)} class=${'nav-item' + (activeView === sv.id ? ' active' : '')}
          aria-current=${activeView === sv.id ? 'page' : undefined} onClick=${onNavigate}><${Icon} name="bookmark" size=${15} /><span>${sv.name}</span></a>
          <button type="button" class="icon-btn icon-btn-sm" aria-label=${'Delete saved view ' + sv.name} onClick=${() => removeView(sv)}><${Icon} name="x" size=${12} /></button></li>`)}
        ${!saved.length ? html`<li class="nav-hint">Filter the board, then Save view.</li>` : null}
      </ul>
    </div>
    <div class="grow"></div>
    <div class="nav-foot">
      <span class=${'live-dot ' + status} aria-hidden="true"></span>
      <span class="muted small" role="status" title=${status === 'live' ? 'Changes appear as they happen' : ''}>${{ live: 'Live', connecting: 'Connecting…' }[status] || 'Reconnecting…'}</span>
      <div class="grow"></div>
      <${NotifyToggle} />
      <button type="button" class="icon-btn" aria-label="Getting started" title="Getting started: the board, the lanes, connecting your agent" data-help-welcome onClick=${() => overlay.set({ kind: 'welcome' })}><${Icon} name="help" size=${16} /></button>
      <button type="button" class="icon-btn" aria-label="Keyboard shortcuts (?)" title="Keyboard shortcuts (?)" onClick=${() => overlay.set({ kind: 'help' })}><${Icon} name="keyboard" size=${16} /></button>
    </div>
  </nav>`;
}

function HealthBanner() {
  const [h, setH] = useState(/** @type {any} */ (null)); // the board's health answer
  const status = useLiveStatus();
  const [showConn, setShowConn] = useState(false);
  useEffect(() => {
    const off = onHealth(setH);
    refreshHealth();
    return off;
  }, []);
  useEffect(() => {
    if (status === 'live') {
      setShowConn(false);
      return undefined;
    }
    const t = setTimeout(() => setShowConn(true), 2500);
    return () => clearTimeout(t);
  }, [status]);
  return html`${h && h.degraded ? html`<div class="banner banner-danger" role="alert"><${Icon} name="alert" size=${16} />
      <div><strong>The board is degraded.</strong> It keeps serving the last good state; nothing you saved is lost.
      ${(h.problems || []).length ? html`<ul>${h.problems.map((p, i) => html`<li key=${i}>${p}</li>`)}</ul>` : null}</div></div>` : null}
    ${showConn ? html`<div class="banner banner-warn" role="status"><${Icon} name="clock" size=${16} />Lost touch with the board. Reconnecting; the page catches up by itself.</div>` : null}`;
}

function NotFound() {
  return html`<section class="page page-narrow"><h1>Nothing here</h1><p>This address is not a page of the board. <a href="/">Back to My Issues</a></p></section>`;
}

function Overlay() {
  const o = overlay.use();
  if (!o) return null;
  if (o.kind === 'command') return html`<${CommandBar} />`;
  if (o.kind === 'help') return html`<${ShortcutHelp} />`;
  if (o.kind === 'welcome') return html`<${WelcomeDialog} />`;
  if (o.kind === 'newcase' || o.kind === 'template') return html`<${NewCaseModal} filters=${o.filters} mode=${o.mode} fromTemplate=${o.kind === 'template'} />`;
  return null;
}

function useKeys() {
  useEffect(() => {
    let g = 0;
    const typing = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
    const onKey = (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        overlay.set(overlay.get()?.kind === 'command' ? null : { kind: 'command' });
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || overlay.get() || document.querySelector('.modal-backdrop')) return;
      if (e.key === 'Escape' && new URLSearchParams(location.search).get('case')) {
        setQuery({ case: null });
        return;
      }
      if (g && Date.now() - g < 1200) {
        g = 0;
        const n = NAV.find((x) => x.key === e.key);
        if (e.key === 's') navigate('/strategy');
        else if (n) navigate(n.path === '/' ? '/board' : n.path);
        return;
      }
      if (e.key === 'g') g = Date.now();
      else if (e.key === '/') {
        e.preventDefault();
        overlay.set({ kind: 'command' });
      } else if (e.key === '?') {
        e.preventDefault();
        overlay.set({ kind: 'help' });
      } else if (e.key === 'c' && !e.target.closest('[data-card]')) {
        e.preventDefault();
        overlay.set({ kind: 'newcase', filters: {} });
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

// useBoardZone follows the board's time zone from the health answer; the page
// draws again when it changes, so every date shows on the board's clock.
function useBoardZone() {
  const [z, set] = useState(boardZone());
  useEffect(() => onHealth((h) => { if (h && setZone(h.timezone)) set(h.timezone); }), []);
  return z;
}

function App() {
  const route = useRoute();
  const [navOpen, setNavOpen] = useState(false);
  useKeys();
  useBoardZone();
  useEffect(() => {
    if (route.path === '/today') navigate('/activity', { replace: true });
  }, [route.path]);
  useEffect(() => {
    const t = TITLES[viewOf(route.path)];
    document.title = (t ? t + ' · ' : '') + 'opsboard';
    setNavOpen(false);
  }, [route.path]);
  const Page = PAGES[viewOf(route.path)] || NotFound;
  const caseId = route.query.get('case');
  return html`<div class=${'app' + (navOpen ? ' nav-open' : '')}>
    <a class="skip" href="#main">Skip to content</a>
    <header class="topbar">
      <button type="button" class="icon-btn" aria-label="Open navigation" aria-expanded=${navOpen ? 'true' : 'false'} onClick=${() => setNavOpen(!navOpen)}><${Icon} name="menu" /></button>
      <a class="brand" href="/"><span class="brand-mark" aria-hidden="true"></span><span>opsboard</span></a>
      <div class="grow"></div>
      <button type="button" class="icon-btn" aria-label="Search or run a command" onClick=${() => overlay.set({ kind: 'command' })}><${Icon} name="search" /></button>
    </header>
    <${Nav} route=${route} open=${navOpen} onNavigate=${() => setNavOpen(false)} />
    ${navOpen ? html`<div class="nav-scrim" onClick=${() => setNavOpen(false)}></div>` : null}
    <main id="main" class="main" tabindex="-1">
      <${HealthBanner} />
      <${Page} route=${route} />
    </main>
    ${caseId ? html`<${CaseDrawer} id=${caseId} />` : null}
    <${Overlay} />
    <${Dialogs} />
    <${Toasts} />
    <${Notifier} />
  </div>`;
}

connect();
render(html`<${App} />`, /** @type {HTMLElement} */ (document.getElementById('app'))); // index.html has it
