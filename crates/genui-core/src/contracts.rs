//! The published contracts in `schemas/`, embedded and compiled once.
//!
//! Each validator is compiled on first use and kept for the life of the
//! process (in the worker: the isolate), never per request: compiling a
//! schema costs milliseconds in wasm, validating against it microseconds.

use serde_json::Value;
use std::sync::OnceLock;

/// A contract schema shipped in `schemas/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// `POST /v1/generate` request bodies.
    GenerateRequest,
    /// The cached spec.
    UiSpec,
    /// The plan IR.
    Plan,
    /// `POST /v1/generate` responses in the JSON Forms format.
    JsonFormsResponse,
    /// Errors.
    DguiError,
}

impl Contract {
    /// Every contract.
    pub const ALL: [Contract; 5] =
        [Self::GenerateRequest, Self::UiSpec, Self::Plan, Self::JsonFormsResponse, Self::DguiError];

    /// The file name in `schemas/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::GenerateRequest => "generate-request.schema.json",
            Self::UiSpec => "ui-spec.schema.json",
            Self::Plan => "plan.schema.json",
            Self::JsonFormsResponse => "jsonforms-response.schema.json",
            Self::DguiError => "dgui-error.schema.json",
        }
    }

    /// The schema text.
    pub fn source(self) -> &'static str {
        match self {
            Self::GenerateRequest => include_str!("../../../schemas/generate-request.schema.json"),
            Self::UiSpec => include_str!("../../../schemas/ui-spec.schema.json"),
            Self::Plan => include_str!("../../../schemas/plan.schema.json"),
            Self::JsonFormsResponse => include_str!("../../../schemas/jsonforms-response.schema.json"),
            Self::DguiError => include_str!("../../../schemas/dgui-error.schema.json"),
        }
    }

    fn cell(self) -> &'static OnceLock<jsonschema::Validator> {
        static CELLS: [OnceLock<jsonschema::Validator>; 5] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
        &CELLS[self as usize]
    }

    /// The compiled validator (compiled on first use).
    pub fn validator(self) -> &'static jsonschema::Validator {
        self.cell().get_or_init(|| {
            let schema: Value = serde_json::from_str(self.source()).unwrap_or(Value::Bool(false));
            // The contracts are ours and tested; a broken one rejects
            // everything (false schema) rather than panicking in production.
            jsonschema::validator_for(&schema)
                .unwrap_or_else(|_| jsonschema::validator_for(&Value::Bool(false)).expect("false schema compiles"))
        })
    }

    /// Validates a message; the error lists every violation with its pointer.
    pub fn check(self, message: &Value) -> Result<(), String> {
        let errors: Vec<String> = self
            .validator()
            .iter_errors(message)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!("{} violates {}: {}", "message", self.file_name(), errors.join("; ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_contract_is_a_valid_schema_and_compiles() {
        for contract in Contract::ALL {
            let schema: Value = serde_json::from_str(contract.source()).unwrap();
            jsonschema::meta::validate(&schema).unwrap_or_else(|e| panic!("{}: {e}", contract.file_name()));
            jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{}: {e}", contract.file_name()));
        }
    }

    #[test]
    fn every_error_code_is_in_the_contract() {
        for code in crate::error::ErrorCode::ALL {
            let e = crate::Error::new(code, "m").to_dgui_error();
            Contract::DguiError.check(&e).unwrap();
        }
    }
}
