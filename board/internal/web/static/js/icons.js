// @ts-check
// Icons: small stroke drawings on a 24-unit grid, drawn for this page.
import { html } from './html.js';

/** @type {Record<string, string>} */
const paths = {
  board: 'M4 4h4v16H4zM10 4h4v11h-4zM16 4h4v7h-4z',
  tree: 'M5 4v16M5 8h6M5 16h6M13 6h6v4h-6zM13 14h6v4h-6z',
  inbox: 'M3 13l3-8h12l3 8v6H3zM3 13h5l1 3h6l1-3h5',
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  calendar: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  bell: 'M6 16V11a6 6 0 1112 0v5l2 2H4zM10 21h4',
  flag: 'M5 21V4M5 4h11l-2 4 2 4H5',
  check: 'M5 12l5 5 9-10',
  checkCircle: 'M12 21a9 9 0 110-18 9 9 0 010 18zM8 12l3 3 5-6',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM9 12l2 2 4-4',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13',
  plus: 'M12 5v14M5 12h14',
  search: 'M11 18a7 7 0 110-14 7 7 0 010 14zM16 16l5 5',
  star: 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  x: 'M6 6l12 12M18 6L6 18',
  chevronRight: 'M9 6l6 6-6 6',
  chevronLeft: 'M15 6l-6 6 6 6',
  chevronDown: 'M6 9l6 6 6-6',
  grip: 'M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01',
  archive: 'M3 4h18v4H3zM5 8v12h14V8M10 12h4',
  restore: 'M4 12a8 8 0 108-8 8 8 0 00-6 3M4 4v4h4',
  link: 'M10 14a4 4 0 006 0l3-3a4 4 0 00-6-6l-1 1M14 10a4 4 0 00-6 0l-3 3a4 4 0 006 6l1-1',
  mail: 'M3 6h18v12H3zM3 7l9 6 9-6',
  clock: 'M12 21a9 9 0 110-18 9 9 0 010 18zM12 7v5l3 2',
  command: 'M9 6a3 3 0 10-3 3h12a3 3 0 10-3-3v12a3 3 0 103-3H6a3 3 0 103 3z',
  keyboard: 'M3 6h18v12H3zM7 10h.01M11 10h.01M15 10h.01M7 14h10',
  menu: 'M4 7h16M4 12h16M4 17h16',
  bookmark: 'M6 3h12v18l-6-4-6 4z',
  tag: 'M3 12V4h8l10 10-8 8zM7.5 8h.01',
  help: 'M12 21a9 9 0 110-18 9 9 0 010 18zM9.5 9.5a2.5 2.5 0 114 2c-1 .6-1.5 1.2-1.5 2.5M12 17h.01',
  template: 'M5 3h10l4 4v14H5zM15 3v4h4M9 12h6M9 16h6',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21a8 8 0 0116 0',
  bot: 'M5 8h14v11H5zM12 4v4M9 13h.01M15 13h.01M2 12v4M22 12v4',
  edit: 'M4 20h4L19 9l-4-4L4 16zM14 6l4 4',
  filter: 'M3 5h18l-7 8v6l-4 2v-8z',
  alert: 'M12 3l10 18H2zM12 10v5M12 18h.01',
  note: 'M5 4h14v12l-4 4H5zM15 20v-4h4',
  layers: 'M12 3l9 5-9 5-9-5zM3 13l9 5 9-5',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  sparkle: 'M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5L18 18M6 18l2.5-2.5M15.5 8.5L18 6',
  dot: 'M12 12h.01',
};

// Icon draws one of the paths above (a dot for an unknown name).
/** @param {{ name: string, size?: number, filled?: boolean, title?: string }} props */
export function Icon({ name, size = 16, filled = false, title }) {
  const d = paths[name] || paths.dot;
  return html`<svg class="icon" width=${size} height=${size} viewBox="0 0 24 24" aria-hidden=${title ? undefined : 'true'}
    role=${title ? 'img' : undefined} focusable="false" fill=${filled ? 'currentColor' : 'none'} stroke="currentColor"
    stroke-width=${name === 'more' || name === 'grip' || name === 'dot' ? 3 : 1.8} stroke-linecap="round" stroke-linejoin="round">
    ${title ? html`<title>${title}</title>` : null}<path d=${d} /></svg>`;
}
