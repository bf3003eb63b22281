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
//! One module per door (`generate`, `render_spec`, `submit`, `forms`,
//! `mcp`, `agent` with proxy mode's `relay`), and the drive loops they share (`drive`: the generation machine's effects
//! performed, as one answer or as an event stream).

mod agent;
mod drive;
mod forms;
mod generate;
mod mcp;
mod platform;
mod relay;
mod render_spec;
mod submit;
#[cfg(test)]
mod tests;

pub(crate) use drive::OnAnswer;
pub use platform::Platform;

use crate::stream::CONTENT_TYPE as EVENT_STREAM_CONTENT_TYPE;
use futures::channel::mpsc::{self, UnboundedReceiver};
use futures::future::LocalBoxFuture;
use genui_core::{Error, GenerateJob, HttpResponse, Limits};

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

    /// `POST /v1/agent`: an AG-UI run, answered as AG-UI events.
    pub async fn agent(&self) -> Answer {
        agent::agent(&self.platform).await
    }

    /// `POST /v1/forms`: a hosted form's signed link.
    pub async fn forms(&self) -> HttpResponse {
        forms::create(&self.platform).await
    }

    /// `GET`/`POST /f/<token>`: a hosted form's page, or its answer taken.
    pub async fn hosted_form(&self, token: &str) -> HttpResponse {
        forms::hosted(&self.platform, token).await
    }

    /// `POST /mcp`.
    pub async fn mcp(&self) -> HttpResponse {
        mcp::mcp(&self.platform).await
    }

    /// Whether callbacks may go to `http` and local URLs (the dev setting
    /// `WEBHOOK_ALLOW_HTTP_CALLBACKS`).
    pub fn allows_http_callbacks(&self) -> bool {
        forms::allow_http(&self.platform)
    }

    /// Puts a webhook's answer `body` in an outbox of its own, to be
    /// POSTed, signed, to `url` and retried like a hosted form's answer;
    /// a store that fails is logged.
    pub fn callback_outbox(&self, url: url::Url, body: String) -> LocalBoxFuture<'static, ()> {
        Box::pin(forms::enqueue_callback(self.platform.clone(), url, body))
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
}

/// The request body, refusing an announced oversize body before reading it.
async fn read_body<P: Platform>(platform: &P, limits: &Limits) -> Result<Vec<u8>, Error> {
    limits.check_content_length(platform.header("content-length").as_deref())?;
    platform.read_body().await
}

/// Whole seconds since the epoch, at the platform's clock.
fn unix_s<P: Platform>(platform: &P) -> u64 {
    platform.now_ms() / 1000
}
