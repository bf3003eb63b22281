//! What an MCP client says it can show, read on every request, and the
//! one table that turns it into what a `generate_user_interface` call
//! answers ([`Surface`]).
//!
//! Where the capabilities come from depends on the era:
//!
//! - `2026-07-28` carries them in every request's
//!   `_meta["io.modelcontextprotocol/clientCapabilities"]`.
//! - The handshake versions send them once, in `initialize`. The server
//!   keeps no sessions, so `initialize` answers an `Mcp-Session-Id` that
//!   *is* the capabilities it read ([`ClientCapabilities::session_id`]);
//!   the client sends it back on every later request (the transport's
//!   rule), and a later call reads them from it. The id is no secret and
//!   grants nothing: it only says what the client itself declared. A
//!   request without one (a client that dropped it, or a session made
//!   before this existed) is read as "unknown", and gets the MCP Apps
//!   answer it always got.
//!
//! A host that lists `application/a2ui+json` among the UI extension's
//! `mimeTypes` renders A2UI v1.0 natively (the draft SEP "A2UI over MCP
//! Apps"); it gets the form as A2UI even when it also lists the app view:
//! the SEP says a server SHOULD send native A2UI then, and a native
//! surface needs no sandboxed iframe nor the view's bundle.
//!
//! Anything that is not the shape the schema gives (a capability that is
//! not an object, `mimeTypes` that is not a list of strings) is read as
//! absent: a client with garbage capabilities gets the plainest answer,
//! never an error or a panic.

use crate::terms::format::A2UI_MEDIA_TYPE as A2UI_MIME;
use serde_json::Value;

/// MCP Apps' extension key (ext-apps `McpUiClientCapabilities`).
pub(crate) const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an MCP App view.
const APP_MIME: &str = "text/html;profile=mcp-app";

/// The capabilities that decide how a form reaches the person.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ClientCapabilities {
    /// MCP Apps: the host renders `text/html;profile=mcp-app` views.
    pub(crate) apps: bool,
    /// Elicitation's form mode (`elicitation: {}` or `{form: {}}`).
    pub(crate) elicit_form: bool,
    /// Elicitation's URL mode (`elicitation: {url: {}}`).
    pub(crate) elicit_url: bool,
    /// Native A2UI: `application/a2ui+json` among the UI extension's
    /// `mimeTypes`, a list of strings only.
    pub(crate) a2ui: bool,
}

impl ClientCapabilities {
    /// Reads a `ClientCapabilities` object; anything malformed counts as absent.
    pub(crate) fn read(value: &Value) -> Self {
        let ui = value
            .get("extensions")
            .and_then(|e| e.get(UI_EXTENSION))
            .and_then(Value::as_object);
        // ext-apps: `mimeTypes` "must include text/html;profile=mcp-app";
        // an extension entry without the list is an early Apps host.
        let apps = ui.is_some_and(|ui| match ui.get("mimeTypes") {
            None => true,
            Some(Value::Array(types)) => types.iter().any(|t| t.as_str() == Some(APP_MIME)),
            Some(_) => false,
        });
        let a2ui = ui
            .and_then(|ui| ui.get("mimeTypes"))
            .and_then(Value::as_array)
            .is_some_and(|types| lists_a2ui(types));
        let elicitation = value.get("elicitation").and_then(Value::as_object);
        let mode =
            |name: &str| elicitation.is_some_and(|e| e.get(name).is_some_and(Value::is_object));
        // `{}` (no mode named) is form mode, for backwards compatibility.
        let implicit_form =
            elicitation.is_some_and(|e| !e.contains_key("form") && !e.contains_key("url"));
        Self {
            apps,
            elicit_form: mode("form") || implicit_form,
            elicit_url: mode("url"),
            a2ui,
        }
    }

    /// The `Mcp-Session-Id` naming these capabilities: visible ASCII, one
    /// letter per capability (`a` Apps, `f` form, `u` URL, `n` native A2UI).
    pub(crate) fn session_id(self) -> String {
        let mut flags = String::new();
        for (on, letter) in self.flags() {
            if on {
                flags.push(letter);
            }
        }
        format!("{SESSION_PREFIX}{flags}")
    }

    /// The capabilities a session id of ours names; `None` for any other id.
    pub(crate) fn from_session_id(id: &str) -> Option<Self> {
        let flags = id.strip_prefix(SESSION_PREFIX)?;
        let mut caps = Self::default();
        for letter in flags.chars() {
            match letter {
                'a' => caps.apps = true,
                'f' => caps.elicit_form = true,
                'u' => caps.elicit_url = true,
                'n' => caps.a2ui = true,
                _ => return None,
            }
        }
        Some(caps)
    }

    fn flags(self) -> [(bool, char); 4] {
        [
            (self.apps, 'a'),
            (self.elicit_form, 'f'),
            (self.elicit_url, 'u'),
            (self.a2ui, 'n'),
        ]
    }
}

/// Whether a `mimeTypes` list names native A2UI. A list with anything but
/// strings in it is garbage and declares nothing.
fn lists_a2ui(types: &[Value]) -> bool {
    types.iter().all(Value::is_string) && types.iter().any(|t| t.as_str() == Some(A2UI_MIME))
}

/// Prefix of the session ids this server issues (a version, so the
/// encoding can change without misreading an older id).
const SESSION_PREFIX: &str = "genui-caps-1.";

