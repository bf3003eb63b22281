//! The published contracts in `schemas/`, embedded and compiled once.
//!
//! Each validator is compiled on first use and kept for the life of the
//! process (in the worker: the isolate), never per request: compiling a
//! schema costs milliseconds in wasm, validating against it microseconds.
//!
//! Checking every answer against its contract ([`crate::Limits::check_contracts`], which
//! each job carries) is a test-time proof, not a production step: it is on in debug builds (every native
//! test) and in a worker started with the var `CHECK_CONTRACTS=true` (the
//! e2e harness and the browser tests start it so), off in the shipped
//! worker, where it cost a validation pass over every answer and the
//! contract validators' compilation and memory per isolate.

use crate::error::{Error, ErrorCode};
use serde_json::Value;
use std::sync::OnceLock;

/// Declares the contracts: variant, file in `schemas/`, and a doc line.
macro_rules! contracts {
    ($($(#[doc = $doc:literal])* $variant:ident => $file:literal,)*) => {
        /// A contract schema shipped in `schemas/`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Contract {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Contract {
            /// Every contract.
            pub const ALL: &'static [Contract] = &[$(Self::$variant,)*];

            /// The file name in `schemas/`.
            pub fn file_name(self) -> &'static str {
                match self { $(Self::$variant => $file,)* }
            }

            /// The schema text.
            pub fn source(self) -> &'static str {
                match self { $(Self::$variant => include_str!(concat!("../../../../schemas/", $file)),)* }
            }
        }
    };
}

contracts! {
    /// `POST /v1/generate` request bodies.
    GenerateRequest => "generate-request.schema.json",
    /// The cached spec.
    UiSpec => "ui-spec.schema.json",
    /// The plan IR.
    Plan => "plan.schema.json",
    /// `POST /v1/generate` responses in the JSON Forms format.
    JsonFormsResponse => "jsonforms-response.schema.json",
    /// `POST /v1/generate` responses in the RJSF format (DGUI `dgui_form`).
    DguiForm => "dgui-form.schema.json",
    /// `POST /v1/generate` responses in the LMUI format.
    LmuiMessage => "lmui-message.schema.json",
    /// `POST /v1/generate` responses in the A2UI format (v0.9 list wrapper).
    A2uiMessages => "a2ui-messages.schema.json",
    /// `POST /v1/generate` responses in the React format (a TSX module).
    ReactModule => "react-module.schema.json",
    /// `POST /v1/generate` responses in the HTML format, as JSON (served as `text/html`).
    HtmlPage => "html-page.schema.json",
    /// LMUI interactions accepted by `POST /v1/submit`.
    LmuiInteraction => "lmui-interaction.schema.json",
    /// DGUI responses accepted by `POST /v1/submit`, and its answer to a
    /// submission that names no `toolCallId`.
    DguiResponse => "dgui-response.schema.json",
    /// `POST /v1/submit` request bodies.
    SubmitRequest => "submit-request.schema.json",
    /// `POST /v1/submit` answers to a submission that names its
    /// `toolCallId`: the AG-UI tool message.
    ToolMessage => "tool-message.schema.json",
    /// Errors.
    DguiError => "dgui-error.schema.json",
    /// An operator's component catalog (`catalogs/`).
    Catalog => "catalog.schema.json",
}

impl Contract {
    /// The contract published under a file name.
    pub fn by_file_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.file_name() == name)
    }

    /// The compiled validator (compiled on first use, kept for the isolate).
    pub fn validator(self) -> &'static jsonschema::Validator {
        // One cell per contract, sized by the table, so a new row never indexes past it.
        static CELLS: [OnceLock<jsonschema::Validator>; Contract::ALL.len()] =
            [const { OnceLock::new() }; Contract::ALL.len()];
        CELLS[self as usize].get_or_init(|| {
            let schema: Value = serde_json::from_str(self.source()).unwrap_or(Value::Bool(false));
            // The contracts are ours and tested; a broken one rejects
            // everything (false schema) rather than panicking in production.
            jsonschema::validator_for(&schema).unwrap_or_else(|_| {
                jsonschema::validator_for(&Value::Bool(false)).expect("false schema compiles")
            })
        })
    }

    /// Validates a message; the error (`internal_error`: the worker's own
    /// output breaking its contract is a bug) lists every violation with its
    /// pointer, and points at the first.
    pub fn check(self, message: &Value) -> Result<(), Error> {
        // The fast boolean pass first: listing errors costs more, and a
        // valid message is the rule.
        if self.validator().is_valid(message) {
            return Ok(());
        }
        let mut first = None;
        let errors: Vec<String> = self
            .validator()
            .iter_errors(message)
            .map(|e| {
                first.get_or_insert_with(|| e.instance_path().to_string());
                format!("{} at {}", e, e.instance_path())
            })
            .collect();
        match first {
            None => Ok(()),
            Some(pointer) => Err(Error::new(
                ErrorCode::Internal,
                format!(
                    "message violates {}: {}",
                    self.file_name(),
                    errors.join("; ")
                ),
            )
            .at(pointer)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_contract_is_a_valid_schema_and_compiles() {
        assert!(Contract::ALL.len() <= 16);
        for &contract in Contract::ALL {
            let schema: Value = serde_json::from_str(contract.source()).unwrap();
            jsonschema::meta::validate(&schema)
                .unwrap_or_else(|e| panic!("{}: {e}", contract.file_name()));
            jsonschema::validator_for(&schema)
                .unwrap_or_else(|e| panic!("{}: {e}", contract.file_name()));
        }
    }

    #[test]
    fn every_error_code_is_in_the_contract() {
        for code in crate::error::ErrorCode::all() {
            let e = crate::Error::new(code, "m").to_dgui_error();
            Contract::DguiError.check(&e).unwrap();
        }
    }

    #[test]
    fn a_violation_is_an_internal_error_at_its_pointer() {
        let mut e = crate::Error::new(ErrorCode::NotFound, "m").to_dgui_error();
        e["code"] = serde_json::json!(7);
        let error = Contract::DguiError.check(&e).unwrap_err();
        assert_eq!(error.code(), ErrorCode::Internal);
        assert_eq!(error.pointer(), Some("/code"));
        assert!(error.message().starts_with("message violates "), "{error}");
    }
}
