//! Hosted forms: the signed link a person opens (`/f/<token>`), the record
//! it names, and the pages the worker serves there, sans-IO (the shell keeps
//! the record, the spec and the answer's outbox in the link's
//! Durable Object, and does the delivery).
//!
//! A token is `<payload>.<signature>`, both base64url without padding. The
//! payload is [`ID_BYTES`] random bytes, the record's id (the shell draws
//! them from the platform's CSPRNG and passes them in), then `expiresAt` as
//! 8 bytes big-endian; the signature is HMAC-SHA256 under `WEBHOOK_SECRET`
//! of `"genui-form-token.<expiresAt>.<payload>"`
//! ([`crate::edge::webhook::Purpose::FormToken`]), so a webhook's or a
//! callback's signature never passes for a token, and a forged or expired
//! link is refused without waking any object. The token says nothing about
//! the form: the callback, the tool call, the language and the pre-fill's
//! digest live in the [`FormRecord`] it names, so every link has the same
//! short length whatever the request. Pre-fill travels in the URL fragment
//! (`#data=`), which browsers never send; where the shown values matter,
//! the record keeps a salted SHA-256 of that fragment's JSON text
//! ([`Prefill`], a random salt per record) and the page refuses a fragment
//! that differs.

use crate::cache::spec::UiSpec;
use crate::error::{Error, ErrorCode, Result};
use crate::render::html::prefill::Prefill;
use crate::render::html::prefill::SALT_BYTES;
use crate::service::GenerateJob;
use crate::terms::response::HttpResponse;
use crate::terms::signing::{mac, Purpose};
use base64::Engine as _;
use hmac::Mac as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Random bytes naming a link's record (128 bits).
pub(crate) const ID_BYTES: usize = 16;

/// The payload: the id, then `expiresAt` big-endian.
const PAYLOAD_BYTES: usize = ID_BYTES + 8;

/// Longest token accepted (a longer one is refused unread).
pub(crate) const MAX_TOKEN_CHARS: usize = 4096;

/// Longest life of a link, in seconds (never past the spec's own TTL).
pub(crate) const MAX_LIFETIME_SECONDS: u64 = 24 * 3600;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// What a hosted form's link carries, signed: the record's random id and
/// the link's expiry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormToken {
    id: [u8; ID_BYTES],
    /// Unix seconds after which the link is refused (410).
    pub expires_at: u64,
}

/// What a link's Durable Object keeps about it (beside the spec).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormRecord {
    /// The spec's hash (`meta.specHash`).
    pub spec_hash: String,
    /// The tool call the answer goes back to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// Where the signed tool message is POSTed; `None` for a link an MCP
    /// call made, whose answer the link's object keeps for that call to
    /// read ([`crate::Mcp`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_url: Option<String>,
    /// Unix seconds after which the link is refused and the record deleted.
    pub expires_at: u64,
    /// The language of the page (BCP 47).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// The pre-fill's salted digest, when the shown values matter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill: Option<Prefill>,
}

/// Why a token is refused: `not_found` (404) for a forged, malformed or
/// oversized one, `form_expired` (410) for an expired one.
fn refused(expired: bool) -> Error {
    match expired {
        true => Error::new(ErrorCode::FormExpired, "this form link has expired"),
        false => Error::new(ErrorCode::NotFound, "this form link is not valid"),
    }
}

impl FormToken {
    /// Random bytes naming a link's record (128 bits).
    pub const ID_BYTES: usize = ID_BYTES;

    /// A link to the record named by `id` (random bytes from the platform's
    /// CSPRNG), valid until `expires_at` (Unix seconds).
    pub fn new(id: [u8; ID_BYTES], expires_at: u64) -> Self {
        Self { id, expires_at }
    }

    fn payload(&self) -> String {
        let mut bytes = [0u8; PAYLOAD_BYTES];
        bytes[..ID_BYTES].copy_from_slice(&self.id);
        bytes[ID_BYTES..].copy_from_slice(&self.expires_at.to_be_bytes());
        B64.encode(bytes)
    }

