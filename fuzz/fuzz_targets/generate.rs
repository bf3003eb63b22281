//! Request parsing, limits, schema proof, the deterministic generator, the
//! checker and every format compiler, from raw request bytes: whatever the
//! input, the answer is a 200 meeting its contract or a non-5xx dgui_error.
#![no_main]

use genui_core::Limits;
use genui_core::{GenerateJob, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for format in [None, Some("rjsf"), Some("lmui")] {
        let outcome = match GenerateJob::prepare(data, format, &Limits::default()) {
            Ok(job) => job.answer(None),
            Err(e) => Outcome::failed(&e),
        };
        assert!(
            outcome.response.status < 500,
            "5xx: {}",
            outcome.response.body
        );
        if let Some(put) = &outcome.cache_put {
            // The cached spec renders again from cache, as a hit.
            let job = GenerateJob::prepare(data, format, &Limits::default())
                .expect("parsed once already");
            let hit = job.answer(Some(&put.value));
            assert_eq!(hit.response.status, 200);
        }
    }
});
