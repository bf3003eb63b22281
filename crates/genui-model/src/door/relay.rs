//! Proxy mode's relay (`Proxy` decides): the request to the upstream agent
//! named in `forwardedProps.upstream`, its event stream relayed as it
//! comes, all within the agent's deadline, and the forms of the interrupts
//! of its `RUN_FINISHED`, made by the generation machine as
//! `forwardedProps.interrupts` gets them (`generate::interrupt_job`).

use super::{drive, generate, Answer, Platform};
use crate::agui::{AgentEvents, RunInput};
use crate::proxy::Proxy;
use crate::{Generation, Mode};
use futures::channel::mpsc::{self, UnboundedSender};
use futures::future::{select, Either};
use futures::StreamExt;

/// Starts the relay: the stream's head at once, its frames as the
/// upstream sends them (the exchange runs after the response's head).
pub(super) fn start<P: Platform>(platform: &P, proxy: Proxy, input: &RunInput) -> Answer {
    let (tx, rx) = mpsc::unbounded();
    let relay = Relay {
        events: AgentEvents::new(input),
        platform: platform.clone(),
        tx,
    };
    platform.after_response(Box::pin(relay.run(proxy)));
    Answer::event_stream(rx)
}

/// How the exchange with the upstream ended.
enum Ended {
    /// Everything is written (the run ended, failed, or the client left).
    Written,
    /// The run ended with interrupts: their `/v1/interrupt` bodies, whose
    /// forms go out before the held `RUN_FINISHED`.
    WithForms(Vec<Vec<u8>>, String),
    /// The deadline passed first.
    TimedOut,
}

/// The relay's side of the response: where frames go, and the platform
/// that reaches the upstream and makes the forms of its interrupts.
struct Relay<P> {
    events: AgentEvents,
    platform: P,
    tx: UnboundedSender<String>,
}

impl<P: Platform> Relay<P> {
    /// The whole exchange with the upstream, raced against its deadline;
    /// then the forms of the interrupts its run ended with, and
    /// its held `RUN_FINISHED` (the generation machine bounds its own time).
    async fn run(mut self, mut proxy: Proxy) {
        let platform = self.platform.clone();
        let deadline = platform.wait(proxy.deadline_ms());
        let exchange = self.exchange(&mut proxy);
        // Matched in one statement, so the losing future (and its borrows)
        // is dropped before the frames are written.
        let ended = match select(Box::pin(exchange), Box::pin(deadline)).await {
            Either::Left((ended, _)) => ended,
            Either::Right(_) => Ended::TimedOut,
        };
        match ended {
            Ended::WithForms(interrupts, held) => {
                for body in &interrupts {
                    // A client that left needs no more forms.
                    if self.tx.is_closed() {
                        break;
                    }
                    let form = self.form(body).await;
                    self.write(form);
                }
                self.write(held);
            }
            Ended::TimedOut => self.write(proxy.timed_out()),
            Ended::Written => {}
        }
        self.tx.close_channel();
    }

    /// Relays the upstream's events until its run ends, the stream fails
    /// or closes, or the client leaves. The upstream's body is dropped
    /// when this returns or loses to the deadline, and dropping it aborts
    /// the request to the agent (the platform's promise), so no request
    /// outlives the relay: a client that leaves cancels the agent's run.
    async fn exchange(&mut self, proxy: &mut Proxy) -> Ended {
        let (status, content_type, body) = match self.platform.send_streaming(proxy.request()).await
        {
            Ok(sent) => sent,
            Err(error) => return self.end(proxy.unreachable(error.message())),
        };
        if let Some(end) = proxy.answered(status, content_type.as_deref()) {
            return self.end(end);
        }
        let body = body.map(|chunk| chunk.map_err(|error| error.message().to_owned()));
        let mut events = Box::pin(Proxy::events(body));
        while let Some(event) = events.next().await {
            let relayed = proxy.relay(event);
            self.write(relayed.frames);
            if !relayed.interrupts.is_empty() {
                return Ended::WithForms(relayed.interrupts, relayed.held);
            }
            self.write(relayed.held);
            if proxy.is_over() || self.tx.is_closed() {
                return Ended::Written;
            }
        }
        self.end(proxy.closed())
    }

    /// Writes the frames that end the run; nothing is left to do.
    fn end(&self, frames: String) -> Ended {
        self.write(frames);
        Ended::Written
    }

    /// The form activity answering one interrupt (empty, and one log
    /// line, when it cannot be made: the interrupt still reaches the
    /// client in `RUN_FINISHED`).
    async fn form(&mut self, body: &[u8]) -> String {
        let limits = self.platform.limits();
        let job = match generate::interrupt_job(&self.platform, body, &limits) {
            Ok(job) => job,
            Err(error) => {
                let logged = serde_json::json!({"event": "proxy_interrupt_unanswered", "error": error.to_dgui_error()});
                self.platform.log_error(&logged.to_string());
                return String::new();
            }
        };
        let generators = self.platform.generators();
        let now_ms = self.platform.now_ms();
        let mut generation = Generation::new(job, &generators, Mode::Answer, &limits, now_ms);
        let answer = drive::answer_in_stream(&self.platform, &mut generation).await;
        self.events.form(&answer)
    }

    /// Writes frames; a client that left is not an error.
    fn write(&self, text: String) {
        if !text.is_empty() {
            let _ = self.tx.unbounded_send(text);
        }
    }
}
