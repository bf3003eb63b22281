// The DGUI dgui_form ({schema, uiSchema, formData}) rendered with
// react-jsonschema-form's default theme. RJSF validates before it calls
// onSubmit; the data then goes to /v1/submit, and the worker's field errors
// come back onto the fields as `extraErrors`.
import React, { useMemo, useState } from 'react';
import Form from '@rjsf/core';
import { toRjsfErrors } from '../errors.js';
import { rjsfValidator } from './ajv.js';

export function RjsfPane({ form, serverErrors, onSubmit, busy }) {
  const [data, setData] = useState(form.formData);
  const extraErrors = useMemo(() => (serverErrors.length ? toRjsfErrors(serverErrors) : undefined), [serverErrors]);
  return (
    <div className="renderer rjsf-pane" data-testid="rjsf-form">
      <Form
        schema={form.schema}
        uiSchema={form.uiSchema ?? {}}
        formData={data}
        validator={rjsfValidator(form.schema)}
        extraErrors={extraErrors}
        noHtml5Validate
        disabled={busy}
        onChange={(e) => setData(e.formData)}
        onSubmit={(e) => onSubmit(e.formData)}
      />
    </div>
  );
}
