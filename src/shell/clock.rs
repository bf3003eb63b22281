//! The runtime's clock: the one place the shell reads the time, and the
//! one conversion of an absolute time into the offset workers-rs alarms
//! take.

use worker::Date;

/// Milliseconds since the epoch, as the runtime reports them (fractional
/// for durations).
pub(super) fn now_ms() -> f64 {
    Date::now().as_millis() as f64
}

/// Whole milliseconds since the epoch.
pub(super) fn unix_ms() -> u64 {
    now_ms() as u64
}

/// Whole seconds since the epoch.
pub(super) fn unix_s() -> u64 {
    unix_ms() / 1000
}

/// An alarm at `at_ms` (Unix ms, as the core's `set_alarm` hands it, already
/// clamped into `i64`), as workers-rs takes it: milliseconds from now, never
/// negative.
pub(super) fn alarm_offset(at_ms: i64) -> i64 {
    let now = i64::try_from(unix_ms()).unwrap_or(i64::MAX);
    at_ms.saturating_sub(now).max(0)
}
