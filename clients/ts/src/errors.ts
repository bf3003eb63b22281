/**
 * The one error of this package: every failure is a `GenuiError`.
 *
 * A failure the worker reports is its `dgui_error` (`schemas/dgui-error.schema.json`):
 * `code`, `message` and `payload.pointer`, with the HTTP status. A failure the
 * client finds itself has a code of its own, listed in `CLIENT_CODES` (the same
 * codes as the Python package's).
 */

/** The codes the client gives when no readable answer came; every other code is the worker's. */
export const CLIENT_CODES = {
  unreachable: "the worker could not be reached (connection refused, DNS, TLS)",
  timeout: "the worker did not answer within the client's timeout",
  bad_answer: "the worker answered something that is not what the route promises",
  stream_cut: "the event stream ended before its `done` event",
  invalid_signature: "a signature is missing, malformed, stale or does not match",
  aborted: "the caller's AbortSignal stopped the request",
} as const;

export type ClientCode = keyof typeof CLIENT_CODES;

export interface GenuiErrorOptions {
  pointer?: string | undefined;
  status?: number | undefined;
  payload?: Record<string, unknown> | undefined;
  cause?: unknown;
}

/**
 * A `dgui_error` from the worker, or one of `CLIENT_CODES`.
 * `status` is the HTTP status when the worker answered; `pointer` the JSON
 * Pointer of the offending value when known; `payload` the error's payload
 * (for `submission_invalid`, `payload.errors` names every violation).
 */
export class GenuiError extends Error {
  readonly code: string;
  readonly pointer: string | undefined;
  readonly status: number | undefined;
  readonly payload: Record<string, unknown>;

  constructor(code: string, message: string, options: GenuiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GenuiError";
    this.code = code;
    this.pointer = options.pointer;
    this.status = options.status;
    this.payload = options.payload ?? {};
  }

  /** The worker's `dgui_error` body as an error; anything else is `bad_answer`. */
  static fromDguiError(body: unknown, status: number | undefined): GenuiError {
    if (!isRecord(body) || body["type"] !== "dgui_error") {
      const shown = JSON.stringify(body)?.slice(0, 200) ?? String(body);
      return new GenuiError("bad_answer", `HTTP ${status} without a dgui_error body: ${shown}`, {
        status,
      });
    }
    const payload = isRecord(body["payload"]) ? body["payload"] : {};
    const pointer = payload["pointer"];
    const code = typeof body["code"] === "string" ? body["code"] : "bad_answer";
    const message = typeof body["message"] === "string" ? body["message"] : "";
    return new GenuiError(code, message, {
      status,
      payload,
      pointer: typeof pointer === "string" ? pointer : undefined,
    });
  }
}

/** Whether a value is a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
