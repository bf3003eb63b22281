//! Rows: short related fields side by side (first/last name, city/postal
//! code, start/end date, min/max, latitude/longitude, month/year, ...).
//!
//! Two neighbouring controls share a row when both are short (a one-line
//! input, a date, a number, a drop-down: never long text, lists, nested
//! objects or radio groups) and their names are a known pair: they belong
//! to the same family of words and, once the family's words and measuring
//! words are taken out, one name's rest holds the other's
//! (`startDate`/`endDate` -> `date`/`date`; `product_model`/`serial_number`
//! -> `product`/nothing). An amount followed by its currency, a date
//! followed by a time, and a moment followed by how long it lasts
//! (`start_time`/`duration_minutes`; a count in a unit of time,
//! `available_from`/`min_stay_months`) share a row too, and so do a switch
//! and the number named after it (`autoLock`/`autoLockDelaySeconds`). A
//! row of two may also start from
//! looser ties: a shared first word (`dns_primary`/`dns_secondary`), two
//! choices, two reference numbers (`registration_number`/`vat_number`), or
//! two inputs of one kind about one subject (`travellers`/
//! `oldest_traveller_age`). A row holds at most [`MAX_ROW`] fields. Short
//! inputs left alone after that share a row of two with a neighbour of the
//! same kind (one-line texts, dates and times, drop-downs and choices; two
//! numbers), as a designer's two-column form does. On mobile
//! [`single_column`] undoes every row.

use super::labels::words;
use crate::plan::{Control, Node, Widget};

/// At most this many fields in one row.
pub(crate) const MAX_ROW: usize = 3;

/// Word families whose members pair up; a member word is dropped when
/// comparing the rest of two names.
const FAMILIES: [&[&str]; 28] = [
    &[
        "first",
        "last",
        "given",
        "family",
        "middle",
        "sur",
        "firstname",
        "lastname",
        "surname",
        "forename",
        "display",
        "username",
        "nickname",
        "name",
        "vorname",
        "nachname",
        "prenom",
        "nom",
        "nombre",
        "apellido",
        "nome",
        "sobrenome",
    ],
    &[
        "city",
        "town",
        "postal",
        "postcode",
        "zip",
        "zipcode",
        "code",
        "state",
        "province",
        "apartment",
        "ort",
        "plz",
        "ville",
        "ciudad",
        "cidade",
    ],
    &[
        "start", "end", "from", "to", "min", "max", "minimum", "maximum", "begin", "until",
        "finish", "earliest", "latest", "issue", "due", "open", "close", "low", "high", "lower",
        "upper", "wake", "sleep",
    ],
    &["latitude", "longitude", "lat", "lng", "lon", "altitude"],
    &["day", "month", "year"],
    &["width", "height", "depth", "length"],
    &["height", "weight"],
    &["origin", "destination"],
    &[
        "depart",
        "departure",
        "return",
        "outbound",
        "inbound",
        "arrival",
    ],
    &["check", "in", "out", "checkin", "checkout"],
    &["adult", "child", "children", "infant", "guest", "room"],
    &[
        "email",
        "phone",
        "mobile",
        "telephone",
        "tel",
        "telefon",
        "courriel",
        "correo",
        "telefono",
        "telefone",
        "celular",
    ],
    &["iban", "bic", "swift", "sort", "account", "routing"],
    &["card", "expiry", "expiration", "cvc", "cvv"],
    &["primary", "secondary"],
    &["company", "department", "position", "job", "title", "role"],
    &["ip", "address", "subnet", "mask"],
    &["systolic", "diastolic"],
    &["make", "model", "marke", "modell"],
    &["species", "breed"],
    &["income", "expense", "expenditure", "outgoing"],
    &["language", "locale", "timezone", "region"],
    &["model", "serial"],
    &["platform", "os"],
    &["provider", "insurer", "policy"],
    &["birth", "dob", "birthday", "birthdate", "sex", "gender"],
    &["location", "room", "venue"],
    &["postcode", "zip", "zipcode", "postal", "radius", "distance"],
];

/// Words that say how a value is measured or written, not what it is:
/// left out when comparing the rest of two names (`height_cm`/`weight_kg`).
/// Periods count as units here (`annual_income`/`monthly_expenses`).
const NOISE: [&str; 28] = [
    "cm", "mm", "m", "km", "kg", "g", "lb", "in", "c", "f", "ms", "pct", "percent", "code",
    "number", "no", "nr", "id", "value", "num", "mile", "hour", "daily", "weekly", "monthly",
    "annual", "yearly", "hourly",
];

