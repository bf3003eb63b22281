//! A person's visit to a hosted form's link (`GET`/`POST /f/<token>`),
//! sans-IO: which page answers, decided from the token, the link's object's
//! state, and for a post the submission's outcome and the object's answer
//! to storing it. The shell only asks the object ([`HostedVisit::object_name`],
//! its `/state` and `/submit`, see [`crate::FormObjectMachine`]), reads the
//! body and runs the submission between the steps:
//!
//! ```text
//! open(token) ──> object /state ──> on_state ── GET, open ──> the form
//!                                      │ POST, open: only now the body is read
//!                                      v
//!                 submission ──> on_submitted ──> object /submit ──> on_stored
//! ```
//!
//! Every step that cannot go on answers a notice page: 404 for a link that
//! is not valid (or no secret to check it with), 410 once expired, 409 for
//! a second post, 503 while the object cannot be reached.

use crate::edge::forms::{FormRecord, FormToken};
use crate::edge::outbox::DeliveryPhase;
use crate::edge::submission::{Submission, Submitted};
use crate::error::{Error, ErrorCode};
use crate::terms::limits::Limits;
use crate::terms::response::HttpResponse;
use serde_json::{json, Value};

/// One visit to a link whose token checked out. Its `Debug` leaves the
/// token (a capability) out.
#[derive(Clone)]
pub struct HostedVisit {
    token: String,
    link: FormToken,
    is_post: bool,
    locale: Option<String>,
    /// The open link's record and spec, once its object said it is open.
    open: Option<(FormRecord, String)>,
}

impl std::fmt::Debug for HostedVisit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostedVisit")
            .field("is_post", &self.is_post)
            .field("locale", &self.locale)
            .finish_non_exhaustive()
    }
}

/// The notice page `which` (see `HttpResponse::form_notice`).
fn notice(status: u16, locale: Option<&str>, which: &str) -> HttpResponse {
    HttpResponse::form_notice(status, locale, which)
}

impl HostedVisit {
    /// A `GET` (or, with `is_post`, a `POST`) of `/f/<token>` at `now`
    /// (Unix seconds), checked under `secret`; the page that ends the
    /// visit when the link is not valid.
    pub fn open(
        token: &str,
        secret: Option<&str>,
        now: u64,
        is_post: bool,
    ) -> Result<Self, HttpResponse> {
        let Some(secret) = secret else {
            return Err(notice(404, None, "not_found"));
        };
        let link = match FormToken::verify(token, secret, now) {
            Ok(link) => link,
            Err(error) if error.http_status() == 410 => return Err(notice(410, None, "expired")),
            Err(_) => return Err(notice(404, None, "not_found")),
        };
        Ok(Self {
            token: token.to_owned(),
            link,
            is_post,
            locale: None,
            open: None,
        })
    }

    /// The name of the link's Durable Object.
    pub fn object_name(&self) -> String {
        self.link.object_name()
    }

    /// The object's `/state` answer (status and JSON; `None` when it could
    /// not be asked): `Ok` for a post to the open link, whose body the shell
    /// reads only then (a post to a link answered, gone or unreachable is
    /// answered without reading it), else the page that answers (the form
    /// itself for a `GET` of an open link).
    pub fn on_state(&mut self, answer: Option<(u16, Value)>) -> Result<(), HttpResponse> {
        let Some((status, state)) = answer else {
            return Err(notice(503, None, "retrying"));
        };
        let record = serde_json::from_value::<FormRecord>(state["record"].clone())
            .ok()
            .filter(|_| status == 200);
        let (Some(record), Some(spec)) = (record, state["spec"].as_str()) else {
            return Err(notice(404, None, "not_found"));
        };
        self.locale = record.locale.clone();
        let locale = self.locale.as_deref();
        // "open" (no answer yet) is not a delivery phase.
        if let Some(phase) = state["state"].as_str().and_then(DeliveryPhase::from_wire) {
            // A replay, or a second look: the answer's state, never the form again.
            return Err(match self.is_post {
                true => notice(409, locale, "already_submitted"),
                false => notice(200, locale, phase.notice()),
            });
        }
        if !self.is_post {
            return Err(HttpResponse::hosted_form(&self.token, &record, spec, None));
        }
        self.open = Some((record, spec.to_owned()));
        Ok(())
    }

