//! The design measure: how far an answer's form is from a case's reference
//! design, in five figures.
//!
//! - **Sections:** pairwise "same section" F1 over the reference's fields.
//!   A field's section in the plan is its innermost group or wizard step;
//!   fields under neither share the form's one unnamed section (so a flat
//!   form of a one-section reference scores 1).
//! - **Rows:** of the reference's side-by-side pairs, how many the plan puts
//!   in one horizontal row (and, apart, how many pairs the plan puts in a
//!   row that the reference does not).
//! - **Raw option labels:** options whose visible label is a code
//!   ([`rules::is_raw_label`]).
//! - **Echoes:** whether the title, and the lead text, echo the request
//!   ([`rules::echoes`]); and apart, whether the form has no title of its
//!   own (none, or the renderers' stand-in "Form").
//! - **Order:** reading order judged by two kinds of pair, pooled: each
//!   field next to one of its reference section (a section of n fields
//!   read in one run gives n - 1 adjacent pairs), and each required field
//!   read before an optional one that the reference lists after it in the
//!   same section.
//!
//! A field the plan shows through an ancestor's control (an object given as
//! one input) takes that control's place; a field with no control at all
//! is counted as missing and pairs with nothing.

use super::case::Case;
use super::rules;
use super::seen::Seen;
use genui_core::{Node, Plan};
use serde_json::Value;

/// One case's figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scores {
    pub section_f1: f64,
    pub row_pairs_kept: usize,
    pub row_pairs: usize,
    pub extra_row_pairs: usize,
    pub raw_labels: usize,
    pub options: usize,
    pub title_echoes: bool,
    pub title_missing: bool,
    pub lead_echoes: bool,
    pub order_kept: usize,
    pub order_pairs: usize,
    pub missing_fields: usize,
}

impl Scores {
    /// Share of order pairs kept (1 when there are none).
    pub fn order(&self) -> f64 {
        ratio(self.order_kept, self.order_pairs)
    }
}

/// `kept / total`, 1 when there is nothing to keep.
pub fn ratio(kept: usize, total: usize) -> f64 {
    if total == 0 {
        1.0
    } else {
        kept as f64 / total as f64
    }
}

/// The title the renderers show for a plan without one.
const UNTITLED: &str = "Form";

/// Where a control sits: its place in reading order, its section, its row.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Place {
    position: usize,
    section: usize,
    row: Option<usize>,
}

/// Scores what a person sees against the case's reference.
pub fn score(case: &Case, seen: &Seen) -> Scores {
    let reference = &case.reference;
    let placed = places(&seen.plan);
    let fields = reference.fields();
    let place: Vec<Option<Place>> = fields.iter().map(|f| place_of(&placed, f)).collect();
    let at = |field: &str| {
        fields
            .iter()
            .position(|f| *f == field)
            .and_then(|i| place[i])
    };
    let (row_pairs_kept, row_pairs, extra_row_pairs) = rows(case, &fields, &place);
    let (adjacent_kept, adjacent_pairs) = adjacency(case, &fields, &place);
    let (required_kept, required_pairs) = required_first(case, &at);
    let echoes = |text: &Option<String>| {
        text.as_deref()
            .is_some_and(|t| rules::echoes(t, case.description()))
    };
    Scores {
        section_f1: section_f1(case, &fields, &place),
        row_pairs_kept,
        row_pairs,
        extra_row_pairs,
        raw_labels: seen
            .options
            .iter()
            .filter(|o| {
                rules::is_raw_label(&o.value, &o.label, reference.label(&o.pointer, &o.value))
            })
            .count(),
        options: seen.options.len(),
        title_echoes: echoes(&seen.title),
        title_missing: seen
            .title
            .as_deref()
            .is_none_or(|t| t.trim().is_empty() || t.trim() == UNTITLED),
        lead_echoes: echoes(&seen.lead),
        order_kept: adjacent_kept + required_kept,
        order_pairs: adjacent_pairs + required_pairs,
        missing_fields: place.iter().filter(|p| p.is_none()).count(),
    }
}

