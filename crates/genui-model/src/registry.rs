//! The generator registry: the ONE table of the generators a request's
//! `generator` may name, and the operator's standing instructions they all
//! carry.
//!
//! | name | generator |
//! |---|---|
//! | `auto` (or absent) | the configured model, else `deterministic` |
//! | `model` | the configured model; its failures are errors (no fallback) |
//! | `deterministic` | the built-in generator (genui-core) |
//! | the provider's name (`openai`, `anthropic`, `workers-ai`) | the configured model, with the fallback |
//! | a key of `GENUI_GENERATORS` | the operator's `http` generator ([`crate::providers::http`]), with the fallback |
//!
//! Any other name is a 400 with the pointer `/generator`.
//!
//! Variables, read once per isolate (the shell remembers the table until a
//! variable changes); a bad one is a log line and leaves that part out,
//! never a 5xx per request:
//!
//! | variable | meaning |
//! |---|---|
//! | `MODEL_*` | the model ([`ModelConfig::from_vars`]) |
//! | `GENUI_GENERATORS` | JSON: `{"<name>": {"url": "https://...", "deadlineMs": 8000, "timeoutMs": 4000}}`; `deadlineMs` (default 10000) bounds the whole generation, `timeoutMs` (default: the deadline) one attempt |
//! | `WEBHOOK_SECRET` | secret; signs every request to an `http` generator (without it there are none) |
//! | `GENUI_INSTRUCTIONS` | the operator's standing instructions (house style, tone, order), at most 16 KiB, given to every model and `http` generator |

use crate::config::{bad_generator, misconfigured, GeneratorChoice, ModelConfig, Provider};
use genui_core::Error;
use serde_json::{Map, Value};

/// Every variable [`Generators::from_vars`] reads, so a shell can tell
/// when the table must be read again.
pub const VARIABLES: [&str; 9] = [
    "MODEL_PROVIDER",
    "MODEL_NAME",
    "MODEL_BASE_URL",
    "MODEL_API_KEY",
    "MODEL_TIMEOUT_MS",
    "MODEL_DEADLINE_MS",
    "GENUI_GENERATORS",
    "GENUI_INSTRUCTIONS",
    "WEBHOOK_SECRET",
];

/// The operator's standing instructions are bounded apart from a request's
/// (`Limits::max_instructions_bytes`): they are trusted configuration, but
/// still cost prompt tokens on every call.
pub(crate) const MAX_OPERATOR_INSTRUCTIONS_BYTES: usize = 16 * 1024;
/// An `http` generator's deadline when `deadlineMs` is not given.
pub(crate) const DEFAULT_HTTP_DEADLINE_MS: u64 = 10_000;
/// Names the registry keeps for itself.
const RESERVED: [&str; 3] = ["auto", "model", "deterministic"];

/// The generators of this isolate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Generators {
    model: Option<ModelConfig>,
    http: Vec<ModelConfig>,
    instructions: Option<String>,
}

/// What a request's `generator` picked.
#[derive(Debug, Clone, PartialEq)]
pub enum Pick {
    /// The deterministic generator.
    Deterministic,
    /// A model or `http` generator; `forced`: its failures are errors.
    Generator {
        /// Its configuration (the operator's instructions included).
        config: ModelConfig,
        /// `generator: "model"`: no fallback.
        forced: bool,
    },
}

impl Generators {
    /// A table with only `model` (what the worker had before the registry).
    pub fn with_model(model: Option<ModelConfig>) -> Self {
        Self {
            model,
            ..Self::default()
        }
    }

