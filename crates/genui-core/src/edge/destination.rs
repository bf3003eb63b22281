//! Where the worker may send a request of its own (a callback): a URL's
//! host is a public destination, or it is refused with the reason.
//!
//! Addresses: one table per family, the IANA IPv4 and IPv6 Special-Purpose
//! Address Registries row by row with each row's "Globally Reachable"
//! column, plus the blocks those registries leave to other registries:
//! multicast, the deprecated site-local `fec0::/10`, and IPv6 outside
//! `2000::/3` (the only block IANA allocates for global unicast). The most
//! specific row that contains an address decides, so an exception inside a
//! block (`192.0.0.9` inside `192.0.0.0/24`) is found. An IPv6 address that
//! carries an IPv4 address (IPv4-mapped, IPv4-compatible, IPv4-translated,
//! NAT64, 6to4, Teredo) reaches that IPv4 host, so it is judged by the IPv4
//! address(es) it carries.
//!
//! Names: a single-label name (`metadata`) or one under a special-use or
//! private-use suffix (`.localhost`, `.local`, `.internal`, `.home.arpa`,
//! `.lan`, ...) only a local resolver answers, so it is refused; a trailing
//! dot (`localhost.`) changes nothing. A public name whose DNS answer is an
//! internal address cannot be seen here: a Worker resolves no names itself,
//! and Cloudflare's egress does not reach private networks.
//!
//! IPv4 addresses in other spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`)
//! arrive here as the address they mean: `url` parses the host of an
//! `http`/`https` URL as the WHATWG URL Standard says (the tests hold it to
//! that).
//!
//! Prefixes are `ipnet` types; the tables themselves are this module's.

use ipnet::{Ipv4Net, Ipv6Net};
use std::net::{Ipv4Addr, Ipv6Addr};
use url::Host;

/// Whether a block is a public destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Globally reachable: a callback may go there.
    Global,
    /// Not globally reachable (or reserved, or not unicast).
    Local,
    /// IPv6 that carries IPv4 address(es), judged by them.
    Carries(Carried),
}

/// Where an IPv6 address carries its IPv4 address(es).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Carried {
    /// The last 32 bits (IPv4-mapped, -compatible, -translated; NAT64).
    Last32,
    /// Bits 16..48 (6to4, RFC 3056).
    SixToFour,
    /// The server in bits 32..64 and the client, inverted, in the last 32
    /// bits (Teredo, RFC 4380).
    Teredo,
}

/// One row of a table: a block, what it is, and whether it is public.
#[derive(Debug, Clone, Copy)]
struct Block<N> {
    net: N,
    name: &'static str,
    reach: Reach,
}

const fn v4(octets: [u8; 4], len: u8, name: &'static str, reach: Reach) -> Block<Ipv4Net> {
    let [a, b, c, d] = octets;
    Block {
        net: Ipv4Net::new_assert(Ipv4Addr::new(a, b, c, d), len),
        name,
        reach,
    }
}

const fn v6(segments: [u16; 8], len: u8, name: &'static str, reach: Reach) -> Block<Ipv6Net> {
    let [a, b, c, d, e, f, g, h] = segments;
    Block {
        net: Ipv6Net::new_assert(Ipv6Addr::new(a, b, c, d, e, f, g, h), len),
        name,
        reach,
    }
}

use Reach::{Carries, Global, Local};

