//! The worker's edge, beside the pipeline: who may call ([`access`]),
//! signed agent webhooks ([`webhook`]), what the worker publishes about
//! itself ([`tool`]) and the contract schemas it answers with
//! ([`contracts`]).

pub mod access;
pub mod contracts;
pub mod tool;
pub mod webhook;
