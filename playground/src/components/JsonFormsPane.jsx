// The JSON Forms answer ({jsonSchema, uiSchema, initialData}) rendered with
// the Material renderer set, plus a Submit button (JSON Forms has none) that
// sends the data to /v1/submit. Its own validation messages stay hidden
// until the first submit; the worker's field errors are then shown on the
// fields through `additionalErrors`.
import React, { useMemo, useState } from 'react';
import { JsonForms } from '@jsonforms/react';
import { materialCells, materialRenderers } from '@jsonforms/material-renderers';
import { emptyFor, toJsonFormsErrors } from '../errors.js';
import { jsonFormsAjv } from './ajv.js';

export function JsonFormsPane({ spec, serverErrors, onSubmit, busy }) {
  const [data, setData] = useState(spec.initialData);
  const [tried, setTried] = useState(false);
  const ajv = useMemo(() => jsonFormsAjv(spec.jsonSchema), [spec]);
  const additionalErrors = useMemo(() => toJsonFormsErrors(serverErrors), [serverErrors]);
  const submit = (e) => {
    e.preventDefault();
    setTried(true);
    onSubmit(data === undefined ? emptyFor(spec.jsonSchema) : data);
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
        validationMode={tried ? 'ValidateAndShow' : 'ValidateAndHide'}
        additionalErrors={additionalErrors}
        onChange={({ data: next }) => setData(next)}
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Submit (JSON Forms)
        </button>
      </div>
    </form>
  );
}
