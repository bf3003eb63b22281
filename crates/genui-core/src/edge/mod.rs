//! The worker's edge, beside the pipeline: who may call ([`access`]),
//! signed agent webhooks ([`webhook`]), each accepted once ([`replay`]),
//! where the worker may send its own requests ([`destination`]), hosted
//! form links ([`forms`]), a person's visit to one ([`hosted_visit`]) and
//! what each link's object does ([`form_object`]) and the loop that
//! performs it ([`form_object_run`]), cached specs rendered
//! again after a reload ([`rerender`]),
//! what the worker publishes about itself ([`tool`]), the contract schemas
//! it answers with ([`contracts`]), and the MCP server at `/mcp` ([`mcp`]).

pub(crate) mod access;
pub(crate) mod destination;
pub(crate) mod form_object;
pub(crate) mod form_object_run;
pub(crate) mod forms;
pub(crate) mod hosted_visit;
pub(crate) mod mcp;
pub(crate) mod outbox;
pub(crate) mod replay;
pub(crate) mod rerender;
pub(crate) mod routes;
pub(crate) mod submission;
pub(crate) mod tool;
pub(crate) mod webhook;

/// The latest time a JavaScript `Date` holds (Unix ms), so the latest a
/// Durable Object's alarm can be set for.
pub(crate) const LATEST_ALARM_MS: i64 = 8_640_000_000_000_000;

/// The alarm time a Durable Object's storage takes (Unix ms, `i64`) for
/// `at_ms`: a time past the latest `Date` is clamped to it (an alarm that
/// never comes) rather than wrapping negative, which would fire it at once
/// and re-arm it for ever, or making an invalid `Date`. The one
/// conversion; hosts take its result as is.
pub(crate) fn alarm_at(at_ms: u64) -> i64 {
    i64::try_from(at_ms).map_or(LATEST_ALARM_MS, |at| at.min(LATEST_ALARM_MS))
}