    /// The signed token.
    pub fn sign(&self, secret: &str) -> String {
        let payload = self.payload();
        let digest = mac(
            Purpose::FormToken,
            secret,
            self.expires_at,
            payload.as_bytes(),
        )
        .finalize()
        .into_bytes();
        format!("{payload}.{}", B64.encode(digest))
    }

    /// The token's fields, when its signature is valid and it has not
    /// expired at `now` (Unix seconds).
    pub fn verify(token: &str, secret: &str, now: u64) -> Result<Self> {
        if token.len() > MAX_TOKEN_CHARS {
            return Err(refused(false));
        }
        let (payload, signature) = token.split_once('.').ok_or_else(|| refused(false))?;
        let signature = B64.decode(signature).map_err(|_| refused(false))?;
        let bytes: [u8; PAYLOAD_BYTES] = B64
            .decode(payload)
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| refused(false))?;
        let (id, expiry) = bytes.split_at(ID_BYTES);
        let fields = Self {
            id: id.try_into().map_err(|_| refused(false))?,
            expires_at: u64::from_be_bytes(expiry.try_into().map_err(|_| refused(false))?),
        };
        // Constant-time comparison (`verify_slice`), over the payload as sent.
        mac(
            Purpose::FormToken,
            secret,
            fields.expires_at,
            payload.as_bytes(),
        )
        .verify_slice(&signature)
        .map_err(|_| refused(false))?;
        if now >= fields.expires_at {
            return Err(refused(true));
        }
        Ok(fields)
    }

    /// The name of the link's Durable Object: its id, hex.
    pub fn object_name(&self) -> String {
        hex::encode(self.id)
    }

    /// The id of this link's answer (the tool message's `result_<id>` and
    /// the delivery id): derived from the link's random id, so unique
    /// across isolates and stable across retries, and not the id itself
    /// (a receiver's log of it names no record).
    pub fn answer_id(&self) -> String {
        use sha2::Digest as _;
        let digest = sha2::Sha256::new()
            .chain_update(b"genui-answer.")
            .chain_update(self.id)
            .finalize();
        hex::encode(&digest[..16])
    }

    /// The link's path and fragment: `/f/<token>#data=<JSON, percent-encoded>`.
    pub fn path(token: &str, fragment: Option<&str>) -> String {
        match fragment {
            Some(text) => format!(
                "/f/{token}#data={}",
                percent_encoding::utf8_percent_encode(text, percent_encoding::NON_ALPHANUMERIC)
            ),
            None => format!("/f/{token}"),
        }
    }

    /// A request path with any hosted-form token replaced by `<token>`, for
    /// logs: a link is a capability and never lands in a log line.
    pub fn redact_path(path: &str) -> std::borrow::Cow<'_, str> {
        match path.starts_with("/f/") {
            true => "/f/<token>".into(),
            false => path.into(),
        }
    }

    /// When a link made at `now` expires: `MAX_LIFETIME_SECONDS` later,
    /// never after the spec's time to live.
    pub fn expiry(now: u64, spec_ttl_seconds: u64) -> u64 {
        now + MAX_LIFETIME_SECONDS.min(spec_ttl_seconds)
    }

    /// `expiresAt` as an RFC 3339 UTC timestamp.
    pub fn expires_at_text(&self) -> String {
        rfc3339(self.expires_at)
    }
}

impl FormRecord {
    /// Random bytes a new link needs from the platform's CSPRNG: the
    /// record's id, then the pre-fill digest's salt.
    pub const RANDOM_BYTES: usize = ID_BYTES + SALT_BYTES;

    /// The secret hosted forms sign their links with (the `WEBHOOK_SECRET`
    /// setting), or why `POST /v1/forms` is answered 404 without one.
    pub fn configured(secret: Option<String>) -> Result<String> {
        secret.ok_or_else(|| {
            Error::new(
                ErrorCode::NotFound,
                "hosted forms are not configured (set the WEBHOOK_SECRET secret)",
            )
        })
    }

