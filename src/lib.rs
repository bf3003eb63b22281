//! genui-worker: the Cloudflare Worker shell around `genui-core`.
//!
//! This crate owns only what needs the Workers runtime: the fetch entry
//! point, reading the body, the `UI_CACHE` KV binding, `ctx.wait_until`, the
//! clock, and logging. Every decision is made by the sans-IO core; this shell
//! performs the effects it asks for and turns every failure into a
//! `dgui_error` response itself (never the macro's generic 500).
//!
//! Natively this crate compiles to nothing; build it for wasm32 with
//! `scripts/build-wasm.sh`.

#![cfg(target_arch = "wasm32")]

mod shell;
