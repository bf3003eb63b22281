//! The design measure over the development set (`tests/design/dev/`): the
//! references are sound, a plan laid out as a reference scores full marks
//! through the whole pipeline, and the deterministic generator does not fall
//! below its floors. `cargo run -p genui-core --example design_score`
//! writes the same figures, per case, to bench-results/design.md.

mod design;

use design::case::{dev_dir, load, Case};
use design::reference_plan::reference_plan;
use design::report::{cases_table, halves_table, Scored, Summary};
use design::rules::{echoes, looks_like_code};
use design::score::score;
use design::seen::{generated, planned};
use serde_json::Value;

/// The generator's figures may not fall below these: the deterministic
/// generator's figures (generator 1.12.0, on the first rounds' 72 tuning
/// and 18 held-out cases), rounded down (raise them as it improves).
/// Counts are ceilings; titles and leads are held at none echoing and none
/// missing. Tune against the tuning half only; the held-out half says
/// whether a change generalises. (Held-out section F1 fell from 0.701 to
/// 0.664 with generator 1.4.0's section rules, rose to 0.705 with 1.5.0's
/// and stayed there with 1.6.0's and 1.7.0's; 1.8.0's subject sections
/// lowered it to 0.677 while both newer held-out groups rose; 1.9.0's
/// rules raised it to 0.681 and its pairs from 20 to 21 of 30; 1.10.0's
/// to 0.688, where 1.12.0 leaves it (its wider lexicon leaves out words
/// that name other things in other domains, such as `tenure`, and words
/// only held-out cases use): see bench-results/design.md.
/// The held-out floors record where
/// it stands, they are not targets. The raw labels left are codes no rule
/// can read, such as course codes (`CS101`) and warehouse codes (`LON1`).)
struct Floor {
    section_f1: f64,
    rows_percent: f64,
    order: f64,
    raw_labels: usize,
    title_echoes: usize,
    titles_missing: usize,
    lead_echoes: usize,
}

const TUNING_FLOOR: Floor = Floor {
    section_f1: 0.824,
    rows_percent: 93.0,
    order: 0.964,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};
const HELD_OUT_FLOOR: Floor = Floor {
    section_f1: 0.687,
    rows_percent: 69.9,
    order: 0.910,
    raw_labels: 3,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};

/// The cases added for generator 1.7.0 (`"addedFor": "1.7.0"`), half of
/// them held out, with floors of their own: their held-out group tells
/// whether 1.7.0's rules generalise, since the older held-out half was read
/// after three rounds of tuning. Generator 1.6.0 on them: tuning 0.632,
/// 18/22 pairs, 2 raw labels; held out 0.552, 26/29 pairs, 9 raw labels.
/// Generator 1.7.0: tuning 0.757, 21/22 pairs; held out unchanged.
/// Generator 1.8.0: held out 0.591, the rest unchanged. Generator 1.9.0:
/// held out 0.619, the rest unchanged. Generator 1.10.0: tuning 0.766, no
/// raw label left; held out 0.614 (its closing-note and switch rules
/// lowered one case). Generator 1.12.0: tuning 0.787; held out 0.683, its
/// order 0.970 to 0.962.
const NEW_TUNING_FLOOR: Floor = Floor {
    section_f1: 0.786,
    rows_percent: 95.4,
    order: 1.0,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};
const NEW_HELD_OUT_FLOOR: Floor = Floor {
    section_f1: 0.678,
    rows_percent: 89.6,
    order: 0.962,
    raw_labels: 9,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};

/// The cases added for generator 1.8.0 (`"addedFor": "1.8.0"`): forms
/// laid out by subject (sender and recipient, buyer and seller, current
/// and new position) and forms whose prefixes are no subjects (`min_`,
/// `is_`, `start_`), half of them held out. Generator 1.7.0 on them:
/// tuning 0.626, 22/26 pairs; held out 0.651, 24/28 pairs. Generator
/// 1.8.0: tuning 0.914, 24/26; held out 0.778, 24/28. Generator 1.12.0:
/// tuning 0.954, held out 0.790.
const TUNING_1_8_FLOOR: Floor = Floor {
    section_f1: 0.953,
    rows_percent: 92.3,
    order: 1.0,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};
