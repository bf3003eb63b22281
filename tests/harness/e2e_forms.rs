//! Hosted forms end to end (a worker with `WEBHOOK_SECRET`, API keys and
//! local http callbacks allowed): a link is made, its page served, an
//! invalid post answered with the errors by their fields, a valid one
//! delivered once, signed, to a listener that checks the signature; a
//! replay, a forged and an expired link are refused; and an answer posted
//! while the listener is down arrives, once, after it is back.

use super::Step;
use genui_core::{FormToken, Webhook};
use genui_harness::{Reply, WranglerDev};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Step {
    if cond { Ok(()) } else { Err(what()) }
}

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default()
}

fn send(dev: &WranglerDev, method: &str, path: &str, body: Vec<u8>, headers: &[(&str, &str)]) -> Result<Reply, String> {
    let mut builder = ureq::http::Request::builder().method(method).uri(format!("{}{path}", dev.base_url()));
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    let request = builder.body(body).map_err(|e| e.to_string())?;
    let mut response = dev.agent().run(request).map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let headers = response.headers().iter().map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or_default().to_owned())).collect();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    Ok(Reply { status, headers, body })
}

fn post_form(dev: &WranglerDev, path: &str, pairs: &[(&str, &str)]) -> Result<Reply, String> {
    let mut encoder = form_urlencoded::Serializer::new(String::new());
    pairs.iter().for_each(|(k, v)| {
        encoder.append_pair(k, v);
    });
    send(dev, "POST", path, encoder.finish().into_bytes(), &[("content-type", "application/x-www-form-urlencoded")])
}

/// Makes a link whose answer goes to `port`; its path (no origin, no fragment).
fn make_link(dev: &WranglerDev, port: u16, data: Value) -> Result<(String, Value), String> {
    let body = json!({"tool": "generateUserInterface", "toolCallId": "call_form_e2e", "callbackUrl": format!("http://127.0.0.1:{port}/hook"),
        "locale": "de-AT", "arguments": {"description": "Transfer money", "data": data, "output": {"type": "object", "required": ["to", "amount"],
            "properties": {"to": {"type": "string", "title": "Recipient"}, "amount": {"type": "integer", "minimum": 1, "title": "Amount (EUR)"}}}}});
    let unauthorised = send(dev, "POST", "/v1/forms", body.to_string().into_bytes(), &[("content-type", "application/json")])?;
    ensure(unauthorised.status == 401, || format!("/v1/forms without a key: {}", unauthorised.status))?;
    let made = send(dev, "POST", "/v1/forms", body.to_string().into_bytes(), &[("content-type", "application/json"), ("authorization", "Bearer key-one")])?;
    let answer = made.try_json()?;
    ensure(made.status == 201 && answer["expiresAt"].as_str().is_some_and(|t| t.ends_with('Z')), || format!("/v1/forms: {}", made.body_excerpt()))?;
    let url = answer["url"].as_str().unwrap_or_default();
    let path = url.split_once("/f/").map(|(_, rest)| format!("/f/{rest}")).ok_or_else(|| format!("url: {url}"))?;
    let (path, fragment) = path.split_once('#').map(|(p, f)| (p.to_owned(), Some(f.to_owned()))).unwrap_or((path.clone(), None));
    Ok((path, json!({"fragment": fragment, "answer": answer})))
}

/// A callback endpoint on `port`, answering in a thread: each callback's
/// body arrives on the channel once its signature checked out.
struct Endpoint {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    received: std::sync::mpsc::Receiver<Result<String, String>>,
}

impl Endpoint {
    fn start(listener: TcpListener, secret: &str) -> Result<Self, String> {
        use std::sync::atomic::Ordering;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (send, received) = std::sync::mpsc::channel();
        let (flag, secret) = (stop.clone(), secret.to_owned());
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let _ = send.send(read_callback(stream, &secret));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        });
        Ok(Self { stop, thread: Some(thread), received })
    }

    fn next(&self, wait: Duration) -> Result<Option<String>, String> {
        match self.received.recv_timeout(wait) {
            Ok(result) => result.map(Some),
            Err(_) => Ok(None),
        }
    }

    /// Takes the endpoint down (the port is closed when this returns).
    fn stop(mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One callback request: its body, after checking its signature.
fn read_callback(mut stream: std::net::TcpStream, secret: &str) -> Result<String, String> {
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let complete = text.find("\r\n\r\n").is_some_and(|split| {
            let length = text[..split].lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap_or(0)));
            raw.len() >= split + 4 + length.unwrap_or(0)
        });
        if n == 0 || complete {
            break;
        }
    }
    let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, payload) = text.split_once("\r\n\r\n").ok_or("malformed callback")?;
    let signature = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case(Webhook::SIGNATURE_HEADER).then(|| value.trim().to_owned())
    });
    Webhook::verify_callback(signature.as_deref(), payload.as_bytes(), secret, now()).map_err(|e| format!("callback signature: {e}"))?;
    ensure(Webhook::verify(signature.as_deref(), payload.as_bytes(), secret, now()).is_err(), || "a callback signature must not pass as a webhook's".into())?;
    Ok(payload.to_owned())
}

