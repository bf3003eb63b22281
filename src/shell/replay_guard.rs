//! The webhook replay guard's Durable Object ([`ReplayGuard`]): one shard
//! of remembered signatures, SQLite-backed. The check and the insert are
//! synchronous SQL with no await between them, so a signature is accepted
//! once; the decisions are genui_core's `ReplayClaim`.

use super::clock::{alarm_offset, unix_s};
use genui_core::ReplayClaim;
use serde_json::json;
use worker::{
    durable_object, DurableObject, Env, Method, Request, Response, Result, SqlStorage, State,
};

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
