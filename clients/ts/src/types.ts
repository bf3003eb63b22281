/**
 * The request and answer types: those of schemas/ are generated into
 * src/generated/ (scripts/generate.mjs); the resume entry, an AG-UI shape
 * the worker signs, is written here.
 */

export type {
  DguiError,
  DguiResponse,
  GenerateRequest,
  JsonFormsAnswer,
  RjsfAnswer,
  SubmitRequest,
  ToolMessage,
} from "./generated/contracts.js";
export type { SignedResumeEntry as ResumeEntry } from "./signatures.js";
