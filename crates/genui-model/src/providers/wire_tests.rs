//! Each provider's wire code against fixtures in its real formats
//! (`tests/fixtures/<provider>/`): request shape, success bodies, the edge
//! cases (refusal, truncation, fenced text), and error bodies with their
//! codes. The API key must never show in an error.

use crate::prompt::{self, Prompt};
use crate::providers::{self, anthropic, openai, workers_ai, Call, Mode};
use crate::{ModelConfig, Provider};
use genui_core::Limits;
use genui_core::Plan;
use genui_core::{Error, ErrorCode, ModelFailure};
use serde_json::{json, Value};
use std::path::Path;

const KEY: &str = "sk-test-very-secret-key-0001";

fn fixture(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn seed_plan() -> Value {
    serde_json::from_str(&fixture("seed-address-plan.json")).unwrap()
}

fn prompt() -> Prompt {
    let output =
        json!({"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}});
    let limits = Limits::default();
    let plan = Plan::generate(&output, "An address", false, &limits).unwrap();
    Prompt::new("An address", &prompt::fields(&plan, &output, &limits))
}

fn config(provider: Provider) -> ModelConfig {
    ModelConfig {
        api_key: Some(KEY.into()),
        ..ModelConfig::new(provider, "m-1")
    }
}

fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn assert_no_key(error: &Error) {
    for text in [
        error.to_string(),
        format!("{error:?}"),
        error.to_dgui_error().to_string(),
    ] {
        assert!(!text.contains(KEY), "{text}");
    }
}

mod openai_wire {
    use super::*;

    #[test]
    fn request_is_strict_json_schema() {
        let request = openai::build_request(&config(Provider::OpenAi), &prompt());
        assert_eq!(request.method, "POST");
        assert_eq!(request.url, "https://api.openai.com/v1/chat/completions");
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
        assert_eq!(request.header("content-type"), Some("application/json"));
        let body: Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["model"], "m-1");
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1]["role"], "user");
        assert!(body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("\"/properties/city\" string req"));
        let format = &body["response_format"];
        assert_eq!(format["type"], "json_schema");
        assert_eq!(format["json_schema"]["name"], "ui_plan");
        assert_eq!(format["json_schema"]["strict"], true);
        assert_eq!(
            format["json_schema"]["schema"]["additionalProperties"],
            false
        );
        assert!(body.get("temperature").is_none() && body.get("max_tokens").is_none());
        assert!(!format!("{request:?}").contains(KEY));
    }

    #[test]
    fn json_object_fallback_and_keyless_servers() {
        let keyless = ModelConfig {
            base_url: "http://127.0.0.1:9/v1".into(),
            ..ModelConfig::new(Provider::OpenAi, "local")
        };
        let request = openai::build_request_json_object(&keyless, &prompt());
        assert_eq!(request.url, "http://127.0.0.1:9/v1/chat/completions");
        assert!(request.header("authorization").is_none());
        let body: Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["response_format"], json!({"type": "json_object"}));
        assert!(
            body["messages"][0]["content"]
                .as_str()
                .unwrap()
                .contains("JSON"),
            "json_object mode needs the word JSON"
        );
        assert!(
            matches!(providers::build(&keyless, &prompt(), Mode::JsonObject), Call::Http(r) if r.body == request.body)
        );
    }

    #[test]
    fn parses_plans_and_usage() {
        let reply =
            openai::parse_response(200, &[], &fixture("openai/chat-completion-ok.json")).unwrap();
        assert_eq!(reply.plan_json, seed_plan());
        assert_eq!((reply.tokens_in, reply.tokens_out), (Some(412), Some(188)));
        let fenced =
            openai::parse_response(200, &[], &fixture("openai/chat-completion-fenced.json"))
                .unwrap();
        assert_eq!(fenced.plan_json, seed_plan());
        assert_eq!(fenced.tokens_out, Some(260));
    }

    #[test]
    fn refusal_and_truncation_are_invalid_output() {
        let refusal =
            openai::parse_response(200, &[], &fixture("openai/chat-completion-refusal.json"))
                .unwrap_err();
        assert_eq!(refusal.code().as_str(), "model_output_invalid");
        assert!(refusal.message().contains("refused"));
        let cut = openai::parse_response(200, &[], &fixture("openai/chat-completion-length.json"))
            .unwrap_err();
        assert_eq!(cut.code().as_str(), "model_output_invalid");
        assert!(
            cut.message().contains("cut off")
                && cut.model_output().unwrap_or("").starts_with("{\"title\"")
        );
        let garbage = openai::parse_response(200, &[], "<html>502</html>").unwrap_err();
        assert_eq!(garbage.code().as_str(), "model_unavailable");
    }

    #[test]
    fn error_bodies_map_to_codes() {
        let auth = openai::parse_response(401, &[], &fixture("openai/error-401.json")).unwrap_err();
        assert_eq!(
            (auth.code().as_str(), auth.http_status()),
            ("model_auth", 502)
        );
        assert!(
            auth.message()
                .contains("invalid_request_error: Incorrect API key provided: [redacted]"),
            "{}",
            auth.message()
        );
        assert!(!auth.message().contains("sk-proj"));
        let limited = openai::parse_response(
            429,
            &headers(&[("retry-after", "20")]),
            &fixture("openai/error-429.json"),
        )
        .unwrap_err();
        assert_eq!(
            (limited.code().as_str(), limited.retry_after_ms(0)),
            ("model_rate_limited", Some(20_000))
        );
        assert!(limited.message().contains("requests: Rate limit reached"));
        let failed =
            openai::parse_response(500, &[], &fixture("openai/error-500.json")).unwrap_err();
        assert_eq!(
            (failed.code().as_str(), failed.provider_status()),
            ("model_unavailable", Some(500))
        );
        let format =
            openai::parse_response(400, &[], &fixture("openai/error-400-json-schema.json"))
                .unwrap_err();
        assert_eq!(
            format.code(),
            ErrorCode::Model(ModelFailure::FormatUnsupported)
        );
        let context = openai::parse_response(400, &[], &fixture("openai/error-400-context.json"))
            .unwrap_err();
        assert_eq!(context.code(), ErrorCode::Model(ModelFailure::Unavailable));
        for e in [auth, limited, failed, format, context] {
            assert_no_key(&e);
        }
    }
}

