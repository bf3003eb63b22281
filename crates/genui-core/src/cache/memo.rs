//! What an isolate remembers between requests: compiled `output`
//! validators, proven specs and renderer copies of `output` (the canonical
//! digests of `output` are remembered beside the key, in [`crate::cache::spec`]).
//!
//! A Worker isolate serves many requests one at a time on one thread, so
//! each memo is a thread-local, bounded, least-recently-used map. Every
//! entry is immutable and content-addressed (a spec hash names exactly one
//! spec), so a memo can never answer differently from KV or from a fresh
//! computation; it only answers sooner. Losing the isolate loses nothing.
//!
//! | memo | key | saves | bound |
//! |---|---|---|---|
//! | validators | spec hash | compiling `output` | 64 entries |
//! | specs | spec hash | the KV read and parsing the stored spec | [`DEFAULT_SPEC_MEMORY_BYTES`], settable |
//! | renderer schemas | spec hash, renderer | rewriting `output` for JSON Forms / RJSF | 64 entries |

use crate::cache::spec::UiSpec;
use lru::LruCache;
use std::cell::RefCell;
use std::hash::Hash;
use std::num::NonZeroUsize;
use std::rc::Rc;

/// Compiled validators kept.
const VALIDATOR_ENTRIES: usize = 64;
/// Renderer copies of `output` kept.
const RENDERER_SCHEMA_ENTRIES: usize = 64;
/// Specs kept at most, whatever their size.
const SPEC_ENTRIES: usize = 1024;
/// Default bytes of stored-spec JSON kept (an isolate has 128 MB).
pub(crate) const DEFAULT_SPEC_MEMORY_BYTES: usize = 8 * 1024 * 1024;

thread_local! {
    static VALIDATORS: RefCell<LruCache<String, Rc<jsonschema::Validator>>> = RefCell::new(lru(VALIDATOR_ENTRIES));
    static SPECS: RefCell<SpecMemory> = RefCell::new(SpecMemory::new(DEFAULT_SPEC_MEMORY_BYTES));
    static RENDERER_SCHEMAS: RefCell<LruCache<(String, &'static str), Rc<serde_json::Value>>> = RefCell::new(lru(RENDERER_SCHEMA_ENTRIES));
}

fn lru<K: Hash + Eq, V>(entries: usize) -> LruCache<K, V> {
    LruCache::new(NonZeroUsize::new(entries).unwrap_or(NonZeroUsize::MIN))
}

/// The compiled validator remembered for a spec hash.
pub(crate) fn validator(spec_hash: &str) -> Option<Rc<jsonschema::Validator>> {
    VALIDATORS.with(|memo| memo.borrow_mut().get(spec_hash).cloned())
}

/// Remembers a compiled validator.
pub(crate) fn remember_validator(spec_hash: &str, validator: Rc<jsonschema::Validator>) {
    VALIDATORS.with(|memo| memo.borrow_mut().put(spec_hash.to_owned(), validator));
}

/// The copy of a spec's `output` that `renderer` (`"jsonforms"`, `"rjsf"`)
/// is given, made by `make` the first time this isolate renders the spec
/// that way (the copies rewrite the whole schema; see `render::renderable`).
pub(crate) fn renderer_schema(spec_hash: &str, renderer: &'static str, make: impl FnOnce() -> serde_json::Value) -> Rc<serde_json::Value> {
    let key = (spec_hash.to_owned(), renderer);
    if let Some(found) = RENDERER_SCHEMAS.with(|memo| memo.borrow_mut().get(&key).cloned()) {
        return found;
    }
    let made = Rc::new(make());
    RENDERER_SCHEMAS.with(|memo| memo.borrow_mut().put(key, made.clone()));
    made
}

/// The proven spec remembered under a spec hash.
pub(crate) fn spec(spec_hash: &str) -> Option<Rc<UiSpec>> {
    SPECS.with(|memo| memo.borrow_mut().get(spec_hash))
}

/// Remembers a proven spec; `bytes` is the size of its stored JSON.
pub(crate) fn remember_spec(spec: Rc<UiSpec>, bytes: usize) {
    SPECS.with(|memo| memo.borrow_mut().put(spec, bytes));
}

/// Sets how many bytes of specs the isolate keeps (0 turns the memo off,
/// so every hit reads KV). The shell calls it per request from its
/// configuration; shrinking evicts at once.
pub(crate) fn set_spec_memory_bytes(bytes: usize) {
    SPECS.with(|memo| memo.borrow_mut().set_budget(bytes));
}

/// An LRU of specs bounded by their total stored size.
struct SpecMemory {
    entries: LruCache<String, (Rc<UiSpec>, usize)>,
    bytes: usize,
    budget: usize,
}

impl SpecMemory {
    fn new(budget: usize) -> Self {
        Self { entries: lru(SPEC_ENTRIES), bytes: 0, budget }
    }

    fn get(&mut self, spec_hash: &str) -> Option<Rc<UiSpec>> {
        self.entries.get(spec_hash).map(|(spec, _)| spec.clone())
    }

    fn put(&mut self, spec: Rc<UiSpec>, bytes: usize) {
        if bytes > self.budget / 4 {
            return; // one huge form must not flush the rest
        }
        // `push` hands back whatever it displaced: the same key's old entry,
        // or the least recent one when the entry bound is reached.
        if let Some((_, old)) = self.entries.push(spec.spec_hash.clone(), (spec, bytes)).map(|(_, v)| v) {
            self.bytes -= old;
        }
        self.bytes += bytes;
        self.shrink();
    }

    fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.shrink();
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

/// What this isolate remembers between requests, as the shell and the
/// benches set it.
#[derive(Debug, Clone, Copy)]
pub struct IsolateMemory;

impl IsolateMemory {
    /// Default bytes of stored-spec JSON kept.
    pub const DEFAULT_SPEC_BYTES: usize = DEFAULT_SPEC_MEMORY_BYTES;

    /// Sets how many bytes of specs are kept (0: every hit reads KV).
    pub fn set_spec_bytes(bytes: usize) {
        set_spec_memory_bytes(bytes);
    }

    /// Forgets the canonical digests of `output` schemas.
    pub fn forget_digests() {
        crate::cache::spec::forget_digests();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Node, Plan};
    use crate::cache::spec::GeneratorId;
    use serde_json::json;

    fn spec(hash: &str) -> Rc<UiSpec> {
        Rc::new(UiSpec {
            spec_version: 1,
            spec_hash: hash.into(),
            generator: GeneratorId { generator: "deterministic".into(), generator_version: "t".into() },
            draft: "2020-12".into(),
            description: String::new(),
            schema: json!({}),
            plan: Plan { title: None, root: Node::Vertical { elements: vec![] } },
            defaults: json!({}),
        })
    }

    #[test]
    fn specs_are_bounded_by_bytes_and_recency() {
        let mut memory = SpecMemory::new(100);
        memory.put(spec("a"), 20);
        memory.put(spec("b"), 20);
        memory.put(spec("a"), 20); // replaced, not counted twice
        assert_eq!(memory.bytes, 40);
        memory.get("a");
        memory.put(spec("c"), 20);
        memory.put(spec("d"), 20);
        memory.put(spec("e"), 20);
        assert_eq!(memory.bytes, 100);
        memory.put(spec("f"), 20);
        assert!(memory.get("b").is_none(), "least recently used goes first");
        assert!(memory.get("a").is_some());
        memory.put(spec("huge"), 26);
        assert!(memory.get("huge").is_none(), "over a quarter of the budget is not kept");
        memory.set_budget(0);
        assert_eq!((memory.bytes, memory.entries.len()), (0, 0));
    }
}
