//! Submission parsing and validation from raw bytes (inline `output`).
#![no_main]

use genui_core::Limits;
use genui_core::SubmitJob;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(job) = SubmitJob::prepare(data, &Limits::default()) {
        let outcome = job.answer(None, "fuzz");
        assert!(
            outcome.response.status < 500,
            "5xx: {}",
            outcome.response.body
        );
    }
});