/// The reference's side-by-side pairs the plan keeps in one row, their
/// number, and the pairs the plan puts in a row that the reference does not.
fn rows(case: &Case, fields: &[&str], place: &[Option<Place>]) -> (usize, usize, usize) {
    let same_row = |a: Option<Place>, b: Option<Place>| matches!((a, b), (Some(a), Some(b)) if a.row.is_some() && a.row == b.row);
    let at = |field: &str| {
        fields
            .iter()
            .position(|f| *f == field)
            .and_then(|i| place[i])
    };
    let pairs = case.reference.row_pairs();
    let kept = pairs.iter().filter(|(a, b)| same_row(at(a), at(b))).count();
    let mut extra = 0;
    for (i, a) in fields.iter().enumerate() {
        for (j, b) in fields.iter().enumerate().skip(i + 1) {
            let listed = pairs
                .iter()
                .any(|(x, y)| (x == a && y == b) || (x == b && y == a));
            extra += usize::from(same_row(place[i], place[j]) && !listed);
        }
    }
    (kept, pairs.len(), extra)
}

/// Pairwise "same section" F1 over the reference's fields.
fn section_f1(case: &Case, fields: &[&str], place: &[Option<Place>]) -> f64 {
    let (mut both, mut in_reference, mut in_plan) = (0usize, 0usize, 0usize);
    for i in 0..fields.len() {
        for j in i + 1..fields.len() {
            let reference =
                case.reference.section_of(fields[i]) == case.reference.section_of(fields[j]);
            let plan = matches!((place[i], place[j]), (Some(a), Some(b)) if a.section == b.section);
            in_reference += usize::from(reference);
            in_plan += usize::from(plan);
            both += usize::from(reference && plan);
        }
    }
    if in_reference == 0 && in_plan == 0 {
        return 1.0;
    }
    if both == 0 {
        return 0.0;
    }
    let (precision, recall) = (ratio(both, in_plan), ratio(both, in_reference));
    2.0 * precision * recall / (precision + recall)
}

/// Consecutive fields in the plan's reading order that share a reference
/// section, against the most there can be.
fn adjacency(case: &Case, fields: &[&str], place: &[Option<Place>]) -> (usize, usize) {
    let mut read: Vec<(usize, Option<usize>)> = fields
        .iter()
        .zip(place)
        .filter_map(|(f, p)| p.map(|p| (p.position, case.reference.section_of(f))))
        .collect();
    read.sort_by_key(|(position, _)| *position);
    let kept = read.windows(2).filter(|w| w[0].1 == w[1].1).count();
    let mut sections: Vec<Option<usize>> = read.iter().map(|(_, s)| *s).collect();
    sections.sort();
    sections.dedup();
    (kept, read.len().saturating_sub(sections.len()))
}

/// Required fields read before the optional ones the reference lists after
/// them in the same section.
fn required_first(case: &Case, at: &dyn Fn(&str) -> Option<Place>) -> (usize, usize) {
    let (mut kept, mut pairs) = (0, 0);
    for section in &case.reference.sections {
        for (i, first) in section.fields.iter().enumerate() {
            if !is_required(case.output(), first) {
                continue;
            }
            for later in section.fields[i + 1..]
                .iter()
                .filter(|f| !is_required(case.output(), f))
            {
                pairs += 1;
                if let (Some(a), Some(b)) = (at(first), at(later)) {
                    kept += usize::from(a.position <= b.position);
                }
            }
        }
    }
    (kept, pairs)
}

/// Whether the field at a schema pointer `.../properties/<name>` is in its
/// parent's `required`.
pub fn is_required(output: &Value, pointer: &str) -> bool {
    let Some((parent, name)) = pointer.rsplit_once("/properties/") else {
        return false;
    };
    let name = name.replace("~1", "/").replace("~0", "~");
    let parent = if parent.is_empty() {
        Some(output)
    } else {
        output.pointer(parent)
    };
    parent
        .and_then(|p| p["required"].as_array())
        .is_some_and(|r| r.iter().any(|n| n == name.as_str()))
}