mod anthropic_wire {
    use super::*;

    #[test]
    fn request_forces_the_tool() {
        let request = anthropic::build_request(&config(Provider::Anthropic), &prompt());
        assert_eq!(request.url, "https://api.anthropic.com/v1/messages");
        assert_eq!(request.header("x-api-key"), Some(KEY));
        assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
        assert_eq!(request.header("content-type"), Some("application/json"));
        assert!(request.header("authorization").is_none());
        let body: Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["tools"][0]["name"], "emit_ui_plan");
        assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
        assert_eq!(
            body["tool_choice"],
            json!({"type": "tool", "name": "emit_ui_plan"})
        );
        assert!(body["system"]
            .as_str()
            .unwrap()
            .starts_with("You lay out forms"));
        assert_eq!(body["messages"].as_array().unwrap().len(), 1);
        assert!(body["max_tokens"].as_u64().unwrap() >= 1024);
        assert!(!format!("{request:?}").contains(KEY));
    }

    #[test]
    fn retry_turns_alternate() {
        let issues = vec![genui_core::Issue {
            code: "missing_required",
            pointer: "/properties/city".into(),
            message: "m".into(),
        }];
        let retry = prompt().with_retry("{\"sections\":[]}", &issues);
        let body: Value = serde_json::from_str(
            &anthropic::build_request(&config(Provider::Anthropic), &retry).body,
        )
        .unwrap();
        let roles: Vec<&str> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["role"].as_str().unwrap())
            .collect();
        assert_eq!(roles, ["user", "assistant", "user"]);
        assert!(body["messages"][2]["content"]
            .as_str()
            .unwrap()
            .contains("missing_required \"/properties/city\""));
    }

    #[test]
    fn parses_the_tool_input() {
        let reply =
            anthropic::parse_response(200, &[], &fixture("anthropic/message-tool-use.json"))
                .unwrap();
        assert_eq!(reply.plan_json, seed_plan());
        assert_eq!((reply.tokens_in, reply.tokens_out), (Some(1021), Some(231)));
        let cut =
            anthropic::parse_response(200, &[], &fixture("anthropic/message-max-tokens.json"))
                .unwrap_err();
        assert_eq!(cut.code().as_str(), "model_output_invalid");
        assert!(cut.message().contains("max_tokens"));
        let text =
            anthropic::parse_response(200, &[], &fixture("anthropic/message-text-only.json"))
                .unwrap_err();
        assert!(
            text.message().contains("no emit_ui_plan tool call"),
            "{}",
            text.message()
        );
    }

    #[test]
    fn error_bodies_map_to_codes() {
        let cases = [
            (
                401,
                "anthropic/error-401.json",
                "model_auth",
                "authentication_error: invalid x-api-key",
            ),
            (
                429,
                "anthropic/error-429.json",
                "model_rate_limited",
                "rate_limit_error: This request",
            ),
            (
                529,
                "anthropic/error-529.json",
                "model_unavailable",
                "overloaded_error: Overloaded",
            ),
            (
                500,
                "anthropic/error-500.json",
                "model_unavailable",
                "api_error: Internal server error",
            ),
        ];
        for (status, file, code, message) in cases {
            let error = anthropic::parse_response(
                status,
                &headers(&[("retry-after", "7")]),
                &fixture(file),
            )
            .unwrap_err();
            assert_eq!(error.code().as_str(), code, "{file}");
            assert!(error.message().contains(message), "{}", error.message());
            assert_no_key(&error);
        }
        let limited = anthropic::parse_response(
            429,
            &headers(&[("Retry-After", "7")]),
            &fixture("anthropic/error-429.json"),
        )
        .unwrap_err();
        assert_eq!(limited.retry_after_ms(0), Some(7000));
    }
}

