//! The words the person sees above a form: a short title derived from the
//! agent's request, and the rule that tells when a text echoes that
//! request instead of speaking to the person.
//!
//! `description` tells the generator what to build ("Ask the user for
//! their flight search criteria"); the person needs a title ("Flight
//! search"). The title is the noun phrase the request asks about: the
//! agent's opening ("Please", "I need", "Ask the user for", "Let the
//! customer change") is skipped with [`OPENERS`], [`AGENT_VERBS`] and
//! [`ADDRESSEES`], the phrase ends where a clause word starts
//! ([`PHRASE_ENDS`]: "…so I can", "…from the user", "…for the form"), and
//! a generic tail is dropped from a long phrase ([`GENERIC_TAILS`]:
//! "flight search criteria" -> "Flight search"). Who the request
//! addresses is never the title ("Ask attendees how the conference went"
//! -> "Conference feedback"), but a word naming someone that heads or
//! modifies the phrase is ("Book a technician visit" -> "Technician visit
//! booking"), and the person's own verb names the task when
//! the agent's does not ("to book a stay" -> "Stay booking"); the
//! generator also drops a derived title that is only one of the form's
//! section names. The words are English;
//! a request in another language that does not open with them is used
//! only when it is itself short enough to be a title, and otherwise gives
//! no title (the renderers then show a title for the kind of form in the
//! person's language). Free text is never translated.
//!
//! [`echoes`] is the one echo rule: the design measure scores answers
//! with it, the deterministic generator never derives a title that
//! echoes (a request that is itself a name, or only the person's task,
//! "Book a technician visit", is said again in the person's words), and a
//! model's title that echoes is replaced
//! ([`replace_echoing_title`]).

use crate::plan::check::Issue;
use crate::terms::warning::Warning;

/// Openings that speak to someone other than the person filling the form,
/// whatever the request said.
const AGENT_OPENINGS: [&[&str]; 7] = [
    &["please"],
    &["i", "need"],
    &["we", "need"],
    &["i", "want"],
    &["we", "want"],
    &["i", "would"],
    &["we", "would"],
];

/// Words that carry no content when comparing a text with the request.
const STOPWORDS: [&str; 52] = [
    "a", "an", "the", "and", "or", "but", "of", "for", "to", "from", "in", "on", "at", "by",
    "with", "about", "into", "as", "so", "that", "this", "these", "those", "their", "they", "them",
    "his", "her", "its", "our", "us", "we", "you", "your", "i", "me", "my", "it", "is", "are",
    "be", "can", "will", "would", "should", "what", "which", "when", "how", "who", "where",
    "please",
];

impl Issue {
    /// Whether a visible text (a title or lead) echoes the agent's
    /// `request`, as the checker judges a model's title ([`echoes`]).
    pub fn echoes(text: &str, request: &str) -> bool {
        echoes(text, request)
    }
}

/// Whether a visible text (a title or lead) echoes the agent's request: it
/// opens as an agent speaks ([`AGENT_OPENINGS`]), or with the request's own
/// opening imperative ([`AgentVerb::opens`]), or it repeats more than half of the
/// request's content words (words outside [`STOPWORDS`], a plural `s`
/// dropped, each counted once). "Search flights" for "Ask the user for
/// their flight search criteria" repeats 2 of 5 and does not echo.
pub(crate) fn echoes(text: &str, request: &str) -> bool {
    let said = words(text);
    if said.is_empty() {
        return false;
    }
    let opens_with = |opening: &[&str]| {
        said.len() >= opening.len() && said.iter().zip(opening).all(|(w, o)| w == o)
    };
    if AGENT_OPENINGS.iter().any(|o| opens_with(o)) {
        return true;
    }
    if let Some(verb) = opening_imperative(request) {
        if opens_with(&[verb.as_str()]) {
            return true;
        }
    }
    let asked = content_words(request);
    let repeated = content_words(text)
        .iter()
        .filter(|w| asked.contains(w))
        .count();
    !asked.is_empty() && repeated * 2 > asked.len()
}

/// The imperative a request opens with, after a leading "please".
fn opening_imperative(request: &str) -> Option<String> {
    let all = words(request);
    let first = all.iter().find(|w| *w != "please")?;
    let opens = AGENT_VERBS.iter().any(|v| v.opens && v.verb == first);
    opens.then(|| first.clone())
}

