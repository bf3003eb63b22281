/**
 * `Client`: the worker's routes as TypeScript calls, every failure a `GenuiError`.
 *
 * Each call is first described as a `Request` (method, path, body, whether it
 * may be sent twice), then sent by one `send` loop; streams go through
 * `AnswerStream`. Retries, as in the Python package: only requests that give
 * the same answer when sent twice (`GET /v1/tool`, `POST /v1/generate`,
 * `POST /v1/interrupt`, `POST /v1/specs/{specHash}/render`: an answer is
 * addressed by its spec's hash) are sent again, after a connection failure, a
 * timeout or a 502/503/504. `submit`, `submitInterrupt` and `webhook` are sent
 * once (a webhook is accepted once; a tool message carries a new id), and so
 * is a stream.
 */

import { GenuiError } from "./errors.js";
import { signWebhook } from "./signatures.js";
import { AnswerAssembler, SseDecoder } from "./stream.js";
import type { DoneFacts } from "./stream.js";
import type { ToolDefinition } from "./tool.js";
import type { ResumeEntry, ToolMessage } from "./types.js";

/** Statuses after which an idempotent request is sent again. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
const EVENT_STREAM = "text/event-stream";

/** A format the worker renders (`?format=`). */
export type Format = "jsonforms" | "rjsf" | "dgui" | "lmui" | "a2ui" | "react" | "html";

export interface ClientOptions {
  /** The worker's origin, e.g. `https://genui.example.workers.dev`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string | undefined;
  /** Milliseconds per request; for a stream, the longest wait between two reads. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Extra sends of an idempotent request. Default 2. */
  retries?: number | undefined;
  /** The first pause before a retry, doubled each time. Default 250. */
  backoffMs?: number | undefined;
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch | undefined;
}

export interface CallOptions {
  format?: Format | undefined;
  signal?: AbortSignal | undefined;
}

/** One request to the worker, and whether it may be sent twice. */
interface Request {
  method: "GET" | "POST";
  path: string;
  body?: string | undefined;
  query?: Record<string, string> | undefined;
  headers?: Record<string, string> | undefined;
  idempotent: boolean;
  /** Every route answers JSON, except an answer in `format=html` (a page). */
  answersJson: boolean;
  signal?: AbortSignal | undefined;
}

/** What `/v1/generate` and the other form routes answer: JSON, or a page's text for html. */
export type Answer = Record<string, unknown> | string;

export class Client {
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly fetcher: typeof fetch;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.headers = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retries = Math.max(0, options.retries ?? 2);
    this.backoffMs = options.backoffMs ?? 250;
    this.fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The `generateUserInterface` definition the worker serves (`GET /v1/tool`). */
  async tool(options: { signal?: AbortSignal } = {}): Promise<ToolDefinition> {
    const request: Request = {
      method: "GET",
      path: "/v1/tool",
      idempotent: true,
      answersJson: true,
    };
    request.signal = options.signal;
    return (await this.send(request)) as ToolDefinition;
  }

  /** The UI for a tool call (any shape `/v1/generate` accepts); the page's text for `format: "html"`. */
  async generate(call: object, options: CallOptions = {}): Promise<Answer> {
    return (await this.send(generateRequest(call, options))) as Answer;
  }

  /** The UI as it improves: each item a whole answer, patches applied; `.done` after the end. */
  stream(call: object, options: CallOptions = {}): AnswerStream {
    const request = generateRequest(call, options);
    return new AnswerStream((assembler) => this.events(request, assembler));
  }

  /** Checks the person's data; the AG-UI tool message (with `toolCallId`) or the dgui_response. */
  async submit(
    specHash: string,
    data: unknown,
    options: { toolCallId?: string; signal?: AbortSignal } = {},
  ): Promise<ToolMessage | Record<string, unknown>> {
    const body: Record<string, unknown> = { specHash, data };
    if (options.toolCallId !== undefined) body["toolCallId"] = options.toolCallId;
    return (await this.send(postJson("/v1/submit", body, options.signal))) as ToolMessage;
  }

