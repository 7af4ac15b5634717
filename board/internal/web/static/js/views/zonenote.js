// @ts-check
// ZoneNote names the board's time zone, once, when it is not the browser's:
// every time the page shows is on the board's clock, which would otherwise
// surprise a person travelling or on a machine set to another zone.
import { html, Icon } from '../ui.js';
import { boardZone, browserZone, zoneDiffers } from '../zone.js';

export function ZoneNote() {
  if (!zoneDiffers()) return null;
  const z = boardZone();
  return html`<p class="zone-note" data-zone=${z} title=${`Dates and times on this page are in the board's zone, ${z}; this browser is in ${browserZone()}.`}>
    <${Icon} name="clock" size=${13} /><span>Times in ${z.replace(/_/g, ' ')}</span></p>`;
}
