//! Prints the answer for a request file: `cargo run -p genui-core --example
//! render -- <request.json> [jsonforms|rjsf|lmui]`. Handy when working on a
//! generator or a format.

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: render <request.json> [format]");
        std::process::exit(2);
    };
    let format = args.next();
    let body = match std::fs::read(&path) {
        Ok(body) => body,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let limits = genui_core::Limits::default();
    let outcome = match genui_core::GenerateJob::prepare(&body, format.as_deref(), &limits) {
        Ok(job) => job.answer(None),
        Err(e) => genui_core::Outcome::failed(&e),
    };
    println!("{}", outcome.response.body);
}