/// The IANA IPv4 Special-Purpose Address Registry (2025 edition), and
/// multicast from the IPv4 Multicast Address Space Registry. An address in
/// no row is ordinary global unicast.
const IPV4_BLOCKS: &[Block<Ipv4Net>] = &[
    v4([0, 0, 0, 0], 8, "\"this network\" (RFC 791)", Local),
    v4(
        [0, 0, 0, 0],
        32,
        "\"this host on this network\" (RFC 1122)",
        Local,
    ),
    v4([10, 0, 0, 0], 8, "private use (RFC 1918)", Local),
    v4(
        [100, 64, 0, 0],
        10,
        "shared address space, carrier-grade NAT (RFC 6598)",
        Local,
    ),
    v4([127, 0, 0, 0], 8, "loopback (RFC 1122)", Local),
    v4([169, 254, 0, 0], 16, "link local (RFC 3927)", Local),
    v4([172, 16, 0, 0], 12, "private use (RFC 1918)", Local),
    v4(
        [192, 0, 0, 0],
        24,
        "IETF protocol assignments (RFC 6890)",
        Local,
    ),
    v4(
        [192, 0, 0, 0],
        29,
        "IPv4 service continuity prefix (RFC 7335)",
        Local,
    ),
    v4([192, 0, 0, 8], 32, "IPv4 dummy address (RFC 7600)", Local),
    v4(
        [192, 0, 0, 9],
        32,
        "Port Control Protocol anycast (RFC 7723)",
        Global,
    ),
    v4([192, 0, 0, 10], 32, "TURN anycast (RFC 8155)", Global),
    v4(
        [192, 0, 0, 170],
        32,
        "NAT64/DNS64 discovery (RFC 8880)",
        Local,
    ),
    v4(
        [192, 0, 0, 171],
        32,
        "NAT64/DNS64 discovery (RFC 8880)",
        Local,
    ),
    v4(
        [192, 0, 2, 0],
        24,
        "documentation, TEST-NET-1 (RFC 5737)",
        Local,
    ),
    v4([192, 31, 196, 0], 24, "AS112-v4 (RFC 7535)", Global),
    v4([192, 52, 193, 0], 24, "AMT (RFC 7450)", Global),
    v4(
        [192, 88, 99, 0],
        24,
        "deprecated 6to4 relay anycast (RFC 7526)",
        Local,
    ),
    v4([192, 88, 99, 2], 32, "6a44 relay anycast (RFC 6751)", Local),
    v4([192, 168, 0, 0], 16, "private use (RFC 1918)", Local),
    v4(
        [192, 175, 48, 0],
        24,
        "direct delegation AS112 service (RFC 7534)",
        Global,
    ),
    v4([198, 18, 0, 0], 15, "benchmarking (RFC 2544)", Local),
    v4(
        [198, 51, 100, 0],
        24,
        "documentation, TEST-NET-2 (RFC 5737)",
        Local,
    ),
    v4(
        [203, 0, 113, 0],
        24,
        "documentation, TEST-NET-3 (RFC 5737)",
        Local,
    ),
    v4([224, 0, 0, 0], 4, "multicast (RFC 5771)", Local),
    v4([240, 0, 0, 0], 4, "reserved (RFC 1112)", Local),
    v4(
        [255, 255, 255, 255],
        32,
        "limited broadcast (RFC 919)",
        Local,
    ),
];