    /// Reads every variable through `get` (secrets included). Returns the
    /// table and one line per problem, for the shell to log.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        let mut problems = Vec::new();
        let model = ModelConfig::from_vars(&get).unwrap_or_else(|why| {
            problems.push(format!("the model is off: {}", why.message()));
            None
        });
        let mut generators = Self::with_model(model);
        let value = |name: &str| get(name).filter(|v| !v.trim().is_empty());
        if let Some(text) = value("GENUI_INSTRUCTIONS") {
            match generators.set_instructions(&text) {
                Ok(()) => {}
                Err(why) => problems.push(why.message().to_owned()),
            }
        }
        if let Some(table) = value("GENUI_GENERATORS") {
            let secret = value("WEBHOOK_SECRET");
            problems.extend(generators.add_http(&table, secret.as_deref()));
        }
        (generators, problems)
    }

    /// Sets the operator's instructions on every generator (blank: none).
    pub(crate) fn set_instructions(&mut self, text: &str) -> Result<(), Error> {
        if text.len() > MAX_OPERATOR_INSTRUCTIONS_BYTES {
            return Err(misconfigured(format!("GENUI_INSTRUCTIONS is {} bytes, over the {MAX_OPERATOR_INSTRUCTIONS_BYTES}-byte limit: ignored", text.len())));
        }
        self.instructions = Some(text.trim().to_owned()).filter(|t| !t.is_empty());
        Ok(())
    }

    /// Adds the `http` generators of a `GENUI_GENERATORS` table; returns
    /// the problems (each leaves its generator out).
    pub fn add_http(&mut self, table: &str, secret: Option<&str>) -> Vec<String> {
        let entries = match serde_json::from_str::<Value>(table) {
            Ok(Value::Object(entries)) => entries,
            Ok(_) => return vec!["GENUI_GENERATORS must be a JSON object of name -> {url, deadlineMs}: no http generators".into()],
            Err(e) => return vec![format!("GENUI_GENERATORS is not JSON ({e}): no http generators")],
        };
        let Some(secret) = secret else {
            return vec!["GENUI_GENERATORS needs the WEBHOOK_SECRET secret to sign its requests: no http generators".into()];
        };
        let mut problems = Vec::new();
        for (name, entry) in entries {
            match self.http_entry(&name, &entry, secret) {
                Ok(config) => self.http.push(config),
                Err(why) => problems.push(format!(
                    "GENUI_GENERATORS.{name}: {}; left out",
                    why.message()
                )),
            }
        }
        problems
    }

    fn http_entry(&self, name: &str, entry: &Value, secret: &str) -> Result<ModelConfig, Error> {
        if !is_operator_name(name) {
            return Err(misconfigured(OPERATOR_NAME_RULE));
        }
        if RESERVED.contains(&name)
            || self.model_named(name).is_some()
            || self.http.iter().any(|c| c.model == name)
        {
            return Err(misconfigured(format!(
                "`{name}` is already a generator's name"
            )));
        }
        let Value::Object(fields) = entry else {
            return Err(misconfigured(
                "must be an object {url, deadlineMs, timeoutMs}",
            ));
        };
        if let Some(unknown) = fields
            .keys()
            .find(|k| !["url", "deadlineMs", "timeoutMs"].contains(&k.as_str()))
        {
            return Err(misconfigured(format!("unknown key `{unknown}`")));
        }
        let url = fields
            .get("url")
            .and_then(Value::as_str)
            .ok_or_else(|| misconfigured("`url` (a string) is required"))?;
        check_url(url)?;
        let deadline_ms = positive(fields, "deadlineMs")?.unwrap_or(DEFAULT_HTTP_DEADLINE_MS);
        let timeout_ms = positive(fields, "timeoutMs")?
            .unwrap_or(deadline_ms)
            .min(deadline_ms);
        let mut config = ModelConfig::new(Provider::Http, name);
        config.base_url = url.to_owned();
        config.api_key = Some(secret.to_owned());
        config.deadline_ms = deadline_ms;
        config.attempt_timeout_ms = timeout_ms;
        Ok(config)
    }

    /// Every name a request may use, in table order.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = RESERVED.iter().map(|n| (*n).to_owned()).collect();
        names.extend(self.model.iter().map(|m| m.provider.as_str().to_owned()));
        names.extend(self.http.iter().map(|c| c.model.clone()));
        names
    }

    /// Whether a model is configured.
    pub fn has_model(&self) -> bool {
        self.model.is_some()
    }

    /// The generator a request's `generator` names (see the module docs);
    /// `Err` says why the name is refused.
    pub fn pick(&self, requested: Option<&str>) -> Result<Pick, Error> {
        let name = requested.map(str::trim).unwrap_or_default();
        if let Ok(choice) = GeneratorChoice::parse(Some(name)) {
            let model = self.configured(self.model.as_ref());
            return Ok(match (choice.use_model(model.is_some())?, model) {
                (true, Some(config)) => Pick::Generator {
                    config,
                    forced: choice.is_forced(),
                },
                _ => Pick::Deterministic,
            });
        }
        let found = self
            .model_named(name)
            .or_else(|| self.http.iter().find(|c| c.model == name));
        match self.configured(found) {
            Some(config) => Ok(Pick::Generator {
                config,
                forced: false,
            }),
            None => Err(bad_generator(format!(
                "`generator` {name:?} is not a configured generator; the names are {}",
                self.names().join(", ")
            ))),
        }
    }

    fn model_named(&self, name: &str) -> Option<&ModelConfig> {
        self.model.as_ref().filter(|m| m.provider.as_str() == name)
    }

    /// A generator's configuration with the operator's instructions.
    fn configured(&self, config: Option<&ModelConfig>) -> Option<ModelConfig> {
        let mut config = config?.clone();
        config.instructions = self.instructions.clone();
        Some(config)
    }
}

