// @ts-check
// The live-change stream. One EventSource (api.stream) for the page. When
// the version advances, the page asks the board once what changed since the
// version it holds (api.changes) and hands that change set to every
// surface: a surface that can patch what it holds does so, one whose records
// did not change keeps what it has, and only the rest refetch. When the board
// cannot say what changed (it restarted, was restored, or the page is too far
// behind) every surface refetches. There is no polling: after a board restart
// the stream reconnects and the page re-syncs from the health answer's version.
import { useEffect, useRef, useState, useCallback } from 'preact/hooks';
import { api, followVersions } from './api.js';

/**
 * A change set from api.changes, with the version it starts from.
 * @typedef {object} ChangeSet
 * @property {number} since
 * @property {number} version
 * @property {{ kind: string, id: string, record: any, actor?: string }[]} changed
 * @property {{ kind: string, id: string }[]} removed
 */

let latest = 0;
/** @type {EventSource | null} */
let source = null;
let retry = 1000;
let status = 'connecting';
/** @typedef {(version: number, force: boolean, changes?: ChangeSet) => void} Subscriber */
/** @type {Set<Subscriber>} */
const subs = new Set();
// held lists, for every loaded surface, the version its data reflects: the
// change set is asked for from the oldest of them.
/** @type {Set<() => number>} */
const holders = new Set();
/** @type {Set<(status: string) => void>} */
const statusSubs = new Set();

/**
 * @param {number} v
 * @param {boolean} force
 * @param {ChangeSet} [changes]
 */
function notify(v, force, changes) {
  for (const fn of [...subs]) {
    try { fn(v, force, changes); } catch (e) { console.warn('live subscriber', e); }
  }
}

// advance records a version seen in the stream or in a write's answer.
/** @param {unknown} v */
export function advance(v) {
  if (typeof v !== 'number' || !(v > latest)) return;
  latest = v;
  pump();
}
followVersions(advance);

const pumpState = { busy: false, again: false };

// pump fetches what changed since the oldest version a surface holds and
// hands it to every surface; one request at a time, again when the board
// moved on meanwhile.
async function pump() {
  if (pumpState.busy) {
    pumpState.again = true;
    return;
  }
  let since = Infinity;
  for (const h of holders) {
    const v = h();
    if (v >= 0 && v < since) since = v;
  }
  if (since === Infinity || since >= latest) {
    // Nothing loaded yet (or all of it current): surfaces load as they would.
    if (since === Infinity) notify(latest, false);
    return;
  }
  pumpState.busy = true;
  pumpState.again = false;
  /** @type {any} */
  let ch = null;
  try {
    const res = await api.changes(since);
    if (res.ok) ch = await res.json();
  } catch {
    ch = null;
  }
  pumpState.busy = false;
  if (!ch || typeof ch.version !== 'number') {
    notify(latest, false); // the board did not answer: refetch as before
  } else if (ch.reset) {
    if (ch.version > latest) latest = ch.version;
    notify(ch.version, true);
  } else {
    if (ch.version > latest) latest = ch.version;
    notify(ch.version, false, { since, version: ch.version, changed: ch.changed || [], removed: ch.removed || [] });
  }
  if (pumpState.again || latest > (ch && typeof ch.version === 'number' ? ch.version : latest)) pump();
}

/** @param {string} s */
function setStatus(s) {
  if (s === status) return;
  status = s;
  for (const fn of [...statusSubs]) fn(s);
}

// onStatus calls fn with the stream's status (connecting, live,
// reconnecting) whenever it changes; it returns the unsubscribe.
/** @param {(status: string) => void} fn */
export function onStatus(fn) {
  statusSubs.add(fn);
  return () => statusSubs.delete(fn);
}

