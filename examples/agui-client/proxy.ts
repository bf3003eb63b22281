// An AG-UI client whose agent is reached through genui-worker (proxy mode):
// HttpAgent runs genui-worker's /v1/agent with forwardedProps.upstream naming
// an agent of the worker's GENUI_AGENTS setting; the worker relays the agent's
// events and, before the RUN_FINISHED that carries the agent's interrupts,
// adds a proven form for each as an ACTIVITY_SNAPSHOT. The person's answer
// goes to /v1/submit, which answers a signed AG-UI resume entry, and the
// client resumes through /v1/agent the same way.
//
//   GENUI_URL=http://127.0.0.1:8787 UPSTREAM=graph node proxy.ts '{"quarter":"Q1","year":2026,"revenue":4200000}'
//
// The argument stands in for what the person types into the form.
import { HttpAgent, type BaseEvent, type ResumeEntry } from "@ag-ui/client";

const base = process.env.GENUI_URL ?? "http://127.0.0.1:8787";
const upstream = process.env.UPSTREAM ?? "graph";
const key = process.env.GENUI_API_KEY; // needed when the worker has API_KEYS
const typed: unknown = JSON.parse(process.argv[2] ?? "{}");
const authorization: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};

async function post(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...authorization },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

// @ag-ui/client checks every event against @ag-ui/core's schema for its type
// and warns (with this prefix) about what it had to strip or drop.
const schemaWarnings: string[] = [];
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (String(args[0]).startsWith("[ag-ui][enforce]")) schemaWarnings.push(String(args[0]));
  warn(...args);
};

// The event types of both runs, and the worker's forms (activity contents).
const seen: string[] = [];
const forms: Record<string, any>[] = [];
const subscriber = {
  onEvent({ event }: { event: BaseEvent }) {
    seen.push(event.type);
    if (event.type === "ACTIVITY_SNAPSHOT") forms.push((event as BaseEvent & { content: Record<string, any> }).content);
  },
};

const forwardedProps = { upstream, format: "jsonforms" };
const agent = new HttpAgent({ url: `${base}/v1/agent`, threadId: `thread-${Date.now()}`, headers: authorization });
await agent.runAgent({ forwardedProps }, subscriber);
const interrupts = agent.pendingInterrupts;
if (forms.length === 0) throw new Error(`the run brought no form: ${seen.join(", ")}`);

// Each form's answer, signed by the worker for the interrupt it was made for.
const resume: ResumeEntry[] = [];
for (const form of forms) {
  const entry = await post("/v1/submit", {
    specHash: form.meta.specHash,
    interruptId: form.meta.interrupt.id,
    interruptToken: form.meta.interrupt.token,
    data: typed,
  });
  resume.push(entry as ResumeEntry);
}
await agent.runAgent({ forwardedProps, resume }, subscriber);
console.log(
  JSON.stringify({
    events: seen,
    schemaWarnings,
    interrupts,
    forms: forms.map((form) => ({ specHash: form.meta.specHash, title: form.meta.title })),
    resume,
    state: agent.state,
    stillPending: agent.pendingInterrupts.length,
  }),
);
