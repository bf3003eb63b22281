//! AG-UI interrupts: `POST /v1/interrupt` turns one AG-UI 1.0 `Interrupt`
//! into a generate request, and `POST /v1/submit` with its `interruptId`
//! answers an AG-UI `ResumeEntry` (docs/interrupts.md). Sans-IO: the clock
//! and `WEBHOOK_SECRET` are arguments.
//!
//! - **In.** `{"interrupt", "format"?, "data"?, ...}`: the interrupt's
//!   `responseSchema` is the `output`; `reason: "confirmation"` without one
//!   gets the approval schema ([`approval_schema`]); any other reason
//!   without one is refused at `/interrupt/responseSchema`. Its `message` is
//!   the person's prompt, applied at render time like `data`: it is in
//!   neither the cache key nor the spec stored in KV.
//! - **Token.** The answer's `meta.interrupt.token` (and the
//!   `x-genui-interrupt-token` header) is `<expiresAt>.<signature>`: HMAC-SHA256
//!   under `WEBHOOK_SECRET` of `"genui-interrupt.<expiresAt>.<specHash>.<interruptId>"`
//!   ([`Purpose::InterruptToken`]; `expiresAt` in Unix seconds,
//!   [`NEVER`] for an interrupt that does not expire). Without the secret
//!   the answer has no token, and a submission naming an interrupt is
//!   refused (404 `not_found`, as the webhook without its secret is).
//! - **Out.** A resolved entry is `{interruptId, status: "resolved",
//!   payload, metadata: {genui: {specHash, schemaDigest, signature}}}`; a
//!   cancel has no payload. The signature is [`Purpose::Resume`]'s over the
//!   bytes [`Signed::body`] defines (the only definition): it binds the
//!   digest of the schema the answer was checked against, so an agent that
//!   checks it against the `responseSchema` it sent refuses an answer made
//!   through a token someone minted for another schema. No freshness
//!   window: the interrupt's `expiresAt` bounds it.

use crate::error::{Error, ErrorCode, Result};
use crate::request::invalid;
use crate::terms::signing::{mac, sign, Purpose};
use crate::terms::warning::Warning;
use base64::Engine as _;
use hmac::Mac as _;
use serde_json::{json, Map, Value};
use std::fmt;

/// The token's `expiresAt` for an interrupt without one (or with one the
/// worker cannot read).
pub(crate) const NEVER: u64 = u64::MAX;

/// The header carrying the token, for formats whose answer has no `meta`.
pub(crate) const TOKEN_HEADER: &str = "x-genui-interrupt-token";

/// Where an interrupt's `responseSchema` sits in a `/v1/interrupt` body.
pub(crate) const RESPONSE_SCHEMA_AT: &str = "/interrupt/responseSchema";

/// The reason whose interrupt needs no `responseSchema`.
const CONFIRMATION: &str = "confirmation";

/// Longest interrupt id or token accepted.
const MAX_ID_CHARS: usize = 1024;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// What a confirmation without `responseSchema` asks for: one required
/// boolean, `approved` (AG-UI's documented tool-approval answer; a denial
/// is `{"approved": false}`, not a cancel).
pub(crate) fn approval_schema() -> Value {
    json!({"type": "object", "properties": {"approved": {"type": "boolean", "title": "Approve"}},
        "required": ["approved"], "additionalProperties": false})
}

/// `WEBHOOK_SECRET`, never printed.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Secret(String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

/// What the answer to `/v1/interrupt` says about its interrupt
/// (`meta.interrupt`), and the token it signs once the spec is known.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InterruptSeal {
    id: String,
    /// `expiresAt` as sent.
    expires_text: Option<String>,
    /// `expiresAt` in Unix seconds ([`NEVER`] when absent or unreadable).
    expires_at: u64,
    /// Whether `expiresAt` was sent but could not be read.
    unreadable: bool,
    expired: bool,
    secret: Option<Secret>,
}

impl InterruptSeal {
    /// `meta.interrupt` for the spec `spec_hash`.
    pub(crate) fn meta(&self, spec_hash: &str) -> Value {
        let mut meta = Map::new();
        meta.insert("id".into(), self.id.clone().into());
        if let Some(text) = &self.expires_text {
            meta.insert("expiresAt".into(), text.clone().into());
        }
        meta.insert("expired".into(), self.expired.into());
        if let Some(token) = self.token(spec_hash) {
            meta.insert("token".into(), token.into());
        }
        Value::Object(meta)
    }

