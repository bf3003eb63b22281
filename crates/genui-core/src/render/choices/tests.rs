use super::*;
use serde_json::json;

fn en() -> Lang {
    Lang::default()
}

#[test]
fn labels_output_gives_win_over_every_rule() {
    let labeller = Labeller::new(
        FieldHints {
            name: "country",
            ..FieldHints::default()
        },
        [json!("GB")].iter(),
        en(),
    );
    assert_eq!(labeller.label(&json!("GB"), Some("Britain")), "Britain");
    assert_eq!(labeller.label(&json!("GB"), None), "United Kingdom");
    let choices = [(json!("GB"), Some("<b></b>".to_owned()))];
    let hints = FieldHints {
        name: "country",
        ..FieldHints::default()
    };
    assert_eq!(
        plain_choice_labels(hints, &choices, en()),
        ["GB"],
        "a given label with no text left shows the value"
    );
}

#[test]
fn mixed_values_keep_their_text() {
    let values = [json!("premium_economy"), json!(3), json!(null), json!(true)];
    let labeller = Labeller::new(FieldHints::default(), values.iter(), en());
    let labels: Vec<String> = values.iter().map(|v| labeller.label(v, None)).collect();
    assert_eq!(labels, ["Premium economy", "3", "null", "true"]);
}

#[test]
fn hostile_codes_are_never_turned_into_words_and_plain_labels_drop_markup() {
    let choices = [
        (json!("<img src=x onerror=alert(1)>"), None),
        (json!("a_b<script>x</script>"), None),
        (
            json!("card"),
            Some("Pay [x](javascript:alert(1))".to_owned()),
        ),
    ];
    let raw = choice_labels(FieldHints::default(), &choices, en());
    assert_eq!(
        raw[0], "<img src=x onerror=alert(1)>",
        "each format escapes it"
    );
    assert_eq!(raw[1], "a_b<script>x</script>");
    let plain = plain_choice_labels(FieldHints::default(), &choices, en());
    assert_eq!(plain, ["<img src=x onerror=alert(1)>", "a_b", "Pay x"]);
    let react = plain_labels_or_values(FieldHints::default(), &choices, en());
    assert_eq!(
        react,
        [
            "<img src=x onerror=alert(1)>",
            "a_b<script>x</script>",
            "Pay x"
        ]
    );
}

/// Every value the schema lists, and a few it must refuse, are accepted
/// or refused alike by `output` and by its labelled copy.
fn assert_same_values(output: &Value, labelled: &Value, samples: &[Value]) {
    let (original, copy) = (
        jsonschema::validator_for(output).unwrap(),
        jsonschema::validator_for(labelled).unwrap(),
    );
    for sample in samples {
        assert_eq!(
            original.is_valid(sample),
            copy.is_valid(sample),
            "{sample} in {labelled}"
        );
    }
}

#[test]
fn the_labelled_schema_accepts_exactly_what_output_accepts() {
    let output = json!({"type": "object", "properties": {
        "cabin": {"type": "string", "enum": ["economy", "premium_economy"]},
        "country": {"enum": ["GB", "NO"]},
        "tier": {"anyOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]},
        "tags": {"type": "array", "items": {"enum": ["gluten_free", "vegan"]}},
        "same": {"enum": ["a_b", "a_b"]},
        "mixed": {"enum": ["a_b", 1, null]},
        "nested": {"$ref": "#/$defs/size"},
        "named": {"enum": ["s", "l"], "x-enumNames": ["Small", "Large"]}
    }, "$defs": {"size": {"enum": ["x_small", "large"]}}});
    let labelled = labelled_schema(&output, en()).expect("labels added");
    let p = &labelled["properties"];
    assert_eq!(
        p["cabin"]["oneOf"],
        json!([{"const": "economy", "title": "Economy"}, {"const": "premium_economy", "title": "Premium economy"}])
    );
    assert_eq!(p["country"]["oneOf"][1]["title"], "Norway");
    assert!(p["tier"].get("anyOf").is_none() && p["tier"]["oneOf"].is_array());
    assert_eq!(p["tags"]["items"]["oneOf"][0]["title"], "Gluten free");
    assert_eq!(
        p["same"], output["properties"]["same"],
        "duplicates stay an enum"
    );
    assert_eq!(
        p["mixed"], output["properties"]["mixed"],
        "mixed types stay an enum"
    );
    assert_eq!(labelled["$defs"]["size"]["oneOf"][0]["title"], "X small");
    assert_eq!(
        p["named"]["oneOf"][1],
        json!({"const": "l", "title": "Large"})
    );
    let mut samples = vec![json!({}), json!({"cabin": "first"}), json!({"tier": "c"})];
    for (field, values) in [
        ("cabin", vec!["economy", "premium_economy", "Economy"]),
        ("country", vec!["GB", "NO", "United Kingdom"]),
        ("tier", vec!["a", "b", "A"]),
        ("same", vec!["a_b", "x"]),
        ("nested", vec!["x_small", "large", "X small"]),
    ] {
        for value in values {
            samples.push(json!({field: value}));
        }
    }
    samples.push(json!({"tags": ["vegan", "gluten_free"]}));
    samples.push(json!({"tags": ["Vegan"]}));
    assert_same_values(&output, &labelled, &samples);
}

#[test]
fn schemas_whose_options_read_as_they_are_stay_unchanged() {
    let output = json!({"properties": {
        "size": {"enum": ["S", "M", "XL"]},
        "n": {"enum": [1, 2]},
        "cabin": {"enum": ["Economy", "Business"]}
    }});
    assert_eq!(labelled_schema(&output, en()), None);
}

#[test]
fn a_thousand_options_are_labelled_and_more_are_left_alone() {
    let values: Vec<Value> = (0..1000).map(|i| json!(format!("option_{i}"))).collect();
    let output = json!({"properties": {"pick": {"enum": values}}});
    let labelled = labelled_schema(&output, en()).unwrap();
    assert_eq!(
        labelled["properties"]["pick"]["oneOf"][999]["title"],
        "Option 999"
    );
    let more: Vec<Value> = (0..1001).map(|i| json!(format!("option_{i}"))).collect();
    assert_eq!(labelled_schema(&json!({"enum": more}), en()), None);
    let choices: Vec<(Value, Option<String>)> = more.into_iter().map(|v| (v, None)).collect();
    let labels = choice_labels(FieldHints::default(), &choices, en());
    assert_eq!(
        labels[1000], "option_1000",
        "a search over 1,001 values is by value"
    );
}

#[test]
fn names_follow_the_forms_language() {
    let output = json!({"properties": {"currency": {"enum": ["EUR", "JPY"]}}});
    let de = labelled_schema(&output, Lang::pick(Some("de"))).unwrap();
    assert_eq!(
        de["properties"]["currency"]["oneOf"][1]["title"],
        "Japanischer Yen"
    );
}

/// The committed CLDR table is what `scripts/cldr/names.mjs` writes from
/// the npm packages (checked where `scripts/cldr/node_modules` is installed).
#[test]
fn the_committed_table_matches_the_generator() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/cldr");
    if !root.join("node_modules/cldr-localenames-full").exists() {
        eprintln!("skipped: run `npm install` in scripts/cldr to check the CLDR table");
        return;
    }
    let out = std::process::Command::new("node")
        .arg("names.mjs")
        .current_dir(&root)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let committed = include_str!("cldr_names.rs");
    assert!(
        String::from_utf8_lossy(&out.stdout) == committed,
        "cldr_names.rs differs from `node scripts/cldr/names.mjs`: regenerate it"
    );
}