/// Lower-case words, split at anything but letters and digits; one-letter
/// fragments (the `s` of `user's`) are dropped, except `i`.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1 || *w == "i" || *w == "I")
        .map(str::to_lowercase)
        .collect()
}

/// The distinct content words of a text, plural `s` dropped.
fn content_words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in words(text)
        .into_iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
    {
        let stem = crate::text::singular(&word).to_owned();
        if !out.contains(&stem) {
            out.push(stem);
        }
    }
    out
}

/// Word sequences an agent opens with before its verb, skipped whole.
const OPENERS: [&[&str]; 14] = [
    &["please"],
    &["i", "need", "to"],
    &["i", "need"],
    &["we", "need", "to"],
    &["we", "need"],
    &["i", "want", "to"],
    &["i", "want"],
    &["we", "want", "to"],
    &["we", "want"],
    &["i'd", "like", "to"],
    &["we'd", "like", "to"],
    &["a", "form"],
    &["form"],
    &["help"],
];

/// A verb of the agent's request, and what it tells about the request.
struct AgentVerb {
    verb: &'static str,
    /// The noun a form of its own is called by when the verb names the
    /// person's task ("Register the user for the conference" ->
    /// "Conference registration").
    task: Option<&'static str>,
    /// An agent opens a request to the UI with it: a title that starts
    /// with the request's own opening verb addresses the wrong reader.
    opens: bool,
    /// Its object is the person it instructs, whatever word follows ("Have
    /// the landlord sign", "Tell the supervisor to approve"): after any
    /// other verb ("Book a technician visit") an [`ADDRESSEES`] word
    /// followed by a noun is part of the phrase, not whom the request
    /// addresses.
    addresses: bool,
}

impl AgentVerb {
    const fn plain(verb: &'static str) -> Self {
        Self {
            verb,
            task: None,
            opens: false,
            addresses: false,
        }
    }

    const fn opening(verb: &'static str) -> Self {
        Self {
            opens: true,
            ..Self::plain(verb)
        }
    }

    const fn addressing(verb: &'static str) -> Self {
        Self {
            addresses: true,
            ..Self::opening(verb)
        }
    }

    const fn task(verb: &'static str, noun: &'static str) -> Self {
        Self {
            task: Some(noun),
            ..Self::plain(verb)
        }
    }
}

/// The verbs of the agent's request. A third-person `s` ("a form that
/// collects") is read as the verb.
const AGENT_VERBS: [AgentVerb; 37] = [
    AgentVerb::addressing("ask"),
    AgentVerb::addressing("tell"),
    AgentVerb::opening("collect"),
    AgentVerb::addressing("let"),
    AgentVerb::opening("get"),
    AgentVerb::addressing("have"),
    AgentVerb::addressing("prompt"),
    AgentVerb::opening("request"),
    AgentVerb::opening("gather"),
    AgentVerb::opening("obtain"),
    AgentVerb::opening("capture"),
    AgentVerb::opening("show"),
    AgentVerb::opening("display"),
    AgentVerb::opening("present"),
    AgentVerb::opening("render"),
    AgentVerb::opening("create"),
    AgentVerb::opening("generate"),
    AgentVerb::opening("build"),
    AgentVerb::opening("make"),
    AgentVerb::opening("need"),
    AgentVerb::opening("want"),
    AgentVerb::plain("enter"),
    AgentVerb::plain("fill"),
    AgentVerb::plain("provide"),
    AgentVerb::addressing("allow"),
    AgentVerb::plain("record"),
    AgentVerb::plain("open"),
    AgentVerb::plain("send"),
    AgentVerb::plain("file"),
    AgentVerb::plain("submit"),
    AgentVerb::task("register", "registration"),
    AgentVerb::task("book", "booking"),
    AgentVerb::task("subscribe", "subscription"),
    AgentVerb::task("apply", "application"),
    AgentVerb::task("order", "order"),
    AgentVerb::task("sign", "sign-up"),
    AgentVerb::task("refer", "referral"),
];

