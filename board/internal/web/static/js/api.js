// @ts-check
// A thin client of /api. The page never stamps an actor: the board attributes
// every write from here to the human. This module is the one place that
// spells a path of /api: the rest of the page calls api.cases.patch(id, body)
// and the like, so a route's method, address and body are written once.

// ApiError is a failed request: status is the HTTP status (0 when the board
// did not answer) and body the decoded error answer, if any.
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {any} body
   */
  constructor(status, message, body) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

// statusOf is a caught failure's HTTP status (0 when the board did not
// answer); -1 when the failure was not a request's.
/** @param {unknown} e */
export function statusOf(e) {
  return e instanceof ApiError ? e.status : -1;
}

// messageOf is a caught failure in words.
/** @param {unknown} e */
export function messageOf(e) {
  return e instanceof Error && e.message ? e.message : String(e);
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [key] the Idempotency-Key of a create
 * @returns {Promise<any>} the decoded answer
 */
async function request(method, path, body, key) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { Accept: 'application/json' } };
  if (key) init.headers['Idempotency-Key'] = key;
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'The board is not answering. Is it running?', null);
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!res.ok) {
    const msg = (data && data.error) || `${method} ${path}: HTTP ${res.status}`;
    throw new ApiError(res.status, msg, data);
  }
  // A write's answer carries the post-write version: surfaces showing older
  // data refetch at once, even before the stream's event arrives.
  if (method !== 'GET' && data && typeof data.version === 'number') {
    advance(data.version);
    // A dry run, a create that found its match or its key's first answer,
    // and a command bar search answer the version without having written.
    const replayed = res.headers.get('Idempotent-Replayed') === 'true';
    if (!data.dryRun && !data.existing && !data.results && !replayed) for (const fn of writeHooks) fn(method, path, data.version, body);
  }
  return data;
}

/** @type {((method: string, path: string, version: number, body: unknown) => void)[]} */
const writeHooks = [];

/** @type {(version: number) => void} */
let advance = () => {};

// followVersions names who hears the version each write answers with:
// live.js, which owns the page's version and imports this module (so this
// module imports nothing of the page).
/** @param {(version: number) => void} fn */
export function followVersions(fn) {
  advance = fn;
}

// onWrite calls fn after every write this page makes, with the version its
// answer carries and the body sent (undo.js offers the write back).
/** @param {(method: string, path: string, version: number, body: unknown) => void} fn */
export function onWrite(fn) {
  writeHooks.push(fn);
}

/**
 * @template T
 * @typedef {Promise<T & { version: number }>} Answer a decoded answer with the version it reflects
 */
/** @typedef {import('./types.js').Case} Case */
/** @typedef {import('./types.js').CalendarEvent} CalendarEvent */
/** @typedef {import('./types.js').Reminder} Reminder */
/** @typedef {import('./types.js').Proposal} Proposal */
/** @typedef {import('./types.js').Message} Message */
/** @typedef {import('./types.js').Label} Label */
/** @typedef {import('./types.js').Bundle} Bundle */
/** @typedef {import('./types.js').Priority} Priority */
/** @typedef {import('./types.js').SavedView} SavedView */
/** @typedef {import('./types.js').Template} Template */
/** @typedef {import('./types.js').Task} Task */
/** @typedef {import('./types.js').Note} Note */
/** @typedef {import('./types.js').PageSummary} PageSummary */
/** @typedef {import('./types.js').VaultPage} VaultPage */
/** @typedef {import('./types.js').UnresolvedSender} UnresolvedSender */
/** @typedef {Record<string, string | number | boolean | null | undefined>} Query */
/** @typedef {object} Body a write's JSON body, as the route documents it */

const get = (/** @type {string} */ path) => request('GET', path);
/** @param {string} path @param {unknown} [body] sent as {} when absent */
const post = (path, body) => request('POST', path, body === undefined ? {} : body);
const patch = (/** @type {string} */ path, /** @type {unknown} */ body) => request('PATCH', path, body);

// A create is sent with an Idempotency-Key, one per gesture: a call that got
// no answer is retried once under its key, and a second call with the same
// route and body while the first is under way (or within GESTURE_MS of its
// answer: a double click, a form submitted twice) shares the key, so the
// board makes one record and answers both alike.
const GESTURE_MS = 2000;
/** @type {Map<string, { key: string, users: number, until: number }>} */
const gestures = new Map();

/** @param {string} path @param {unknown} body */
function gesture(path, body) {
  const now = Date.now();
  for (const [sig, g] of gestures) if (g.users === 0 && g.until < now) gestures.delete(sig);
  const sig = path + '\n' + JSON.stringify(body);
  let g = gestures.get(sig);
  if (!g) {
    g = { key: newKey(), users: 0, until: 0 };
    gestures.set(sig, g);
  }
  g.users++;
  const held = g;
  return { key: g.key, done: () => { if (--held.users === 0) held.until = Date.now() + GESTURE_MS; } };
}

function newKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** @param {string} path @param {unknown} [body] sent as {} when absent */
async function create(path, body) {
  const sent = body === undefined ? {} : body;
  const g = gesture(path, sent);
  try {
    try {
      return await request('POST', path, sent, g.key);
    } catch (e) {
      if (statusOf(e) !== 0) throw e;
      await new Promise((done) => setTimeout(done, 300));
      return await request('POST', path, sent, g.key); // the same key: a create that did arrive is not made twice
    }
  } finally {
    g.done();
  }
}
const del = (/** @type {string} */ path) => request('DELETE', path);

const casePath = (/** @type {string} */ id) => `/api/cases/${enc(id)}`;
const pagePath = (/** @type {string} */ id) => `/api/vault/pages/${enc(id)}`;

// The board's routes, each spelled once: the views call these, never a path.
export const api = {
  cases: {
    /** @param {Query} [params] e.g. { includeArchived: true, view: 'summary' } @returns {Answer<{ cases: Case[] }>} */
    list: (params) => get('/api/cases' + qs(params)),
    /** @param {string} id @returns {Answer<{ case: Case }>} */
    get: (id) => get(casePath(id)),
    /** @param {Body} body @returns {Answer<{ case: Case, existing?: boolean }>} */
    create: (body) => create('/api/cases', body),
    /** @param {string} id @param {Body} body @returns {Answer<{ case: Case }>} */
    patch: (id, body) => patch(casePath(id), body),
    // remove archives the case; hard deletes an archived one for good.
    /** @param {string} id @param {{ hard?: boolean }} [opts] @returns {Answer<{}>} */
    remove: (id, opts) => del(casePath(id) + qs(opts)),
    /** @param {string} id @returns {Answer<{ case: Case }>} */
    restore: (id) => post(`${casePath(id)}/restore`),
    /** @param {string} id @param {string} targetId @returns {Answer<{ case: Case }>} */
    merge: (id, targetId) => post(`${casePath(id)}/merge`, { targetId }),
    /** @param {string[]} ids @returns {Answer<{ removed: string[], messagesRemoved: number }>} */
    clean: (ids) => post('/api/cases/clean', { ids }),
    /** @param {string} id @param {Body} body @returns {Answer<{ task: Task }>} */
    addTask: (id, body) => create(`${casePath(id)}/tasks`, body),
    /** @param {string} id @param {string} taskId @param {Body} body @returns {Answer<{ task: Task, next?: Task }>} */
    patchTask: (id, taskId, body) => patch(`${casePath(id)}/tasks/${enc(taskId)}`, body),
    /** @param {string} id @param {string} taskId @returns {Answer<{}>} */
    removeTask: (id, taskId) => del(`${casePath(id)}/tasks/${enc(taskId)}`),
    /** @param {string} id @param {Body} body @returns {Answer<{ note: Note }>} */
    addNote: (id, body) => create(`${casePath(id)}/notes`, body),
  },
  /** @param {Query} [params] @returns {Answer<{ tree: any[] }>} the strategy outline, each node a case summary with children and rollup */
  tree: (params) => get('/api/tree' + qs(params)),
  events: {
    /** @param {Query} [params] @returns {Answer<{ events: CalendarEvent[] }>} */
    list: (params) => get('/api/events' + qs(params)),
    /** @param {string} id @returns {Answer<{ event: CalendarEvent }>} */
    get: (id) => get(`/api/events/${enc(id)}`),
    /** @param {Body} body @returns {Answer<{ event: CalendarEvent }>} */
    create: (body) => create('/api/events', body),
    /** @param {string} id @param {Body} body @returns {Answer<{ event: CalendarEvent }>} */
    patch: (id, body) => patch(`/api/events/${enc(id)}`, body),
    /** @param {string} id @returns {Answer<{}>} */
    remove: (id) => del(`/api/events/${enc(id)}`),
    // icsURL is the calendar feed a calendar app subscribes to (a link).
    icsURL: '/api/events.ics',
  },
  reminders: {
    /** @param {Query} [params] e.g. { status: 'open' } @returns {Answer<{ reminders: Reminder[] }>} */
    list: (params) => get('/api/reminders' + qs(params)),
    /** @param {string} id @returns {Answer<{ reminder: Reminder, messages: Message[] }>} */
    get: (id) => get(`/api/reminders/${enc(id)}`),
    /** @param {Body} body @returns {Answer<{ reminder: Reminder }>} */
    create: (body) => create('/api/reminders', body),
    /** @param {string} id @param {Body} body @returns {Answer<{ reminder: Reminder, next?: Reminder }>} */
    patch: (id, body) => patch(`/api/reminders/${enc(id)}`, body),
    /** @param {string} id @returns {Answer<{}>} */
    remove: (id) => del(`/api/reminders/${enc(id)}`),
  },
  messages: {
    /** @param {Query} [params] @returns {Answer<{ messages: Message[], nextCursor?: string }>} */
    list: (params) => get('/api/messages' + qs(params)),
    /** @param {string} id @returns {Answer<{ message: Message }>} */
    get: (id) => get(`/api/messages/${enc(id)}`),
    /** @param {string} id @param {Body} body @returns {Answer<{ message: Message }>} */
    patch: (id, body) => patch(`/api/messages/${enc(id)}`, body),
  },
  /** @returns {Answer<{ count: number }>} */
  unreadCount: () => get('/api/unread-count'),
  labels: {
    /** @returns {Answer<{ labels: Label[] }>} */
    list: () => get('/api/labels'),
    /** @param {Body} body @returns {Answer<{ label: Label }>} */
    create: (body) => create('/api/labels', body),
    /** @param {string} id @param {Body} body @returns {Answer<{ label: Label }>} */
    patch: (id, body) => patch(`/api/labels/${enc(id)}`, body),
    // remove deletes a label; scrub also takes it off every record.
    /** @param {string} id @param {{ scrub?: boolean }} [opts] @returns {Answer<{}>} */
    remove: (id, opts) => del(`/api/labels/${enc(id)}` + qs(opts)),
    /** @returns {Answer<{ bundles: Bundle[] }>} */
    bundles: () => get('/api/labels/bundles'),
    /** @param {string} id @returns {Answer<{ added: string[], bundle: string, conflicts: { id: string, existing: Label, incoming: Label }[] }>} */
    installBundle: (id) => post('/api/labels/bundles', { id }),
    // removeBundle scrubs the bundle's labels off every record unless told
    // not to, the route's default.
    /** @param {string} id @param {boolean} scrub @returns {Answer<{ removed: string[] }>} */
    removeBundle: (id, scrub) => del(`/api/labels/bundles/${enc(id)}${scrub ? '' : '?scrub=0'}`),
  },
  priorities: {
    /** @returns {Answer<{ priorities: Priority[], starred: Case[] }>} */
    list: () => get('/api/priorities'),
    /** @param {Body} body @returns {Answer<{ priority: Priority }>} */
    create: (body) => create('/api/priorities', body),
    /** @param {string} id @param {Body} body @returns {Answer<{ priority: Priority }>} */
    patch: (id, body) => patch(`/api/priorities/${enc(id)}`, body),
    /** @param {string} id @returns {Answer<{}>} */
    remove: (id) => del(`/api/priorities/${enc(id)}`),
  },
  // Proposals live at /api/pending, the name the agent's tools know.
  proposals: {
    /** @returns {Answer<{ pending: Proposal[] }>} */
    list: () => get('/api/pending'),
    /** @param {string} id @param {Body} body e.g. { expectedVersion } @returns {Answer<{ proposal: Proposal, result: any }>} the result is the approved write's own answer */
    approve: (id, body) => post(`/api/pending/${enc(id)}/approve`, body),
    /** @param {string} id @returns {Answer<{ proposal: Proposal }>} */
    reject: (id) => post(`/api/pending/${enc(id)}/reject`),
  },
  // The vault: a page is named by its id (V-n) or its path in the vault,
  // one URL-encoded segment either way (a path's slashes stay inside it).
  vault: {
    /** @param {Query} [params] { type, q, cursor, limit } @returns {Answer<{ pages: PageSummary[], nextCursor: string }>} by title */
    list: (params) => get('/api/vault' + qs(params)),
    /** @param {string} id @returns {Answer<{ page: VaultPage }>} */
    get: (id) => get(pagePath(id)),
    /** @param {Body} body { title, type, aliases?, emails?, domains?, body? } @returns {Answer<{ page: VaultPage, existing?: boolean }>} */
    create: (body) => create('/api/vault/pages', body),
    /** @param {string} id @param {Body} body { title?, aliases?, emails?, domains?, body?, append? } @returns {Answer<{ page: VaultPage }>} */
    patch: (id, body) => patch(pagePath(id), body),
    /** @returns {Answer<{ senders: UnresolvedSender[] }>} the senders no page holds, most recent first */
    unresolved: () => get('/api/vault/unresolved'),
  },
  prefs: {
    /** @returns {Answer<{ prefs: Record<string, unknown> }>} */
    get: () => get('/api/prefs'),
    /** @param {Body} body @returns {Answer<{ prefs: Record<string, unknown> }>} */
    patch: (body) => patch('/api/prefs', body),
  },
  views: {
    /** @returns {Answer<{ views: SavedView[] }>} */
    list: () => get('/api/views'),
    /** @param {Body} body @returns {Answer<{ view: SavedView }>} */
    create: (body) => create('/api/views', body),
    /** @param {string} id @returns {Answer<{}>} */
    remove: (id) => del(`/api/views/${enc(id)}`),
  },
  templates: {
    /** @returns {Answer<{ templates: Template[] }>} */
    list: () => get('/api/templates'),
    /** @param {Body} body @returns {Answer<{ template: Template }>} */
    create: (body) => create('/api/templates', body),
    /** @param {string} id @returns {Answer<{}>} */
    remove: (id) => del(`/api/templates/${enc(id)}`),
  },
  /** @param {Query} [params] @returns {Answer<{ activity: any[], nextCursor?: string }>} rows as the feed's summary view gives them */
  activity: (params) => get('/api/activity' + qs(params)),
  // Without to, the board's own range: everything overdue, today and the
  // next seven days.
  /** @param {string} [to] the last day, YYYY-MM-DD @returns {Promise<any>} the items due, as notify.js types them */
  agenda: (to) => get('/api/agenda' + qs({ to })),
  /** @param {string} text @returns {Promise<any>} the moment the board read, in its time zone */
  parseDate: (text) => get('/api/dates/parse' + qs({ text })),
  /** @param {Query} params @returns {Promise<any>} the search's hits by kind */
  search: (params) => get('/api/search' + qs(params)),
  /** @param {string} text @returns {Promise<{ message: string, href?: string, results?: any, version?: number }>} */
  command: (text) => post('/api/command', { text }),
  /** @param {Body} body @returns {Answer<{ undone: { version: number }[], dryRun?: boolean }>} */
  undo: (body) => post('/api/undo', body),
  /** @returns {Promise<any>} how an agent connects: the board's address filled in */
  connect: () => get('/api/connect'),
  // The guard sidecar's answers are passed through as it gives them.
  guard: {
    /** @returns {Promise<any>} */
    config: () => get('/api/guard/config'),
    /** @param {Body} body @returns {Promise<any>} */
    setConfig: (body) => post('/api/guard/config', body),
    /** @returns {Promise<any>} */
    models: () => get('/api/guard/models'),
    /** @returns {Promise<any>} */
    trust: () => get('/api/trust'),
    /** @param {{ email: string, tier: string }} body @returns {Promise<any>} */
    setTrust: (body) => post('/api/trust', body),
    /** @param {string} email @returns {Promise<any>} */
    removeTrust: (email) => del(`/api/trust/${enc(email)}`),
    /** @returns {Promise<any>} */
    quarantine: () => get('/api/quarantine'),
    /** @param {string} id @param {Body} body @returns {Promise<any>} */
    patchQuarantine: (id, body) => patch(`/api/quarantine/${enc(id)}`, body),
  },
  backups: {
    /** @returns {Promise<any>} the backup's health */
    get: () => get('/api/backups'),
    /** @param {boolean} force @returns {Promise<{ started?: boolean, skipped?: string, newest?: string }>} */
    run: (force) => post('/api/backups/run' + (force ? '?force=1' : '')),
  },
  /** @param {Body} body @param {boolean} dryRun @returns {Promise<any>} the counts created, or that would be */
  import: (body, dryRun) => post('/api/import' + (dryRun ? '?dryRun=1' : ''), body),
  /** @param {'json' | 'csv' | 'markdown'} format the export's download link */
  exportURL: (format) => `/api/export?format=${format}`,
  // The stream's own reads bypass request(): their failures are the stream's
  // to handle, and they are not the page's writes.
  /** @param {number} since */
  changes: (since) => fetch('/api/changes?since=' + since, { headers: { Accept: 'application/json' } }),
  health: () => fetch('/api/health', { headers: { Accept: 'application/json' } }),
  stream: () => new EventSource('/api/stream'),
};

// isAPI reports whether a same-origin path is the board's API rather than a
// page of it (a link there is followed, not drawn).
/** @param {string} pathname */
export function isAPI(pathname) {
  return pathname.startsWith('/api/');
}

// areaOf names what a path of the API is about: its first segment after
// /api, and whether it names one record of that kind ('messages', true for
// a message by id).
/**
 * @param {string} path
 * @returns {{ area: string, record: boolean }}
 */
export function areaOf(path) {
  const m = /^\/api\/([^/?]*)(\/)?/.exec(path);
  return m ? { area: m[1], record: !!m[2] } : { area: '', record: false };
}

// qs builds a query string from the set values of an object.
/**
 * @param {Record<string, string | number | boolean | null | undefined>} [params]
 * @returns {string}
 */
function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    u.set(k, v === true ? '1' : String(v));
  }
  const s = u.toString();
  return s ? '?' + s : '';
}

export const enc = encodeURIComponent;
