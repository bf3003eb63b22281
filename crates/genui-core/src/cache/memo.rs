//! What an isolate remembers between requests: compiled `output`
//! validators, proven specs and the renderers' copies of `output` (the
//! canonical digests of `output` are remembered beside the key, in
//! [`crate::cache::spec`], a fixed-size entry each).
//!
//! A Worker isolate serves many requests one at a time on one thread, so
//! each memo is a thread-local, least-recently-used map bounded in bytes.
//! Every entry is immutable and content-addressed (a spec hash names exactly
//! one spec, a canonical digest exactly one schema), so a memo can never
//! answer differently from KV or from a fresh computation; it only answers
//! sooner. Losing the isolate loses nothing. (Both keys are canonical: an
//! `output` sent again with its members in another order is equal to the
//! first, and what is made of it keeps the order first seen.)
//!
//! | memo | key | saves | bound (estimated heap bytes) |
//! |---|---|---|---|
//! | validators | canonical digest of `output` | proving and compiling `output` | [`VALIDATOR_BYTES`] |
//! | specs | spec hash | the KV read and parsing the stored spec | the asking job's `Limits::spec_memory_bytes` (default [`DEFAULT_SPEC_MEMORY_BYTES`]) |
//! | projections | spec hash (and language), renderer | JSON Forms' and RJSF's answer heads as text, A2UI's components, a localised spec | [`RENDERER_SCHEMA_BYTES`] |
//! | (the same LRU) | canonical digest of `output`, the other inputs read (language; `output`'s place and the enum limit), kind | what depends on `output` alone, so a new description over the same `output` reuses it: the renderers' labelled copies of `output` (value and text), its defaults, its own warnings | (shared) |
//!
//! Together at most [`TOTAL_BYTES`] (16 MiB with the default spec memory),
//! well under the isolate's 128 MB and issue 13's 48 MiB target for the
//! whole linear memory, which must also hold the largest request's peak
//! (the corpus's CityJSON schema: its compiled validator alone is 12.9 MiB,
//! too big to keep, and freed before the answer is rendered). An entry is charged the heap it holds: a compiled validator
//! the bytes its compile left allocated, counted in wasm
//! ([`crate::cache::heap`]; natively estimated as [`VALIDATOR_FACTOR`]
//! times its schema's tree), JSON trees an estimate ([`value_bytes`]); an
//! entry over a quarter of its memo's budget is not kept, so one huge form
//! cannot flush the rest.
//!
//! The memos are caches, not configuration: the specs memo's budget is
//! read from the [`Limits`] of the job asking, on every read and write, so
//! the isolate's one configured value sets it and no setter does.

use crate::cache::spec::{OutputDigest, UiSpec};
use crate::schema::Draft;
use crate::terms::limits::Limits;
use lru::LruCache;
use serde_json::Value;
use std::any::Any;
use std::cell::RefCell;
use std::hash::Hash;
use std::rc::Rc;

/// Bytes of compiled validators kept (counted in wasm).
pub(crate) const VALIDATOR_BYTES: usize = 6 * 1024 * 1024;
/// Estimated bytes of renderer copies of `output` kept.
pub(crate) const RENDERER_SCHEMA_BYTES: usize = 4 * 1024 * 1024;
use crate::terms::limits::DEFAULT_SPEC_MEMORY_BYTES;
/// The memos' total with the default spec memory.
#[cfg(test)] // the budget test holds the sum under 32 MiB
pub(crate) const TOTAL_BYTES: usize = crate::cache::spec::DIGEST_BYTES
    + VALIDATOR_BYTES
    + RENDERER_SCHEMA_BYTES
    + DEFAULT_SPEC_MEMORY_BYTES;
/// A compiled validator's heap over its schema's [`value_bytes`], where the
/// heap is not counted (natively): 1.7 at the median and 2 at the 90th
/// percentile of the peer corpus (64-bit), but over 8 for schemas made of
/// many `$ref`s, which is why wasm charges the counted bytes instead.
pub(crate) const VALIDATOR_FACTOR: usize = 3;

