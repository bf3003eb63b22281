//! The webhook replay guard's Durable Object ([`ReplayGuard`]): one shard
//! of remembered signatures, SQLite-backed. genui_core's `ReplayClaim`
//! decides each request and alarm over the shard's table ([`SqlShard`], a
//! `ReplayShard`): one statement per operation, synchronous, so nothing
//! runs between a check and a remember.

use super::clock::{alarm_offset, unix_s};
use genui_core::{ReplayClaim, ReplayShard};
use worker::{
    durable_object, DurableObject, Env, Error, Request, Response, Result, SqlStorage,
    SqlStorageValue, State, Storage,
};

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
        let body = req.bytes().await?;
        let (method, path) = (req.method(), req.path());
        let mut shard = self.shard()?;
        let (status, answer) =
            ReplayClaim::serve_request(&mut shard, method.as_ref(), &path, &body).await?;
        Ok(Response::from_json(&answer)?.with_status(status))
    }

    async fn alarm(&self) -> Result<Response> {
        ReplayClaim::serve_alarm(&mut self.shard()?).await?;
        Response::ok("ok")
    }
}

impl ReplayGuard {
    /// The shard's one table, created on first use, and its alarm.
    fn shard(&self) -> Result<SqlShard> {
        let storage = self.state.storage();
        let sql = storage.sql();
        sql.exec(
            "CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, forget_at INTEGER NOT NULL)",
            None,
        )?;
        Ok(SqlShard { sql, storage })
    }
}

/// The shard's table in SQLite, and the object's alarm.
struct SqlShard {
    sql: SqlStorage,
    storage: Storage,
}

impl ReplayShard for SqlShard {
    type Error = Error;

    fn forget_due(&mut self, now: u64) -> Result<()> {
        self.sql
            .exec("DELETE FROM seen WHERE forget_at <= ?", vec![sql_int(now)])?;
        Ok(())
    }

    fn forget_at(&mut self, key: &str) -> Result<Option<u64>> {
        self.first_forget_at("SELECT forget_at FROM seen WHERE key = ?", vec![key.into()])
    }

    fn remember(&mut self, key: &str, forget_at: u64) -> Result<()> {
        let row = vec![key.into(), sql_int(forget_at)];
        self.sql.exec(
            "INSERT OR REPLACE INTO seen (key, forget_at) VALUES (?, ?)",
            row,
        )?;
        Ok(())
    }

    fn earliest(&mut self) -> Result<Option<u64>> {
        self.first_forget_at("SELECT MIN(forget_at) AS forget_at FROM seen", vec![])
    }

    async fn alarm(&mut self) -> Result<Option<i64>> {
        self.storage.get_alarm().await
    }

    async fn set_alarm(&mut self, at_ms: i64) -> Result<()> {
        self.storage.set_alarm(alarm_offset(at_ms)).await
    }

    fn now_s(&mut self) -> u64 {
        unix_s()
    }
}

impl SqlShard {
    /// The `forget_at` of a query's first row, if any.
    fn first_forget_at(&self, query: &str, bindings: Vec<SqlStorageValue>) -> Result<Option<u64>> {
        // SQLite integers arrive as JS numbers; MIN over no rows is null.
        let rows: Vec<serde_json::Value> = self.sql.exec(query, bindings)?.to_array()?;
        Ok(rows
            .first()
            .and_then(|row| row["forget_at"].as_f64())
            .map(|at| at as u64))
    }
}

/// Unix seconds as SQLite's integer.
fn sql_int(seconds: u64) -> SqlStorageValue {
    i64::try_from(seconds).unwrap_or(i64::MAX).into()
}
