//! Cache identity: the data-free spec that is cached, the key it is cached
//! under ([`spec`]), the canonical JSON that key hashes ([`canonical`]),
//! and what an isolate remembers between requests ([`memo`]).

pub(crate) mod canonical;
pub(crate) mod heap;
pub(crate) mod memo;
pub(crate) mod spec;