/// What a projection was made from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Source {
    /// One spec: its hash, or a key naming it and the request's inputs
    /// the projection reads besides.
    Spec(String),
    /// One `output` schema (its canonical digest) and the few other
    /// inputs the projection reads, spelled out (a language tag, where
    /// `output` sits in the body): for what does not depend on the plan.
    Output(OutputDigest, String),
}

/// A projection's key: what it was made from and the renderer.
type ProjectionKey = (Source, &'static str);

thread_local! {
    static VALIDATORS: RefCell<ByteLru<OutputDigest, (Draft, Rc<jsonschema::Validator>)>> = RefCell::new(ByteLru::new(VALIDATOR_BYTES));
    static SPECS: RefCell<ByteLru<String, Rc<UiSpec>>> = RefCell::new(ByteLru::new(DEFAULT_SPEC_MEMORY_BYTES));
    static PROJECTIONS: RefCell<ByteLru<ProjectionKey, Rc<dyn Any>>> = RefCell::new(ByteLru::new(RENDERER_SCHEMA_BYTES));
}

/// The draft and compiled validator remembered for a schema, by its
/// canonical digest.
pub(crate) fn validator(output: &OutputDigest) -> Option<(Draft, Rc<jsonschema::Validator>)> {
    VALIDATORS.with(|memo| memo.borrow_mut().get(output))
}

/// Remembers a schema's draft and compiled validator; `schema` is the
/// schema it was compiled from. It is charged `kept`, the heap bytes the
/// compile left allocated (counted in wasm, `cache::heap`), or else an
/// estimate from the schema's size.
pub(crate) fn remember_validator(
    output: OutputDigest,
    draft: Draft,
    validator: Rc<jsonschema::Validator>,
    schema: &Value,
    kept: Option<usize>,
) {
    let bytes = kept.unwrap_or_else(|| VALIDATOR_FACTOR.saturating_mul(value_bytes(schema)));
    VALIDATORS.with(|memo| memo.borrow_mut().put(output, (draft, validator), bytes));
}

/// What `renderer` (`"jsonforms-text"`, `"a2ui"`, ...) made of a spec
/// that holds no request data: an answer's data-free head as text, A2UI's
/// component tree, a localised spec. `make` runs the first time this
/// isolate renders the spec that way; `bytes` estimates what the result
/// holds. Entries are typed per renderer, so one LRU serves every kind.
pub(crate) fn projection<T: 'static>(
    spec_hash: &str,
    renderer: &'static str,
    make: impl FnOnce() -> T,
    bytes: impl FnOnce(&T) -> usize,
) -> Rc<T> {
    let key_bytes = spec_hash.len();
    remembered(
        (Source::Spec(spec_hash.to_owned()), renderer),
        key_bytes,
        make,
        bytes,
    )
}

/// What `renderer` made of an `output` schema (its canonical digest) and
/// the inputs `extra` names, when nothing else goes into it: the
/// renderers' labelled copies of `output` (`extra`: the language), its
/// defaults, its own warnings. Specs that share `output` (requests that
/// differ only in `description`, say) share the entry.
pub(crate) fn output_projection<T: 'static>(
    output: OutputDigest,
    extra: &str,
    renderer: &'static str,
    make: impl FnOnce() -> T,
    bytes: impl FnOnce(&T) -> usize,
) -> Rc<T> {
    let key_bytes = std::mem::size_of::<OutputDigest>() + extra.len();
    let key = (Source::Output(output, extra.to_owned()), renderer);
    remembered(key, key_bytes, make, bytes)
}

