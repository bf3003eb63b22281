//! Self-test of the harness itself, against the small JS worker in
//! `fixtures/echo-worker/` (no Rust build needed, about 10 s): start-up and
//! `--var`, the HTTP helpers, the KV helpers, and that stopping leaves no
//! wrangler or workerd process behind.
//!
//! Run: `cargo test -p genui-harness --test selftest -- --ignored --nocapture`.

use std::path::Path;
use std::time::{Duration, Instant};

use genui_harness::{project_root, Options, WranglerDev};

#[test]
#[ignore = "needs wrangler (node_modules); run with --ignored"]
fn harness_selftest() {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/echo-worker/wrangler.toml");
    assert!(
        project_root().join("wrangler.toml").exists(),
        "project root not found"
    );
    let mut dev = WranglerDev::start(
        Options {
            config: Some(config),
            startup_timeout: Some(Duration::from_secs(60)),
            ..Options::default()
        }
        .var("GREETING", "hello:world"),
    )
    .unwrap_or_else(|e| panic!("{e}"));

    // --var reaches the worker, colon in the value included.
    let r = dev.get("/healthz");
    assert_eq!(r.status, 200, "{r}");
    assert_eq!(r.json()["greeting"], "hello:world", "{r}");

    // 4xx is an answer, not an error; headers are readable.
    let r = dev.get("/nope");
    assert_eq!(r.status, 404, "{r}");
    assert_eq!(r.json()["code"], "not_found");
    assert!(
        r.header("Content-Type").is_some_and(|c| c.contains("json")),
        "{:?}",
        r.headers
    );

    // Methods, raw bodies, content types, a 1.5 MiB body.
    let r = dev.request("DELETE", "/echo", None);
    assert_eq!(
        (r.status, r.json()["method"].as_str()),
        (200, Some("DELETE")),
        "{r}"
    );
    assert_eq!(r.header("x-echo"), Some("1"));
    let r = dev.post_raw("/echo", b"not json", "text/plain");
    assert_eq!(r.json()["contentType"], "text/plain", "{r}");
    assert_eq!(r.json()["length"], 8, "{r}");
    let r = dev.post_json("/echo", &serde_json::json!({"a": [1, 2, 3]}));
    assert_eq!(r.json()["contentType"], "application/json", "{r}");
    let big = vec![b' '; 1536 * 1024];
    let r = dev.post_raw("/echo", &big, "application/json");
    assert_eq!(
        (r.status, r.json()["length"].as_u64()),
        (413, Some(1536 * 1024)),
        "{r}"
    );

    // KV: written after the response (waitUntil), read back through the CLI.
    assert_eq!(dev.kv_get("spec:v1:missing"), None);
    let value = "{\"x\":\"ünïcödé\"}\n";
    let r = dev.post_raw("/put?key=spec:v1:abc", value.as_bytes(), "application/json");
    assert_eq!(r.status, 200, "{r}");
    let deadline = Instant::now() + Duration::from_secs(5);
    let got = loop {
        if let Some(v) = dev.kv_get("spec:v1:abc") {
            break v;
        }
        assert!(Instant::now() < deadline, "KV write never showed up");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(got, value, "KV value must come back byte for byte");
    assert_eq!(dev.kv_list(), vec!["spec:v1:abc".to_string()]);

    // Stopping ends the whole process group (wrangler, workerd, esbuild).
    let pgid = dev.pid().expect("running") as i32;
    let state = dev.state_dir().to_path_buf();
    let t = Instant::now();
    dev.stop();
    eprintln!("stopped in {:.2} s", t.elapsed().as_secs_f64());
    // SAFETY: signal 0 only checks whether any process of the group exists.
    let alive = unsafe { libc::kill(-pgid, 0) } == 0;
    assert!(!alive, "processes of group {pgid} survived stop()");
    drop(dev);
    assert!(!state.exists(), "state dir {} not removed", state.display());
}
