//! Whole-worker benchmark of genui-worker under `wrangler dev` (workerd with
//! a local, Miniflare-simulated KV), run by `scripts/bench.sh`.
//!
//! Three kinds of request, timed end to end over HTTP/1.1 keep-alive (one
//! `Instant` around sending the request and reading the whole body):
//!
//! - `healthz`: `GET /healthz`, the floor that workerd, wrangler's local
//!   proxy and the network stack cost on their own;
//! - `hit`: the AG-UI seed address call to `POST /v1/generate`, answered
//!   from the cache;
//! - `miss`: the same call with a unique description each time, so the spec
//!   is generated, proven, rendered and written to KV.
//!
//! Each kind at concurrency 1 (interleaved `healthz`/`hit`, then misses) and
//! 32 (32 threads doing the same), reported as p50/p99 and as ratios to
//! `/healthz` of the same run. Then CPU per request: workerd's own CPU time
//! (utime + stime of every `workerd` process under wrangler, from
//! `/proc/<pid>/stat`) over a fixed number of sequential requests of one
//! kind, divided by their count. And cold start: from spawning `wrangler dev`
//! to the first `/healthz` 200, and the first `/v1/generate` after it.
//!
//! Two configurations, each in a fresh `wrangler dev`: the default, where an
//! isolate remembers proven specs in memory in front of KV, and
//! `SPEC_MEMORY_BYTES=0`, where every hit reads KV.
//!
//! A benchmark, not a test: the numbers depend on the machine and on
//! wrangler dev's local simulation (not Cloudflare's edge), so nothing here
//! asserts a time. It fails (exit 1) only if a request does not answer 200
//! with the expected `meta.cache`, or the run exceeds its time bound.

use std::fmt::Write as _;
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use genui_harness::{project_root, Options, WranglerDev};
use serde_json::{json, Value};

/// Bound on each configuration's whole run.
const BUDGET: Duration = Duration::from_secs(150);
/// Requests of each kind at concurrency 1.
const N_SERIAL: usize = 400;
/// Misses at concurrency 1.
const N_MISS: usize = 100;
/// The high concurrency level.
const THREADS: usize = 32;

/// Times in ms of each kind: `healthz`, hit, miss.
type Times = (Vec<f64>, Vec<f64>, Vec<f64>);
/// Requests of each kind per thread at concurrency 32.
const N_PER_THREAD: usize = 25;
/// Misses per thread at concurrency 32.
const N_MISS_PER_THREAD: usize = 4;
/// Sequential requests per kind for the CPU figures.
const N_CPU: usize = 1000;
/// Sequential misses for the CPU figure.
const N_CPU_MISS: usize = 200;
const WARMUP: usize = 50;

/// One configuration of the worker.
struct Config {
    name: &'static str,
    vars: &'static [(&'static str, &'static str)],
}

const CONFIGS: [Config; 2] = [
    Config {
        name: "specs remembered per isolate (default)",
        vars: &[],
    },
    Config {
        name: "every hit reads KV (SPEC_MEMORY_BYTES=0)",
        vars: &[("SPEC_MEMORY_BYTES", "0")],
    },
];

/// What one run shares: where to send, the seed body, the deadline, failures.
struct Bench {
    agent: ureq::Agent,
    base: String,
    seed: Vec<u8>,
    deadline: Instant,
    failures: AtomicUsize,
    misses: AtomicUsize,
}

