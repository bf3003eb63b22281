//! Which widgets fit which field: the rule the checker enforces on any
//! plan, whoever wrote it (the deterministic generator's choice,
//! `crate::plan::generate::widgets`, is one such plan).

use crate::plan::Widget;
use crate::schema::{FieldKind, Kind, Resolved};

/// Strings that carry file content: `format: data-url`, or a declared
/// `contentEncoding`/`contentMediaType`.
pub(crate) fn is_file(view: &Resolved) -> bool {
    view.str("format") == Some("data-url") || view.get("contentEncoding").is_some() || view.get("contentMediaType").is_some()
}


/// Formats with a widget of their own (see [`string_widget`]).
fn has_widget(format: &str) -> bool {
    matches!(format, "date" | "date-time" | "time" | "email" | "idn-email" | "uri" | "url" | "iri" | "data-url")
}

/// Whether `widget` can edit a field of this kind without producing values
/// the schema rejects or hiding values it allows.
pub(crate) fn fits(widget: Widget, view: &Resolved, kind: &FieldKind, items: Option<&FieldKind>) -> bool {
    let format = kind.format.as_deref();
    match widget {
        Widget::Select | Widget::Radio => kind.choices.is_some(),
        Widget::MultiSelect => kind.kind == Kind::Array && items.is_some_and(|i| i.choices.is_some()),
        Widget::Checkbox => kind.kind == Kind::Boolean,
        Widget::Integer => kind.kind == Kind::Integer && kind.choices.is_none(),
        Widget::Number => matches!(kind.kind, Kind::Number | Kind::Integer) && kind.choices.is_none(),
        Widget::Slider => {
            matches!(kind.kind, Kind::Number | Kind::Integer)
                && view.get("minimum").is_some()
                && view.get("maximum").is_some()
        }
        Widget::Text => kind.choices.is_none() && matches!(kind.kind, Kind::String | Kind::Any | Kind::Null),
        // A format no widget serves (`content-security-policy`, `markdown`)
        // constrains nothing a validator checks: any text fits.
        Widget::Textarea => kind.kind == Kind::String && kind.choices.is_none() && !format.is_some_and(has_widget),
        Widget::Email => kind.kind == Kind::String && matches!(format, Some("email" | "idn-email")),
        Widget::Url => kind.kind == Kind::String && matches!(format, Some("uri" | "url" | "iri")),
        Widget::Date => kind.kind == Kind::String && format == Some("date"),
        Widget::DateTime => kind.kind == Kind::String && format == Some("date-time"),
        Widget::Time => kind.kind == Kind::String && format == Some("time"),
        Widget::File => kind.kind == Kind::String && is_file(view),
        Widget::Approval => {
            (kind.kind == Kind::Boolean && kind.choices.is_none()) || kind.choices.as_ref().is_some_and(|c| c.len() == 2)
        }
        Widget::Array => kind.kind == Kind::Array,
        Widget::Object => kind.kind == Kind::Object,
        Widget::Alternatives => kind.kind == Kind::Alternatives,
    }
}

impl Widget {
    /// Whether this widget fits a field (the checker's rule; [`fits`]).
    pub fn fits(self, view: &Resolved, kind: &FieldKind, items: Option<&FieldKind>) -> bool {
        fits(self, view, kind, items)
    }
}
