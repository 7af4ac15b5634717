// @ts-check
// One quiet live region for the whole page: what the agent just did and
// each step of a keyboard move are read out once, without moving focus.
// It lives outside the views so a view's redraw never empties it mid-sentence.

/** @type {HTMLElement | null} */
let region = null;

function ensure() {
  if (region && region.isConnected) return region;
  region = document.createElement('div');
  region.className = 'sr-only';
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('role', 'status');
  region.dataset.announce = '';
  document.body.appendChild(region);
  return region;
}

// announce reads text out. Each sentence is a new line of the region (a
// screen reader speaks what is added); the last few are kept, so a burst of
// the agent's writes is read in full and the region stays small.
/** @param {string} text */
export function announce(text) {
  const r = ensure();
  const line = document.createElement('p');
  line.textContent = text;
  r.appendChild(line);
  while (r.childElementCount > 5) r.firstElementChild?.remove();
}