    /// What `POST /v1/forms` checks before anything is generated: a
    /// `callbackUrl` the worker may POST to, and an `output` to answer (a
    /// display takes no answer). The callback's URL.
    pub fn callback_for(job: &GenerateJob, allow_http: bool) -> Result<url::Url> {
        let Some(raw) = job.request().callback_url.as_deref() else {
            return Err(Error::new(
                ErrorCode::InvalidRequest,
                "a hosted form needs `callbackUrl`, where the answer is sent",
            )
            .at("/callbackUrl"));
        };
        let callback = crate::edge::webhook::callback_target(raw, allow_http)?;
        if job.is_display() {
            return Err(Error::new(
                ErrorCode::InvalidRequest,
                "a display takes no answer; a hosted form needs `output`",
            )
            .at("/output"));
        }
        Ok(callback)
    }

    /// The record and link of a form answered with `spec_hash` (the spec
    /// the generation answered), made at `now` (Unix seconds) from
    /// [`FormRecord::RANDOM_BYTES`] random bytes; and the pre-fill's
    /// fragment text, when the request has data. Without a `callback`, the
    /// answer is kept by the link's object for the MCP call that made it.
    pub fn issue(
        job: &GenerateJob,
        spec_hash: &str,
        callback: Option<&url::Url>,
        random: [u8; ID_BYTES + SALT_BYTES],
        now: u64,
        spec_ttl_seconds: u64,
    ) -> (Self, FormToken, Option<String>) {
        let mut id = [0u8; ID_BYTES];
        let mut salt = [0u8; SALT_BYTES];
        id.copy_from_slice(&random[..ID_BYTES]);
        salt.copy_from_slice(&random[ID_BYTES..]);
        let request = job.request();
        let fragment = Prefill::of(&request.data, salt);
        let record = FormRecord {
            spec_hash: spec_hash.to_owned(),
            tool_call_id: request.tool_call_id.clone(),
            callback_url: callback.map(url::Url::to_string),
            expires_at: FormToken::expiry(now, spec_ttl_seconds),
            locale: request.locale.clone(),
            prefill: fragment.as_ref().map(|(_, prefill)| prefill.clone()),
        };
        let token = FormToken::new(id, record.expires_at);
        (record, token, fragment.map(|(text, _)| text))
    }

    /// Whether a generation's `answer` makes a link: the answer, the spec
    /// it kept and the link's random bytes; or the answer that says why no
    /// link is made: the generation's own answer when it is not a 200, a
    /// 500 when the spec was not kept or the platform gave no random bytes.
    pub fn issuable(
        answer: HttpResponse,
        spec: Option<&str>,
        random: Option<[u8; ID_BYTES + SALT_BYTES]>,
    ) -> std::result::Result<(HttpResponse, &str, [u8; ID_BYTES + SALT_BYTES]), HttpResponse> {
        if answer.status != 200 {
            return Err(answer);
        }
        let Some(spec) = spec else {
            return Err(internal("the form's spec could not be kept"));
        };
        let Some(random) = random else {
            return Err(internal("no random bytes for the form's link"));
        };
        Ok((answer, spec, random))
    }

    /// Whether the link's object took its spec and record, from how its
    /// `/init` ended (its status, or what the platform said): only a 200
    /// makes a link; anything else is a 500 that says why, so no link
    /// leads to an object that holds no form.
    pub fn stored(init: Result<u16>) -> std::result::Result<(), HttpResponse> {
        match init {
            Ok(200) => Ok(()),
            Ok(status) => Err(not_stored(&format!("its object answered {status}"))),
            Err(reason) => Err(not_stored(reason.message())),
        }
    }
}

/// The answer when the link's object did not take its spec and record.
fn not_stored(reason: &str) -> HttpResponse {
    internal(&format!("the form could not be stored: {reason}"))
}

/// A 500 `dgui_error` saying `message`.
fn internal(message: &str) -> HttpResponse {
    HttpResponse::error(&Error::new(ErrorCode::Internal, message))
}

impl HttpResponse {
    /// `POST /v1/forms`' answer (201): the link on `origin`, its expiry
    /// and the spec's hash.
    pub fn form_link(
        origin: &str,
        signed_token: &str,
        fragment: Option<&str>,
        token: &FormToken,
        record: &FormRecord,
    ) -> Self {
        let url = format!("{origin}{}", FormToken::path(signed_token, fragment));
        Self::json(
            201,
            &serde_json::json!({"url": url, "expiresAt": token.expires_at_text(), "specHash": record.spec_hash}),
        )
    }