/// The IANA IPv6 Special-Purpose Address Registry (2025 edition), the
/// IPv4-carrying forms it leaves out (IPv4-compatible, IPv4-translated),
/// site-local, multicast, and the IPv6 Address Space registry's split:
/// global unicast is `2000::/3`, everything else is reserved.
const IPV6_BLOCKS: &[Block<Ipv6Net>] = &[
    v6(
        [0; 8],
        0,
        "outside 2000::/3, the global unicast space (RFC 4291)",
        Local,
    ),
    v6(
        [0x2000, 0, 0, 0, 0, 0, 0, 0],
        3,
        "global unicast (RFC 4291)",
        Global,
    ),
    v6(
        [0, 0, 0, 0, 0, 0, 0, 1],
        128,
        "the loopback address (RFC 4291)",
        Local,
    ),
    v6([0; 8], 128, "the unspecified address (RFC 4291)", Local),
    v6(
        [0; 8],
        96,
        "IPv4-compatible, deprecated (RFC 4291)",
        Carries(Carried::Last32),
    ),
    v6(
        [0, 0, 0, 0, 0, 0xffff, 0, 0],
        96,
        "IPv4-mapped (RFC 4291)",
        Carries(Carried::Last32),
    ),
    v6(
        [0, 0, 0, 0, 0xffff, 0, 0, 0],
        96,
        "IPv4-translated (RFC 2765)",
        Carries(Carried::Last32),
    ),
    v6(
        [0x64, 0xff9b, 0, 0, 0, 0, 0, 0],
        96,
        "NAT64 (RFC 6052)",
        Carries(Carried::Last32),
    ),
    v6(
        [0x64, 0xff9b, 1, 0, 0, 0, 0, 0],
        48,
        "local-use NAT64 (RFC 8215)",
        Local,
    ),
    v6(
        [0x100, 0, 0, 0, 0, 0, 0, 0],
        64,
        "discard-only (RFC 6666)",
        Local,
    ),
    v6(
        [0x100, 0, 0, 1, 0, 0, 0, 0],
        64,
        "dummy IPv6 prefix (RFC 9780)",
        Local,
    ),
    v6(
        [0x2001, 0, 0, 0, 0, 0, 0, 0],
        23,
        "IETF protocol assignments (RFC 2928)",
        Local,
    ),
    v6(
        [0x2001, 0, 0, 0, 0, 0, 0, 0],
        32,
        "Teredo (RFC 4380)",
        Carries(Carried::Teredo),
    ),
    v6(
        [0x2001, 1, 0, 0, 0, 0, 0, 1],
        128,
        "Port Control Protocol anycast (RFC 7723)",
        Global,
    ),
    v6(
        [0x2001, 1, 0, 0, 0, 0, 0, 2],
        128,
        "TURN anycast (RFC 8155)",
        Global,
    ),
    v6(
        [0x2001, 1, 0, 0, 0, 0, 0, 3],
        128,
        "DNS-SD SRP anycast (RFC 9665)",
        Global,
    ),
    v6(
        [0x2001, 2, 0, 0, 0, 0, 0, 0],
        48,
        "benchmarking (RFC 5180)",
        Local,
    ),
    v6([0x2001, 3, 0, 0, 0, 0, 0, 0], 32, "AMT (RFC 7450)", Global),
    v6(
        [0x2001, 4, 0x112, 0, 0, 0, 0, 0],
        48,
        "AS112-v6 (RFC 7535)",
        Global,
    ),
    v6(
        [0x2001, 0x10, 0, 0, 0, 0, 0, 0],
        28,
        "deprecated ORCHID (RFC 4843)",
        Local,
    ),
    v6(
        [0x2001, 0x20, 0, 0, 0, 0, 0, 0],
        28,
        "ORCHIDv2 (RFC 7343)",
        Global,
    ),
    v6(
        [0x2001, 0x30, 0, 0, 0, 0, 0, 0],
        28,
        "drone remote ID entity tags (RFC 9374)",
        Global,
    ),
    v6(
        [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
        32,
        "documentation (RFC 3849)",
        Local,
    ),
    v6(
        [0x2002, 0, 0, 0, 0, 0, 0, 0],
        16,
        "6to4 (RFC 3056)",
        Carries(Carried::SixToFour),
    ),
    v6(
        [0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0],
        48,
        "direct delegation AS112 service (RFC 7534)",
        Global,
    ),
    v6(
        [0x3fff, 0, 0, 0, 0, 0, 0, 0],
        20,
        "documentation (RFC 9637)",
        Local,
    ),
    v6(
        [0x5f00, 0, 0, 0, 0, 0, 0, 0],
        16,
        "SRv6 segment identifiers (RFC 9602)",
        Local,
    ),
    v6(
        [0xfc00, 0, 0, 0, 0, 0, 0, 0],
        7,
        "unique local (RFC 4193)",
        Local,
    ),
    v6(
        [0xfe80, 0, 0, 0, 0, 0, 0, 0],
        10,
        "link-local unicast (RFC 4291)",
        Local,
    ),
    v6(
        [0xfec0, 0, 0, 0, 0, 0, 0, 0],
        10,
        "site-local unicast, deprecated (RFC 3879)",
        Local,
    ),
    v6(
        [0xff00, 0, 0, 0, 0, 0, 0, 0],
        8,
        "multicast (RFC 4291)",
        Local,
    ),
];

/// Name suffixes only a local resolver answers: the IANA Special-Use Domain
/// Names registry, ICANN's private-use `internal`, and top-level names that
/// networks use privately and the root zone does not delegate. More
/// specific suffixes come first.
const LOCAL_SUFFIXES: &[(&str, &str)] = &[
    ("localhost", "loopback names (RFC 6761)"),
    ("local", "multicast DNS (RFC 6762)"),
    ("internal", "private use (ICANN)"),
    ("home.arpa", "home networks (RFC 8375)"),
    ("arpa", "infrastructure names (RFC 3172)"),
    ("test", "testing (RFC 6761)"),
    ("invalid", "invalid names (RFC 6761)"),
    ("example", "documentation (RFC 6761)"),
    ("onion", "Tor onion services (RFC 7686)"),
    ("alt", "non-DNS name spaces (RFC 9476)"),
    ("lan", "private networks (not a delegated top-level domain)"),
    (
        "home",
        "private networks (not a delegated top-level domain)",
    ),
    (
        "corp",
        "private networks (not a delegated top-level domain)",
    ),
    (
        "intranet",
        "private networks (not a delegated top-level domain)",
    ),
    (
        "private",
        "private networks (not a delegated top-level domain)",
    ),
    (
        "localdomain",
        "private networks (not a delegated top-level domain)",
    ),
];

/// Why `host` is no public destination; `None` when it is one.
pub(crate) fn why_not_public(host: Option<Host<&str>>) -> Option<String> {
    match host {
        None => Some("the URL has no host".to_owned()),
        Some(Host::Domain(name)) => why_name_not_public(name),
        Some(Host::Ipv4(ip)) => why_v4_not_public(ip),
        Some(Host::Ipv6(ip)) => why_v6_not_public(ip),
    }
}

fn why_name_not_public(name: &str) -> Option<String> {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    let under = |suffix: &str| name == suffix || name.ends_with(&format!(".{suffix}"));
    if let Some((suffix, what)) = LOCAL_SUFFIXES.iter().find(|(suffix, _)| under(suffix)) {
        return Some(format!(
            "`{name}` is under `.{suffix}`, kept for {what}; only a local resolver answers it"
        ));
    }
    if !name.contains('.') {
        return Some(format!(
            "`{name}` is a single-label name; only a local resolver answers it"
        ));
    }
    None
}

fn why_v4_not_public(ip: Ipv4Addr) -> Option<String> {
    let block = IPV4_BLOCKS
        .iter()
        .filter(|b| b.net.contains(&ip))
        .max_by_key(|b| b.net.prefix_len())?;
    (block.reach != Global).then(|| {
        format!(
            "{ip} is in {}, {}, which is not globally reachable",
            block.net, block.name
        )
    })
}

fn why_v6_not_public(ip: Ipv6Addr) -> Option<String> {
    let block = most_specific_v6(ip);
    match block.reach {
        Global => None,
        Local => Some(format!(
            "{ip} is in {}, {}, which is not globally reachable",
            block.net, block.name
        )),
        Carries(carried) => carried_ipv4(ip, carried).into_iter().find_map(|v4| {
            let why = why_v4_not_public(v4)?;
            Some(format!(
                "{ip} is {} and carries the IPv4 address {v4}: {why}",
                block.name
            ))
        }),
    }
}

/// The most specific row that holds `ip` (`::/0` holds every address).
fn most_specific_v6(ip: Ipv6Addr) -> &'static Block<Ipv6Net> {
    IPV6_BLOCKS
        .iter()
        .filter(|b| b.net.contains(&ip))
        .max_by_key(|b| b.net.prefix_len())
        .unwrap_or(&IPV6_BLOCKS[0])
}

