//! The canonical JSON every cache key hashes: RFC 8785 (JCS), except that
//! integers keep every digit serde_json holds.
//!
//! JCS writes every number as an IEEE-754 double in its ECMAScript form,
//! so integers beyond 2^53 collapse (`9007199254740993` is written
//! `9007199254740992`, `u64::MAX` and `u64::MAX - 1` are both
//! `18446744073709552000`). A key over that form let two schemas that a
//! validator tells apart share one cached spec. Here a number is written
//!
//! - as its exact decimal digits when serde_json holds an integer (any
//!   `u64` or `i64`), or a float that is a whole number from `i64::MIN` up to
//!   `u64::MAX` (so `1.0`, `1e3` and `1000` share a form, as they share a
//!   value);
//! - otherwise (fractions, and whole numbers beyond the `u64`/`i64` range,
//!   which serde_json itself holds only as the nearest double) in the
//!   ECMAScript form JCS prescribes, by `ryu-js`, the formatter `serde_jcs`
//!   uses. Those forms contain a `.` or an exponent, or name a whole
//!   number beyond the integers above, so they never equal an integer's
//!   digits.
//!
//! Distinct number values thus get distinct forms; up to 2^53 both rules
//! give what JCS gives, so keys of schemas without larger integers are
//! unchanged. Strings are escaped by serde_json, whose escapes are the ones
//! JCS prescribes (`\b \t \n \f \r \" \\`, other controls as lowercase
//! `\u00xx`, everything else as UTF-8); object members are sorted by their
//! names' UTF-16 code units; there is no whitespace. A unit test holds the
//! output byte-identical to `serde_jcs` wherever no integer beyond 2^53
//! occurs.
//!
//! The bytes are streamed into SHA-256 through a small buffer: no copy of a
//! (possibly large) schema's canonical text is ever built.

use crate::error::{Error, ErrorCode, Result};
use serde::ser::{Serialize, Serializer};
use serde_json::{Number, Value};
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::io::{self, Write};

/// SHA-256 of `value`'s canonical JSON.
pub(crate) fn sha256(value: &Value) -> Result<[u8; 32]> {
    let mut hashing = Hashing(Sha256::new());
    write(value, &mut hashing)?;
    Ok(hashing.0.finalize().into())
}

/// Writes `value`'s canonical JSON to `out` (buffered: `out` may take
/// many small writes badly).
pub(crate) fn write(value: &Value, out: &mut impl Write) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| {
        Error::new(
            ErrorCode::Internal,
            format!("canonical JSON could not be written: {e}"),
        )
    };
    let mut buffered = io::BufWriter::with_capacity(4096, out);
    let mut serializer = serde_json::Serializer::with_formatter(&mut buffered, Jcs);
    Canonical(value)
        .serialize(&mut serializer)
        .map_err(|e| failed(&e))?;
    buffered.flush().map_err(|e| failed(&e))
}

/// `value`'s canonical JSON as text (for a signature over a small value,
/// such as a resume entry's payload).
pub(crate) fn to_text(value: &Value) -> Result<String> {
    let mut bytes = Vec::new();
    write(value, &mut bytes)?;
    String::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorCode::Internal,
            format!("canonical JSON is not UTF-8: {e}"),
        )
    })
}

/// An `io::Write` that feeds SHA-256.
pub(crate) struct Hashing(pub(crate) Sha256);

impl Write for Hashing {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact writer with JCS's form of a double.
struct Jcs;

impl serde_json::ser::Formatter for Jcs {
    /// Only called with finite values (serde_json writes the others as
    /// `null`, and a `Value` never holds them).
    fn write_f64<W: ?Sized + Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(ryu_js::Buffer::new().format_finite(value).as_bytes())
    }
}

/// A value serialised in canonical form.
struct Canonical<'a>(&'a Value);

impl Serialize for Canonical<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(flag) => serializer.serialize_bool(*flag),
            Value::Number(number) => match exact(number) {
                Form::Integer(digits) => serializer.serialize_i128(digits),
                Form::Double(value) => serializer.serialize_f64(value),
            },
            Value::String(text) => serializer.serialize_str(text),
            Value::Array(items) => serializer.collect_seq(items.iter().map(Canonical)),
            Value::Object(map) => {
                let mut members: Vec<(&String, &Value)> = map.iter().collect();
                sort_by_utf16(&mut members);
                serializer.collect_map(
                    members
                        .into_iter()
                        .map(|(name, value)| (name, Canonical(value))),
                )
            }
        }
    }
}