/// Words for an amount of money and for its currency: an amount followed
/// by a currency share a row.
const AMOUNTS: [&str; 13] = [
    "amount", "price", "cost", "total", "fee", "budget", "income", "salary", "value", "estimate",
    "deposit", "rent", "balance",
];

/// Groups related short neighbours into rows, at every level of the tree
/// (item layouts of arrays included).
pub(crate) fn arrange(node: &mut Node) {
    match node {
        Node::Vertical { elements } | Node::Group { elements, .. } => {
            elements.iter_mut().for_each(arrange);
            *elements = rows(std::mem::take(elements));
        }
        Node::Steps { steps } => {
            for step in steps {
                step.elements.iter_mut().for_each(arrange);
                step.elements = rows(std::mem::take(&mut step.elements));
            }
        }
        Node::Horizontal { .. } | Node::Table(_) => {}
        Node::Control(control) => {
            if let Some(detail) = control.detail.as_deref_mut() {
                arrange(detail);
            }
        }
    }
}

/// One column: every row's fields stacked in place, at every level.
pub(crate) fn single_column(node: &mut Node) {
    let flatten = |elements: &mut Vec<Node>| {
        let mut out = Vec::with_capacity(elements.len());
        for mut element in std::mem::take(elements) {
            single_column(&mut element);
            match element {
                Node::Horizontal { elements } => out.extend(elements),
                other => out.push(other),
            }
        }
        *elements = out;
    };
    match node {
        Node::Vertical { elements }
        | Node::Group { elements, .. }
        | Node::Horizontal { elements } => flatten(elements),
        Node::Steps { steps } => steps.iter_mut().for_each(|s| flatten(&mut s.elements)),
        Node::Table(_) => {}
        Node::Control(control) => {
            if let Some(detail) = control.detail.as_deref_mut() {
                single_column(detail);
                if let Node::Horizontal { elements } = detail {
                    *detail = Node::Vertical {
                        elements: std::mem::take(elements),
                    };
                }
            }
        }
    }
}

fn rows(elements: Vec<Node>) -> Vec<Node> {
    pair_lone_neighbours(related_rows(elements))
}

/// Lone neighbours of one input kind share a row of two (see
/// [`InputKind`]): a form's short inputs in two columns, as designers lay
/// out an employee's name beside the week they give their hours for, or a
/// billing email beside a VAT number. Rows of related fields come first.
fn pair_lone_neighbours(elements: Vec<Node>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(elements.len());
    let mut waiting: Option<(Node, InputKind)> = None;
    for element in elements {
        let kind = match &element {
            Node::Control(control) => InputKind::of(control),
            _ => None,
        };
        match (waiting.take(), kind) {
            (Some((lone, was)), Some(kind)) if was == kind => out.push(Node::Horizontal {
                elements: vec![lone, element],
            }),
            (previous, Some(kind)) => {
                out.extend(previous.map(|(node, _)| node));
                waiting = Some((element, kind));
            }
            (previous, None) => {
                out.extend(previous.map(|(node, _)| node));
                out.push(element);
            }
        }
    }
    out.extend(waiting.map(|(node, _)| node));
    out
}

/// The kinds of one-line input that read well two to a row. A date or
/// time picker, a drop-down and a short group of choices are as wide as a
/// line of text, so they are one kind; numbers are the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InputKind {
    Line,
    Number,
}

impl InputKind {
    fn of(control: &Control) -> Option<Self> {
        if control.detail.is_some() {
            return None;
        }
        match control.widget {
            Widget::Text
            | Widget::Email
            | Widget::Date
            | Widget::DateTime
            | Widget::Time
            | Widget::Select
            | Widget::Radio => Some(InputKind::Line),
            Widget::Number | Widget::Integer => Some(InputKind::Number),
            _ => None,
        }
    }
}