    /// The signed token for the spec `spec_hash` (`None` without the secret).
    pub(crate) fn token(&self, spec_hash: &str) -> Option<String> {
        let secret = self.secret.as_ref()?;
        Some(sign_token(&secret.0, &self.id, spec_hash, self.expires_at))
    }

    /// What the client is told about the interrupt: already expired, an
    /// `expiresAt` the worker cannot read, or no token (no secret).
    pub(crate) fn warnings(&self) -> Vec<Warning> {
        let mut warnings = Vec::new();
        let at = "/interrupt/expiresAt".to_owned();
        if self.expired {
            warnings.push(Warning {
                code: "interrupt_expired",
                pointer: at.clone(),
                message: "this interrupt has expired: it can no longer be answered, only cancelled"
                    .into(),
            });
        }
        if self.unreadable {
            warnings.push(Warning {
                code: "interrupt_expiry_unreadable",
                pointer: at,
                message: "`expiresAt` is not an RFC 3339 date-time; the interrupt is taken as never expiring".into(),
            });
        }
        if self.secret.is_none() {
            warnings.push(Warning {
                code: "interrupt_unsigned",
                pointer: "/interrupt/id".into(),
                message: "WEBHOOK_SECRET is not set: the answer has no interrupt token, and a submission naming this interrupt is refused".into(),
            });
        }
        warnings
    }
}

/// An interrupt read from `/interrupt`: what the generate request is made of.
#[derive(Debug, Clone, PartialEq)]
struct Interrupt {
    id: String,
    reason: String,
    message: Option<String>,
    tool_call_id: Option<String>,
    response_schema: Option<Value>,
    expires_at: Option<String>,
}

/// A `/v1/interrupt` body turned into a `/v1/generate` body, and what the
/// answer adds: the person's prompt (the `message`) and the seal.
#[derive(Debug)]
pub(crate) struct InterruptCall {
    /// The generate request's body.
    pub(crate) generate_body: Value,
    /// The interrupt's `message`, shown at render time.
    pub(crate) prompt: Option<String>,
    /// `meta.interrupt` and its token.
    pub(crate) seal: InterruptSeal,
}

/// Reads a `/v1/interrupt` body (already parsed) at the clock `now` (Unix
/// seconds), with `WEBHOOK_SECRET` when set.
pub(crate) fn read_call(body: Value, now: u64, secret: Option<&str>) -> Result<InterruptCall> {
    let Value::Object(mut body) = body else {
        return Err(invalid(
            "",
            "an interrupt request is a JSON object with `interrupt`",
        ));
    };
    for taken in ["output", "description", "toolCallId"] {
        if body.contains_key(taken) {
            return Err(invalid(
                &format!("/{taken}"),
                &format!("`{taken}` comes from the interrupt; remove it from the request"),
            ));
        }
    }
    let raw = body
        .remove("interrupt")
        .ok_or_else(|| invalid("/interrupt", "the request has no `interrupt`"))?;
    let interrupt = read_interrupt(&raw)?;
    let output = match (&interrupt.response_schema, interrupt.reason.as_str()) {
        (Some(schema), _) => schema.clone(),
        (None, CONFIRMATION) => approval_schema(),
        (None, reason) => {
            return Err(invalid(
                RESPONSE_SCHEMA_AT,
                &format!("an interrupt with reason {reason:?} needs `responseSchema` (only `confirmation` has a default: approve or reject)"),
            ))
        }
    };
    // Fixed words, never the message: the description is part of the key.
    let description = match interrupt.reason.as_str() {
        CONFIRMATION => "Approve or reject the agent's request",
        _ => "Answer the agent's question",
    };
    body.insert("description".into(), description.into());
    body.insert("output".into(), output);
    if let Some(id) = &interrupt.tool_call_id {
        body.insert("toolCallId".into(), id.clone().into());
    }
    if interrupt.reason == CONFIRMATION && interrupt.response_schema.is_none() {
        body.insert("kind".into(), "confirm".into());
    }
    let seal = seal(&interrupt, now, secret);
    Ok(InterruptCall {
        generate_body: Value::Object(body),
        prompt: interrupt.message,
        seal,
    })
}

