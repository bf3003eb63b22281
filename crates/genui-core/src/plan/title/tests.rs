use super::*;

#[test]
fn a_title_echoes_when_it_opens_like_the_agent() {
    let request = "Ask the user for their flight search criteria";
    assert!(echoes(request, request));
    assert!(echoes("Ask for flight details", request));
    assert!(echoes(
        "Please provide your flight details",
        "Collect the flight"
    ));
    assert!(echoes("I need your trip", "Collect the trip"));
    assert!(!echoes("Search flights", request));
    // "Request a refund" speaks to the user; the request opened with "get".
    assert!(!echoes(
        "Request a refund",
        "Get the details of the customer's refund request"
    ));
    assert!(echoes(
        "Get refund details",
        "Get the details of the customer's refund request"
    ));
    assert!(
        !echoes("Create your account", "Ask the user to create an account"),
        "2 of 4 content words is not more than half"
    );
}

#[test]
fn a_title_echoes_when_it_repeats_most_content_words() {
    let request = "Ask the user for their flight search criteria";
    assert!(
        echoes("Flight search criteria of the user", request),
        "4 of 5"
    );
    assert!(echoes("Flight search criteria", request), "3 of 5");
    assert!(!echoes("Flight search", request), "2 of 5");
    assert!(echoes("The user's flight search criteria", request));
    assert!(!echoes("", request));
    assert!(!echoes("Where and when would you like to fly?", request));
}

fn title(description: &str) -> Option<String> {
    derived_title(description)
}

#[test]
fn the_title_is_the_noun_phrase_the_request_asks_about() {
    for (request, expected) in [
        (
            "Ask the user for their flight search criteria",
            "Flight search",
        ),
        (
            "Let the user change their notification preferences",
            "Notification preferences",
        ),
        (
            "Collect the user's notification settings.",
            "Notification settings",
        ),
        (
            "Let the user set up a bank transfer to a new payee",
            "Bank transfer",
        ),
        (
            "Have the admin review the access request and decide on it",
            "Access request",
        ),
        (
            "Have the user file a bug report for the mobile app",
            "Bug report",
        ),
        (
            "Ask the manager to approve or reject this purchase request",
            "Purchase request",
        ),
        (
            "I need the user's trip details to quote travel insurance",
            "Trip details",
        ),
        (
            "Please ask the customer how their support experience was",
            "Support experience feedback",
        ),
        (
            "Collect the hotel booking details from the user so I can reserve a room",
            "Hotel booking",
        ),
        (
            "Get the customer's name and postal address",
            "Postal address",
        ),
        (
            "Ask the user how they want their thermostat configured",
            "Thermostat",
        ),
        (
            "Ask the user what kind of apartment they are looking for",
            "Apartment",
        ),
        (
            "Ask the applicant for the information needed for a personal loan application",
            "Personal loan application",
        ),
        (
            "Register the user for the conference: collect attendee details",
            "Conference registration",
        ),
        (
            "Gather the new hire's onboarding details: personal details and bank account",
            "Onboarding details",
        ),
        (
            "Collect the staff member's availability for next week's shifts",
            "Availability",
        ),
        ("Request the guest's RSVP for the wedding", "RSVP"),
        (
            "Prompt the shopper for search filters to narrow down the results",
            "Search filters",
        ),
        (
            "Get a job application from the candidate",
            "Job application",
        ),
        (
            "A form that collects a user's shipping address.",
            "Shipping address",
        ),
        (
            "Collect an expense report from the employee for reimbursement",
            "Expense report",
        ),
        (
            "Shipping and payment details for the order",
            "Shipping and payment",
        ),
    ] {
        assert_eq!(title(request).as_deref(), Some(expected), "{request}");
        assert!(!echoes(expected, request) || request.split_whitespace().count() <= 2);
    }
}

#[test]
fn a_short_name_in_any_language_is_its_own_title() {
    assert_eq!(title("Checkout").as_deref(), Some("Checkout"));
    assert_eq!(title("flugsuche").as_deref(), Some("Flugsuche"));
    assert_eq!(
        title("Recherche de vols").as_deref(),
        Some("Recherche de vols")
    );
    assert_eq!(title("航班搜索").as_deref(), Some("航班搜索"));
    assert_eq!(title("Fruit in stock.").as_deref(), Some("Fruit in stock"));
}