fn related_rows(elements: Vec<Node>) -> Vec<Node> {
    // Each short control's words once: a control is tied to the one before
    // it and, looking ahead, to the one after it.
    let words: Vec<Option<Words>> = elements.iter().map(Words::of_short).collect();
    let tie_at = |at: usize, pair_only: bool| {
        let neighbour = |i: usize| (&elements[i], &words[i]);
        tie(neighbour(at - 1), neighbour(at), pair_only)
    };
    let mut run_len = 0;
    let joins: Vec<bool> = (0..elements.len())
        .map(|at| {
            let starts_at = at == 0 || !(1..MAX_ROW).contains(&run_len);
            let joins = !starts_at && {
                let here = tie_at(at, run_len == 1);
                // A looser tie gives way to a closer one after it
                // (`company_name`, `registration_number`, `vat_number`: the
                // two numbers share the row).
                let closer_after =
                    at + 1 < elements.len() && here < Tie::Close && tie_at(at + 1, true) > here;
                here > Tie::None && !closer_after
            };
            run_len = if joins { run_len + 1 } else { 1 };
            joins
        })
        .collect();
    let mut out: Vec<Node> = Vec::with_capacity(elements.len());
    let mut run: Vec<Node> = Vec::new();
    for (element, joins) in elements.into_iter().zip(joins) {
        if !joins {
            flush(&mut run, &mut out);
        }
        run.push(element);
    }
    flush(&mut run, &mut out);
    out
}

fn flush(run: &mut Vec<Node>, out: &mut Vec<Node>) {
    match run.len() {
        0 => {}
        1 => out.append(run),
        _ => out.push(Node::Horizontal {
            elements: std::mem::take(run),
        }),
    }
}

/// How closely two neighbouring controls are tied, loosest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tie {
    None,
    /// Two choices, or two inputs about one subject.
    Loose,
    /// A shared first word, or two reference numbers.
    Named,
    /// A known pair of words, an amount and its currency, a date and its time.
    Close,
}

/// A short control's name and label as singular words: what every
/// relation of [`tie`] reads.
struct Words {
    name: Vec<String>,
    label: Vec<String>,
}

impl Words {
    /// The words of `node` when it is a control short enough to share a row.
    fn of_short(node: &Node) -> Option<Self> {
        match node {
            Node::Control(control) if is_short(control) => Some(Self {
                name: stems(&name_of(control)),
                label: stems(&control.label),
            }),
            _ => None,
        }
    }
}

/// How two neighbouring nodes are tied, for sharing a row; their words
/// are [`Words::of_short`]'s. `pair_only`: `a` stands alone so far, and
/// the looser ties (a shared first word, two choices) may start a row of
/// two.
fn tie((a, wa): (&Node, &Option<Words>), (b, wb): (&Node, &Option<Words>), pair_only: bool) -> Tie {
    let (Node::Control(a), Node::Control(b)) = (a, b) else {
        return Tie::None;
    };
    if switch_and_its_number(a, (b, wb)) {
        return Tie::Close;
    }
    let (Some(wa), Some(wb)) = (wa, wb) else {
        return Tie::None;
    };
    let by_name = |related: fn(&[String], &[String]) -> bool| {
        related(&wa.name, &wb.name) || related(&wa.label, &wb.label)
    };
    if by_name(same_family)
        || by_name(amount_and_currency)
        || date_and_time(a, b)
        || (is_moment(a) && by_name(|_, later| is_duration(later)))
        || (is_moment(a) && is_number(b) && by_name(|_, later| counts_time(later)))
    {
        Tie::Close
    } else if !pair_only {
        Tie::None
    } else if by_name(shared_head) || by_name(two_numbers) {
        Tie::Named
    } else if both_choices(a, b) || (same_input(a, b) && by_name(shared_word)) {
        Tie::Loose
    } else {
        Tie::None
    }
}

/// Whether two neighbouring controls are a known pair (first/last name,
/// start/end, make/model, an amount and its currency, a date and its
/// time): sectioning keeps such a pair in one section.
pub(super) fn is_known_pair(a: &Node, b: &Node) -> bool {
    let (wa, wb) = (Words::of_short(a), Words::of_short(b));
    tie((a, &wa), (b, &wb), false) == Tie::Close
}

/// Two inputs of one kind: both numbers, or both one-line text.
fn same_input(a: &Control, b: &Control) -> bool {
    let kind = |c: &Control| match c.widget {
        Widget::Number | Widget::Integer => 1,
        Widget::Text => 2,
        _ => 0,
    };
    kind(a) != 0 && kind(a) == kind(b)
}

/// Two names, three words or more between them, that share a word which
/// says what they are about (`travellers`, `oldest_traveller_age`),
/// measuring words aside. A shared last word is a kind of value
/// (`overall_rating`, `venue_rating`), not one subject.
fn shared_word(wa: &[String], wb: &[String]) -> bool {
    let subject = |w: &String| {
        w.len() > 2
            && !NOISE.contains(&w.as_str())
            && wb.contains(w)
            && !(wa.last() == Some(w) && wb.last() == Some(w))
    };
    wa.len() + wb.len() >= 3 && wa.iter().any(subject)
}