/// Who the agent's request addresses: "the user", "the new hire", "them".
const ADDRESSEES: [&str; 52] = [
    "user",
    "users",
    "customer",
    "customers",
    "employee",
    "admin",
    "administrator",
    "patient",
    "manager",
    "seller",
    "shopper",
    "guest",
    "applicant",
    "visitor",
    "staff",
    "member",
    "person",
    "people",
    "client",
    "buyer",
    "traveller",
    "traveler",
    "attendee",
    "candidate",
    "student",
    "owner",
    "tenant",
    "driver",
    "reviewer",
    "approver",
    "participant",
    "respondent",
    "operator",
    "hire",
    "organiser",
    "organizer",
    "resident",
    "policyholder",
    "volunteer",
    "homeowner",
    "passenger",
    "recruiter",
    "supervisor",
    "technician",
    "clinician",
    "landlord",
    "them",
    "him",
    "her",
    "me",
    "us",
    "someone",
];

/// Words that join the agent's verb to what it asks for, skipped between
/// them: "ask for", "that collects", "fill in", "set up".
const LINKS: [&str; 13] = [
    "for", "about", "on", "that", "which", "to", "in", "out", "up", "with", "of", "enter", "as",
];

/// Articles and possessives before a noun phrase; never part of a title.
const DETERMINERS: [&str; 17] = [
    "the", "a", "an", "this", "that", "these", "those", "their", "your", "his", "her", "its",
    "our", "my", "some", "any", "new",
];

/// Words that open a question the request asks ("what kind of apartment").
const QUESTION_WORDS: [&str; 9] = [
    "what", "how", "when", "which", "where", "whether", "if", "why", "who",
];

/// Words that end a noun phrase: prepositions, clause openers, pronouns
/// and auxiliaries ("…for the form", "…so I can", "…they want").
const PHRASE_ENDS: [&str; 53] = [
    "for", "from", "to", "so", "before", "after", "in", "on", "at", "with", "about", "by", "into",
    "during", "within", "via", "per", "that", "which", "who", "when", "where", "whether",
    "because", "if", "once", "they", "he", "she", "it", "we", "i", "you", "is", "are", "was",
    "were", "will", "would", "can", "could", "should", "want", "wants", "need", "like", "went",
    "goes", "felt", "did", "does", "has", "needs",
];

/// Verbs of a question about how something went ("how the conference
/// went", "how their stay was"): the form asks for feedback on it.
const HOW_IT_WENT: [&str; 7] = ["went", "goes", "was", "were", "is", "felt", "did"];

/// Nouns that say only that something is asked for; dropped from the end
/// of a phrase of three words or more, and passed over for the phrase
/// after them when they are all there is ("the information needed for a
/// loan application").
const GENERIC_TAILS: [&str; 12] = [
    "criteria",
    "details",
    "information",
    "info",
    "data",
    "parameters",
    "values",
    "fields",
    "answers",
    "input",
    "inputs",
    "form",
];

/// The longest title derived, in words and in characters.
const MAX_TITLE_WORDS: usize = 6;
const MAX_TITLE_CHARS: usize = 60;

/// The longest request read as a name of its own, in columns.
const MAX_NAME_COLUMNS: usize = 32;

/// How much of the request's first clause is read, in characters.
const MAX_CLAUSE_CHARS: usize = 400;

/// The person's title: `output`'s own title where it has one, else one
/// derived from the request ([`derived_title`]).
pub(crate) fn person_title(schema_title: Option<&str>, description: &str) -> Option<String> {
    match schema_title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(title) => Some(title.to_owned()),
        None => derived_title(description),
    }
}

/// A short title for the person from the first clause of the request, in
/// sentence case, that does not [`echo`](echoes) it; `None` when the
/// request gives none.
pub(crate) fn derived_title(description: &str) -> Option<String> {
    let first = description.split(['.', '\n', '!', '?', ':', ';']).next()?;
    let clause = crate::plan::sanitize::plain_text(first, MAX_CLAUSE_CHARS);
    let tokens: Vec<&str> = clause.split_whitespace().collect();
    if tokens.is_empty() {
        return None;
    }
    // A short name is its own title, whatever words it holds ("Fruit in
    // stock", "Flugsuche"): nothing in it speaks as an agent.
    let (phrase, from_grammar) = if is_title_like(&tokens) {
        (tokens.iter().map(|t| bare(t)).collect(), false)
    } else {
        (parse_request(&tokens)?, true)
    };
    let short_name = !from_grammar || tokens.len() == phrase.len() || only_a_task(&tokens, &phrase);
    let title = sentence_case(&phrase.join(" "));
    if short_name || !echoes(&title, description) {
        return within_length(title);
    }
    // "name and postal address" says most of the request: its last part;
    // "community grant application": its head, the last two words, else
    // the last word ("business customer sign-up": "Sign-up").
    let last_part = phrase
        .iter()
        .rposition(|w| matches!(lower(w).as_str(), "and" | "or" | "&"))
        .map(|i| &phrase[i + 1..]);
    let head = (phrase.len() > 2).then(|| &phrase[phrase.len() - 2..]);
    let last_word = (phrase.len() > 1).then(|| &phrase[phrase.len() - 1..]);
    let shorter = [last_part, head, last_word]
        .into_iter()
        .flatten()
        .map(|words| sentence_case(&words.join(" ")))
        .find(|title| !echoes(title, description));
    shorter.and_then(within_length)
}

