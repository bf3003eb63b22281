//! End-to-end test harness for genui-worker.
//!
//! [`WranglerDev::start`] runs the real worker under `wrangler dev` (workerd,
//! with Workers KV simulated locally by Miniflare) on a free port of
//! 127.0.0.1, with a fresh persist directory of its own, and waits until
//! `GET /healthz` answers 200. Tests then talk to it over HTTP
//! ([`WranglerDev::post_json`], [`WranglerDev::get`], ...) and read the same
//! local KV namespace through the wrangler CLI ([`WranglerDev::kv_get`],
//! [`WranglerDev::kv_list`]). Dropping the [`WranglerDev`] stops wrangler and
//! workerd.
//!
//! # Building the worker
//!
//! The harness does not build anything itself: `wrangler dev` runs the
//! `[build] command` of `wrangler.toml` (`scripts/build-wasm.sh`) on start,
//! so the first start after a change of the Rust code includes the wasm build
//! (about 3-4 min when cold). That is why the start-up wait is long (300 s by
//! default, `GENUI_E2E_STARTUP_SECS` to change it).
//!
//! # Processes
//!
//! `node_modules/.bin/wrangler` is started directly (never through `npx`,
//! whose PID does not own wrangler), in a process group of its own, with
//! `node_modules/.bin` first in `PATH` so that node 22 runs it. Stopping
//! signals the whole group: SIGTERM, up to 10 s of grace, then SIGKILL, so no
//! workerd is left behind. On Linux wrangler also gets SIGTERM when the
//! thread that started it dies (`PR_SET_PDEATHSIG`), which covers a test
//! binary killed by Ctrl-C; so start a [`WranglerDev`] from the thread that
//! owns it for its whole life.
//!
//! The variables that `cargo test` sets for a test binary (`CARGO_PKG_*`,
//! `CARGO_MANIFEST_DIR`, `LD_LIBRARY_PATH`, ...) are removed from wrangler's
//! environment, so the wasm build it runs sees the same environment as
//! `scripts/build-wasm.sh` run from a shell.
//!
//! # State
//!
//! Each start gets `target/e2e-state/<pid>-<n>-<nanos>/` with the KV data
//! (`--persist-to`) and `wrangler.log` (wrangler's stdout and stderr). The
//! directory is removed when the harness stops cleanly, and kept when it is
//! dropped during a panic or when `GENUI_E2E_KEEP_STATE=1`, so a failure can be
//! read afterwards.

#![deny(missing_docs)]

pub mod docs;
mod workerd;
pub use workerd::Workerd;

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use ureq::http;

/// The KV binding of the spec cache, as named in `wrangler.toml`.
pub const KV_BINDING: &str = "UI_CACHE";

/// Default bound on the wait for the first `GET /healthz` 200.
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(300);

/// Timeout of one HTTP exchange with the worker.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Grace between SIGTERM and SIGKILL when stopping.
const STOP_GRACE: Duration = Duration::from_secs(10);

/// How to start `wrangler dev`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Extra `--var KEY:VALUE` pairs (they override `[vars]` of wrangler.toml).
    pub vars: Vec<(String, String)>,
    /// Bound on the wait for the first `GET /healthz` 200. `None` means
    /// `GENUI_E2E_STARTUP_SECS` if set, else [`DEFAULT_STARTUP_TIMEOUT`].
    pub startup_timeout: Option<Duration>,
    /// A wrangler configuration other than the project's `wrangler.toml`
    /// (passed as `--config`; relative paths are from the project root).
    /// The harness's own self-test uses this to run a small JS worker.
    pub config: Option<PathBuf>,
    /// A `--persist-to` directory of the caller's, kept on drop: a second
    /// `wrangler dev` started on it finds the first one's Durable Objects,
    /// alarms and KV (a restart). `None`: a fresh directory, removed on drop.
    pub state_dir: Option<PathBuf>,
}

impl Options {
    /// Adds a `--var KEY:VALUE` pair.
    pub fn var(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.vars.push((key.into(), value.into()));
        self
    }