    /// A hosted form's page for the link `token` ([`crate::FormToken`]),
    /// from its record and the spec stored for it (its JSON); after a
    /// rejected post, `posted` is the data as read and the error, shown by
    /// the fields (status 422, or the error's own 4xx). A spec that does
    /// not read back answers the link's 404 page.
    pub fn hosted_form(
        token: &str,
        record: &FormRecord,
        spec_json: &str,
        posted: Option<(&Value, &Error)>,
    ) -> Self {
        let Some(spec) = UiSpec::from_cached(spec_json, &record.spec_hash) else {
            return Self::form_notice(404, record.locale.as_deref(), "not_found");
        };
        let action = format!("/f/{token}");
        let page = crate::render::html::hosted_page(
            &spec,
            &action,
            record.locale.as_deref(),
            record.prefill.as_ref(),
            posted,
        );
        let status = posted.map_or(200, |(_, e)| e.http_status());
        Self::html(status, page)
    }
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (civil-from-days, proleptic Gregorian).
fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> FormToken {
        FormToken::new([7; ID_BYTES], 2_000)
    }

    fn answered(status: u16) -> HttpResponse {
        HttpResponse {
            status,
            headers: Vec::new(),
            body: "{}".into(),
        }
    }

    fn code_of(answer: &HttpResponse) -> (u16, String) {
        let body: Value = serde_json::from_str(&answer.body).unwrap();
        let code = body["code"].as_str().unwrap_or_default().to_owned();
        (answer.status, code)
    }

    #[test]
    fn hosted_forms_need_the_secret_they_sign_links_with() {
        let unset = FormRecord::configured(None).unwrap_err();
        assert_eq!(
            (unset.code(), unset.http_status()),
            (ErrorCode::NotFound, 404)
        );
        assert!(unset.message().contains("hosted forms are not configured"));
        assert_eq!(FormRecord::configured(Some("s".into())).unwrap(), "s");
    }

    #[test]
    fn a_link_is_made_only_from_a_200_answer_with_its_spec_and_random_bytes() {
        let random = Some([3; FormRecord::RANDOM_BYTES]);
        let (answer, spec, bytes) =
            FormRecord::issuable(answered(200), Some("spec"), random).unwrap();
        assert_eq!((answer, spec, bytes), (answered(200), "spec", [3; 32]));
        for status in [400, 422, 502] {
            let refused = FormRecord::issuable(answered(status), Some("spec"), random);
            assert_eq!(refused.unwrap_err(), answered(status), "its own answer");
        }
        let unkept = FormRecord::issuable(answered(200), None, random).unwrap_err();
        assert_eq!(code_of(&unkept), (500, "internal_error".into()));
        let unrandom = FormRecord::issuable(answered(200), Some("spec"), None).unwrap_err();
        assert_eq!(code_of(&unrandom), (500, "internal_error".into()));
        assert_eq!(FormRecord::stored(Ok(200)), Ok(()));
        let unstored =
            FormRecord::stored(Err(Error::new(ErrorCode::Internal, "the object is gone")))
                .unwrap_err();
        assert_eq!(code_of(&unstored), (500, "internal_error".into()));
        assert!(unstored
            .body
            .contains("the form could not be stored: the object is gone"));
        let refused = FormRecord::stored(Ok(400)).unwrap_err();
        assert_eq!(code_of(&refused), (500, "internal_error".into()));
        assert!(refused.body.contains("its object answered 400"));
    }

    #[test]
    fn tokens_round_trip_and_refuse_forgery_and_expiry() {
        let signed = token().sign("s3cret");
        assert_eq!(
            FormToken::verify(&signed, "s3cret", 1_000).unwrap(),
            token()
        );
        assert_eq!(
            FormToken::verify(&signed, "other", 1_000)
                .unwrap_err()
                .http_status(),
            404
        );
        assert_eq!(
            FormToken::verify(&signed, "s3cret", 2_000)
                .unwrap_err()
                .http_status(),
            410
        );
        // Another payload under the old signature: a later expiry, another id.
        let (_, signature) = signed.split_once('.').unwrap();
        for forged in [
            FormToken::new([7; ID_BYTES], 9_999),
            FormToken::new([8; ID_BYTES], 2_000),
        ] {
            assert_eq!(
                FormToken::verify(
                    &format!("{}.{signature}", forged.payload()),
                    "s3cret",
                    1_000
                )
                .unwrap_err()
                .http_status(),
                404
            );
        }
        for bad in [
            "",
            ".",
            "x.y",
            "%%%.%%%",
            &"a".repeat(MAX_TOKEN_CHARS + 1),
            &format!("{}AA.{signature}", token().payload()),
        ] {
            assert_eq!(
                FormToken::verify(bad, "s3cret", 1_000)
                    .unwrap_err()
                    .http_status(),
                404,
                "{bad:.20}"
            );
        }
    }

