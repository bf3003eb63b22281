//! Sections by meaning for a form's top level: each field's concept family
//! from the [`lexicon`](super::lexicon) (its name, else its title), then
//! structure decides the rest. Sections are runs of the schema's own order
//! (its author's grouping); fields never move between sections' places,
//! except that long text goes last within its section.
//!
//! - A field the lexicon does not know joins the field before it when both
//!   are of one kind (yes/no, long text, anything else); a run of unknown
//!   yes/no fields or long texts after other kinds is a section of its own
//!   ("Options", "Comments"); an unknown field leading the form joins the
//!   first known field after it. A person's name and contact details hold
//!   only the person: unknown fields after them take the family of what
//!   follows (a scholarship form's `universidad`, `carrera` after
//!   `telefono`).
//! - The second of a known pair of neighbours (first/last name, make/model,
//!   an amount and its currency: [`super::rows`]) takes the first one's
//!   family, so no section boundary falls inside a pair; also when the
//!   first took its family from its neighbours (a `Value` the lexicon does
//!   not know, then its `Currency`).
//! - A nested object keeps its own section (its group) where it stands.
//! - Neighbours whose names open with one subject (`organiser_email`,
//!   `organiser_phone`; `notify_push`, `notify_email`) are one section, of
//!   the first one's family. Runs about different subjects that repeat
//!   each other's fields (`sender_name`, `sender_city`, then
//!   `recipient_name`, `recipient_city`; `current_manager` then
//!   `new_manager`) describe several of one kind of thing, so each is a
//!   section of its own named after its subject ("Sender", "Recipient"),
//!   even when all are of one family. Yes/no fields are sectioned
//!   by their meaning like any other: a list of privacy switches and a
//!   list of topics to hear about are two sections.
//! - Contact details join personal details when the form has both, and so
//!   do a company and job title beside them (an attendee's: at most two
//!   fields about work; a longer block about the job, with its department,
//!   manager or salary, keeps a section of its own); sizes
//!   join health details (height and weight of a person); an amount with
//!   its currency joins the payment beside it; a place on a map joins the
//!   address or the journey beside it (`from_location`, `to_location` after
//!   a journey's date are its route); the guests beside a stay's dates are
//!   part of the booking.
//! - A section of one field joins its neighbours when both are of one
//!   family; a lone switch, and a field after a person's details, lead the
//!   section after them; any other joins the section before it, else the
//!   one after; a merged section is named after its larger part. Long text
//!   closing a form of three sections or more keeps a section of its own,
//!   whatever it is about (a cover letter, notes), also when it closes a
//!   section of other fields, and so does a closing consent; a lone switch
//!   before such a note stays with the section before it. A switch after a
//!   list of switches is one more of them, and a lone switch never opens a
//!   person's details or a subject's section.
//! - Forms with fewer than [`MIN_FIELDS`] fields, and forms that end up with
//!   fewer than two sections, stay flat.

use super::lexicon::{family_of, Family};
use crate::plan::{Node, Widget};
use crate::text::singular;
use std::collections::BTreeSet;
use std::ops::Range;

/// Forms with fewer top-level fields than this stay unsectioned.
pub(crate) const MIN_FIELDS: usize = 6;

/// Families that join another family's section when the form has both.
struct Join {
    member: Family,
    host: Family,
    /// Families that stand with `member` in one block (a company with the
    /// job around it): they join with it, and count towards `max_run`.
    kin: &'static [Family],
    /// How long a run of `member` and `kin` fields beside `host` must be
    /// to join it, and may be.
    min_run: usize,
    max_run: usize,
}

const JOINS: [Join; 7] = [
    Join::beside(Family::Contact, Family::Personal),
    Join {
        kin: &[Family::Employment, Family::Compensation],
        max_run: 2,
        ..Join::beside(Family::Company, Family::Personal)
    },
    Join::beside(Family::Size, Family::Health),
    Join {
        min_run: 2,
        ..Join::beside(Family::Money, Family::Payment)
    },
    Join::beside(Family::Location, Family::Address),
    Join::beside(Family::Location, Family::Trip),
    Join::beside(Family::Travellers, Family::Stay),
];

impl Join {
    /// Any run of `member` fields beside `host` joins it.
    const fn beside(member: Family, host: Family) -> Join {
        Join {
            member,
            host,
            kin: &[],
            min_run: 1,
            max_run: usize::MAX,
        }
    }

    fn takes(&self, family: Option<Family>) -> bool {
        family.is_some_and(|f| f == self.member || self.kin.contains(&f))
    }
}

/// What a field looks like, for grouping fields the lexicon does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    YesNo,
    LongText,
    Other,
}

impl Kind {
    fn of(widget: Widget) -> Kind {
        match widget {
            Widget::Checkbox => Kind::YesNo,
            Widget::Textarea => Kind::LongText,
            _ => Kind::Other,
        }
    }

