/**
 * `@genui-worker/client/react`: `<GenuiForm>` renders a JSON Forms or RJSF
 * answer of the worker (chosen by its shape: `jsonSchema` + `uiSchema`, or
 * RJSF's `dgui_form`) and calls `respond` with the tool message once the
 * worker accepted the person's data; a refusal shows each field's error by
 * its pointer. A2UI answers are not rendered here (use an A2UI renderer).
 */

import { useState } from "react";
import type { ReactElement } from "react";
import { JsonForms } from "@jsonforms/react";
import type {
  JsonFormsCellRendererRegistryEntry,
  JsonFormsRendererRegistryEntry,
  UISchemaElement,
} from "@jsonforms/core";
import RjsfForm from "@rjsf/core";
import validator from "@rjsf/validator-ajv8";
import type { Client } from "./client.js";
import { specHashOf } from "./client.js";
import { GenuiError, isRecord } from "./errors.js";
import type { ToolMessage } from "./types.js";

export interface GenuiFormProps {
  client: Client;
  /** The worker's answer: JSON Forms (`jsonSchema`, `uiSchema`) or RJSF (`type: "dgui_form"`). */
  answer: Record<string, unknown>;
  /** Called with what the worker answers for valid data (the tool message with a toolCallId). */
  respond: (result: ToolMessage | Record<string, unknown>) => void;
  toolCallId?: string;
  /** The JSON Forms renderer set (e.g. `@jsonforms/vanilla-renderers`' `vanillaRenderers`). */
  jsonformsRenderers?: JsonFormsRendererRegistryEntry[];
  jsonformsCells?: JsonFormsCellRendererRegistryEntry[];
}

/** Which renderer an answer is for, by its shape. */
export function rendererOf(answer: unknown): "jsonforms" | "rjsf" | undefined {
  if (isRecord(answer) && isRecord(answer["jsonSchema"]) && isRecord(answer["uiSchema"]))
    return "jsonforms";
  if (isRecord(answer) && answer["type"] === "dgui_form" && isRecord(answer["schema"]))
    return "rjsf";
  return undefined;
}

export function GenuiForm(props: GenuiFormProps): ReactElement {
  const { answer } = props;
  const renderer = rendererOf(answer);
  const initial = renderer === "rjsf" ? answer["formData"] : answer["initialData"];
  const [data, setData] = useState<unknown>(initial ?? {});
  const [refusal, setRefusal] = useState<GenuiError | undefined>(undefined);
  const send = async (value: unknown) => {
    try {
      const options = props.toolCallId === undefined ? {} : { toolCallId: props.toolCallId };
      props.respond(await props.client.submit(specHashOf(answer), value, options));
      setRefusal(undefined);
    } catch (error) {
      setRefusal(error instanceof GenuiError ? error : new GenuiError("bad_answer", String(error)));
    }
  };
  if (renderer === undefined) {
    return <p role="alert">This answer is not a JSON Forms or RJSF form.</p>;
  }
  const errors =
    (refusal?.payload["errors"] as Array<{ pointer?: string; message?: string }>) ?? [];
  const refused = refusal && (
    <ul role="alert">
      {errors.length === 0 ? (
        <li>{refusal.message}</li>
      ) : (
        errors.map((e) => (
          <li key={e.pointer ?? e.message}>{`${e.pointer ?? ""} ${e.message ?? ""}`}</li>
        ))
      )}
    </ul>
  );
  if (renderer === "rjsf") {
    // RJSF renders its own <form> and submit button; it checks in the browser first.
    return (
      <>
        <RjsfForm
          schema={answer["schema"] as object}
          uiSchema={(answer["uiSchema"] ?? {}) as Record<string, never>}
          formData={data}
          validator={validator}
          onChange={({ formData }) => setData(formData)}
          onSubmit={({ formData }) => void send(formData)}
        />
        {refused}
      </>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void send(data);
      }}
    >
      <JsonForms
        schema={answer["jsonSchema"] as object}
        uischema={answer["uiSchema"] as UISchemaElement}
        data={data}
        renderers={props.jsonformsRenderers ?? []}
        cells={props.jsonformsCells ?? []}
        onChange={({ data: changed }) => setData(changed)}
      />
      {refused}
      <button type="submit">Submit</button>
    </form>
  );
}
