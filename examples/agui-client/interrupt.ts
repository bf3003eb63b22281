// An AG-UI client that answers an agent's interrupts with genui-worker:
// HttpAgent runs the agent; the run ends with RUN_FINISHED's interrupt
// outcome; each interrupt goes to the worker's /v1/interrupt, which answers
// a proven form; the person's answer goes to /v1/submit, which validates it
// and answers a signed AG-UI resume entry; the client resumes the run with
// those entries.
//
//   AGENT_URL=http://127.0.0.1:8000/agent GENUI_URL=http://127.0.0.1:8787 node interrupt.ts '{"quarter":"Q1","year":2026,"revenue":4200000}'
//
// The argument stands in for what the person types into the form.
import { HttpAgent, type Interrupt, type ResumeEntry } from "@ag-ui/client";

const base = process.env.GENUI_URL ?? "http://127.0.0.1:8787";
const agentUrl = process.env.AGENT_URL ?? "http://127.0.0.1:8000/agent";
const key = process.env.GENUI_API_KEY; // needed when the worker has API_KEYS
const typed: unknown = JSON.parse(process.argv[2] ?? "{}");

async function post(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

// The form the worker makes of one interrupt, and the entry it signs for the answer.
async function answer(interrupt: Interrupt): Promise<{ form: Record<string, any>; entry: ResumeEntry }> {
  const form = await post("/v1/interrupt", { interrupt, format: "jsonforms" });
  const entry = (await post("/v1/submit", {
    specHash: form.meta.specHash,
    interruptId: interrupt.id,
    interruptToken: form.meta.interrupt.token,
    data: typed,
  })) as ResumeEntry;
  return { form, entry };
}

const agent = new HttpAgent({ url: agentUrl, threadId: `thread-${Date.now()}` });
await agent.runAgent();
const interrupts = agent.pendingInterrupts;
if (interrupts.length === 0) throw new Error("the run ended without an interrupt");
const answered = await Promise.all(interrupts.map(answer));
await agent.runAgent({ resume: answered.map(({ entry }) => entry) });
console.log(
  JSON.stringify({
    interrupts,
    forms: answered.map(({ form }) => ({ specHash: form.meta.specHash, title: form.meta.title })),
    resume: answered.map(({ entry }) => entry),
    state: agent.state,
    stillPending: agent.pendingInterrupts.length,
  }),
);
