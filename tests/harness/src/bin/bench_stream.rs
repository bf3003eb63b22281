//! First paint against the full answer, under `wrangler dev` with a model
//! configured against the scripted model server delaying every answer
//! (default 2 s); run by `scripts/bench-stream.sh`, never by test.sh.
//!
//! ```text
//! bench-stream [--requests N] [--delay-ms MS] [--concurrency C]
//! ```
//!
//! Each request has a description of its own, so every one is a cache miss
//! that asks the model: `N` streamed requests (`Accept: text/event-stream`
//! on `/v1/generate`), timing the first `ui` event and the `done` event,
//! then `N` plain JSON requests, timing the whole answer. Reports p50 and
//! p99 of each to `bench-results/stream.md`. A benchmark: nothing asserts a
//! time; it fails only when an answer is not what it should be.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use genui_harness::{project_root, ModelServer, Options, WranglerDev};
use serde_json::{json, Value};

const MODEL_KEY: &str = "sk-bench-stream";

struct Args {
    requests: usize,
    delay_ms: u64,
    concurrency: usize,
}

fn args() -> Result<Args, String> {
    let mut out = Args {
        requests: 200,
        delay_ms: 2000,
        concurrency: 8,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number: u64 = value
            .parse()
            .map_err(|_| format!("{flag} {value}: not a number"))?;
        match flag.as_str() {
            "--requests" => out.requests = number.max(1) as usize,
            "--delay-ms" => out.delay_ms = number,
            "--concurrency" => out.concurrency = number.clamp(1, 32) as usize,
            other => return Err(format!("unknown flag {other}")),
        }
    }
    Ok(out)
}

fn body(kind: &str, i: usize, delay_ms: u64) -> Value {
    json!({
        "description": format!("A sign-up form. [delay:{delay_ms}] bench {kind} {} {i}", std::process::id()),
        "data": {"firstName": "Ada"},
        "output": {"type": "object", "required": ["firstName", "country"], "properties": {
            "firstName": {"type": "string", "title": "First Name"},
            "lastName": {"type": "string", "title": "Last Name"},
            "country": {"type": "string", "enum": ["GB", "US", "DE", "AT"]},
            "newsletter": {"type": "boolean"}}}
    })
}

/// Runs `n` jobs on `c` threads; each returns its timings or an error.
fn run_all<T: Send>(
    n: usize,
    c: usize,
    job: impl Fn(usize) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(n));
    let errors = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..c {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                match job(i) {
                    Ok(t) => results.lock().unwrap_or_else(|e| e.into_inner()).push(t),
                    Err(e) => errors.lock().unwrap_or_else(|e| e.into_inner()).push(e),
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap_or_default();
    match errors.first() {
        Some(first) => Err(format!(
            "{} request(s) failed; first: {first}",
            errors.len()
        )),
        None => Ok(results.into_inner().unwrap_or_default()),
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn summary(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    (
        percentile(&values, 50.0),
        percentile(&values, 99.0),
        values.last().copied().unwrap_or_default(),
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() -> ExitCode {
    match bench() {
        Ok(path) => {
            println!("bench-stream: wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bench-stream: {e}");
            ExitCode::FAILURE
        }
    }
}

fn bench() -> Result<PathBuf, String> {
    let args = args()?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let server_bin = exe.with_file_name("model-server");
    let server = ModelServer::start(
        &server_bin,
        MODEL_KEY,
        &["--lifetime-secs", "1800", "--max-requests", "100000"],
    )?;
    let deadline_ms = args.delay_ms + 8000;
    let opts = Options::default()
        .var("MODEL_PROVIDER", "openai")
        .var("MODEL_NAME", "ui-model-1")
        .var("MODEL_BASE_URL", format!("{}/v1", server.base()))
        .var("MODEL_API_KEY", MODEL_KEY)
        .var("MODEL_TIMEOUT_MS", deadline_ms.to_string())
        .var("MODEL_DEADLINE_MS", deadline_ms.to_string())
        .var("CHECK_CONTRACTS", "false");
    let dev = WranglerDev::start(opts)?;
    // Warm the isolate (and the schema proof) before timing.
    dev.post_json("/v1/generate", &body("warm", 0, 0));

    let streamed = run_all(args.requests, args.concurrency, |i| {
        let (status, events) =
            dev.post_sse("/v1/generate", &body("stream", i, args.delay_ms), &[], None);
        let names: Vec<&str> = events.iter().map(|e| e.event.as_str()).collect();
        if status != 200
            || names != ["ui", "patch", "done"]
            || events[2].data["generator"] != "model"
        {
            return Err(format!("stream {i}: status {status}, events {names:?}"));
        }
        Ok((ms(events[0].at), ms(events[2].at)))
    })?;
    let full = run_all(args.requests, args.concurrency, |i| {
        let started = Instant::now();
        let reply = dev.post_json("/v1/generate", &body("json", i, args.delay_ms));
        let took = ms(started.elapsed());
        if reply.status != 200 || reply.json()["meta"]["generator"] != "model" {
            return Err(format!("json {i}: {reply}"));
        }
        Ok(took)
    })?;

    let (ui50, ui99, ui_max) = summary(streamed.iter().map(|t| t.0).collect());
    let (done50, done99, done_max) = summary(streamed.iter().map(|t| t.1).collect());
    let (full50, full99, full_max) = summary(full);
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# First paint over SSE against the full answer (issue 16)\n"
    );
    let _ = writeln!(
        md,
        "`scripts/bench-stream.sh`: wrangler dev (local workerd and KV) with a model configured against the scripted model \
         server, which delays every answer {} ms. {} requests of each kind, {} at a time, each with a description of its own \
         (every one a cache miss that asks the model). Times from sending the request, on this machine (2 shared cores).\n",
        args.delay_ms, args.requests, args.concurrency
    );
    let _ = writeln!(
        md,
        "| what | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|"
    );
    let _ = writeln!(md, "| stream: first `ui` event (the deterministic form) | {ui50:.1} | {ui99:.1} | {ui_max:.1} |");
    let _ = writeln!(md, "| stream: `done` (after the model's `patch`) | {done50:.1} | {done99:.1} | {done_max:.1} |");
    let _ = writeln!(
        md,
        "| JSON answer (no stream), whole body | {full50:.1} | {full99:.1} | {full_max:.1} |"
    );
    let _ = writeln!(
        md,
        "\nTarget (issue 16): first paint p50 <= 50 ms while the full answer takes over {} ms.",
        args.delay_ms
    );
    let path = project_root().join("bench-results/stream.md");
    std::fs::write(&path, md).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}
