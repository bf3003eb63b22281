// The example operator's own components (catalogs/example.json), registered
// the way a real app registers them in each renderer:
//
// - JSON Forms: custom renderers chosen by testers that read the control
//   options the worker writes (`options.genui`), ranked above Material's;
// - RJSF: custom widgets under the `ui:widget` names the catalog gives;
// - A2UI: the components StarRating and ColorPicker in the app's own
//   catalog (id = the catalog's `a2ui.catalogId`), which also holds every
//   basic component and function, registered with the MessageProcessor.
//
// Each component is plain DOM a person uses: the rating is a row of
// buttons "0 stars" .. "<n> stars"; the colour picker an <input type=color>.
import React from 'react';
import { and, isIntegerControl, isStringControl, optionIs, rankWith } from '@jsonforms/core';
import { withJsonFormsControlProps } from '@jsonforms/react';
import { html, nothing } from 'lit';
import { A2uiLitElement, Catalog, DynamicNumberSchema, SliderApi, TextFieldApi } from '@a2ui/web_core/v0_9';
import { basicCatalog } from '@a2ui/lit/v0_9';

export const EXAMPLE_CATALOG_ID = 'https://genui-worker.dev/catalogs/example/a2ui-catalog.json';

function Stars({ id, label, value, count, onPick }) {
  return (
    <fieldset className="genui-star-rating" id={id} style={{ border: 0, padding: 0, margin: '8px 0' }}>
      <legend>{label}</legend>
      {Array.from({ length: count + 1 }, (_, i) => (
        <button key={i} type="button" aria-label={`${i} stars`} aria-pressed={value === i} onClick={() => onPick(i)}
          style={{ fontSize: 20, background: 'none', border: 0, cursor: 'pointer', color: '#c90' }}>
          {i === 0 ? '∅' : i <= (value ?? -1) ? '★' : '☆'}
        </button>
      ))}
    </fieldset>
  );
}

function Colour({ id, label, value, onPick }) {
  return (
    <label style={{ display: 'block', margin: '8px 0' }}>
      {label}{' '}
      <input id={id} type="color" aria-label={label} value={value ?? '#000000'} onChange={(e) => onPick(e.target.value)} />
    </label>
  );
}

// JSON Forms: a tester per component, reading the options the catalog names.
const StarRatingControl = withJsonFormsControlProps(({ data, handleChange, path, label, uischema }) => (
  <Stars id={`jf-${path}`} label={label} value={data} count={uischema.options?.props?.stars ?? 10} onPick={(n) => handleChange(path, n)} />
));
const ColorPickerControl = withJsonFormsControlProps(({ data, handleChange, path, label }) => (
  <Colour id={`jf-${path}`} label={label} value={data} onPick={(c) => handleChange(path, c)} />
));
export const catalogRenderers = [
  { tester: rankWith(10, and(isIntegerControl, optionIs('genui', 'starRating'))), renderer: StarRatingControl },
  { tester: rankWith(10, and(isStringControl, optionIs('genui', 'colorPicker'))), renderer: ColorPickerControl },
];

// RJSF: widgets by `ui:widget` name; props arrive as `ui:options`.
export const catalogWidgets = {
  starRating: ({ id, label, value, onChange, options }) => (
    <Stars id={id} label={label} value={value} count={options?.stars ?? 10} onPick={(n) => onChange(n)} />
  ),
  colorPicker: ({ id, label, value, onChange }) => <Colour id={id} label={label} value={value} onPick={(c) => onChange(c)} />,
};

// A2UI: component APIs built from the basic ones' zod schemas (web_core's
// own zod), and Lit elements that render them.
const StarRatingApi = { name: 'StarRating', schema: SliderApi.schema.omit({ min: true, max: true }).extend({ stars: DynamicNumberSchema.optional() }) };
const ColorPickerApi = { name: 'ColorPicker', schema: TextFieldApi.schema.omit({ variant: true, validationRegexp: true }) };

class StarRatingElement extends A2uiLitElement {
  constructor() {
    super();
    this.api = StarRatingApi;
  }
  createRenderRoot() {
    return this;
  }
  render() {
    const p = this.controller?.props;
    if (!p) return nothing;
    const count = Number(p.stars ?? 10);
    return html`<fieldset class="genui-star-rating" style="border:0;padding:0;margin:8px 0"><legend>${p.label}</legend>${Array.from(
      { length: count + 1 },
      (_, i) => html`<button type="button" aria-label="${i} stars" aria-pressed="${p.value === i}" style="font-size:20px;background:none;border:0;color:#c90"
        @click=${() => p.setValue?.(i)}>${i === 0 ? '∅' : i <= (p.value ?? -1) ? '★' : '☆'}</button>`
    )}</fieldset>`;
  }
}
customElements.define('genui-star-rating', StarRatingElement);

class ColorPickerElement extends A2uiLitElement {
  constructor() {
    super();
    this.api = ColorPickerApi;
  }
  createRenderRoot() {
    return this;
  }
  render() {
    const p = this.controller?.props;
    if (!p) return nothing;
    return html`<label style="display:block;margin:8px 0">${p.label}
      <input type="color" aria-label="${p.label}" .value=${p.value || '#000000'} @input=${(e) => p.setValue?.(e.target.value)} /></label>`;
  }
}
customElements.define('genui-color-picker', ColorPickerElement);

export const exampleA2uiCatalog = new Catalog(
  EXAMPLE_CATALOG_ID,
  [...basicCatalog.components.values(), { ...StarRatingApi, tagName: 'genui-star-rating' }, { ...ColorPickerApi, tagName: 'genui-color-picker' }],
  [...basicCatalog.functions.values()]
);
