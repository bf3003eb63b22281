//! The output formats a client can ask for: their wire names and the
//! contract each answer meets. The compilers that produce them live in
//! `crate::render`, one module per format.

use crate::error::{Detail, Error, ErrorCode, Result};
use crate::terms::contracts::Contract;

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// JSON Forms (the default).
    #[default]
    JsonForms,
    /// react-jsonschema-form as a DGUI `dgui_form`.
    Rjsf,
    /// LMUI `ui_components`.
    Lmui,
    /// A2UI v0.9 messages for the basic catalog.
    A2ui,
    /// A TSX module (react-hook-form + zod), seed 000's `ReactFormHookGenerator`.
    React,
    /// A server-rendered HTML page with a native form ([`crate::render::html`]).
    Html,
}

impl Format {
    /// Every format, by wire name.
    pub const NAMES: [&'static str; 6] = ["jsonforms", "rjsf", "lmui", "a2ui", "react", "html"];

    /// Parses a wire name (`jsonforms`, `rjsf`/`dgui`, `lmui`, `a2ui`).
    pub fn parse(name: &str, pointer: &str) -> Result<Self> {
        match name {
            "jsonforms" => Ok(Self::JsonForms),
            "rjsf" | "dgui" => Ok(Self::Rjsf),
            "lmui" => Ok(Self::Lmui),
            "a2ui" => Ok(Self::A2ui),
            "react" => Ok(Self::React),
            "html" => Ok(Self::Html),
            other => Err(Error::new(
                ErrorCode::UnsupportedFormat,
                format!(
                    "format `{other}` is not one of {} (at {pointer})",
                    Self::NAMES.join(", ")
                ),
            )
            .at(pointer)
            .with(Detail::Format(other.to_owned()))),
        }
    }

    /// The contract the rendered message must meet.
    pub fn contract(self) -> Contract {
        match self {
            Self::JsonForms => Contract::JsonFormsResponse,
            Self::Rjsf => Contract::DguiForm,
            Self::Lmui => Contract::LmuiMessage,
            Self::A2ui => Contract::A2uiMessages,
            Self::React => Contract::ReactModule,
            Self::Html => Contract::HtmlPage,
        }
    }
}