#[test]
fn a_value_standing_for_any_or_none_keeps_a_field_from_being_a_code_list() {
    let output = json!({"type": "object", "properties": {
        "currency": {"enum": ["ALL", "EUR", "USD"]},
        "payout_currency": {"enum": ["EUR", "USD"]}
    }});
    let labelled = labelled_schema(&output, en()).expect("labels added");
    let p = &labelled["properties"];
    assert!(
        !p["currency"].to_string().contains("Lek"),
        "ALL is not the Albanian lek in a filter: {}",
        p["currency"]
    );
    assert_eq!(p["payout_currency"]["oneOf"][0]["title"], "Euro");
}

#[test]
fn values_equal_as_json_schema_compares_them_keep_their_any_of() {
    let stays = |consts: Value| {
        let branches: Vec<Value> = consts
            .as_array()
            .unwrap()
            .iter()
            .map(|c| json!({"const": c}))
            .collect();
        labelled_schema(&json!({"anyOf": branches}), en()).is_none()
    };
    assert!(stays(json!([1, 1.0])), "1 and 1.0 are one value");
    assert!(stays(json!([0.0, -0.0])), "0 and -0 are one value");
    assert!(
        stays(json!([{"a": 1, "b": [2]}, {"b": [2.0], "a": 1.0}])),
        "objects are equal whatever their keys' order"
    );
    assert!(
        stays(json!([
            9_007_199_254_740_993_u64,
            9_007_199_254_740_992_u64
        ])),
        "integers past 2^53 that one f64 holds are judged equal: kept as an anyOf, the safe side"
    );
    assert!(!stays(json!([1, 2, "1", [1], {"a": 1}])), "distinct values");
}

/// 20,000 `const`s (no option count bounds an `anyOf`) are told apart,
/// and a repeat at the very end is still found. Telling them apart is one
/// pass over a set: the cost is bench-wasm's worst input `1000-enum-values`
/// (comparing every pair took seconds here, in a debug build).
#[test]
fn many_options_are_told_apart_and_a_late_repeat_is_found() {
    let branches = |count: usize| -> Vec<Value> {
        (0..count)
            .map(|i| json!({"const": format!("value {i}")}))
            .collect()
    };
    let output = json!({"properties": {"pick": {"anyOf": branches(20_000)}}});
    let labelled = labelled_schema(&output, en()).expect("distinct consts become oneOf");
    assert_eq!(
        labelled["properties"]["pick"]["oneOf"][19_999]["const"],
        "value 19999"
    );
    // The first value again, last: not distinct, so the anyOf is kept as sent.
    let mut repeated = branches(20_000);
    repeated.push(json!({"const": "value 0"}));
    let output = json!({"properties": {"pick": {"anyOf": repeated}}});
    let kept = labelled_schema(&output, en());
    assert!(
        kept.as_ref()
            .is_none_or(|schema| schema["properties"]["pick"].get("oneOf").is_none()),
        "a repeated value keeps the anyOf"
    );
}
