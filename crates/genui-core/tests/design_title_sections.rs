//! The generator's title for the person never names one of the form's own
//! sections: a request that reads as "Event" titles a form about an event,
//! but a form with a section for the person and one for the event is not
//! about "Event".

use genui_core::{Limits, Plan};
use serde_json::json;

#[test]
fn a_derived_title_that_names_one_of_several_sections_is_not_shown() {
    let output = json!({
        "type": "object",
        "properties": {
            "firstName": {"type": "string"},
            "lastName": {"type": "string"},
            "email": {"type": "string", "format": "email"},
            "phone": {"type": "string"},
            "venue": {"type": "string"},
            "eventDate": {"type": "string", "format": "date"},
            "startTime": {"type": "string", "format": "time"},
            "endTime": {"type": "string", "format": "time"}
        }
    });
    let plan = Plan::generate(&output, "Event", false, &Limits::default()).unwrap();
    assert_eq!(plan.title, None, "{plan:?}");
    let with_schema_title =
        json!({"title": "Contact", "type": "object", "properties": output["properties"]});
    let plan = Plan::generate(&with_schema_title, "Contact", false, &Limits::default()).unwrap();
    assert_eq!(
        plan.title.as_deref(),
        Some("Contact"),
        "output's own title wins"
    );
    let flat = json!({"type": "object", "properties": {"email": {"type": "string"}}});
    let plan = Plan::generate(&flat, "Contact", false, &Limits::default()).unwrap();
    assert_eq!(
        plan.title.as_deref(),
        Some("Contact"),
        "a flat form has no sections"
    );
}
