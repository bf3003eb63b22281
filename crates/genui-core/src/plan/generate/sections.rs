//! Semantic sections for flat forms: "Personal Information", "Contact",
//! "Address", "Payment", recognised from property names.
//!
//! Applied only to a form's top level, and only when at least two sections
//! would hold two or more fields each; otherwise a flat list reads better.
//! A lone contact field joins "Personal Information" when that exists.

use super::labels::words;
use crate::plan::Node;

/// A section a field can belong to, in the order sections are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Personal,
    Contact,
    Address,
    Payment,
}

impl Section {
    fn label(self) -> &'static str {
        match self {
            Section::Personal => "Personal Information",
            Section::Contact => "Contact",
            Section::Address => "Address",
            Section::Payment => "Payment",
        }
    }

    fn of(name: &str) -> Option<Section> {
        let words = words(name);
        let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
        let name_part = [
            "first", "last", "middle", "full", "given", "family", "sur", "nick", "maiden",
        ];
        if (has(&["name"]) && has(&name_part))
            || has(&[
                "surname",
                "forename",
                "firstname",
                "lastname",
                "birthday",
                "birthdate",
                "dob",
                "birth",
                "gender",
                "nationality",
                "salutation",
            ])
        {
            return Some(Section::Personal);
        }
        if has(&[
            "email",
            "phone",
            "mobile",
            "telephone",
            "tel",
            "fax",
            "cell",
        ]) {
            return Some(Section::Contact);
        }
        if has(&[
            "street",
            "address",
            "addr",
            "city",
            "town",
            "postal",
            "postcode",
            "zip",
            "zipcode",
            "state",
            "province",
            "region",
            "country",
            "county",
            "suburb",
            "district",
            "apartment",
            "apt",
            "suite",
            "line1",
            "line2",
        ]) {
            return Some(Section::Address);
        }
        if has(&[
            "card",
            "cardholder",
            "cvv",
            "cvc",
            "iban",
            "bic",
            "swift",
            "expiry",
            "expiration",
        ]) {
            return Some(Section::Payment);
        }
        None
    }
}

/// Groups top-level controls into sections when the form clearly has them.
/// `fields` are (property name, node) in document order.
pub(super) fn arrange(fields: Vec<(String, Node)>) -> Vec<Node> {
    let mut tags: Vec<Option<Section>> = fields
        .iter()
        .map(|(name, node)| {
            matches!(node, Node::Control(_))
                .then(|| Section::of(name))
                .flatten()
        })
        .collect();
    let count =
        |tags: &[Option<Section>], s: Section| tags.iter().filter(|t| **t == Some(s)).count();
    if count(&tags, Section::Contact) == 1 && count(&tags, Section::Personal) >= 1 {
        for tag in tags.iter_mut().filter(|t| **t == Some(Section::Contact)) {
            *tag = Some(Section::Personal);
        }
    }
    let sections = [
        Section::Personal,
        Section::Contact,
        Section::Address,
        Section::Payment,
    ];
    let populated = sections.iter().filter(|s| count(&tags, **s) >= 2).count();
    if fields.len() < 4 || populated < 2 {
        return fields.into_iter().map(|(_, node)| node).collect();
    }
    let mut out: Vec<Node> = Vec::new();
    let mut open: Vec<(Section, usize)> = Vec::new();
    let sizes: Vec<(Section, usize)> = sections.iter().map(|s| (*s, count(&tags, *s))).collect();
    for ((_, node), tag) in fields.into_iter().zip(tags) {
        let section = tag.filter(|s| sizes.iter().any(|(k, n)| k == s && *n >= 2));
        match section {
            None => out.push(node),
            Some(s) => match open.iter().find(|(k, _)| *k == s) {
                Some((_, index)) => {
                    if let Node::Group { elements, .. } = &mut out[*index] {
                        elements.push(node);
                    }
                }
                None => {
                    open.push((s, out.len()));
                    out.push(Node::Group {
                        label: s.label().to_owned(),
                        elements: vec![node],
                        rule: None,
                    });
                }
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Control, Widget};

    fn control(name: &str) -> (String, Node) {
        let c = Control::new(format!("/properties/{name}"), name, Widget::Text);
        (name.to_owned(), Node::Control(c))
    }

    fn labels(nodes: &[Node]) -> Vec<String> {
        nodes
            .iter()
            .map(|n| match n {
                Node::Group {
                    label, elements, ..
                } => format!("{label}:{}", elements.len()),
                Node::Control(c) => c.label.clone(),
                _ => "?".into(),
            })
            .collect()
    }

    #[test]
    fn seed_address_gets_two_sections() {
        let fields = [
            "firstName",
            "lastName",
            "street",
            "city",
            "postalCode",
            "country",
        ]
        .map(control)
        .to_vec();
        assert_eq!(
            labels(&arrange(fields)),
            ["Personal Information:2", "Address:4"]
        );
    }

    #[test]
    fn lone_email_joins_personal_and_unknowns_stay_in_place() {
        let fields = ["firstName", "lastName", "email", "notes", "street", "city"]
            .map(control)
            .to_vec();
        assert_eq!(
            labels(&arrange(fields)),
            ["Personal Information:3", "notes", "Address:2"]
        );
    }

    #[test]
    fn unclear_forms_stay_flat() {
        let fields = ["title", "length", "width", "city"].map(control).to_vec();
        assert_eq!(
            labels(&arrange(fields)),
            ["title", "length", "width", "city"]
        );
    }
}