const HELD_OUT_1_8_FLOOR: Floor = Floor {
    section_f1: 0.781,
    rows_percent: 85.7,
    order: 0.985,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};

/// The cases added for generator 1.9.0 (`"addedFor": "1.9.0"`): domains
/// and shapes the set had few of (stock, data protection, releases, pet
/// adoption, Likert surveys, intake with a medications array, a device
/// ticket, sessions with an optional hotel, an EV charger named by titles,
/// a travel request, a Spanish and a French form), half of them held out.
/// Generator 1.8.0 on them: tuning 0.732, 17/22 pairs; held out 0.797,
/// 22/23. Generator 1.9.0: tuning 0.763, 21/22; held out unchanged.
/// Generator 1.10.0: tuning 0.796, held out 0.831. Generator 1.12.0: held
/// out 0.826.
const TUNING_1_9_FLOOR: Floor = Floor {
    section_f1: 0.795,
    rows_percent: 95.4,
    order: 1.0,
    raw_labels: 3,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};
const HELD_OUT_1_9_FLOOR: Floor = Floor {
    section_f1: 0.825,
    rows_percent: 95.6,
    order: 1.0,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};

/// The cases added for generator 1.10.0 (`"addedFor": "1.10.0"`): an
/// overtime approval, an air quality monitor, a symptom check-in, a new
/// starter's equipment, an interview to schedule and a remote working
/// survey, every other one held out (chosen before any was scored).
/// Generator 1.9.0 on them: tuning 0.691, 7/9 pairs; held out 0.534, 6/8.
/// Generator 1.10.0: tuning 0.771, 7/9; held out 0.525, 6/8. Generator
/// 1.12.0: held out 0.601.
const TUNING_1_10_FLOOR: Floor = Floor {
    section_f1: 0.770,
    rows_percent: 77.7,
    order: 1.0,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};
const HELD_OUT_1_10_FLOOR: Floor = Floor {
    section_f1: 0.600,
    rows_percent: 75.0,
    order: 1.0,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};

/// The cases added for generator 1.12.0 (`"addedFor": "1.12.0"`): domains
/// the set lacked (a home insurance quote, single sign-on for a workspace,
/// an NDA request, an email campaign, a pallet collection, all held out; a
/// home valuation, a smart plug, a specialist referral, an employee leaving
/// and a school class for tuning), references written before any was
/// scored. Generator 1.11.0 on them: tuning 0.663, 18/19 pairs; held out
/// 0.699, 9/10. Generator 1.12.0: tuning 0.753, 18/19; held out 0.712, 9/10.
const TUNING_1_12_FLOOR: Floor = Floor {
    section_f1: 0.786,
    rows_percent: 94.7,
    order: 0.979,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};
const HELD_OUT_1_12_FLOOR: Floor = Floor {
    section_f1: 0.673,
    rows_percent: 90.0,
    order: 1.0,
    raw_labels: 0,
    title_echoes: 0,
    titles_missing: 0,
    lead_echoes: 0,
};

const DOMAINS: [&str; 20] = [
    "travel",
    "finance",
    "hr",
    "support",
    "settings",
    "commerce",
    "health",
    "events",
    "scheduling",
    "search",
    "surveys",
    "sign-up",
    "iot",
    "approvals",
    "insurance",
    "legal",
    "marketing",
    "logistics",
    "real-estate",
    "education",
];

fn cases() -> Vec<Case> {
    load(&dev_dir())
}

/// The fields a reference must list: each property through plain nested
/// objects; arrays and scalars are one field each.
fn schema_fields(schema: &Value, at: &str, out: &mut Vec<String>) {
    match schema["properties"].as_object() {
        Some(properties) if schema["type"] == "object" => {
            for (name, sub) in properties {
                schema_fields(sub, &format!("{at}/properties/{name}"), out);
            }
        }
        _ => out.push(at.to_owned()),
    }
}