/// The projection under `key`, made and remembered when missing (charged
/// `bytes` of it, the key's `key_bytes` and an entry's overhead). Entries
/// are typed per renderer, so one LRU serves every kind.
fn remembered<T: 'static>(
    key: ProjectionKey,
    key_bytes: usize,
    make: impl FnOnce() -> T,
    bytes: impl FnOnce(&T) -> usize,
) -> Rc<T> {
    let found = PROJECTIONS.with(|memo| memo.borrow_mut().get(&key));
    if let Some(found) = found.and_then(|any| any.downcast::<T>().ok()) {
        return found;
    }
    let made = Rc::new(make());
    let size = bytes(&made) + key_bytes + 64;
    PROJECTIONS.with(|memo| {
        memo.borrow_mut()
            .put(key, made.clone() as Rc<dyn Any>, size)
    });
    made
}

/// The copy of an `output` schema that `renderer` is given in the
/// language tagged `lang`, or `None` when it is given `output` as it is
/// (no copy is kept).
pub(crate) fn renderer_schema(
    output: OutputDigest,
    lang: &str,
    renderer: &'static str,
    make: impl FnOnce() -> Option<Value>,
) -> Rc<Option<Value>> {
    output_projection(output, lang, renderer, make, |made| {
        made.as_ref().map_or(0, value_bytes)
    })
}

/// The proven spec remembered under a spec hash, within the budget of
/// the limits asking ([`Limits::spec_memory_bytes`]; 0: never one).
pub(crate) fn spec(spec_hash: &str, limits: &Limits) -> Option<Rc<UiSpec>> {
    SPECS.with(|memo| {
        let mut memo = memo.borrow_mut();
        memo.set_budget(limits.spec_memory_bytes);
        memo.get(spec_hash)
    })
}

/// Remembers a proven spec within the budget of the limits asking;
/// `stored_bytes` is the size of its stored JSON. It is charged its
/// schema's and defaults' trees and twice the stored JSON (the plan, held
/// as Rust structures).
pub(crate) fn remember_spec(spec: Rc<UiSpec>, stored_bytes: usize, limits: &Limits) {
    let bytes = value_bytes(&spec.schema) + value_bytes(&spec.defaults) + 2 * stored_bytes;
    SPECS.with(|memo| {
        let mut memo = memo.borrow_mut();
        memo.set_budget(limits.spec_memory_bytes);
        memo.put(spec.spec_hash.clone(), spec, bytes);
    });
}

/// An estimate of the heap a JSON tree holds (not counting its root
/// `Value`): each array slot, each object entry with its key and index
/// (`preserve_order`: an `IndexMap` bucket plus its hash-table slot), and
/// string contents. Linear in the tree, allocation-free.
pub(crate) fn value_bytes(value: &Value) -> usize {
    const SLOT: usize = std::mem::size_of::<Value>();
    const ENTRY: usize = std::mem::size_of::<String>() + SLOT + 3 * std::mem::size_of::<usize>();
    match value {
        Value::String(text) => text.len(),
        Value::Array(items) => items.iter().map(|item| SLOT + value_bytes(item)).sum(),
        Value::Object(map) => map
            .iter()
            .map(|(key, item)| ENTRY + key.len() + value_bytes(item))
            .sum(),
        _ => 0,
    }
}

/// An LRU map bounded by the total of its entries' charged bytes.
struct ByteLru<K: Hash + Eq, V: Clone> {
    entries: LruCache<K, (V, usize)>,
    bytes: usize,
    budget: usize,
}

impl<K: Hash + Eq, V: Clone> ByteLru<K, V> {
    fn new(budget: usize) -> Self {
        Self {
            entries: LruCache::unbounded(),
            bytes: 0,
            budget,
        }
    }

    fn get<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.entries.get(key).map(|(value, _)| value.clone())
    }

    fn put(&mut self, key: K, value: V, bytes: usize) {
        if bytes > self.budget / 4 {
            return; // one huge entry must not flush the rest
        }
        // `push` hands back the same key's old entry, if any.
        if let Some((_, (_, old))) = self.entries.push(key, (value, bytes)) {
            self.bytes -= old;
        }
        self.bytes += bytes;
        self.shrink();
    }

    fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.shrink();
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }

    fn shrink(&mut self) {
        while self.bytes > self.budget {
            match self.entries.pop_lru() {
                Some((_, (_, bytes))) => self.bytes -= bytes,
                None => break,
            }
        }
    }
}