/// The figures of one configuration.
struct Run {
    config: &'static str,
    latency: Vec<(usize, &'static str, Stats)>,
    cpu: Vec<(&'static str, usize, f64)>,
    start_ms: f64,
    workerd_ready_ms: f64,
    first_generate_ms: f64,
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        eprintln!("bench-latency: takes no arguments");
        return ExitCode::FAILURE;
    }
    let mut runs = Vec::new();
    let mut failures = 0;
    for config in &CONFIGS {
        match run(config) {
            Ok((figures, failed)) => {
                runs.push(figures);
                failures += failed;
            }
            Err(e) => {
                eprintln!("bench-latency: {}: {e}", config.name);
                return ExitCode::FAILURE;
            }
        }
    }
    match write_report(&runs) {
        Ok(()) if failures == 0 => ExitCode::SUCCESS,
        Ok(()) => {
            eprintln!("bench-latency: {failures} failed request(s)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("bench-latency: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(config: &Config) -> Result<(Run, usize), String> {
    eprintln!("bench-latency: {}", config.name);
    let deadline = Instant::now() + BUDGET;
    let opts = config.vars.iter().fold(
        Options {
            startup_timeout: Some(BUDGET),
            ..Options::default()
        },
        |o, (k, v)| o.var(*k, *v),
    );
    let spawned = Instant::now();
    let dev = WranglerDev::start(opts)?;
    let start_ms = spawned.elapsed().as_secs_f64() * 1e3;
    let workerd_ready_ms = workerd_age_ms(dev.pid().ok_or("wrangler is not running")?)?;
    let bench = Bench {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(10)))
            .max_idle_connections_per_host(2 * THREADS)
            .build()
            .into(),
        base: dev.base_url(),
        seed: serde_json::to_vec(&seed_request("")).expect("JSON"),
        deadline,
        failures: AtomicUsize::new(0),
        misses: AtomicUsize::new(0),
    };
    let first_generate_ms = bench.generate(&bench.seed, Some("miss"))?.0;
    bench.until_hit()?;
    bench.interleaved(WARMUP)?;

    let mut latency = Vec::new();
    let (healthz, hit) = bench.interleaved(N_SERIAL)?;
    latency.push((1, "healthz", stats(healthz)));
    latency.push((1, "hit", stats(hit)));
    latency.push((1, "miss", stats(bench.misses(N_MISS)?)));
    let (healthz, hit, miss) = bench.concurrently()?;
    latency.push((THREADS, "healthz", stats(healthz)));
    latency.push((THREADS, "hit", stats(hit)));
    latency.push((THREADS, "miss", stats(miss)));

    let cpu = bench.cpu_per_request(dev.pid().ok_or("wrangler is not running")?)?;
    drop(dev);
    let run = Run {
        config: config.name,
        latency,
        cpu,
        start_ms,
        workerd_ready_ms,
        first_generate_ms,
    };
    Ok((run, bench.failures.load(Ordering::Relaxed)))
}

/// The AG-UI seed address call, with `suffix` appended to the description.
fn seed_request(suffix: &str) -> Value {
    let text = |title: &str| json!({ "type": "string", "title": title });
    json!({
        "tool": "generateUserInterface",
        "arguments": {
            "description": format!("A form that collects a user's shipping address.{suffix}"),
            "data": { "firstName": "Ada", "lastName": "Lovelace", "city": "London" },
            "output": {
                "type": "object",
                "required": ["firstName", "lastName", "street", "city", "postalCode", "country"],
                "properties": {
                    "firstName": text("First Name"),
                    "lastName": text("Last Name"),
                    "street": text("Street Address"),
                    "city": text("City"),
                    "postalCode": text("Postal Code"),
                    "country": { "type": "string", "title": "Country", "enum": ["GB", "US", "DE", "AT"] }
                }
            }
        }
    })
}

impl Bench {
    /// One timed request: milliseconds, status and body. Transport errors
    /// and the deadline are `Err`.
    fn send(&self, path: &str, body: Option<&[u8]>) -> Result<(f64, u16, Vec<u8>), String> {
        if Instant::now() > self.deadline {
            return Err(format!("run exceeded {} s, aborted", BUDGET.as_secs()));
        }
        let url = format!("{}{path}", self.base);
        let t = Instant::now();
        let mut resp = match body {
            Some(b) => self
                .agent
                .post(&url)
                .header("content-type", "application/json")
                .send(b),
            None => self.agent.get(&url).call(),
        }
        .map_err(|e| format!("{path}: {e}"))?;
        let bytes = resp
            .body_mut()
            .read_to_vec()
            .map_err(|e| format!("{path}: {e}"))?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let status = resp.status().as_u16();
        if status != 200 {
            self.fail(&format!(
                "{path}: HTTP {status} {}",
                String::from_utf8_lossy(&bytes)
            ));
        }
        Ok((ms, status, bytes))
    }

    /// A timed `POST /v1/generate`: milliseconds and `meta.cache`; a 200
    /// whose `meta.cache` is not `expect` counts as a failure.
    fn generate(&self, body: &[u8], expect: Option<&str>) -> Result<(f64, String), String> {
        let (ms, status, bytes) = self.send("/v1/generate", Some(body))?;
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let cache = v["meta"]["cache"].as_str().unwrap_or("").to_owned();
        if let Some(e) = expect.filter(|e| status == 200 && cache != *e) {
            self.fail(&format!(
                "/v1/generate: meta.cache = {cache:?}, expected {e:?}"
            ));
        }
        Ok((ms, cache))
    }

    /// Waits (up to 10 s) until the seed call is a hit: KV writes land
    /// after the response.
    fn until_hit(&self) -> Result<(), String> {
        let end = Instant::now() + Duration::from_secs(10);
        while self.generate(&self.seed, None)?.1 != "hit" {
            if Instant::now() > end {
                return Err("no cache hit for the seed call within 10 s".into());
            }
            thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    /// `n` each of `healthz` and `hit`, alternating; their times in ms.
    fn interleaved(&self, n: usize) -> Result<(Vec<f64>, Vec<f64>), String> {
        let (mut healthz, mut hit) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            healthz.push(self.send("/healthz", None)?.0);
            hit.push(self.generate(&self.seed, Some("hit"))?.0);
        }
        Ok((healthz, hit))
    }

    /// `n` misses, each with a description never sent before.
    fn misses(&self, n: usize) -> Result<Vec<f64>, String> {
        (0..n)
            .map(|_| {
                let i = self.misses.fetch_add(1, Ordering::Relaxed);
                let body = serde_json::to_vec(&seed_request(&format!(" #{i}"))).expect("JSON");
                Ok(self.generate(&body, Some("miss"))?.0)
            })
            .collect()
    }

    /// [`THREADS`] threads, each interleaving `healthz` and `hit`, then a few
    /// misses: times of every kind.
    fn concurrently(&self) -> Result<Times, String> {
        let (mut healthz, mut hit, mut miss) = (Vec::new(), Vec::new(), Vec::new());
        thread::scope(|s| -> Result<(), String> {
            let handles: Vec<_> = (0..THREADS)
                .map(|_| {
                    s.spawn(|| {
                        let (h, k) = self.interleaved(N_PER_THREAD)?;
                        Ok::<_, String>((h, k, self.misses(N_MISS_PER_THREAD)?))
                    })
                })
                .collect();
            for handle in handles {
                let (h, k, m) = handle.join().map_err(|_| "a thread panicked")??;
                healthz.extend(h);
                hit.extend(k);
                miss.extend(m);
            }
            Ok(())
        })?;
        Ok((healthz, hit, miss))
    }

    /// workerd's CPU milliseconds per request for each kind, over a fixed
    /// number of sequential requests.
    fn cpu_per_request(&self, wrangler: u32) -> Result<Vec<(&'static str, usize, f64)>, String> {
        let mut out = Vec::new();
        for kind in ["healthz", "hit", "miss"] {
            let n = if kind == "miss" { N_CPU_MISS } else { N_CPU };
            let before = workerd_cpu_ms(wrangler)?;
            match kind {
                "healthz" => (0..n).try_for_each(|_| self.send("/healthz", None).map(drop))?,
                "hit" => {
                    (0..n).try_for_each(|_| self.generate(&self.seed, Some("hit")).map(drop))?
                }
                _ => drop(self.misses(n)?),
            }
            let spent = workerd_cpu_ms(wrangler)? - before;
            out.push((kind, n, spent / n as f64));
        }
        Ok(out)
    }

    fn fail(&self, what: &str) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        eprintln!(
            "bench-latency: FAILED {}",
            what.chars().take(300).collect::<String>()
        );
    }
}

/// utime + stime, in ms, of every `workerd` process descending from `root`.
fn workerd_cpu_ms(root: u32) -> Result<f64, String> {
    let ticks_per_s = 100.0; // USER_HZ: 100 on every Linux ABI this runs on
    let mut total_ticks = 0u64;
    let mut found = 0;
    for pid in descendants(root) {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The command name is in parentheses and may hold spaces; fields
        // after it are space-separated: state is field 3, utime 14, stime 15.
        let Some((name, rest)) = stat.split_once(" (").and_then(|(_, r)| r.rsplit_once(") "))
        else {
            continue;
        };
        if !name.starts_with("workerd") {
            continue;
        }
        let fields: Vec<&str> = rest.split(' ').collect();
        let ticks = |i: usize| {
            fields
                .get(i - 3)
                .and_then(|f| f.parse::<u64>().ok())
                .unwrap_or(0)
        };
        total_ticks += ticks(14) + ticks(15);
        found += 1;
    }
    if found == 0 {
        return Err(format!("no workerd process under pid {root}"));
    }
    Ok(total_ticks as f64 * 1e3 / ticks_per_s)
}

/// How long the youngest `workerd` under `root` has been running, in ms
/// (from its start time in `/proc/<pid>/stat`, field 22, against
/// `/proc/uptime`; 10 ms resolution).
fn workerd_age_ms(root: u32) -> Result<f64, String> {
    let uptime: f64 = std::fs::read_to_string("/proc/uptime")
        .ok()
        .and_then(|u| u.split(' ').next()?.parse().ok())
        .ok_or("cannot read /proc/uptime")?;
    descendants(root)
        .into_iter()
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            let started: f64 = rest.split(' ').nth(22 - 3)?.parse().ok()?;
            name.starts_with("workerd")
                .then(|| (uptime - started / 100.0) * 1e3)
        })
        .min_by(f64::total_cmp)
        .ok_or_else(|| format!("no workerd process under pid {root}"))
}

/// `root` and every process below it, from `/proc/*/stat` parent links.
fn descendants(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let ppid = stat.rsplit_once(") ")?.1.split(' ').nth(1)?.parse().ok()?;
            Some((pid, ppid))
        })
        .collect();
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, ppid)| *ppid == parent)
                .map(|(pid, _)| *pid),
        );
        i += 1;
    }
    found
}