  /** The form for an AG-UI interrupt; `meta.interrupt.token` is for `submitInterrupt`. */
  async interrupt(
    interrupt: object,
    options: CallOptions & { data?: unknown } = {},
  ): Promise<Answer> {
    const body: Record<string, unknown> = { interrupt };
    if (options.data !== undefined) body["data"] = options.data;
    return (await this.send(formRequest("/v1/interrupt", body, options))) as Answer;
  }

  /** The person's answer to an interrupt (or its cancel); the signed AG-UI resume entry. */
  async submitInterrupt(
    specHash: string,
    interruptId: string,
    interruptToken: string,
    data?: unknown,
    options: { cancel?: boolean; signal?: AbortSignal } = {},
  ): Promise<ResumeEntry> {
    const body: Record<string, unknown> = { specHash, interruptId, interruptToken };
    if (options.cancel) body["status"] = "cancelled";
    else body["data"] = data;
    return (await this.send(postJson("/v1/submit", body, options.signal))) as ResumeEntry;
  }

  /** A cached form rendered again with the data typed so far (`POST /v1/specs/{specHash}/render`). */
  async rerender(
    specHash: string,
    data?: unknown,
    options: CallOptions & { toolCallId?: string } = {},
  ): Promise<Answer> {
    const body: Record<string, unknown> = {};
    if (data !== undefined) body["data"] = data;
    if (options.toolCallId !== undefined) body["toolCallId"] = options.toolCallId;
    const path = `/v1/specs/${encodeURIComponent(specHash)}/render`;
    return (await this.send(formRequest(path, body, options))) as Answer;
  }

  /** A signed `POST /v1/webhook`; the worker also POSTs the answer, signed, to `callbackUrl`. */
  async webhook(
    call: object,
    secret: string,
    options: { callbackUrl?: string; signal?: AbortSignal } = {},
  ): Promise<Answer> {
    const withCallback = options.callbackUrl ? { ...call, callbackUrl: options.callbackUrl } : call;
    const request = postJson("/v1/webhook", withCallback, options.signal);
    request.headers = { "x-genui-signature": await signWebhook(secret, request.body ?? "") };
    return (await this.send(request)) as Answer;
  }

  /** Sends a request, again after a transport failure or a 502/503/504 if it is idempotent. */
  private async send(request: Request): Promise<unknown> {
    const attempts = 1 + (request.idempotent ? this.retries : 0);
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt === attempts;
      try {
        const response = await this.fetchOnce(request, this.timeoutMs);
        if (last || !RETRY_STATUSES.has(response.status))
          return await readAnswer(response, request);
        await response.body?.cancel();
      } catch (error) {
        if (error instanceof GenuiError) throw error; // the worker's refusal, or its garbage
        const failure = transportError(error, request);
        if (last || failure.code === "aborted") throw failure;
      }
      await pause(this.backoffMs * 2 ** (attempt - 1), request.signal);
    }
  }

  /**
   * One fetch, stopped by the caller's signal or by the timeout; for a
   * stream (`timeoutMs` undefined) the caller's own timers bound each read.
   */
  private async fetchOnce(request: Request, timeoutMs: number | undefined): Promise<Response> {
    const url = new URL(this.baseUrl + request.path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      url.searchParams.set(key, value);
    }
    const headers: Record<string, string> = { ...this.headers, ...request.headers };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    const signals = timeoutMs === undefined ? [] : [AbortSignal.timeout(timeoutMs)];
    if (request.signal) signals.push(request.signal);
    return await this.fetcher(url, {
      method: request.method,
      headers,
      body: request.body,
      signal: AbortSignal.any(signals),
    });
  }

  private async *events(request: Request, assembler: AnswerAssembler): AsyncGenerator<unknown> {
    const stop = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, stop.signal]) : stop.signal;
    const streaming = { ...request, signal, headers: { accept: EVENT_STREAM } };
    let response: Response;
    try {
      response = await within(this.fetchOnce(streaming, undefined), this.timeoutMs, stop);
    } catch (error) {
      stop.abort();
      throw transportError(error, request);
    }
    if (!isEventStream(response) || response.body === null) {
      throw await streamRefused(response, request);
    }
    const decoder = new SseDecoder();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const chunk = await within(reader.read(), this.timeoutMs, stop);
        if (chunk.done) break;
        for (const event of decoder.feed(chunk.value)) {
          const answer = assembler.take(event);
          if (answer !== undefined) yield answer;
        }
      }
    } catch (error) {
      if (error instanceof GenuiError) throw error;
      if (request.signal?.aborted) throw transportError(error, request);
      assembler.finish(decoder); // a read that broke off is a cut stream
      throw transportError(error, request);
    } finally {
      stop.abort();
    }
    assembler.finish(decoder);
  }
}

