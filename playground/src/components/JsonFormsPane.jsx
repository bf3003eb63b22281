// The JSON Forms answer ({jsonSchema, uiSchema, initialData}) rendered with
// the Material renderer set, plus a Submit button (JSON Forms has none) that
// sends the data to /v1/submit. JSON Forms' own validation messages stay
// hidden (ValidateAndHide): the errors on the fields are the worker's, from
// the last 422, passed as `additionalErrors`, so the page shows the
// worker's verdict and never two copies of one message.
//
// The Material text inputs pass changes on after a 300 ms debounce (flushed
// on blur, then delivered to onChange after React's next commit), so Submit
// lets that settle and reads the latest data from a ref, not the click's
// render.
import React, { useMemo, useRef, useState } from 'react';
import { JsonForms } from '@jsonforms/react';
import { materialCells, materialRenderers } from '@jsonforms/material-renderers';
import { emptyFor, toJsonFormsErrors } from '../errors.js';
import { jsonFormsAjv } from './ajv.js';

// @jsonforms/material-renderers' useDebouncedChange default.
const DEBOUNCE_MS = 300;

export function JsonFormsPane({ spec, serverErrors, onSubmit, busy }) {
  const [data, setData] = useState(spec.initialData);
  const latest = useRef(spec.initialData);
  const ajv = useMemo(() => jsonFormsAjv(spec.jsonSchema), [spec]);
  const additionalErrors = useMemo(() => toJsonFormsErrors(serverErrors), [serverErrors]);
  const submit = async (e) => {
    e.preventDefault();
    document.activeElement?.blur?.();
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 50));
    onSubmit(latest.current === undefined ? emptyFor(spec.jsonSchema) : latest.current);
  };
  return (
    <form className="renderer jsonforms" data-testid="jsonforms-form" onSubmit={submit} noValidate aria-label="Form rendered by JSON Forms">
      <JsonForms
        schema={spec.jsonSchema}
        uischema={spec.uiSchema}
        data={data}
        renderers={materialRenderers}
        cells={materialCells}
        ajv={ajv}
        validationMode="ValidateAndHide"
        additionalErrors={additionalErrors}
        onChange={({ data: next }) => {
          latest.current = next;
          setData(next);
        }}
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Submit (JSON Forms)
        </button>
      </div>
    </form>
  );
}
