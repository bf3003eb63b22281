//! Once-only webhooks: the replay guard, a SQLite-backed Durable Object
//! ([`ReplayGuard`]) per shard of signatures, named by genui-core's
//! [`ReplayClaim::shard`]. A shard answers one question atomically (it is
//! single-threaded, and the check and the insert are synchronous SQL with
//! no await between them): was this signature accepted before? It keeps
//! each key until the claim's forget time and deletes forgotten keys on
//! every claim and with its alarm. The decisions are the core's; this
//! module performs them.
//!
//! Without the `REPLAY_GUARD` binding the webhook fails closed: it answers
//! "not configured" (404), as it does without `WEBHOOK_SECRET`.

use super::clock::{alarm_offset, unix_s};
use genui_core::{Error, ErrorCode, HttpResponse, ReplayClaim};
use serde_json::json;
use worker::{
    durable_object, DurableObject, Env, Method, ObjectNamespace, Request, RequestInit, Response,
    Result, SqlStorage, State,
};

/// The Durable Object binding (wrangler.toml).
const BINDING: &str = "REPLAY_GUARD";

/// Claims a verified webhook signature: `Ok` the first time; otherwise the
/// answer to send (`webhook_replayed`, or the guard missing or failing).
pub(super) async fn claim_once(
    env: &Env,
    claim: &ReplayClaim,
) -> std::result::Result<(), HttpResponse> {
    let Ok(namespace) = env.durable_object(BINDING) else {
        let why = "the webhook is not configured (bind the REPLAY_GUARD Durable Object, which accepts each signed request once)";
        return Err(HttpResponse::error(&Error::new(ErrorCode::NotFound, why)));
    };
    let seen = ask(&namespace, claim).await.map_err(|e| {
        HttpResponse::error(&Error::new(
            ErrorCode::Internal,
            format!("the webhook's replay check could not be made: {e}"),
        ))
    })?;
    claim
        .answer(seen)
        .map_err(|error| HttpResponse::error(&error))
}

/// Asks the claim's shard; whether it had seen the claim.
async fn ask(namespace: &ObjectNamespace, claim: &ReplayClaim) -> Result<bool> {
    let stub = namespace.get_by_name(&claim.shard())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(serde_json::to_string(claim)?.into()));
    let request = Request::new_with_init("https://replay.internal/claim", &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    if response.status_code() != 200 {
        return Err(worker::Error::RustError(format!(
            "the replay guard answered {}",
            response.status_code()
        )));
    }
    let answer: serde_json::Value = response.json().await?;
    answer["seen"]
        .as_bool()
        .ok_or_else(|| worker::Error::RustError("the replay guard's answer has no `seen`".into()))
}

/// Unix seconds as SQLite's integer.
fn sql_int(seconds: u64) -> worker::SqlStorageValue {
    i64::try_from(seconds).unwrap_or(i64::MAX).into()
}

/// One shard of remembered webhook signatures.
#[durable_object]
pub struct ReplayGuard {
    state: State,
}

impl DurableObject for ReplayGuard {
    fn new(state: State, _env: Env) -> Self {
        Self { state }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        if req.method() != Method::Post || req.path() != "/claim" {
            return Ok(Response::from_json(&json!({"error": "unknown action"}))?.with_status(404));
        }
        let claim: ReplayClaim = match req.json().await {
            Ok(claim) => claim,
            Err(_) => {
                return Ok(Response::from_json(&json!({"error": "not a claim"}))?.with_status(400))
            }
        };
        let now = unix_s();
        let sql = self.table()?;
        // Check and remember with no await between: nothing else runs here.
        forget_old(&sql, now)?;
        let stored = first_forget_at(
            &sql,
            "SELECT forget_at FROM seen WHERE key = ?",
            vec![claim.key().into()],
        )?;
        let seen = ReplayClaim::seen(stored, now);
        if !seen {
            sql.exec(
                "INSERT OR REPLACE INTO seen (key, forget_at) VALUES (?, ?)",
                vec![claim.key().into(), sql_int(claim.forget_at())],
            )?;
            let storage = self.state.storage();
            if storage.get_alarm().await?.is_none() {
                storage
                    .set_alarm(alarm_offset(claim.forget_at() * 1000))
                    .await?;
            }
        }
        Response::from_json(&json!({"seen": seen}))
    }

    async fn alarm(&self) -> Result<Response> {
        let sql = self.table()?;
        forget_old(&sql, unix_s())?;
        if let Some(next) =
            first_forget_at(&sql, "SELECT MIN(forget_at) AS forget_at FROM seen", None)?
        {
            self.state
                .storage()
                .set_alarm(alarm_offset(next * 1000))
                .await?;
        }
        Response::ok("ok")
    }
}

impl ReplayGuard {
    /// The shard's one table, created on first use.
    fn table(&self) -> Result<SqlStorage> {
        let sql = self.state.storage().sql();
        sql.exec(
            "CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, forget_at INTEGER NOT NULL)",
            None,
        )?;
        Ok(sql)
    }
}

/// Deletes the keys [`ReplayClaim::is_forgotten`] at `now`.
fn forget_old(sql: &SqlStorage, now: u64) -> Result<()> {
    sql.exec("DELETE FROM seen WHERE forget_at <= ?", vec![sql_int(now)])?;
    Ok(())
}

/// The `forget_at` of a query's first row, if any.
fn first_forget_at(
    sql: &SqlStorage,
    query: &str,
    bindings: impl Into<Option<Vec<worker::SqlStorageValue>>>,
) -> Result<Option<u64>> {
    // SQLite integers arrive as JS numbers; MIN over no rows is null.
    let rows: Vec<serde_json::Value> = sql.exec(query, bindings)?.to_array()?;
    Ok(rows
        .first()
        .and_then(|row| row["forget_at"].as_f64())
        .map(|at| at as u64))
}
