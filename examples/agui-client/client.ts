// An AG-UI client of genui-worker: the agent has called the frontend tool
// `generateUserInterface`; HttpAgent runs the worker's /v1/agent with that
// conversation and prints the UI the worker answers (an activity message).
//
//   npm ci && npm run typecheck && GENUI_URL=http://127.0.0.1:8787 npm start
import { HttpAgent, type Message } from "@ag-ui/client";

const base = process.env.GENUI_URL ?? "http://127.0.0.1:8787";
const key = process.env.GENUI_API_KEY; // needed when the worker has API_KEYS
const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};

const args = {
  description: "A form that collects a user's shipping address.",
  data: { firstName: "Ada", city: "London" },
  output: {
    type: "object",
    required: ["firstName", "street", "city", "country"],
    properties: {
      firstName: { type: "string", title: "First Name" },
      street: { type: "string", title: "Street Address" },
      city: { type: "string", title: "City" },
      country: { type: "string", title: "Country", enum: ["GB", "US", "DE"] },
    },
  },
};
const conversation: Message[] = [
  { id: "u1", role: "user", content: "Ship it to me, please." },
  {
    id: "a1",
    role: "assistant",
    toolCalls: [
      {
        id: "call_1",
        type: "function",
        function: { name: "generateUserInterface", arguments: JSON.stringify(args) },
      },
    ],
  },
];

const agent = new HttpAgent({ url: `${base}/v1/agent`, headers, initialMessages: conversation });
await agent.runAgent({ forwardedProps: { format: "jsonforms" } });
const ui = agent.messages.find((message) => message.role === "activity");
if (!ui) throw new Error("the run ended without a UI");
console.log(JSON.stringify({ activityType: ui.activityType, content: ui.content }, null, 2));