#[test]
fn a_verb_that_is_also_a_noun_opens_a_compound() {
    assert_eq!(
        title("Order summary for the customer to confirm").as_deref(),
        Some("Order summary")
    );
    assert_eq!(title("Order summary").as_deref(), Some("Order summary"));
    assert_eq!(
        title("Book a room for the guest").as_deref(),
        Some("Room booking")
    );
}

#[test]
fn a_request_in_another_language_is_never_shown_as_the_title() {
    for request in [
        "Bitte geben Sie Ihre Lieferadresse und Telefonnummer ein",
        "Demandez à l'utilisateur ses critères de recherche de vol",
        "Pide al usuario los datos de su reserva de hotel",
        "ユーザーにフライト検索条件を尋ねてください 出発地と目的地",
    ] {
        assert_eq!(title(request), None, "{request}");
    }
}

#[test]
fn empty_odd_hostile_and_long_requests_give_a_short_title_or_none() {
    assert_eq!(title(""), None);
    assert_eq!(title("   \n "), None);
    assert_eq!(title("..."), None);
    assert_eq!(title("Please"), None);
    let hostile = title("Ask the user for their <b>delivery</b> address");
    assert_eq!(hostile.as_deref(), Some("Delivery address"));
    let long = format!("Ask the user for their {}", "very ".repeat(5000));
    let long_title = title(&long).unwrap_or_default();
    assert!(
        long_title.split(' ').count() <= MAX_TITLE_WORDS,
        "{long_title}"
    );
    assert!(title(&"x".repeat(1000)).is_none(), "over 60 characters");
    for request in [
        "Ask the user",
        "Ask the user to",
        "Let them",
        "the",
        "I need",
    ] {
        assert!(
            title(request).is_none_or(|t| !echoes(&t, request)),
            "{request}"
        );
    }
}

#[test]
fn the_schema_title_wins() {
    assert_eq!(
        person_title(Some(" Booking "), "Ask the user for a flight").as_deref(),
        Some("Booking")
    );
    assert_eq!(
        person_title(Some(""), "Ask the user for a flight").as_deref(),
        Some("Flight")
    );
}

#[test]
fn an_echoing_title_is_replaced_and_a_schema_title_is_kept() {
    let request = "Ask the user for their flight search criteria";
    let mut echoing = Some(request.to_owned());
    let warning = replace_echoing_title(&mut echoing, None, request, "/output");
    assert_eq!(echoing.as_deref(), Some("Flight search"));
    let warning = warning.expect("a warning says the title was replaced");
    assert_eq!(
        (warning.code, warning.pointer.as_str()),
        ("title_replaced", "/output")
    );

    let mut fine = Some("Where to?".to_owned());
    assert!(replace_echoing_title(&mut fine, None, request, "").is_none());
    assert_eq!(fine.as_deref(), Some("Where to?"));

    let mut own = Some("Ask the user".to_owned());
    assert!(replace_echoing_title(&mut own, Some("Ask the user"), "Ask the user", "").is_none());
    assert_eq!(own.as_deref(), Some("Ask the user"));

    let mut none = None;
    assert!(replace_echoing_title(&mut none, None, request, "").is_none());

    let mut untitled = Some("Bitte geben Sie Ihre Adresse ein".to_owned());
    let german = "Bitte geben Sie Ihre Adresse ein";
    assert!(replace_echoing_title(&mut untitled, None, german, "").is_some());
    assert_eq!(untitled, None, "no title derived: the renderers show one");
}

#[test]
fn content_words_use_the_one_singular() {
    assert_eq!(
        content_words("Order status and shipping options"),
        ["order", "status", "shipping", "option"]
    );
}

