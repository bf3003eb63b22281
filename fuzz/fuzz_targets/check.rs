//! The plan checker on arbitrary plans against arbitrary schemas: it must
//! answer (with issues or none) and never panic. Input: a JSON array
//! `[plan, output]`.
#![no_main]

use genui_core::{Limits, Plan};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Array(pair)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let [plan, output] = pair.as_slice() else {
        return;
    };
    let Ok(plan) = serde_json::from_value::<Plan>(plan.clone()) else {
        return;
    };
    let _ = Plan::check(&plan, output, &Limits::default());
});