// resync asks the board where it stands; a version that went backwards (a
// board started on other data) forces every surface to refetch. Backwards
// means below what the page knew when it asked: a write that lands while
// the answer is on its way raises latest past the answer's version, and
// that is no reason to refetch everything.
async function resync() {
  const asked = latest;
  try {
    const res = await api.health();
    const h = await res.json();
    for (const fn of [...healthSubs]) fn(h);
    if (typeof h.version !== 'number') return;
    if (h.version < asked) {
      latest = h.version;
      notify(h.version, true);
    } else {
      advance(h.version);
    }
  } catch {
    /* the stream's own reconnect will bring us back here */
  }
}

/** @type {Set<(health: any) => void>} */
const healthSubs = new Set();
// onHealth calls fn with every health answer; it returns the unsubscribe.
/** @param {(health: any) => void} fn */
export function onHealth(fn) {
  healthSubs.add(fn);
  return () => healthSubs.delete(fn);
}
export const refreshHealth = resync;

/** @type {Set<(seq: number) => void>} */
const guardSubs = new Set();
// onGuard calls fn on every guard event (the guard's switch, trust list or
// quarantine changed); it returns the unsubscribe.
/** @param {(seq: number) => void} fn */
export function onGuard(fn) {
  guardSubs.add(fn);
  return () => guardSubs.delete(fn);
}

/** @type {Set<(running: boolean) => void>} */
const backupSubs = new Set();
// onBackup calls fn when a backup run starts or ends (runs change no
// record, so the version does not say); it returns the unsubscribe.
/** @param {(running: boolean) => void} fn */
export function onBackup(fn) {
  backupSubs.add(fn);
  return () => backupSubs.delete(fn);
}

/** @type {Set<(seq: number) => void>} */
const vaultSubs = new Set();
// onVault calls fn on every vault event: a page changed, through the board
// or by hand in the folder, which moves no board version. It returns the
// unsubscribe.
/** @param {(seq: number) => void} fn */
export function onVault(fn) {
  vaultSubs.add(fn);
  return () => vaultSubs.delete(fn);
}

// connect opens the page's one stream (again, after it was refused).
export function connect() {
  if (source) return;
  const es = api.stream();
  source = es;
  es.addEventListener('change', (e) => {
    let v;
    try { v = JSON.parse(/** @type {MessageEvent} */ (e).data).version; } catch { return; }
    advance(v);
    if (healthSubs.size) checkHealthSoon();
  });
  // The guard's switch or lists changed through the board: its own counter,
  // not the board's version.
  es.addEventListener('guard', (e) => {
    let seq;
    try { seq = JSON.parse(/** @type {MessageEvent} */ (e).data).seq; } catch { return; }
    for (const fn of [...guardSubs]) {
      try { fn(seq); } catch (err) { console.warn('guard subscriber', err); }
    }
  });
  es.addEventListener('vault', (e) => {
    let seq;
    try { seq = JSON.parse(/** @type {MessageEvent} */ (e).data).seq; } catch { return; }
    for (const fn of [...vaultSubs]) {
      try { fn(seq); } catch (err) { console.warn('vault subscriber', err); }
    }
  });
  es.addEventListener('backup', (e) => {
    let running = false;
    try { running = !!JSON.parse(/** @type {MessageEvent} */ (e).data).running; } catch { return; }
    for (const fn of [...backupSubs]) {
      try { fn(running); } catch (err) { console.warn('backup subscriber', err); }
    }
  });
  // A board that reports a change of health (a hand edit that does not
  // parse, or its repair) on the stream is heard at once.
  es.addEventListener('health', () => resync());
  es.addEventListener('open', () => {
    retry = 1000;
    setStatus('live');
    resync();
  });
  es.addEventListener('error', () => {
    setStatus('reconnecting');
    // The browser retries a dropped stream by itself; a refused one (an
    // error answer while the board restarts) is closed for good, so open a
    // new one after a growing pause.
    if (es.readyState === EventSource.CLOSED) {
      es.close();
      source = null;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    }
  });
}