    /// The section a run of unknown fields of this kind forms on its own.
    fn family(self) -> Option<Family> {
        match self {
            Kind::YesNo => Some(Family::Options),
            Kind::LongText => Some(Family::Comments),
            Kind::Other => None,
        }
    }
}

/// One top-level field as the sectioning sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tag {
    Field { family: Option<Family>, kind: Kind },
    Nested,
}

/// One run of the top level: a section of loose fields, or a nested
/// object's own group.
enum Block {
    Section {
        family: Family,
        subject: Option<String>,
        nodes: Vec<Node>,
    },
    Nested(Box<Node>),
}

/// Groups top-level fields into sections when the form clearly has them.
/// `fields` are (property name, node) in document order.
pub(super) fn arrange(fields: Vec<(String, Node)>) -> Vec<Node> {
    if fields.len() < MIN_FIELDS {
        return fields.into_iter().map(|(_, node)| node).collect();
    }
    let tags = keep_pairs_together(
        &fields,
        fields.iter().map(|(name, node)| tag(name, node)).collect(),
    );
    let tags = keep_pairs_together(&fields, fill_unknown(tags));
    let subject_runs = subject_runs(&fields, &tags);
    let tags = join_related(shared_prefixes(&subject_runs, tags));
    let (tags, names) = subject_sections(&subject_runs, tags);
    let mut blocks = runs(fields, &tags, &names);
    split_closing_note(&mut blocks);
    merge_single_fields(&mut blocks);
    coalesce(&mut blocks);
    let sections = blocks
        .iter()
        .filter(|b| matches!(b, Block::Section { .. }))
        .count();
    if sections < 2 {
        return restore_flat(blocks);
    }
    blocks.into_iter().map(into_node).collect()
}

fn tag(name: &str, node: &Node) -> Tag {
    match node {
        Node::Control(control) => Tag::Field {
            family: family_of(name, &control.label),
            kind: Kind::of(control.widget),
        },
        _ => Tag::Nested,
    }
}

/// The second of a known pair of neighbours (`make`, `model`; an amount
/// and its currency) takes the first one's family, so a section boundary
/// never falls between fields a designer puts side by side.
fn keep_pairs_together(fields: &[(String, Node)], mut tags: Vec<Tag>) -> Vec<Tag> {
    for at in 1..fields.len() {
        let (first, second) = (&fields[at - 1].1, &fields[at].1);
        let first_family = match tags[at - 1] {
            Tag::Field {
                family: Some(family),
                ..
            } => family,
            _ => continue,
        };
        if let Tag::Field { family, .. } = &mut tags[at] {
            if *family != Some(first_family) && super::rows::is_known_pair(first, second) {
                *family = Some(first_family);
            }
        }
    }
    tags
}

/// Gives every field the lexicon does not know a family (see the module
/// doc); with no known field at all every field stays unknown.
fn fill_unknown(mut tags: Vec<Tag>) -> Vec<Tag> {
    let mut previous: Option<(Family, Kind)> = None;
    for tag in tags.iter_mut() {
        match tag {
            Tag::Field {
                family: Some(family),
                kind,
            } => previous = Some((*family, *kind)),
            Tag::Field { family, kind } => {
                *family = match previous {
                    Some((known, _)) if holds_only_the_person(known) => None,
                    Some((known, was)) if was == *kind => Some(known),
                    Some(_) => kind.family(),
                    None => None,
                };
                previous = family.map(|f| (f, *kind));
            }
            Tag::Nested => previous = None,
        }
    }
    let mut next: Option<Family> = None;
    for tag in tags.iter_mut().rev() {
        match tag {
            Tag::Field {
                family: Some(family),
                ..
            } => next = Some(*family),
            Tag::Field { family, .. } => *family = next,
            Tag::Nested => next = None,
        }
    }
    tags
}

/// A person's name and contact details hold only the person: a field the
/// lexicon does not know after them (`universidad` after `telefono`) is
/// about the form's subject, so it takes its family from what follows.
fn holds_only_the_person(family: Family) -> bool {
    matches!(family, Family::Personal | Family::Contact)
}

/// First words that say how a value is bounded or which of a pair it is
/// (`min_price`, `is_active`, `first_name`, `start_date`), not what it is
/// about: they never open a subject.
const BOUNDS: [&str; 8] = ["min", "max", "is", "has", "first", "last", "start", "end"];

/// Last words that name one end of a range (`price_min`, `year_from`):
/// two ranges side by side share them without being about two subjects.
const RANGE_ENDS: [&str; 8] = ["min", "max", "from", "to", "start", "end", "lower", "upper"];

/// First words that say which of several like things a field is about
/// (`current_manager`, `new_manager`): they open a subject only when
/// another run repeats its fields ([`parallel`]), else `new_password` and
/// `preferred_language` would be subjects.
const QUALIFIERS: [&str; 4] = ["new", "old", "current", "preferred"];