    /// The post's submission of `body` (as read) to the open link
    /// [`Self::on_state`] found; asked before it found one, the shell ran
    /// the steps out of order, which trying again will not mend: a 500.
    pub fn submission(
        &mut self,
        body: Result<&[u8], Error>,
        limits: &Limits,
    ) -> Result<Submission, HttpResponse> {
        let Some((record, spec)) = self.open.take() else {
            return Err(HttpResponse::error(&Error::new(
                ErrorCode::Internal,
                "a hosted form's post was read before its link was found open",
            )));
        };
        let answer_id = self.link.answer_id();
        Ok(Submission::hosted(
            &self.token,
            record,
            &spec,
            answer_id,
            body,
            limits,
        ))
    }

    /// The submission's outcome: the body of the object's `/submit` for a
    /// valid answer, else the page that answers (the form again, with the
    /// errors beside its fields).
    pub fn on_submitted(&self, outcome: Submitted) -> Result<Value, HttpResponse> {
        match outcome {
            Submitted::Store {
                message,
                delivery_id,
            } => Ok(json!({"message": message, "deliveryId": delivery_id})),
            refused => Err(refused.into_response()),
        }
    }

    /// The object's answer to `/submit` (`None` when it could not be
    /// asked): the page the person who posted is shown. The answer is
    /// accepted once stored; its delivery is the object's alarm's.
    pub fn on_stored(&self, answer: Option<(u16, Value)>) -> HttpResponse {
        let locale = self.locale.as_deref();
        match answer {
            Some((409, _)) => notice(409, locale, "already_submitted"),
            Some((200, answer)) => {
                let phase = answer["state"]
                    .as_str()
                    .and_then(DeliveryPhase::from_wire)
                    .unwrap_or(DeliveryPhase::Received);
                notice(phase.posted_status(), locale, phase.notice())
            }
            _ => notice(503, locale, "retrying"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::GenerateJob;

    /// The visit's next step after the object answered `state`, for an empty post.
    fn after(
        visit: &mut HostedVisit,
        state: Option<(u16, Value)>,
    ) -> Result<Submission, HttpResponse> {
        visit.on_state(state)?;
        visit.submission(Ok(b""), &Limits::default())
    }

    const NOW: u64 = 1_800_000_000;
    const SECRET: &str = "s3cret";

    fn token(expires_at: u64) -> String {
        FormToken::new([7; FormToken::ID_BYTES], expires_at).sign(SECRET)
    }

    fn visit(is_post: bool) -> HostedVisit {
        HostedVisit::open(&token(NOW + 60), Some(SECRET), NOW, is_post).unwrap()
    }

    /// The object's `/state` answer for a link in `phase`, with a real spec.
    fn state(phase: &str) -> Option<(u16, Value)> {
        let output = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
        let body = json!({"description": "Visit", "output": output}).to_string();
        let job = GenerateJob::prepare(body.as_bytes(), Some("html"), &Limits::default()).unwrap();
        let outcome = job.clone().answer(None);
        let spec = outcome
            .cache_put
            .map(|put| put.value)
            .or_else(|| job.spec_json());
        let record = json!({"specHash": job.spec_hash(), "expiresAt": NOW + 60, "locale": "de"});
        Some((
            200,
            json!({"spec": spec.unwrap(), "record": record, "state": phase}),
        ))
    }

    fn page(answer: &HttpResponse) -> (u16, &str) {
        (answer.status, answer.body.as_str())
    }

    fn notice_of(status: u16, locale: Option<&str>, which: &str) -> (u16, String) {
        let answer = HttpResponse::form_notice(status, locale, which);
        (answer.status, answer.body)
    }

    fn owned((status, body): (u16, &str)) -> (u16, String) {
        (status, body.to_owned())
    }

    #[test]
    fn a_link_that_does_not_check_out_ends_the_visit_without_waking_its_object() {
        let refused =
            |token: &str, secret| HostedVisit::open(token, secret, NOW, false).unwrap_err();
        assert_eq!(
            owned(page(&refused(&token(NOW + 60), None))),
            notice_of(404, None, "not_found")
        );
        assert_eq!(
            owned(page(&refused("forged.token", Some(SECRET)))),
            notice_of(404, None, "not_found")
        );
        assert_eq!(
            owned(page(&refused(&token(NOW - 1), Some(SECRET)))),
            notice_of(410, None, "expired")
        );
        let name = FormToken::new([7; FormToken::ID_BYTES], NOW + 60).object_name();
        assert_eq!(visit(false).object_name(), name);
    }

    #[test]
    fn an_open_link_shows_its_form_and_lets_a_post_through_to_the_submission() {
        let form = after(&mut visit(false), state("open")).unwrap_err();
        assert_eq!(form.status, 200);
        assert!(
            form.body
                .contains(&format!("action=\"/f/{}\"", token(NOW + 60))),
            "{}",
            form.body
        );
        let post = after(&mut visit(true), state("open")).unwrap();
        assert_eq!(
            post.needs(),
            None,
            "the link's spec came with it: no KV read"
        );
    }

    #[test]
    fn an_answered_link_shows_its_phase_and_refuses_a_second_post() {
        for (phase, which) in [
            ("received", "received"),
            ("delivered", "delivered"),
            ("failed", "failed"),
        ] {
            let shown = after(&mut visit(false), state(phase)).unwrap_err();
            assert_eq!(owned(page(&shown)), notice_of(200, Some("de"), which));
            let again = after(&mut visit(true), state(phase)).unwrap_err();
            assert_eq!(
                owned(page(&again)),
                notice_of(409, Some("de"), "already_submitted")
            );
        }
    }

    #[test]
    fn an_object_that_cannot_be_asked_or_has_no_record_answers_503_or_404() {
        let unreachable = after(&mut visit(false), None).unwrap_err();
        assert_eq!(owned(page(&unreachable)), notice_of(503, None, "retrying"));
        let missing =
            after(&mut visit(true), Some((404, json!({"state": "missing"})))).unwrap_err();
        assert_eq!(owned(page(&missing)), notice_of(404, None, "not_found"));
        let (_, answer) = state("open").unwrap();
        let not_200 = after(&mut visit(false), Some((500, answer))).unwrap_err();
        assert_eq!(not_200.status, 404);
    }

    #[test]
    fn a_stored_answer_is_told_its_phase_and_a_refused_one_gets_the_form_again() {
        let mut visit = visit(true);
        assert!(after(&mut visit, state("open")).is_ok());
        let store = Submitted::Store {
            message: "m".into(),
            delivery_id: "result_1".into(),
        };
        assert_eq!(
            visit.on_submitted(store).unwrap(),
            json!({"message": "m", "deliveryId": "result_1"})
        );
        let refused = Submitted::Answer(HttpResponse::form_notice(422, None, "not_found"));
        assert_eq!(visit.on_submitted(refused).unwrap_err().status, 422);
        let shown = |answer| owned(page(&visit.on_stored(answer)));
        let de = Some("de");
        assert_eq!(
            shown(Some((200, json!({"state": "received"})))),
            notice_of(202, de, "received")
        );
        assert_eq!(
            shown(Some((200, json!({"state": "delivered"})))),
            notice_of(200, de, "delivered")
        );
        assert_eq!(
            shown(Some((200, json!({})))),
            notice_of(202, de, "received")
        );
        assert_eq!(
            shown(Some((409, json!({})))),
            notice_of(409, de, "already_submitted")
        );
        assert_eq!(
            shown(Some((500, json!({})))),
            notice_of(503, de, "retrying")
        );
        assert_eq!(shown(None), notice_of(503, de, "retrying"));
    }

    #[test]
    fn a_visit_never_shows_its_token_when_logged() {
        let token = token(NOW + 60);
        let shown = format!("{:?}", visit(true));
        assert!(!shown.contains(&token) && !shown.contains(token.split('.').next_back().unwrap()));
    }

    #[test]
    fn a_post_gets_a_submission_only_once_its_link_is_found_open() {
        let limits = Limits::default();
        let mut unasked = visit(true);
        let unread = unasked.submission(Ok(b"{}"), &limits).unwrap_err();
        assert_eq!(
            unread.status, 500,
            "no state asked: the shell's steps are out of order"
        );
        let mut answered = visit(true);
        assert_eq!(
            answered.on_state(state("delivered")).unwrap_err().status,
            409
        );
        assert_eq!(
            answered.submission(Ok(b"{}"), &limits).unwrap_err().status,
            500
        );
        let mut open = visit(true);
        assert_eq!(open.on_state(state("open")), Ok(()));
        assert!(open.submission(Ok(b"{}"), &limits).is_ok());
    }
}
