//! The `requestState` of an `input_required` result: what the retried call
//! must be about, signed, because the client echoes it and the spec asks
//! servers to treat it as attacker-controlled.
//!
//! A state is `<payload>.<signature>`, both base64url without padding. The
//! payload is the JSON `{"specHash", "expiresAt"}`: the form the
//! elicitation was made for (the generate call's spec hash, so a retry
//! whose `arguments` ask for another form is refused) and when the state
//! stops being accepted. The signature is HMAC-SHA256 under
//! `WEBHOOK_SECRET` of `"genui-mcp-request-state.<expiresAt>.<payload>"`
//! ([`Purpose::McpRequestState`]), so no other signature of the worker's
//! passes for one. A state holds no answer and grants nothing the call's
//! own arguments could not ask for: replaying one only has the same answer
//! checked again. It is signed, not encrypted: a URL-mode state carries the
//! hosted link the host was sent (a bearer of the link's answer, and the
//! pre-fill in its fragment when it fits), so it is as private as the link.

use crate::error::{Error, ErrorCode, Result};
use crate::terms::signing::{mac, Purpose};
use base64::Engine as _;
use hmac::Mac as _;
use serde::{Deserialize, Serialize};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// Longest state accepted (a longer one is refused unread).
const MAX_STATE_CHARS: usize = 16 * 1024;

/// Longest link a state keeps whole; a longer one (a large pre-fill in its
/// `#data=` fragment) is kept without its fragment, so the state stays
/// under [`MAX_STATE_CHARS`] (base64 grows it by a third).
pub(crate) const MAX_LINK_CHARS: usize = 8 * 1024;

/// How long a person has to answer, in seconds (a hosted link's life).
pub(crate) const LIFETIME_SECONDS: u64 = crate::edge::forms::MAX_LIFETIME_SECONDS;

/// Where the state sits in a retried `tools/call`.
const POINTER: &str = "/params/requestState";

/// What a `requestState` binds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RequestState {
    /// The generate call's spec hash.
    pub(crate) spec_hash: String,
    /// Unix seconds after which the state is refused.
    pub(crate) expires_at: u64,
    /// A URL-mode elicitation's hosted link (its URL, which holds the
    /// link's signed token): where the retried call reads the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) link: Option<String>,
}

fn refused(why: &str) -> Error {
    Error::new(
        ErrorCode::InvalidRequestState,
        format!("the retried call's requestState {why} (at {POINTER})"),
    )
    .at(POINTER)
}

impl RequestState {
    /// The state of a form made at `now` (Unix seconds).
    pub(crate) fn new(spec_hash: &str, now: u64) -> Self {
        Self {
            spec_hash: spec_hash.to_owned(),
            expires_at: now.saturating_add(LIFETIME_SECONDS),
            link: None,
        }
    }

    /// The signed state.
    pub(crate) fn sign(&self, secret: &str) -> String {
        // Two fields of strings and numbers: serialisation cannot fail.
        let payload = B64.encode(serde_json::to_vec(self).unwrap_or_default());
        let digest = mac(
            Purpose::McpRequestState,
            secret,
            self.expires_at,
            payload.as_bytes(),
        )
        .finalize()
        .into_bytes();
        format!("{payload}.{}", B64.encode(digest))
    }

    /// The state `text` signs, when its signature is valid, it has not
    /// expired at `now`, and it was made for `spec_hash`.
    pub(crate) fn verify(text: &str, secret: &str, now: u64, spec_hash: &str) -> Result<Self> {
        if text.len() > MAX_STATE_CHARS {
            return Err(refused("is not one this worker issued (too long)"));
        }
        let forged = || refused("is not one this worker issued (its signature does not match)");
        let (payload, signature) = text.split_once('.').ok_or_else(forged)?;
        let signature = B64.decode(signature).map_err(|_| forged())?;
        let state: Self = B64
            .decode(payload)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .ok_or_else(forged)?;
        // Constant-time comparison (`verify_slice`), over the payload as sent.
        mac(
            Purpose::McpRequestState,
            secret,
            state.expires_at,
            payload.as_bytes(),
        )
        .verify_slice(&signature)
        .map_err(|_| forged())?;
        if now >= state.expires_at {
            return Err(refused(
                "has expired: call generate_user_interface again for a new form",
            ));
        }
        if state.spec_hash != spec_hash {
            return Err(refused(
                "was made for another form: the retry must repeat the original arguments",
            ));
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "ab12";

    #[test]
    fn a_state_round_trips_and_refuses_forgery_expiry_and_another_form() {
        let state = RequestState::new(HASH, 1_000);
        let signed = state.sign("s3cret");
        assert_eq!(
            RequestState::verify(&signed, "s3cret", 1_001, HASH).unwrap(),
            state
        );
        let code = |text: &str, secret: &str, now: u64, hash: &str| {
            let error = RequestState::verify(text, secret, now, hash).unwrap_err();
            assert_eq!(error.pointer(), Some(POINTER));
            (error.code().as_str(), error.http_status())
        };
        let refused = ("invalid_request_state", 400);
        assert_eq!(
            code(&signed, "other", 1_001, HASH),
            refused,
            "another secret"
        );
        assert_eq!(
            code(&signed, "s3cret", state.expires_at, HASH),
            refused,
            "expired"
        );
        assert_eq!(
            code(&signed, "s3cret", 1_001, "cd34"),
            refused,
            "another form"
        );
        // A payload of our own choosing under the old signature.
        let (_, signature) = signed.split_once('.').unwrap();
        let longer = RequestState {
            expires_at: u64::MAX,
            ..state.clone()
        };
        let tampered = format!(
            "{}.{signature}",
            longer.sign("x").split_once('.').unwrap().0
        );
        assert_eq!(code(&tampered, "s3cret", 1_001, HASH), refused, "tampered");
        for garbage in [
            "",
            ".",
            "a.b",
            "%%.%%",
            "e30.AAAA",
            &"a".repeat(MAX_STATE_CHARS + 1),
        ] {
            assert_eq!(
                code(garbage, "s3cret", 1_001, HASH),
                refused,
                "{garbage:.20}"
            );
        }
    }

    #[test]
    fn a_form_token_signature_is_no_request_state() {
        let state = RequestState::new(HASH, 1_000);
        let payload = B64.encode(serde_json::to_vec(&state).unwrap());
        let digest = mac(
            Purpose::FormToken,
            "s3cret",
            state.expires_at,
            payload.as_bytes(),
        )
        .finalize()
        .into_bytes();
        let other = format!("{payload}.{}", B64.encode(digest));
        assert!(RequestState::verify(&other, "s3cret", 1_001, HASH).is_err());
    }
}
