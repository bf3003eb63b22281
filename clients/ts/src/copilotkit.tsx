/**
 * `@genui-worker/client/copilotkit`: `useGenerateUserInterface(client)`
 * registers `generateUserInterface` as a CopilotKit human-in-the-loop tool
 * (`useHumanInTheLoop` of `@copilotkit/react-core/v2`). The agent sees the
 * worker's tool definition; when it calls the tool, the chat shows the
 * worker's form for the call, and once the worker accepted the person's data
 * the tool's result is the tool message's content (the validated data as JSON).
 */

import { useEffect, useMemo, useState } from "react";
import type { ComponentType, ReactElement } from "react";
import { useHumanInTheLoop } from "@copilotkit/react-core/v2";
import type {
  JsonFormsCellRendererRegistryEntry,
  JsonFormsRendererRegistryEntry,
} from "@jsonforms/core";
import type { Client } from "./client.js";
import { GenuiError, isRecord } from "./errors.js";
import { GenuiForm } from "./react.js";
import { TOOL_NAME, toolDefinition, toolParameters } from "./tool.js";
import type { GenerateUserInterfaceArgs } from "./tool.js";

export { toolParameters } from "./tool.js";
export type { GenerateUserInterfaceArgs } from "./tool.js";

export interface UseGenerateUserInterfaceOptions {
  /** `jsonforms` (default) or `rjsf`: the renderer shown in the chat. */
  format?: "jsonforms" | "rjsf";
  jsonformsRenderers?: JsonFormsRendererRegistryEntry[];
  jsonformsCells?: JsonFormsCellRendererRegistryEntry[];
  /** Only for this agent, when the app has several. */
  agentId?: string;
}

export function useGenerateUserInterface(
  client: Client,
  options: UseGenerateUserInterfaceOptions = {},
): void {
  const tool = toolDefinition();
  // One component per client and options, so a re-render keeps the form's state.
  const render: ComponentType<CardProps> = useMemo(
    () => (props: CardProps) => (
      <GenerateUserInterfaceCard {...props} client={client} options={options} />
    ),
    [client, options.format, options.agentId, options.jsonformsRenderers, options.jsonformsCells],
  );
  useHumanInTheLoop<GenerateUserInterfaceArgs>(
    {
      name: TOOL_NAME,
      description: tool.description,
      parameters: toolParameters(),
      ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
      render,
    },
    [client, options.format, options.agentId],
  );
}

interface CardProps {
  toolCallId: string;
  args: Partial<GenerateUserInterfaceArgs>;
  status: string;
  result?: string | undefined;
  respond?: ((result: unknown) => Promise<void>) | undefined;
}

/** The form for one call: fetched from the worker once the call's arguments are complete. */
function GenerateUserInterfaceCard(
  props: CardProps & { client: Client; options: UseGenerateUserInterfaceOptions },
): ReactElement {
  const { client, options, toolCallId, args, respond } = props;
  const [answer, setAnswer] = useState<Record<string, unknown> | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const ready = respond !== undefined;
  useEffect(() => {
    if (!ready || answer) return;
    const call = { tool: TOOL_NAME, toolCallId, arguments: args };
    client
      .generate(call, { format: options.format ?? "jsonforms" })
      .then((form) => (isRecord(form) ? setAnswer(form) : setFailure("not a form")))
      .catch((error: unknown) =>
        setFailure(error instanceof GenuiError ? error.message : String(error)),
      );
  }, [ready, toolCallId]);
  if (props.status === "complete") return <p>Sent.</p>;
  if (failure) return <p role="alert">{failure}</p>;
  if (!answer || !respond) return <p>Preparing the form…</p>;
  return (
    <GenuiForm
      client={client}
      answer={answer}
      toolCallId={toolCallId}
      respond={(message) =>
        void respond(
          typeof message["content"] === "string" ? message["content"] : JSON.stringify(message),
        )
      }
      {...(options.jsonformsRenderers ? { jsonformsRenderers: options.jsonformsRenderers } : {})}
      {...(options.jsonformsCells ? { jsonformsCells: options.jsonformsCells } : {})}
    />
  );
}