fn seal(interrupt: &Interrupt, now: u64, secret: Option<&str>) -> InterruptSeal {
    let parsed = interrupt.expires_at.as_deref().map(unix_seconds);
    let expires_at = parsed.flatten().unwrap_or(NEVER);
    InterruptSeal {
        id: interrupt.id.clone(),
        expires_text: interrupt.expires_at.clone(),
        expires_at,
        unreadable: matches!(parsed, Some(None)),
        expired: now >= expires_at,
        secret: secret.map(|s| Secret(s.to_owned())),
    }
}

/// An RFC 3339 date-time as Unix seconds (before 1970: 0); `None` when it
/// is not one.
fn unix_seconds(text: &str) -> Option<u64> {
    let at = chrono::DateTime::parse_from_rfc3339(text.trim()).ok()?;
    Some(u64::try_from(at.timestamp()).unwrap_or(0))
}

/// The interrupt as AG-UI 1.0's `InterruptSchema` takes it: `id` and
/// `reason` strings; every optional field absent or of its type (never
/// `null`); `responseSchema` and `metadata` objects; other keys kept.
fn read_interrupt(raw: &Value) -> Result<Interrupt> {
    let Value::Object(map) = raw else {
        return Err(invalid(
            "/interrupt",
            "`interrupt` must be an AG-UI Interrupt object",
        ));
    };
    let text = |key: &str, required: bool| -> Result<Option<String>> {
        let at = format!("/interrupt/{key}");
        match map.get(key) {
            None if required => Err(invalid(&at, &format!("the interrupt has no `{key}`"))),
            None => Ok(None),
            Some(Value::String(s)) if s.len() > MAX_ID_CHARS && key != "message" => Err(invalid(
                &at,
                &format!("`{key}` is longer than {MAX_ID_CHARS} characters"),
            )),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(invalid(&at, &format!("`{key}` must be a string"))),
        }
    };
    let id = text("id", true)?.unwrap_or_default();
    if id.is_empty() {
        return Err(invalid("/interrupt/id", "the interrupt's `id` is empty"));
    }
    let reason = text("reason", true)?.unwrap_or_default();
    text("subagentRunId", false)?;
    for key in ["responseSchema", "metadata"] {
        match map.get(key) {
            None | Some(Value::Object(_)) => {}
            Some(_) => {
                return Err(invalid(
                    &format!("/interrupt/{key}"),
                    &format!("`{key}` must be a JSON object"),
                ))
            }
        }
    }
    Ok(Interrupt {
        id,
        reason,
        message: text("message", false)?,
        tool_call_id: text("toolCallId", false)?.filter(|id| !id.trim().is_empty()),
        response_schema: map.get("responseSchema").cloned(),
        expires_at: text("expiresAt", false)?,
    })
}

/// The token: `<expiresAt>.<base64url HMAC>`.
pub(crate) fn sign_token(secret: &str, id: &str, spec_hash: &str, expires_at: u64) -> String {
    let digest = token_mac(secret, id, spec_hash, expires_at)
        .finalize()
        .into_bytes();
    format!("{expires_at}.{}", B64.encode(digest))
}

fn token_mac(secret: &str, id: &str, spec_hash: &str, expires_at: u64) -> hmac::Hmac<sha2::Sha256> {
    mac(
        Purpose::InterruptToken,
        secret,
        expires_at,
        format!("{spec_hash}.{id}").as_bytes(),
    )
}

fn bad_token(why: &str) -> Error {
    Error::new(
        ErrorCode::InvalidSignature,
        format!("interrupt token rejected: {why}"),
    )
    .at("/interruptToken")
}

/// The `expiresAt` a token binds, when it is this worker's for the
/// interrupt `id` answered with the spec `spec_hash` (constant-time).
pub(crate) fn verify_token(token: &str, secret: &str, id: &str, spec_hash: &str) -> Result<u64> {
    if token.len() > MAX_ID_CHARS {
        return Err(bad_token("it is too long"));
    }
    let (expires, signature) = token
        .split_once('.')
        .ok_or_else(|| bad_token("it is not `<expiresAt>.<signature>`"))?;
    let expires_at: u64 = expires
        .parse()
        .map_err(|_| bad_token("its `expiresAt` is not a number"))?;
    let signature = B64
        .decode(signature)
        .map_err(|_| bad_token("its signature is not base64url"))?;
    token_mac(secret, id, spec_hash, expires_at)
        .verify_slice(&signature)
        .map_err(|_| {
            bad_token("it was not issued for this interrupt id and specHash by this worker")
        })?;
    Ok(expires_at)
}