/// How many runs after a run are compared with it for [`parallel`]: blocks
/// about like things stand close together, and a bounded window keeps the
/// work linear in the fields.
const PARALLEL_WINDOW: usize = 3;

/// The subject a name opens with (`organiser` for `organiser_email`; two
/// words when the first is too short to be one, `co applicant` for
/// `co_applicant_email`) when more words follow it, and whether it is a
/// [`QUALIFIERS`] word.
fn subject(name: &str) -> Option<(String, bool)> {
    let words = super::labels::words(name);
    let head = words.first()?;
    if BOUNDS.contains(&head.as_str()) {
        return None;
    }
    let length = if head.chars().count() <= 2 { 2 } else { 1 };
    (words.len() > length).then(|| {
        let opening: Vec<&str> = words[..length].iter().map(|w| singular(w)).collect();
        (opening.join(" "), QUALIFIERS.contains(&head.as_str()))
    })
}

/// Neighbours (at least two) whose names open with one subject.
struct SubjectRun {
    fields: Range<usize>,
    /// The words every name of the run opens with (at least the subject),
    /// singular: `emergency contact` for `emergencyContactName`, ...
    opening: Vec<String>,
    /// What follows the opening in each name, whole and by its last word
    /// (`first name` and `name`), except the ends of a range (`min`).
    stems: BTreeSet<String>,
    qualifier: bool,
}

/// The runs of neighbours about one subject, in document order. A run
/// opened by a [`QUALIFIERS`] word is kept only when it is [`parallel`] to
/// a run near it.
fn subject_runs(fields: &[(String, Node)], tags: &[Tag]) -> Vec<SubjectRun> {
    let subjects: Vec<Option<(String, bool)>> = fields
        .iter()
        .zip(tags)
        .map(|((name, _), tag)| match tag {
            Tag::Field { .. } => subject(name),
            Tag::Nested => None,
        })
        .collect();
    let mut runs = Vec::new();
    let mut start = 0;
    while start < fields.len() {
        let end = (start + 1..fields.len())
            .find(|&at| subjects[at].is_none() || subjects[at] != subjects[start])
            .unwrap_or(fields.len());
        if let Some((_, qualifier)) = &subjects[start] {
            if end - start >= 2 {
                runs.push(subject_run(fields, start..end, *qualifier));
            }
        }
        start = end;
    }
    let beside_parallel = parallel_runs(&runs);
    runs.into_iter()
        .zip(beside_parallel)
        .filter_map(|(run, parallel)| (!run.qualifier || parallel).then_some(run))
        .collect()
}

fn subject_run(fields: &[(String, Node)], range: Range<usize>, qualifier: bool) -> SubjectRun {
    let names: Vec<Vec<String>> = fields[range.clone()]
        .iter()
        .map(|(name, _)| {
            let words = super::labels::words(name);
            words.iter().map(|w| singular(w).to_owned()).collect()
        })
        .collect();
    let shortest = names.iter().map(Vec::len).min().unwrap_or(0);
    let shared = (0..shortest.saturating_sub(1))
        .take_while(|&at| names.iter().all(|words| words[at] == names[0][at]))
        .count()
        .max(1);
    let mut stems = BTreeSet::new();
    for words in &names {
        let rest = &words[shared.min(words.len())..];
        if let Some(last) = rest.last().filter(|w| !RANGE_ENDS.contains(&w.as_str())) {
            stems.insert(last.clone());
            stems.insert(rest.join(" "));
        }
    }
    SubjectRun {
        fields: range,
        opening: names
            .first()
            .map(|w| w[..shared.min(w.len())].to_vec())
            .unwrap_or_default(),
        stems,
        qualifier,
    }
}

/// Two runs about different subjects that repeat at least two of each
/// other's stems (`sender_name`, `sender_city` and `recipient_name`,
/// `recipient_city`): several of one kind of thing, not one thing's parts.
fn parallel(a: &SubjectRun, b: &SubjectRun) -> bool {
    a.opening != b.opening && a.stems.intersection(&b.stems).nth(1).is_some()
}

/// For each run, whether a run within [`PARALLEL_WINDOW`] of it is
/// [`parallel`] to it.
fn parallel_runs(runs: &[SubjectRun]) -> Vec<bool> {
    let mut found = vec![false; runs.len()];
    for at in 0..runs.len() {
        for other in at + 1..runs.len().min(at + 1 + PARALLEL_WINDOW) {
            if parallel(&runs[at], &runs[other]) {
                found[at] = true;
                found[other] = true;
            }
        }
    }
    found
}

/// Neighbours whose names open with one subject (`organiser_first_name`,
/// `organiser_email`; `notify_push`, `notify_email`; `autoSave`,
/// `autoSaveDelayMs`) are one section, of the first one's family.
fn shared_prefixes(runs: &[SubjectRun], mut tags: Vec<Tag>) -> Vec<Tag> {
    for run in runs {
        let run = &mut tags[run.fields.clone()];
        let first = run.iter().find_map(|tag| match tag {
            Tag::Field { family, .. } => *family,
            Tag::Nested => None,
        });
        if let Some(family) = first {
            for tag in run.iter_mut() {
                if let Tag::Field { family: f, .. } = tag {
                    *f = Some(family);
                }
            }
        }
    }
    tags
}