fn string_enums(schema: &Value, at: &str, out: &mut Vec<(String, Vec<String>)>) {
    if let Some(values) = schema["enum"].as_array() {
        let strings: Vec<String> = values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        if !strings.is_empty() {
            out.push((at.to_owned(), strings));
        }
    }
    for (name, sub) in schema["properties"].as_object().into_iter().flatten() {
        string_enums(sub, &format!("{at}/properties/{name}"), out);
    }
    if schema["items"].is_object() {
        string_enums(&schema["items"], &format!("{at}/items"), out);
    }
}

fn check_reference(case: &Case) {
    let name = &case.name;
    let reference = &case.reference;
    let mut expected = Vec::new();
    schema_fields(case.output(), "", &mut expected);
    let mut listed: Vec<String> = reference.fields().iter().map(|f| f.to_string()).collect();
    listed.sort();
    expected.sort();
    assert_eq!(
        listed, expected,
        "{name}: the reference lists every field of `output` exactly once"
    );
    for row in &reference.rows {
        assert!(row.len() >= 2, "{name}: a row of one field {row:?}");
        let section = reference.section_of(&row[0]);
        assert!(
            section.is_some() && row.iter().all(|f| reference.section_of(f) == section),
            "{name}: row {row:?} is not within one section"
        );
    }
    let mut enums = Vec::new();
    string_enums(case.output(), "", &mut enums);
    for (pointer, labels) in &reference.labels {
        let values = enums.iter().find(|(p, _)| p == pointer).map(|(_, v)| v);
        let mut keys: Vec<&String> = labels.keys().collect();
        let mut values: Vec<&String> = values
            .unwrap_or_else(|| panic!("{name}: labels for {pointer}, which has no enum"))
            .iter()
            .collect();
        keys.sort();
        values.sort();
        assert_eq!(
            keys, values,
            "{name}: labels at {pointer} name exactly the enum's values"
        );
        for (value, label) in labels {
            assert!(
                !label.trim().is_empty(),
                "{name}: {pointer} {value} has an empty label"
            );
        }
    }
    for (pointer, values) in &enums {
        for value in values.iter().filter(|v| looks_like_code(v)) {
            assert!(
                reference.label(pointer, value).is_some(),
                "{name}: the code {value:?} at {pointer} has no reference label"
            );
        }
    }
    assert!(
        !echoes(&reference.title, case.description()),
        "{name}: the reference title echoes the request"
    );
    if let Some(lead) = &reference.lead {
        assert!(
            !echoes(lead, case.description()),
            "{name}: the reference lead echoes the request"
        );
    }
}

#[test]
fn the_development_set_is_sound() {
    let cases = cases();
    assert!(
        cases.len() >= 40,
        "the development set shrank to {}",
        cases.len()
    );
    let held_out = cases.iter().filter(|c| c.held_out).count();
    assert!(
        held_out * 5 >= cases.len() && held_out * 5 <= cases.len() * 2,
        "{held_out} of {} held out: between a fifth and two fifths",
        cases.len()
    );
    for domain in DOMAINS {
        assert!(
            cases.iter().any(|c| c.domain == domain),
            "no case in {domain}"
        );
    }
    for case in &cases {
        assert!(
            DOMAINS.contains(&case.domain.as_str()),
            "{}: unknown domain {}",
            case.name,
            case.domain
        );
    }
    for name in [
        "flight-search",
        "expense-report",
        "notification-settings",
        "address-form",
    ] {
        assert!(
            cases.iter().any(|c| c.name == name && !c.held_out),
            "{name} is a tuning case"
        );
    }
    cases.iter().for_each(check_reference);
}