// A page left for another (or kept in the back-forward cache) gives its
// stream back at once: a browser allows only a few connections per host, and
// a stream that outlives its page would starve the next page's requests.
addEventListener('pagehide', () => {
  if (source) {
    source.close();
    source = null;
  }
});
addEventListener('pageshow', (e) => {
  if (/** @type {PageTransitionEvent} */ (e).persisted) connect();
});

/** @type {ReturnType<typeof setTimeout> | undefined} */
let healthTimer;
function checkHealthSoon() {
  clearTimeout(healthTimer);
  healthTimer = setTimeout(resync, 300);
}

// subscribe calls fn with every newer version (force: the board went back
// to an older one, refetch regardless); it returns the unsubscribe.
/** @param {Subscriber} fn */
export function subscribe(fn) {
  subs.add(fn);
  return () => subs.delete(fn);
}

/** @param {any} data */
function versionOf(data) {
  return data && typeof data.version === 'number' ? data.version : latest;
}

/**
 * How a surface takes a change set instead of refetching.
 * @typedef {object} LiveOptions
 * @property {string[]} [kinds] record kinds its data depends on: a change set
 *   touching none of them leaves the data as it is
 * @property {(changes: ChangeSet, data: any) => boolean} [relevant] finer
 *   than kinds: whether this change set touches the data held at all
 * @property {(data: any, changes: ChangeSet) => any} [patch] the data with the
 *   change set applied, or undefined when it cannot be patched (refetch)
 */

/**
 * @param {ChangeSet} ch
 * @param {string[]} kinds
 */
export function touchesKinds(ch, kinds) {
  return ch.changed.some((r) => kinds.includes(r.kind)) || ch.removed.some((r) => kinds.includes(r.kind));
}

// createLoader runs load() at most once at a time and again only when the
// board moved past the version the last answer reflected, so a burst of
// change events costs one or two requests, not one each. With options it
// takes change sets instead where it can.
/**
 * @param {() => Promise<any>} load
 * @param {(ok: boolean, data: any, error: any) => void} apply
 * @param {LiveOptions} [opts]
 */
function createLoader(load, apply, opts = {}) {
  const s = { gen: 0, seen: -1, wanted: -1, busy: false, data: /** @type {any} */ (null), has: false };
  const held = () => (s.has && !s.busy ? s.seen : -1);
  holders.add(held);
  /**
   * take applies a change set; false means the data must be refetched.
   * @param {ChangeSet} ch
   */
  const take = (ch) => {
    if (!s.has || s.busy || s.seen < ch.since) return false;
    if (s.seen >= ch.version) return true;
    const kinds = opts.kinds;
    const relevant = opts.relevant ? opts.relevant(ch, s.data) : kinds ? touchesKinds(ch, kinds) : true;
    if (!relevant) {
      s.seen = ch.version;
      return true;
    }
    if (!opts.patch) return false;
    let next;
    try {
      next = opts.patch(s.data, ch);
    } catch (e) {
      console.warn('live patch', e);
      next = undefined;
    }
    if (next === undefined) return false;
    s.data = next;
    s.seen = ch.version;
    apply(true, next, null);
    return true;
  };
  const run = async () => {
    if (s.busy) return;
    s.busy = true;
    const g = s.gen;
    let ok = false;
    let data;
    let error;
    try {
      data = await load();
      ok = true;
    } catch (e) {
      error = e;
    }
    if (g !== s.gen) return; // superseded by a reset
    s.busy = false;
    // A failed load waits for the next change rather than retrying in a loop.
    s.seen = ok ? versionOf(data) : Math.max(s.seen, s.wanted);
    if (ok) {
      s.data = data;
      s.has = true;
    }
    apply(ok, data, error);
    if (s.wanted > s.seen) run();
  };
  return {
    reset() {
      s.gen++;
      s.busy = false;
      s.seen = -1;
      run();
    },
    /**
     * @param {number} v
     * @param {boolean} force
     * @param {ChangeSet} [changes]
     */
    notify(v, force, changes) {
      if (force) return this.reset();
      if (v > s.wanted) s.wanted = v;
      if (changes && take(changes)) return undefined;
      if (!s.busy && v > s.seen) run();
      return undefined;
    },
    /**
     * update changes the held data in place (a page loaded by scrolling).
     * @param {(data: any) => any} fn
     */
    update(fn) {
      if (!s.has) return;
      s.data = fn(s.data);
      apply(true, s.data, null);
    },
    dispose() {
      s.gen++;
      holders.delete(held);
    },
  };
}