/// Forgets what the renderers made of specs in this isolate (their schema
/// copies and A2UI's components), so the next answer builds them afresh
/// (`Format::forget_projections`; the budgets are configuration and travel
/// in [`Limits`]).
pub(crate) fn forget_projections() {
    PROJECTIONS.with(|memo| memo.borrow_mut().clear());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::spec::GeneratorId;
    use crate::plan::{Node, Plan};
    use serde_json::json;

    fn spec(hash: &str) -> Rc<UiSpec> {
        Rc::new(UiSpec {
            spec_version: 1,
            spec_hash: hash.into(),
            generator: GeneratorId {
                generator: "deterministic".into(),
                generator_version: "t".into(),
            },
            draft: "2020-12".into(),
            description: String::new(),
            schema: json!({}),
            plan: Plan {
                title: None,
                root: Node::Vertical { elements: vec![] },
            },
            defaults: json!({}),
        })
    }

    #[test]
    fn specs_are_bounded_by_bytes_and_recency() {
        let mut memory = ByteLru::new(100);
        let put = |memory: &mut ByteLru<String, Rc<UiSpec>>, hash: &str, bytes| {
            memory.put(hash.to_owned(), spec(hash), bytes)
        };
        put(&mut memory, "a", 20);
        put(&mut memory, "b", 20);
        put(&mut memory, "a", 20); // replaced, not counted twice
        assert_eq!(memory.bytes, 40);
        memory.get("a");
        put(&mut memory, "c", 20);
        put(&mut memory, "d", 20);
        put(&mut memory, "e", 20);
        assert_eq!(memory.bytes, 100);
        put(&mut memory, "f", 20);
        assert!(memory.get("b").is_none(), "least recently used goes first");
        assert!(memory.get("a").is_some());
        put(&mut memory, "huge", 26);
        assert!(
            memory.get("huge").is_none(),
            "over a quarter of the budget is not kept"
        );
        memory.set_budget(0);
        assert_eq!((memory.bytes, memory.entries.len()), (0, 0));
    }

    /// The specs memo takes its budget from the limits of the job asking:
    /// a job whose limits keep no specs never gets one, even one a
    /// remembering job left, and a remembering job after it starts over.
    #[test]
    fn the_spec_memory_follows_the_limits_asking() {
        let remembering = Limits::default();
        let forgetful = Limits {
            spec_memory_bytes: 0,
            ..Limits::default()
        };
        remember_spec(spec("budgeted"), 100, &remembering);
        assert!(spec_of("budgeted", &remembering).is_some());
        assert!(spec_of("budgeted", &forgetful).is_none());
        assert!(spec_of("budgeted", &remembering).is_none(), "evicted");
        remember_spec(spec("budgeted"), 100, &forgetful);
        assert!(spec_of("budgeted", &remembering).is_none(), "never kept");
    }

    fn spec_of(hash: &str, limits: &Limits) -> Option<Rc<UiSpec>> {
        super::spec(hash, limits)
    }

    #[test]
    fn value_bytes_grow_with_the_tree() {
        assert_eq!(value_bytes(&json!(1)), 0);
        assert_eq!(value_bytes(&json!("abcd")), 4);
        let one = value_bytes(&json!({"a": "xy"}));
        let two = value_bytes(&json!({"a": "xy", "b": "xy"}));
        assert!(one > 2 && two == 2 * one, "{one} {two}");
        assert!(value_bytes(&json!([[1], [1, 2]])) > value_bytes(&json!([[1]])));
        const { assert!(TOTAL_BYTES < 32 * 1024 * 1024) };
    }
}
