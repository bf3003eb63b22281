//! Configuration: which provider and model, from wrangler vars and secrets,
//! and the per-request choice of generator.
//!
//! Variables (all optional; with `MODEL_PROVIDER` unset or empty there is no
//! model and the worker stays on the deterministic generator):
//!
//! | variable | meaning |
//! |---|---|
//! | `MODEL_PROVIDER` | `openai` (any OpenAI-compatible server), `anthropic`, `workers-ai` |
//! | `MODEL_NAME` | model id, required with a provider |
//! | `MODEL_BASE_URL` | API base; defaults per provider (Workers AI: the `AI` binding) |
//! | `MODEL_API_KEY` | secret; never printed by `Debug` |
//! | `MODEL_TIMEOUT_MS` | per-attempt timeout, default 15000 |
//! | `MODEL_DEADLINE_MS` | overall deadline for one generation, default 30000 |
//!
//! The operator's `http` generators (`GENUI_GENERATORS`) and standing
//! instructions (`GENUI_INSTRUCTIONS`) are read with these into the one
//! generator table, [`crate::registry`].

use genui_core::{Error, ErrorCode};
use std::fmt;

/// The operator's configuration (a var or a secret) is wrong. The shell
/// logs it and runs without the part it configures; were it ever answered,
/// it would be the worker's fault, a 500.
pub(crate) fn misconfigured(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::Internal, message)
}

/// A request's `generator` option that cannot be honoured: a 400 at
/// `/generator`.
pub(crate) fn bad_generator(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidRequest, message).at("/generator")
}

/// Default per-attempt timeout.
pub(crate) const DEFAULT_ATTEMPT_TIMEOUT_MS: u64 = 15_000;
/// Default overall deadline.
pub(crate) const DEFAULT_DEADLINE_MS: u64 = 30_000;

/// A model provider, one wire format each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI chat completions, or any server that speaks them.
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
    /// Cloudflare Workers AI (the `AI` binding, or its REST API).
    WorkersAi,
    /// An operator's own `http` generator (`GENUI_GENERATORS`, see
    /// [`crate::registry`]): never chosen by `MODEL_PROVIDER`.
    Http,
}

impl Provider {
    /// The configuration and provenance name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
            Self::WorkersAi => "workers-ai",
            Self::Http => "http",
        }
    }

    /// Parses a `MODEL_PROVIDER` value (case-insensitive).
    pub fn parse(text: &str) -> Result<Self, Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" => Ok(Self::OpenAi),
            "anthropic" => Ok(Self::Anthropic),
            "workers-ai" | "workers_ai" | "workersai" => Ok(Self::WorkersAi),
            other => Err(misconfigured(format!(
                "MODEL_PROVIDER `{other}` is not one of openai, anthropic, workers-ai"
            ))),
        }
    }

    /// The base URL used when `MODEL_BASE_URL` is not set; empty for Workers
    /// AI, which then goes through the `AI` binding.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Self::OpenAi => "https://api.openai.com/v1",
            Self::Anthropic => "https://api.anthropic.com",
            Self::WorkersAi | Self::Http => "",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything needed to call one model.
#[derive(Clone, PartialEq, Eq)]
pub struct ModelConfig {
    /// The wire format.
    pub provider: Provider,
    /// The model id.
    pub model: String,
    /// API base URL, without a trailing slash.
    pub base_url: String,
    /// The secret key, if the server needs one. Never printed.
    pub api_key: Option<String>,
    /// Timeout of one HTTP attempt.
    pub attempt_timeout_ms: u64,
    /// Deadline of the whole generation (all attempts and waits).
    pub deadline_ms: u64,
    /// The operator's standing instructions (`GENUI_INSTRUCTIONS`), set by
    /// the registry on every model and `http` generator; part of
    /// [`Self::cache_identity`].
    pub instructions: Option<String>,
}

impl fmt::Debug for ModelConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModelConfig")
            .field("provider", &self.provider)
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("attempt_timeout_ms", &self.attempt_timeout_ms)
            .field("deadline_ms", &self.deadline_ms)
            .field(
                "instructions_bytes",
                &self.instructions.as_ref().map(String::len),
            )
            .finish()
    }
}

