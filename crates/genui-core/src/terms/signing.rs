//! The worker's signatures: HMAC-SHA256 under the one `WEBHOOK_SECRET` of
//! `"<purpose>.<timestamp>.<body>"`, where the purpose label ([`Purpose`],
//! the one table of them) makes a signature made for one use worthless for
//! every other. Webhooks, callbacks, hosted-form links, interrupt tokens,
//! resume entries, generator requests and MCP request states all sign here.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The MAC every signature of the worker is.
pub(crate) type HmacSha256 = Hmac<Sha256>;

/// What a signature is for. The label is the first of the signed bytes,
/// so a signature made for one use never verifies for another, under the
/// one `WEBHOOK_SECRET`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// An agent's request to `POST /v1/webhook`.
    Webhook,
    /// The worker's POST to an agent's `callbackUrl`.
    Callback,
    /// A hosted form's link token ([`crate::edge::forms`]).
    FormToken,
    /// The worker's POST of a data-free request to an operator's `http`
    /// generator (genui-model's `providers::http`).
    Generator,
    /// The `requestState` of an MCP `input_required` result
    /// ([`crate::edge::mcp`]), which the client echoes on its retry.
    McpRequestState,
    /// An AG-UI interrupt's token: binds its id, its `expiresAt` and the
    /// spec answered for it ([`crate::interrupt`]).
    InterruptToken,
    /// The signature in a resume entry's `metadata.genui`
    /// ([`crate::interrupt`]).
    Resume,
}

impl Purpose {
    fn label(self) -> &'static [u8] {
        match self {
            Self::Webhook => b"genui-webhook",
            Self::Callback => b"genui-callback",
            Self::FormToken => b"genui-form-token",
            Self::Generator => b"genui-generator",
            Self::McpRequestState => b"genui-mcp-request-state",
            Self::InterruptToken => b"genui-interrupt",
            Self::Resume => b"genui-resume",
        }
    }
}

/// HMAC-SHA256 of `"<purpose>.<timestamp>.<body>"`.
pub(crate) fn mac(purpose: Purpose, secret: &str, timestamp: u64, body: &[u8]) -> HmacSha256 {
    // HMAC takes keys of any length; `new_from_slice` cannot fail for it.
    let mut mac = <HmacSha256 as KeyInit>::new_from_slice(secret.as_bytes())
        .expect("HMAC accepts any key length");
    mac.update(purpose.label());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The header value signing `body` at `timestamp` for `purpose`.
pub(crate) fn sign(purpose: Purpose, secret: &str, timestamp: u64, body: &[u8]) -> String {
    let digest = mac(purpose, secret, timestamp, body)
        .finalize()
        .into_bytes();
    format!("t={timestamp},v1={}", hex::encode(digest))
}