mod workers_ai_wire {
    use super::*;

    #[test]
    fn binding_call_inputs_are_plain_json() {
        let config = ModelConfig::new(
            Provider::WorkersAi,
            "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
        );
        let Call::Ai(call) = providers::build(&config, &prompt(), Mode::JsonSchema) else {
            panic!("expected a binding call")
        };
        assert_eq!(call.model, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
        let inputs: Value = serde_json::from_str(&call.inputs_as_json_string()).unwrap();
        assert_eq!(inputs["response_format"]["type"], "json_schema");
        assert_eq!(
            inputs["response_format"]["json_schema"]["type"], "object",
            "the schema itself, no name/strict wrapper"
        );
        assert_eq!(inputs["messages"][0]["role"], "system");
        assert!(inputs["max_tokens"].as_u64().unwrap() >= 1024);
        assert_eq!(inputs, workers_ai::inputs(&prompt()));
    }

    #[test]
    fn rest_api_when_a_base_url_is_set() {
        let config = ModelConfig {
            base_url: "https://api.cloudflare.com/client/v4/accounts/abc/ai/run".into(),
            api_key: Some(KEY.into()),
            ..ModelConfig::new(Provider::WorkersAi, "@cf/meta/llama-3.1-8b-instruct")
        };
        let Call::Http(request) = providers::build(&config, &prompt(), Mode::JsonSchema) else {
            panic!("expected HTTP")
        };
        assert_eq!(request.url, "https://api.cloudflare.com/client/v4/accounts/abc/ai/run/@cf/meta/llama-3.1-8b-instruct");
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
    }

    #[test]
    fn parses_object_string_and_rest_replies() {
        for file in [
            "workers-ai/run-object.json",
            "workers-ai/run-string.json",
            "workers-ai/rest-ok.json",
        ] {
            let reply = workers_ai::parse_response(200, &[], &fixture(file)).unwrap();
            assert_eq!(reply.plan_json, seed_plan(), "{file}");
            assert_eq!(reply.tokens_in, Some(590), "{file}");
        }
        let auth =
            workers_ai::parse_response(401, &[], &fixture("workers-ai/rest-error-auth.json"))
                .unwrap_err();
        assert_eq!(auth.code().as_str(), "model_auth");
        assert!(auth.message().contains("10000: Authentication error"));
        let capacity =
            workers_ai::parse_response(200, &[], &fixture("workers-ai/rest-error-capacity.json"))
                .unwrap_err();
        assert!(capacity.message().contains("3040"));
        assert_eq!(capacity.code().as_str(), "model_rate_limited");
        assert_eq!(
            workers_ai::parse_response(200, &[], "{\"usage\": {}}")
                .unwrap_err()
                .code()
                .as_str(),
            "model_output_invalid"
        );
    }

    #[test]
    fn thrown_binding_errors() {
        let cases = [
            (
                "AiError: 3040: Capacity temporarily exceeded, please try again.",
                "model_rate_limited",
            ),
            ("AiError: 3007: Request timeout", "model_timeout"),
            ("AiError: JSON Mode couldn't be met", "model_output_invalid"),
            ("AiError: 5007: No such model", "model_unavailable"),
        ];
        for (message, code) in cases {
            assert_eq!(
                providers::network_error(Provider::WorkersAi, message)
                    .code()
                    .as_str(),
                code,
                "{message}"
            );
        }
        assert_eq!(
            providers::network_error(Provider::OpenAi, "connection refused")
                .code()
                .as_str(),
            "model_unavailable"
        );
    }
}