/// Whether the request is only the person's task, a verb with a task noun
/// and its object ("Book a technician visit"): its title in the person's
/// words ("Technician visit booking") says the same, and no agent speaks.
fn only_a_task(tokens: &[&str], phrase: &[&str]) -> bool {
    let Some((verb, object)) = tokens.split_first() else {
        return false;
    };
    let words = object.iter().filter(|t| !is_determiner(t)).count();
    agent_verb(verb).flatten().is_some() && words + 1 == phrase.len()
}

fn within_length(title: String) -> Option<String> {
    (!title.is_empty() && title.chars().count() <= MAX_TITLE_CHARS).then_some(title)
}

/// A clause of at most four words and [`MAX_NAME_COLUMNS`] columns (a
/// wide character counts two) reads as a name ("Checkout", "Flugsuche",
/// "航班搜索"), unless an agent's opener or verb is in it.
fn is_title_like(tokens: &[&str]) -> bool {
    let columns: usize = tokens
        .iter()
        .flat_map(|t| t.chars())
        .map(|c| if c >= '\u{2E80}' { 2 } else { 1 })
        .sum();
    let verb_at = |at: usize| {
        agent_verb(tokens[at]).is_some_and(|noun| !is_noun_of_compound(tokens, at, noun))
            && (!is_ambiguous_verb(tokens[at]) || takes_an_object(tokens, at))
            && !closes_a_compound(tokens, at)
    };
    let agent_speaks = skip_openers(tokens) > 0 || (0..tokens.len()).any(verb_at);
    tokens.len() <= 4 && columns <= MAX_NAME_COLUMNS && !agent_speaks
}

/// The noun phrase an English request asks about, with a noun from its
/// verb appended where the verb names the task; `None` when the clause
/// does not read as one.
fn parse_request<'t>(tokens: &[&'t str]) -> Option<Vec<&'t str>> {
    let mut at = skip_openers(tokens);
    let mut recognised = at > 0;
    let mut task_noun = None;
    while let Some(noun) = tokens.get(at).and_then(|t| agent_verb(t)) {
        if is_noun_of_compound(tokens, at, noun) || points_elsewhere(tokens, at) {
            break;
        }
        task_noun = task_noun.or(noun);
        recognised = true;
        let after = skip_after_verb(tokens, at);
        // The person's own verb passed over ("ask the owner to book a
        // stay") names the task when the agent's did not.
        task_noun = task_noun.or_else(|| {
            tokens[at + 1..after]
                .iter()
                .find_map(|t| agent_verb(t))
                .flatten()
        });
        at = after;
    }
    let asks_how = tokens.get(at).is_some_and(|t| lower(t) == "how");
    at = skip_question(tokens, at);
    at = skip_determiners(tokens, at);
    let start = at;
    let mut phrase = noun_phrase(tokens, &mut at);
    let how_it_went = tokens
        .get(at)
        .is_some_and(|t| HOW_IT_WENT.contains(&lower(t).as_str()));
    if asks_how && how_it_went {
        task_noun = task_noun.or(Some("feedback"));
    }
    if let Some((object, noun)) = object_of_need(tokens, at) {
        phrase = object;
        task_noun = task_noun.or(noun);
    }
    let stopped_at_english = tokens.get(at).is_some_and(|t| ends_phrase_in_english(t));
    if phrase.is_empty() || !(recognised || stopped_at_english || start > 0) {
        return None;
    }
    if phrase.iter().all(|w| is_generic(w)) {
        // From just after the generic words: "the details of the
        // policyholder's car accident" ended past its "of".
        if let Some(after) = phrase_after(tokens, start + phrase.len()) {
            phrase = after;
        }
    }
    compact(&mut phrase);
    if let Some(noun) = task_noun.filter(|n| !phrase.iter().any(|w| lower(w) == *n)) {
        phrase.push(noun);
    }
    Some(phrase)
}

