// The page under test: renders a worker answer with JSON Forms (material
// renderers, the set a real MUI app uses) or with RJSF (@rjsf/core +
// validator-ajv8), and exposes hooks for the node runner (run.mjs):
//
//   window.renderJsonForms({jsonSchema, uiSchema, initialData}) -> Promise
//   window.renderRjsf({schema, uiSchema, formData})             -> Promise
//   window.currentData()      the form's current data (JSON Forms onChange /
//                             RJSF onChange)
//   window.submitted          RJSF: the formData of the last onSubmit, or null
//   window.renderProblems     console errors/warnings, uncaught errors and
//                             "No applicable renderer" texts seen since the
//                             last render call
//   window.jsonFormsErrors()  JSON Forms' own ajv errors of the current data
//   window.renderA2ui(...)    the A2UI pane (src/a2ui.js)
//   window.refineJsonForms(r) a streamed refinement, in place, keeping the
//                             data typed so far (stream.mjs)
//   window.renderCopilotKit(...) the same answer in CopilotKit's A2UI renderer (src/copilotkit.jsx)
import React from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { JsonForms } from '@jsonforms/react';
import { createAjv } from '@jsonforms/core';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import './probe.js';
import './a2ui.js';
import './copilotkit.jsx';
import { catalogRenderers, catalogWidgets } from './catalog.jsx';
import { materialCells, materialRenderers } from '@jsonforms/material-renderers';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import CssBaseline from '@mui/material/CssBaseline';
import Form, { getDefaultRegistry } from '@rjsf/core';
import validator, { customizeValidator } from '@rjsf/validator-ajv8';

const state = {
  data: undefined,
  errors: [],
  submitted: null,
  root: null,
};

window.renderProblems = [];
window.submitted = null;

function record(kind, args) {
  const text = args
    .map((a) => {
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      if (typeof a === 'string') return a;
      try {
        return JSON.stringify(a);
      } catch {
        return String(a);
      }
    })
    .join(' ');
  window.renderProblems.push({ kind, text });
}

for (const level of ['error', 'warn']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    record(level === 'warn' ? 'warning' : 'error', args);
    original(...args);
  };
}
window.addEventListener('error', (e) => record('uncaught', [e.error || e.message]));
window.addEventListener('unhandledrejection', (e) => record('unhandledrejection', [e.reason]));

class Boundary extends React.Component {
  constructor(props) {
    super(props);
    this.state = { error: null };
  }
  static getDerivedStateFromError(error) {
    return { error };
  }
  componentDidCatch(error) {
    record('render-error', [error]);
  }
  render() {
    if (this.state.error) {
      return <pre id="render-error">{String(this.state.error && this.state.error.stack)}</pre>;
    }
    return this.props.children;
  }
}

const theme = createTheme();
// The operator's components (catalogs/example.json) beside Material's, as an app registers them.
const renderers = [...materialRenderers, ...catalogRenderers];

function mount(element) {
  const container = document.getElementById('root');
  if (state.root) state.root.unmount();
  container.innerHTML = '';
  state.root = createRoot(container);
  flushSync(() => {
    state.root.render(
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <Boundary>{element}</Boundary>
      </ThemeProvider>
    );
  });
  // Let effects and the first onChange run, then look for JSON Forms'
  // UnknownRenderer ("No applicable renderer found." as red text).
  return new Promise((resolve) =>
    setTimeout(() => {
      collectUnknownRenderers();
      resolve(true);
    }, 50)
  );
}

function collectUnknownRenderers() {
  const root = document.getElementById('root');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (el && !seen.has(el) && /No applicable/.test(el.textContent)) {
      seen.add(el);
      record('no-applicable-renderer', [el.textContent.trim()]);
    }
  }
}

function reset() {
  window.renderProblems = [];
  window.submitted = null;
  window.rjsfErrors = undefined;
  state.data = undefined;
  state.errors = [];
}

// JSON Forms validates with Ajv's default dialect (draft-07) unless given an
// Ajv instance. The worker returns `output` unchanged, so a 2020-12 schema
// needs Ajv2020, as any real app rendering such schemas must configure.
function ajvFor(schema) {
  const declared = schema && schema.$schema;
  if (declared && /draft\/2020-12/.test(declared)) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, addUsedSchema: false });
    addFormats(ajv);
    return { ajv, dialect: '2020-12' };
  }
  return { ajv: createAjv(), dialect: 'draft-07 (JSON Forms default)' };
}

