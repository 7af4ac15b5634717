// @ts-check
// Undo of the person's gestures. Every write the page makes answers with
// its version; the writes of one gesture (those within a moment of each
// other) are offered back with an Undo toast, and Ctrl Z (Cmd Z) undoes the
// last gesture when focus is not in a text field. The board decides what
// an undo reaches (api.undo); a refusal comes back in words.
import { api, onWrite, ApiError, areaOf, messageOf } from './api.js';
import { toast, toasts } from './state.js';

// Writes that are not gestures to offer back: undos themselves, the page's
// own settings, and the routes of the guard sidecar, the backup and the
// vault, whose answers are not board writes (a page is a file).
const SKIP = new Set(['undo', 'prefs', 'guard', 'trust', 'quarantine', 'backups', 'vault']);

// incidental reports a write a gesture makes on the side: opening a
// message marks it read.
/**
 * @param {string} path
 * @param {unknown} body
 */
function incidental(path, body) {
  const { area, record } = areaOf(path);
  if (area !== 'messages' || !record || !body || typeof body !== 'object') return false;
  const keys = Object.keys(body);
  return keys.length === 1 && keys[0] === 'read';
}
const GESTURE_MS = 250;

/** @type {number[][]} versions of each gesture, oldest gesture first */
const gestures = [];
/** @type {{ versions: number[], toastsBefore: number, timer: number } | null} */
let collecting = null;

/**
 * @param {string} method
 * @param {string} path
 * @param {number} version
 * @param {unknown} body
 */
function noteWrite(method, path, version, body) {
  if (method === 'GET' || SKIP.has(areaOf(path).area) || incidental(path, body)) return;
  if (collecting) {
    collecting.versions.push(version);
    return;
  }
  const before = toasts.get().reduce((m, t) => Math.max(m, t.id), 0);
  collecting = { versions: [version], toastsBefore: before, timer: window.setTimeout(endGesture, GESTURE_MS) };
}

// endGesture closes the gesture being collected and offers it back.
function endGesture() {
  const g = collecting;
  collecting = null;
  if (!g) return;
  clearTimeout(g.timer);
  gestures.push(g.versions);
  if (gestures.length > 100) gestures.shift();
  offer(g.versions, g.toastsBefore);
}

// offer puts an Undo button on the toast the gesture's view raised, or
// raises one when it raised none.
/**
 * @param {number[]} versions
 * @param {number} toastsBefore
 */
function offer(versions, toastsBefore) {
  const action = { label: 'Undo', run: () => undoGesture(versions) };
  const list = toasts.get();
  const own = [...list].reverse().find((t) => t.id > toastsBefore && t.kind !== 'error' && !t.action);
  if (own) {
    toasts.set((l) => l.map((t) => (t.id === own.id ? { ...t, action } : t)));
    return;
  }
  toast('Saved', 'ok', action);
}

// undoGesture undoes a gesture's writes, newest first.
/** @param {number[]} versions */
export async function undoGesture(versions) {
  const i = gestures.indexOf(versions);
  if (i >= 0) gestures.splice(i, 1);
  try {
    for (const v of [...versions].reverse()) await api.undo({ version: v });
    toast('Undone', 'ok');
  } catch (e) {
    explain(e, versions[0]);
  }
}

// undoWrite undoes one write (an agent's row in the Activity feed).
/** @param {number} version */
export async function undoWrite(version) {
  try {
    await api.undo({ version });
    toast('Undone', 'ok');
  } catch (e) {
    explain(e, version);
  }
}

// conflictText says in words which later writes stand in an undo's way.
/** @param {{ kind: string, id: string, version: number }[]} conflicts */
export function conflictText(conflicts) {
  const seen = new Set();
  const parts = [];
  for (const c of conflicts) {
    const k = c.kind + ' ' + c.id;
    if (seen.has(k)) continue;
    seen.add(k);
    parts.push(`${c.kind === 'case' ? '' : c.kind + ' '}${c.id}`);
  }
  const writes = [...new Set(conflicts.map((c) => c.version))];
  return `${parts.join(', ')} changed again later (${writes.length === 1 ? 'write ' + writes[0] : 'writes ' + writes.join(', ')})`;
}

// explain reports a failed undo; a refusal for later changes offers to
// undo those too.
/**
 * @param {any} e
 * @param {number} version
 */
function explain(e, version) {
  const conflicts = e instanceof ApiError && e.body && e.body.conflicts;
  if (!conflicts) {
    toast(e && e.message ? e.message : String(e), 'error');
    return;
  }
  toast(`Not undone: ${conflictText(conflicts)}.`, 'error', {
    label: 'Undo those too',
    run: async () => {
      try {
        const ans = await api.undo({ version, through: true });
        toast(`Undone: ${ans.undone.length} changes`, 'ok');
      } catch (err) {
        toast(messageOf(err), 'error');
      }
    },
  });
}

/** @param {EventTarget | null} el */
function typing(el) {
  return el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z' || typing(e.target)) return;
  e.preventDefault();
  endGesture(); // a gesture still being collected is the last one
  const last = gestures[gestures.length - 1];
  if (!last) {
    toast('Nothing of yours to undo on this page.', 'info');
    return;
  }
  undoGesture(last);
}

onWrite(noteWrite);
document.addEventListener('keydown', onKey);
