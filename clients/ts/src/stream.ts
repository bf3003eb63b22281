/**
 * Reading the worker's Server-Sent Events into whole answers.
 *
 * The worker streams `ui` (a whole answer), `patch` (RFC 6902 operations from
 * the answer held to the next one), `done` (the run's facts) and `error` (a
 * `dgui_error`), LF-only frames with `: heartbeat` comments between them
 * (docs/streaming.md). `SseDecoder` cuts text into events; `AnswerAssembler`
 * turns events into the answers a caller sees. Both are free of I/O.
 *
 * A patch is applied (with fast-json-patch) to a copy of the answer held:
 * the caller is handed only answers whose every operation applied, each a
 * fresh object. A stream that ends before `done` is a `stream_cut` error,
 * whatever it had shown before.
 */

import jsonpatch from "fast-json-patch";
import type { Operation } from "fast-json-patch";
import { GenuiError, isRecord } from "./errors.js";

/** One SSE event: its name (`message` when unnamed) and its data text. */
export interface SseEvent {
  name: string;
  data: string;
}

/** Cuts a stream of text into events; a frame counts once its blank line arrives. */
export class SseDecoder {
  private buffer = "";

  feed(text: string): SseEvent[] {
    this.buffer += text.replaceAll("\r\n", "\n");
    const events: SseEvent[] = [];
    let end = this.buffer.indexOf("\n\n");
    while (end >= 0) {
      const event = parseFrame(this.buffer.slice(0, end));
      this.buffer = this.buffer.slice(end + 2);
      if (event) events.push(event);
      end = this.buffer.indexOf("\n\n");
    }
    return events;
  }

  /** Whether part of a frame is still waiting for its end. */
  get pending(): boolean {
    return this.buffer.trim() !== "";
  }
}

function parseFrame(frame: string): SseEvent | undefined {
  let name = "message";
  const data: string[] = [];
  for (const line of frame.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  return data.length > 0 ? { name, data: data.join("\n") } : undefined;
}

/** The `done` event's facts: which generator answered, the cache, timings. */
export type DoneFacts = Record<string, unknown>;

/** Holds the latest whole answer and the `done` facts of one stream. */
export class AnswerAssembler {
  private answer: unknown = undefined;
  private seenUi = false;
  done: DoneFacts | undefined = undefined;

  /** The new whole answer this event makes (a fresh copy), or undefined; throws on `error`. */
  take(event: SseEvent): unknown {
    if (this.done !== undefined) {
      throw new GenuiError("bad_answer", `event "${event.name}" after \`done\``);
    }
    const data = eventJson(event);
    switch (event.name) {
      case "ui":
        this.answer = data;
        this.seenUi = true;
        return structuredClone(data);
      case "patch":
        return this.patched(data);
      case "done":
        this.done = isRecord(data) ? data : {};
        return undefined;
      case "error":
        throw GenuiError.fromDguiError(data, undefined);
      default:
        return undefined;
    }
  }

  /** Throws `stream_cut` unless the stream reached `done`. */
  finish(decoder: SseDecoder): void {
    if (this.done === undefined) {
      const where = decoder.pending ? " in the middle of an event" : "";
      throw new GenuiError(
        "stream_cut",
        `the event stream ended${where} before its \`done\` event; ` +
          "the last answer seen may not be the final one",
      );
    }
  }

  private patched(operations: unknown): unknown {
    if (!this.seenUi) {
      throw new GenuiError("bad_answer", "a `patch` event came before any `ui` event");
    }
    if (!Array.isArray(operations)) {
      throw new GenuiError("bad_answer", "a `patch` event's data is not a list of operations");
    }
    try {
      const copy: unknown = structuredClone(this.answer);
      const result = jsonpatch.applyPatch(copy, operations as Operation[], true, true);
      this.answer = result.newDocument;
    } catch (error) {
      const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new GenuiError("bad_answer", `the worker's patch does not apply: ${why}`, {
        cause: error,
      });
    }
    return structuredClone(this.answer);
  }
}

function eventJson(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch (error) {
    throw new GenuiError("bad_answer", `event "${event.name}" carries no JSON`, { cause: error });
  }
}
