//! The terms every stage shares, below all of them: the output formats
//! ([`format`]), the devices a form is laid out for ([`device`]), the limits
//! on untrusted input ([`limits`]), the contract schemas of every answer
//! ([`contracts`]), the response handed to the shell ([`response`]) and the warnings a stage leaves for the client
//! ([`warning`]). Nothing here imports a stage; every stage may import this.

pub(crate) mod contracts;
pub(crate) mod device;
pub(crate) mod format;
pub(crate) mod limits;
pub(crate) mod response;
pub(crate) mod signing;
pub(crate) mod warning;