// useLive loads data with loader() and loads it again whenever the board's
// version moves past the version the data came with. loader returns an object
// whose `version` is the board version it reflects; deps are the values it
// reads, as for useEffect.
/**
 * @typedef {object} Live
 * @property {any} data the last answer, kept while a reload runs or fails
 * @property {any} error the last load's failure, or null
 * @property {boolean} loading
 * @property {() => void} reload
 * @property {(fn: (data: any) => any) => void} update change the held data
 */
/**
 * @param {() => Promise<any>} loader
 * @param {unknown[]} deps
 * @param {LiveOptions} [opts]
 * @returns {Live}
 */
export function useLive(loader, deps, opts) {
  /** @type {[{ data: any, error: any, loading: boolean }, (f: any) => void]} */
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const current = useRef(loader);
  current.current = loader;
  /** @type {{ current: ReturnType<typeof createLoader> | null }} */
  const ref = useRef(null);
  useEffect(() => {
    const l = createLoader(() => current.current(), (ok, data, error) =>
      setState((st) => (ok ? { data, error: null, loading: false } : { data: st.data, error, loading: false })), opts);
    ref.current = l;
    setState((st) => (st.loading ? st : { ...st, loading: true }));
    l.reset();
    const off = subscribe((v, force, ch) => l.notify(v, force, ch));
    return () => {
      off();
      l.dispose();
    };
  }, deps);
  const reload = useCallback(() => ref.current && ref.current.reset(), []);
  const update = useCallback((/** @type {(data: any) => any} */ fn) => ref.current && ref.current.update(fn), []);
  return { ...state, reload, update };
}

// useLiveStatus is the stream's status, kept current.
export function useLiveStatus() {
  const [s, set] = useState(status);
  useEffect(() => {
    // The stream may have opened between the render and this effect: read
    // the status again now that changes will be heard.
    set(status);
    const off = onStatus(set);
    return () => { off(); };
  }, []);
  return s;
}

// resource is data several surfaces share (the case list, the catalog, the
// counters): one fetch per version for all of them, live while anyone uses it.
/**
 * @param {() => Promise<any>} loader
 * @param {LiveOptions} [opts]
 * @returns {{ reload: () => void, get: () => { data: any, error: any, loading: boolean }, use: () => Live }}
 */
export function resource(loader, opts) {
  /** @type {{ data: any, error: any, loading: boolean }} */
  let state = { data: null, error: null, loading: true };
  /** @type {ReturnType<typeof createLoader> | null} */
  let l = null;
  /** @type {(() => void) | null} */
  let off = null;
  /** @type {Set<(st: typeof state) => void>} */
  const subs = new Set();
  /** @param {typeof state} st */
  const set = (st) => {
    state = st;
    for (const fn of [...subs]) fn(st);
  };
  const reload = () => l && l.reset();
  return {
    reload,
    get: () => state,
    use() {
      const [st, setSt] = useState(state);
      useEffect(() => {
        subs.add(setSt);
        setSt(state);
        if (!l) {
          l = createLoader(loader, (ok, data, error) => set(ok ? { data, error: null, loading: false } : { data: state.data, error, loading: false }), opts);
          const mine = l;
          off = subscribe((v, force, ch) => mine.notify(v, force, ch));
          l.reset();
        }
        return () => {
          subs.delete(setSt);
          if (!subs.size && l) {
            off?.(); // set with l
            l.dispose();
            l = null;
          }
        };
      }, []);
      return { ...st, reload, update: (fn) => l && l.update(fn) };
    },
  };
}
