//! Hosted forms end to end (a worker with `WEBHOOK_SECRET`, API keys and
//! local http callbacks allowed): a link is made, its page served, an
//! invalid post answered with the errors by their fields, a valid one
//! accepted at once and delivered once, signed and with its delivery id,
//! to a listener that checks the signature; a replay, a forged and an
//! expired link are refused; a link for a very long tool call id opens; an
//! answer posted while the listener is down arrives, once, after it is
//! back; a redirect is never followed; and ([`survives_a_restart`]) an
//! answer whose delivery was under way when the worker was killed arrives
//! after a restart on the same state, with the same delivery id.

use super::Step;
use genui_core::{FormToken, Webhook};
use genui_harness::{Reply, WranglerDev};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

fn ensure(cond: bool, what: impl FnOnce() -> String) -> Step {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

fn send(
    dev: &WranglerDev,
    method: &str,
    path: &str,
    body: Vec<u8>,
    headers: &[(&str, &str)],
) -> Result<Reply, String> {
    dev.try_send(method, path, Some(&body), headers)
}

fn post_form(dev: &WranglerDev, path: &str, pairs: &[(&str, &str)]) -> Result<Reply, String> {
    let mut encoder = form_urlencoded::Serializer::new(String::new());
    pairs.iter().for_each(|(k, v)| {
        encoder.append_pair(k, v);
    });
    send(
        dev,
        "POST",
        path,
        encoder.finish().into_bytes(),
        &[("content-type", "application/x-www-form-urlencoded")],
    )
}

/// Makes a link whose answer goes to `port`; its path (no origin, no fragment).
fn make_link(dev: &WranglerDev, port: u16, data: Value) -> Result<(String, Value), String> {
    make_link_for(dev, port, data, "call_form_e2e")
}

/// [`make_link`] for the tool call `tool_call_id`.
fn make_link_for(
    dev: &WranglerDev,
    port: u16,
    data: Value,
    tool_call_id: &str,
) -> Result<(String, Value), String> {
    let body = json!({"tool": "generateUserInterface", "toolCallId": tool_call_id, "callbackUrl": format!("http://127.0.0.1:{port}/hook"),
        "locale": "de-AT", "arguments": {"description": "Transfer money", "data": data, "output": {"type": "object", "required": ["to", "amount"],
            "properties": {"to": {"type": "string", "title": "Recipient"}, "amount": {"type": "integer", "minimum": 1, "title": "Amount (EUR)"}}}}});
    let unauthorised = send(
        dev,
        "POST",
        "/v1/forms",
        body.to_string().into_bytes(),
        &[("content-type", "application/json")],
    )?;
    ensure(unauthorised.status == 401, || {
        format!("/v1/forms without a key: {}", unauthorised.status)
    })?;
    let made = send(
        dev,
        "POST",
        "/v1/forms",
        body.to_string().into_bytes(),
        &[
            ("content-type", "application/json"),
            ("authorization", "Bearer key-one"),
        ],
    )?;
    let answer = made.try_json()?;
    ensure(
        made.status == 201
            && answer["expiresAt"]
                .as_str()
                .is_some_and(|t| t.ends_with('Z')),
        || format!("/v1/forms: {}", made.body_excerpt()),
    )?;
    let url = answer["url"].as_str().unwrap_or_default();
    let path = url
        .split_once("/f/")
        .map(|(_, rest)| format!("/f/{rest}"))
        .ok_or_else(|| format!("url: {url}"))?;
    let (path, fragment) = path
        .split_once('#')
        .map(|(p, f)| (p.to_owned(), Some(f.to_owned())))
        .unwrap_or((path.clone(), None));
    Ok((path, json!({"fragment": fragment, "answer": answer})))
}

/// One callback as received: its body (signature checked) and its
/// delivery id header.
#[derive(Debug)]
struct Callback {
    body: String,
    delivery_id: Option<String>,
}

/// How an [`Endpoint`] answers.
#[derive(Debug, Clone, Copy)]
enum Behaviour {
    /// 204 to every callback.
    Take,
    /// The first callback is read and never answered (held until the
    /// endpoint stops); 204 to the others.
    HangFirst,
    /// A redirect to this port's `/stolen` for every callback.
    Redirect(u16),
}

/// A callback endpoint on `port`, answering in a thread: each callback's
/// body arrives on the channel once its signature checked out.
struct Endpoint {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    received: std::sync::mpsc::Receiver<Result<Callback, String>>,
}

impl Endpoint {
    fn start(listener: TcpListener, secret: &str) -> Result<Self, String> {
        Self::start_as(listener, secret, Behaviour::Take)
    }

    fn start_as(listener: TcpListener, secret: &str, behaviour: Behaviour) -> Result<Self, String> {
        use std::sync::atomic::Ordering;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (send, received) = std::sync::mpsc::channel();
        let (flag, secret) = (stop.clone(), secret.to_owned());
        let thread = std::thread::spawn(move || {
            let mut held = Vec::new();
            while !flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((mut stream, _)) => {
                        let callback = read_callback(&mut stream, &secret);
                        let reply = match behaviour {
                            Behaviour::HangFirst if held.is_empty() => None,
                            Behaviour::Redirect(to) => Some(format!("HTTP/1.1 307 Temporary Redirect\r\nlocation: http://127.0.0.1:{to}/stolen\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")),
                            _ => Some("HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n".to_owned()),
                        };
                        match reply {
                            Some(reply) => {
                                let _ = stream.write_all(reply.as_bytes());
                            }
                            None => held.push(stream),
                        }
                        let _ = send.send(callback);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        });
        Ok(Self {
            stop,
            thread: Some(thread),
            received,
        })
    }

    fn next(&self, wait: Duration) -> Result<Option<String>, String> {
        Ok(self.next_callback(wait)?.map(|c| c.body))
    }

    fn next_callback(&self, wait: Duration) -> Result<Option<Callback>, String> {
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
fn read_callback(stream: &mut std::net::TcpStream, secret: &str) -> Result<Callback, String> {
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let complete = text.find("\r\n\r\n").is_some_and(|split| {
            let length = text[..split].lines().find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length:")
                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
            });
            raw.len() >= split + 4 + length.unwrap_or(0)
        });
        if n == 0 || complete {
            break;
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, payload) = text.split_once("\r\n\r\n").ok_or("malformed callback")?;
    let header = |wanted: &str| {
        head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case(wanted)
                .then(|| value.trim().to_owned())
        })
    };
    let signature = header(Webhook::SIGNATURE_HEADER);
    Webhook::verify_callback(signature.as_deref(), payload.as_bytes(), secret, now())
        .map_err(|e| format!("callback signature: {e}"))?;
    ensure(
        Webhook::verify(signature.as_deref(), payload.as_bytes(), secret, now()).is_err(),
        || "a callback signature must not pass as a webhook's".into(),
    )?;
    Ok(Callback {
        body: payload.to_owned(),
        delivery_id: header("x-genui-delivery-id"),
    })
}