/// What a name of an operator's table (`GENUI_GENERATORS`,
/// `GENUI_AGENTS`) may be.
pub(crate) const OPERATOR_NAME_RULE: &str = "a name is 1-64 of a-z, 0-9, - and _";

/// Whether `name` follows [`OPERATOR_NAME_RULE`].
pub(crate) fn is_operator_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

fn positive(fields: &Map<String, Value>, key: &str) -> Result<Option<u64>, Error> {
    match fields.get(key) {
        None => Ok(None),
        Some(value) => match value.as_u64() {
            Some(ms) if ms > 0 => Ok(Some(ms)),
            _ => Err(misconfigured(format!(
                "`{key}` must be a positive whole number of milliseconds"
            ))),
        },
    }
}

/// An `http(s)://host...` URL with no credentials and no fragment. (Its
/// host is the operator's choice: a service next to the worker may be
/// private; Cloudflare's egress decides what is reachable.)
pub(crate) fn check_url(url: &str) -> Result<(), Error> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| misconfigured("`url` must start with https:// or http://"))?;
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    if authority.is_empty()
        || authority.contains('@')
        || url.contains('#')
        || url.chars().any(char::is_whitespace)
    {
        return Err(misconfigured(
            "`url` needs a host, and no credentials, fragment or spaces",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    const TABLE: &str = r#"{"mine": {"url": "https://gen.example.com/plan", "deadlineMs": 3000}, "slow": {"url": "http://127.0.0.1:9/x", "deadlineMs": 9000, "timeoutMs": 2000}}"#;

    #[test]
    fn one_table_of_names() {
        let (table, problems) = Generators::from_vars(vars(&[
            ("MODEL_PROVIDER", "openai"),
            ("MODEL_NAME", "m"),
            ("GENUI_GENERATORS", TABLE),
            ("WEBHOOK_SECRET", "s"),
            ("GENUI_INSTRUCTIONS", " Short labels. "),
        ]));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            table.names(),
            ["auto", "model", "deterministic", "openai", "mine", "slow"]
        );
        let Ok(Pick::Generator {
            config,
            forced: false,
        }) = table.pick(Some("mine"))
        else {
            panic!()
        };
        assert_eq!(
            (
                config.provider,
                config.deadline_ms,
                config.attempt_timeout_ms
            ),
            (Provider::Http, 3000, 3000)
        );
        assert_eq!(config.instructions.as_deref(), Some("Short labels."));
        assert!(
            config
                .cache_identity()
                .starts_with("http/mine/https://gen.example.com/plan/h1/i"),
            "{}",
            config.cache_identity()
        );
        let Ok(Pick::Generator { config, .. }) = table.pick(Some("slow")) else {
            panic!()
        };
        assert_eq!(
            (
                config.deadline_ms,
                config.attempt_timeout_ms,
                config.api_key.as_deref()
            ),
            (9000, 2000, Some("s"))
        );
        assert!(matches!(
            table.pick(Some("openai")),
            Ok(Pick::Generator { forced: false, .. })
        ));
        assert!(matches!(
            table.pick(Some("model")),
            Ok(Pick::Generator { forced: true, .. })
        ));
        assert!(matches!(
            table.pick(None),
            Ok(Pick::Generator { forced: false, .. })
        ));
        assert_eq!(table.pick(Some("deterministic")), Ok(Pick::Deterministic));
        let unknown = table.pick(Some("gpt")).unwrap_err();
        assert!(unknown.message().contains("mine, slow"));
        assert_eq!(unknown.pointer(), Some("/generator"));
    }

    #[test]
    fn a_bad_table_is_a_log_line_never_an_error_per_request() {
        let (table, problems) = Generators::from_vars(vars(&[
            ("GENUI_GENERATORS", "{not json"),
            ("WEBHOOK_SECRET", "s"),
        ]));
        assert_eq!(
            (table.names().len(), problems.len()),
            (3, 1),
            "{problems:?}"
        );
        assert_eq!(table.pick(None), Ok(Pick::Deterministic));
        let (_, problems) = Generators::from_vars(vars(&[("GENUI_GENERATORS", TABLE)]));
        assert!(problems[0].contains("WEBHOOK_SECRET"), "{problems:?}");
        let bad = r#"{"Bad Name": {"url": "https://x"}, "auto": {"url": "https://x"}, "a": {"url": "ftp://x"}, "b": {"url": "https://x", "deadlineMs": 0},
            "c": {"url": "https://user:pw@x"}, "d": {"url": "https://x", "extra": 1}, "e": [], "ok": {"url": "https://ok.example"}}"#;
        let (table, problems) =
            Generators::from_vars(vars(&[("GENUI_GENERATORS", bad), ("WEBHOOK_SECRET", "s")]));
        assert_eq!(problems.len(), 7, "{problems:?}");
        assert_eq!(table.names().last().map(String::as_str), Some("ok"));
        let long = "x".repeat(MAX_OPERATOR_INSTRUCTIONS_BYTES + 1);
        let (table, problems) = Generators::from_vars(vars(&[
            ("GENUI_INSTRUCTIONS", &long),
            ("MODEL_PROVIDER", "openai"),
            ("MODEL_NAME", "m"),
        ]));
        assert!(problems[0].contains("GENUI_INSTRUCTIONS"));
        let Ok(Pick::Generator { config, .. }) = table.pick(None) else {
            panic!()
        };
        assert_eq!(config.instructions, None, "ignored, the model still works");
    }

    #[test]
    fn instructions_are_part_of_the_identity() {
        let mut table = Generators::with_model(Some(ModelConfig::new(Provider::OpenAi, "m")));
        let plain = table.pick(None).map(|p| match p {
            Pick::Generator { config, .. } => config.cache_identity(),
            Pick::Deterministic => String::new(),
        });
        table.set_instructions("Group by topic").unwrap();
        let told = table.pick(None).map(|p| match p {
            Pick::Generator { config, .. } => config.cache_identity(),
            Pick::Deterministic => String::new(),
        });
        assert_ne!(plain, told);
        assert!(told.unwrap().starts_with(&plain.unwrap()));
    }
}
