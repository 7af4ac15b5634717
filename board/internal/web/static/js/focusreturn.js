// @ts-check
// Focus goes back where it was when a dialog (the case drawer, a confirm, a
// prompt, the new-case dialog) closes, so a keyboard user goes on from the
// card or button that opened it. When that element was redrawn meanwhile
// (a live change replaced its card), the element that now stands for the
// same record, by its data-id, takes the focus instead.
import { useEffect, useRef } from 'preact/hooks';

// outside is the last element focused outside every dialog: the opener to
// go back to when the element a dialog remembered is gone (a dialog drawn
// again from scratch remembers an element of its first self).
/** @type {HTMLElement | null} */
let outside = null;
document.addEventListener('focusin', (e) => {
  const el = e.target;
  if (el instanceof HTMLElement && !el.closest('[role=dialog]')) outside = el;
});

/**
 * The element standing for el now: el itself while it is in the page, else
 * the element of the same record (its data-id), or the handle inside it
 * when el was a handle.
 * @param {HTMLElement | null} el
 * @returns {HTMLElement | null}
 */
function standIn(el) {
  if (!el) return null;
  if (el.isConnected) return el;
  const holder = /** @type {HTMLElement | null} */ (el.closest('[data-id]'));
  if (!holder || !holder.dataset.id) return null;
  const again = /** @type {HTMLElement | null} */ (document.querySelector(`[data-id="${CSS.escape(holder.dataset.id)}"]`));
  if (again && holder !== el && el.matches('[data-move]')) return again.querySelector('[data-move]') || again;
  return again;
}

// useFocusReturn remembers the focused element when the calling dialog
// first draws (before its children's effects can move the focus inside it)
// and gives it the focus back when the dialog unmounts.
export function useFocusReturn() {
  const seen = useRef(/** @type {{ prev: HTMLElement | null } | null} */ (null));
  if (!seen.current) seen.current = { prev: document.activeElement instanceof HTMLElement ? document.activeElement : null };
  useEffect(() => () => {
    const prev = seen.current ? seen.current.prev : null;
    // After the close has drawn: the dialog is still in the page while
    // its effects clean up.
    setTimeout(() => {
      const active = document.activeElement;
      if (active && active !== document.body && active.isConnected) return; // the focus went somewhere on purpose
      const target = standIn(prev) || standIn(outside);
      if (target) target.focus({ preventScroll: true });
    }, 0);
  }, []);
}