/// Each field's subject section name, where its run is [`parallel`] to a
/// run near it: the run's opening words in sentence case ("Sender",
/// "Co applicant", "Emergency contact"). A few fields between two such
/// runs (fewer than the first run has) carry on the first: the next
/// block opens with its own subject (`child_last_name`, `age_group`, then
/// `guardian_first_name`). They take its family too.
fn subject_sections(runs: &[SubjectRun], mut tags: Vec<Tag>) -> (Vec<Tag>, Vec<Option<String>>) {
    let mut names = vec![None; tags.len()];
    let named: Vec<&SubjectRun> = runs
        .iter()
        .zip(parallel_runs(runs))
        .filter_map(|(run, parallel)| parallel.then_some(run))
        .collect();
    for (at, run) in named.iter().enumerate() {
        let name = crate::text::capitalize_first(&run.opening.join(" "));
        let mut fields = run.fields.clone();
        if let Some(next) = named.get(at + 1) {
            let gap = run.fields.end..next.fields.start;
            let loose = tags[gap.clone()]
                .iter()
                .all(|tag| matches!(tag, Tag::Field { .. }));
            if loose && gap.len() < run.fields.len() {
                fields.end = gap.end;
            }
        }
        let family = match tags[run.fields.start] {
            Tag::Field { family, .. } => family,
            Tag::Nested => None,
        };
        for at in fields {
            names[at] = Some(name.clone());
            if let Tag::Field { family: f, .. } = &mut tags[at] {
                *f = family;
            }
        }
    }
    (tags, names)
}

/// Runs of a [`JOINS`] member (with its kin) beside their host take the
/// host's family: contact details after an address keep a section of
/// their own, and so does a whole block about a job after a person.
fn join_related(mut tags: Vec<Tag>) -> Vec<Tag> {
    let family_at = |tags: &[Tag], at: usize| match tags.get(at) {
        Some(Tag::Field { family, .. }) => *family,
        _ => None,
    };
    for join in &JOINS {
        let mut start = 0;
        while start < tags.len() {
            if !join.takes(family_at(&tags, start)) {
                start += 1;
                continue;
            }
            let end = (start..tags.len())
                .find(|&at| !join.takes(family_at(&tags, at)))
                .unwrap_or(tags.len());
            let has_member = (start..end).any(|at| family_at(&tags, at) == Some(join.member));
            let beside_host = (start > 0 && family_at(&tags, start - 1) == Some(join.host))
                || family_at(&tags, end) == Some(join.host);
            let length = end - start;
            if has_member && beside_host && (join.min_run..=join.max_run).contains(&length) {
                for tag in &mut tags[start..end] {
                    if let Tag::Field { family, .. } = tag {
                        *family = Some(join.host);
                    }
                }
            }
            start = end;
        }
    }
    tags
}

/// Runs of neighbouring fields of one family and subject section
/// ([`subject_sections`]); nested objects stand alone.
fn runs(fields: Vec<(String, Node)>, tags: &[Tag], subjects: &[Option<String>]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for (((_, node), tag), subject) in fields.into_iter().zip(tags).zip(subjects) {
        let family = match tag {
            Tag::Field { family, .. } => family.unwrap_or(Family::Details),
            Tag::Nested => {
                blocks.push(Block::Nested(Box::new(node)));
                continue;
            }
        };
        match blocks.last_mut() {
            Some(Block::Section {
                family: f,
                subject: s,
                nodes,
            }) if *f == family && s == subject => nodes.push(node),
            _ => blocks.push(Block::Section {
                family,
                subject: subject.clone(),
                nodes: vec![node],
            }),
        }
    }
    blocks
}

fn section_family(block: Option<&Block>) -> Option<Family> {
    section_key(block).map(|(family, _)| family)
}

/// What makes two sections one: their family and subject section name.
fn section_key(block: Option<&Block>) -> Option<(Family, Option<&str>)> {
    match block {
        Some(Block::Section {
            family, subject, ..
        }) => Some((*family, subject.as_deref())),
        _ => None,
    }
}

/// Long text closing a form, after other fields of its section, becomes a
/// section of its own when the form has two sections before it: a note or
/// a justification is about the whole form, not the last topic.
fn split_closing_note(blocks: &mut Vec<Block>) {
    let before = blocks.len();
    let Some(Block::Section { nodes, .. }) = blocks.last_mut() else {
        return;
    };
    let closes = nodes.last().is_some_and(is_long_text) && !nodes.iter().all(is_long_text);
    if !closes || before < 2 {
        return;
    }
    let Some(note) = nodes.pop() else {
        return;
    };
    blocks.push(Block::Section {
        family: Family::Comments,
        subject: None,
        nodes: vec![note],
    });
}