/// Words that end the name of a reference number (`vat_number`,
/// `registration_no`, `policy_id`).
const NUMBER_WORDS: [&str; 4] = ["number", "no", "nr", "id"];

/// Two reference numbers of different things (`registration_number`,
/// `vat_number`; `insurance_provider` is not one): short codes typed from a
/// document, read well side by side.
fn two_numbers(wa: &[String], wb: &[String]) -> bool {
    let number = |ws: &[String]| {
        ws.len() >= 2
            && ws
                .last()
                .is_some_and(|w| NUMBER_WORDS.contains(&w.as_str()))
    };
    number(wa) && number(wb) && wa != wb
}

/// A day, then a time of that day (`date`, `start_time`).
fn date_and_time(a: &Control, b: &Control) -> bool {
    a.widget == Widget::Date && b.widget == Widget::Time
}

/// A date or a time: the start of something whose length may follow it.
fn is_moment(control: &Control) -> bool {
    matches!(
        control.widget,
        Widget::Date | Widget::Time | Widget::DateTime
    )
}

/// Words for how long something lasts, after its start (`start_time`,
/// `duration_minutes`).
fn is_duration(words: &[String]) -> bool {
    words.iter().any(|w| w == "duration")
}

/// Units of time a count of them says how long something lasts in
/// (`min_stay_months`, `nights`, `notice_weeks`).
const TIME_UNITS: [&str; 6] = ["minute", "hour", "day", "night", "week", "month"];

/// A number counted in a unit of time, after a moment: how long it lasts.
fn counts_time(words: &[String]) -> bool {
    words
        .last()
        .is_some_and(|w| TIME_UNITS.contains(&w.as_str()))
}

fn is_number(control: &Control) -> bool {
    matches!(control.widget, Widget::Number | Widget::Integer)
}

/// A switch and the number it turns on, named after it (`autoLock`,
/// `autoLockDelaySeconds`): the number is read beside its switch.
/// A switch without a name of words (`_`) names no number.
fn switch_and_its_number(a: &Control, (b, wb): (&Control, &Option<Words>)) -> bool {
    // A number without detail is short, so its words are read already.
    let (Widget::Checkbox, Some(wb), true) = (a.widget, wb, is_number(b)) else {
        return false;
    };
    let switch = stems(&name_of(a));
    !switch.is_empty() && wb.name.len() > switch.len() && wb.name.starts_with(&switch)
}

/// Two short choices (drop-downs or small radio groups) read well side by side.
fn both_choices(a: &Control, b: &Control) -> bool {
    let choice = |c: &Control| matches!(c.widget, Widget::Select | Widget::Radio);
    choice(a) && choice(b)
}

/// One-line inputs that fit in a third of a form's width.
fn is_short(control: &Control) -> bool {
    control.detail.is_none()
        && matches!(
            control.widget,
            Widget::Text
                | Widget::Email
                | Widget::Number
                | Widget::Integer
                | Widget::Select
                | Widget::Radio
                | Widget::Slider
                | Widget::Date
                | Widget::DateTime
                | Widget::Time
        )
}

fn name_of(control: &Control) -> String {
    crate::pointer::unescape(control.pointer.rsplit('/').next().unwrap_or_default())
}

/// The words of a name, singular.
fn stems(name: &str) -> Vec<String> {
    words(name)
        .iter()
        .map(|w| crate::text::singular(w).to_owned())
        .collect()
}

/// Same family, different member words, same remaining words. Runs for
/// every neighbouring pair of every form: the word lists are only built
/// for a family both names have members of.
fn same_family(wa: &[String], wb: &[String]) -> bool {
    FAMILIES.iter().any(|family| {
        let member = |w: &&String| family.contains(&w.as_str());
        let key = |w: &&String| member(w) && *w != "name";
        if !wa.iter().any(|w| key(&w)) || !wb.iter().any(|w| key(&w)) {
            return false;
        }
        let rest = |ws: &[String]| {
            ws.iter()
                .filter(|w| !member(w) && !NOISE.contains(&w.as_str()))
                .cloned()
                .collect::<Vec<_>>()
        };
        !wa.iter().filter(key).eq(wb.iter().filter(key)) && nested(&rest(wa), &rest(wb))
    })
}