    /// Adds the vars `scripts/dev.sh` passes (`scripts/lib/dev-defaults.vars`,
    /// one `NAME:value` a line, `#` comments), so the worker starts as
    /// `./scripts/dev.sh` starts it.
    pub fn like_dev_sh(mut self) -> Result<Self, String> {
        let path = project_root().join("scripts/lib/dev-defaults.vars");
        let text =
            fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, value) = line
                .split_once(':')
                .ok_or_else(|| format!("{}: `{line}` is not NAME:value", path.display()))?;
            self = self.var(name, value);
        }
        Ok(self)
    }
}

/// One HTTP answer. 4xx and 5xx are answers too, never errors.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The HTTP status code.
    pub status: u16,
    /// Every header, names in lower case, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body, decoded as UTF-8 (lossily).
    pub body: String,
}

impl Reply {
    /// The body parsed as JSON; `Value::Null` if it is not JSON (so that an
    /// assertion on a field fails with the body shown, rather than a panic
    /// here). Use [`Reply::try_json`] to tell the two apart.
    pub fn json(&self) -> Value {
        self.try_json().unwrap_or(Value::Null)
    }

    /// The body parsed as JSON.
    pub fn try_json(&self) -> Result<Value, String> {
        serde_json::from_str(&self.body)
            .map_err(|e| format!("body is not JSON ({e}): {}", self.body_excerpt()))
    }

    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body cut to 500 characters, for messages.
    pub fn body_excerpt(&self) -> String {
        excerpt(&self.body, 500)
    }
}

impl std::fmt::Display for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HTTP {} {}", self.status, self.body_excerpt())
    }
}

/// One server-sent event as received ([`WranglerDev::post_sse`]).
#[derive(Debug, Clone)]
pub struct SseEvent {
    /// The `event:` name (empty for `data:`-only frames, as AG-UI sends).
    pub event: String,
    /// The `data:` line, parsed (`Null` if it is not JSON).
    pub data: Value,
    /// When it arrived, from just before the request was sent.
    pub at: Duration,
}

/// A running `wrangler dev`, stopped on drop.
#[derive(Debug)]
pub struct WranglerDev {
    child: Option<Child>,
    port: u16,
    root: PathBuf,
    config: Option<PathBuf>,
    state_dir: PathBuf,
    keep_state: bool,
    log_path: PathBuf,
    agent: ureq::Agent,
}

static STARTS: AtomicUsize = AtomicUsize::new(0);