/// The IPv4 address(es) an IPv6 address of an IPv4-carrying form reaches.
fn carried_ipv4(ip: Ipv6Addr, carried: Carried) -> Vec<Ipv4Addr> {
    let bits = u128::from(ip);
    let at = |shift: u32| Ipv4Addr::from((bits >> shift) as u32);
    match carried {
        Carried::Last32 => vec![at(0)],
        Carried::SixToFour => vec![at(80)],
        Carried::Teredo => vec![at(64), Ipv4Addr::from(!(bits as u32))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(url: &str) -> Option<String> {
        let url = url::Url::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
        why_not_public(url.host())
    }

    fn assert_refused(urls: &[&str]) {
        for url in urls {
            assert!(judged(url).is_some(), "{url} must be refused");
        }
    }

    fn assert_public(urls: &[&str]) {
        for url in urls {
            assert_eq!(judged(url), None, "{url} must be allowed");
        }
    }

    #[test]
    fn ipv4_special_purpose_blocks_are_refused_and_their_neighbours_allowed() {
        assert_refused(&[
            "https://0.0.0.0/",
            "https://0.0.0.1/",
            "https://0.255.255.255/",
            "https://10.0.0.1/",
            "https://10.255.255.255/",
            "https://100.64.0.1/",
            "https://100.127.255.255/",
            "https://127.0.0.1/",
            "https://127.255.255.254/",
            "https://169.254.169.254/",
            "https://172.16.0.1/",
            "https://172.31.255.255/",
            "https://192.0.0.1/",
            "https://192.0.0.8/",
            "https://192.0.0.11/",
            "https://192.0.0.170/",
            "https://192.0.0.171/",
            "https://192.0.0.255/",
            "https://192.0.2.1/",
            "https://192.88.99.1/",
            "https://192.88.99.2/",
            "https://192.168.1.1/",
            "https://198.18.0.1/",
            "https://198.19.255.255/",
            "https://198.51.100.7/",
            "https://203.0.113.7/",
            "https://224.0.0.1/",
            "https://239.255.255.250/",
            "https://240.0.0.1/",
            "https://255.255.255.254/",
            "https://255.255.255.255/",
        ]);
        assert_public(&[
            "https://1.0.0.1/",
            "https://9.255.255.255/",
            "https://11.0.0.0/",
            "https://100.63.255.255/",
            "https://100.128.0.0/",
            "https://126.255.255.255/",
            "https://128.0.0.0/",
            "https://169.253.255.255/",
            "https://169.255.0.0/",
            "https://172.15.255.255/",
            "https://172.32.0.0/",
            "https://191.255.255.255/",
            "https://192.0.0.9/",
            "https://192.0.0.10/",
            "https://192.0.1.0/",
            "https://192.0.3.0/",
            "https://192.31.196.1/",
            "https://192.52.193.1/",
            "https://192.88.98.255/",
            "https://192.167.255.255/",
            "https://192.169.0.0/",
            "https://192.175.48.1/",
            "https://198.17.255.255/",
            "https://198.20.0.0/",
            "https://198.51.99.255/",
            "https://203.0.112.255/",
            "https://223.255.255.255/",
            "https://93.184.216.34/",
        ]);
    }

    #[test]
    fn ipv6_special_purpose_blocks_are_refused_and_their_neighbours_allowed() {
        assert_refused(&[
            "https://[::]/",
            "https://[::1]/",
            "https://[64:ff9b:1::808:808]/",
            "https://[100::1]/",
            "https://[100:0:0:1::1]/",
            "https://[2001::]/",
            "https://[2001:1::4]/",
            "https://[2001:2::1]/",
            "https://[2001:10::1]/",
            "https://[2001:1ff::1]/",
            "https://[2001:db8::1]/",
            "https://[3fff::1]/",
            "https://[3fff:fff::1]/",
            "https://[5f00::1]/",
            "https://[fc00::1]/",
            "https://[fd12:3456::1]/",
            "https://[fe80::1]/",
            "https://[febf::1]/",
            "https://[fec0::1]/",
            "https://[feff::1]/",
            "https://[ff02::1]/",
            "https://[ff0e::1]/",
            "https://[4000::1]/",
            "https://[1fff:ffff::1]/",
            "https://[e000::1]/",
        ]);
        assert_public(&[
            "https://[2000::1]/",
            "https://[2001:1::1]/",
            "https://[2001:1::2]/",
            "https://[2001:1::3]/",
            "https://[2001:3::1]/",
            "https://[2001:4:112::1]/",
            "https://[2001:20::1]/",
            "https://[2001:30::1]/",
            "https://[2001:200::1]/",
            "https://[2001:db7:ffff::1]/",
            "https://[2001:db9::1]/",
            "https://[2606:4700:4700::1111]/",
            "https://[2620:4f:8000::1]/",
            "https://[3ffe:ffff::1]/",
            "https://[3fff:1000::1]/",
            "https://[3fff:ffff::1]/",
        ]);
    }

    #[test]
    fn ipv6_forms_carrying_ipv4_are_judged_by_the_ipv4_address() {
        assert_refused(&[
            // IPv4-compatible, IPv4-mapped, IPv4-translated.
            "https://[::127.0.0.1]/",
            "https://[::0.0.0.2]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[::ffff:192.168.0.1]/",
            "https://[::ffff:0:127.0.0.1]/",
            "https://[::ffff:0:10.0.0.1]/",
            // NAT64: the metadata address; 6to4 of 127.0.0.1 and 10.0.0.1.
            "https://[64:ff9b::a9fe:a9fe]/",
            "https://[64:ff9b::10.0.0.1]/",
            "https://[2002:7f00:1::]/",
            "https://[2002:a00:1::1]/",
            // Teredo: a private server, then a documentation client (RFC 4380's example).
            "https://[2001:0:a00:1:8000:63bf:a247:27dd]/",
            "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
        ]);
        assert_public(&[
            "https://[::93.184.216.34]/",
            "https://[::ffff:93.184.216.34]/",
            "https://[::ffff:0:93.184.216.34]/",
            "https://[64:ff9b::5db8:d822]/",
            "https://[2002:5db8:d822::1]/",
            "https://[2001:0:4136:e378:8000:63bf:a247:27dd]/",
        ]);
        let why = judged("https://[64:ff9b::a9fe:a9fe]/").unwrap_or_default();
        assert!(
            why.contains("169.254.169.254") && why.contains("link local"),
            "{why}"
        );
    }

    #[test]
    fn other_ipv4_spellings_arrive_as_the_address_they_mean() {
        // `url` applies the WHATWG host parser to http(s) URLs.
        for url in [
            "https://2130706433/",
            "https://0x7f000001/",
            "https://0177.0.0.1/",
            "https://127.1/",
            "https://0x7f.0.0.1/",
            "https://127.0.0.1./",
            "http://0/",
            "https://0xa9.0xfe.0xa9.0xfe/",
        ] {
            let parsed = url::Url::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
            assert!(
                matches!(parsed.host(), Some(Host::Ipv4(_))),
                "{url} parsed as {:?}",
                parsed.host()
            );
            assert!(judged(url).is_some(), "{url} must be refused");
        }
        assert_public(&["https://1572395042/"]);
    }

    #[test]
    fn local_names_are_refused_and_public_names_allowed() {
        assert_refused(&[
            "https://metadata/",
            "https://metadata./",
            "https://intranet-host/",
            "https://localhost/",
            "https://localhost./",
            "https://LOCALHOST/",
            "https://api.localhost/",
            "https://printer.local/",
            "https://db.internal/",
            "https://metadata.google.internal./",
            "https://nas.home.arpa/",
            "https://1.0.0.127.in-addr.arpa/",
            "https://router.lan/",
            "https://fileserver.corp/",
            "https://x.test/",
            "https://x.invalid/",
            "https://x.example/",
            "https://x.onion/",
            "https://x.alt/",
            "https://box.localdomain/",
        ]);
        assert_public(&[
            "https://agent.example.com/",
            "https://example.com./",
            "https://localhost.example.com/",
            "https://local.example.org/",
            "https://internal.example.net/",
            "https://lan.example.org/",
            "https://my-arpa.org/",
        ]);
    }

    #[test]
    fn every_row_is_a_canonical_prefix() {
        for block in IPV4_BLOCKS {
            assert_eq!(block.net, block.net.trunc(), "{} has host bits", block.net);
        }
        for block in IPV6_BLOCKS {
            assert_eq!(block.net, block.net.trunc(), "{} has host bits", block.net);
        }
    }
}