/// How a number is written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    /// Its exact decimal digits.
    Integer(i128),
    /// JCS's (ECMAScript's) shortest form of a double.
    Double(f64),
}

/// 2^64 (`u64::MAX + 1`), exactly.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
/// `i64::MIN` (-2^63), exactly.
const MINUS_TWO_POW_63: f64 = -9_223_372_036_854_775_808.0;

/// The form of a number serde_json holds (see the module docs).
fn exact(number: &Number) -> Form {
    if let Some(unsigned) = number.as_u64() {
        return Form::Integer(i128::from(unsigned));
    }
    if let Some(signed) = number.as_i64() {
        return Form::Integer(i128::from(signed));
    }
    // Without `arbitrary_precision` every other number is a finite double.
    let double = number.as_f64().unwrap_or(0.0);
    let whole = double.fract() == 0.0 && (MINUS_TWO_POW_63..TWO_POW_64).contains(&double);
    // A whole double in this range converts to i128 exactly.
    if whole {
        Form::Integer(double as i128)
    } else {
        Form::Double(double)
    }
}

/// Sorts object members by their names' UTF-16 code units (RFC 8785
/// §3.2.3). Names below U+E000 sort the same by UTF-8 bytes, which is
/// cheaper, so UTF-16 is only compared when a name has a character there
/// or above (UTF-8 lead byte 0xEE or more).
fn sort_by_utf16(members: &mut [(&String, &Value)]) {
    if members
        .iter()
        .any(|(name, _)| name.bytes().any(|byte| byte >= 0xEE))
    {
        members.sort_unstable_by(|a, b| utf16_order(a.0, b.0));
    } else {
        members.sort_unstable_by(|a, b| a.0.cmp(b.0));
    }
}

fn utf16_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn canonical(value: &Value) -> String {
        to_text(value).unwrap()
    }

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn integers_keep_their_digits_and_doubles_take_the_jcs_form() {
        let cases = [
            ("9007199254740993", "9007199254740993"),
            ("18446744073709551615", "18446744073709551615"),
            ("-9223372036854775808", "-9223372036854775808"),
            // Whole doubles in range: their exact value.
            ("1.0", "1"),
            ("1e3", "1000"),
            ("-0.0", "0"),
            ("1152921504606846976.0", "1152921504606846976"),
            // Beyond u64: serde_json holds the nearest double.
            ("18446744073709551616", "18446744073709552000"),
            ("1e21", "1e+21"),
            ("0.1", "0.1"),
            ("-1.5e-7", "-1.5e-7"),
        ];
        for (text, form) in cases {
            assert_eq!(canonical(&parsed(text)), form, "{text}");
        }
        // JCS writes this double as 1152921504606847000, the digits of
        // another integer; here it keeps its own value.
        assert_ne!(
            canonical(&parsed("1152921504606846976.0")),
            canonical(&parsed("1152921504606847000"))
        );
    }

    #[test]
    fn members_sort_by_utf16_code_units() {
        // U+FF61 is one UTF-16 unit above U+D83D (the lead surrogate of
        // U+1F600), though its code point is lower.
        let value = parsed(r#"{"\uff61":1,"\ud83d\ude00":2,"b":3,"a":{"z":[],"y":"\u0001\n/"}}"#);
        assert_eq!(
            canonical(&value),
            "{\"a\":{\"y\":\"\\u0001\\n/\",\"z\":[]},\"b\":3,\"\u{1F600}\":2,\"\u{FF61}\":1}"
        );
    }

    /// Any JSON whose integers serde_jcs keeps exactly (|n| <= 2^53) and
    /// whose doubles are not whole numbers beyond 2^53.
    fn ordinary_json() -> impl Strategy<Value = Value> {
        let bound = 1_i64 << 53;
        let number = prop_oneof![
            (-bound..=bound).prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite, not a whole number beyond 2^53", |x| x.is_finite()
                    && !(x.fract() == 0.0 && x.abs() > 9_007_199_254_740_992.0))
                .prop_map(Value::from),
        ];
        let text = prop_oneof![
            any::<String>(),
            "[a-c\u{1}\u{7f}\"\\\\/\u{e000}\u{ff61}\u{1f600}]{0,4}"
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            number,
            text.clone().prop_map(Value::from)
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                prop::collection::vec((text.clone(), inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn equals_serde_jcs_without_large_integers(value in ordinary_json()) {
            prop_assert_eq!(canonical(&value).into_bytes(), serde_jcs::to_vec(&value).unwrap());
        }
    }
}