/// A submission's claim to answer an interrupt (`interruptId`,
/// `interruptToken`, `status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ResumeClaim {
    pub(crate) id: String,
    pub(crate) token: Option<String>,
    pub(crate) cancelled: bool,
}

/// Reads `interruptId`, `interruptToken` and `status` from a submission
/// body; `None` when it names no interrupt.
pub(crate) fn read_claim(body: &Map<String, Value>) -> Result<Option<ResumeClaim>> {
    let id = match body.get("interruptId") {
        None => return Ok(None),
        Some(Value::String(id)) if !id.is_empty() && id.len() <= MAX_ID_CHARS => id.clone(),
        Some(_) => {
            return Err(invalid(
                "/interruptId",
                "`interruptId` must be the interrupt's id, a non-empty string",
            ))
        }
    };
    let token = match body.get("interruptToken") {
        None => None,
        Some(Value::String(token)) => Some(token.clone()),
        Some(_) => {
            return Err(invalid(
                "/interruptToken",
                "`interruptToken` must be the token from meta.interrupt.token",
            ))
        }
    };
    let cancelled = match body.get("status").and_then(Value::as_str) {
        None if body.get("status").is_none() => false,
        Some("resolved") => false,
        Some("cancelled") => true,
        _ => {
            return Err(invalid(
                "/status",
                "`status` is `resolved` (the default) or `cancelled`",
            ))
        }
    };
    Ok(Some(ResumeClaim {
        id,
        token,
        cancelled,
    }))
}

/// What signs a resume entry: `WEBHOOK_SECRET` and the clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Signer {
    secret: Option<Secret>,
    now: u64,
}

impl Signer {
    /// The shell's `WEBHOOK_SECRET` (when set) and the time (Unix seconds).
    pub(crate) fn new(secret: Option<&str>, now: u64) -> Self {
        Self {
            secret: secret.map(|s| Secret(s.to_owned())),
            now,
        }
    }
}

/// Checks a claim before its data is: the worker can sign (the secret is
/// set), the token is this worker's for this interrupt and spec, and a
/// resolving answer comes before `expiresAt` (a cancel may come later).
pub(crate) fn check_claim(
    claim: &ResumeClaim,
    signer: Option<&Signer>,
    spec_hash: &str,
) -> Result<()> {
    let Some(secret) = signer.and_then(|s| s.secret.as_ref()) else {
        let why = match signer {
            Some(_) => "interrupt resumes are not configured (set the WEBHOOK_SECRET secret)",
            None => "an interrupt is resumed through POST /v1/submit, not this door",
        };
        return Err(Error::new(ErrorCode::NotFound, why).at("/interruptId"));
    };
    let token = claim
        .token
        .as_deref()
        .ok_or_else(|| bad_token("the submission has no `interruptToken`"))?;
    let expires_at = verify_token(token, &secret.0, &claim.id, spec_hash)?;
    let now = signer.map_or(0, |s| s.now);
    if !claim.cancelled && now >= expires_at {
        return Err(Error::new(
            ErrorCode::InterruptExpired,
            format!(
                "interrupt {:?} expired at {expires_at} (Unix seconds); it can only be cancelled now",
                claim.id
            ),
        )
        .at("/interruptId"));
    }
    Ok(())
}

/// What a resume entry's signature binds besides its status: the spec the
/// form came from, the interrupt, the schema the answer was checked
/// against and the answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Signed<'a> {
    pub(crate) spec_hash: &'a str,
    pub(crate) interrupt_id: &'a str,
    /// Hex SHA-256 of the checked schema's canonical JSON (empty for a
    /// cancel, which is checked against nothing).
    pub(crate) schema_digest: &'a str,
    /// The payload's canonical JSON (`None` for a cancel).
    pub(crate) payload: Option<&'a str>,
}

impl Signed<'_> {
    /// The bytes the signature covers after `"genui-resume.<t>."`:
    /// `<specHash>.<status>.<interruptId as canonical JSON>.<schemaDigest>.<payload as canonical JSON>`.
    /// The only definition of them (docs/interrupts.md publishes it with
    /// vectors; canonical JSON is RFC 8785's).
    pub(crate) fn body(&self, status: &str) -> String {
        format!(
            "{}.{status}.{}.{}.{}",
            self.spec_hash,
            Value::from(self.interrupt_id),
            self.schema_digest,
            self.payload.unwrap_or_default()
        )
    }

    /// The `signature` of a resume entry: `t=<timestamp>,v1=<hex HMAC>`.
    pub(crate) fn signature(&self, secret: &str, timestamp: u64, status: &str) -> String {
        sign(
            Purpose::Resume,
            secret,
            timestamp,
            self.body(status).as_bytes(),
        )
    }
}