#[test]
fn a_plan_laid_out_as_the_reference_scores_full_layout_marks() {
    for case in cases() {
        let plan = reference_plan(&case, &generated(&case).plan);
        let scores = score(&case, &planned(&case, &plan));
        assert_eq!(scores.section_f1, 1.0, "{}: {scores:?}", case.name);
        assert_eq!(
            (scores.row_pairs_kept, scores.extra_row_pairs),
            (scores.row_pairs, 0),
            "{}: {scores:?}",
            case.name
        );
        assert_eq!(scores.order(), 1.0, "{}: {scores:?}", case.name);
        assert_eq!(scores.missing_fields, 0, "{}", case.name);
        assert!(
            !scores.title_echoes && !scores.title_missing,
            "{}",
            case.name
        );
    }
}

#[test]
fn the_deterministic_generator_holds_its_floors() {
    let scored: Vec<Scored> = cases()
        .iter()
        .map(|case| Scored::new(case, &generated(case)))
        .collect();
    println!("{}\n{}", cases_table(&scored), halves_table(&scored));
    for (half, held_out, round, floor) in [
        ("tuning", false, None, TUNING_FLOOR),
        ("held out", true, None, HELD_OUT_FLOOR),
        (
            "tuning, added for 1.7.0",
            false,
            Some("1.7.0"),
            NEW_TUNING_FLOOR,
        ),
        (
            "held out, added for 1.7.0",
            true,
            Some("1.7.0"),
            NEW_HELD_OUT_FLOOR,
        ),
        (
            "tuning, added for 1.8.0",
            false,
            Some("1.8.0"),
            TUNING_1_8_FLOOR,
        ),
        (
            "held out, added for 1.8.0",
            true,
            Some("1.8.0"),
            HELD_OUT_1_8_FLOOR,
        ),
        (
            "tuning, added for 1.9.0",
            false,
            Some("1.9.0"),
            TUNING_1_9_FLOOR,
        ),
        (
            "held out, added for 1.9.0",
            true,
            Some("1.9.0"),
            HELD_OUT_1_9_FLOOR,
        ),
        (
            "tuning, added for 1.10.0",
            false,
            Some("1.10.0"),
            TUNING_1_10_FLOOR,
        ),
        (
            "held out, added for 1.10.0",
            true,
            Some("1.10.0"),
            HELD_OUT_1_10_FLOOR,
        ),
        (
            "tuning, added for 1.12.0",
            false,
            Some("1.12.0"),
            TUNING_1_12_FLOOR,
        ),
        (
            "held out, added for 1.12.0",
            true,
            Some("1.12.0"),
            HELD_OUT_1_12_FLOOR,
        ),
    ] {
        let s = Summary::of_round(&scored, held_out, round);
        println!(
            "{half}: section F1 {:.5}, side by side {:.3} %, order {:.5}",
            s.mean_section_f1,
            s.rows_percent(),
            s.order()
        );
        assert!(
            s.mean_section_f1 >= floor.section_f1,
            "{half}: section F1 {:.3} < {}",
            s.mean_section_f1,
            floor.section_f1
        );
        assert!(
            s.rows_percent() >= floor.rows_percent,
            "{half}: side-by-side {:.1} % < {}",
            s.rows_percent(),
            floor.rows_percent
        );
        assert!(
            s.order() >= floor.order,
            "{half}: order {:.3} < {}",
            s.order(),
            floor.order
        );
        assert!(
            s.raw_labels <= floor.raw_labels,
            "{half}: {} raw option labels > {}",
            s.raw_labels,
            floor.raw_labels
        );
        assert!(
            s.title_echoes <= floor.title_echoes,
            "{half}: {} echoing titles > {}",
            s.title_echoes,
            floor.title_echoes
        );
        assert!(
            s.titles_missing <= floor.titles_missing,
            "{half}: {} forms without a title > {}",
            s.titles_missing,
            floor.titles_missing
        );
        assert!(
            s.lead_echoes <= floor.lead_echoes,
            "{half}: {} echoing leads > {}",
            s.lead_echoes,
            floor.lead_echoes
        );
        assert_eq!(s.missing_fields, 0, "{half}: every field has a control");
    }
}