/// Whether a verb that is also its own task noun ("order") is the first
/// noun of a compound instead ("Order summary", "order status"): it opens
/// the clause and a bare word follows it, with no article, addressee or
/// link between them as a verb's object would have.
fn is_noun_of_compound(tokens: &[&str], at: usize, noun: Option<&str>) -> bool {
    let Some(next) = tokens.get(at + 1) else {
        return false;
    };
    let word = lower(next);
    at == 0
        && noun == Some(lower(tokens[at]).as_str())
        && !is_determiner(next)
        && !possessive(&word).1
        && !ADDRESSEES.contains(&word.as_str())
        && !LINKS.contains(&word.as_str())
        && !PHRASE_ENDS.contains(&word.as_str())
}

/// Whether a verb that closes a clause after a noun is that compound's
/// last noun ("Technician visit request", "Leave request"): a verb the
/// agent speaks opens its clause or follows grammar ("to register").
fn closes_a_compound(tokens: &[&str], at: usize) -> bool {
    at + 1 == tokens.len()
        && at > 0
        && !is_grammar(tokens[at - 1])
        && modifies_next(tokens, at - 1)
        && agent_verb(tokens[at - 1]).is_none()
}

/// Past what follows the agent's verb at `verb`: who it addresses, the
/// words linking it to what it asks for, and the person's own verb after a
/// plain addressee ("let the user change", "have the admin review").
fn skip_after_verb(tokens: &[&str], verb: usize) -> usize {
    let word = lower(tokens[verb]);
    let addressing = AGENT_VERBS
        .iter()
        .any(|v| v.addresses && is_form_of(&word, v.verb));
    let at = verb + 1;
    let (after, addressed, possessive) = match skip_addressee(tokens, at, addressing) {
        (_, false, _) if CAUSATIVE_VERBS.iter().any(|v| is_form_of(&word, v)) => {
            causee(tokens, at).map_or((at, false, false), |after| (after, true, false))
        }
        found => found,
    };
    let linked = skip_links(tokens, after);
    let bare_verb = addressed
        && !possessive
        && linked == after
        && tokens.get(after).is_some_and(|t| {
            let word = lower(t);
            !is_determiner(t) && !QUESTION_WORDS.contains(&word.as_str()) && agent_verb(t).is_none()
        });
    if bare_verb {
        skip_links(tokens, skip_alternatives(tokens, after + 1))
    } else {
        linked
    }
}

/// Agent verbs whose object does the next verb: "Have the teacher set up
/// a class", "Let the GP refer the patient".
const CAUSATIVE_VERBS: [&str; 2] = ["have", "let"];

/// Past whom a [`CAUSATIVE_VERBS`] verb instructs when it is no
/// [`ADDRESSEES`] word: a determiner and one noun, followed by a word that
/// takes an object of its own (a determiner follows it, maybe after a
/// particle: "set up a", "refer the"). The index of that verb.
fn causee(tokens: &[&str], at: usize) -> Option<usize> {
    let (determiner, noun, verb) = (tokens.get(at)?, tokens.get(at + 1)?, tokens.get(at + 2)?);
    let conjunction = |t: &str| matches!(lower(t).as_str(), "and" | "or");
    if !is_determiner(determiner) || [noun, verb].iter().any(|t| is_grammar(t) || conjunction(t)) {
        return None;
    }
    let particle = tokens
        .get(at + 3)
        .is_some_and(|t| matches!(lower(t).as_str(), "up" | "out" | "in" | "off" | "down"));
    let object = at + 3 + usize::from(particle);
    tokens
        .get(object)
        .is_some_and(|t| is_determiner(t))
        .then_some(at + 2)
}

/// Past "or reject", "and decide": alternatives to a verb just passed.
fn skip_alternatives(tokens: &[&str], mut at: usize) -> usize {
    while tokens
        .get(at)
        .is_some_and(|t| matches!(lower(t).as_str(), "or" | "and"))
        && tokens.get(at + 2).is_some()
    {
        at += 2;
    }
    at
}

