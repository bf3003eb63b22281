//! The one table of output formats: [`FORMATS`], the format modules, each
//! implementing [`FormatCompiler`] (its wire names, the contract its
//! answers meet, its two projections).
//! [`Format`]'s names, parsing, contract and dispatch are all read from
//! [`FORMATS`], so adding a format is one module and one row here.

use super::FormatCompiler;
use crate::error::{Detail, Error, ErrorCode, Result};
use crate::terms::contracts::Contract;
use crate::terms::format::Format;

/// Every format, in the order documents list them (the default first).
pub(crate) const FORMATS: [&dyn FormatCompiler; 6] = [
    &super::jsonforms::JsonForms,
    &super::rjsf::Rjsf,
    &super::lmui::Lmui,
    &super::a2ui::A2ui,
    &super::react::React,
    &super::html::Html,
];

/// The module that compiles `format` (matched by variant, so every A2UI
/// revision is the A2UI module's).
pub(crate) fn compiler(format: Format) -> &'static dyn FormatCompiler {
    let variant = std::mem::discriminant(&format);
    let found = FORMATS
        .iter()
        .find(|c| std::mem::discriminant(&c.format()) == variant);
    // Every variant has its row (a test below holds the table to the enum).
    *found.unwrap_or(&FORMATS[0])
}

impl Format {
    /// Every format's wire name, in [`FORMATS`] order (aliases left out).
    pub fn names() -> Vec<&'static str> {
        FORMATS.iter().map(|c| c.names()[0]).collect()
    }

    /// Reads a wire name (any of a format's names, `dgui` for RJSF
    /// included); anything else is a 400 `unsupported_format` at `pointer`.
    pub fn parse(name: &str, pointer: &str) -> Result<Self> {
        let found = FORMATS.iter().find(|c| c.names().contains(&name));
        found.map(|c| c.format()).ok_or_else(|| {
            Error::new(
                ErrorCode::UnsupportedFormat,
                format!(
                    "format `{name}` is not one of {} (at {pointer})",
                    Self::names().join(", ")
                ),
            )
            .at(pointer)
            .with(Detail::Format(name.to_owned()))
        })
    }

    /// The wire name (`rjsf` for RJSF; `a2ui` for every A2UI revision).
    pub fn name(self) -> &'static str {
        compiler(self).names()[0]
    }

    /// The contract the rendered message must meet.
    pub fn contract(self) -> Contract {
        compiler(self).contract()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::format::A2uiVersion;
    use serde_json::Value;

    fn repo_file(path: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The backticked words after the first `marker` in `text`, up to the
    /// end of its paragraph or table cell; `marker` may end inside a
    /// backtick pair (`` Add `?format= ``).
    fn ticked_after(text: &str, marker: &str) -> Vec<String> {
        let rest = text.split_once(marker).map(|(_, rest)| rest).unwrap_or("");
        let end = ["\n\n", "|"]
            .iter()
            .filter_map(|stop| rest.find(stop))
            .min()
            .unwrap_or(rest.len());
        let opened = marker.matches('`').count() % 2 == 1;
        let rest = match opened {
            true => format!("`{}", &rest[..end]),
            false => rest[..end].to_owned(),
        };
        rest.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    }

    fn names() -> Vec<String> {
        Format::names().into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn every_format_is_its_own_row_and_reads_back_by_each_of_its_names() {
        let every = [
            Format::JsonForms,
            Format::Rjsf,
            Format::Lmui,
            Format::A2ui(A2uiVersion::V0_9),
            Format::A2ui(A2uiVersion::V1_0),
            Format::React,
            Format::Html,
        ];
        for format in every {
            let module = compiler(format);
            assert_eq!(
                std::mem::discriminant(&module.format()),
                std::mem::discriminant(&format),
                "{}",
                format.name()
            );
            for name in module.names() {
                assert_eq!(Format::parse(name, "/format").unwrap(), module.format());
            }
        }
        assert_eq!(Format::parse("dgui", "/format").unwrap(), Format::Rjsf);
        assert_eq!(Format::default().name(), FORMATS[0].names()[0]);
    }

    #[test]
    fn an_unknown_format_is_refused_where_it_stands_naming_every_format() {
        let error = Format::parse("vue", "/format").unwrap_err();
        assert_eq!(error.code(), ErrorCode::UnsupportedFormat);
        assert_eq!(error.pointer(), Some("/format"));
        assert!(error.to_string().contains(&Format::names().join(", ")));
    }

    #[test]
    fn the_answer_contracts_in_schemas_are_the_tables() {
        // terms/contracts.rs declares each contract under its doc line;
        // a generate answer's says "`POST /v1/generate` responses".
        let declared = include_str!("../terms/contracts.rs");
        let lines: Vec<&str> = (declared.lines())
            .skip_while(|l| !l.starts_with("contracts! {"))
            .collect();
        let mut answers: Vec<&str> = (lines.windows(2))
            .filter(|w| w[0].contains("`POST /v1/generate` responses"))
            .filter_map(|w| w[1].split('"').nth(1))
            .collect();
        answers.sort_unstable();
        let mut ours: Vec<&str> = FORMATS.iter().map(|c| c.contract().file_name()).collect();
        ours.sort_unstable();
        assert_eq!(ours, answers, "one answer contract per format");
        for module in FORMATS {
            let schema: Value = serde_json::from_str(module.contract().source()).unwrap();
            assert!(schema.is_object(), "{}", module.names()[0]);
        }
    }

    #[test]
    fn the_docs_list_every_format_in_the_tables_order() {
        let formats = repo_file("docs/formats.md");
        let table: Vec<String> = (formats.lines())
            .skip_while(|l| !l.starts_with("| `format` |"))
            .skip(2)
            .take_while(|l| l.starts_with("| `"))
            .filter_map(|l| l.split('`').nth(1).map(str::to_owned))
            .collect();
        assert_eq!(table, names(), "docs/formats.md's table");

        let api = repo_file("docs/api.md");
        assert_eq!(
            ticked_after(&api, "| `format` |"),
            names(),
            "docs/api.md's body field"
        );
        assert_eq!(
            ticked_after(&api, "`format` is not one of"),
            names(),
            "docs/api.md's unsupported_format row"
        );

        let readme = repo_file("README.md");
        let mut listed = vec![FORMATS[0].names()[0].to_owned()];
        listed.extend(ticked_after(&readme, "Add `?format="));
        assert_eq!(listed, names(), "README.md's list of the other formats");
    }

    #[test]
    fn the_openapi_document_takes_every_name_of_every_format() {
        let every: Vec<Value> = (FORMATS.iter().flat_map(|c| c.names()))
            .map(|name| Value::from(*name))
            .collect();
        let document: Value = serde_json::from_str(crate::edge::tool::openapi_json()).unwrap();
        let mut seen = 0;
        for operation in document["paths"].as_object().unwrap().values() {
            let parameters = operation.as_object().unwrap().values();
            for parameter in parameters
                .filter_map(|o| o["parameters"].as_array())
                .flatten()
            {
                if parameter["name"] == "format" {
                    assert_eq!(parameter["schema"]["enum"].as_array().unwrap(), &every);
                    seen += 1;
                }
            }
        }
        assert!(seen > 0, "no `format` parameter in /openapi.json");
    }
}