impl WranglerDev {
    /// Starts `wrangler dev` and waits until `GET /healthz` answers 200.
    ///
    /// Fails, with the tail of wrangler's log, if wrangler exits or the
    /// start-up timeout passes first.
    pub fn start(opts: Options) -> Result<WranglerDev, String> {
        let root = project_root();
        let root = root
            .canonicalize()
            .map_err(|e| format!("project root {}: {e}", root.display()))?;
        let bin_dir = root.join("node_modules").join(".bin");
        let wrangler = bin_dir.join("wrangler");
        if !wrangler.exists() {
            return Err(format!(
                "{} not found: run `npm install` in {}",
                wrangler.display(),
                root.display()
            ));
        }
        let timeout = opts.startup_timeout.unwrap_or_else(|| {
            std::env::var("GENUI_E2E_STARTUP_SECS")
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .map(Duration::from_secs)
                .unwrap_or(DEFAULT_STARTUP_TIMEOUT)
        });

        let keep_state = opts.state_dir.is_some();
        let state_dir = opts
            .state_dir
            .clone()
            .unwrap_or_else(|| root.join("target").join("e2e-state").join(unique_name()));
        fs::create_dir_all(&state_dir)
            .map_err(|e| format!("creating {}: {e}", state_dir.display()))?;
        // A restart on a kept directory keeps the earlier run's log beside its own.
        let log_name = if keep_state {
            format!("wrangler-{}.log", unique_name())
        } else {
            "wrangler.log".to_owned()
        };
        let log_path = state_dir.join(log_name);
        let log =
            File::create(&log_path).map_err(|e| format!("creating {}: {e}", log_path.display()))?;
        let log2 = log
            .try_clone()
            .map_err(|e| format!("cloning log handle: {e}"))?;

        let port = free_port()?;
        let inspector_port = free_port()?;

        let mut cmd = Command::new(&wrangler);
        cmd.current_dir(&root)
            .arg("dev")
            .args(["--ip", "127.0.0.1"])
            .args(["--port", &port.to_string()])
            .args(["--inspector-port", &inspector_port.to_string()])
            .arg("--persist-to")
            .arg(&state_dir)
            .arg("--show-interactive-dev-session=false")
            .args(["--log-level", "info"]);
        if let Some(c) = &opts.config {
            cmd.arg("--config").arg(c);
        }
        // Every answer is checked against its contract inside the worker
        // (a violation is a 500), unless a test sets the var itself.
        if !opts.vars.iter().any(|(k, _)| k == "CHECK_CONTRACTS") {
            cmd.arg("--var").arg("CHECK_CONTRACTS:true");
        }
        for (k, v) in &opts.vars {
            cmd.arg("--var").arg(format!("{k}:{v}"));
        }
        wrangler_env(&mut cmd, &bin_dir);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(log2));
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
            #[cfg(target_os = "linux")]
            {
                let parent = unsafe { libc::getpid() };
                // SAFETY: only async-signal-safe calls between fork and exec.
                unsafe {
                    cmd.pre_exec(move || {
                        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                        // The parent may have died before prctl took effect.
                        if libc::getppid() != parent {
                            libc::_exit(1);
                        }
                        Ok(())
                    });
                }
            }
        }
        let child = cmd
            .spawn()
            .map_err(|e| format!("spawning {}: {e}", wrangler.display()))?;

        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(REQUEST_TIMEOUT))
            .max_idle_connections_per_host(64)
            .build()
            .into();

        let mut dev = WranglerDev {
            child: Some(child),
            port,
            root,
            config: opts.config.clone(),
            state_dir,
            keep_state,
            log_path,
            agent,
        };
        eprintln!(
            "genui-harness: wrangler dev (pid {}) on {} , state in {}",
            dev.pid().unwrap_or(0),
            dev.base_url(),
            dev.state_dir.display()
        );
        dev.wait_healthy(timeout)?;
        Ok(dev)
    }

    fn wait_healthy(&mut self, timeout: Duration) -> Result<(), String> {
        let started = Instant::now();
        let probe: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(5)))
            .build()
            .into();
        let url = format!("{}/healthz", self.base_url());
        let mut last: String;
        loop {
            if let Some(child) = self.child.as_mut() {
                match child.try_wait() {
                    Ok(Some(status)) => {
                        return Err(format!(
                            "wrangler dev exited ({status}) before /healthz answered 200; \
                             log {}:\n{}",
                            self.log_path.display(),
                            self.log_tail(8000)
                        ));
                    }
                    Ok(None) => {}
                    Err(e) => return Err(format!("waiting for wrangler: {e}")),
                }
            }
            match probe.get(&url).call() {
                Ok(mut resp) if resp.status().as_u16() == 200 => {
                    let _ = resp.body_mut().read_to_vec();
                    eprintln!(
                        "genui-harness: /healthz 200 after {:.1} s",
                        started.elapsed().as_secs_f64()
                    );
                    return Ok(());
                }
                Ok(mut resp) => {
                    let body = resp.body_mut().read_to_string().unwrap_or_default();
                    last = format!("HTTP {} {}", resp.status().as_u16(), excerpt(&body, 300));
                }
                Err(e) => last = e.to_string(),
            }
            if started.elapsed() > timeout {
                return Err(format!(
                    "GET /healthz gave no 200 within {} s (last: {last}); log {}:\n{}",
                    timeout.as_secs(),
                    self.log_path.display(),
                    self.log_tail(8000)
                ));
            }
            // Short: the benchmark reads start-up time off this wait.
            thread::sleep(Duration::from_millis(25));
        }
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The port wrangler listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The PID of the wrangler process (also its process group), while running.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(|c| c.id())
    }

    /// The directory given to `--persist-to`; it also holds `wrangler.log`.
    pub fn state_dir(&self) -> &Path {
        &self.state_dir
    }

    /// The file that receives wrangler's stdout and stderr.
    pub fn log_path(&self) -> &Path {
        &self.log_path
    }

    /// The last `max_bytes` of wrangler's log.
    pub fn log_tail(&self, max_bytes: u64) -> String {
        read_tail(&self.log_path, max_bytes)
    }

    /// An HTTP agent (4xx/5xx are not errors) that threads may clone.
    pub fn agent(&self) -> &ureq::Agent {
        &self.agent
    }

    /// `POST path` with a JSON body.
    pub fn post_json(&self, path: &str, body: &Value) -> Reply {
        let bytes = serde_json::to_vec(body).expect("a Value always serialises");
        self.post_raw(path, &bytes, "application/json")
    }

    /// `POST path` asking for an event stream (`Accept: text/event-stream`)
    /// over a raw socket, so each event is timed as it arrives; extra
    /// headers are `name: value` pairs. `stop_after` closes the connection
    /// after that many events (a client that leaves). Returns the status
    /// and the events (comments skipped).
    pub fn post_sse(
        &self,
        path: &str,
        body: &Value,
        headers: &[(&str, &str)],
        stop_after: Option<usize>,
    ) -> (u16, Vec<SseEvent>) {
        use std::io::{BufRead, BufReader, Write};
        let started = Instant::now();
        let Ok(mut socket) = std::net::TcpStream::connect(("127.0.0.1", self.port)) else {
            return (0, Vec::new());
        };
        socket.set_read_timeout(Some(REQUEST_TIMEOUT)).ok();
        let body = body.to_string();
        let extra: String = headers
            .iter()
            .map(|(n, v)| format!("{n}: {v}\r\n"))
            .collect();
        let head = format!(
            "POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\ncontent-type: application/json\r\n{extra}content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        if socket.write_all(head.as_bytes()).is_err() {
            return (0, Vec::new());
        }
        let mut reader = BufReader::new(socket);
        let mut line = String::new();
        reader.read_line(&mut line).ok();
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        line.clear();
        while reader.read_line(&mut line).map(|n| n > 0).unwrap_or(false) && line != "\r\n" {
            line.clear();
        }
        let mut events = Vec::new();
        let mut event = String::new();
        // Chunked transfer: frame lines arrive between chunk-size lines,
        // which start with neither `event: ` nor `data: `.
        for line in reader.lines() {
            let Ok(line) = line else { break };
            if let Some(name) = line.strip_prefix("event: ") {
                event = name.to_owned();
            } else if let Some(data) = line.strip_prefix("data: ") {
                let data = serde_json::from_str(data).unwrap_or(Value::Null);
                events.push(SseEvent {
                    event: std::mem::take(&mut event),
                    data,
                    at: started.elapsed(),
                });
                if stop_after == Some(events.len()) {
                    break;
                }
            }
        }
        (status, events)
    }

    /// `POST path` with these exact bytes and `Content-Type`.
    pub fn post_raw(&self, path: &str, body: &[u8], content_type: &str) -> Reply {
        self.exchange("POST", path, Some(body), Some(content_type))
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Reply {
        self.exchange("GET", path, None, None)
    }

    /// Any method, with an optional body (sent as `application/json`).
    pub fn request(&self, method: &str, path: &str, body: Option<&[u8]>) -> Reply {
        self.exchange(method, path, body, body.map(|_| "application/json"))
    }

    fn exchange(
        &self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        content_type: Option<&str>,
    ) -> Reply {
        let url = format!("{}{}", self.base_url(), path);
        let headers: Vec<(&str, &str)> = content_type
            .map(|ct| ("content-type", ct))
            .into_iter()
            .collect();
        match send(&self.agent, method, &url, body, &headers) {
            Ok(r) => r,
            Err(e) => panic!(
                "{method} {path}: no HTTP answer: {e}\nwrangler log tail:\n{}",
                self.log_tail(4000)
            ),
        }
    }

    /// Like [`WranglerDev::request`], but a transport failure (connection
    /// reset, timeout) is an `Err` rather than a panic.
    pub fn try_request(
        &self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        content_type: Option<&str>,
    ) -> Result<Reply, String> {
        let headers: Vec<(&str, &str)> = content_type
            .map(|ct| ("content-type", ct))
            .into_iter()
            .collect();
        self.try_send(method, path, body, &headers)
    }

    /// `method path` with `headers` as given (none added) and an optional
    /// body; a transport failure is an `Err`.
    pub fn try_send(
        &self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
        headers: &[(&str, &str)],
    ) -> Result<Reply, String> {
        let url = format!("{}{}", self.base_url(), path);
        send(&self.agent, method, &url, body, headers)
    }

    /// The value stored under `key` in the local `UI_CACHE` namespace, as
    /// text; `None` if there is no such key.
    pub fn kv_get(&self, key: &str) -> Option<String> {
        match self.try_kv_get(key) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`WranglerDev::kv_get`], with CLI failures as `Err`.
    pub fn try_kv_get(&self, key: &str) -> Result<Option<String>, String> {
        // Look the key up in the list first: `kv key get` of a missing key
        // prints a notice rather than failing, which could not be told apart
        // from a value of that text.
        if !self.try_kv_list()?.iter().any(|k| k == key) {
            return Ok(None);
        }
        let out = self.kv_cli(&["get", key])?;
        Ok(Some(out))
    }

    /// Every key in the local `UI_CACHE` namespace.
    pub fn kv_list(&self) -> Vec<String> {
        match self.try_kv_list() {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`WranglerDev::kv_list`], with CLI failures as `Err`.
    pub fn try_kv_list(&self) -> Result<Vec<String>, String> {
        let out = self.kv_cli(&["list"])?;
        let start = out
            .find('[')
            .ok_or_else(|| format!("`wrangler kv key list` printed no JSON: {out}"))?;
        let v: Value = serde_json::from_str(&out[start..])
            .map_err(|e| format!("`wrangler kv key list` output is not JSON ({e}): {out}"))?;
        let arr = v
            .as_array()
            .ok_or_else(|| format!("`wrangler kv key list` printed no array: {out}"))?;
        Ok(arr
            .iter()
            .filter_map(|k| k.get("name").and_then(Value::as_str).map(str::to_owned))
            .collect())
    }

    /// Runs `wrangler kv key <args> --binding UI_CACHE --local --persist-to
    /// <state>` and returns its stdout. The running worker shares the local
    /// store (SQLite), so a read can meet "database is locked" while the
    /// worker writes: those are retried a few times.
    fn kv_cli(&self, args: &[&str]) -> Result<String, String> {
        let mut last = String::new();
        for attempt in 0..6 {
            match self.kv_cli_once(args) {
                Ok(out) => return Ok(out),
                Err(e) if e.contains("SQLITE_BUSY") || e.contains("database is locked") => {
                    last = e;
                    std::thread::sleep(Duration::from_millis(300 * (attempt + 1)));
                }
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }

    fn kv_cli_once(&self, args: &[&str]) -> Result<String, String> {
        let bin_dir = self.root.join("node_modules").join(".bin");
        let mut cmd = Command::new(bin_dir.join("wrangler"));
        cmd.current_dir(&self.root)
            .args(["kv", "key"])
            .args(args)
            .args(["--binding", KV_BINDING, "--local", "--persist-to"])
            .arg(&self.state_dir)
            .stdin(Stdio::null());
        if let Some(c) = &self.config {
            cmd.arg("--config").arg(c);
        }
        wrangler_env(&mut cmd, &bin_dir);
        let out = cmd
            .output()
            .map_err(|e| format!("running wrangler kv key {}: {e}", args.join(" ")))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        if !out.status.success() {
            return Err(format!(
                "wrangler kv key {} failed ({}):\n{}\n{}",
                args.join(" "),
                out.status,
                stdout,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(stdout)
    }

    /// Stops wrangler and workerd now (also done on drop).
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let pgid = child.id() as libc::pid_t;
        signal_group(pgid, libc::SIGTERM);
        let deadline = Instant::now() + STOP_GRACE;
        // Wait for wrangler itself, then for the rest of its group (workerd).
        let mut exited = false;
        while Instant::now() < deadline {
            if !exited {
                exited = matches!(child.try_wait(), Ok(Some(_)));
            }
            if exited && !group_alive(pgid) {
                break;
            }
            thread::sleep(Duration::from_millis(50));
        }
        if group_alive(pgid) {
            eprintln!("genui-harness: process group {pgid} still alive after SIGTERM; SIGKILL");
            signal_group(pgid, libc::SIGKILL);
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for WranglerDev {
    fn drop(&mut self) {
        self.stop();
        let keep =
            thread::panicking() || std::env::var("GENUI_E2E_KEEP_STATE").is_ok_and(|v| v == "1");
        if keep {
            eprintln!(
                "genui-harness: kept {} (wrangler.log inside)",
                self.state_dir.display()
            );
        } else if !self.keep_state {
            let _ = fs::remove_dir_all(&self.state_dir);
        }
    }
}

/// The project root: two levels above this crate's manifest directory.
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..")
}

fn send(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    headers: &[(&str, &str)],
) -> Result<Reply, String> {
    let method = http::Method::from_bytes(method.as_bytes())
        .map_err(|e| format!("bad method {method:?}: {e}"))?;
    let mut builder = http::Request::builder().method(method).uri(url);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let result = match body {
        Some(b) => agent.run(builder.body(b.to_vec()).map_err(|e| e.to_string())?),
        None => agent.run(builder.body(()).map_err(|e| e.to_string())?),
    };
    let mut resp = result.map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let headers = resp
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_ascii_lowercase(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let bytes = resp
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_vec()
        .map_err(|e| format!("reading body: {e}"))?;
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// Environment for any wrangler process: node 22 first in PATH, quiet and
/// non-interactive, without the variables cargo sets for test binaries.
fn wrangler_env(cmd: &mut Command, bin_dir: &Path) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin_dir.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    cmd.env(
        "PATH",
        std::env::join_paths(dirs).unwrap_or_else(|_| bin_dir.as_os_str().to_owned()),
    );
    for (key, _) in std::env::vars_os() {
        let Some(k) = key.to_str() else { continue };
        let cargo_set = k == "CARGO"
            || k == "LD_LIBRARY_PATH"
            || k == "CARGO_MANIFEST_DIR"
            || k == "CARGO_MANIFEST_PATH"
            || k == "CARGO_CRATE_NAME"
            || k == "CARGO_PRIMARY_PACKAGE"
            || k == "CARGO_TARGET_TMPDIR"
            || k == "CARGO_RUSTC_CURRENT_DIR"
            || k.starts_with("CARGO_PKG_")
            || k.starts_with("CARGO_BIN_");
        if cargo_set {
            cmd.env_remove(k);
        }
    }
    cmd.env("CI", "true")
        .env("WRANGLER_SEND_METRICS", "false")
        .env("WRANGLER_SEND_ERROR_REPORTS", "false")
        .env("NO_COLOR", "1")
        .env("FORCE_COLOR", "0");
}

fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| format!("binding a port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("reading the port: {e}"))
}

fn unique_name() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{}-{}-{}",
        std::process::id(),
        STARTS.fetch_add(1, Ordering::Relaxed),
        nanos
    )
}

fn signal_group(pgid: libc::pid_t, sig: libc::c_int) {
    if pgid > 1 {
        // SAFETY: kill(2) with a negative pid signals that process group.
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}

fn group_alive(pgid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks for existence and permission.
    pgid > 1 && unsafe { libc::kill(-pgid, 0) } == 0
}

fn read_tail(path: &Path, max_bytes: u64) -> String {
    let Ok(mut f) = File::open(path) else {
        return format!("(cannot open {})", path.display());
    };
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    let start = len.saturating_sub(max_bytes);
    if f.seek(SeekFrom::Start(start)).is_err() {
        return String::new();
    }
    let mut buf = Vec::new();
    let _ = f.read_to_end(&mut buf);
    strip_ansi(&String::from_utf8_lossy(&buf))
}

/// Removes ANSI escape sequences (wrangler colours some lines regardless).
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                // Parameters and intermediates, then one final byte in @..~.
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

fn excerpt(s: &str, max_chars: usize) -> String {
    let mut out: String = s.chars().take(max_chars).collect();
    if s.chars().count() > max_chars {
        out.push('…');
    }
    out
}

/// A running scripted model server (`src/bin/model_server.rs`) on a free
/// 127.0.0.1 port, killed on drop. Tests pass the binary's path
/// (`env!("CARGO_BIN_EXE_model-server")`) since only they know it.
pub struct ModelServer {
    child: Child,
    port: u16,
}

impl ModelServer {
    /// Starts the server requiring `key`, with any extra arguments.
    pub fn start(binary: &Path, key: &str, extra_args: &[&str]) -> Result<ModelServer, String> {
        use std::io::BufRead;
        let mut child = Command::new(binary)
            .args(["--port", "0", "--require-key", key])
            .args(extra_args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("model-server does not start: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        match line
            .trim()
            .strip_prefix("listening on ")
            .and_then(|p| p.parse().ok())
        {
            Some(port) => Ok(ModelServer { child, port }),
            None => {
                let _ = child.kill();
                Err(format!("unexpected first line {line:?}"))
            }
        }
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request it has received, as recorded by `GET /__requests`.
    pub fn requests(&self) -> Vec<Value> {
        let url = format!("{}/__requests", self.base());
        let body = ureq::get(&url)
            .call()
            .ok()
            .and_then(|mut r| r.body_mut().read_to_string().ok())
            .unwrap_or_default();
        serde_json::from_str::<Value>(&body)
            .ok()
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default()
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `schema` with every `oneOf` of labelled constants (`{const, title}`,
/// how the renderers' schema labels enum options) written back as the
/// `enum` it labels.
pub fn without_option_labels(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for (key, value) in map {
                let labelled = value.as_array().filter(|branches| {
                    key == "oneOf"
                        && branches.iter().all(|b| {
                            b.as_object().is_some_and(|o| {
                                o.len() == 2 && o.contains_key("const") && o.contains_key("title")
                            })
                        })
                });
                match labelled {
                    Some(branches) => {
                        let values = branches.iter().map(|b| b["const"].clone()).collect();
                        out.insert("enum".into(), Value::Array(values));
                    }
                    None => {
                        out.insert(key.clone(), without_option_labels(value));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(without_option_labels).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_ansi_colours() {
        let s = "\u{1b}[31m✘ \u{1b}[41;31m[\u{1b}[41;97mERROR\u{1b}[41;31m]\u{1b}[0m build failed";
        assert_eq!(strip_ansi(s), "✘ [ERROR] build failed");
    }

    #[test]
    fn reply_helpers() {
        let r = Reply {
            status: 405,
            headers: vec![("allow".into(), "POST".into())],
            body: "{\"code\":\"method_not_allowed\"}".into(),
        };
        assert_eq!(r.header("Allow"), Some("POST"));
        assert_eq!(r.json()["code"], "method_not_allowed");
        let bad = Reply {
            body: "<html>".into(),
            ..r
        };
        assert_eq!(bad.json(), Value::Null);
        assert!(bad.try_json().is_err());
    }

    #[test]
    fn free_ports_and_unique_names() {
        assert_ne!(free_port().unwrap(), 0);
        assert_ne!(unique_name(), unique_name());
        assert!(project_root().join("tests/harness/Cargo.toml").exists());
    }
}
