//! The examples of `examples/`, each run against one worker under
//! `wrangler dev`, and a walkthrough that follows README.md alone:
//!
//! - `curl`: `examples/curl/run.sh`; its bodies are the README's request
//!   bodies and its answers match the answers the README shows;
//! - `agui-client`: typechecked with its own `tsc`, then run with node; the
//!   UI it prints is a JSON Forms form covering its schema;
//! - `webhook`: `send.py --callback` signs a tool call, gets the form, and
//!   checks the signed callback carrying it; a wrong secret is refused;
//! - `langgraph`: the LangGraph agent of `examples/langgraph` (served by
//!   ag-ui-langgraph) ends its run with an interrupt; the AG-UI client of
//!   `examples/agui-client/interrupt.ts` gets the worker's form for it,
//!   submits the person's answer, and resumes the run with the signed entry;
//!   the agent checks the signature and finishes with the answer in its
//!   state; a resume entry whose payload was changed is refused; then the
//!   same agent through the worker's proxy mode (`GENUI_AGENTS`):
//!   `examples/agui-client/proxy.ts` runs it through `/v1/agent`, takes the
//!   worker's form from the stream (every event passing @ag-ui/client's
//!   check against @ag-ui/core's schemas), submits, and resumes through the
//!   worker;
//! - `proxy mode failures`: upstreams that answer garbage, hang past their
//!   deadline or refuse the connection (small servers of this test on
//!   127.0.0.1) end the run with `RUN_ERROR` and their codes; an unknown
//!   upstream name is a 400 before the stream;
//! - `clients/python`: the Python package's `pytest -m worker` (every example
//!   of docs/clients.md run as a program: generate and submit, a stream, an
//!   interrupt's verified resume entry, a signed webhook with its verified
//!   callback, a LangGraph graph and a Pydantic AI agent calling the tool);
//! - `clients/ts`: the TypeScript package's worker tests (`npm run
//!   test:worker`: its examples of docs/clients.md run as programs: generate
//!   and submit, a stream, an interrupt's verified resume entry, a re-render);
//! - `mcp`: `tests/mcp/hosts.mjs` connects the MCP SDK client to the URL of
//!   each host configuration, lists the tools and generates a form;
//! - the walkthrough: the README's generate block, the same request with
//!   the `?format=html` the README names (the form rendered as a page), its
//!   submit block, and the MCP SDK block of the page the README links for
//!   `/mcp` (connect, list the tools, generate the README's form again).
//!
//! `cargo test -p genui-harness --test e2e-examples -- --ignored` runs
//! them; the other tests here need no worker.

