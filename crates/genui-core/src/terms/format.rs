//! The output formats a client can ask for ([`Format`], the value a request
//! picks), and the A2UI revisions ([`A2uiVersion`], one table:
//! [`A2UI_VERSIONS`]) with how a request picks one. Each format's facts
//! (wire names, contract) and compiler live in its module under
//! `crate::render`, listed in one table (`render/compiler.rs`) from which
//! [`Format::parse`], [`Format::name`] and [`Format::contract`] read.

use crate::error::{Error, ErrorCode, Result};

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
    /// A2UI messages for the basic catalog, in the revision asked for.
    A2ui(A2uiVersion),
    /// A TSX module (react-hook-form + zod), seed 000's `ReactFormHookGenerator`.
    React,
    /// A server-rendered HTML page with a native form ([`crate::render::html`]).
    Html,
}

impl Format {
    /// The same format; an A2UI one answers in `version` instead.
    pub fn with_a2ui_version(self, version: A2uiVersion) -> Self {
        match self {
            Self::A2ui(_) => Self::A2ui(version),
            other => other,
        }
    }
}

/// An A2UI revision this worker answers in. The default is the one every
/// A2UI renderer on npm reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum A2uiVersion {
    /// A2UI v0.9.1, the production release: the messages still say
    /// `"version": "v0.9"`, which v0.9.1's schemas accept and v0.9's
    /// renderers require.
    #[default]
    V0_9,
    /// The A2UI v1.0 candidate: one `createSurface` with the components and
    /// the data model inline.
    V1_0,
}

/// One A2UI revision: how a request names it, what its messages say, its
/// basic catalog, and the keys its capability objects are read under.
#[derive(Debug)]
pub(crate) struct A2uiRevision {
    /// The revision.
    pub version: A2uiVersion,
    /// The names `a2uiVersion` (body, query, `Accept` parameter) takes.
    pub names: &'static [&'static str],
    /// The messages' `version`.
    pub wire: &'static str,
    /// The `version`s read in a renderer's messages (its actions and data model).
    pub reads: &'static [&'static str],
    /// The basic catalog's `catalogId`.
    pub basic_catalog: &'static str,
    /// The keys under which A2UI's client (v1.0: renderer) capabilities
    /// declare the revision: v0.9.1 renamed v0.9's key, and a client may
    /// send both side by side.
    pub capability_keys: &'static [&'static str],
}

/// Every A2UI revision, by [`A2uiVersion`]: the one table of these facts.
pub(crate) const A2UI_VERSIONS: [A2uiRevision; 2] = [
    A2uiRevision {
        version: A2uiVersion::V0_9,
        names: &["0.9", "0.9.1"],
        wire: "v0.9",
        reads: &["v0.9", "v0.9.1"],
        // v0.9.1's basic catalog still declares v0_9's id.
        basic_catalog: "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
        capability_keys: &["v0.9.1", "v0.9"],
    },
    A2uiRevision {
        version: A2uiVersion::V1_0,
        names: &["1.0"],
        wire: "v1.0",
        reads: &["v1.0"],
        basic_catalog: "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json",
        capability_keys: &["v1.0"],
    },
];

/// A2UI's media type (v0.9.1 and v1.0): the messages as one JSON array.
pub(crate) const A2UI_MEDIA_TYPE: &str = "application/a2ui+json";

impl A2uiVersion {
    /// This revision's row of [`A2UI_VERSIONS`].
    pub(crate) fn revision(self) -> &'static A2uiRevision {
        let index = match self {
            Self::V0_9 => 0,
            Self::V1_0 => 1,
        };
        &A2UI_VERSIONS[index]
    }

    /// The revision a renderer's message names in its `version`.
    pub(crate) fn of_message(version: &str) -> Option<Self> {
        A2UI_VERSIONS
            .iter()
            .find(|row| row.reads.contains(&version))
            .map(|row| row.version)
    }

    /// Every `version` a renderer's message may name, quoted, for errors.
    pub(crate) fn message_versions() -> String {
        let quoted: Vec<String> = A2UI_VERSIONS
            .iter()
            .flat_map(|row| row.reads)
            .map(|v| format!("\"{v}\""))
            .collect();
        quoted.join(", ")
    }

    /// The revisions an A2UI client's (renderer's) capabilities declare, in
    /// [`A2UI_VERSIONS`] order: A2UI's `client_capabilities.json` (v1.0:
    /// `renderer_capabilities.json`) is one object per revision key,
    /// `{"v0.9.1": {"supportedCatalogIds": [...]}, "v1.0": {...}}`; a key
    /// whose value is no object declares nothing.
    pub fn declared_in(capabilities: &serde_json::Value) -> Vec<Self> {
        A2UI_VERSIONS
            .iter()
            .filter(|row| {
                (row.capability_keys.iter())
                    .any(|key| capabilities.get(key).is_some_and(|v| v.is_object()))
            })
            .map(|row| row.version)
            .collect()
    }

    /// Reads an `a2uiVersion` (`0.9`, `0.9.1`, `1.0`; a leading `v` is
    /// allowed); anything else is a 400 at `pointer`.
    pub fn parse(name: &str, pointer: &str) -> Result<Self> {
        let bare = name.strip_prefix('v').unwrap_or(name);
        A2UI_VERSIONS
            .iter()
            .find(|row| row.names.contains(&bare))
            .map(|row| row.version)
            .ok_or_else(|| {
                let known: Vec<&str> = A2UI_VERSIONS
                    .iter()
                    .flat_map(|r| r.names)
                    .copied()
                    .collect();
                Error::new(
                    ErrorCode::InvalidRequest,
                    format!(
                        "`a2uiVersion` must be one of {}, not `{name}` (at {pointer})",
                        known.join(", ")
                    ),
                )
                .at(pointer)
            })
    }
}

