// DOM probes used by the runner through page.evaluate: find a rendered
// control by the label a person reads, tell what widget it is, and mark it
// with a data-bt attribute so the runner can drive it with real clicks and
// key presses. Nothing here changes form data.
let next = 1;

const norm = (s) =>
  String(s ?? '')
    .replace(/[\u200b\u00a0]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*\*$/, '')
    .trim();

function mark(el) {
  if (!el) return null;
  if (!el.dataset.bt) el.dataset.bt = String(next++);
  return `[data-bt="${el.dataset.bt}"]`;
}

function visible(el) {
  if (!el) return false;
  if (el.checkVisibility && !el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

function container(sel) {
  const c = sel ? document.querySelector(sel) : document.getElementById('root');
  if (!c) throw new Error(`container ${sel} is gone`);
  return c;
}

/** Inside `c` and not inside something already consumed below `c`. */
function free(el, c) {
  for (let p = el; p && p !== c; p = p.parentElement) if (p.dataset && p.dataset.btUsed) return false;
  return true;
}

// ---------------------------------------------------------------- JSON Forms (MUI)

function pickerKind(root) {
  const button = root.querySelector('button[aria-label^="Choose"]');
  const sections = root.querySelectorAll('.MuiPickersSectionList-section').length;
  if (button && /Choose time/i.test(button.getAttribute('aria-label'))) return 'time';
  return sections >= 5 ? 'datetime' : 'date';
}

/** What widget a label element belongs to: {widget, root, input, labelEl}. */
function widgetOf(labelEl) {
  // <label for=...> of a text field, number field, textarea, autocomplete or picker
  if (labelEl.tagName === 'LABEL' && labelEl.htmlFor) {
    const target = document.getElementById(labelEl.htmlFor);
    if (target) {
      const root = labelEl.closest('.MuiFormControl-root') || labelEl.parentElement;
      if (target.classList.contains('MuiPickersInputBase-input') || target.closest('.MuiPickersInputBase-root')) {
        const group = root.querySelector('[role=group]');
        return { widget: pickerKind(root), root, input: group, hidden: target };
      }
      if (target.getAttribute('role') === 'combobox') return { widget: 'combobox', root: target.closest('.MuiAutocomplete-root') || root, input: target };
      if (target.tagName === 'TEXTAREA') return { widget: 'textarea', root, input: target };
      if (target.tagName === 'SELECT') return { widget: 'select', root, input: target };
      if (target.tagName === 'INPUT') {
        const t = target.type;
        if (t === 'checkbox') return { widget: 'checkbox', root, input: target };
        return { widget: t === 'number' ? 'number' : t === 'email' ? 'email' : t === 'url' ? 'url' : 'text', root, input: target };
      }
    }
  }
  // checkbox / switch: <label class=MuiFormControlLabel-root><span><input type=checkbox></span><span>Label</span></label>
  const fcl = labelEl.closest('.MuiFormControlLabel-root');
  if (fcl && !fcl.closest('[role=radiogroup]')) {
    const input = fcl.querySelector('input[type=checkbox]');
    const group = fcl.closest('.MuiFormGroup-root');
    if (input && !(group && group.querySelectorAll('input[type=checkbox]').length > 1)) {
      return { widget: input.classList.contains('MuiSwitch-input') ? 'switch' : 'checkbox', root: fcl, input };
    }
  }
  // radio group / checkbox group: <fieldset><legend>Label</legend><div role=radiogroup>…
  if (labelEl.tagName === 'LEGEND' || labelEl.classList.contains('MuiFormLabel-root')) {
    const root = labelEl.closest('fieldset, .MuiFormControl-root');
    if (root) {
      const rg = root.querySelector('[role=radiogroup]');
      if (rg) return { widget: 'radio', root, input: rg };
      const boxes = root.querySelectorAll('input[type=checkbox]');
      if (boxes.length) return { widget: 'checkbox-group', root, input: root.querySelector('.MuiFormGroup-root') || root };
    }
  }
  // slider: <span id="…-typo">Label</span> … <input type=range>
  if (labelEl.id && labelEl.id.endsWith('-typo')) {
    const root = labelEl.closest('.MuiFormControl-root') || labelEl.parentElement.parentElement;
    const input = root.querySelector('input[type=range]');
    if (input) return { widget: 'slider', root, input };
  }
  // arrays: <h6>Label</h6> in a toolbar with an "Add to …" button
  if (labelEl.tagName === 'H6') {
    const table = labelEl.closest('table');
    const addSel = 'button[aria-label^="Add to"], button[aria-label="Add button"]';
    if (table) return { widget: 'array-table', root: table, input: table.querySelector(addSel) };
    const toolbar = labelEl.closest('.MuiToolbar-root');
    if (toolbar) return { widget: 'array-layout', root: toolbar.parentElement, input: toolbar.querySelector(addSel) };
  }
  // groups (Group layout, object renderer): a card with the label in its header
  if (labelEl.closest('.MuiCardHeader-root')) {
    const root = labelEl.closest('.MuiCard-root');
    if (root) return { widget: 'group', root, input: root.querySelector('.MuiCardContent-root') || root };
  }
  return null;
}

const LABEL_CANDIDATES =
  'label, legend, h6, .MuiCardHeader-title, .MuiCardHeader-content > span, span[id$="-typo"], .MuiFormControlLabel-label';

/**
 * Finds the first free control in `containerSel` whose visible label reads
 * `label` (a trailing required "*" ignored). `want` lists acceptable widget
 * kinds in order of preference (any if empty). Marks and returns it.
 */
function findControl(containerSel, label, want = []) {
  const c = container(containerSel);
  const target = norm(label);
  const seen = new Set();
  const found = [];
  for (const el of c.querySelectorAll(LABEL_CANDIDATES)) {
    if (!free(el, c)) continue;
    if (norm(el.textContent) !== target) continue;
    const w = widgetOf(el);
    if (!w || seen.has(w.root)) continue;
    seen.add(w.root);
    found.push({ ...w, labelEl: el });
  }
  if (!found.length && target === '') {
    // an unlabelled control (MUI renders no <label> for an empty label)
    for (const fc of c.querySelectorAll('.MuiFormControl-root')) {
      if (!free(fc, c)) continue;
      const group = fc.querySelector('.MuiPickersInputBase-root[role=group], [role=group].MuiPickersInputBase-root');
      const hidden = fc.querySelector('input.MuiPickersInputBase-input');
      if (group) {
        found.push({ widget: pickerKind(fc), root: fc, input: group, hidden, labelEl: null });
        break;
      }
      const input = fc.querySelector('input:not([aria-hidden=true]), textarea:not([aria-hidden=true])');
      if (input) {
        const t = input.getAttribute('role') === 'combobox' ? 'combobox' : input.tagName === 'TEXTAREA' ? 'textarea' : input.type === 'number' ? 'number' : input.type === 'checkbox' ? 'checkbox' : 'text';
        found.push({ widget: t, root: fc, input, labelEl: null });
        break;
      }
    }
  }
  const pick = want.length ? found.find((f) => want.includes(f.widget)) ?? found[0] : found[0];
  if (!pick) {
    return { found: false, labels: [...c.querySelectorAll(LABEL_CANDIDATES)].filter((el) => free(el, c)).map((el) => norm(el.textContent)).filter(Boolean).slice(0, 40) };
  }
  pick.root.dataset.btUsed = '1';
  return describe(pick);
}

function describe(w) {
  return {
    found: true,
    widget: w.widget,
    root: mark(w.root),
    input: w.input ? mark(w.input) : null,
    hidden: w.hidden ? mark(w.hidden) : null,
    labelEl: w.labelEl ? mark(w.labelEl) : null,
    labelText: w.labelEl ? norm(w.labelEl.textContent) : null,
    labelVisible: w.labelEl ? visible(w.labelEl) : false,
    inputVisible: w.input ? visible(w.input) : false,
    inputType: w.input ? w.input.getAttribute('type') || w.input.tagName.toLowerCase() : null,
  };
}

/** The next free combinator (tabs) in the container: {root, tabs:[{text, selected, sel}]}. */
function findTabs(containerSel) {
  const c = container(containerSel);
  for (const list of c.querySelectorAll('[role=tablist]')) {
    if (!free(list, c)) continue;
    const tabsRoot = list.closest('.MuiTabs-root');
    const root = tabsRoot ? tabsRoot.parentElement : list.parentElement;
    if (!free(root, c) && root !== c) continue;
    root.dataset.btUsed = '1';
    const tabs = [...list.querySelectorAll('[role=tab]')].map((t) => ({
      text: norm(t.textContent),
      selected: t.getAttribute('aria-selected') === 'true',
      sel: mark(t),
      visible: visible(t),
    }));
    // the panel: what follows the tabs inside root
    const panel = tabsRoot ? tabsRoot.nextElementSibling : null;
    return { found: true, root: mark(root), panel: panel ? mark(panel) : mark(root), tabs };
  }
  return { found: false };
}

function ownRegion(acc) {
  // the accordion's own region, not one of a nested array's accordions
  const r = [...acc.querySelectorAll('[role=region]')].find((x) => x.closest('.MuiAccordion-root') === acc);
  return r ? mark(r) : null;
}

/** The expandable panels of an array layout: [{summary, region, expanded}]. */
function arrayPanels(rootSel) {
  const root = document.querySelector(rootSel);
  const items = root.querySelectorAll(':scope > div:last-child > .MuiAccordion-root, :scope > div:last-child > div > .MuiAccordion-root');
  return [...items].map((acc) => ({
    panel: mark(acc),
    summary: mark(acc.querySelector('.MuiAccordionSummary-root')),
    region: ownRegion(acc),
    expanded: acc.classList.contains('Mui-expanded'),
  }));
}

/** Rows of a table array control: [{row, inputs:[sel], selects:[sel]}]. */
function tableRows(rootSel) {
  const root = document.querySelector(rootSel);
  return [...root.querySelectorAll('tbody > tr')]
    .filter((tr) => tr.querySelector('input, textarea, select, [role=combobox]'))
    .map((tr) => ({
      row: mark(tr),
      cells: [...tr.querySelectorAll('td')].map((td) => {
        const input = td.querySelector('input:not([type=hidden]):not([aria-hidden=true]), textarea, select');
        return input ? { sel: mark(input), type: input.getAttribute('type') || input.tagName.toLowerCase(), role: input.getAttribute('role') } : null;
      }).filter(Boolean),
    }));
}

function tableHeaders(rootSel) {
  const root = document.querySelector(rootSel);
  return [...root.querySelectorAll('thead th')].map((th) => norm(th.textContent)).filter(Boolean);
}

/** The options of an open MUI listbox / autocomplete popup. */
function listOptions() {
  return [...document.querySelectorAll('[role=listbox] [role=option]')].filter(visible).map((o) => ({ text: norm(o.textContent), sel: mark(o) }));
}

// ---------------------------------------------------------------- RJSF (plain HTML)

function rjsfField(id) {
  const el = document.getElementById(id);
  if (!el) return { found: false };
  const label = document.querySelector(`label[for="${CSS.escape(id)}"]`);
  let labelEl = label;
  // checkboxes: <label><input id><span>Label</span></label>
  if (!labelEl && el.closest('label')) labelEl = el.closest('label');
  // radio groups and fieldsets: the field-template's <label class=control-label> or <legend>
  if (!labelEl) {
    const group = el.closest('.form-group, fieldset');
    labelEl = group ? group.querySelector(':scope > label, :scope > legend, :scope > .control-label') : null;
  }
  return {
    found: true,
    sel: mark(el),
    tag: el.tagName.toLowerCase(),
    type: el.getAttribute('type') || el.tagName.toLowerCase(),
    multiple: el.multiple === true,
    visible: visible(el),
    labelText: labelEl ? norm(labelEl.textContent) : null,
    labelVisible: labelEl ? visible(labelEl) : false,
    options: el.tagName === 'SELECT' ? [...el.options].map((o) => ({ value: o.value, text: norm(o.textContent) })) : null,
  };
}

function rjsfRadios(id) {
  const inputs = [...document.querySelectorAll(`input[type=radio][name="${CSS.escape(id)}"], input[type=radio][id^="${CSS.escape(id)}-"]`)];
  const group = inputs[0] ? inputs[0].closest('.form-group') : null;
  const labelEl = group ? group.querySelector(':scope > label, :scope > .control-label, legend') : null;
  return {
    found: inputs.length > 0,
    labelText: labelEl ? norm(labelEl.textContent) : null,
    labelVisible: labelEl ? visible(labelEl) : false,
    options: inputs.map((i) => ({ sel: mark(i), value: i.value, text: norm(i.closest('label') ? i.closest('label').textContent : ''), visible: visible(i) })),
  };
}

function rjsfCheckboxes(id) {
  const inputs = [...document.querySelectorAll(`input[type=checkbox][id^="${CSS.escape(id)}-"]`)];
  const group = inputs[0] ? inputs[0].closest('.form-group') : null;
  const labelEl = group ? group.querySelector(':scope > label, :scope > .control-label, legend') : null;
  return {
    found: inputs.length > 0,
    labelText: labelEl ? norm(labelEl.textContent) : null,
    labelVisible: labelEl ? visible(labelEl) : false,
    options: inputs.map((i) => ({ sel: mark(i), text: norm(i.closest('label') ? i.closest('label').textContent : ''), visible: visible(i) })),
  };
}

/** An RJSF array field: its legend/title and its add button. */
function rjsfArray(id) {
  const fs = document.getElementById(id) || document.querySelector(`fieldset[id="${CSS.escape(id)}"]`);
  if (!fs) return { found: false };
  const legend = fs.querySelector(':scope > legend, :scope > .field-title, :scope > label');
  const add = fs.querySelector(':scope .array-item-add button, :scope button.array-item-add, :scope button[title="Add"]');
  return {
    found: true,
    sel: mark(fs),
    labelText: legend ? norm(legend.textContent) : null,
    labelVisible: legend ? visible(legend) : false,
    add: add ? mark(add) : null,
    items: fs.querySelectorAll(':scope .array-item').length,
  };
}

function rjsfLegend(id) {
  const fs = document.getElementById(id);
  if (!fs) return { found: false };
  const legend = fs.tagName === 'FIELDSET' ? fs.querySelector(':scope > legend') : null;
  return { found: true, labelText: legend ? norm(legend.textContent) : null, labelVisible: legend ? visible(legend) : false };
}

/** Visible text that says a renderer could not render something. */
function renderFailures() {
  const out = [];
  const root = document.getElementById('root');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent;
    if (/No applicable (renderer|cell) found|Unsupported field schema|No widget .* for type|Unknown field type/i.test(t)) {
      out.push(norm(n.parentElement ? n.parentElement.textContent : t));
    }
  }
  return [...new Set(out)];
}

window.bt = {
  norm,
  findControl,
  findTabs,
  arrayPanels,
  tableRows,
  tableHeaders,
  listOptions,
  rjsfField,
  rjsfRadios,
  rjsfCheckboxes,
  rjsfArray,
  rjsfLegend,
  renderFailures,
  visible: (sel) => visible(document.querySelector(sel)),
  mark: (el) => mark(el),
};