/// Whether a word that ended a phrase is English grammar (a preposition,
/// pronoun, auxiliary, article or possessive), which tells an English
/// request from a name in another language.
fn ends_phrase_in_english(token: &str) -> bool {
    let word = lower(token);
    PHRASE_ENDS.contains(&word.as_str()) || is_determiner(token) || possessive(&word).1
}

/// The index after any [`OPENERS`] (and a "that" after "a form").
fn skip_openers(tokens: &[&str]) -> usize {
    let mut at = 0;
    loop {
        let found = OPENERS.iter().find(|opener| {
            opener.len() <= tokens.len() - at
                && opener
                    .iter()
                    .zip(&tokens[at..])
                    .all(|(o, t)| lower(t) == *o)
        });
        match found {
            Some(opener) => at += opener.len(),
            None => break,
        }
        while tokens
            .get(at)
            .is_some_and(|t| LINKS.contains(&lower(t).as_str()))
        {
            at += 1;
        }
    }
    at
}

/// The task noun of an agent verb (`Some(None)` for a verb without one).
fn agent_verb(token: &str) -> Option<Option<&'static str>> {
    let word = lower(token);
    AGENT_VERBS
        .iter()
        .find(|v| is_form_of(&word, v.verb))
        .map(|v| v.task)
}

/// Whether the verb at `at` is "refer" pointing the reader elsewhere
/// ("Refer to the attached policy and …"), not referring someone.
fn points_elsewhere(tokens: &[&str], at: usize) -> bool {
    is_form_of(&lower(tokens[at]), "refer") && tokens.get(at + 1).is_some_and(|t| lower(t) == "to")
}

/// Agent verbs that also head a name as a noun or adjective ("File
/// upload", "Open enrollment", "Submit button").
const AMBIGUOUS_VERBS: [&str; 4] = ["open", "send", "file", "submit"];

/// Whether `token` is one of the [`AMBIGUOUS_VERBS`] (or its `-s` form).
fn is_ambiguous_verb(token: &str) -> bool {
    let word = lower(token);
    AMBIGUOUS_VERBS.iter().any(|verb| is_form_of(&word, verb))
}

/// Whether the lower-case `word` is `verb` or its `-s` form ("asks").
fn is_form_of(word: &str, verb: &str) -> bool {
    word == verb || word.strip_suffix('s') == Some(verb)
}

/// Whether the verb at `at` is followed by its object's determiner or an
/// addressee ("Open a ticket", "Send the patient …", "Send them …"): only
/// then is an ambiguous word the agent's verb.
fn takes_an_object(tokens: &[&str], at: usize) -> bool {
    tokens
        .get(at + 1)
        .is_some_and(|next| is_determiner(next) || is_addressee(&lower(next)))
}

/// Past "the user", "the new hire's", "them": a determiner and words up to
/// an [`ADDRESSEES`] word or any possessive, at most three words on. Also
/// says whether an addressee was passed and whether it was a possessive.
/// Unless the verb before is `addressing` ([`AgentVerb::addresses`]), a word
/// that modifies the noun after it ("a technician visit") is no addressee.
fn skip_addressee(tokens: &[&str], at: usize, addressing: bool) -> (usize, bool, bool) {
    for end in at..tokens.len().min(at + 4) {
        let word = lower(tokens[end]);
        let (noun, is_possessive) = possessive(&word);
        let between_ok = tokens[at..end]
            .iter()
            .all(|t| DETERMINERS.contains(&lower(t).as_str()) || is_adjective_like(t));
        if is_addressee(noun) && between_ok {
            if !addressing && !is_possessive && modifies_next(tokens, end) {
                return (at, false, false);
            }
            return (end + 1, true, is_possessive);
        }
        if is_possessive {
            // "the company's": whoever owns it, the phrase follows.
            return (end + 1, true, true);
        }
    }
    (at, false, false)
}

/// Whether the word at `at` is followed, in the same phrase, by a word it
/// modifies: a word that is no grammar ("technician" in "a technician
/// visit"; not "the user for", "the user's", "the user, …").
fn modifies_next(tokens: &[&str], at: usize) -> bool {
    let Some(next) = tokens.get(at + 1) else {
        return false;
    };
    let word = lower(next);
    !tokens[at].ends_with([',', ')'])
        && !bare(next).is_empty()
        && !is_grammar(next)
        && !matches!(word.as_str(), "and" | "or" | "&")
}