/// The place of a reference field: its own control's, else the nearest
/// ancestor's.
fn place_of(placed: &[(String, Place)], field: &str) -> Option<Place> {
    placed
        .iter()
        .filter(|(pointer, _)| pointer == field || field.starts_with(&format!("{pointer}/")))
        .max_by_key(|(pointer, _)| pointer.len())
        .map(|(_, place)| *place)
}

/// Every control of a plan with its place; an array's item layout is part
/// of its control.
fn places(plan: &Plan) -> Vec<(String, Place)> {
    let mut walk = Walk {
        out: Vec::new(),
        sections: 0,
        rows: 0,
    };
    walk.node(&plan.root, 0, None);
    walk.out
}

struct Walk {
    out: Vec<(String, Place)>,
    sections: usize,
    rows: usize,
}

impl Walk {
    fn node(&mut self, node: &Node, section: usize, row: Option<usize>) {
        match node {
            Node::Vertical { elements } => elements.iter().for_each(|e| self.node(e, section, row)),
            Node::Horizontal { elements } => {
                self.rows += 1;
                let row = Some(self.rows);
                elements.iter().for_each(|e| self.node(e, section, row));
            }
            Node::Group { elements, .. } => {
                let section = self.open_section();
                elements.iter().for_each(|e| self.node(e, section, None));
            }
            Node::Steps { steps } => {
                for step in steps {
                    let section = self.open_section();
                    step.elements
                        .iter()
                        .for_each(|e| self.node(e, section, None));
                }
            }
            Node::Control(control) => {
                let position = self.out.len();
                self.out.push((
                    control.pointer.clone(),
                    Place {
                        position,
                        section,
                        row,
                    },
                ));
            }
            Node::Table(_) => {}
        }
    }