    #[test]
    fn a_webhook_or_callback_signature_is_no_token() {
        let t = token();
        let payload = t.payload();
        for purpose in [Purpose::Webhook, Purpose::Callback] {
            let digest = mac(purpose, "s3cret", t.expires_at, payload.as_bytes())
                .finalize()
                .into_bytes();
            let other = format!("{payload}.{}", B64.encode(digest));
            assert_eq!(
                FormToken::verify(&other, "s3cret", 1_000)
                    .unwrap_err()
                    .http_status(),
                404
            );
        }
    }

    #[test]
    fn an_answer_id_is_per_link_and_not_the_link_id() {
        let (one, two) = (
            FormToken::new([1; ID_BYTES], 10),
            FormToken::new([2; ID_BYTES], 10),
        );
        assert_eq!(
            one.answer_id(),
            FormToken::new([1; ID_BYTES], 99).answer_id(),
            "stable for a link"
        );
        assert_ne!(one.answer_id(), two.answer_id());
        assert_eq!(one.answer_id().len(), 32);
        assert!(
            !one.object_name().contains(&one.answer_id())
                && !one.answer_id().contains(&one.object_name()[..8])
        );
    }

    #[test]
    fn a_token_is_short_opaque_and_names_its_record_by_its_random_id() {
        let signed = FormToken::new([0xab; ID_BYTES], 1_795_564_800).sign("s3cret");
        // 24 payload bytes and 32 signature bytes, base64url: 32 + 1 + 43.
        assert_eq!(signed.len(), 76, "{signed}");
        let payload = B64.decode(signed.split_once('.').unwrap().0).unwrap();
        assert_eq!(
            &payload[..ID_BYTES],
            &[0xab; ID_BYTES],
            "only the id and the expiry"
        );
        assert_eq!(
            FormToken::verify(&signed, "s3cret", 0)
                .unwrap()
                .object_name(),
            "ab".repeat(ID_BYTES)
        );
        assert_ne!(
            FormToken::new([1; ID_BYTES], 5).object_name(),
            FormToken::new([2; ID_BYTES], 5).object_name()
        );
    }

    #[test]
    fn the_prefill_is_neither_in_the_token_nor_recoverable_from_an_unsalted_hash() {
        use sha2::Digest as _;
        let data = serde_json::json!({"to": "Bob", "amount": 10});
        let (text, prefill) = Prefill::of(&data, [1; SALT_BYTES]).unwrap();
        let unsalted = hex::encode(sha2::Sha256::digest(text.as_bytes()));
        assert_ne!(prefill.digest, unsalted, "salted");
        let (_, other) = Prefill::of(&data, [2; SALT_BYTES]).unwrap();
        assert_ne!(prefill.digest, other.digest, "a salt per record");
        let expected = hex::encode(sha2::Sha256::digest(format!(
            "{}{text}",
            "01".repeat(SALT_BYTES)
        )));
        assert_eq!(prefill.digest, expected, "what the page's script computes");
        let record = FormRecord {
            spec_hash: "a".repeat(64),
            tool_call_id: Some("c".repeat(3_500)),
            callback_url: Some(format!("https://agent.example.com/{}", "p".repeat(3_000))),
            expires_at: 2_000,
            locale: None,
            prefill: Some(prefill),
        };
        let signed = FormToken::new([3; ID_BYTES], record.expires_at).sign("s3cret");
        assert!(
            signed.len() < 100 && !signed.contains("Bob"),
            "the link's length does not grow with the record: {}",
            signed.len()
        );
        assert!(
            FormToken::verify(&signed, "s3cret", 1_000).is_ok(),
            "a long tool call id still gives a link that opens"
        );
        assert_eq!(
            serde_json::from_value::<FormRecord>(serde_json::to_value(&record).unwrap()).unwrap(),
            record
        );
        assert_eq!(Prefill::of(&Value::Null, [1; SALT_BYTES]), None);
    }

