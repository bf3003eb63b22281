// The genui-worker playground, served by the worker itself at `/`.
//
// One page, one state object (App): the request on the left; on the right
// the answer rendered by JSON Forms, RJSF, A2UI (@a2ui/lit) and as the
// format=react module side by side (the last two load on demand), the result of
// the last submission, the raw spec and the provenance of every request.
//
// Generate: POST /v1/generate?format=<chosen> first (its JSON is the "raw
// spec"), then the JSON Forms, RJSF, A2UI and React projections the panes
// need that were not the chosen format (cache hits of the same spec).
// Submit (either renderer): POST /v1/submit {type: "dgui_response",
// specHash, toolCallId, data}.
import React, { useCallback, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { EXAMPLES } from './examples.js';
import { generate, isDguiError, submit, submitA2ui } from './api.js';
import { fieldErrors } from './errors.js';
import { Boundary } from './components/Boundary.jsx';
import { ErrorBox } from './components/ErrorBox.jsx';
import { A2uiPane } from './components/A2uiPane.jsx';
import { JsonFormsPane } from './components/JsonFormsPane.jsx';
import { JsonView } from './components/JsonView.jsx';
import { LmuiList } from './components/LmuiList.jsx';
import { Provenance, metaOf } from './components/Provenance.jsx';
import { RequestPanel } from './components/RequestPanel.jsx';
import { ReactPane } from './components/ReactPane.jsx';
import { RjsfPane } from './components/RjsfPane.jsx';
import { SubmissionPanel } from './components/SubmissionPanel.jsx';

// System fonts only: the page loads nothing from the internet.
const theme = createTheme({
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
});

const first = EXAMPLES[0];
const NONE = [];
const pretty = (v) => JSON.stringify(v, null, 2);

function App() {
  const [request, setRequest] = useState({ exampleId: first.id, text: pretty(first.body), format: first.format ?? 'jsonforms', generator: 'auto', apiKey: '' });
  const [busy, setBusy] = useState(false);
  // result of the last Generate: {run, calls, primary, format, jsonforms, rjsf, a2ui, react, lmui}
  // or {run, error}; `run` counts generations (it keys the renderers, so
  // each answer mounts fresh forms, and tells tests a new answer is in)
  const [result, setResult] = useState(null);
  const [submission, setSubmission] = useState(null);

  const set = useCallback((patch) => setRequest((r) => ({ ...r, ...patch })), []);
  const pick = (id) => {
    const ex = EXAMPLES.find((e) => e.id === id);
    if (!ex) return set({ exampleId: '' });
    set({ exampleId: id, text: pretty(ex.body), format: ex.format ?? 'jsonforms' });
  };

  async function onGenerate() {
    let parsed;
    try {
      parsed = JSON.parse(request.text);
    } catch (e) {
      setResult((prev) => ({ run: (prev?.run ?? 0) + 1, error: `The request body is not JSON: ${e.message}` }));
      setSubmission(null);
      return;
    }
    setBusy(true);
    setSubmission(null);
    const opts = { generator: request.generator, apiKey: request.apiKey };
    try {
      const primary = await generate(parsed, { ...opts, format: request.format });
      const calls = [primary];
      const specs = { [request.format]: primary.ok && !isDguiError(primary.body) ? primary.body : undefined };
      if (specs[request.format]) {
        for (const format of ['jsonforms', 'rjsf', 'a2ui', 'react']) {
          if (specs[format]) continue;
          const r = await generate(parsed, { ...opts, format });
          calls.push(r);
          if (r.ok) specs[format] = r.body;
        }
      }
      setResult((prev) => ({ run: (prev?.run ?? 0) + 1, calls, primary, format: request.format, ...specs }));
    } catch (e) {
      setResult((prev) => ({ run: (prev?.run ?? 0) + 1, error: e.message }));
    } finally {
      setBusy(false);
    }
  }

  async function onSubmit(from, data) {
    const meta = metaOf(result.jsonforms) ?? metaOf(result.rjsf) ?? {};
    setBusy(true);
    try {
      const record = await submit({ specHash: meta.specHash, toolCallId: meta.toolCallId, data }, { apiKey: request.apiKey, label: `submit ${from}` });
      setSubmission({ from, record });
    } catch (e) {
      setSubmission({ from, error: e.message });
    } finally {
      setBusy(false);
    }
  }

  // Stable, so the A2UI surface is mounted once per answer.
  const apiKey = request.apiKey;
  const onA2uiAction = useCallback(async (message) => {
    setBusy(true);
    try {
      const record = await submitA2ui(message, { apiKey, label: 'submit A2UI' });
      setSubmission({ from: 'A2UI', record });
    } catch (e) {
      setSubmission({ from: 'A2UI', error: e.message });
    } finally {
      setBusy(false);
    }
  }, [apiKey]);

  // Stable arrays, so the renderers do not re-validate on every render of the page.
  const submissionErrors = useMemo(() => (submission?.record && !submission.record.ok ? fieldErrors(submission.record.body) : NONE), [submission]);
  const errorsFor = (from) => (submission?.from === from ? submissionErrors : NONE);
  const failed = result && (result.error || !result.primary?.ok || isDguiError(result.primary?.body));

  return (
    <ThemeProvider theme={theme}>
      <header className="top">
        <h1>genui-worker playground</h1>
        <p>
          A <code>generateUserInterface</code> tool call in, a form out: rendered with JSON Forms, RJSF, A2UI and as a React module, submitted back as an AG-UI tool message.{' '}
          <a href="/openapi.json">OpenAPI</a> · <a href="/v1/tool">tool definition</a> · <a href="/healthz">health</a>
        </p>
      </header>
      <main className="layout">
        <section className="column left" aria-labelledby="h-request">
          <h2 id="h-request">Request</h2>
          <RequestPanel state={request} set={set} onPick={pick} onGenerate={onGenerate} busy={busy} />
          <h2 id="h-provenance">Provenance</h2>
          <Provenance calls={result?.calls ?? []} />
        </section>

        <section className="column right" aria-labelledby="h-ui" aria-busy={busy} data-testid="output" data-run={result?.run ?? 0}>
          <h2 id="h-ui">Generated UI</h2>
          {!result ? <p className="muted">Pick an example (or paste a tool call) and press Generate.</p> : null}
          {result?.error ? <ErrorBox title="Could not generate" message={result.error} testId="generate-error" /> : null}
          {result && !result.error && failed ? <ErrorBox title="The worker refused the request" record={result.primary} testId="generate-error" /> : null}
          {result && !failed ? (
            <div className="renderers" key={result.run}>
              <article className="card" aria-labelledby="h-jsonforms" data-testid="pane-jsonforms">
                <h3 id="h-jsonforms">
                  JSON Forms <span className="muted">material renderers</span>
                </h3>
                {result.jsonforms ? (
                  <Boundary name="JSON Forms">
                    {metaOf(result.jsonforms)?.title ? <p className="form-title">{metaOf(result.jsonforms).title}</p> : null}
                    <JsonFormsPane spec={result.jsonforms} serverErrors={errorsFor('JSON Forms')} onSubmit={(d) => onSubmit('JSON Forms', d)} busy={busy} />
                  </Boundary>
                ) : (
                  <p className="muted">No JSON Forms projection (see provenance).</p>
                )}
              </article>
              <article className="card" aria-labelledby="h-rjsf" data-testid="pane-rjsf">
                <h3 id="h-rjsf">
                  RJSF <span className="muted">dgui_form</span>
                </h3>
                {result.rjsf ? (
                  <Boundary name="RJSF">
                    {result.rjsf.title ? <p className="form-title">{result.rjsf.title}</p> : null}
                    <RjsfPane form={result.rjsf} serverErrors={errorsFor('RJSF')} onSubmit={(d) => onSubmit('RJSF', d)} busy={busy} />
                  </Boundary>
                ) : (
                  <p className="muted">No RJSF projection (see provenance).</p>
                )}
              </article>
              <article className="card" aria-labelledby="h-a2ui" data-testid="pane-a2ui">
                <h3 id="h-a2ui">
                  A2UI <span className="muted">v0.9, @a2ui/lit</span>
                </h3>
                {result.a2ui ? (
                  <Boundary name="A2UI">
                    <A2uiPane answer={result.a2ui} onAction={onA2uiAction} />
                  </Boundary>
                ) : (
                  <p className="muted">No A2UI projection (see provenance).</p>
                )}
              </article>
              <article className="card" aria-labelledby="h-react" data-testid="pane-react">
                <h3 id="h-react">
                  React <span className="muted">react-hook-form + zod module</span>
                </h3>
                {result.react ? (
                  <Boundary name="React">
                    <ReactPane answer={result.react} onSubmit={(d) => onSubmit('React', d)} />
                  </Boundary>
                ) : (
                  <p className="muted">No React projection (see provenance).</p>
                )}
              </article>
            </div>
          ) : null}

          {result && !failed ? (
            <>
              <h2 id="h-submission">Submission</h2>
              <div aria-live="polite">
                <SubmissionPanel submission={submission} />
              </div>
              {result.format === 'lmui' ? (
                <>
                  <h2 id="h-lmui">LMUI components</h2>
                  <LmuiList message={result.lmui} />
                </>
              ) : null}
            </>
          ) : null}

          {result?.primary ? (
            <>
              <h2 id="h-raw">
                Raw spec <span className="muted">({result.format}, HTTP {result.primary.status})</span>
              </h2>
              <JsonView value={result.primary.body} label="Raw spec" testId="raw-spec" maxHeight="32rem" />
            </>
          ) : null}
        </section>
      </main>
    </ThemeProvider>
  );
}

createRoot(document.getElementById('app')).render(<App />);
window.playgroundReady = true;