use genui_harness::docs::{examples, fences, matches, run_block, Example, DOCS_ORIGIN};
use genui_harness::{project_root, Options, WranglerDev};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The secret the webhook example signs with (the worker's `WEBHOOK_SECRET`).
const WEBHOOK_SECRET: &str = "examples-test-secret";

/// What one step found wrong.
type Step = Result<(), String>;

/// The repository's node 22: it runs TypeScript (type stripping) and ESM.
fn node() -> PathBuf {
    project_root().join("node_modules/.bin/node")
}

/// `PATH` with the repository's node 22 first (for `#!/usr/bin/env node`).
fn path_with_node() -> String {
    let bin = project_root().join("node_modules/.bin");
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Runs a command; its stdout, or why it failed with what it printed.
fn run(command: &mut Command) -> Result<String, String> {
    let output = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.success() {
        return Ok(stdout);
    }
    Err(format!(
        "{command:?} exited with {}:\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    ))
}

/// The JSON documents printed one after another.
fn json_documents(text: &str) -> Result<Vec<Value>, String> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("not JSON ({e}): {text}"))
}

fn ensure(ok: bool, why: impl FnOnce() -> String) -> Step {
    if ok {
        Ok(())
    } else {
        Err(why())
    }
}

fn readme() -> Result<String, String> {
    std::fs::read_to_string(project_root().join("README.md")).map_err(|e| format!("README.md: {e}"))
}

/// Whether a request block calls `route` on the documented origin.
fn calls(command: &str, route: &str) -> bool {
    command.split_whitespace().any(|word| {
        word.trim_matches(|c| c == '\'' || c == '"')
            .strip_prefix(DOCS_ORIGIN)
            .is_some_and(|path| path.split('?').next() == Some(route))
    })
}

/// The README's request block calling `route`, with the answer it shows.
fn readme_example(route: &str) -> Result<Example, String> {
    examples("README.md", &readme()?)
        .into_iter()
        .find(|example| calls(&example.command, route))
        .ok_or_else(|| format!("README.md has no request block for {route} followed by its answer"))
}

/// The JSON body a request block sends: the block run by `sh` with `curl`
/// a shell function that prints its `-d` argument.
fn body_of(example: &Example) -> Result<Value, String> {
    let fake_curl = r#"curl() { while [ $# -gt 0 ]; do if [ "$1" = -d ]; then printf '%s' "$2"; return; fi; shift; done; }"#;
    let printed = run(Command::new("sh")
        .arg("-c")
        .arg(format!("{fake_curl}\n{}", example.command)))?;
    serde_json::from_str(&printed)
        .map_err(|e| format!("{}: the body is not JSON ({e}): {printed}", example.place))
}

fn shown(example: &Example) -> Result<Value, String> {
    serde_json::from_str(&example.shown)
        .map_err(|e| format!("{}: the answer shown is not JSON: {e}", example.place))
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The curl example sends the README's bodies, as files, and gets the
/// README's answers.
fn curl_example(base: &str) -> Step {
    let dir = project_root().join("examples/curl");
    let generate = readme_example("/v1/generate")?;
    let submit = readme_example("/v1/submit")?;
    for (example, file) in [(&generate, "generate.json"), (&submit, "submit.json")] {
        let sent = read_json(&dir.join(file))?;
        ensure(body_of(example)? == sent, || {
            format!("examples/curl/{file} is not the body of {}", example.place)
        })?;
    }
    let answers = json_documents(&run(Command::new(dir.join("run.sh")).arg(base))?)?;
    ensure(answers.len() == 2, || format!("run.sh printed {answers:?}"))?;
    matches(&shown(&generate)?, &answers[0], "").map_err(|e| format!("generate: {e}"))?;
    matches(&shown(&submit)?, &answers[1], "").map_err(|e| format!("submit: {e}"))
}

/// Every `#/properties/<name>` a UI schema points at, sorted.
fn scopes(ui_schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    collect_scopes(ui_schema, &mut found);
    found.sort();
    found.dedup();
    found
}

fn collect_scopes(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(scope)) = map.get("scope") {
                found.push(scope.clone());
            }
            map.values().for_each(|v| collect_scopes(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_scopes(v, found)),
        _ => {}
    }
}

/// The scopes a form must show: one per property of its schema.
fn expected_scopes(schema: &Value) -> Vec<String> {
    let mut wanted: Vec<String> = schema["properties"]
        .as_object()
        .map(|p| p.keys().map(|k| format!("#/properties/{k}")).collect())
        .unwrap_or_default();
    wanted.sort();
    wanted
}

/// The AG-UI client typechecks and, run, prints a JSON Forms activity that
/// shows every field of its schema with the data it was given.
fn agui_client(base: &str) -> Step {
    let dir = project_root().join("examples/agui-client");
    ensure(dir.join("node_modules").is_dir(), || {
        "examples/agui-client/node_modules is missing: run ./scripts/setup.sh".into()
    })?;
    run(Command::new(dir.join("node_modules/.bin/tsc"))
        .args(["-p", "."])
        .current_dir(&dir)
        .env("PATH", path_with_node()))?;
    let printed = run(Command::new(node())
        .arg("client.ts")
        .current_dir(&dir)
        .env("GENUI_URL", base))?;
    let ui: Value = serde_json::from_str(&printed).map_err(|e| format!("{e}: {printed}"))?;
    let content = &ui["content"];
    ensure(ui["activityType"] == "genui.jsonforms", || {
        format!("activityType: {}", ui["activityType"])
    })?;
    ensure(
        scopes(&content["uiSchema"]) == expected_scopes(&content["jsonSchema"]),
        || format!("the UI does not show each field of its schema once: {content}"),
    )?;
    ensure(
        content["initialData"]["firstName"] == "Ada" && content["meta"]["specHash"].is_string(),
        || format!("no pre-fill or specHash: {content}"),
    )
}

/// The webhook example signs, gets the form and verifies the signed
/// callback carrying it; signed with another secret, it is refused.
fn webhook(base: &str) -> Step {
    let script = project_root().join("examples/webhook/send.py");
    let send = |secret: &str| {
        Command::new("python3")
            .arg(&script)
            .arg("--callback")
            .arg(base)
            .env("WEBHOOK_SECRET", secret)
            .output()
            .map_err(|e| format!("python3: {e}"))
    };
    let sent = send(WEBHOOK_SECRET)?;
    let printed = String::from_utf8_lossy(&sent.stdout);
    ensure(sent.status.success(), || {
        format!(
            "send.py failed: {printed}{}",
            String::from_utf8_lossy(&sent.stderr)
        )
    })?;
    let documents = json_documents(&printed)?;
    let [answer, callback] = documents.as_slice() else {
        return Err(format!("send.py printed {documents:?}"));
    };
    ensure(
        scopes(&answer["uiSchema"]) == expected_scopes(&answer["jsonSchema"]),
        || format!("the answer is not a form of its schema: {answer}"),
    )?;
    ensure(
        answer["meta"]["specHash"].is_string()
            && callback["meta"]["specHash"] == answer["meta"]["specHash"],
        || format!("the callback carried another answer: {callback}"),
    )?;
    let forged = send("not-the-secret")?;
    let refusal = String::from_utf8_lossy(&forged.stderr);
    ensure(
        !forged.status.success()
            && refusal.contains("401")
            && refusal.contains("invalid_signature"),
        || format!("signed with another secret: {refusal}"),
    )
}

/// The shared Python environment's interpreter (scripts/lib/python-env.sh).
fn venv_python() -> PathBuf {
    let home = std::env::var("HOME").unwrap_or_default();
    PathBuf::from(home).join(".cache/genui-worker/venv/bin/python")
}

/// A free port on 127.0.0.1.
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// The LangGraph agent server of examples/langgraph, stopped when dropped.
struct AgentServer {
    child: std::process::Child,
    base: String,
}

impl AgentServer {
    /// On the port the worker's `GENUI_AGENTS` names as `graph`.
    fn start() -> Result<AgentServer, String> {
        let port = upstreams().graph;
        let child = Command::new(venv_python())
            .arg("agent.py")
            .args(["--port", &port.to_string()])
            .current_dir(project_root().join("examples/langgraph"))
            .env("WEBHOOK_SECRET", WEBHOOK_SECRET)
            .stdout(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e} (run ./scripts/setup.sh)", venv_python().display()))?;
        let server = AgentServer {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        server.wait_until_up()?;
        Ok(server)
    }

    fn wait_until_up(&self) -> Step {
        let started = Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(60) {
            if ureq::get(format!("{}/healthz", self.base)).call().is_ok() {
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        Err("the LangGraph agent did not answer /healthz within 60 s".into())
    }

    /// The raw event stream the agent answers to one run.
    fn run(&self, input: &Value) -> Result<String, String> {
        ureq::post(format!("{}/agent", self.base))
            .header("accept", "text/event-stream")
            .send_json(input)
            .map_err(|e| format!("agent run: {e}"))?
            .body_mut()
            .read_to_string()
            .map_err(|e| format!("agent run: {e}"))
    }
}

impl Drop for AgentServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An interrupt answered through the worker resumes a real LangGraph run,
/// which checks the worker's signature; a changed payload is refused.
fn langgraph(base: &str) -> Step {
    let agent = AgentServer::start()?;
    let typed = serde_json::json!({"quarter": "Q1", "year": 2026, "revenue": 4200000});
    let printed = run(Command::new(node())
        .arg("interrupt.ts")
        .arg(typed.to_string())
        .current_dir(project_root().join("examples/agui-client"))
        .env("GENUI_URL", base)
        .env("AGENT_URL", format!("{}/agent", agent.base)))?;
    let loop_: Value = serde_json::from_str(&printed).map_err(|e| format!("{e}: {printed}"))?;
    ensure(
        loop_["state"]["filing"] == typed && loop_["stillPending"] == 0,
        || format!("the agent did not finish with the answer: {loop_}"),
    )?;
    let entry = &loop_["resume"][0];
    ensure(
        entry["status"] == "resolved"
            && entry["interruptId"] == loop_["interrupts"][0]["id"]
            && entry["metadata"]["genui"]["signature"].is_string(),
        || format!("not a signed resume entry: {entry}"),
    )?;
    let mut forged = entry.clone();
    forged["payload"]["revenue"] = 1.into();
    let refused = agent.run(&serde_json::json!({
        "threadId": "thread-forged", "runId": "run-forged", "state": {}, "messages": [],
        "tools": [], "context": [], "forwardedProps": {}, "resume": [forged],
    }))?;
    ensure(
        refused.contains("RUN_ERROR") && refused.contains("invalid_resume_signature"),
        || format!("a changed entry answering no open interrupt was not refused: {refused}"),
    )?;
    proxied_langgraph(base, &typed)
}

/// The ports of the upstream agents the worker's `GENUI_AGENTS` names:
/// reserved before the worker starts, served by the steps.
struct Upstreams {
    /// The LangGraph agent ([`AgentServer`]).
    graph: u16,
    /// Answers an event stream whose second event is not JSON.
    garbage: u16,
    /// Starts its run, then says nothing past its deadline.
    hang: u16,
    /// Nothing listens there.
    refused: u16,
}

/// The upstream agents, their small servers started on first use.
fn upstreams() -> &'static Upstreams {
    static UPSTREAMS: OnceLock<Upstreams> = OnceLock::new();
    UPSTREAMS.get_or_init(|| {
        let port = || free_port().unwrap_or_else(|e| panic!("{e}"));
        Upstreams {
            graph: port(),
            garbage: serve(GARBAGE),
            hang: serve(HANG),
            refused: port(),
        }
    })
}

impl Upstreams {
    /// The worker's `GENUI_AGENTS` setting for them.
    fn setting(&self) -> String {
        let agent = |port: u16, path: &str, deadline_ms: u64| serde_json::json!({"url": format!("http://127.0.0.1:{port}{path}"), "deadlineMs": deadline_ms});
        serde_json::json!({
            "graph": agent(self.graph, "/agent", 60_000),
            "garbage": agent(self.garbage, "/", 5_000),
            "hang": agent(self.hang, "/", HANG_DEADLINE_MS),
            "refused": agent(self.refused, "/", 5_000),
        })
        .to_string()
    }
}

/// The deadline of the `hang` upstream (ms).
const HANG_DEADLINE_MS: u64 = 1_500;
/// An event stream's head and the run's first event.
const STARTED: &str = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"u\"}\n\n";
/// What the `garbage` upstream answers after [`STARTED`].
const GARBAGE: (&str, u64) = ("data: <html>not an event</html>\n\n", 0);
/// The `hang` upstream: nothing for longer than its deadline.
const HANG: (&str, u64) = ("", 8_000);

/// A small upstream on 127.0.0.1: reads each request, answers [`STARTED`]
/// and `then.0`, waits `then.1` ms, and closes. Its threads live as long
/// as the test.
fn serve(then: (&'static str, u64)) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_default();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut stream = stream;
                let _ = read_request(&mut stream);
                let _ = stream.write_all(STARTED.as_bytes());
                let _ = stream.write_all(then.0.as_bytes());
                let _ = stream.flush();
                std::thread::sleep(Duration::from_millis(then.1));
            });
        }
    });
    port
}