/// Whether a word is English grammar around a noun phrase: a link, a word
/// that ends a phrase, a question word, an article or a possessive.
fn is_grammar(token: &str) -> bool {
    let word = lower(token);
    LINKS.contains(&word.as_str())
        || PHRASE_ENDS.contains(&word.as_str())
        || QUESTION_WORDS.contains(&word.as_str())
        || is_determiner(token)
        || possessive(&word).1
}

/// Whether a word names whom the request addresses, in the singular or
/// the plural ("attendees").
fn is_addressee(word: &str) -> bool {
    ADDRESSEES.contains(&word) || ADDRESSEES.contains(&crate::text::singular(word))
}

/// Words that may sit between a determiner and an addressee ("new",
/// "staff", "hiring", "prospective").
fn is_adjective_like(token: &str) -> bool {
    let word = lower(token);
    is_addressee(&word) || matches!(word.as_str(), "new" | "hiring" | "prospective" | "pet")
}

/// Past linking words and a person's verb after "to" or after the
/// addressee of "let"/"have" ("to approve or reject", "change", "fill in").
fn skip_links(tokens: &[&str], mut at: usize) -> usize {
    loop {
        let Some(token) = tokens.get(at) else {
            return at;
        };
        let word = lower(token);
        if word == "to" && tokens.get(at + 1).is_some_and(|t| !is_determiner(t)) {
            at = skip_alternatives(tokens, at + 2);
        } else if LINKS.contains(&word.as_str()) {
            at += 1;
        } else {
            return at;
        }
    }
}

/// Past a question word, "kind of", a pronoun and verbs, up to the
/// question's noun phrase ("how they want their thermostat").
fn skip_question(tokens: &[&str], at: usize) -> usize {
    if !tokens
        .get(at)
        .is_some_and(|t| QUESTION_WORDS.contains(&lower(t).as_str()))
    {
        return at;
    }
    let rest = &tokens[at + 1..];
    if rest.len() >= 2
        && matches!(lower(rest[0]).as_str(), "kind" | "type" | "sort")
        && lower(rest[1]) == "of"
    {
        return at + 3;
    }
    match rest.iter().position(|t| is_determiner(t)) {
        Some(found) => at + 1 + found,
        None => at,
    }
}

fn skip_determiners(tokens: &[&str], mut at: usize) -> usize {
    while let Some(token) = tokens.get(at) {
        let word = lower(token);
        if is_determiner(token) || possessive(&word).1 {
            at += 1;
        } else {
            break;
        }
    }
    at
}

/// The words from `at` up to a [`PHRASE_ENDS`] word, a determiner, a past
/// participle or a comma; "and"/"or" joins only single words ("shipping
/// and payment details", not "access request and decide").
fn noun_phrase<'t>(tokens: &[&'t str], at: &mut usize) -> Vec<&'t str> {
    let mut phrase: Vec<&'t str> = Vec::new();
    while let Some(token) = tokens.get(*at) {
        let word = lower(token);
        let ends = PHRASE_ENDS.contains(&word.as_str())
            || QUESTION_WORDS.contains(&word.as_str())
            || is_determiner(token)
            || (!phrase.is_empty() && word.ends_with("ed") && word.len() > 4)
            || (matches!(word.as_str(), "and" | "or" | "&")
                && (phrase.len() != 1 || joins_a_clause(tokens, *at)))
            || (word == "of" && !phrase.is_empty() && phrase.len() >= 3)
            || phrase.len() == MAX_TITLE_WORDS
            || possessive(&word).1;
        if ends {
            break;
        }
        phrase.push(bare(token));
        *at += 1;
        if token.ends_with([',', ')']) {
            break;
        }
    }
    while phrase
        .last()
        .is_some_and(|w| matches!(lower(w).as_str(), "and" | "or" | "&" | "of"))
    {
        phrase.pop();
    }
    phrase
}