/// The checked schema's digest a resume entry binds: hex SHA-256 of its
/// canonical JSON, which an agent recomputes from the `responseSchema` it
/// sent (so an answer checked against any other schema fails its check).
pub(crate) fn schema_digest(schema: &Value) -> Result<String> {
    // The cache key's own digest of `output`, remembered per isolate: the
    // submission's proof has usually computed it already.
    Ok(crate::cache::spec::OutputDigest::of(schema)?.to_hex())
}

/// The AG-UI `ResumeEntry` for a checked claim: the payload `data`
/// (none for a cancel) with what its signature binds (`signed`), signed
/// when the secret is set; `unchecked` lists the places the worker could
/// not check (`metadata.genui.unchecked`).
pub(crate) fn resume_entry(
    claim: &ResumeClaim,
    signer: Option<&Signer>,
    signed: Signed<'_>,
    data: &Value,
    unchecked: &[String],
) -> Value {
    let status = if claim.cancelled {
        "cancelled"
    } else {
        "resolved"
    };
    let mut genui = Map::new();
    genui.insert("specHash".into(), signed.spec_hash.into());
    if !signed.schema_digest.is_empty() {
        genui.insert("schemaDigest".into(), signed.schema_digest.into());
    }
    if let Some((secret, now)) = signer.and_then(|s| s.secret.as_ref().map(|k| (k, s.now))) {
        let signature = signed.signature(&secret.0, now, status);
        genui.insert("signature".into(), signature.into());
    }
    if !unchecked.is_empty() {
        genui.insert("unchecked".into(), json!(unchecked));
    }
    let mut entry = Map::new();
    entry.insert("interruptId".into(), claim.id.clone().into());
    entry.insert("status".into(), status.into());
    if !claim.cancelled {
        entry.insert("payload".into(), data.clone());
    }
    entry.insert("metadata".into(), json!({"genui": genui}));
    Value::Object(entry)
}