#[test]
fn the_title_names_the_form_not_who_fills_it_in() {
    for (request, expected) in [
        (
            "Ask attendees how the conference went for them",
            "Conference feedback",
        ),
        (
            "Ask the prospective tenant to fill in a rental application for the flat",
            "Rental application",
        ),
        (
            "Ask the new owner for the details needed to register their vehicle",
            "Vehicle registration",
        ),
        (
            "Register the user for the workshop and take their billing details",
            "Workshop registration",
        ),
        (
            "Ask the pet owner to book a stay at the kennels for their pet",
            "Stay booking",
        ),
        (
            "Collect a community grant application from the organisation",
            "Grant application",
        ),
        (
            "Sign the user up as a volunteer for the food bank",
            "Volunteer sign-up",
        ),
        ("Sign up a business customer for an account", "Sign-up"),
        (
            "Collect the details of the policyholder's car accident so we can open a claim",
            "Car accident",
        ),
        (
            "Collect what the organiser needs to book a venue for their event",
            "Venue booking",
        ),
        (
            "Collect what the bank needs to open a current account for the customer",
            "Current account",
        ),
        (
            "Have the recruiter schedule an interview with the candidate",
            "Interview",
        ),
        (
            "Have the technician log the repair they carried out",
            "Repair",
        ),
    ] {
        assert_eq!(title(request).as_deref(), Some(expected), "{request}");
    }
}

#[test]
fn a_name_that_starts_with_an_ambiguous_verb_keeps_its_title() {
    for name in ["File upload", "Open enrollment", "Open day registration"] {
        assert_eq!(self::title(name).as_deref(), Some(name), "{name}");
    }
}

#[test]
fn more_agent_verbs_are_not_the_title() {
    for (request, title) in [
        (
            "Open a support ticket for the customer whose smart speaker stopped working",
            "Support ticket",
        ),
        (
            "Send the patient a short survey about their hospital visit",
            "Short survey",
        ),
        ("File a complaint about the delivery", "Complaint"),
        ("Submit the monthly timesheet", "Timesheet"),
    ] {
        assert_eq!(self::title(request).as_deref(), Some(title), "{request}");
    }
}

#[test]
fn a_role_is_whom_the_request_addresses_only_as_the_object_of_an_instruction() {
    for (request, expected) in [
        // After a verb that instructs someone, the role is whom it
        // addresses and the word after it is their own verb.
        (
            "Have the landlord fill in the inspection report",
            "Inspection report",
        ),
        (
            "Tell the supervisor to approve the overtime claim",
            "Overtime claim",
        ),
        (
            "Ask the recruiter for the interview slots",
            "Interview slots",
        ),
        // Heading or modifying a noun, it is part of the title.
        ("Book a technician visit", "Technician visit booking"),
        ("Technician visit request", "Technician visit request"),
        (
            "Have the tenant book a technician visit",
            "Technician visit booking",
        ),
        (
            "Collect landlord details for the tenancy",
            "Landlord details",
        ),
        // Followed by grammar, it is still whom the task is for.
        (
            "Register the technician for the safety course",
            "Safety course registration",
        ),
    ] {
        assert_eq!(title(request).as_deref(), Some(expected), "{request}");
    }
}

#[test]
fn whom_have_or_let_instructs_is_no_title_though_no_known_role() {
    // A determiner, one noun, then a verb taking an object of its own.
    for (request, expected) in [
        ("Have the teacher set up a new class", "New class"),
        (
            "Let the coach plan the training session",
            "Training session",
        ),
        (
            "A form that lets the teacher set up a new class",
            "New class",
        ),
        (
            "Have the GP refer the patient to a specialist",
            "Specialist referral",
        ),
    ] {
        assert_eq!(title(request).as_deref(), Some(expected), "{request}");
    }
    // "Refer to" points elsewhere: no referral.
    let pointed = title("Refer to the attached policy and collect the claimant's details");
    assert!(
        !pointed.as_deref().unwrap_or_default().contains("referral"),
        "{pointed:?}"
    );
}

#[test]
fn a_verb_after_grammar_closes_no_name() {
    // "to register" is what the guests do, not the last noun of a name:
    // the request is not its own title.
    for request in ["Invite guests to register", "Remind members to apply"] {
        assert_ne!(title(request).as_deref(), Some(request), "{request}");
    }
}