/// A section of one field joins its neighbours when they are of one
/// family, else (see the module doc) the section after or before it.
fn merge_single_fields(blocks: &mut Vec<Block>) {
    let closing_note = |blocks: &[Block], at: usize| {
        at + 1 == blocks.len()
            && blocks.len() >= 3
            && matches!(&blocks[at], Block::Section { nodes, family, .. }
                if nodes.iter().all(is_long_text) || *family == Family::Consent)
    };
    while let Some(index) = (0..blocks.len()).find(|&at| {
        matches!(&blocks[at], Block::Section { nodes, .. } if nodes.len() == 1)
            && !closing_note(blocks, at)
    }) {
        let before = index
            .checked_sub(1)
            .and_then(|i| section_family(blocks.get(i)));
        let after = section_family(blocks.get(index + 1));
        let after_subject = index
            .checked_sub(1)
            .and_then(|i| section_key(blocks.get(i)))
            .is_some_and(|(_, subject)| subject.is_some());
        let same_section = index
            .checked_sub(1)
            .is_some_and(|i| section_key(blocks.get(i)) == section_key(blocks.get(index + 1)));
        // A closing note is about the whole form: no switch turns it on.
        let switch = matches!(&blocks[index], Block::Section { nodes, .. }
            if nodes.first().is_some_and(is_switch))
            && !closing_note(blocks, index + 1);
        // Nor does it open a person's details or a subject's section: it is
        // not about them (`catering_required` before `organiser_name`).
        let opens_person = matches!(
            section_key(blocks.get(index + 1)),
            Some((Family::Personal | Family::Contact, _) | (_, Some(_)))
        );
        let after_switches = index.checked_sub(1).is_some_and(
            |i| matches!(&blocks[i], Block::Section { nodes, .. } if nodes.iter().all(is_switch)),
        );
        match (before, after) {
            (Some(_), Some(_)) if same_section => {
                join(blocks, index - 1, index);
                join(blocks, index - 1, index);
            }
            // A switch after a list of switches is one more of them
            // (`has_balcony`, then `pets_allowed`).
            (Some(_), _) if switch && after_switches => join(blocks, index - 1, index),
            // A lone switch turns on what follows it (`night_mode`, then
            // the hours it keeps): it opens the next section.
            (_, Some(_)) if switch && !opens_person => join(blocks, index, index + 1),
            // A person's details hold only the person, a subject's block
            // only that subject: what follows them (`position`,
            // `available_from`; `parcel_count` after `delivery_*`) leads
            // the next section.
            (Some(Family::Personal), Some(_)) => join(blocks, index, index + 1),
            (Some(_), Some(_)) if after_subject => join(blocks, index, index + 1),
            (Some(_), _) => join(blocks, index - 1, index),
            (None, Some(_)) => join(blocks, index, index + 1),
            // Between nested objects: it stays a loose field.
            (None, None) => {
                let Block::Section { nodes, .. } = blocks.remove(index) else {
                    return;
                };
                let loose = nodes.into_iter().map(|n| Block::Nested(Box::new(n)));
                blocks.splice(index..index, loose);
            }
        }
    }
}

/// Joins two neighbouring sections (`second == first + 1`) into the
/// first's place, named after the larger.
fn join(blocks: &mut Vec<Block>, first: usize, second: usize) {
    let Block::Section {
        family: second_family,
        subject: second_subject,
        nodes: second_nodes,
    } = blocks.remove(second)
    else {
        return;
    };
    if let Some(Block::Section {
        family,
        subject,
        nodes,
    }) = blocks.get_mut(first)
    {
        if second_nodes.len() > nodes.len() {
            *family = second_family;
            *subject = second_subject;
        }
        nodes.extend(second_nodes);
    }
}

/// Neighbouring sections of one family (left by merging) become one.
fn coalesce(blocks: &mut Vec<Block>) {
    let mut index = 1;
    while index < blocks.len() {
        let same = matches!(
            (section_key(blocks.get(index - 1)), section_key(blocks.get(index))),
            (Some(a), Some(b)) if a == b
        );
        if same {
            join(blocks, index - 1, index);
        } else {
            index += 1;
        }
    }
}

fn restore_flat(blocks: Vec<Block>) -> Vec<Node> {
    blocks
        .into_iter()
        .flat_map(|block| match block {
            Block::Section { nodes, .. } => nodes,
            Block::Nested(node) => vec![*node],
        })
        .collect()
}

/// A section's group, its long texts last.
fn into_node(block: Block) -> Node {
    match block {
        Block::Section {
            family,
            subject,
            nodes,
        } => {
            let (long, short): (Vec<Node>, Vec<Node>) = nodes.into_iter().partition(is_long_text);
            let mut elements = short;
            elements.extend(long);
            let concept = match subject {
                Some(name) => Family::named(&name).ok_or(name),
                None => Ok(family),
            };
            let (label, section) = match concept {
                Ok(family) => (family.name(0).to_owned(), Some(family.id().to_owned())),
                Err(name) => (name, None),
            };
            Node::Group {
                label,
                section,
                elements,
                rule: None,
            }
        }
        Block::Nested(node) => *node,
    }
}

