/**
 * The `generateUserInterface` tool definition, shipped with the package
 * (generated from the worker's definition; a worker test compares it with
 * what `GET /v1/tool` serves). `Client.tool()` fetches the live one.
 */

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
