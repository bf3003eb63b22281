// The format=react answer: the TSX module's source with a copy button, and
// the module itself rendered (compiled in the page by lazy/react-module.js)
// with the answer's initialData. Its `respond` hands the data to
// /v1/submit, like the other panes' submit buttons.
import React, { useEffect, useState } from 'react';

export function ReactPane({ answer, onSubmit }) {
  const [Form, setForm] = useState(null);
  const [failure, setFailure] = useState(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    import('../lazy/react-module.js')
      .then(({ loadModule }) => {
        const exports = loadModule(answer.module);
        if (live) setForm(() => exports.default);
      })
      .catch((e) => setFailure(e.message));
    return () => {
      live = false;
    };
  }, [answer]);
  const copy = async () => {
    await navigator.clipboard?.writeText(answer.module).catch(() => {});
    setCopied(true);
  };
  return (
    <div className="renderer react-pane" data-testid="react-module">
      <div className="module-head">
        <code>{answer.fileName}</code>
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy source'}
        </button>
      </div>
      <details>
        <summary>Source ({answer.module.split('\n').length} lines)</summary>
        <pre className="source" data-testid="react-source">
          {answer.module}
        </pre>
      </details>
      {failure ? <p className="error">The module could not be rendered: {failure}</p> : null}
      {Form ? <Form initialData={answer.initialData} respond={onSubmit} /> : null}
    </div>
  );
}