/**
 * The answers of one stream, each whole and a fresh object; iterate with
 * `for await`. `done` holds the run's facts once the stream ended.
 */
export class AnswerStream implements AsyncIterable<Answer> {
  private readonly assembler = new AnswerAssembler();
  private readonly answers: AsyncGenerator<unknown>;

  constructor(start: (assembler: AnswerAssembler) => AsyncGenerator<unknown>) {
    this.answers = start(this.assembler);
  }

  [Symbol.asyncIterator](): AsyncIterator<Answer> {
    return this.answers as AsyncGenerator<Answer>;
  }

  get done(): DoneFacts | undefined {
    return this.assembler.done;
  }
}

/** `meta.specHash` of a JSON Forms, LMUI or React answer, or `metadata.specHash` of RJSF. */
export function specHashOf(answer: unknown): string {
  const holder = answer as { meta?: { specHash?: unknown }; metadata?: { specHash?: unknown } };
  const hash = holder?.meta?.specHash ?? holder?.metadata?.specHash;
  if (typeof hash !== "string") {
    throw new GenuiError("bad_answer", "the answer carries no meta.specHash or metadata.specHash");
  }
  return hash;
}

function generateRequest(call: object, options: CallOptions): Request {
  return formRequest("/v1/generate", call, options);
}

function formRequest(path: string, body: object, options: CallOptions): Request {
  const request = postJson(path, body, options.signal);
  request.idempotent = true;
  request.answersJson = options.format !== "html";
  if (options.format) request.query = { format: options.format };
  return request;
}

function postJson(path: string, body: object, signal: AbortSignal | undefined): Request {
  return {
    method: "POST",
    path,
    body: JSON.stringify(body),
    idempotent: false,
    answersJson: true,
    signal,
  };
}

/** The answer's JSON (a page's text for `format=html`), or the GenuiError it carries. */
async function readAnswer(response: Response, request: Request): Promise<unknown> {
  const text = await response.text();
  if (response.status < 400 && !request.answersJson) return text;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new GenuiError(
      "bad_answer",
      `${where(request)}: HTTP ${response.status} answered non-JSON: ${JSON.stringify(text.slice(0, 200))}`,
      { status: response.status },
    );
  }
  if (response.status >= 400) throw GenuiError.fromDguiError(body, response.status);
  return body;
}

async function streamRefused(response: Response, request: Request): Promise<GenuiError> {
  const text = await response.text().catch(() => "");
  try {
    return GenuiError.fromDguiError(JSON.parse(text) as unknown, response.status);
  } catch {
    return new GenuiError(
      "bad_answer",
      `${where(request)}: HTTP ${response.status}, not an event stream: ${JSON.stringify(text.slice(0, 200))}`,
      { status: response.status },
    );
  }
}

function isEventStream(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return response.status < 400 && type.startsWith(EVENT_STREAM);
}

/** A failed fetch or read as a GenuiError: aborted by the caller, timed out, or unreachable. */
function transportError(error: unknown, request: Request): GenuiError {
  if (error instanceof GenuiError) return error;
  if (request.signal?.aborted) {
    return new GenuiError("aborted", `${where(request)}: aborted by the caller`, { cause: error });
  }
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError") {
    return new GenuiError("timeout", `${where(request)}: no answer within the timeout`, {
      cause: error,
    });
  }
  const why = error instanceof Error ? `${error.message}${causeText(error)}` : String(error);
  return new GenuiError("unreachable", `${where(request)}: ${why}`, { cause: error });
}

function causeText(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error ? ` (${cause.message})` : "";
}

function where(request: Request): string {
  return `${request.method} ${request.path}`;
}

/** What `work` gives, or a TimeoutError (and `stop` aborted) if nothing comes within `timeoutMs`. */
async function within<T>(work: Promise<T>, timeoutMs: number, stop: AbortController): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DOMException("no answer within the timeout", "TimeoutError");
      stop.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
