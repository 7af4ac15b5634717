// @ts-check
// Drag and drop on pointer events, so it works with a mouse, a pen and a
// finger alike (HTML drag and drop does not work on touch screens). A mouse
// drags from anywhere on an item; a finger drags from the item's handle
// ([data-drag-handle]) so the page still scrolls under a swipe.
//
// dragStart(event, opts) is called from an item's onPointerDown:
//   el            the item being dragged
//   zones         CSS selector of the drop zones
//   items         CSS selector of the items inside a zone ("list" mode)
//   mode          "list" (drop between items) or "into" (drop onto a zone)
//   scroller      optional element that scrolls horizontally near its edges
//   onDrop({ zone, before, index })  before is the item it lands before, or null

const INTERACTIVE = 'button, input, textarea, select, a[href], label, [contenteditable], [role=button], [data-no-drag]';
/**
 * @typedef {object} DragOptions
 * @property {HTMLElement} el
 * @property {string} zones
 * @property {string} [items]
 * @property {'list' | 'into'} [mode]
 * @property {HTMLElement | null} [scroller]
 * @property {(zone: HTMLElement) => boolean} [accept]
 * @property {(drop: { zone: HTMLElement, before: HTMLElement | null, index: number }) => void} onDrop
 */

/** @type {any} the drag under way */
let active = null;

/**
 * @param {PointerEvent} e
 * @param {DragOptions} opts
 */
export function dragStart(e, opts) {
  if (active || e.button !== 0) return;
  const from = /** @type {Element} */ (e.target);
  const handle = from.closest('[data-drag-handle]');
  if (!handle && from.closest(INTERACTIVE)) return;
  if (e.pointerType === 'touch' && !handle) return;
  const s = {
    opts,
    el: opts.el,
    x0: e.clientX,
    y0: e.clientY,
    x: e.clientX,
    y: e.clientY,
    id: e.pointerId,
    dragging: false,
    ghost: null,
    dx: 0,
    dy: 0,
    zone: null,
    before: null,
    raf: 0,
  };
  active = s;
  document.addEventListener('pointermove', move, true);
  document.addEventListener('pointerup', up, true);
  document.addEventListener('pointercancel', cancel, true);
  document.addEventListener('keydown', key, true);
  if (handle) e.preventDefault();
}

function begin(s) {
  s.dragging = true;
  const r = s.el.getBoundingClientRect();
  s.dx = s.x0 - r.left;
  s.dy = s.y0 - r.top;
  const g = s.el.cloneNode(true);
  g.removeAttribute('id');
  g.setAttribute('aria-hidden', 'true');
  g.classList.add('drag-ghost');
  g.style.width = r.width + 'px';
  g.style.height = r.height + 'px';
  document.body.appendChild(g);
  s.ghost = g;
  s.el.classList.add('is-dragging');
  document.body.classList.add('dragging');
  place(s);
  s.raf = requestAnimationFrame(() => tick(s));
}

function place(s) {
  s.ghost.style.transform = `translate(${s.x - s.dx}px, ${s.y - s.dy}px) rotate(1.5deg)`;
}

// tick scrolls while the pointer rests near an edge.
function tick(s) {
  if (active !== s || !s.dragging) return;
  const edge = 48;
  const sc = s.opts.scroller;
  if (sc) {
    const r = sc.getBoundingClientRect();
    if (s.x < r.left + edge) sc.scrollLeft -= 12;
    else if (s.x > r.right - edge) sc.scrollLeft += 12;
  }
  const page = document.getElementById('main');
  if (page) {
    if (s.y < edge) page.scrollTop -= 12;
    else if (s.y > innerHeight - edge) page.scrollTop += 12;
  }
  const lane = s.zone && s.zone.closest('[data-scroll-y]');
  if (lane) {
    const r = lane.getBoundingClientRect();
    if (s.y < r.top + edge) lane.scrollTop -= 10;
    else if (s.y > r.bottom - edge) lane.scrollTop += 10;
  }
  s.raf = requestAnimationFrame(() => tick(s));
}

function move(e) {
  const s = active;
  if (!s || e.pointerId !== s.id) return;
  s.x = e.clientX;
  s.y = e.clientY;
  if (!s.dragging) {
    if (Math.hypot(s.x - s.x0, s.y - s.y0) < 5) return;
    begin(s);
  }
  e.preventDefault();
  place(s);
  target(s);
}

function clearMarks(s) {
  if (s.zone) s.zone.classList.remove('drop-active', 'drop-end', 'drop-into');
  if (s.before) s.before.classList.remove('drop-before');
}

function target(s) {
  clearMarks(s);
  s.zone = null;
  s.before = null;
  const under = document.elementFromPoint(s.x, s.y);
  const zone = under && under.closest(s.opts.zones);
  if (!zone || (s.opts.mode === 'into' && (zone === s.el || s.el.contains(zone)))) return;
  if (s.opts.accept && !s.opts.accept(zone)) return;
  s.zone = zone;
  if (s.opts.mode === 'into') {
    zone.classList.add('drop-into');
    return;
  }
  zone.classList.add('drop-active');
  const items = [...zone.querySelectorAll(s.opts.items)].filter((it) => it !== s.el && it.closest(s.opts.zones) === zone);
  s.before = items.find((it) => {
    const r = it.getBoundingClientRect();
    return s.y < r.top + r.height / 2;
  }) || null;
  if (s.before) s.before.classList.add('drop-before');
  else zone.classList.add('drop-end');
}

function end(s) {
  cancelAnimationFrame(s.raf);
  clearMarks(s);
  if (s.ghost) s.ghost.remove();
  s.el.classList.remove('is-dragging');
  document.body.classList.remove('dragging');
  document.removeEventListener('pointermove', move, true);
  document.removeEventListener('pointerup', up, true);
  document.removeEventListener('pointercancel', cancel, true);
  document.removeEventListener('keydown', key, true);
  active = null;
}

function up(e) {
  const s = active;
  if (!s || e.pointerId !== s.id) return;
  const { dragging, zone, before } = s;
  end(s);
  if (!dragging) return;
  // The click that follows a drop is not a click on the item.
  const swallow = (ev) => {
    ev.stopPropagation();
    ev.preventDefault();
  };
  window.addEventListener('click', swallow, { capture: true, once: true });
  setTimeout(() => window.removeEventListener('click', swallow, true), 0);
  if (!zone) return;
  let index = 0;
  if (s.opts.mode !== 'into') {
    const items = [...zone.querySelectorAll(s.opts.items)].filter((it) => it !== s.el && it.closest(s.opts.zones) === zone);
    index = before ? items.indexOf(before) : items.length;
  }
  s.opts.onDrop({ zone, before, index });
}

function cancel() {
  if (active) end(active);
}

function key(e) {
  if (e.key === 'Escape' && active) {
    e.preventDefault();
    e.stopPropagation();
    end(active);
  }
}
