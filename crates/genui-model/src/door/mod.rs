//! The front doors: each HTTP endpoint's flow, from the request's facts
//! to its answer, written once over the effects of one [`Platform`].
//!
//! A door decides the order of the steps (read the body within the
//! limits, prepare the job, ask the cache, run the generation machine,
//! store, answer); the platform only performs them. The worker shell
//! implements [`Platform`] over workers-rs and turns an [`Answer`] into
//! its response; the tests in `tests.rs` implement it in memory, so every
//! door's order runs natively.
//!
//! One module per door (`generate`, `render_spec`, `submit`), and the
//! drive loops they share (`drive`: the generation machine's effects
//! performed, as one answer or as an event stream).

mod drive;
mod generate;
mod platform;
mod render_spec;
mod serve;
mod submit;
#[cfg(test)]
mod tests;
mod webhook;

pub(crate) use drive::OnAnswer;
pub use platform::Platform;
pub use serve::{serve, ShellFlow};

use crate::stream::CONTENT_TYPE as EVENT_STREAM_CONTENT_TYPE;
use crate::{Encoder, Generation};
use futures::channel::mpsc::{self, UnboundedReceiver};
use genui_core::{Error, GenerateJob, HttpResponse, Limits, Submission, Submitted};

/// What a door answers: a whole response, or the head of an event stream
/// and its frames as they are written.
#[derive(Debug)]
pub enum Answer {
    /// The whole response.
    Whole(HttpResponse),
    /// An event stream: its head (status, headers), then its frames.
    Stream {
        /// Status and headers; the body is the frames.
        head: HttpResponse,
        /// The frames, in order; the stream ends when the sender closes.
        frames: UnboundedReceiver<String>,
    },
}

impl Answer {
    /// An event stream whose frames come through `frames`.
    pub fn event_stream(frames: UnboundedReceiver<String>) -> Self {
        Answer::Stream {
            head: HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), EVENT_STREAM_CONTENT_TYPE.into())],
                body: String::new(),
            },
            frames,
        }
    }

    /// An event stream whose frames are all known: written at once, then closed.
    pub fn written(text: String) -> Self {
        let (tx, rx) = mpsc::unbounded();
        let _ = tx.unbounded_send(text);
        Self::event_stream(rx)
    }

    /// The response, or a stream's head.
    fn head_mut(&mut self) -> &mut HttpResponse {
        match self {
            Answer::Whole(response) => response,
            Answer::Stream { head, .. } => head,
        }
    }

    /// The response (a stream's head), and a stream's frames.
    pub fn into_parts(self) -> (HttpResponse, Option<UnboundedReceiver<String>>) {
        match self {
            Answer::Whole(response) => (response, None),
            Answer::Stream { head, frames } => (head, Some(frames)),
        }
    }
}

/// The front doors over one request's platform.
#[derive(Debug, Clone)]
pub struct Door<P> {
    platform: P,
}

impl<P: Platform> Door<P> {
    /// The doors of the request `platform` performs the effects of.
    pub fn new(platform: P) -> Self {
        Self { platform }
    }

    /// `POST /v1/generate`.
    pub async fn generate(&self) -> Answer {
        generate::generate(&self.platform).await
    }

    /// `POST /v1/interrupt`.
    pub async fn interrupt(&self) -> Answer {
        generate::interrupt(&self.platform).await
    }

    /// `POST /v1/specs/<spec_hash>/render`.
    pub async fn render_spec(&self, spec_hash: &str) -> Answer {
        render_spec::render_spec(&self.platform, spec_hash).await
    }

    /// `POST /v1/submit`.
    pub async fn submit(&self) -> Answer {
        submit::submit(&self.platform).await
    }

    /// The request body, refused before it is read when its announced
    /// length is over `limits`.
    pub async fn body(&self, limits: &Limits) -> Result<Vec<u8>, Error> {
        read_body(&self.platform, limits).await
    }

    /// A prepared job's one answer (JSON), its cache writes after the response.
    pub async fn generate_job(&self, job: GenerateJob) -> HttpResponse {
        generate::generate_job(&self.platform, job).await
    }

    /// A prepared job as `/v1/generate`'s event stream; `on_answer` gets
    /// the last complete answer's body once the stream is written.
    pub async fn stream_job(&self, job: GenerateJob, on_answer: Option<OnAnswer>) -> Answer {
        generate::stream_job(&self.platform, job, on_answer).await
    }

    /// Runs a generation to its one answer, its cache writes after the response.
    pub async fn answer(&self, generation: &mut Generation) -> HttpResponse {
        drive::answer(&self.platform, generation).await
    }

    /// Runs a generation to its one answer inside a response already
    /// under way: its cache writes are made before the answer is returned.
    pub async fn answer_in_stream(&self, generation: &mut Generation) -> HttpResponse {
        drive::answer_in_stream(&self.platform, generation).await
    }

    /// Runs a generation as an event stream written by `events`; `Err` is
    /// a plain response (an error before the first event).
    pub async fn stream<E: Encoder + 'static>(
        &self,
        generation: Generation,
        events: E,
        on_answer: Option<OnAnswer>,
    ) -> Result<Answer, HttpResponse> {
        drive::stream(&self.platform, generation, events, on_answer).await
    }

    /// A submission answered (its message id `request_id`), with the KV
    /// read of its spec if it needs one.
    pub async fn submitted(&self, submission: Submission, request_id: &str) -> Submitted {
        submit::submitted(&self.platform, submission, request_id).await
    }
}

/// The request body, refusing an announced oversize body before reading it.
async fn read_body<P: Platform>(platform: &P, limits: &Limits) -> Result<Vec<u8>, Error> {
    limits.check_content_length(platform.header("content-length").as_deref())?;
    platform.read_body().await
}

/// The Durable Object binding of hosted forms' links and of every outbox
/// (a hosted form's answer, a webhook's callback).
const FORMS_BINDING: &str = "FORMS";

/// Whether callbacks may go to `http` and local URLs (a dev setting).
fn allow_http_callbacks<P: Platform>(platform: &P) -> bool {
    platform.setting("WEBHOOK_ALLOW_HTTP_CALLBACKS").as_deref() == Some("true")
}

/// Whole seconds since the epoch, at the platform's clock.
fn unix_s<P: Platform>(platform: &P) -> u64 {
    platform.now_ms() / 1000
}
