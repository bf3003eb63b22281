// CPU per request of a built worker under `wrangler dev`, the method of
// issue 13: workerd's process CPU (utime + stime of every workerd process
// under wrangler, from /proc) over N sequential requests of one kind, minus
// the same for `GET /healthz`. Misses use a fresh description each time.
// Optionally drives V8's CPU profiler over the dev inspector (Chrome DevTools
// Protocol) during the misses and prints self time by function.
//
//   node bench/optimize/cpu.mjs --build build --kv none|local \
//     --forms two,seed,medium,large [--n 40] [--profile medium] [--memory]
//
// `--build` is a directory holding index.js and index_bg.wasm (a copy of
// build/); the worker is served without [build] (nothing is rebuilt) and
// without [assets]. Bodies of `medium` and `large` (the criterion bench
// forms) are read from target/optimize/<name>.json. Written for the
// optimisation work of issue 13; scripts/bench-wasm.sh is the full bench.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import net from "node:net";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith("--") ? [...pairs, [a.slice(2), all[i + 1]?.startsWith("--") || all[i + 1] === undefined ? "1" : all[i + 1]]] : pairs), []),
);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const build = path.resolve(args.build ?? "build");
const kv = args.kv ?? "none";
const forms = (args.forms ?? "two,seed,medium,large").split(",");
const n = Number(args.n ?? 40);
const nHealth = Number(args.nh ?? 300);

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function body(form, suffix) {
  const text = (title) => ({ type: "string", title });
  if (form === "two") {
    return { tool: "generateUserInterface", arguments: { description: `Sign up.${suffix}`, output: { type: "object", properties: { name: text("Name"), email: { type: "string", format: "email", title: "Email" } }, required: ["name"] } } };
  }
  if (form === "seed") {
    return {
      tool: "generateUserInterface",
      arguments: {
        description: `A form that collects a user's shipping address.${suffix}`,
        data: { firstName: "Ada", lastName: "Lovelace", city: "London" },
        output: {
          type: "object",
          required: ["firstName", "lastName", "street", "city", "postalCode", "country"],
          properties: { firstName: text("First Name"), lastName: text("Last Name"), street: text("Street Address"), city: text("City"), postalCode: text("Postal Code"), country: { type: "string", title: "Country", enum: ["GB", "US", "DE", "AT"] } },
        },
      },
    };
  }
  const b = JSON.parse(fs.readFileSync(path.join(root, "target/optimize", `${form}.json`), "utf8"));
  b.arguments.description += suffix;
  return b;
}

function descendants(pid) {
  const children = new Map();
  for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(p);
    } catch {}
  }
  const out = [];
  const walk = (p) => (children.get(String(p)) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(pid);
  return out;
}

function workerdCpuMs(pid) {
  let ticks = 0;
  for (const p of descendants(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (!name.startsWith("workerd")) continue;
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]);
    } catch {}
  }
  return ticks * 10;
}