/// How a `generate_user_interface` call reaches the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Surface {
    /// The MCP App view renders the form (today's answer; also for a
    /// client whose capabilities are unknown).
    AppView,
    /// The host renders A2UI v1.0 natively: the form travels as an
    /// `application/a2ui+json` embedded resource.
    A2ui,
    /// A `2026-07-28` client with elicitation: an `input_required` result.
    Elicit {
        /// Form mode is declared.
        form: bool,
        /// URL mode is declared.
        url: bool,
    },
    /// A client that shows neither: the spec, and a text saying how the
    /// person can be reached (or what is missing).
    Nothing,
}

impl Surface {
    /// The one table: native A2UI first (the SEP's SHOULD, even for a host
    /// that also renders the view), then Apps (a host that renders the view gets it),
    /// then elicitation where the era can carry it (only `2026-07-28`
    /// results may be `input_required`; the handshake era would need a
    /// server-initiated request on a stream this server does not keep).
    pub(crate) fn of(caps: Option<ClientCapabilities>, stateless: bool) -> Self {
        let Some(caps) = caps else {
            return Self::AppView;
        };
        if caps.a2ui {
            return Self::A2ui;
        }
        if caps.apps {
            return Self::AppView;
        }
        if stateless && (caps.elicit_form || caps.elicit_url) {
            return Self::Elicit {
                form: caps.elicit_form,
                url: caps.elicit_url,
            };
        }
        Self::Nothing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn caps(value: Value) -> ClientCapabilities {
        ClientCapabilities::read(&value)
    }

    #[test]
    fn apps_and_elicitation_modes_are_read() {
        let apps = caps(json!({"extensions": {UI_EXTENSION: {"mimeTypes": [APP_MIME]}}}));
        assert!(apps.apps && !apps.elicit_form && !apps.elicit_url);
        assert!(caps(json!({"extensions": {UI_EXTENSION: {}}})).apps);
        let a2ui_only =
            caps(json!({"extensions": {UI_EXTENSION: {"mimeTypes": ["application/a2ui+json"]}}}));
        assert!(
            !a2ui_only.apps,
            "a host that names its types and not the app view"
        );
        let both_views =
            caps(json!({"extensions": {UI_EXTENSION: {"mimeTypes": [APP_MIME, A2UI_MIME]}}}));
        assert!(both_views.apps && both_views.a2ui);
        assert!(a2ui_only.a2ui && !apps.a2ui);
        let implicit = caps(json!({"elicitation": {}}));
        assert!(implicit.elicit_form && !implicit.elicit_url);
        let url = caps(json!({"elicitation": {"url": {}}}));
        assert!(!url.elicit_form && url.elicit_url);
        let both = caps(json!({"elicitation": {"form": {}, "url": {}}}));
        assert!(both.elicit_form && both.elicit_url);
    }

    #[test]
    fn garbage_capabilities_read_as_none() {
        for garbage in [
            json!(null),
            json!("elicitation"),
            json!([1, 2]),
            json!({"elicitation": true}),
            json!({"elicitation": "form"}),
            json!({"elicitation": {"form": true, "url": []}}),
            json!({"extensions": "io.modelcontextprotocol/ui"}),
            json!({"extensions": {UI_EXTENSION: true}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": APP_MIME}}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": [1, null]}}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": A2UI_MIME}}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": {"0": A2UI_MIME}}}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": [A2UI_MIME, 7]}}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": [[A2UI_MIME]]}}}),
            json!({"extensions": {"a2ui": {"mimeTypes": [A2UI_MIME]}}}),
        ] {
            assert_eq!(
                caps(garbage.clone()),
                ClientCapabilities::default(),
                "{garbage}"
            );
        }
    }

    #[test]
    fn session_ids_round_trip_and_refuse_others() {
        for apps in [false, true] {
            for elicit_form in [false, true] {
                for elicit_url in [false, true] {
                    for a2ui in [false, true] {
                        let c = ClientCapabilities {
                            apps,
                            elicit_form,
                            elicit_url,
                            a2ui,
                        };
                        let id = c.session_id();
                        assert!(id.bytes().all(|b| (0x21..=0x7e).contains(&b)), "{id}");
                        assert_eq!(ClientCapabilities::from_session_id(&id), Some(c));
                    }
                }
            }
        }
        for other in [
            "",
            "abc",
            "genui-caps-1.x",
            "genui-caps-2.a",
            "550e8400-e29b",
        ] {
            assert_eq!(ClientCapabilities::from_session_id(other), None, "{other}");
        }
    }

    #[test]
    fn the_surface_table() {
        let none = ClientCapabilities::default();
        let apps = ClientCapabilities {
            apps: true,
            elicit_form: true,
            ..none
        };
        let form = ClientCapabilities {
            elicit_form: true,
            ..none
        };
        assert_eq!(
            Surface::of(None, true),
            Surface::AppView,
            "unknown keeps today's answer"
        );
        assert_eq!(Surface::of(Some(apps), true), Surface::AppView, "Apps wins");
        assert_eq!(
            Surface::of(Some(form), true),
            Surface::Elicit {
                form: true,
                url: false
            }
        );
        assert_eq!(
            Surface::of(Some(form), false),
            Surface::Nothing,
            "no input_required before 2026-07-28"
        );
        assert_eq!(Surface::of(Some(none), true), Surface::Nothing);
        assert_eq!(Surface::of(Some(none), false), Surface::Nothing);
        let a2ui = ClientCapabilities { a2ui: true, ..apps };
        for stateless in [true, false] {
            assert_eq!(
                Surface::of(Some(a2ui), stateless),
                Surface::A2ui,
                "native A2UI wins over the app view and elicitation"
            );
        }
    }
}