fn is_switch(node: &Node) -> bool {
    matches!(node, Node::Control(c) if c.widget == Widget::Checkbox)
}

fn is_long_text(node: &Node) -> bool {
    matches!(node, Node::Control(c) if c.widget == Widget::Textarea)
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

    fn arranged(names: &[&str]) -> Vec<String> {
        labels(&arrange(names.iter().map(|n| control(n)).collect()))
    }

    fn switch(name: &str) -> (String, Node) {
        let c = Control::new(format!("/properties/{name}"), name, Widget::Checkbox);
        (name.to_owned(), Node::Control(c))
    }

    #[test]
    fn a_run_of_switches_is_one_section() {
        let fields = vec![
            control("digest_frequency"),
            control("quiet_hours_start"),
            control("quiet_hours_end"),
            switch("marketing_emails"),
            switch("product_updates"),
            switch("security_alerts"),
        ];
        assert_eq!(
            labels(&arrange(fields)),
            ["Date and time:3", "Notifications:3"]
        );
    }

    #[test]
    fn places_beside_a_journey_are_its_route() {
        assert_eq!(
            arranged(&[
                "journey_date",
                "journey_purpose",
                "from_location",
                "to_location",
                "vehicle_type",
                "vehicle_make",
            ]),
            ["Trip:4", "Vehicle:2"]
        );
    }

    #[test]
    fn guests_beside_a_stay_are_part_of_the_booking() {
        assert_eq!(
            arranged(&[
                "check_in",
                "check_out",
                "adults",
                "children",
                "card_number",
                "card_expiry",
            ]),
            ["Stay:4", "Payment:2"]
        );
    }

    #[test]
    fn a_pair_stays_together_when_its_first_field_took_a_neighbours_family() {
        // `goods_value` is no word of the lexicon: it joins the sizes before
        // it, and its currency follows it there.
        assert_eq!(
            arranged(&[
                "length_cm",
                "width_cm",
                "goods_value",
                "currency",
                "total_price",
                "handling_fee",
            ]),
            ["Size:4", "Amount:2"]
        );
    }

    #[test]
    fn neighbours_about_one_subject_are_one_section() {
        assert_eq!(
            arranged(&[
                "hotel",
                "check_in",
                "check_out",
                "guest_name",
                "guest_email",
                "guest_dietary_needs",
                "guest_meal_choice"
            ]),
            ["Stay:3", "Personal Information:4"]
        );
    }

    fn sections_with_ids(nodes: &[Node]) -> Vec<(String, Option<String>)> {
        nodes
            .iter()
            .filter_map(|n| match n {
                Node::Group { label, section, .. } => Some((label.clone(), section.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn blocks_about_different_subjects_of_one_family_are_sections_named_after_them() {
        let fields = [
            "buyer_name",
            "buyer_address",
            "buyer_email",
            "seller_name",
            "seller_address",
            "seller_email",
        ];
        assert_eq!(arranged(&fields), ["Buyer:3", "Seller:3"]);
        // A subject the lexicon names is a concept, shown in the form's
        // language; any other keeps its own words and no concept id.
        let nodes = arrange(
            [
                "collection_street",
                "collection_city",
                "delivery_street",
                "delivery_city",
                "parcel_weight",
                "parcel_length",
            ]
            .iter()
            .map(|n| control(n))
            .collect(),
        );
        let sections = sections_with_ids(&nodes);
        assert_eq!(sections[0], ("Collection".to_owned(), None));
        assert_eq!(
            sections[1],
            ("Delivery".to_owned(), Some("delivery".to_owned()))
        );
    }

    #[test]
    fn a_subject_of_two_short_words_and_a_qualifier_with_parallel_fields_are_subjects() {
        assert_eq!(
            arranged(&[
                "applicant_first_name",
                "applicant_last_name",
                "applicant_email",
                "co_applicant_first_name",
                "co_applicant_last_name",
                "co_applicant_email",
            ]),
            ["Applicant:3", "Co applicant:3"]
        );
        assert_eq!(
            arranged(&[
                "current_department",
                "current_job_title",
                "current_manager",
                "new_department",
                "new_job_title",
                "new_manager",
            ]),
            ["Current:3", "New:3"]
        );
    }

    #[test]
    fn bounds_flags_and_lone_qualifiers_are_no_subjects() {
        // `new_`/`current_` without a parallel block, and `min_`/`max_`,
        // `is_`/`has_`, `start_`/`end_` say how a value is bounded or which
        // of a pair it is: no section is named after them.
        let password = arranged(&[
            "username",
            "email",
            "current_password",
            "new_password",
            "new_password_confirmation",
            "phone",
        ]);
        assert!(
            !password.iter().any(|s| s.starts_with("New")),
            "{password:?}"
        );
        let filters = arranged(&[
            "min_price",
            "max_price",
            "min_size",
            "max_size",
            "start_date",
            "start_time",
            "end_date",
            "end_time",
        ]);
        assert!(
            !filters.iter().any(|s| ["Min", "Max", "Start", "End"]
                .iter()
                .any(|w| s.starts_with(w))),
            "{filters:?}"
        );
    }

    #[test]
    fn a_few_fields_between_two_subject_blocks_belong_to_the_first() {
        assert_eq!(
            arranged(&[
                "child_first_name",
                "child_last_name",
                "child_date_of_birth",
                "age_group",
                "guardian_first_name",
                "guardian_last_name",
                "guardian_phone",
            ]),
            ["Child:4", "Guardian:3"]
        );
    }

    #[test]
    fn two_ranges_side_by_side_are_no_subjects() {
        let ranges = arranged(&[
            "make",
            "model",
            "year_min",
            "year_max",
            "price_min",
            "price_max",
        ]);
        assert!(
            !ranges
                .iter()
                .any(|s| s.starts_with("Year") || s.starts_with("Price")),
            "{ranges:?}"
        );
    }

    #[test]
    fn a_field_after_the_last_subject_block_leads_the_next_section() {
        let fields = vec![
            control("collection_street"),
            control("collection_city"),
            control("delivery_street"),
            control("delivery_city"),
            control("parcel_count"),
            control("total_weight_kg"),
            control("length_cm"),
        ];
        assert_eq!(
            labels(&arrange(fields)),
            ["Collection:2", "Delivery:2", "Size:3"]
        );
    }

    fn long_text(name: &str) -> (String, Node) {
        let c = Control::new(format!("/properties/{name}"), name, Widget::Textarea);
        (name.to_owned(), Node::Control(c))
    }

    #[test]
    fn long_text_closing_a_form_keeps_its_own_section_whatever_it_is_about() {
        let fields = vec![
            control("first_name"),
            control("last_name"),
            control("email"),
            control("linkedin_url"),
            control("position"),
            control("available_from"),
            control("expected_salary"),
            control("salary_currency"),
            long_text("cover_letter"),
        ];
        let arranged = labels(&arrange(fields));
        assert_eq!(arranged.last().map(String::as_str), Some("Documents:1"));
    }

    #[test]
    fn a_lone_switch_opens_the_section_after_it() {
        let fields = vec![
            control("screen_width"),
            control("screen_height"),
            control("brightness"),
            switch("night_mode"),
            control("quiet_hours_start"),
            control("quiet_hours_end"),
        ];
        assert_eq!(labels(&arrange(fields)), ["Device:3", "Date and time:3"]);
    }

    #[test]
    fn a_switch_before_a_closing_note_stays_with_the_section_before_it() {
        let fields = vec![
            control("sku"),
            control("product_name"),
            control("count_date"),
            control("count_time"),
            switch("approved_by_supervisor"),
            long_text("notes"),
        ];
        assert_eq!(
            labels(&arrange(fields)),
            ["Product:2", "Date and time:3", "Comments:1"]
        );
    }

    #[test]
    fn a_note_closing_a_section_of_other_fields_gets_its_own() {
        let fields = vec![
            control("first_name"),
            control("last_name"),
            control("start_date"),
            control("end_date"),
            control("vehicle_make"),
            control("vehicle_model"),
            long_text("vehicle_notes"),
        ];
        assert_eq!(
            labels(&arrange(fields)),
            [
                "Personal Information:2",
                "Date and time:2",
                "Vehicle:2",
                "Comments:1"
            ]
        );
    }

    #[test]
    fn consent_closing_a_form_keeps_its_own_section() {
        let fields = vec![
            control("full_name"),
            control("date_of_birth"),
            control("check_in"),
            control("check_out"),
            control("vehicle_make"),
            control("vehicle_model"),
            switch("consent_to_share"),
        ];
        assert_eq!(
            labels(&arrange(fields)),
            ["Personal Information:2", "Stay:2", "Vehicle:2", "Consent:1"]
        );
    }

    #[test]
    fn a_company_and_job_title_beside_a_person_are_part_of_their_details() {
        assert_eq!(
            arranged(&[
                "first_name",
                "last_name",
                "email",
                "company",
                "job_title",
                "check_in",
                "check_out",
            ]),
            ["Personal Information:5", "Stay:2"]
        );
    }

    #[test]
    fn a_whole_block_about_a_job_after_a_person_keeps_its_own_section() {
        let job = arranged(&[
            "first_name",
            "last_name",
            "email",
            "company",
            "job_title",
            "department",
            "manager",
            "start_date",
        ]);
        assert_eq!(job, ["Personal Information:3", "Company:5"]);
        let paid = arranged(&[
            "first_name",
            "last_name",
            "email",
            "company",
            "job_title",
            "annual_salary",
        ]);
        assert_eq!(paid, ["Personal Information:3", "Company:3"]);
        // Two fields about work beside the person are the person's, whether
        // or not they are a known pair (a company and a department).
        assert_eq!(
            arranged(&[
                "first_name",
                "last_name",
                "email",
                "company",
                "department",
                "check_in",
                "check_out",
            ]),
            ["Personal Information:5", "Stay:2"]
        );
    }

    #[test]
    fn a_switch_after_switches_is_one_more_of_them() {
        let fields = vec![
            control("city"),
            control("district"),
            switch("has_lift"),
            switch("has_balcony"),
            switch("pets_allowed"),
            control("available_from"),
            control("min_stay_months"),
        ];
        assert_eq!(
            labels(&arrange(fields)),
            ["Address:2", "Options:3", "Date and time:2"]
        );
    }

    #[test]
    fn a_lone_switch_does_not_open_a_persons_details() {
        let fields = vec![
            control("event_name"),
            control("event_type"),
            switch("catering_required"),
            control("organiser_first_name"),
            control("organiser_last_name"),
            control("organiser_email"),
        ];
        assert_eq!(
            labels(&arrange(fields)),
            ["Event:3", "Personal Information:3"]
        );
    }

    #[test]
    fn an_amount_and_its_currency_join_the_payment() {
        assert_eq!(
            arranged(&[
                "payee_name",
                "iban",
                "bic",
                "amount",
                "currency",
                "payment_date",
                "payment_reference"
            ]),
            ["Bank account:3", "Payment:4"]
        );
    }

    #[test]
    fn seed_address_gets_two_sections() {
        assert_eq!(
            arranged(&[
                "firstName",
                "lastName",
                "street",
                "city",
                "postalCode",
                "country"
            ]),
            ["Personal Information:2", "Address:4"]
        );
    }

    #[test]
    fn contact_details_join_personal_ones() {
        assert_eq!(
            arranged(&["firstName", "lastName", "email", "phone", "street", "city"]),
            ["Personal Information:4", "Address:2"]
        );
    }

    #[test]
    fn contact_details_away_from_personal_ones_keep_their_section() {
        assert_eq!(
            arranged(&[
                "firstName",
                "lastName",
                "street",
                "city",
                "postalCode",
                "email",
                "phone"
            ]),
            ["Personal Information:2", "Address:3", "Contact:2"]
        );
    }

    #[test]
    fn a_title_or_name_of_a_thing_is_not_a_person() {
        let bug = arranged(&[
            "title",
            "description",
            "severity",
            "steps_to_reproduce",
            "expected_behaviour",
            "actual_behaviour",
        ]);
        assert!(!bug.iter().any(|s| s.starts_with("Personal")), "{bug:?}");
    }

    #[test]
    fn any_domain_is_sectioned_by_meaning() {
        assert_eq!(
            arranged(&[
                "wifi_ssid",
                "wifi_password",
                "ip_address",
                "recording_mode",
                "motion_detection",
                "sensitivity"
            ]),
            ["Network:3", "Recording:3"]
        );
    }

    #[test]
    fn small_or_unclear_forms_stay_flat() {
        assert_eq!(
            arranged(&["title", "length", "width", "city"]),
            ["title", "length", "width", "city"]
        );
        assert_eq!(
            arranged(&["a", "b", "c", "d", "e", "f"]),
            ["a", "b", "c", "d", "e", "f"]
        );
    }

    #[test]
    fn one_field_sections_join_a_neighbour() {
        assert_eq!(
            arranged(&[
                "origin",
                "destination",
                "depart_date",
                "budget",
                "street",
                "city"
            ]),
            ["Trip:4", "Address:2"]
        );
    }

    #[test]
    fn fields_the_lexicon_does_not_know_after_a_person_are_not_the_persons() {
        // A scholarship form in Spanish: the person, then studies the
        // lexicon has no words for.
        let names = [
            "first_name",
            "last_name",
            "email",
            "phone",
            "universidad",
            "carrera",
            "nota_media",
        ];
        assert_eq!(arranged(&names), ["Personal Information:4", "Details:3"]);
    }

    #[test]
    fn any_names_give_a_layout_that_keeps_every_field() {
        let scripts = ["名前", "住所", "é", "x", "y", "z", "Имя", "電話"];
        assert_eq!(arranged(&scripts), scripts);
        let many: Vec<String> = (0..500)
            .map(|i| ["email", "street", "x", "card_number"][i % 4].to_owned() + &i.to_string())
            .collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let nodes = arrange(names.iter().map(|n| control(n)).collect());
        let mut count = 0;
        for node in &nodes {
            count += match node {
                Node::Group { elements, .. } => elements.len(),
                _ => 1,
            };
        }
        assert_eq!(count, 500);
    }
}
