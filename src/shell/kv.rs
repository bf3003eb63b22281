//! The spec cache on Workers KV (binding `UI_CACHE`).
//!
//! The cache is an optimisation, never a dependency: a missing binding, a
//! failed read or a failed write is logged and the request carries on
//! (a read failure is a miss; a write failure, for example KV's one write
//! per second per key, loses nothing but a later hit).

use genui_core::{CachePut, Limits};
use worker::{console_error, kv::KvStore, Env};

/// The KV binding name from wrangler.toml.
const BINDING: &str = "UI_CACHE";

/// How long an edge location keeps a read value in memory (seconds): specs
/// never change under a key, so any staleness is harmless.
const READ_CACHE_TTL_SECONDS: u64 = 3600;

thread_local! {
    static MISSING_LOGGED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub(super) struct SpecCache {
    store: Option<KvStore>,
    ttl_seconds: u64,
}

impl SpecCache {
    /// Opens the binding (the isolate's memory of specs is sized by
    /// `settings::limits`).
    pub(super) fn open(env: &Env) -> Self {
        let store = match env.kv(BINDING) {
            Ok(store) => Some(store),
            Err(e) => {
                // Once per isolate: the binding cannot appear later, and a
                // log line per request cost more CPU than the request.
                if !MISSING_LOGGED.replace(true) {
                    console_error!("{{\"event\":\"kv_binding_missing\",\"binding\":\"{BINDING}\",\"error\":{:?}}}", e.to_string());
                }
                None
            }
        };
        let ttl = super::settings::setting(env, "SPEC_TTL_SECONDS");
        let ttl_seconds = Limits::spec_ttl_seconds(ttl.as_deref());
        Self { store, ttl_seconds }
    }

    /// No cache at all, and nothing logged (the module start's warm-up
    /// request).
    pub(super) fn none() -> Self {
        Self {
            store: None,
            ttl_seconds: Limits::spec_ttl_seconds(None),
        }
    }

    pub(super) async fn get(&self, key: &str) -> Option<String> {
        let store = self.store.as_ref()?;
        match store
            .get(key)
            .cache_ttl(READ_CACHE_TTL_SECONDS)
            .text()
            .await
        {
            Ok(value) => value,
            Err(e) => {
                console_error!(
                    "{{\"event\":\"kv_get_failed\",\"key\":{key:?},\"error\":{:?}}}",
                    e.to_string()
                );
                None
            }
        }
    }

    /// The time to live of stored specs, in seconds.
    pub(super) fn ttl_seconds(&self) -> u64 {
        self.ttl_seconds
    }

    /// Writes now (a door defers it with `ctx.waitUntil` when it should
    /// not hold the response).
    pub(super) async fn put(&self, put: CachePut) {
        if let Some(store) = self.store.clone() {
            write(store, self.ttl_seconds, put).await;
        }
    }
}

async fn write(store: KvStore, ttl: u64, put: CachePut) {
    let result = match store.put(&put.key, put.value) {
        Ok(builder) => builder.expiration_ttl(ttl).execute().await,
        Err(e) => Err(e),
    };
    if let Err(e) = result {
        console_error!(
            "{{\"event\":\"kv_put_failed\",\"key\":{:?},\"error\":{:?}}}",
            put.key,
            e.to_string()
        );
    }
}
