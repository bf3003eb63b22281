//! CPU and memory of the shipped wasm under `wrangler dev`, run by
//! `scripts/bench-wasm.sh`:
//!
//! `bench-wasm <inputs.json> <out.json> <name>=<wrangler config> ...`
//!
//! For each wrangler configuration (the script passes one with KV unbound
//! and one with Miniflare's local KV, both serving the exact `build/`
//! artefact, with no `[build]` step), in a fresh `wrangler dev`:
//!
//! 1. `wasmMemoryBytes` from `GET /healthz` (the isolate's linear memory)
//!    before any generate request;
//! 2. the fresh isolate's first request: a miss of the 50-field form;
//! 3. 1,000 distinct cold misses over the peer corpus (each schema once per
//!    pass, its `$comment` made unique), with the linear memory after 1, 100
//!    and 1,000 of them, and each one's CPU;
//! 4. `/healthz`'s mean CPU per request (the floor: workerd's routing,
//!    wrangler's proxy worker, the JS glue, our router; subtracted from the
//!    corpus figures), then every other case of the inputs (forms by kind,
//!    size and format; the worst inputs): its own floor (the median of 40
//!    `/healthz` just before it), then `warmup` calls and `n` timed ones;
//! 5. a burst of 10 distinct misses of the largest accepted schema, then the
//!    linear memory again.
//!
//! CPU is read from the kernel, not from a clock: the sum over every thread
//! of every `workerd` process below wrangler of `/proc/<pid>/task/<tid>/
//! schedstat`'s first field (nanoseconds on a CPU), before and after each
//! request. That is workerd's whole process: the user worker's isolate and
//! also Miniflare's services in the same process (the local KV simulation,
//! the dev proxy worker), which is why the KV-unbound configuration is the
//! one that attributes CPU to our code. wrangler's own node process is not
//! counted. Work a request leaves behind (a `waitUntil` KV write, logging)
//! lands in the next request's window; sums over many requests are exact.
//! With workerd alone, the start-up and the first request are also read for
//! the main thread alone (`startupIsolateMs`, `first.isolateMs`; null
//! under `wrangler dev`): the isolate's thread, the closest to what the
//! platform bills (it also runs workerd's own HTTP handling); V8's own
//! threads compile
//! and tier up wasm in the background, and most of a fresh isolate's
//! extra CPU is theirs.
//!
//! A benchmark: it asserts no time. It fails only when a form request does
//! not answer as expected (status, `meta.cache` hit or miss).

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use genui_harness::{Options, Workerd, WranglerDev};
use serde_json::{json, Map, Value};

