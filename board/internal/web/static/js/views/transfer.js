// @ts-check
// Import / Export: download the board as JSON, CSV or Markdown, and bring a
// file in (the board's own export, a Todoist backup, a Trello board export,
// any CSV): a dry run shows what would be created, then Apply writes it.
import { useState } from 'preact/hooks';
import { html, Icon } from '../ui.js';
import { api, statusOf, messageOf } from '../api.js';
import { toast, fail } from '../state.js';

const FORMATS = [
  ['auto', 'Tell from the file'],
  ['json', 'This board’s JSON export'],
  ['todoist', 'Todoist backup (CSV)'],
  ['trello', 'Trello board (JSON)'],
  ['csv', 'Other CSV (map columns)'],
];

const COUNTS = [
  ['labels', 'Labels'], ['initiatives', 'Initiatives'], ['workstreams', 'Workstreams'],
  ['cases', 'Cases'], ['tasks', 'Tasks'], ['notes', 'Notes'], ['skipped', 'Skipped, already imported'],
];

/** @param {string} s */
function parseMap(s) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const pair of s.split(',')) {
    const [col, field] = pair.split('=').map((x) => (x || '').trim());
    if (col && field) out[col] = field;
  }
  return out;
}

export function TransferPage() {
  const [file, setFile] = useState(/** @type {{ name: string, content: string } | null} */ (null));
  const [format, setFormat] = useState('auto');
  const [map, setMap] = useState('');
  const [title, setTitle] = useState('');
  const [dry, setDry] = useState(/** @type {any} */ (null));
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const body = () => ({ format, content: file ? file.content : '', map: format === 'csv' ? parseMap(map) : undefined, title: title.trim() || undefined });
  const reset = () => { setDry(null); setProblem(''); };
  const pick = async (e) => {
    reset();
    const f = e.currentTarget.files && e.currentTarget.files[0];
    if (!f) { setFile(null); return; }
    const content = await f.text();
    setFile({ name: f.name, content });
    // A Todoist backup names no project: its file name does.
    if (/^\uFEFF?TYPE,CONTENT/.test(content)) setTitle(f.name.replace(/\.[^.]+$/, ''));
  };
  const check = async () => {
    reset();
    setBusy(true);
    try {
      setDry(await api.import(body(), true));
    } catch (e) {
      if (statusOf(e) === 400 || statusOf(e) === 413) setProblem(messageOf(e));
      else fail(e);
    } finally {
      setBusy(false);
    }
  };
  const apply = async () => {
    setBusy(true);
    try {
      const r = await api.import(body(), false);
      const c = r.created;
      toast(`Imported: ${c.cases} cases, ${c.tasks} tasks, ${c.labels} labels${c.skipped ? `; ${c.skipped} already there` : ''}`, 'ok');
      setDry(null);
      setFile(null);
      setTitle('');
    } catch (e) {
      if (statusOf(e) === 400 || statusOf(e) === 413) setProblem(messageOf(e));
      else fail(e);
    } finally {
      setBusy(false);
    }
  };

  return html`<section class="page page-narrow" aria-labelledby="page-title">
    <header class="page-head"><div class="page-title-row"><h1 id="page-title">Import / Export</h1></div>
      <p class="lede">Take the board elsewhere, or bring in a board from Todoist, Trello or a spreadsheet.</p></header>

    <h2 class="section-title">Export</h2>
    <div class="btn-row">
      <a class="btn" href=${api.exportURL('json')} download><${Icon} name="external" size=${14} />JSON (everything)</a>
      <a class="btn" href=${api.exportURL('csv')} download><${Icon} name="external" size=${14} />CSV (cases and tasks)</a>
      <a class="btn" href=${api.exportURL('markdown')} download><${Icon} name="external" size=${14} />Markdown (zip)</a>
    </div>

    <h2 class="section-title">Import</h2>
    <div class="form-grid">
      <label class="field span2"><span>File</span><input type="file" accept=".json,.csv,application/json,text/csv" onChange=${pick} data-testid="import-file" /></label>
      <label class="field"><span>Format</span><select value=${format} onChange=${(e) => { setFormat(e.currentTarget.value); reset(); }}>
        ${FORMATS.map(([v, l]) => html`<option key=${v} value=${v}>${l}</option>`)}</select></label>
      <label class="field"><span>Put under initiative (optional)</span><input value=${title} onInput=${(e) => { setTitle(e.currentTarget.value); reset(); }} placeholder="Todoist project name" /></label>
      ${format === 'csv' ? html`<label class="field span2"><span>Columns to fields</span><input value=${map} onInput=${(e) => { setMap(e.currentTarget.value); reset(); }}
        placeholder="Name=title, Due Date=dueAt, Tags=labels" /></label>` : null}
    </div>
    <div class="btn-row" style="margin-top: 12px">
      <button type="button" class="btn btn-primary" disabled=${!file || busy} onClick=${check}>Check file</button>
      ${dry ? html`<button type="button" class="btn btn-primary" disabled=${busy} onClick=${apply}>Apply</button>
        <button type="button" class="btn btn-ghost" onClick=${reset}>Cancel</button>` : null}
    </div>
    ${problem ? html`<p class="banner banner-danger" role="alert">${problem}</p>` : null}
    ${dry ? html`<div role="status" data-testid="import-dry-run">
      <p>${file ? file.name : ''} (${dry.format}) would create:</p>
      <table class="shortcuts"><tbody>
        ${COUNTS.map(([k, l]) => html`<tr key=${k}><th scope="row">${l}</th><td data-count=${k}>${dry.created[k]}</td></tr>`)}
      </tbody></table>
      <p class="muted small">Nothing is written until you Apply; the import is one write, all or nothing.</p>
    </div>` : null}
  </section>`;
}