function jsonFormsView(response, data, ajv) {
  return (
    <div style={{ padding: 16, maxWidth: 900 }}>
      {response.meta && response.meta.title ? <h2 id="form-title">{response.meta.title}</h2> : null}
      <JsonForms
        schema={response.jsonSchema}
        uischema={response.uiSchema}
        data={data}
        renderers={renderers}
        cells={materialCells}
        ajv={ajv}
        onChange={({ data, errors }) => {
          state.data = data;
          state.errors = errors || [];
        }}
      />
    </div>
  );
}

window.renderJsonForms = (response, options = {}) => {
  reset();
  const { ajv, dialect } = options.defaultAjv ? { ajv: undefined, dialect: 'JSON Forms default' } : ajvFor(response.jsonSchema);
  window.ajvDialect = dialect;
  state.data = response.initialData;
  state.ajv = ajv;
  return mount(jsonFormsView(response, response.initialData, ajv));
};

// A streamed refinement (issue 16, tests/browser/stream.mjs): the patched
// answer rendered into the same React root, in place, with the data the
// person holds (state.data), not the answer's initialData: a patch changes
// the form, never what was typed.
window.refineJsonForms = (response) => {
  flushSync(() => {
    state.root.render(
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <Boundary>{jsonFormsView(response, state.data, state.ajv)}</Boundary>
      </ThemeProvider>
    );
  });
  return new Promise((resolve) => setTimeout(() => resolve(true), 50));
};

// RJSF draws no heading between the fields of one object: the worker
// names a flat form's sections in the root's `ui:options.sections`
// ({label, fields}), and the host heads each section's first field shown,
// as an app using the answer does (docs/formats.md).
const DefaultObjectFieldTemplate = getDefaultRegistry().templates.ObjectFieldTemplate;
function SectionedObjectFieldTemplate(props) {
  const sections = props.uiSchema?.['ui:options']?.sections;
  if (!Array.isArray(sections)) return <DefaultObjectFieldTemplate {...props} />;
  const shown = new Set(props.properties.filter((p) => !p.hidden).map((p) => p.name));
  const heads = new Map();
  for (const section of sections) {
    const first = section.fields.find((f) => shown.has(f));
    if (first !== undefined) heads.set(first, section.label);
  }
  const properties = props.properties.map((p) =>
    heads.has(p.name)
      ? { ...p, content: (<React.Fragment key={p.name}><h3 className="genui-section">{heads.get(p.name)}</h3>{p.content}</React.Fragment>) }
      : p,
  );
  return <DefaultObjectFieldTemplate {...props} properties={properties} />;
}

// Same for RJSF: validator-ajv8 uses draft-07 unless given Ajv2020.
const validator2020 = customizeValidator({ AjvClass: Ajv2020 });
const rjsfValidatorFor = (schema) =>
  schema && schema.$schema && /draft\/2020-12/.test(schema.$schema) ? validator2020 : validator;

window.renderRjsf = (form) => {
  reset();
  state.data = form.formData;
  return mount(
    <div style={{ padding: 16, maxWidth: 900 }}>
      <Form
        schema={form.schema}
        uiSchema={form.uiSchema || {}}
        formData={form.formData}
        validator={rjsfValidatorFor(form.schema)}
        widgets={catalogWidgets}
        templates={{ ObjectFieldTemplate: SectionedObjectFieldTemplate }}
        onChange={(e) => {
          state.data = e.formData;
        }}
        onSubmit={(e) => {
          state.data = e.formData;
          window.submitted = JSON.parse(JSON.stringify(e.formData === undefined ? null : e.formData));
        }}
        onError={(errors) => {
          window.rjsfErrors = errors.map((e) => ({ property: e.property, message: e.message }));
        }}
      />
    </div>
  );
};

window.currentData = () => (state.data === undefined ? undefined : JSON.parse(JSON.stringify(state.data)));
window.jsonFormsErrors = () =>
  state.errors.map((e) => ({ instancePath: e.instancePath, message: e.message, params: e.params }));
window.collectUnknownRenderers = collectUnknownRenderers;
// For panes that are not React (A2UI): a clean #root and a fresh record.
window.unmountRoot = () => {
  reset();
  if (state.root) state.root.unmount();
  state.root = null;
  document.getElementById('root').innerHTML = '';
};
window.appReady = true;
