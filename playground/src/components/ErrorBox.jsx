// A failed call shown plainly: the dgui_error's code, message and pointer
// (or whatever else came back), with the raw body underneath.
import React from 'react';
import { isDguiError } from '../api.js';
import { fieldErrors } from '../errors.js';
import { JsonView } from './JsonView.jsx';

export function ErrorBox({ title, record, message, testId = 'error' }) {
  const body = record?.body;
  const dgui = isDguiError(body);
  const fields = dgui ? fieldErrors(body) : [];
  return (
    <div className="error-box" role="alert" data-testid={testId}>
      <h3>{title}</h3>
      {message ? <p>{message}</p> : null}
      {record ? (
        <p>
          <span className="status bad">{record.status}</span>{' '}
          {dgui ? (
            <>
              <code className="code">{body.code}</code> {body.message}
            </>
          ) : (
            'The worker did not answer with a dgui_error.'
          )}
        </p>
      ) : null}
      {dgui && body.payload?.pointer !== undefined ? (
        <p>
          at <code>{body.payload.pointer || '(the whole body)'}</code>
        </p>
      ) : null}
      {fields.length ? (
        <ul className="field-errors" aria-label="Field errors">
          {fields.map((e, i) => (
            <li key={i}>
              <code>{e.pointer || '(root)'}</code> {e.message}
              {e.keyword ? <span className="muted"> ({e.keyword})</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {record ? (
        <details>
          <summary>Raw response</summary>
          <JsonView value={body} label="Raw error response" />
        </details>
      ) : null}
    </div>
  );
}
