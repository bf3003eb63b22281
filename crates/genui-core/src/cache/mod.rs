//! Cache identity: the data-free spec that is cached, the key it is cached
//! under ([`spec`]), and what an isolate remembers between requests
//! ([`memo`]).

pub(crate) mod heap;
pub(crate) mod memo;
pub(crate) mod spec;
