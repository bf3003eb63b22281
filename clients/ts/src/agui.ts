/**
 * `@genui-worker/client/agui`: the form loop over an `@ag-ui/client`
 * `HttpAgent` pointed at the worker's `/v1/agent`. A run carrying a
 * `generateUserInterface` call (or an interrupt in
 * `forwardedProps.interrupts`) ends with the form as an activity message;
 * `submit` sends the person's data through the `Client` and answers the tool
 * message (or, for an interrupt, the signed resume entry for the next run).
 */

import type { HttpAgent } from "@ag-ui/client";
import type { Client, Format } from "./client.js";
import { specHashOf } from "./client.js";
import { GenuiError, isRecord } from "./errors.js";
import type { ResumeEntry, ToolMessage } from "./types.js";

export interface AguiForm {
  /** The activity's `activityType`, e.g. `genui.jsonforms`. */
  activityType: string;
  /** The activity's content: the worker's answer in the run's format. */
  content: Record<string, unknown>;
  specHash: string;
}

/** Runs the agent with a `generateUserInterface` call; the form, and how to submit it. */
export async function runGenerateUserInterface(
  agent: HttpAgent,
  client: Client,
  call: { toolCallId: string; arguments: object },
  options: { format?: Format } = {},
): Promise<AguiForm & { submit(data: unknown): Promise<ToolMessage | Record<string, unknown>> }> {
  const forwardedProps = {
    generateUserInterface: call.arguments,
    format: options.format ?? "jsonforms",
  };
  await agent.runAgent({ runId: `genui-${call.toolCallId}`, forwardedProps });
  const form = lastActivity(agent);
  return {
    ...form,
    submit: (data) => client.submit(form.specHash, data, { toolCallId: call.toolCallId }),
  };
}

/** Runs the agent with one AG-UI interrupt; the form, and how to answer it (the resume entry). */
export async function runInterrupt(
  agent: HttpAgent,
  client: Client,
  interrupt: { id: string } & Record<string, unknown>,
  options: { format?: Format } = {},
): Promise<
  AguiForm & { submit(data: unknown): Promise<ResumeEntry>; cancel(): Promise<ResumeEntry> }
> {
  const forwardedProps = { interrupts: [interrupt], format: options.format ?? "jsonforms" };
  await agent.runAgent({ forwardedProps });
  const form = lastActivity(agent);
  const token = interruptToken(form.content);
  return {
    ...form,
    submit: (data) => client.submitInterrupt(form.specHash, interrupt.id, token, data),
    cancel: () =>
      client.submitInterrupt(form.specHash, interrupt.id, token, undefined, { cancel: true }),
  };
}

function lastActivity(agent: HttpAgent): AguiForm {
  const activity = [...agent.messages].reverse().find((message) => message.role === "activity");
  if (!activity || !isRecord(activity.content)) {
    throw new GenuiError(
      "bad_answer",
      "the agent's run ended without a form (no activity message)",
    );
  }
  return {
    activityType: activity.activityType,
    content: activity.content,
    specHash: specHashOf(activity.content),
  };
}

/** `meta.interrupt.token` (`metadata.interrupt.token` in RJSF). */
function interruptToken(content: Record<string, unknown>): string {
  const holder = (content["meta"] ?? content["metadata"]) as
    { interrupt?: { token?: unknown } } | undefined;
  const token = holder?.interrupt?.token;
  if (typeof token !== "string") {
    throw new GenuiError(
      "bad_answer",
      "the interrupt's form carries no token (is WEBHOOK_SECRET set?)",
    );
  }
  return token;
}