impl ModelConfig {
    /// A configuration with default URL and timeouts and no key.
    pub fn new(provider: Provider, model: impl Into<String>) -> Self {
        Self {
            provider,
            model: model.into(),
            base_url: provider.default_base_url().to_owned(),
            api_key: None,
            attempt_timeout_ms: DEFAULT_ATTEMPT_TIMEOUT_MS,
            deadline_ms: DEFAULT_DEADLINE_MS,
            instructions: None,
        }
    }

    /// Reads the `MODEL_*` variables through `get` (the shell passes a
    /// closure over `env.var` / `env.secret`). `Ok(None)` when no provider is
    /// configured; `Err` names the variable that is wrong.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Option<ModelConfig>, Error> {
        let value = |name: &str| {
            get(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let Some(provider) = value("MODEL_PROVIDER") else {
            return Ok(None);
        };
        let provider = Provider::parse(&provider)?;
        let model = value("MODEL_NAME")
            .ok_or_else(|| misconfigured("MODEL_NAME is required when MODEL_PROVIDER is set"))?;
        let mut config = ModelConfig::new(provider, model);
        if let Some(url) = value("MODEL_BASE_URL") {
            config.base_url = url.trim_end_matches('/').to_owned();
        }
        config.api_key = get("MODEL_API_KEY").filter(|k| !k.trim().is_empty());
        if let Some(ms) = value("MODEL_TIMEOUT_MS") {
            config.attempt_timeout_ms = positive_ms("MODEL_TIMEOUT_MS", &ms)?;
        }
        if let Some(ms) = value("MODEL_DEADLINE_MS") {
            config.deadline_ms = positive_ms("MODEL_DEADLINE_MS", &ms)?;
        }
        Ok(Some(config))
    }

    /// What identifies this model in cache keys and provenance:
    /// `provider/model/prompt version`; an `http` generator's is
    /// `http/name/url/wire version`. Standing instructions add
    /// `/i<digest>`, so changing them never serves an old form.
    pub fn cache_identity(&self) -> String {
        let mut identity = match self.provider {
            Provider::Http => format!(
                "http/{}/{}/h{}",
                self.model, self.base_url, HTTP_WIRE_VERSION
            ),
            provider => format!(
                "{provider}/{}/p{}",
                self.model,
                crate::prompt::PROMPT_VERSION
            ),
        };
        if let Some(instructions) = &self.instructions {
            use sha2::Digest;
            let digest = hex::encode(sha2::Sha256::digest(instructions.as_bytes()));
            identity.push_str(&format!("/i{}", &digest[..16]));
        }
        identity
    }
}

fn positive_ms(name: &str, text: &str) -> Result<u64, Error> {
    match text.parse::<u64>() {
        Ok(ms) if ms > 0 => Ok(ms),
        _ => Err(misconfigured(format!(
            "{name} must be a positive whole number of milliseconds, not `{text}`"
        ))),
    }
}

/// Version of the `http` generator's request and answer shapes
/// (`providers::http`); part of its cache identity.
pub(crate) const HTTP_WIRE_VERSION: u32 = 1;

/// The per-request `generator` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum GeneratorChoice {
    /// The model when one is configured, else the deterministic generator.
    #[default]
    Auto,
    /// The model; a failure is an error, never a silent fallback.
    Model,
    /// The deterministic generator, even when a model is configured.
    Deterministic,
}

impl GeneratorChoice {
    /// Parses the request's `generator` string; `None` is `Auto`.
    pub(crate) fn parse(text: Option<&str>) -> Result<Self, Error> {
        match text.map(str::trim) {
            None | Some("" | "auto") => Ok(Self::Auto),
            Some("model") => Ok(Self::Model),
            Some("deterministic") => Ok(Self::Deterministic),
            Some(other) => Err(bad_generator(format!(
                "`generator` must be \"auto\", \"model\" or \"deterministic\", not {other:?}"
            ))),
        }
    }

    /// Whether to run the model, given whether one is configured. `Err` when
    /// the model was asked for and none is configured.
    pub(crate) fn use_model(self, configured: bool) -> Result<bool, Error> {
        match (self, configured) {
            (Self::Deterministic, _) | (Self::Auto, false) => Ok(false),
            (Self::Auto | Self::Model, true) => Ok(true),
            (Self::Model, false) => Err(bad_generator(
                "`generator: \"model\"` was asked for, but no model is configured",
            )),
        }
    }