/// One list of words holds the other (`product` and nothing, for
/// `product_model`/`serial_number`; `date` and `date`).
fn nested(a: &[String], b: &[String]) -> bool {
    let within = |small: &[String], large: &[String]| small.iter().all(|w| large.contains(w));
    within(a, b) || within(b, a)
}

/// An amount of money, then its currency.
fn amount_and_currency(wa: &[String], wb: &[String]) -> bool {
    wa.iter().any(|w| AMOUNTS.contains(&w.as_str())) && wb.iter().any(|w| w == "currency")
}

/// Two names that share their first word and differ after it
/// (`dns_primary`/`dns_secondary`, `wifi_ssid`/`wifi_password`).
fn shared_head(wa: &[String], wb: &[String]) -> bool {
    wa.len() >= 2 && wb.len() >= 2 && wa[0] == wb[0] && wa[1..] != wb[1..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(name: &str, widget: Widget) -> Node {
        Node::Control(Control::new(format!("/properties/{name}"), name, widget))
    }

    fn shape(node: &Node) -> String {
        match node {
            Node::Vertical { elements } => elements.iter().map(shape).collect::<Vec<_>>().join(" "),
            Node::Horizontal { elements } => format!(
                "[{}]",
                elements.iter().map(shape).collect::<Vec<_>>().join(" ")
            ),
            Node::Control(c) => c.label.clone(),
            _ => "?".into(),
        }
    }

    fn arranged(fields: &[(&str, Widget)]) -> String {
        let mut node = Node::Vertical {
            elements: fields.iter().map(|(n, w)| control(n, *w)).collect(),
        };
        arrange(&mut node);
        shape(&node)
    }

    #[test]
    fn pairs_related_short_fields() {
        use Widget::*;
        assert_eq!(
            arranged(&[("firstName", Text), ("lastName", Text), ("email", Email)]),
            "[firstName lastName] email"
        );
        assert_eq!(
            arranged(&[
                ("street", Text),
                ("city", Text),
                ("postalCode", Text),
                ("state", Select)
            ]),
            "street [city postalCode state]"
        );
        assert_eq!(
            arranged(&[("startDate", Date), ("endDate", Date)]),
            "[startDate endDate]"
        );
        assert_eq!(
            arranged(&[
                ("minPrice", Number),
                ("maxPrice", Number),
                ("latitude", Number),
                ("longitude", Number)
            ]),
            "[minPrice maxPrice] [latitude longitude]"
        );
        assert_eq!(
            arranged(&[("given_name", Text), ("family_name", Text)]),
            "[given_name family_name]"
        );
    }

    #[test]
    fn pairs_known_from_their_words() {
        use Widget::*;
        assert_eq!(
            arranged(&[
                ("direccion", Text),
                ("ciudad", Text),
                ("codigo_postal", Text)
            ]),
            "direccion [ciudad codigo_postal]",
            "the pairs of forms in other languages"
        );
        assert_eq!(
            arranged(&[
                ("start_time", Time),
                ("duration_minutes", Integer),
                ("notes", Textarea)
            ]),
            "[start_time duration_minutes] notes"
        );
        assert_eq!(
            arranged(&[
                ("available_from", Date),
                ("min_stay_months", Integer),
                ("notes", Textarea)
            ]),
            "[available_from min_stay_months] notes",
            "a count of a unit of time after a moment is how long it lasts"
        );
        assert_eq!(
            arranged(&[
                ("systolic", Integer),
                ("diastolic", Integer),
                ("pulse", Integer)
            ]),
            "[systolic diastolic] pulse"
        );
        assert_eq!(
            arranged(&[("make", Text), ("model", Text), ("colour", Text)]),
            "[make model] colour"
        );
        assert_eq!(
            arranged(&[("annual_income", Number), ("monthly_expenses", Number)]),
            "[annual_income monthly_expenses]"
        );
        assert_eq!(
            arranged(&[("language", Select), ("timezone", Text)]),
            "[language timezone]"
        );
        assert_eq!(
            arranged(&[
                ("registration_number", Text),
                ("vat_number", Text),
                ("city", Text)
            ]),
            "[registration_number vat_number] city"
        );
        assert_eq!(
            arranged(&[
                ("priority", Select),
                ("registration_number", Select),
                ("vat_number", Text)
            ]),
            "priority [registration_number vat_number]",
            "two choices give way to two reference numbers after them"
        );
        assert_eq!(
            arranged(&[("product_model", Text), ("serial_number", Text)]),
            "[product_model serial_number]"
        );
        assert_eq!(
            arranged(&[("postcode", Text), ("radius_miles", Select)]),
            "[postcode radius_miles]"
        );
        assert_eq!(
            arranged(&[("travellers", Integer), ("oldest_traveller_age", Integer)]),
            "[travellers oldest_traveller_age]"
        );
        assert_eq!(
            arranged(&[("date_of_birth", Date), ("sex", Radio), ("phone", Text)]),
            "[date_of_birth sex] phone"
        );
        assert_eq!(
            arranged(&[("insurance_provider", Text), ("policy_number", Text)]),
            "[insurance_provider policy_number]"
        );
        assert_eq!(
            arranged(&[("display_name", Text), ("username", Text)]),
            "[display_name username]"
        );
        assert_eq!(
            arranged(&[("overall_rating", Integer), ("venue_rating", Radio)]),
            "overall_rating venue_rating"
        );
    }

    #[test]
    fn leaves_long_or_unrelated_fields_alone() {
        use Widget::*;
        assert_eq!(
            arranged(&[("firstName", Text), ("lastName", Textarea)]),
            "firstName lastName"
        );
        assert_eq!(
            arranged(&[("startDate", Date), ("title", Text), ("endDate", Date)]),
            "[startDate title] endDate",
            "no start and end across a field between them"
        );
        assert_eq!(
            arranged(&[("minAge", Integer), ("city", Text)]),
            "minAge city"
        );
        assert_eq!(
            arranged(&[
                ("day", Integer),
                ("month", Integer),
                ("year", Integer),
                ("width", Integer)
            ]),
            "[day month year] width"
        );
    }

    #[test]
    fn lone_short_inputs_of_one_kind_share_a_row_of_two() {
        use Widget::*;
        assert_eq!(
            arranged(&[
                ("employee_name", Text),
                ("week_starting", Date),
                ("notes", Textarea)
            ]),
            "[employee_name week_starting] notes",
            "a line of text and a date are as wide"
        );
        assert_eq!(
            arranged(&[("guests", Integer), ("city", Text)]),
            "guests city",
            "a number and a text are of two kinds"
        );
        assert_eq!(
            arranged(&[
                ("billing_email", Email),
                ("vat_number", Text),
                ("query", Text),
                ("seats", Integer),
                ("priority", Select),
                ("category", Select)
            ]),
            "[billing_email vat_number] query seats [priority category]"
        );
        assert_eq!(
            arranged(&[
                ("first_name", Text),
                ("last_name", Text),
                ("email", Email),
                ("order_number", Text)
            ]),
            "[first_name last_name] [email order_number]",
            "related fields first, then the lone ones two by two"
        );
    }

    #[test]
    fn a_lone_choice_shares_a_row_with_a_lone_line_beside_it() {
        use Widget::*;
        assert_eq!(
            arranged(&[
                ("charger_name", Text),
                ("location", Radio),
                ("notes", Textarea)
            ]),
            "[charger_name location] notes"
        );
        assert_eq!(
            arranged(&[("issue_category", Select), ("started_on", Date)]),
            "[issue_category started_on]"
        );
        assert_eq!(
            arranged(&[("max_current", Integer), ("phase", Radio)]),
            "max_current phase",
            "a number and a choice are of two kinds"
        );
    }

    #[test]
    fn mobile_is_one_column() {
        let mut node = Node::Vertical {
            elements: vec![Node::Horizontal {
                elements: vec![control("a", Widget::Text), control("b", Widget::Text)],
            }],
        };
        single_column(&mut node);
        assert_eq!(shape(&node), "a b");
    }

    #[test]
    fn a_switch_shares_a_row_with_the_number_named_after_it() {
        use Widget::*;
        assert_eq!(
            arranged(&[("autoLock", Checkbox), ("autoLockDelaySeconds", Integer)]),
            "[autoLock autoLockDelaySeconds]"
        );
        assert_eq!(
            arranged(&[("autoLock", Checkbox), ("retries", Integer)]),
            "autoLock retries"
        );
        assert_eq!(
            arranged(&[("_", Checkbox), ("retries", Integer)]),
            "_ retries",
            "a switch named by no word names no number"
        );
    }

    #[test]
    fn species_and_breed_share_a_row() {
        use Widget::*;
        assert_eq!(
            arranged(&[("pet_name", Text), ("species", Radio), ("breed", Text)]),
            "pet_name [species breed]",
            "species is its own singular"
        );
    }
}
