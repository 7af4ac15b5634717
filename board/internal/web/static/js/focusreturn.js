// @ts-check
// Focus goes back where it was when a dialog (the case drawer, a confirm, a
// prompt, the new-case dialog) closes, so a keyboard user goes on from the
// card or button that opened it. When that element was redrawn meanwhile
// (a live change replaced its card), the element that now stands for the
// same record, by its data-id, takes the focus instead.
import { useEffect, useRef } from 'preact/hooks';

// useFocusReturn remembers the focused element when the calling dialog
// first draws (before its children's effects can move the focus inside it)
// and gives it the focus back when the dialog unmounts.
export function useFocusReturn() {
  const seen = useRef(/** @type {{ prev: HTMLElement | null } | null} */ (null));
  if (!seen.current) seen.current = { prev: document.activeElement instanceof HTMLElement ? document.activeElement : null };
  useEffect(() => {
    const prev = seen.current ? seen.current.prev : null;
    const holder = prev && /** @type {HTMLElement | null} */ (prev.closest('[data-id]'));
    const id = holder ? holder.dataset.id : '';
    const inner = prev && holder && prev !== holder && prev.matches('[data-move]') ? '[data-move]' : '';
    return () => {
      // Wait for the close to finish drawing: the dialog's own unmount may
      // still hold the focus.
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (active && active !== document.body && active.isConnected) return; // focus already went somewhere on purpose
        let target = prev && prev.isConnected ? prev : null;
        if (!target && id) {
          const again = /** @type {HTMLElement | null} */ (document.querySelector(`[data-id="${CSS.escape(id)}"]`));
          target = again && inner ? again.querySelector(inner) || again : again;
        }
        if (target) target.focus({ preventScroll: true });
      });
    };
  }, []);
}