    /// Whether model failures must surface as errors.
    pub(crate) fn is_forced(self) -> bool {
        self == Self::Model
    }
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

    #[test]
    fn nothing_configured_is_none() {
        assert_eq!(ModelConfig::from_vars(vars(&[])), Ok(None));
        assert_eq!(
            ModelConfig::from_vars(vars(&[("MODEL_PROVIDER", " ")])),
            Ok(None)
        );
    }

    #[test]
    fn reads_every_variable() {
        let config = ModelConfig::from_vars(vars(&[
            ("MODEL_PROVIDER", "Anthropic"),
            ("MODEL_NAME", "claude-x"),
            ("MODEL_BASE_URL", "http://127.0.0.1:9/"),
            ("MODEL_API_KEY", "sk-secret-123"),
            ("MODEL_TIMEOUT_MS", "2000"),
            ("MODEL_DEADLINE_MS", "5000"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(config.provider, Provider::Anthropic);
        assert_eq!(config.base_url, "http://127.0.0.1:9");
        assert_eq!(
            (config.attempt_timeout_ms, config.deadline_ms),
            (2000, 5000)
        );
        assert_eq!(
            config.cache_identity(),
            format!("anthropic/claude-x/p{}", crate::PROMPT_VERSION)
        );
        let debug = format!("{config:?}");
        assert!(
            !debug.contains("sk-secret-123") && debug.contains("[redacted]"),
            "{debug}"
        );
    }

    #[test]
    fn defaults_and_errors() {
        let openai =
            ModelConfig::from_vars(vars(&[("MODEL_PROVIDER", "openai"), ("MODEL_NAME", "m")]))
                .unwrap()
                .unwrap();
        assert_eq!(openai.base_url, "https://api.openai.com/v1");
        assert_eq!(
            (openai.attempt_timeout_ms, openai.deadline_ms),
            (15_000, 30_000)
        );
        assert!(openai.api_key.is_none());
        assert!(
            ModelConfig::from_vars(vars(&[("MODEL_PROVIDER", "openai")]))
                .unwrap_err()
                .message()
                .contains("MODEL_NAME")
        );
        assert!(
            ModelConfig::from_vars(vars(&[("MODEL_PROVIDER", "gemini"), ("MODEL_NAME", "m")]))
                .is_err()
        );
        let bad = vars(&[
            ("MODEL_PROVIDER", "openai"),
            ("MODEL_NAME", "m"),
            ("MODEL_TIMEOUT_MS", "0"),
        ]);
        let error = ModelConfig::from_vars(bad).unwrap_err();
        assert!(error.message().contains("MODEL_TIMEOUT_MS"));
        assert_eq!(error.code(), ErrorCode::Internal);
        let wai = ModelConfig::from_vars(vars(&[
            ("MODEL_PROVIDER", "workers-ai"),
            ("MODEL_NAME", "@cf/x"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(wai.base_url, "");
    }

    #[test]
    fn generator_choice() {
        assert_eq!(GeneratorChoice::parse(None), Ok(GeneratorChoice::Auto));
        assert_eq!(
            GeneratorChoice::parse(Some("model")),
            Ok(GeneratorChoice::Model)
        );
        assert_eq!(
            GeneratorChoice::parse(Some("deterministic")),
            Ok(GeneratorChoice::Deterministic)
        );
        assert!(GeneratorChoice::parse(Some("gpt")).is_err());
        assert_eq!(GeneratorChoice::Auto.use_model(false), Ok(false));
        assert_eq!(GeneratorChoice::Auto.use_model(true), Ok(true));
        assert_eq!(GeneratorChoice::Deterministic.use_model(true), Ok(false));
        let unconfigured = GeneratorChoice::Model.use_model(false).unwrap_err();
        assert_eq!(
            (unconfigured.code(), unconfigured.pointer()),
            (ErrorCode::InvalidRequest, Some("/generator"))
        );
        assert!(GeneratorChoice::Model.is_forced() && !GeneratorChoice::Auto.is_forced());
        let request = genui_core::GenerateRequest::from_value(
            serde_json::json!({"output": {}, "generator": "model"}),
        )
        .unwrap();
        assert_eq!(
            GeneratorChoice::parse(request.generator.as_deref()),
            Ok(GeneratorChoice::Model)
        );
    }
}