    fn open_section(&mut self) -> usize {
        self.sections += 1;
        self.sections
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use genui_core::{Control, Widget};
    use serde_json::json;

    fn case(reference: Value) -> Case {
        let output = json!({"type": "object", "required": ["a", "c"], "properties": {
            "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}, "d": {"type": "string"}}});
        let mut case: Case = serde_json::from_value(json!({
            "domain": "unit",
            "heldOut": false,
            "request": {"description": "Ask the user for a, b, c and d", "output": output},
            "reference": reference,
        }))
        .unwrap();
        case.name = "unit".into();
        case
    }

    fn two_sections() -> Case {
        case(json!({"title": "Letters", "sections": [
            {"name": "First", "fields": ["/properties/a", "/properties/b"]},
            {"name": "Second", "fields": ["/properties/c", "/properties/d"]}],
            "rows": [["/properties/a", "/properties/b"], ["/properties/c", "/properties/d"]]}))
    }

    fn control(name: &str) -> Node {
        Node::Control(Control::new(
            format!("/properties/{name}"),
            name,
            Widget::Text,
        ))
    }

    fn seen(root: Node) -> Seen {
        Seen {
            plan: Plan {
                title: Some("Letters".into()),
                root,
            },
            title: Some("Letters".into()),
            lead: None,
            options: vec![],
        }
    }

    fn group(label: &str, elements: Vec<Node>) -> Node {
        Node::Group {
            label: label.into(),
            section: None,
            elements,
            rule: None,
        }
    }

    #[test]
    fn the_reference_layout_scores_full_marks() {
        let root = Node::Vertical {
            elements: vec![
                group(
                    "First",
                    vec![Node::Horizontal {
                        elements: vec![control("a"), control("b")],
                    }],
                ),
                group(
                    "Second",
                    vec![Node::Horizontal {
                        elements: vec![control("c"), control("d")],
                    }],
                ),
            ],
        };
        let scores = score(&two_sections(), &seen(root));
        assert_eq!(scores.section_f1, 1.0);
        assert_eq!(
            (
                scores.row_pairs_kept,
                scores.row_pairs,
                scores.extra_row_pairs
            ),
            (2, 2, 0)
        );
        assert_eq!(scores.order(), 1.0);
        assert_eq!(scores.missing_fields, 0);
    }

    #[test]
    fn a_flat_form_finds_every_pair_in_one_section() {
        // Plan pairs 6, reference pairs 2, both 2: precision 1/3, recall 1.
        let root = Node::Vertical {
            elements: ["a", "b", "c", "d"].map(control).to_vec(),
        };
        let scores = score(&two_sections(), &seen(root));
        assert!(
            (scores.section_f1 - 0.5).abs() < 1e-9,
            "{}",
            scores.section_f1
        );
        assert_eq!((scores.row_pairs_kept, scores.row_pairs), (0, 2));
    }

    #[test]
    fn rows_across_the_reference_count_as_extra() {
        let root = Node::Vertical {
            elements: vec![
                control("a"),
                Node::Horizontal {
                    elements: vec![control("b"), control("c")],
                },
                control("d"),
            ],
        };
        let scores = score(&two_sections(), &seen(root));
        assert_eq!((scores.row_pairs_kept, scores.extra_row_pairs), (0, 1));
    }

    #[test]
    fn interleaved_sections_and_optional_first_lose_order() {
        // Read b, c, a, d: no neighbour shares a section (0 of 2); required
        // a after optional b (0 of 1); required c before optional d (1 of 1).
        let root = Node::Vertical {
            elements: ["b", "c", "a", "d"].map(control).to_vec(),
        };
        let scores = score(&two_sections(), &seen(root));
        assert_eq!((scores.order_kept, scores.order_pairs), (1, 4));
    }

    #[test]
    fn a_missing_field_pairs_with_nothing() {
        let root = Node::Vertical {
            elements: vec![
                group("First", vec![control("a"), control("b")]),
                group("Second", vec![control("c")]),
            ],
        };
        let scores = score(&two_sections(), &seen(root));
        assert_eq!(scores.missing_fields, 1);
        // Plan pairs {a,b}; reference pairs {a,b},{c,d}: P 1, R 1/2.
        assert!(
            (scores.section_f1 - 2.0 / 3.0).abs() < 1e-9,
            "{}",
            scores.section_f1
        );
    }

    #[test]
    fn an_object_shown_as_one_input_places_its_fields() {
        let output = json!({"type": "object", "properties": {"o": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}}, "required": ["x"]}}});
        assert!(is_required(&output, "/properties/o/properties/x"));
        assert!(!is_required(&output, "/properties/o/properties/y"));
        assert!(!is_required(&output, "/properties/o"));
        let placed = vec![(
            "/properties/o".to_owned(),
            Place {
                position: 0,
                section: 0,
                row: None,
            },
        )];
        assert!(place_of(&placed, "/properties/o/properties/x").is_some());
        assert!(place_of(&placed, "/properties/other").is_none());
        assert!(place_of(&placed, "/properties/oo").is_none());
    }

    #[test]
    fn echoing_titles_and_raw_options_are_counted() {
        let mut case = two_sections();
        case.reference.labels.insert(
            "/properties/a".into(),
            [("USD".to_owned(), "US dollar".to_owned())].into(),
        );
        let root = Node::Vertical {
            elements: ["a", "b", "c", "d"].map(control).to_vec(),
        };
        let mut seen = seen(root);
        seen.title = Some("Ask the user for a, b, c and d".into());
        seen.lead = Some("Four letters, please.".into());
        seen.options = vec![
            super::super::seen::SeenOption {
                pointer: "/properties/a".into(),
                value: "USD".into(),
                label: "USD".into(),
            },
            super::super::seen::SeenOption {
                pointer: "/properties/a".into(),
                value: "EUR_X".into(),
                label: "Euro".into(),
            },
        ];
        let scores = score(&case, &seen);
        assert!(scores.title_echoes);
        assert!(!scores.title_missing);
        assert!(!scores.lead_echoes);
        seen.title = None;
        assert!(score(&case, &seen).title_missing);
        seen.title = Some("Form".into());
        assert!(score(&case, &seen).title_missing);
        assert_eq!((scores.raw_labels, scores.options), (1, 2));
    }
}
