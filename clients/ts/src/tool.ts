/**
 * The `generateUserInterface` tool definition, shipped with the package
 * (generated from the worker's definition; a worker test compares it with
 * what `GET /v1/tool` serves). `Client.tool()` fetches the live one.
 */

import { isRecord } from "./errors.js";
import { TOOL_DEFINITION } from "./generated/tool.js";

export const TOOL_NAME = TOOL_DEFINITION.name;

/** `{name, description, parameters}` as agent frameworks take a function tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The definition: a fresh copy each call. */
export function toolDefinition(): ToolDefinition {
  return structuredClone(TOOL_DEFINITION) as unknown as ToolDefinition;
}

/** The tool's arguments, as the worker's definition lists them. */
export interface GenerateUserInterfaceArgs extends Record<string, unknown> {
  description: string;
  data?: Record<string, unknown>;
  output?: Record<string, unknown>;
  instructions?: string;
}

/**
 * The worker's parameters as a Standard Schema with its JSON Schema, so the
 * agent is offered the worker's definition word for word (CopilotKit and
 * other Standard Schema frameworks read `~standard.jsonSchema`).
 */
export function toolParameters() {
  const jsonSchema = () => toolDefinition().parameters;
  return {
    "~standard": {
      version: 1 as const,
      vendor: "genui-worker",
      validate: (value: unknown) =>
        isRecord(value) && typeof value["description"] === "string"
          ? { value: value as GenerateUserInterfaceArgs }
          : { issues: [{ message: "`description` must be a string", path: ["description"] }] },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}