/// What someone "needs to" or "wants to" do, after a phrase ending at `at`
/// ("what the organiser needs to book a venue" -> "venue", with the task
/// noun of "book"): the object of that verb, which the form is about.
fn object_of_need<'t>(
    tokens: &[&'t str],
    at: usize,
) -> Option<(Vec<&'t str>, Option<&'static str>)> {
    let needs = tokens
        .get(at)
        .is_some_and(|t| matches!(lower(t).as_str(), "needs" | "need" | "wants" | "want"));
    if !needs || tokens.get(at + 1).map(|t| lower(t)).as_deref() != Some("to") {
        return None;
    }
    let verb = tokens.get(at + 2)?;
    let mut next = skip_determiners(tokens, at + 3);
    let object = noun_phrase(tokens, &mut next);
    (!object.is_empty()).then(|| (object, agent_verb(verb).flatten()))
}

/// Whether the "and" at `at` opens a clause of its own ("the workshop and
/// take their billing details"): the word after it is followed by an
/// article or a possessive, as a verb's object is.
fn joins_a_clause(tokens: &[&str], at: usize) -> bool {
    tokens
        .get(at + 2)
        .is_some_and(|t| is_determiner(t) || possessive(&lower(t)).1)
}

/// The noun phrase after a preposition following a generic phrase ("the
/// information needed for a personal loan application").
fn phrase_after<'t>(tokens: &[&'t str], at: usize) -> Option<Vec<&'t str>> {
    let offset = tokens[at..]
        .iter()
        .position(|t| matches!(lower(t).as_str(), "for" | "about" | "on" | "of" | "to"))?;
    let mut next = skip_determiners(tokens, at + offset + 1);
    // "…needed to register their vehicle": the person's task is the title.
    let task_noun = tokens.get(next).and_then(|t| agent_verb(t)).flatten();
    if task_noun.is_some() {
        next = skip_determiners(tokens, skip_addressee(tokens, next + 1, false).0);
    }
    let mut phrase = noun_phrase(tokens, &mut next);
    if let Some(noun) = task_noun.filter(|_| !phrase.is_empty()) {
        phrase.push(noun);
    }
    (!phrase.is_empty()).then_some(phrase)
}

/// Drops a generic tail from a phrase of three words or more.
fn compact(phrase: &mut Vec<&str>) {
    if phrase.len() >= 3 && phrase.last().is_some_and(|w| is_generic(w)) {
        phrase.pop();
        while phrase
            .last()
            .is_some_and(|w| matches!(lower(w).as_str(), "and" | "or" | "&"))
        {
            phrase.pop();
        }
    }
}

fn is_generic(word: &str) -> bool {
    GENERIC_TAILS.contains(&lower(word).as_str())
}

fn is_determiner(token: &str) -> bool {
    DETERMINERS.contains(&lower(token).as_str()) && lower(token) != "new"
}

/// The word without a possessive `'s`/`’s`/`s'`, and whether it had one.
fn possessive(word: &str) -> (&str, bool) {
    for suffix in ["'s", "\u{2019}s", "s'", "s\u{2019}"] {
        if let Some(stem) = word.strip_suffix(suffix) {
            return (stem, true);
        }
    }
    (word, false)
}

/// A token without the punctuation around it.
fn bare(token: &str) -> &str {
    token.trim_matches(|c: char| !c.is_alphanumeric())
}

fn lower(token: &str) -> String {
    bare(token).to_lowercase()
}

/// The first letter in upper case, the rest as written (acronyms stay).
fn sentence_case(text: &str) -> String {
    crate::text::capitalize_first(text)
}

/// Replaces a plan's title that echoes the request with the one derived
/// from it (none when none can be), and says so in a `title_replaced`
/// warning. `output`'s own title is kept, whatever it says.
pub(crate) fn replace_echoing_title(
    title: &mut Option<String>,
    schema_title: Option<&str>,
    description: &str,
    output_at: &str,
) -> Option<Warning> {
    let current = title.as_deref()?;
    if schema_title.map(str::trim) == Some(current.trim()) || !echoes(current, description) {
        return None;
    }
    let derived = person_title(schema_title, description);
    if derived.as_deref() == Some(current) {
        return None;
    }
    *title = derived;
    Some(Warning {
        code: "title_replaced",
        pointer: output_at.to_owned(),
        message: "the plan's title repeated the request to the UI; the form shows a title for the person instead".to_owned(),
    })
}

#[cfg(test)]
mod tests;