/// Bound on one configuration's run.
const BUDGET: Duration = Duration::from_secs(900);
/// `/healthz` requests for the floor.
const N_HEALTHZ: usize = 300;
/// Distinct corpus misses in the memory run.
const N_CORPUS_MISSES: usize = 1000;
/// Misses of the largest schema in the burst.
const N_BURST: usize = 10;
/// `/healthz` requests for each case's own floor.
const N_FLOOR: usize = 40;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [inputs, out, configs @ ..] = args.as_slice() else {
        eprintln!("usage: bench-wasm <inputs.json> <out.json> <name>=<wrangler config>...");
        return ExitCode::FAILURE;
    };
    let inputs: Value = match std::fs::read(inputs)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            eprintln!("bench-wasm: {inputs}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut runs = Vec::new();
    let mut failures = 0;
    for config in configs {
        let Some((name, path)) = config.split_once('=') else {
            eprintln!("bench-wasm: {config}: expected <name>=<wrangler config>");
            return ExitCode::FAILURE;
        };
        match run(name, path, &inputs) {
            Ok((figures, failed)) => {
                runs.push(figures);
                failures += failed;
            }
            Err(e) => {
                eprintln!("bench-wasm: {name}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let report = json!({"driver": "workerd", "configs": runs});
    if let Err(e) = std::fs::write(out, serde_json::to_string_pretty(&report).expect("JSON")) {
        eprintln!("bench-wasm: writing {out}: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("bench-wasm: wrote {out}");
    if failures > 0 {
        eprintln!("bench-wasm: {failures} request(s) did not answer as expected");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// One configuration's figures and its count of unexpected answers.
fn run(name: &str, config: &str, inputs: &Value) -> Result<(Value, usize), String> {
    eprintln!("bench-wasm: {name} ({config})");
    let server = Server::start(config)?;
    let root = server.pid().ok_or("the worker is not running")?;
    let mut b = Bench {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into(),
        base: server.base_url(),
        workerd: workerd_pids(root),
        placeholder: inputs["placeholder"]
            .as_str()
            .ok_or("inputs: placeholder")?
            .to_owned(),
        fresh: 0,
        deadline: Instant::now() + BUDGET,
        failures: Vec::new(),
    };
    if b.workerd.is_empty() {
        return Err(format!("no workerd process at or under pid {root}"));
    }
    // What the process spent before it answered: starting, parsing and
    // compiling the script, the module's start, the readiness `/healthz`.
    let startup_ms = b.cpu_ns() as f64 / 1e6;
    let startup_isolate_ms = isolate_ns(root).map(|ns| ns as f64 / 1e6);
    let cases = inputs["cases"].as_array().ok_or("inputs: cases")?;
    let find = |id: &str| {
        cases
            .iter()
            .find(|c| c["id"] == id)
            .ok_or(format!("inputs: no case {id}"))
    };
    let corpus: Vec<&Value> = cases.iter().filter(|c| c["group"] == "corpus").collect();

    let mut memory =
        vec![json!({"after": "isolate started (only /healthz so far)", "bytes": b.memory()?})];
    let isolate_before = isolate_ns(root);
    let first = b.call(find("miss/jsonforms/50")?)?;
    let first_isolate_ms = isolate_ns(root)
        .zip(isolate_before)
        .map(|(after, before)| after.saturating_sub(before) as f64 / 1e6);
    memory.push(
        json!({"after": "its first request, a miss of the 50-field form", "bytes": b.memory()?}),
    );
    let first = json!({"id": "miss/jsonforms/50", "cpuMs": first.cpu_ms, "isolateMs": first_isolate_ms, "wallMs": first.wall_ms, "status": first.status});

    let mut results = Vec::new();
    for i in 1..=N_CORPUS_MISSES {
        let c = corpus[(i - 1) % corpus.len()];
        let r = b.call(c)?;
        let pass = (i - 1) / corpus.len() + 1;
        results.push(json!({"id": format!("{}#pass{pass}", c["id"].as_str().unwrap_or("")), "ms": [r.cpu_ms], "status": {r.status.to_string(): 1}, "hits": 0}));
        if [1, 100, N_CORPUS_MISSES].contains(&i) {
            memory.push(
                json!({"after": format!("{i} distinct corpus misses"), "bytes": b.memory()?}),
            );
        }
    }

    let healthz = b.healthz_cpu(N_HEALTHZ)?;
    for c in cases.iter().filter(|c| c["group"] != "corpus") {
        results.push(b.case(c)?);
    }
    let largest = find("worst/largest-schema-under-limits")?;
    for _ in 0..N_BURST {
        b.call(largest)?;
    }
    memory.push(json!({"after": format!("then {N_BURST} distinct misses of the largest accepted schema"), "bytes": b.memory()?}));
    let threads: usize = b.workerd.iter().map(|pid| tasks(*pid).len()).sum();
    let failures = b.failures.len();
    let figures = json!({
        "name": name, "config": config,
        "process": format!("workerd pid(s) {:?} ({}, pid {root}), {threads} threads, CPU from /proc/<pid>/task/*/schedstat", b.workerd, server.kind()),
        "healthzMs": healthz, "startupMs": startup_ms, "startupIsolateMs": startup_isolate_ms, "first": first, "memory": memory, "results": results, "failures": b.failures,
    });
    drop(server);
    Ok((figures, failures))
}

/// The worker under test: `wrangler dev` with a wrangler configuration, or
/// workerd alone serving an upload directory (`wrangler deploy --dry-run
/// --outdir`) with the project's compatibility date and `[vars]`.
enum Server {
    Dev(WranglerDev),
    Alone(Workerd),
}

impl Server {
    fn start(config: &str) -> Result<Server, String> {
        let path = Path::new(config);
        if !path.is_dir() {
            let options = Options {
                config: Some(config.into()),
                startup_timeout: Some(Duration::from_secs(120)),
                ..Options::default()
            };
            return WranglerDev::start(options).map(Server::Dev);
        }
        let toml = std::fs::read_to_string(genui_harness::project_root().join("wrangler.toml"))
            .map_err(|e| format!("wrangler.toml: {e}"))?;
        let (date, vars) = wrangler_settings(&toml);
        let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Workerd::start(
            path,
            &date.ok_or("wrangler.toml has no compatibility_date")?,
            &vars,
        )
        .map(Server::Alone)
    }

    fn base_url(&self) -> String {
        match self {
            Server::Dev(dev) => dev.base_url(),
            Server::Alone(workerd) => workerd.base_url(),
        }
    }

    fn pid(&self) -> Option<u32> {
        match self {
            Server::Dev(dev) => dev.pid(),
            Server::Alone(workerd) => Some(workerd.pid()),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Server::Dev(_) => "under wrangler dev",
            Server::Alone(_) => "workerd alone",
        }
    }
}

/// `compatibility_date` and the plain `KEY = "value"` lines of `[vars]`
/// (the only shapes this project's wrangler.toml uses there).
fn wrangler_settings(toml: &str) -> (Option<String>, Vec<(String, String)>) {
    let quoted = |line: &str| {
        line.split_once('=')
            .map(|(k, v)| (k.trim().to_owned(), v.trim().trim_matches('"').to_owned()))
    };
    let mut date = None;
    let mut vars = Vec::new();
    let mut section = "";
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if line.starts_with("compatibility_date") && section.is_empty() {
            date = quoted(line).map(|(_, v)| v);
        } else if section == "[vars]" && !line.starts_with('#') && line.contains('=') {
            vars.extend(quoted(line));
        }
    }
    (date, vars)
}

struct Bench {
    agent: ureq::Agent,
    base: String,
    workerd: Vec<u32>,
    placeholder: String,
    fresh: u64,
    deadline: Instant,
    failures: Vec<String>,
}

/// One request's CPU (workerd's, ms), wall time, status and cache outcome
/// (`x-genui-cache`).
struct Call {
    cpu_ms: f64,
    wall_ms: f64,
    status: u16,
    cache: String,
}

impl Bench {
    /// Sends one case's body once, with a fresh number in its placeholder.
    fn call(&mut self, c: &Value) -> Result<Call, String> {
        if Instant::now() > self.deadline {
            return Err(format!("run exceeded {} s, aborted", BUDGET.as_secs()));
        }
        self.fresh += 1;
        let body = c["body"]
            .as_str()
            .ok_or("case body")?
            .replace(&self.placeholder, &format!("#{}", self.fresh));
        let path = match (c["route"].as_str(), c["format"].as_str()) {
            (Some("submit"), _) => "/v1/submit".to_owned(),
            (_, Some(f)) if !f.is_empty() => format!("/v1/generate?format={f}"),
            _ => "/v1/generate".to_owned(),
        };
        let url = format!("{}{path}", self.base);
        let before = self.cpu_ns();
        let t = Instant::now();
        let sent = self
            .agent
            .post(&url)
            .header("content-type", "application/json")
            .send(body.as_bytes());
        let mut resp = match sent {
            Ok(resp) => resp,
            // workerd alone answers 413 from `content-length` and closes
            // while a large body is still being written (wrangler's proxy
            // reads it all first): the refusal happened, its status is lost.
            Err(ureq::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
                ) =>
            {
                let cpu_ms = (self.cpu_ns() - before) as f64 / 1e6;
                return Ok(Call {
                    cpu_ms,
                    wall_ms: t.elapsed().as_secs_f64() * 1e3,
                    status: 0,
                    cache: String::new(),
                });
            }
            Err(e) => return Err(format!("{path}: {e}")),
        };
        let bytes = resp
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .map_err(|e| format!("{path}: {e}"))?;
        let wall_ms = t.elapsed().as_secs_f64() * 1e3;
        let cpu_ms = (self.cpu_ns() - before) as f64 / 1e6;
        let status = resp.status().as_u16();
        // The header, not `meta.cache`: RJSF and LMUI answers carry no `meta`.
        let cache = resp
            .headers()
            .get("x-genui-cache")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        drop(bytes);
        Ok(Call {
            cpu_ms,
            wall_ms,
            status,
            cache,
        })
    }

    /// `warmup` then `n` timed calls of a case; checks status and hit/miss.
    fn case(&mut self, c: &Value) -> Result<Value, String> {
        let id = c["id"].as_str().unwrap_or("").to_owned();
        let (n, warmup) = (
            c["n"].as_u64().unwrap_or(1) as usize,
            c["warmup"].as_u64().unwrap_or(0) as usize,
        );
        let (expect, kind) = (
            c["expect"].as_u64().unwrap_or(0),
            c["kind"].as_str().unwrap_or(""),
        );
        let (mut ms, mut status, mut hits) = (Vec::new(), Map::new(), 0);
        let floor = self.healthz_floor(N_FLOOR)?;
        for i in 0..warmup + n {
            let r = self.call(c)?;
            if i < warmup {
                continue;
            }
            ms.push(r.cpu_ms);
            let count = status
                .get(&r.status.to_string())
                .and_then(Value::as_u64)
                .unwrap_or(0);
            status.insert(r.status.to_string(), json!(count + 1));
            hits += usize::from(r.cache == "hit");
            if expect != 0 && u64::from(r.status) != expect {
                self.failures
                    .push(format!("{id}: HTTP {}, expected {expect}", r.status));
            } else if expect == 200
                && c["route"] == "generate"
                && (r.cache == "hit") != (kind == "hit")
            {
                self.failures
                    .push(format!("{id}: meta.cache {:?} on a {kind}", r.cache));
            }
        }
        Ok(json!({"id": id, "ms": ms, "floorMs": floor, "status": status, "hits": hits}))
    }

    /// The median CPU of `n` sequential `GET /healthz`, each read on its
    /// own: the floor just before a case. workerd's per-request floor
    /// drifts over a run (tier-up, heap size, the machine), so each case
    /// gets its own; the median ignores work the previous case left behind.
    fn healthz_floor(&mut self, n: usize) -> Result<f64, String> {
        let url = format!("{}/healthz", self.base);
        let mut samples = Vec::with_capacity(n);
        for _ in 0..n {
            let before = self.cpu_ns();
            let mut resp = self
                .agent
                .get(&url)
                .call()
                .map_err(|e| format!("/healthz: {e}"))?;
            resp.body_mut()
                .read_to_vec()
                .map_err(|e| format!("/healthz: {e}"))?;
            samples.push((self.cpu_ns() - before) as f64 / 1e6);
        }
        samples.sort_by(f64::total_cmp);
        Ok(samples[n / 2])
    }

    /// The mean CPU ms of `n` sequential `GET /healthz`.
    fn healthz_cpu(&mut self, n: usize) -> Result<f64, String> {
        let url = format!("{}/healthz", self.base);
        let before = self.cpu_ns();
        for _ in 0..n {
            let mut resp = self
                .agent
                .get(&url)
                .call()
                .map_err(|e| format!("/healthz: {e}"))?;
            resp.body_mut()
                .read_to_vec()
                .map_err(|e| format!("/healthz: {e}"))?;
        }
        Ok((self.cpu_ns() - before) as f64 / 1e6 / n as f64)
    }

    /// The isolate's linear memory, as `/healthz` reports it.
    fn memory(&self) -> Result<u64, String> {
        let mut resp = self
            .agent
            .get(format!("{}/healthz", self.base))
            .call()
            .map_err(|e| format!("/healthz: {e}"))?;
        let v: Value =
            serde_json::from_slice(&resp.body_mut().read_to_vec().map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?;
        v["wasmMemoryBytes"]
            .as_u64()
            .ok_or_else(|| format!("/healthz has no wasmMemoryBytes: {v}"))
    }

    /// Nanoseconds on a CPU of every thread of the workerd processes.
    fn cpu_ns(&self) -> u64 {
        self.workerd
            .iter()
            .flat_map(|pid| tasks(*pid))
            .filter_map(|task| std::fs::read_to_string(task.join("schedstat")).ok())
            .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .sum()
    }
}

/// Nanoseconds on a CPU of the process's main thread, where workerd runs
/// the worker's isolate (workerd alone serves one worker) and its own
/// HTTP handling. The other threads are V8's (background compilation,
/// tier-up, concurrent GC). Under `wrangler dev`, `root` is wrangler:
/// `None`.
fn isolate_ns(root: u32) -> Option<u64> {
    if process_name(root).as_deref() != Some("workerd") {
        return None;
    }
    let stat = std::fs::read_to_string(format!("/proc/{root}/task/{root}/schedstat")).ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn process_name(pid: u32) -> Option<String> {
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    Some(comm.trim().to_owned())
}

/// `/proc/<pid>/task/<tid>` of each thread.
fn tasks(pid: u32) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect()
}

/// The `workerd` processes below `root`.
fn workerd_pids(root: u32) -> Vec<u32> {
    let procs: Vec<(u32, u32, String)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            Some((pid, rest.split(' ').nth(1)?.parse().ok()?, name.to_owned()))
        })
        .collect();
    let mut below = vec![root];
    let mut i = 0;
    while i < below.len() {
        let parent = below[i];
        below.extend(
            procs
                .iter()
                .filter(|(_, ppid, _)| *ppid == parent)
                .map(|(pid, _, _)| *pid),
        );
        i += 1;
    }
    procs
        .iter()
        .filter(|(pid, _, name)| below.contains(pid) && name.starts_with("workerd"))
        .map(|(pid, _, _)| *pid)
        .collect()
}