/// n, p50, p99, mean (ms); percentiles by nearest rank.
struct Stats {
    n: usize,
    p50: f64,
    p99: f64,
    mean: f64,
}

fn stats(mut v: Vec<f64>) -> Stats {
    v.sort_by(f64::total_cmp);
    let p = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    Stats {
        n: v.len(),
        p50: p(0.50),
        p99: p(0.99),
        mean: v.iter().sum::<f64>() / v.len() as f64,
    }
}

fn write_report(runs: &[Run]) -> Result<(), String> {
    let report = report(runs)?;
    print!("{report}");
    let dir = project_root().join("bench-results");
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let path = dir.join("latency.md");
    std::fs::write(&path, &report).map_err(|e| format!("writing {}: {e}", path.display()))?;
    eprintln!("bench-latency: wrote {}", path.display());
    Ok(())
}

fn sh(cmd: &str) -> String {
    Command::new("sh")
        .args(["-c", cmd])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|e| format!("({cmd}: {e})"))
}

fn report(runs: &[Run]) -> Result<String, String> {
    let wasm = project_root().join("build/index_bg.wasm");
    let raw = std::fs::metadata(&wasm)
        .map_err(|e| format!("{}: {e}", wasm.display()))?
        .len();
    let gz = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(&wasm)
        .output()
        .map_err(|e| format!("gzip: {e}"))?
        .stdout
        .len();
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(
        w,
        "# genui-worker under wrangler dev\n\n{} · {} · nproc {} · `./scripts/bench.sh`\n",
        sh("date -u"),
        sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"),
        sh("nproc"),
    );
    let _ = writeln!(
        w,
        "`build/index_bg.wasm`: {raw} bytes raw, {gz} bytes gzip -9.\n"
    );
    for run in runs {
        let _ = writeln!(w, "## {}\n", run.config);
        let _ = writeln!(w, "| concurrency | kind | n | p50 ms | p99 ms | mean ms | p50 / healthz | p99 / healthz |");
        let _ = writeln!(w, "|---:|---|---:|---:|---:|---:|---:|---:|");
        for (c, kind, s) in &run.latency {
            let floor = &run
                .latency
                .iter()
                .find(|r| r.0 == *c && r.1 == "healthz")
                .expect("healthz row")
                .2;
            let _ = writeln!(
                w,
                "| {c} | {kind} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
                s.n,
                s.p50,
                s.p99,
                s.mean,
                s.p50 / floor.p50,
                s.p99 / floor.p99
            );
        }
        let _ = writeln!(
            w,
            "\nworkerd CPU per request (utime + stime from /proc, sequential):\n"
        );
        let _ = writeln!(
            w,
            "| kind | requests | CPU ms / request | above healthz |\n|---|---:|---:|---:|"
        );
        let floor = run
            .cpu
            .iter()
            .find(|c| c.0 == "healthz")
            .map_or(0.0, |c| c.2);
        for (kind, n, ms) in &run.cpu {
            let _ = writeln!(w, "| {kind} | {n} | {ms:.3} | {:.3} |", ms - floor);
        }
        let _ = writeln!(
            w,
            "\nCold start: workerd started to first `/healthz` 200 in at most {:.0} ms (polled every 25 ms; `wrangler dev` spawned to that 200: {:.0} ms, its build step and proxy included); the first `/v1/generate` (a miss) then took {:.1} ms.\n",
            run.workerd_ready_ms, run.start_ms, run.first_generate_ms
        );
    }
    Ok(md)
}