    #[test]
    fn links_carry_data_in_the_fragment_times_in_utc_and_logs_no_token() {
        let (text, _) = Prefill::of(
            &serde_json::json!({"to": "Bob", "eur": 10}),
            [0; SALT_BYTES],
        )
        .unwrap();
        assert_eq!(text, r#"{"to":"Bob","eur":10}"#);
        assert_eq!(
            FormToken::path("tok", Some(&text)),
            "/f/tok#data=%7B%22to%22%3A%22Bob%22%2C%22eur%22%3A10%7D"
        );
        assert_eq!(FormToken::redact_path("/f/abc.def"), "/f/<token>");
        assert_eq!(FormToken::redact_path("/v1/forms"), "/v1/forms");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(1795564800), "2026-11-25T00:00:00Z");
        assert_eq!(FormToken::expiry(100, 60), 160);
        assert_eq!(
            FormToken::expiry(100, 10 * 86_400),
            100 + MAX_LIFETIME_SECONDS
        );
    }

    fn job(extra: Value) -> GenerateJob {
        let mut body = serde_json::json!({"description": "Your address",
            "output": {"type": "object", "properties": {"to": {"type": "string"}}}});
        if let (Value::Object(body), Value::Object(extra)) = (&mut body, extra) {
            body.extend(extra);
        }
        let bytes = serde_json::to_vec(&body).unwrap();
        GenerateJob::prepare(&bytes, Some("html"), &crate::Limits::default()).unwrap()
    }

    #[test]
    fn a_hosted_form_needs_a_callback_and_an_output() {
        let missing = FormRecord::callback_for(&job(serde_json::json!({})), false).unwrap_err();
        assert_eq!(missing.pointer(), Some("/callbackUrl"));
        let plain = serde_json::json!({"callbackUrl": "http://example.com/cb"});
        let insecure = FormRecord::callback_for(&job(plain.clone()), false).unwrap_err();
        assert_eq!(insecure.http_status(), 400);
        assert!(FormRecord::callback_for(&job(plain), true).is_ok());
        let display = serde_json::json!({"callbackUrl": "https://example.com/cb",
            "output": null, "data": [{"a": 1}, {"a": 2}]});
        let refused = FormRecord::callback_for(&job(display), false).unwrap_err();
        assert_eq!(refused.pointer(), Some("/output"));
    }

    #[test]
    fn a_link_is_issued_from_its_random_bytes_with_the_prefill_in_the_fragment() {
        let job = job(serde_json::json!({"callbackUrl": "https://example.com/cb",
            "toolCallId": "call_1", "locale": "de", "data": {"to": "Bob"}}));
        let callback = FormRecord::callback_for(&job, false).unwrap();
        let mut random = [9u8; FormRecord::RANDOM_BYTES];
        random[..ID_BYTES].copy_from_slice(&[7; ID_BYTES]);
        let (record, token, fragment) =
            FormRecord::issue(&job, "abc", Some(&callback), random, 100, 60);
        assert_eq!(token, FormToken::new([7; ID_BYTES], 160));
        assert_eq!(
            (record.spec_hash.as_str(), record.tool_call_id.as_deref()),
            ("abc", Some("call_1"))
        );
        assert_eq!(
            (record.locale.as_deref(), record.expires_at),
            (Some("de"), 160)
        );
        assert_eq!(fragment.as_deref(), Some(r#"{"to":"Bob"}"#));
        let expected = Prefill::of(&serde_json::json!({"to": "Bob"}), [9; SALT_BYTES]);
        assert_eq!(record.prefill, expected.map(|(_, p)| p));
        let link = HttpResponse::form_link("https://w.example", "t.s", None, &token, &record);
        let body: Value = serde_json::from_str(&link.body).unwrap();
        assert_eq!(
            (link.status, body["url"].as_str()),
            (201, Some("https://w.example/f/t.s"))
        );
    }
}
