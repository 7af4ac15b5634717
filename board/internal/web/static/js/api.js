// @ts-check
// A thin client of /api. The page never stamps an actor: the board attributes
// every write from here to the human.
import { advance } from './live.js';

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

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the decoded answer
 */
async function request(method, path, body) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { Accept: 'application/json' } };
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
    // A dry run, a create that found its match and a command bar search
    // answer the version without having written.
    if (!data.dryRun && !data.existing && !data.results) for (const fn of writeHooks) fn(method, path, data.version, body);
  }
  return data;
}

/** @type {((method: string, path: string, version: number, body: unknown) => void)[]} */
const writeHooks = [];

// onWrite calls fn after every write this page makes, with the version its
// answer carries and the body sent (undo.js offers the write back).
/** @param {(method: string, path: string, version: number, body: unknown) => void} fn */
export function onWrite(fn) {
  writeHooks.push(fn);
}

export const api = {
  /** @param {string} path */
  get: (path) => request('GET', path),
  /** @param {string} path @param {unknown} [body] */
  post: (path, body) => request('POST', path, body === undefined ? {} : body),
  /** @param {string} path @param {unknown} body */
  patch: (path, body) => request('PATCH', path, body),
  /** @param {string} path */
  del: (path) => request('DELETE', path),
};

// qs builds a query string from the set values of an object.
/**
 * @param {Record<string, string | number | boolean | null | undefined>} [params]
 * @returns {string}
 */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    u.set(k, v === true ? '1' : String(v));
  }
  const s = u.toString();
  return s ? '?' + s : '';
}

export const enc = encodeURIComponent;