async function main() {
  const dir = path.join(root, "target/optimize", `run-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ["index.js", "index_bg.wasm"]) fs.copyFileSync(path.join(build, f), path.join(dir, f));
  for (const f of fs.readdirSync(build)) if (!fs.existsSync(path.join(dir, f))) fs.cpSync(path.join(build, f), path.join(dir, f), { recursive: true });
  const kvBlock = kv === "local" ? `[[kv_namespaces]]\nbinding = "UI_CACHE"\nid = "00000000000000000000000000000000"\n` : "";
  fs.writeFileSync(path.join(dir, "wrangler.toml"), `name = "genui-worker"\nmain = "index.js"\ncompatibility_date = "2026-11-01"\n${kvBlock}[vars]\nSPEC_TTL_SECONDS = "604800"\nSPEC_MEMORY_BYTES = "8388608"\n`);
  const port = await freePort();
  const inspector = await freePort();
  const log = fs.openSync(path.join(dir, "wrangler.log"), "w");
  const child = spawn(path.join(root, "node_modules/.bin/wrangler"), ["dev", "--config", path.join(dir, "wrangler.toml"), "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector), "--persist-to", path.join(dir, "state"), "--show-interactive-dev-session=false", "--log-level", "warn"], {
    cwd: dir,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", PATH: `${path.join(root, "node_modules/.bin")}:${process.env.PATH}` },
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  process.on("exit", stop);
  process.on("SIGINT", () => process.exit(130));
  const base = `http://127.0.0.1:${port}`;
  globalThis.__port = port;
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break;
    } catch {}
    if (Date.now() - started > 120000) throw new Error("wrangler did not answer /healthz in 120 s; see " + dir);
    await new Promise((r) => setTimeout(r, 100));
  }
  const post = async (b) => {
    const r = await fetch(`${base}/v1/generate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`generate ${r.status}: ${text.slice(0, 300)}`);
    return [r.headers.get("x-genui-cache"), text];
  };
  let counter = 0;
  const fresh = () => ` #${process.pid}-${counter++}`;
  const measure = async (count, fn) => {
    const before = workerdCpuMs(child.pid);
    for (let i = 0; i < count; i++) await fn();
    return (workerdCpuMs(child.pid) - before) / count;
  };
  // Warm up: the isolate, the contract validators, the allocator.
  for (const form of forms) for (let i = 0; i < 3; i++) await post(body(form, fresh()));
  const healthz = await measure(nHealth, () => fetch(`${base}/healthz`).then((r) => r.text()));
  const rows = [];
  for (const form of forms) {
    const miss = await measure(n, async () => {
      const [cache] = await post(body(form, fresh()));
      if (cache !== "miss") throw new Error(`expected a miss, got ${cache}`);
    });
    const same = body(form, " #hit");
    await post(same);
    const hit = await measure(n * 2, async () => {
      const [cache] = await post(same);
      if (cache !== "hit") throw new Error(`expected a hit, got ${cache}`);
    });
    rows.push({ form, miss: miss - healthz, hit: hit - healthz });
  }
  const healthz2 = await measure(nHealth, () => fetch(`${base}/healthz`).then((r) => r.text()));
  console.log(`build ${build} kv ${kv} n ${n}: healthz ${healthz.toFixed(2)} ms then ${healthz2.toFixed(2)} ms`);
  for (const r of rows) console.log(`${r.form.padEnd(7)} miss ${r.miss.toFixed(2).padStart(7)} ms  hit ${r.hit.toFixed(2).padStart(6)} ms  (above healthz)`);
  if (args.profile) await profile(inspector, args.profile, post, fresh);
  if (args.memory) await memory(child.pid);
  stop();
  process.exit(0);
}

async function cdp(inspector) {
  const targets = await (await fetch(`http://127.0.0.1:${inspector}/json`)).json();
  if (process.env.DEBUG_CDP) console.log(JSON.stringify(targets));
  const target = targets.find((t) => t.webSocketDebuggerUrl && /genui|core:user/.test(t.title ?? "")) ?? targets[0];
  // wrangler's inspector proxy refuses node's built-in WebSocket; the `ws`
  // package (a wrangler dependency) connects.
  const { default: WS } = await import(path.join(root, "node_modules/ws/index.js"));
  const ws = new WS(target.webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((r, e) => (ws.on("open", r), ws.on("error", e)));
  ws.onmessage = null;
  let id = 0;
  const pending = new Map();
  const contexts = [];
  ws.on("message", (data) => {
    const msg = JSON.parse(String(data));
    if (msg.method === "Runtime.executionContextCreated") contexts.push(msg.params.context.id);
    if (msg.id && pending.has(msg.id)) pending.get(msg.id)(msg), pending.delete(msg.id);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const i = ++id;
      pending.set(i, (msg) => (msg.error ? reject(new Error(`${method}: ${JSON.stringify(msg.error)}`)) : resolve(msg.result)));
      ws.send(JSON.stringify({ id: i, method, params }));
    });
  return { ws, send, contexts };
}

async function profile(inspector, form, post, fresh) {
  const { ws, send } = await cdp(inspector);
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 50 });
  await send("Profiler.start");
  const count = Number(args.pn ?? 30);
  // --hit: profile hits of one body instead of misses.
  const same = body(form, " #profiled-hit");
  for (let i = 0; i < count; i++) await post(args.hit ? same : body(form, fresh()));
  const { profile: p } = await send("Profiler.stop");
  ws.close();
  fs.writeFileSync(path.join(root, "target/optimize", `profile-${form}.cpuprofile`), JSON.stringify(p));
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of p.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map();
  const total = new Map();
  const dt = new Map();
  p.samples.forEach((s, i) => dt.set(s, (dt.get(s) ?? 0) + (p.timeDeltas[i] ?? 0)));
  let all = 0;
  for (const [nodeId, us] of dt) {
    all += us;
    const name = (nid) => byId.get(nid).callFrame.functionName || `(${byId.get(nid).callFrame.url || "anon"})`;
    self.set(name(nodeId), (self.get(name(nodeId)) ?? 0) + us);
    const seen = new Set();
    for (let cur = nodeId; cur !== undefined; cur = parent.get(cur)) {
      const nm = name(cur);
      if (!seen.has(nm)) total.set(nm, (total.get(nm) ?? 0) + us), seen.add(nm);
    }
  }
  const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
  const per = (us) => (us / 1000 / count).toFixed(3).padStart(8);
  console.log(`\nprofile of ${count} ${args.hit ? "hits" : "misses"} of ${form}: ${(all / 1000 / count).toFixed(2)} ms sampled per miss (idle included)`);
  console.log("self ms/miss, function");
  for (const [nm, us] of top(self, Number(args.top ?? 45))) console.log(`${per(us)}  ${nm.slice(0, 140)}`);
  console.log("\ninclusive ms/miss, function");
  for (const [nm, us] of top(total, Number(args.top ?? 45))) console.log(`${per(us)}  ${nm.slice(0, 140)}`);
}

async function memory(pid) {
  // The inspector gives no execution context outside a request, so this
  // reads workerd's resident memory (VmRSS, wasm linear memory's touched
  // pages included) instead of the linear memory itself.
  const sizes = async () => {
    let kb = 0;
    for (const p of descendants(pid)) {
      try {
        const status = fs.readFileSync(`/proc/${p}/status`, "utf8");
        if (!/^Name:\s+workerd/m.test(status)) continue;
        kb += Number(/^VmRSS:\s+(\d+)/m.exec(status)[1]);
      } catch {}
    }
    return `workerd RSS ${(kb / 1024).toFixed(1)} MiB`;
  };
  console.log(`before the corpus: ${await sizes()}`);
  if (args.corpus) {
    const dir = path.join(root, "target/peer-corpus");
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
    const total = Number(args.corpus);
    let ok = 0, refused = 0;
    const cpu0 = workerdCpuMs(pid);
    for (let i = 0; i < total; i++) {
      const entry = manifest.schemas[i % manifest.schemas.length];
      const output = JSON.parse(fs.readFileSync(path.join(dir, entry.file), "utf8"));
      const r = await fetch(`http://127.0.0.1:${globalThis.__port}/v1/generate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ description: `corpus ${i}`, output }) });
      await r.text();
      r.status === 200 ? ok++ : refused++;
      if ([0, 99, 999, total - 1].includes(i)) console.log(`after ${i + 1} distinct misses (${ok} answered, ${refused} refused): ${await sizes()}, workerd CPU ${((workerdCpuMs(pid) - cpu0) / (i + 1)).toFixed(1)} ms per request so far`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
