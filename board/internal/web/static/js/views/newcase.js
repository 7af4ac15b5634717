// @ts-check
// New case: blank or from a template (api.templates), any tier, any lane.
import { useState } from 'preact/hooks';
import { html, Icon, Modal, CaseSelect, LabelPicker } from '../ui.js';
import { api } from '../api.js';
import { setQuery } from '../router.js';
import { useCases, templates, overlay, fail, toast, confirmDialog } from '../state.js';
import { LANES, KINDS } from '../format.js';
import { canHold } from '../cases.js';

/** @param {{ filters?: import('../types.js').Filters, mode?: string, fromTemplate?: boolean }} props */
export function NewCaseModal({ filters = {}, mode, fromTemplate }) {
  const { list } = useCases();
  const t = templates.use();
  const tpls = ((t.data && t.data.templates) || []).slice().sort((a, b) => a.name.localeCompare(b.name));
  const [f, setF] = useState({
    templateId: '', title: '', status: 'todo', domain: filters.domain || 'work', kind: mode === 'strategy' ? 'initiative' : 'case',
    parentId: mode === 'strategy' ? '' : filters.in || '', labels: filters.label ? [filters.label] : [], dueAt: '', summary: '',
  });
  const [busy, setBusy] = useState(false);
  const close = () => overlay.set(null);
  const set = (k) => (e) => setF({ ...f, [k]: e.target.value });
  const pick = (id) => {
    const tp = tpls.find((x) => x.id === id);
    if (!tp) return setF({ ...f, templateId: '' });
    setF({
      ...f, templateId: id, title: tp.title || f.title, status: tp.status || f.status, domain: tp.domain || f.domain,
      kind: tp.kind || f.kind, labels: [...new Set([...(tp.labels || []), ...f.labels])], summary: tp.summary || f.summary,
    });
  };
  const tpl = tpls.find((x) => x.id === f.templateId);
  const submit = async (e) => {
    e.preventDefault();
    if (!f.title.trim()) return;
    setBusy(true);
    const body = { title: f.title.trim(), status: f.status, domain: f.domain, kind: f.kind };
    if (f.templateId) body.templateId = f.templateId;
    if (f.parentId && f.kind !== 'initiative') body.parentId = f.parentId;
    if (f.labels.length) body.labels = f.labels;
    if (f.dueAt) body.dueAt = f.dueAt;
    if (f.summary.trim()) body.summary = f.summary.trim();
    if (filters.starred) body.starred = true;
    try {
      const res = await api.cases.create(body);
      close();
      toast(`Created ${res.case.id}`, 'ok');
      setQuery({ case: res.case.id });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const removeTemplate = async () => {
    if (!tpl) return;
    const ok = await confirmDialog({ title: `Delete template “${tpl.name}”?`, message: 'Cases made from it stay as they are.', ok: 'Delete', danger: true });
    if (!ok) return;
    try {
      await api.templates.remove(tpl.id);
      setF({ ...f, templateId: '' });
    } catch (err) {
      fail(err);
    }
  };
  const node = { id: '', kind: f.kind };
  return html`<${Modal} title=${fromTemplate ? 'New case from a template' : 'New case'} onClose=${close} labelledBy="newcase-title"
    footer=${html`<div class="grow"></div><button type="button" class="btn" onClick=${close}>Cancel</button>
      <button type="submit" form="newcase-form" class="btn btn-primary" disabled=${busy || !f.title.trim()}>Create</button>`}>
    <form id="newcase-form" class="form-grid" onSubmit=${submit}>
      <div class="field span2"><span>Template</span>
        ${tpls.length ? html`<div class="template-row"><select aria-label="Template" value=${f.templateId} onChange=${(e) => pick(e.target.value)} autofocus=${fromTemplate}>
          <option value="">Blank case</option>${tpls.map((x) => html`<option key=${x.id} value=${x.id}>${x.name}</option>`)}</select>
          ${tpl ? html`<button type="button" class="icon-btn" aria-label=${'Delete template ' + tpl.name} title="Delete template" onClick=${removeTemplate}><${Icon} name="trash" size=${14} /></button>` : null}</div>
          ${tpl && tpl.tasks && tpl.tasks.length ? html`<span class="muted small">Adds ${tpl.tasks.length} tasks: ${tpl.tasks.slice(0, 3).join(', ')}${tpl.tasks.length > 3 ? '…' : ''}</span>` : null}`
        : html`<span class="muted small">No templates yet. Open a case and choose “Save as template” from its menu.</span>`}
      </div>
      <label class="field span2"><span>Title</span><input autofocus=${!fromTemplate} required value=${f.title} onInput=${set('title')} placeholder="What needs doing" /></label>
      <label class="field"><span>Tier</span><select value=${f.kind} onChange=${set('kind')}>${KINDS.map((k) => html`<option value=${k.id}>${k.name}</option>`)}</select></label>
      <label class="field"><span>Lane</span><select value=${f.status} onChange=${set('status')}>${LANES.map((l) => html`<option value=${l.id}>${l.name}</option>`)}</select></label>
      <label class="field"><span>Domain</span><select value=${f.domain} onChange=${set('domain')}><option value="work">Work</option><option value="life">Life</option></select></label>
      <label class="field"><span>Due</span><input type="date" value=${f.dueAt} onInput=${set('dueAt')} /></label>
      ${f.kind !== 'initiative' ? html`<label class="field span2"><span>Parent</span><${CaseSelect} label="Parent" value=${f.parentId} cases=${list}
        none=${f.kind === 'workstream' ? 'Choose an initiative' : 'No parent'} filter=${(c) => canHold(c, node)} onChange=${(v) => setF({ ...f, parentId: v || '' })} /></label>` : null}
      <div class="field span2"><span>Labels</span><${LabelPicker} value=${f.labels} onChange=${(labels) => setF({ ...f, labels })} /></div>
      <label class="field span2"><span>Summary</span><textarea rows="3" value=${f.summary} onInput=${set('summary')}></textarea></label>
    </form>
  </${Modal}>`;
}
