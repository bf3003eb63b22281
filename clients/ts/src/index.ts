/**
 * `@genui-worker/client`: the worker's routes as typed calls (`Client`), the
 * one error type (`GenuiError`), the `generateUserInterface` tool definition,
 * and the signatures. Imports no renderer: the React, CopilotKit and AG-UI
 * bindings live in the subpaths `/react`, `/copilotkit` and `/agui`.
 */

export { AnswerStream, Client, RETRY_STATUSES, specHashOf } from "./client.js";
export type { Answer, CallOptions, ClientOptions, Format } from "./client.js";
export { CLIENT_CODES, GenuiError } from "./errors.js";
export type { ClientCode } from "./errors.js";
export {
  APPROVAL_SCHEMA,
  SIGNATURE_HEADER,
  parseHeader,
  resumeSignedString,
  schemaDigest,
  signWebhook,
  verifyCallback,
  verifyResumeEntry,
  verifyWebhook,
} from "./signatures.js";
export type { ResumeExpectation } from "./signatures.js";
export { AnswerAssembler, SseDecoder } from "./stream.js";
export type { DoneFacts, SseEvent } from "./stream.js";
export { TOOL_NAME, toolDefinition, toolParameters } from "./tool.js";
export type { GenerateUserInterfaceArgs, ToolDefinition } from "./tool.js";
export type * from "./types.js";