/// Reads one HTTP request: its head, then `content-length` bytes of body.
fn read_request(stream: &mut TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut read = Vec::new();
    let mut buffer = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut buffer)?;
        if n == 0 {
            return Ok(());
        }
        read.extend_from_slice(&buffer[..n]);
        if let Some(at) = read.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&read[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = read.len() - head_end;
    while body < length {
        let n = stream.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        body += n;
    }
    Ok(())
}

/// The LangGraph agent through the worker's proxy mode: the form comes in
/// the relayed stream before the agent's RUN_FINISHED, the signed entry
/// resumes the run through the worker, and the agent finishes with the
/// answer (it checks the signature itself).
fn proxied_langgraph(base: &str, typed: &Value) -> Step {
    let printed = run(Command::new(node())
        .arg("proxy.ts")
        .arg(typed.to_string())
        .current_dir(project_root().join("examples/agui-client"))
        .env("GENUI_URL", base)
        .env("UPSTREAM", "graph"))?;
    let loop_: Value = serde_json::from_str(&printed).map_err(|e| format!("{e}: {printed}"))?;
    let events: Vec<&str> = loop_["events"]
        .as_array()
        .map(|e| e.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let form_at = events.iter().position(|t| *t == "ACTIVITY_SNAPSHOT");
    let finished_at = events.iter().position(|t| *t == "RUN_FINISHED");
    ensure(
        matches!((form_at, finished_at), (Some(f), Some(r)) if f < r)
            && events.first() == Some(&"RUN_STARTED")
            && !events.contains(&"RUN_ERROR"),
        || format!("proxy: the form is not in the run before its RUN_FINISHED: {events:?}"),
    )?;
    ensure(
        loop_["schemaWarnings"]
            .as_array()
            .is_some_and(Vec::is_empty),
        || {
            format!(
                "proxy: events that break @ag-ui/core's schemas: {}",
                loop_["schemaWarnings"]
            )
        },
    )?;
    ensure(
        loop_["state"]["filing"] == *typed && loop_["stillPending"] == 0,
        || format!("proxy: the agent did not finish with the answer: {loop_}"),
    )?;
    let entry = &loop_["resume"][0];
    ensure(
        entry["interruptId"] == loop_["interrupts"][0]["id"]
            && entry["metadata"]["genui"]["signature"].is_string(),
        || format!("proxy: not a signed resume entry: {entry}"),
    )
}

/// A run through `/v1/agent` for the named upstream: status and body.
fn proxied_run(base: &str, upstream: &str) -> Result<(u16, String), String> {
    let input = serde_json::json!({"threadId": "t-proxy", "runId": "r-proxy", "messages": [],
        "state": {}, "tools": [], "context": [], "forwardedProps": {"upstream": upstream}});
    let mut response = ureq::post(format!("{base}/v1/agent"))
        .header("accept", "text/event-stream")
        .config()
        .http_status_as_error(false)
        .build()
        .send_json(&input)
        .map_err(|e| format!("{upstream}: {e}"))?;
    let status = response.status().as_u16();
    let body = response
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("{upstream}: {e}"))?;
    Ok((status, body))
}

