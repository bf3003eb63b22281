// A scripted worker on 127.0.0.1 for the unit tests: each request is answered
// by the next step of the script (the last one repeats), and every request is
// kept for the test to look at.

import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Step = (response: ServerResponse, seen: Seen) => void;

export interface Scripted {
  baseUrl: string;
  seen: Seen[];
  close(): Promise<void>;
}

export async function scripted(...steps: Step[]): Promise<Scripted> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const one = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      seen.push(one);
      const step = steps[Math.min(seen.length, steps.length) - 1];
      step?.(response, one);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(status: number, body: unknown): Step {
  return (response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
}

export function text(status: number, body: string, type = "text/plain"): Step {
  return (response) => {
    response.writeHead(status, { "content-type": type });
    response.end(body);
  };
}

/** An event stream of these frames; `cut` drops the connection instead of ending it. */
export function events(frames: string[], cut = false): Step {
  return (response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const frame of frames) response.write(frame);
    // A cut drops the connection once the frames have gone out, as a proxy's reset would.
    if (cut) setTimeout(() => response.destroy(), 50);
    else response.end();
  };
}

/** Never answers (for timeouts). */
export const silent: Step = () => undefined;

export function frame(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
