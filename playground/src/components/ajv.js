// Both renderers validate with Ajv's draft-07 dialect unless told otherwise;
// a schema that declares 2020-12 gets Ajv2020, as a real app must configure
// (the worker hands back `output` unchanged). Same choice as tests/browser.
import { createAjv } from '@jsonforms/core';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import validator, { customizeValidator } from '@rjsf/validator-ajv8';

const is2020 = (schema) => typeof schema?.$schema === 'string' && /draft\/2020-12/.test(schema.$schema);

export function jsonFormsAjv(schema) {
  if (!is2020(schema)) return createAjv();
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, addUsedSchema: false });
  addFormats(ajv);
  return ajv;
}

const validator2020 = customizeValidator({ AjvClass: Ajv2020 });
export const rjsfValidator = (schema) => (is2020(schema) ? validator2020 : validator);