/// The `RUN_ERROR` codes of an AG-UI event stream.
fn run_error_codes(stream: &str) -> Vec<String> {
    stream
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .filter(|event| event["type"] == "RUN_ERROR")
        .map(|event| event["code"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Upstreams that answer garbage, hang or refuse: each run ends with its
/// `RUN_ERROR` code (the hang one near its deadline); an unknown name is
/// refused before the stream.
fn proxy_failures(base: &str) -> Step {
    for (upstream, code) in [
        ("garbage", "upstream_invalid"),
        ("hang", "upstream_timeout"),
        ("refused", "upstream_unavailable"),
    ] {
        let started = Instant::now();
        let (status, body) = proxied_run(base, upstream)?;
        let took = started.elapsed();
        ensure(
            status == 200 && run_error_codes(&body) == [code] && body.contains("RUN_STARTED"),
            || format!("{upstream}: {status} {body}"),
        )?;
        ensure(
            upstream != "hang" || took < Duration::from_millis(HANG_DEADLINE_MS + 3_000),
            || format!("hang: the deadline of {HANG_DEADLINE_MS} ms took {took:?}"),
        )?;
    }
    let (status, body) = proxied_run(base, "nobody")?;
    let error: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
    ensure(
        status == 400 && error["payload"]["pointer"] == "/forwardedProps/upstream",
        || format!("an unknown upstream: {status} {body}"),
    )
}

/// The Python client's tests against this worker, in the shared venv.
fn python_client(base: &str) -> Step {
    run(Command::new(venv_python())
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "worker",
            "tests",
        ])
        .current_dir(project_root().join("clients/python"))
        .env("GENUI_URL", base)
        .env("GENUI_WEBHOOK_SECRET", WEBHOOK_SECRET))
    .map(drop)
}

/// The TypeScript client's worker tests against this worker, on node 22.
fn ts_client(base: &str) -> Step {
    run(Command::new("npm")
        .args(["run", "--silent", "test:worker"])
        .current_dir(project_root().join("clients/ts"))
        .env("PATH", path_with_node())
        .env("GENUI_URL", base)
        .env("GENUI_WEBHOOK_SECRET", WEBHOOK_SECRET))
    .map(drop)
}

/// Each host configuration of examples/mcp, connected with the MCP SDK.
fn mcp_hosts(base: &str) -> Step {
    run(Command::new(node())
        .args(["--test", "hosts.mjs"])
        .current_dir(project_root().join("tests/mcp"))
        .env("GENUI_BASE", base))
    .map(drop)
}

/// A page's MCP SDK block: a `js` block importing the SDK's client.
fn sdk_block(text: &str) -> Option<String> {
    fences(text)
        .into_iter()
        .find(|f| f.lang == "js" && f.text.contains("@modelcontextprotocol/sdk/client"))
        .map(|f| f.text)
}

/// The MCP SDK block the README shows, or else the one of the page its
/// `/mcp` row links to.
fn readme_mcp_block() -> Result<String, String> {
    let text = readme()?;
    if let Some(block) = sdk_block(&text) {
        return Ok(block);
    }
    let row = text
        .lines()
        .find(|line| line.starts_with('|') && line.contains("`POST /mcp`"))
        .ok_or("README.md has no front-door row for `POST /mcp`")?;
    let page = row
        .rsplit("](")
        .next()
        .and_then(|rest| rest.split([')', '#']).next())
        .ok_or("README.md's `/mcp` row links no page")?;
    let linked =
        std::fs::read_to_string(project_root().join(page)).map_err(|e| format!("{page}: {e}"))?;
    sdk_block(&linked).ok_or_else(|| format!("{page} has no MCP SDK client block"))
}

/// The block with its worker URL (the string literal ending in `/mcp`)
/// pointed at `base`.
fn at_worker(block: &str, base: &str) -> Result<String, String> {
    let end = block
        .find("/mcp\"")
        .ok_or("the MCP block names no \"…/mcp\" URL")?;
    let start = block[..end]
        .rfind('"')
        .ok_or("the MCP block's URL is not a string literal")?;
    Ok(format!("{}\"{base}{}", &block[..start], &block[end..]))
}

/// Runs the README's MCP block, then lists the tools and generates the
/// form of `arguments` with the client it connected.
fn mcp_walkthrough(base: &str, arguments: &Value) -> Result<Value, String> {
    let block = at_worker(&readme_mcp_block()?, base)?;
    let script = format!(
        "{block}\nconst {{ tools }} = await client.listTools();\n\
         const made = await client.callTool({{ name: \"generate_user_interface\", arguments: {arguments} }});\n\
         console.log(JSON.stringify({{ tools: tools.map((t) => t.name), made }}));\nawait client.close();\n"
    );
    let printed = run(Command::new(node())
        .args(["--input-type=module", "-e", &script])
        .current_dir(project_root().join("tests/mcp"))
        .env("GENUI_KEY", "walkthrough"))?;
    serde_json::from_str(&printed).map_err(|e| format!("{e}: {printed}"))
}

/// The README's generate block with a query added to its URL.
fn with_query(command: &str, query: &str) -> String {
    let url = format!("{DOCS_ORIGIN}/v1/generate");
    command.replacen(&url, &format!("'{url}?{query}'"), 1)
}

/// The form as a page: the `<form>` of this form's spec, a field named by
/// each property's JSON Pointer, each label of the form, and the
/// pre-filled data.
fn renders(page: &str, form: &Value) -> Step {
    let spec_hash = form["meta"]["specHash"].as_str().unwrap_or_default();
    ensure(
        page.contains(&format!("data-spec-hash=\"{spec_hash}\"")),
        || format!("the page has no <form> of the spec {spec_hash}"),
    )?;
    for scope in scopes(&form["uiSchema"]) {
        let name = scope.trim_start_matches("#/properties");
        ensure(page.contains(&format!("name=\"{name}\"")), || {
            format!("the page has no field named {name}")
        })?;
    }
    let labels = form["uiSchema"].to_string();
    for label in labels.split("\"label\":\"").skip(1) {
        let label = label.split('"').next().unwrap_or_default();
        ensure(page.contains(label), || format!("the page lacks {label:?}"))?;
    }
    for value in form["initialData"]
        .as_object()
        .into_iter()
        .flat_map(|d| d.values())
    {
        let value = value.as_str().unwrap_or_default();
        ensure(page.contains(&format!("value=\"{value}\"")), || {
            format!("{value:?} is not pre-filled")
        })?;
    }
    Ok(())
}

/// README.md alone: generate, render, submit, connect an MCP client.
fn walkthrough(base: &str) -> Step {
    let generate = readme_example("/v1/generate")?;
    let form = serde_json::from_str::<Value>(&run_block(&generate.command, base)?)
        .map_err(|e| format!("generate: {e}"))?;
    matches(&shown(&generate)?, &form, "").map_err(|e| format!("generate: {e}"))?;
    let spec_hash = &form["meta"]["specHash"];

    let text = readme()?;
    ensure(text.contains("?format=") && text.contains("`html`"), || {
        "README.md does not name ?format=html".into()
    })?;
    let page = run_block(&with_query(&generate.command, "format=html"), base)?;
    renders(&page, &form).map_err(|e| format!("render: {e}"))?;

    let submit = readme_example("/v1/submit")?;
    let submission = body_of(&submit)?;
    ensure(&submission["specHash"] == spec_hash, || {
        format!(
            "{} submits to another form than the README generates",
            submit.place
        )
    })?;
    let message = serde_json::from_str::<Value>(&run_block(&submit.command, base)?)
        .map_err(|e| format!("submit: {e}"))?;
    matches(&shown(&submit)?, &message, "").map_err(|e| format!("submit: {e}"))?;
    let handed_back: Value = serde_json::from_str(message["content"].as_str().unwrap_or_default())
        .map_err(|e| format!("submit: the tool message's content: {e}"))?;
    ensure(handed_back == submission["data"], || {
        format!("submit: the agent gets {handed_back}, not the data sent")
    })?;

    let arguments = &body_of(&generate)?["arguments"];
    let connected = mcp_walkthrough(base, arguments).map_err(|e| format!("mcp: {e}"))?;
    ensure(
        connected["tools"]
            .as_array()
            .is_some_and(|t| t.iter().any(|n| n == "generate_user_interface")),
        || format!("mcp: tools {}", connected["tools"]),
    )?;
    ensure(
        &connected["made"]["structuredContent"]["specHash"] == spec_hash,
        || format!("mcp: not the README's form: {}", connected["made"]),
    )
}

/// One example run against the worker at the given origin.
type Runner = fn(&str) -> Step;

/// Every example, in the order they run.
const STEPS: [(&str, Runner); 9] = [
    ("examples/curl", curl_example),
    ("examples/agui-client", agui_client),
    ("examples/webhook", webhook),
    ("examples/langgraph", langgraph),
    ("proxy mode failures", proxy_failures),
    ("clients/python", python_client),
    ("clients/ts", ts_client),
    ("examples/mcp", mcp_hosts),
    ("README walkthrough", walkthrough),
];

#[test]
#[ignore = "needs wrangler dev; run by scripts/test.sh with --ignored"]
fn every_example_runs_against_the_worker() {
    let opts = Options::default()
        .var("CHECK_CONTRACTS", "true")
        .var("WEBHOOK_SECRET", WEBHOOK_SECRET)
        .var("WEBHOOK_ALLOW_HTTP_CALLBACKS", "true")
        .var("GENUI_AGENTS", upstreams().setting());
    let dev = WranglerDev::start(opts).unwrap_or_else(|e| panic!("{e}"));
    let base = dev.base_url();
    let mut failures = Vec::new();
    for (name, step) in STEPS {
        let started = Instant::now();
        let outcome = step(&base);
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "examples: {name}: {} in {seconds:.1} s",
            if outcome.is_ok() { "ok" } else { "FAILED" }
        );
        if let Err(why) = outcome {
            failures.push(format!("{name}: {why}"));
        }
    }
    assert!(
        failures.is_empty(),
        "examples that failed against the worker:\n{}\n\nwrangler log:\n{}",
        failures.join("\n\n"),
        dev.log_tail(4000)
    );
}