/// The whole flow.
pub fn hosted_forms(dev: &WranglerDev, secret: &str) -> Step {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let endpoint = Endpoint::start(listener, secret)?;
    let (path, link) = make_link(dev, port, json!({"to": "Bob", "amount": 10}))?;
    ensure(link["fragment"].as_str().is_some_and(|f| f.starts_with("data=")), || format!("pre-fill rides in the fragment: {link}"))?;

    let page = send(dev, "GET", &path, Vec::new(), &[])?;
    ensure(page.status == 200 && page.header("content-type").is_some_and(|t| t.starts_with("text/html")), || format!("GET: {}", page.body_excerpt()))?;
    ensure(page.header("content-security-policy").is_some_and(|c| c.starts_with("default-src 'none'")), || "the page's CSP".into())?;
    ensure(page.body.contains(r#"<html lang="de">"#) && page.body.contains("Absenden") && page.body.contains("data-expect="), || "a German page bound to its data".into())?;
    ensure(!page.body.contains("Bob"), || "the pre-fill never reaches the server".into())?;

    let invalid = post_form(dev, &path, &[("/to", ""), ("/amount", "0")])?;
    ensure(invalid.status == 422 && invalid.body.contains("genui-summary") && invalid.body.contains("Dieses Feld ist erforderlich.") && invalid.body.contains("Geben Sie 1 oder mehr ein."),
        || format!("invalid: {} {}", invalid.status, invalid.body_excerpt()))?;
    ensure(invalid.body.contains(r#"aria-invalid="true""#) && invalid.body.contains(r#"value="0""#), || "errors by their fields, values kept".into())?;
    let unknown = post_form(dev, &path, &[("/to", "Bob"), ("/amount", "10"), ("/admin", "1")])?;
    ensure(unknown.status == 400, || format!("unknown field: {}", unknown.status))?;
    // (An oversized post is answered 413 before its body is read; the
    // client here would block writing it, so tests/html.rs covers that.)

    let valid = post_form(dev, &path, &[("/to", "Bob"), ("/amount", "10")])?;
    ensure(valid.status == 200 && valid.body.contains(r#"data-state="delivered""#), || format!("valid: {} {}", valid.status, valid.body_excerpt()))?;
    let delivered = endpoint.next(Duration::from_secs(10))?.ok_or("no callback")?;
    let message: Value = serde_json::from_str(&delivered).map_err(|e| e.to_string())?;
    let content: Value = serde_json::from_str(message["content"].as_str().unwrap_or_default()).map_err(|e| e.to_string())?;
    ensure(message["toolCallId"] == "call_form_e2e" && content == json!({"to": "Bob", "amount": 10}), || format!("message: {message}"))?;

    let replay = post_form(dev, &path, &[("/to", "Eve"), ("/amount", "99")])?;
    ensure(replay.status == 409 && replay.body.contains("already_submitted"), || format!("replay: {}", replay.status))?;
    ensure(endpoint.next(Duration::from_secs(2))?.is_none(), || "a replay must deliver nothing".into())?;

    let forged = send(dev, "GET", &format!("{path}x"), Vec::new(), &[])?;
    ensure(forged.status == 404 && forged.header("content-type").is_some_and(|t| t.starts_with("text/html")), || format!("forged: {}", forged.status))?;
    let expired = FormToken { spec_hash: "a".repeat(64), tool_call_id: None, callback_url: "https://agent.example.com/".into(), expires_at: now() - 1, locale: None, data_hash: None, nonce: "e2e".into() };
    let expired = send(dev, "GET", &format!("/f/{}", expired.sign(secret)), Vec::new(), &[])?;
    ensure(expired.status == 410, || format!("expired: {}", expired.status))?;
    let long = send(dev, "GET", &format!("/f/{}", "a".repeat(5000)), Vec::new(), &[])?;
    ensure(long.status == 404, || format!("oversized token: {}", long.status))?;

    // The agent's endpoint is down: the answer is kept and retried.
    endpoint.stop();
    let (path, _) = make_link(dev, port, Value::Null)?;
    let kept = post_form(dev, &path, &[("/to", "Carol"), ("/amount", "5")])?;
    ensure(kept.status == 202 && kept.body.contains(r#"data-state="retrying""#), || format!("listener down: {} {}", kept.status, kept.body_excerpt()))?;
    std::thread::sleep(Duration::from_secs(1));
    let endpoint = Endpoint::start(TcpListener::bind(("127.0.0.1", port)).map_err(|e| format!("rebinding {port}: {e}"))?, secret)?;
    let arrived = endpoint.next(Duration::from_secs(30))?.ok_or("the kept answer never arrived")?;
    ensure(arrived.contains("Carol"), || format!("arrived: {arrived}"))?;
    ensure(endpoint.next(Duration::from_secs(6))?.is_none(), || "the kept answer arrived twice".into())?;
    endpoint.stop();
    let after = send(dev, "GET", &path, Vec::new(), &[])?;
    ensure(after.body.contains(r#"data-state="delivered""#), || format!("state after retry: {}", after.body_excerpt()))
}
