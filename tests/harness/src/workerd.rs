//! workerd alone, serving the exact upload (`wrangler deploy --dry-run
//! --outdir`): no wrangler, no Miniflare entry worker, no dev proxy, no
//! inspector forwarding logs, no bindings but plain-text vars.
//!
//! `wrangler dev` puts two workerd processes and two workers of its own in
//! front of ours, and forwards every `console.log` over the inspector: a
//! `GET /healthz` costs about 6 ms of CPU there against about 0.6 ms here,
//! and the dev stack's share grows with the size of bodies. What Cloudflare
//! bills is the isolate's CPU for our worker's request, so the wasm bench
//! measures here too (`scripts/bench-wasm.sh`, `workerd alone`); everything
//! else keeps the real `wrangler dev` ([`crate::WranglerDev`]).

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A `workerd serve` process answering on 127.0.0.1; stopped on drop.
pub struct Workerd {
    child: Child,
    port: u16,
    log_path: PathBuf,
}

impl Workerd {
    /// Serves the upload in `dir` (one `.js` entry module and the `.wasm`
    /// it imports, as `wrangler deploy --dry-run --outdir` writes them) with
    /// the given compatibility date and text vars, and waits until
    /// `GET /healthz` answers 200.
    pub fn start(
        dir: &Path,
        compatibility_date: &str,
        vars: &[(&str, &str)],
    ) -> Result<Workerd, String> {
        let dir = dir
            .canonicalize()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let port = super::free_port()?;
        let config = dir.join("genui.capnp");
        fs::write(&config, capnp(&dir, port, compatibility_date, vars)?)
            .map_err(|e| format!("{}: {e}", config.display()))?;
        let binary = super::project_root().join("node_modules/.bin/workerd");
        let log_path = dir.join("workerd.log");
        let log = File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
        let log2 = log.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(&binary)
            .arg("serve")
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(log2))
            .spawn()
            .map_err(|e| format!("spawning {}: {e}", binary.display()))?;
        let mut workerd = Workerd {
            child,
            port,
            log_path,
        };
        workerd.wait_healthy(Duration::from_secs(60))?;
        Ok(workerd)
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The process id (`node_modules/.bin/workerd` is the native binary itself).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn wait_healthy(&mut self, timeout: Duration) -> Result<(), String> {
        let started = Instant::now();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(5)))
            .build()
            .into();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "workerd exited ({status}); log {}:\n{}",
                    self.log_path.display(),
                    super::read_tail(&self.log_path, 4000)
                ));
            }
            if agent
                .get(format!("{}/healthz", self.base_url()))
                .call()
                .is_ok_and(|r| r.status() == 200)
            {
                return Ok(());
            }
            if started.elapsed() > timeout {
                return Err(format!(
                    "workerd gave no /healthz 200 in {} s; log {}",
                    timeout.as_secs(),
                    self.log_path.display()
                ));
            }
            thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Workerd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The workerd configuration: one worker of the upload's modules, one
/// HTTP socket.
fn capnp(
    dir: &Path,
    port: u16,
    compatibility_date: &str,
    vars: &[(&str, &str)],
) -> Result<String, String> {
    let mut modules = Vec::new();
    for entry in fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".wasm") {
            modules.push(format!("(name = {name:?}, wasm = embed {name:?})"));
        }
    }
    if !dir.join("index.js").exists() || modules.is_empty() {
        return Err(format!(
            "{} holds no index.js and .wasm upload",
            dir.display()
        ));
    }
    modules.insert(
        0,
        "(name = \"index.js\", esModule = embed \"index.js\")".into(),
    );
    let bindings: Vec<String> = vars
        .iter()
        .map(|(k, v)| format!("(name = {k:?}, text = {v:?})"))
        .collect();
    Ok(format!(
        "using Workerd = import \"/workerd/workerd.capnp\";\n\
         const config :Workerd.Config = (\n  services = [(name = \"genui\", worker = .genui)],\n  \
         sockets = [(name = \"http\", address = \"127.0.0.1:{port}\", http = (), service = \"genui\")],\n);\n\
         const genui :Workerd.Worker = (\n  compatibilityDate = {compatibility_date:?},\n  modules = [{}],\n  bindings = [{}],\n);\n",
        modules.join(", "),
        bindings.join(", ")
    ))
}
