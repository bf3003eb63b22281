//! Latency benchmark of genui-worker under `wrangler dev` (workerd with a
//! local, Miniflare-simulated KV), run by `scripts/bench.sh`.
//!
//! It times three kinds of request, end to end over HTTP/1.1 keep-alive
//! (one `Instant` around sending the request and reading the whole body):
//!
//! - `healthz`: `GET /healthz`, the floor that the runtime, wrangler's proxy
//!   and the network stack cost on their own;
//! - `hit`: the AG-UI seed address call to `POST /v1/generate`, answered from
//!   the KV cache;
//! - `miss`: the same call with a unique description each time, so the spec
//!   is generated, checked and written to KV.
//!
//! Concurrency 1: 400 `healthz` and 400 `hit`, interleaved, then 100 `miss`.
//! Concurrency 8: 8 threads of 100 interleaved `healthz`/`hit` each. It prints
//! p50/p90/p99/mean per kind and the hit/healthz and miss/healthz ratios, plus
//! the size of `build/index_bg.wasm` raw and gzip -9, and writes the same
//! Markdown to `bench-results/latency.md`.
//!
//! This is a benchmark, not a test: the numbers depend on the machine and on
//! wrangler dev's local simulation (not Cloudflare's edge), so nothing here
//! asserts a time. It only fails (exit 1) if a request does not answer 200
//! with the expected `meta.cache`, or if the run exceeds 120 s in total.

use std::fmt::Write as _;
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use genui_harness::{project_root, Options, WranglerDev};
use serde_json::{json, Value};

const BUDGET: Duration = Duration::from_secs(120);
const N_SERIAL: usize = 400;
const N_MISS: usize = 100;
const THREADS: usize = 8;
const N_PER_THREAD: usize = 100;
const WARMUP: usize = 50;

/// What one run shares: where to send, the seed body, the deadline, failures.
struct Bench {
    agent: ureq::Agent,
    base: String,
    seed: Vec<u8>,
    deadline: Instant,
    failures: AtomicUsize,
}

fn main() -> ExitCode {
    match run() {
        Ok(0) => ExitCode::SUCCESS,
        Ok(n) => {
            eprintln!("bench-latency: {n} failed request(s)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("bench-latency: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<usize, String> {
    if std::env::args().len() > 1 {
        return Err("takes no arguments".into());
    }
    let deadline = Instant::now() + BUDGET;
    let opts = Options {
        startup_timeout: Some(BUDGET),
        ..Options::default()
    };
    let dev = WranglerDev::start(opts)?;
    let bench = Bench {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(5)))
            .max_idle_connections_per_host(2 * THREADS)
            .build()
            .into(),
        base: dev.base_url(),
        seed: serde_json::to_vec(&seed_request("")).expect("JSON"),
        deadline,
        failures: AtomicUsize::new(0),
    };

    // Warm-up: until the seed call hits the cache (up to 10 s), then 50 + 50.
    let poll_end = Instant::now() + Duration::from_secs(10);
    while bench.generate(&bench.seed, None)?.1 != "hit" {
        if Instant::now() > poll_end {
            return Err("no cache hit for the seed call within 10 s".into());
        }
        thread::sleep(Duration::from_millis(50));
    }
    bench.interleaved(WARMUP)?;

    let (h1, hit1) = bench.interleaved(N_SERIAL)?;
    let mut miss1 = Vec::with_capacity(N_MISS);
    for i in 0..N_MISS {
        let body = serde_json::to_vec(&seed_request(&format!(" #{i}"))).expect("JSON");
        miss1.push(bench.generate(&body, Some("miss"))?.0);
    }
    let (mut h8, mut hit8) = (Vec::new(), Vec::new());
    thread::scope(|s| -> Result<(), String> {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| s.spawn(|| bench.interleaved(N_PER_THREAD)))
            .collect();
        for h in handles {
            let (a, b) = h.join().map_err(|_| "a thread panicked")??;
            h8.extend(a);
            hit8.extend(b);
        }
        Ok(())
    })?;
    drop(dev);

    let rows = [
        (1, "healthz", stats(h1)),
        (1, "hit", stats(hit1)),
        (1, "miss", stats(miss1)),
        (THREADS, "healthz", stats(h8)),
        (THREADS, "hit", stats(hit8)),
    ];
    let report = report(&rows)?;
    print!("{report}");
    let dir = project_root().join("bench-results");
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let path = dir.join("latency.md");
    std::fs::write(&path, &report).map_err(|e| format!("writing {}: {e}", path.display()))?;
    eprintln!("bench-latency: wrote {}", path.display());
    Ok(bench.failures.load(Ordering::Relaxed))
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

    /// `n` each of `healthz` and `hit`, alternating; their times in ms.
    fn interleaved(&self, n: usize) -> Result<(Vec<f64>, Vec<f64>), String> {
        let (mut healthz, mut hit) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            healthz.push(self.send("/healthz", None)?.0);
            hit.push(self.generate(&self.seed, Some("hit"))?.0);
        }
        Ok((healthz, hit))
    }

    fn fail(&self, what: &str) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        eprintln!(
            "bench-latency: FAILED {}",
            what.chars().take(300).collect::<String>()
        );
    }
}

/// n, p50, p90, p99, mean (ms); percentiles by nearest rank.
struct Stats {
    n: usize,
    p50: f64,
    p90: f64,
    p99: f64,
    mean: f64,
}

fn stats(mut v: Vec<f64>) -> Stats {
    v.sort_by(f64::total_cmp);
    let p = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    Stats {
        n: v.len(),
        p50: p(0.50),
        p90: p(0.90),
        p99: p(0.99),
        mean: v.iter().sum::<f64>() / v.len() as f64,
    }
}

fn report(rows: &[(usize, &str, Stats)]) -> Result<String, String> {
    let sh = |cmd: &str| -> String {
        Command::new("sh")
            .args(["-c", cmd])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_else(|e| format!("({cmd}: {e})"))
    };
    let command: Vec<String> = std::env::args().collect();
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
        "# genui-worker latency under wrangler dev\n\n{} · nproc {} · `{}`\n",
        sh("date -u"),
        sh("nproc"),
        command.join(" ")
    );
    let _ = writeln!(
        w,
        "| concurrency | kind | n | p50 ms | p90 ms | p99 ms | mean ms |"
    );
    let _ = writeln!(w, "|---:|---|---:|---:|---:|---:|---:|");
    for (c, kind, s) in rows {
        let _ = writeln!(
            w,
            "| {c} | {kind} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
            s.n, s.p50, s.p90, s.p99, s.mean
        );
    }
    let find = |c: usize, k: &str| &rows.iter().find(|r| r.0 == c && r.1 == k).expect("row").2;
    let _ = writeln!(w, "\n| ratio | p50 | p99 |\n|---|---:|---:|");
    for (c, kind) in [(1, "hit"), (1, "miss"), (THREADS, "hit")] {
        let (a, b) = (find(c, kind), find(c, "healthz"));
        let _ = writeln!(
            w,
            "| {kind}/healthz, concurrency {c} | {:.2} | {:.2} |",
            a.p50 / b.p50,
            a.p99 / b.p99
        );
    }
    let _ = writeln!(
        w,
        "\n`build/index_bg.wasm`: {raw} bytes raw, {gz} bytes gzip -9"
    );
    Ok(md)
}