/// What an `Accept` header asks of an A2UI answer.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct A2uiAccept<'a> {
    /// `application/a2ui+json` is listed: the messages as a bare array.
    pub media_type: bool,
    /// Its `version` parameter, when given (`application/a2ui+json; version=1.0`).
    pub version: Option<&'a str>,
}

impl<'a> A2uiAccept<'a> {
    /// Reads an `Accept` header's `application/a2ui+json` entry.
    pub(crate) fn of(accept: Option<&'a str>) -> Self {
        let entry = accept.into_iter().flat_map(|a| a.split(',')).find(|entry| {
            let media = entry.split(';').next().unwrap_or_default().trim();
            media.eq_ignore_ascii_case(A2UI_MEDIA_TYPE)
        });
        let Some(entry) = entry else {
            return Self::default();
        };
        let version = entry.split(';').skip(1).find_map(|parameter| {
            let (key, value) = parameter.split_once('=')?;
            key.trim()
                .eq_ignore_ascii_case("version")
                .then(|| value.trim().trim_matches('"'))
        });
        Self {
            media_type: true,
            version,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_revision_is_its_own_row() {
        for version in [A2uiVersion::V0_9, A2uiVersion::V1_0] {
            assert_eq!(version.revision().version, version);
        }
    }

    #[test]
    fn a2ui_versions_are_read_by_name_and_unknown_ones_refused_where_they_stand() {
        assert_eq!(
            A2uiVersion::parse("1.0", "/a2uiVersion").unwrap(),
            A2uiVersion::V1_0
        );
        assert_eq!(
            A2uiVersion::parse("v0.9.1", "/a2uiVersion").unwrap(),
            A2uiVersion::V0_9
        );
        let error = A2uiVersion::parse("2.0", "/arguments/a2uiVersion").unwrap_err();
        assert_eq!(error.code(), ErrorCode::InvalidRequest);
        assert_eq!(error.pointer(), Some("/arguments/a2uiVersion"));
    }

    #[test]
    fn capabilities_declare_v091_under_either_key_and_v1_under_its_own() {
        use serde_json::json;
        let declared = |caps| A2uiVersion::declared_in(&caps);
        let ids = json!({"supportedCatalogIds": [A2uiVersion::V0_9.revision().basic_catalog]});
        assert_eq!(declared(json!({"v0.9.1": ids})), [A2uiVersion::V0_9]);
        assert_eq!(declared(json!({"v0.9": ids})), [A2uiVersion::V0_9]);
        assert_eq!(
            declared(json!({"v0.9": ids, "v0.9.1": ids, "v1.0": {}})),
            [A2uiVersion::V0_9, A2uiVersion::V1_0]
        );
        assert!(declared(json!({"v0.8": ids, "v1.0": true})).is_empty());
        assert!(declared(json!("garbage")).is_empty());
    }

    #[test]
    fn the_accept_header_names_the_media_type_and_its_version() {
        let asked = A2uiAccept::of(Some(
            "text/html, application/a2ui+json; q=0.9; version=\"1.0\"",
        ));
        assert_eq!(
            asked,
            A2uiAccept {
                media_type: true,
                version: Some("1.0")
            }
        );
        assert_eq!(
            A2uiAccept::of(Some("application/a2ui+json")),
            A2uiAccept {
                media_type: true,
                version: None
            }
        );
        assert_eq!(
            A2uiAccept::of(Some("application/jsonl")),
            A2uiAccept::default()
        );
        assert_eq!(A2uiAccept::of(None), A2uiAccept::default());
    }
}