/// Polls the page at `path` until it shows `state` (up to `wait`).
fn page_reaches(dev: &WranglerDev, path: &str, state: &str, wait: Duration) -> Step {
    let deadline = std::time::Instant::now() + wait;
    loop {
        let page = send(dev, "GET", path, Vec::new(), &[])?;
        if page.body.contains(&format!(r#"data-state="{state}""#)) {
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            return Err(format!(
                "the page never showed {state}: {} {}",
                page.status,
                page.body_excerpt()
            ));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The whole flow.
pub fn hosted_forms(dev: &WranglerDev, secret: &str) -> Step {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let endpoint = Endpoint::start(listener, secret)?;
    let (path, link) = make_link(dev, port, json!({"to": "Bob", "amount": 10}))?;
    ensure(
        link["fragment"]
            .as_str()
            .is_some_and(|f| f.starts_with("data=")),
        || format!("pre-fill rides in the fragment: {link}"),
    )?;

    let page = send(dev, "GET", &path, Vec::new(), &[])?;
    ensure(
        page.status == 200
            && page
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/html")),
        || format!("GET: {}", page.body_excerpt()),
    )?;
    ensure(
        page.header("content-security-policy")
            .is_some_and(|c| c.starts_with("default-src 'none'")),
        || "the page's CSP".into(),
    )?;
    ensure(
        page.body.contains(r#"<html lang="de">"#)
            && page.body.contains("Absenden")
            && page.body.contains("data-expect="),
        || "a German page bound to its data".into(),
    )?;
    // As a value, text or JSON string: the page's link token and salted
    // digest are random base64url, which may spell `Bob` but never quote it.
    let leaked = ["\"Bob", ">Bob", "=Bob"]
        .iter()
        .find(|shown| page.body.contains(**shown));
    ensure(leaked.is_none(), || {
        format!("the pre-fill never reaches the server: {leaked:?}")
    })?;

    let invalid = post_form(dev, &path, &[("/to", ""), ("/amount", "0")])?;
    ensure(
        invalid.status == 422
            && invalid.body.contains("genui-summary")
            && invalid.body.contains("Dieses Feld ist erforderlich.")
            && invalid.body.contains("Geben Sie 1 oder mehr ein."),
        || format!("invalid: {} {}", invalid.status, invalid.body_excerpt()),
    )?;
    ensure(
        invalid.body.contains(r#"aria-invalid="true""#) && invalid.body.contains(r#"value="0""#),
        || "errors by their fields, values kept".into(),
    )?;
    let unknown = post_form(
        dev,
        &path,
        &[("/to", "Bob"), ("/amount", "10"), ("/admin", "1")],
    )?;
    ensure(unknown.status == 400, || {
        format!("unknown field: {}", unknown.status)
    })?;
    // (An oversized post is answered 413 before its body is read; the
    // client here would block writing it, so tests/html.rs covers that.)

    // Accepted once stored: the person is answered before any delivery.
    let valid = post_form(dev, &path, &[("/to", "Bob"), ("/amount", "10")])?;
    ensure(
        valid.status == 202 && valid.body.contains(r#"data-state="received""#),
        || format!("valid: {} {}", valid.status, valid.body_excerpt()),
    )?;
    let delivered = endpoint
        .next_callback(Duration::from_secs(10))?
        .ok_or("no callback")?;
    let message: Value = serde_json::from_str(&delivered.body).map_err(|e| e.to_string())?;
    let content: Value = serde_json::from_str(message["content"].as_str().unwrap_or_default())
        .map_err(|e| e.to_string())?;
    ensure(
        message["toolCallId"] == "call_form_e2e" && content == json!({"to": "Bob", "amount": 10}),
        || format!("message: {message}"),
    )?;
    ensure(
        delivered.delivery_id.is_some()
            && delivered.delivery_id.as_deref() == message["id"].as_str(),
        || {
            format!(
                "the delivery id is the message's id: {:?} {message}",
                delivered.delivery_id
            )
        },
    )?;
    page_reaches(dev, &path, "delivered", Duration::from_secs(5))?;

    let replay = post_form(dev, &path, &[("/to", "Eve"), ("/amount", "99")])?;
    ensure(
        replay.status == 409 && replay.body.contains("already_submitted"),
        || format!("replay: {}", replay.status),
    )?;
    ensure(endpoint.next(Duration::from_secs(2))?.is_none(), || {
        "a replay must deliver nothing".into()
    })?;

    let forged = send(dev, "GET", &format!("{path}x"), Vec::new(), &[])?;
    ensure(
        forged.status == 404
            && forged
                .header("content-type")
                .is_some_and(|t| t.starts_with("text/html")),
        || format!("forged: {}", forged.status),
    )?;
    let expired = FormToken::new([9; FormToken::ID_BYTES], now() - 1);
    let expired = send(
        dev,
        "GET",
        &format!("/f/{}", expired.sign(secret)),
        Vec::new(),
        &[],
    )?;
    ensure(expired.status == 410, || {
        format!("expired: {}", expired.status)
    })?;
    let long = send(
        dev,
        "GET",
        &format!("/f/{}", "a".repeat(5000)),
        Vec::new(),
        &[],
    )?;
    ensure(long.status == 404, || {
        format!("oversized token: {}", long.status)
    })?;

    let unknown_id = send(
        dev,
        "GET",
        &format!(
            "/f/{}",
            FormToken::new([9; FormToken::ID_BYTES], now() + 600).sign(secret)
        ),
        Vec::new(),
        &[],
    )?;
    ensure(unknown_id.status == 404, || {
        format!("a signed link naming no record: {}", unknown_id.status)
    })?;

    // A very long tool call id: the link stays short and opens.
    let (long_path, _) = make_link_for(
        dev,
        port,
        Value::Null,
        &format!("call_{}", "x".repeat(3_500)),
    )?;
    ensure(long_path.len() < 100, || {
        format!(
            "a link's length does not grow with the request: {}",
            long_path.len()
        )
    })?;
    let opened = send(dev, "GET", &long_path, Vec::new(), &[])?;
    ensure(
        opened.status == 200 && opened.body.contains("<form"),
        || {
            format!(
                "a long tool call id's link: {} {}",
                opened.status,
                opened.body_excerpt()
            )
        },
    )?;

    // The agent's endpoint is down: the answer is kept and retried.
    endpoint.stop();
    let (path, _) = make_link(dev, port, Value::Null)?;
    let kept = post_form(dev, &path, &[("/to", "Carol"), ("/amount", "5")])?;
    ensure(
        kept.status == 202 && kept.body.contains(r#"data-state="received""#),
        || format!("listener down: {} {}", kept.status, kept.body_excerpt()),
    )?;
    page_reaches(dev, &path, "retrying", Duration::from_secs(10))?;
    let endpoint = Endpoint::start(
        TcpListener::bind(("127.0.0.1", port)).map_err(|e| format!("rebinding {port}: {e}"))?,
        secret,
    )?;
    let arrived = endpoint
        .next(Duration::from_secs(30))?
        .ok_or("the kept answer never arrived")?;
    ensure(arrived.contains("Carol"), || format!("arrived: {arrived}"))?;
    ensure(endpoint.next(Duration::from_secs(6))?.is_none(), || {
        "the kept answer arrived twice".into()
    })?;
    endpoint.stop();
    page_reaches(dev, &path, "delivered", Duration::from_secs(5))?;
    redirects_are_not_followed(dev, secret)
}

/// A callback answering 307 to another local port: the signed answer is
/// never sent there, the attempt counts as failed and is retried.
fn redirects_are_not_followed(dev: &WranglerDev, secret: &str) -> Step {
    let target = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let target_port = target.local_addr().map_err(|e| e.to_string())?.port();
    let stolen = Endpoint::start(target, secret)?;
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let redirecting = Endpoint::start_as(listener, secret, Behaviour::Redirect(target_port))?;
    let (path, _) = make_link(dev, port, Value::Null)?;
    let posted = post_form(dev, &path, &[("/to", "Dave"), ("/amount", "7")])?;
    ensure(posted.status == 202, || {
        format!("redirect case: {}", posted.status)
    })?;
    let first = redirecting
        .next_callback(Duration::from_secs(10))?
        .ok_or("the redirecting endpoint got nothing")?;
    let again = redirecting
        .next_callback(Duration::from_secs(15))?
        .ok_or("a redirect is a failure that is retried")?;
    ensure(
        first.delivery_id.is_some() && first.delivery_id == again.delivery_id,
        || {
            format!(
                "one delivery id across attempts: {:?} {:?}",
                first.delivery_id, again.delivery_id
            )
        },
    )?;
    ensure(stolen.next(Duration::from_secs(1))?.is_none(), || {
        "the signed answer followed a redirect".into()
    })?;
    page_reaches(dev, &path, "retrying", Duration::from_secs(5))?;
    redirecting.stop();
    stolen.stop();
    Ok(())
}

/// Kills the worker while a delivery hangs, restarts it on the same
/// state, and checks the answer arrives with the same delivery id (never
/// lost). Whether the restarted runtime fired the stored alarm by itself
/// or a request to the link had to re-arm it is printed.
pub fn survives_a_restart(start: &dyn Fn() -> Result<WranglerDev, String>, secret: &str) -> Step {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let hanging = Endpoint::start_as(listener, secret, Behaviour::HangFirst)?;
    let mut first = start()?;
    let (path, _) = make_link(&first, port, Value::Null)?;
    let posted = post_form(&first, &path, &[("/to", "Erin"), ("/amount", "3")])?;
    ensure(posted.status == 202, || {
        format!("post: {} {}", posted.status, posted.body_excerpt())
    })?;
    let held = hanging
        .next_callback(Duration::from_secs(15))?
        .ok_or("the first attempt never came")?;
    // Mid-delivery: the attempt is under way and unanswered.
    first.stop();
    let second = start()?;
    let started = std::time::Instant::now();
    // Without any request to the link: the stored alarm alone.
    let by_alarm = hanging.next_callback(Duration::from_secs(75))?;
    let (again, how) = match by_alarm {
        Some(callback) => (callback, "the restored alarm"),
        None => {
            send(&second, "GET", &path, Vec::new(), &[])?;
            (
                hanging
                    .next_callback(Duration::from_secs(75))?
                    .ok_or("the answer was lost across the restart")?,
                "a request re-arming the alarm",
            )
        }
    };
    eprintln!(
        "hosted forms: after a restart mid-delivery the answer arrived {:.0} s later, by {how}",
        started.elapsed().as_secs_f64()
    );
    ensure(
        again.body == held.body
            && again.delivery_id.is_some()
            && again.delivery_id == held.delivery_id,
        || {
            format!(
                "the same message and delivery id: {:?} vs {:?}",
                held.delivery_id, again.delivery_id
            )
        },
    )?;
    page_reaches(&second, &path, "delivered", Duration::from_secs(5))?;
    ensure(hanging.next(Duration::from_secs(3))?.is_none(), || {
        "delivered once taken, then no more".into()
    })?;
    hanging.stop();
    Ok(())
}