/// Verifies a resume entry's signature as an agent does: against the
/// schema the agent itself sent (never a digest read from the entry), with
/// the payload re-written as canonical JSON. No freshness window:
/// `expiresAt` bounds the answer.
#[cfg(test)]
pub(crate) fn verify_resume_entry(entry: &Value, secret: &str, sent_schema: &Value) -> Result<()> {
    let refuse = |why: &str| {
        Error::new(
            ErrorCode::InvalidSignature,
            format!("resume entry rejected: {why}"),
        )
    };
    let genui = &entry["metadata"]["genui"];
    let spec_hash = genui["specHash"]
        .as_str()
        .ok_or_else(|| refuse("no specHash"))?;
    let header = genui["signature"]
        .as_str()
        .ok_or_else(|| refuse("no signature"))?;
    let (t, v1) = header
        .split_once(',')
        .and_then(|(t, v1)| {
            Some((
                t.strip_prefix("t=")?.parse::<u64>().ok()?,
                v1.strip_prefix("v1=")?,
            ))
        })
        .ok_or_else(|| refuse("the signature is not `t=..,v1=..`"))?;
    let status = entry["status"].as_str().unwrap_or_default();
    let payload = entry
        .get("payload")
        .map(crate::cache::canonical::to_text)
        .transpose()?;
    let digest = match payload {
        Some(_) => schema_digest(sent_schema)?,
        None => String::new(),
    };
    let signed = Signed {
        spec_hash,
        interrupt_id: entry["interruptId"].as_str().unwrap_or_default(),
        schema_digest: &digest,
        payload: payload.as_deref(),
    };
    let expected = hex::decode(v1).map_err(|_| refuse("v1 is not hex"))?;
    mac(Purpose::Resume, secret, t, signed.body(status).as_bytes())
        .verify_slice(&expected)
        .map_err(|_| refuse("the signature does not match"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn call(interrupt: Value) -> Result<InterruptCall> {
        read_call(json!({"interrupt": interrupt}), 1_000, Some("s3cret"))
    }

    #[test]
    fn a_response_schema_is_the_output_and_the_message_stays_out_of_the_body() {
        let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let made = call(
            json!({"id": "i1", "reason": "input_required", "message": "Ada's filing?",
            "responseSchema": schema, "toolCallId": "call_7"}),
        )
        .unwrap();
        assert_eq!(made.generate_body["output"], schema);
        assert_eq!(made.generate_body["toolCallId"], "call_7");
        assert_eq!(made.prompt.as_deref(), Some("Ada's filing?"));
        assert!(!made.generate_body.to_string().contains("Ada"));
    }

    #[test]
    fn a_confirmation_without_a_schema_gets_the_approval_schema() {
        let made =
            call(json!({"id": "i1", "reason": "confirmation", "message": "Delete?"})).unwrap();
        assert_eq!(made.generate_body["output"], approval_schema());
        assert_eq!(made.generate_body["kind"], "confirm");
    }

    #[test]
    fn another_reason_without_a_schema_is_refused_at_its_place() {
        for reason in ["input_required", "tool_call", "langgraph:interrupt"] {
            let e = call(json!({"id": "i1", "reason": reason})).unwrap_err();
            assert_eq!(
                (e.code(), e.http_status()),
                (ErrorCode::InvalidRequest, 400)
            );
            assert_eq!(e.pointer(), Some(RESPONSE_SCHEMA_AT), "{reason}");
        }
    }

    #[test]
    fn the_interrupt_is_read_as_ag_uis_schema_reads_it() {
        let refused = |interrupt: Value| call(interrupt).unwrap_err().pointer().map(str::to_owned);
        assert_eq!(
            refused(json!({"reason": "x"})).as_deref(),
            Some("/interrupt/id")
        );
        assert_eq!(
            refused(json!({"id": "i"})).as_deref(),
            Some("/interrupt/reason")
        );
        assert_eq!(
            refused(json!({"id": "i", "reason": "confirmation", "message": null})).as_deref(),
            Some("/interrupt/message")
        );
        assert_eq!(
            refused(json!({"id": "i", "reason": "x", "responseSchema": true})).as_deref(),
            Some(RESPONSE_SCHEMA_AT)
        );
        assert_eq!(
            refused(json!({"id": "i", "reason": "confirmation", "metadata": null})).as_deref(),
            Some("/interrupt/metadata")
        );
        let e = read_call(
            json!({"interrupt": {"id": "i", "reason": "confirmation"}, "output": {}}),
            0,
            None,
        )
        .unwrap_err();
        assert_eq!(e.pointer(), Some("/output"));
        // Unknown keys pass, as AG-UI's loose objects let them.
        assert!(call(json!({"id": "i", "reason": "confirmation", "x-extra": 1})).is_ok());
    }

    #[test]
    fn the_seal_says_expired_and_signs_the_token_for_the_spec() {
        let made = call(json!({"id": "i1", "reason": "confirmation",
            "expiresAt": "1970-01-01T00:16:40Z"}))
        .unwrap();
        let meta = made.seal.meta(HASH);
        assert_eq!(meta["expired"], true, "now (1000) >= expiresAt (1000)");
        assert_eq!(made.seal.warnings()[0].code, "interrupt_expired");
        let token = meta["token"].as_str().unwrap();
        assert!(token.starts_with("1000."), "{token}");
        assert_eq!(verify_token(token, "s3cret", "i1", HASH).unwrap(), 1000);
        let later = call(json!({"id": "i1", "reason": "confirmation",
            "expiresAt": "1970-01-01T01:00:00+01:00"}))
        .unwrap();
        assert_eq!(later.seal.meta(HASH)["expired"], true, "an offset is read");
        let unread =
            call(json!({"id": "i1", "reason": "confirmation", "expiresAt": "soon"})).unwrap();
        assert_eq!(unread.seal.meta(HASH)["expired"], false);
        assert_eq!(
            unread.seal.warnings()[0].code,
            "interrupt_expiry_unreadable"
        );
        let unsigned = read_call(
            json!({"interrupt": {"id": "i", "reason": "confirmation"}}),
            0,
            None,
        )
        .unwrap();
        assert!(unsigned.seal.meta(HASH).get("token").is_none());
        assert_eq!(unsigned.seal.warnings()[0].code, "interrupt_unsigned");
        assert!(!format!("{:?}", made.seal).contains("s3cret"));
    }

    #[test]
    fn a_token_is_refused_for_another_interrupt_spec_secret_or_purpose() {
        let token = sign_token("s3cret", "i1", HASH, 5_000);
        assert_eq!(verify_token(&token, "s3cret", "i1", HASH).unwrap(), 5_000);
        let other_hash = HASH.replace('0', "1");
        let (_, signature) = token.split_once('.').unwrap();
        for (token, secret, id, hash) in [
            (token.as_str(), "other", "i1", HASH),
            (token.as_str(), "s3cret", "i2", HASH),
            (token.as_str(), "s3cret", "i1", other_hash.as_str()),
            (&format!("9999.{signature}"), "s3cret", "i1", HASH),
            ("", "s3cret", "i1", HASH),
            ("x.y", "s3cret", "i1", HASH),
        ] {
            let e = verify_token(token, secret, id, hash).unwrap_err();
            assert_eq!(
                (e.http_status(), e.pointer()),
                (401, Some("/interruptToken"))
            );
        }
        // A form link's or a webhook's signature over the same bytes is no token.
        for purpose in [Purpose::FormToken, Purpose::Webhook, Purpose::Resume] {
            let digest = mac(purpose, "s3cret", 5_000, format!("{HASH}.i1").as_bytes())
                .finalize()
                .into_bytes();
            let forged = format!("5000.{}", B64.encode(digest));
            assert!(verify_token(&forged, "s3cret", "i1", HASH).is_err());
        }
    }

    fn claim(cancelled: bool, token: Option<String>) -> ResumeClaim {
        ResumeClaim {
            id: "i1".into(),
            token,
            cancelled,
        }
    }

    #[test]
    fn a_claim_needs_the_secret_a_valid_token_and_time_left_to_resolve() {
        let token = Some(sign_token("s3cret", "i1", HASH, 5_000));
        let signer = |now| Signer::new(Some("s3cret"), now);
        assert!(check_claim(&claim(false, token.clone()), Some(&signer(4_999)), HASH).is_ok());
        let expired =
            check_claim(&claim(false, token.clone()), Some(&signer(5_000)), HASH).unwrap_err();
        assert_eq!(
            (expired.code(), expired.http_status()),
            (ErrorCode::InterruptExpired, 410)
        );
        assert!(
            check_claim(&claim(true, token.clone()), Some(&signer(9_000)), HASH).is_ok(),
            "an expired interrupt can still be cancelled"
        );
        let missing = check_claim(&claim(false, None), Some(&signer(0)), HASH).unwrap_err();
        assert_eq!(missing.code(), ErrorCode::InvalidSignature);
        let other_door = check_claim(&claim(false, token.clone()), None, HASH).unwrap_err();
        assert!(other_door.message().contains("/v1/submit"), "{other_door}");
        let unset =
            check_claim(&claim(false, token), Some(&Signer::new(None, 0)), HASH).unwrap_err();
        assert_eq!(
            (unset.code(), unset.pointer()),
            (ErrorCode::NotFound, Some("/interruptId"))
        );
    }

    fn quarter_schema() -> Value {
        json!({"type": "object", "properties": {"quarter": {"enum": ["Q1", "Q2"]}, "year": {"type": "integer"}}})
    }

    fn entry(cancelled: bool, data: &Value) -> Value {
        let signer = Signer::new(Some("s3cret"), 1_700_000_000);
        let claim = claim(cancelled, None);
        let digest = schema_digest(&quarter_schema()).unwrap();
        let payload = crate::cache::canonical::to_text(data).unwrap();
        let signed = Signed {
            spec_hash: HASH,
            interrupt_id: &claim.id,
            schema_digest: if cancelled { "" } else { &digest },
            payload: (!cancelled).then_some(payload.as_str()),
        };
        resume_entry(&claim, Some(&signer), signed, data, &[])
    }

    #[test]
    fn entries_are_ag_ui_resume_entries_signed_over_the_payload_and_the_schema() {
        let data = json!({"year": 2026, "quarter": "Q1"});
        let entry = entry(false, &data);
        assert_eq!(entry["status"], "resolved");
        assert_eq!(entry["payload"], data);
        let schema = quarter_schema();
        assert!(verify_resume_entry(&entry, "s3cret", &schema).is_ok());
        assert!(verify_resume_entry(&entry, "other", &schema).is_err());
        let mut tampered = entry.clone();
        tampered["payload"]["year"] = json!(2027);
        assert!(verify_resume_entry(&tampered, "s3cret", &schema).is_err());
        let mut renamed = entry.clone();
        renamed["interruptId"] = json!("i2");
        assert!(verify_resume_entry(&renamed, "s3cret", &schema).is_err());
        let cancelled = self::entry(true, &data);
        assert_eq!(cancelled.get("payload"), None);
        assert_eq!(cancelled["status"], "cancelled");
        assert!(verify_resume_entry(&cancelled, "s3cret", &schema).is_ok());
        let mut flipped = cancelled.clone();
        flipped["status"] = json!("resolved");
        assert!(verify_resume_entry(&flipped, "s3cret", &schema).is_err());
    }

    /// A token minted for a schema of the caller's choosing yields an entry
    /// the agent refuses: the entry binds the schema the answer was checked
    /// against, and the agent checks it against the schema it sent.
    #[test]
    fn an_answer_checked_against_another_schema_fails_the_agents_check() {
        let entry = entry(false, &json!({"quarter": "Q1"}));
        let widened = json!({"type": "object"});
        assert!(verify_resume_entry(&entry, "s3cret", &widened).is_err());
        assert_eq!(
            entry["metadata"]["genui"]["schemaDigest"],
            schema_digest(&quarter_schema()).unwrap()
        );
    }

    /// The payload is signed as canonical JSON, so a verifier that parses
    /// and re-writes it (any key order, any number spelling) gets the same
    /// bytes: `1e21`, `1.50` and reordered keys verify.
    #[test]
    fn the_payload_is_signed_in_canonical_form() {
        let data: Value =
            serde_json::from_str(r#"{"year":2026,"amount":1.50,"big":1e21,"quarter":"Q1"}"#)
                .unwrap();
        let entry = entry(false, &data);
        let reparsed: Value = serde_json::from_str(
            r#"{"quarter":"Q1","big":1000000000000000000000,"amount":1.5,"year":2026.0}"#,
        )
        .unwrap();
        let mut received = entry.clone();
        received["payload"] = reparsed;
        assert!(verify_resume_entry(&received, "s3cret", &quarter_schema()).is_ok());
    }

    /// The approval schema docs/interrupts.md publishes is the one the
    /// worker checks a confirmation against, byte for byte once canonical:
    /// an agent that sent a confirmation without a schema digests it.
    #[test]
    fn the_documented_approval_schema_is_the_worker_s() {
        let doc = include_str!("../../../docs/interrupts.md");
        let published = doc
            .split("```approval-schema\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("docs/interrupts.md publishes the approval schema");
        let published: Value = serde_json::from_str(published).unwrap();
        assert_eq!(published, approval_schema());
    }

    /// The vectors published in docs/interrupts.md, recomputed from the
    /// page's own text, so the page cannot drift from the code.
    #[test]
    fn the_documented_vectors_are_what_the_worker_signs() {
        let doc = include_str!("../../../docs/interrupts.md");
        let blocks: Vec<&str> = doc
            .split("```resume-vector\n")
            .skip(1)
            .map(|rest| rest.split("```").next().unwrap_or_default())
            .collect();
        assert!(
            blocks.len() >= 2,
            "docs/interrupts.md has at least two vectors"
        );
        for block in blocks {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|line| line.strip_prefix(&format!("{name}:")))
                    .map(str::trim)
                    .unwrap_or_else(|| panic!("a vector without {name}:\n{block}"))
            };
            let payload = Some(field("payload")).filter(|p| *p != "(none)");
            let payload = payload.map(|text| {
                crate::cache::canonical::to_text(&serde_json::from_str(text).unwrap()).unwrap()
            });
            let schema = Some(field("responseSchema")).filter(|_| payload.is_some());
            let digest = schema
                .map(|text| schema_digest(&serde_json::from_str(text).unwrap()).unwrap())
                .unwrap_or_default();
            let published = Some(field("schemaDigest")).filter(|d| *d != "(none)");
            assert_eq!(published.unwrap_or_default(), digest.as_str(), "{block}");
            let t: u64 = field("t").parse().unwrap();
            let signed = Signed {
                spec_hash: field("specHash"),
                interrupt_id: field("interruptId"),
                schema_digest: &digest,
                payload: payload.as_deref(),
            };
            let status = field("status");
            assert_eq!(
                field("signed"),
                format!("genui-resume.{t}.{}", signed.body(status))
            );
            assert_eq!(
                field("signature"),
                signed.signature(field("secret"), t, status),
                "{block}"
            );
        }
    }
}