#[test]
fn the_curl_example_sends_the_readmes_bodies() {
    let dir = project_root().join("examples/curl");
    for (route, file) in [
        ("/v1/generate", "generate.json"),
        ("/v1/submit", "submit.json"),
    ] {
        let example = readme_example(route).unwrap_or_else(|e| panic!("{e}"));
        let body = body_of(&example).unwrap_or_else(|e| panic!("{e}"));
        let sent = read_json(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            body, sent,
            "examples/curl/{file} differs from {}",
            example.place
        );
    }
}

#[test]
fn a_request_block_is_found_by_its_route_and_gives_its_body() {
    let page = "```sh\ncurl -s http://127.0.0.1:8787/v1/generate/stream -d '{\"a\":1}'\n```\n```json\n{}\n```\n\
                ```sh\ncurl -s 'http://127.0.0.1:8787/v1/generate?format=rjsf' -H 'x: y' -d '{\"name\": \"O'\\''Brien\"}'\n```\n```json\n{}\n```\n";
    let found: Vec<Example> = examples("page.md", page)
        .into_iter()
        .filter(|e| calls(&e.command, "/v1/generate"))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        body_of(&found[0]),
        Ok(serde_json::json!({"name": "O'Brien"}))
    );
}

#[test]
fn the_mcp_block_is_pointed_at_the_worker_under_test() {
    let block = "const t = new T(new URL(\"https://genui.example.workers.dev/mcp\"), {});\n";
    assert_eq!(
        at_worker(block, "http://127.0.0.1:4321"),
        Ok("const t = new T(new URL(\"http://127.0.0.1:4321/mcp\"), {});\n".to_owned())
    );
    assert!(at_worker("no url here", "http://x").is_err());
}

#[test]
fn every_example_folder_has_a_two_line_readme() {
    let root = project_root().join("examples");
    for name in ["curl", "agui-client", "webhook", "langgraph", "mcp"] {
        let readme = std::fs::read_to_string(root.join(name).join("README.md"))
            .unwrap_or_else(|e| panic!("examples/{name}/README.md: {e}"));
        assert_eq!(readme.lines().count(), 2, "examples/{name}/README.md");
    }
}
