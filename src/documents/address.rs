//! Which IP addresses a document may be fetched from.
//!
//! IPv4 is fully allocated, so it is a deny list of every special-purpose
//! range (IANA's IPv4 special-purpose registry). IPv6 is an allow list: only
//! global unicast (2000::/3) minus its special-purpose blocks is public, and
//! the forms that carry an IPv4 address (mapped, compatible, NAT64) are judged
//! by the address they carry, since that is where the packets end up.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What an address is, as far as fetching from it is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressClass {
    Public,
    /// 0.0.0.0/8 and `::`: "this host", which Linux connects to itself.
    Unspecified,
    /// 127.0.0.0/8 and `::1`.
    Loopback,
    /// RFC 1918: 10/8, 172.16/12, 192.168/16.
    Private,
    /// 100.64.0.0/10, carrier-grade NAT: the provider's own network.
    SharedAddressSpace,
    /// 169.254/16 (where cloud metadata services live) and fe80::/10.
    LinkLocal,
    /// 224/4 and ff00::/8.
    Multicast,
    /// 255.255.255.255.
    Broadcast,
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    Documentation,
    /// 198.18/15 and 2001:2::/48.
    Benchmarking,
    /// fc00::/7, including AWS's metadata address fd00:ec2::254.
    UniqueLocal,
    /// Everything else that is not routable on the internet: 240/4, IETF
    /// protocol assignments, 6to4, Teredo, local-use NAT64, discard-only,
    /// deprecated site-local, and IPv6 outside 2000::/3.
    Reserved,
}

impl AddressClass {
    pub fn is_public(self) -> bool {
        self == AddressClass::Public
    }
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AddressClass::Public => "public",
            AddressClass::Unspecified => "unspecified",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::SharedAddressSpace => "carrier-grade NAT",
            AddressClass::LinkLocal => "link-local",
            AddressClass::Multicast => "multicast",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Documentation => "documentation",
            AddressClass::Benchmarking => "benchmarking",
            AddressClass::UniqueLocal => "unique-local",
            AddressClass::Reserved => "reserved",
        })
    }
}

pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    let [a, b, c, _] = ip.octets();
    match (a, b, c) {
        (0, _, _) => AddressClass::Unspecified,
        (10, _, _) => AddressClass::Private,
        (100, 64..=127, _) => AddressClass::SharedAddressSpace,
        (127, _, _) => AddressClass::Loopback,
        (169, 254, _) => AddressClass::LinkLocal,
        (172, 16..=31, _) => AddressClass::Private,
        // 192.0.0.0/24 holds the IETF protocol assignments (DS-Lite, NAT64
        // discovery, ...); none of them serves documents.
        (192, 0, 0) => AddressClass::Reserved,
        (192, 0, 2) => AddressClass::Documentation,
        // The deprecated 6to4 relay anycast prefix.
        (192, 88, 99) => AddressClass::Reserved,
        (192, 168, _) => AddressClass::Private,
        (198, 18..=19, _) => AddressClass::Benchmarking,
        (198, 51, 100) => AddressClass::Documentation,
        (203, 0, 113) => AddressClass::Documentation,
        (224..=239, _, _) => AddressClass::Multicast,
        _ if ip == Ipv4Addr::BROADCAST => AddressClass::Broadcast,
        (240..=255, _, _) => AddressClass::Reserved,
        _ => AddressClass::Public,
    }
}

fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    if ip.is_unspecified() {
        return AddressClass::Unspecified;
    }
    if ip.is_loopback() {
        return AddressClass::Loopback;
    }
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    let s = ip.segments();
    if s[0] & 0xff00 == 0xff00 {
        return AddressClass::Multicast;
    }
    if s[0] & 0xffc0 == 0xfe80 {
        return AddressClass::LinkLocal;
    }
    if s[0] & 0xfe00 == 0xfc00 {
        return AddressClass::UniqueLocal;
    }
    if (s[0] == 0x2001 && s[1] == 0x0db8) || (s[0] == 0x3fff && s[1] < 0x1000) {
        return AddressClass::Documentation;
    }
    if s[0] == 0x2001 && s[1] == 0x0002 && s[2] == 0 {
        return AddressClass::Benchmarking;
    }
    if s[0] & 0xe000 != 0x2000 {
        // Outside global unicast: ::/8 leftovers, 64:ff9b:1::/48, 100::/64,
        // fec0::/10 and every unallocated block.
        return AddressClass::Reserved;
    }
    // 2001::/23 (IETF protocol assignments, Teredo among them), 2002::/16
    // (6to4, whose embedded IPv4 may be anything) and 5f00::/16 (SRv6 SIDs).
    if (s[0] == 0x2001 && s[1] < 0x0200) || s[0] == 0x2002 || s[0] == 0x5f00 {
        return AddressClass::Reserved;
    }
    AddressClass::Public
}

/// The IPv4 address an IPv6 address delivers to: IPv4-mapped (::ffff:0:0/96),
/// the deprecated IPv4-compatible form (::/96) and the NAT64 well-known prefix
/// (64:ff9b::/96), which a NAT64 gateway translates into that IPv4 address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let [.., a, b, c, d] = ip.octets();
    let v4 = Ipv4Addr::new(a, b, c, d);
    match s[..6] {
        [0, 0, 0, 0, 0, 0xffff] | [0, 0, 0, 0, 0, 0] | [0x64, 0xff9b, 0, 0, 0, 0] => Some(v4),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressClass::*;

    fn class(text: &str) -> AddressClass {
        classify(text.parse().unwrap())
    }

    fn assert_classes(cases: &[(&str, AddressClass)]) {
        for (text, expected) in cases {
            assert_eq!(class(text), *expected, "{text}");
        }
    }

    #[test]
    fn ipv4_special_ranges_are_not_public() {
        assert_classes(&[
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("10.0.0.0", Private),
            ("10.255.255.255", Private),
            ("100.64.0.0", SharedAddressSpace),
            ("100.127.255.255", SharedAddressSpace),
            ("127.0.0.1", Loopback),
            ("127.255.255.254", Loopback),
            ("169.254.0.1", LinkLocal),
            ("169.254.169.254", LinkLocal),
            ("172.16.0.0", Private),
            ("172.31.255.255", Private),
            ("192.0.0.8", Reserved),
            ("192.0.0.170", Reserved),
            ("192.0.2.1", Documentation),
            ("192.88.99.1", Reserved),
            ("192.168.0.1", Private),
            ("192.168.255.255", Private),
            ("198.18.0.1", Benchmarking),
            ("198.19.255.255", Benchmarking),
            ("198.51.100.7", Documentation),
            ("203.0.113.9", Documentation),
            ("224.0.0.1", Multicast),
            ("239.255.255.250", Multicast),
            ("240.0.0.1", Reserved),
            ("255.255.255.254", Reserved),
            ("255.255.255.255", Broadcast),
        ]);
    }

    #[test]
    fn ipv4_neighbours_of_the_special_ranges_are_public() {
        assert_classes(&[
            ("1.1.1.1", Public),
            ("8.8.8.8", Public),
            ("9.255.255.255", Public),
            ("11.0.0.0", Public),
            ("100.63.255.255", Public),
            ("100.128.0.0", Public),
            ("126.255.255.255", Public),
            ("128.0.0.0", Public),
            ("169.253.255.255", Public),
            ("169.255.0.0", Public),
            ("172.15.255.255", Public),
            ("172.32.0.0", Public),
            ("192.0.1.0", Public),
            ("192.0.3.0", Public),
            ("192.167.255.255", Public),
            ("192.169.0.0", Public),
            ("198.17.255.255", Public),
            ("198.20.0.0", Public),
            ("203.0.112.255", Public),
            ("223.255.255.255", Public),
        ]);
    }

    #[test]
    fn ipv6_special_ranges_are_not_public() {
        assert_classes(&[
            ("::", Unspecified),
            ("::1", Loopback),
            ("fe80::1", LinkLocal),
            ("febf:ffff::1", LinkLocal),
            ("fc00::1", UniqueLocal),
            ("fd12:3456::1", UniqueLocal),
            ("fd00:ec2::254", UniqueLocal),
            ("ff02::1", Multicast),
            ("ff0e::fb", Multicast),
            ("2001:db8::1", Documentation),
            ("3fff::1", Documentation),
            ("3fff:fff:ffff::1", Documentation),
            ("2001:2::1", Benchmarking),
            ("2001::1", Reserved),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", Reserved),
            ("2001:10::1", Reserved),
            ("2002:a00:1::1", Reserved),
            ("2002:c000:0204::1", Reserved),
            ("5f00::1", Reserved),
            ("64:ff9b:1::a00:1", Reserved),
            ("100::1", Reserved),
            ("fec0::1", Reserved),
            ("4000::1", Reserved),
            ("1::1", Reserved),
        ]);
    }

    #[test]
    fn ipv6_global_unicast_is_public() {
        assert_classes(&[
            ("2606:4700:4700::1111", Public),
            ("2a00:1450:4001:82b::200e", Public),
            ("2001:200::1", Public),
            ("2001:4860:4860::8888", Public),
            ("2003::1", Public),
            ("3ffe::1", Public),
            ("3ffe:ffff::1", Public),
            ("3fff:1000::1", Public),
        ]);
    }

    #[test]
    fn ipv6_forms_carrying_ipv4_are_judged_by_the_ipv4_address() {
        assert_classes(&[
            ("::ffff:127.0.0.1", Loopback),
            ("::ffff:7f00:1", Loopback),
            ("::ffff:10.0.0.1", Private),
            ("::ffff:169.254.169.254", LinkLocal),
            ("::ffff:100.64.0.1", SharedAddressSpace),
            ("::ffff:0.0.0.0", Unspecified),
            ("::ffff:255.255.255.255", Broadcast),
            ("::ffff:8.8.8.8", Public),
            ("::127.0.0.1", Loopback),
            ("::10.1.2.3", Private),
            ("::192.168.1.1", Private),
            ("::8.8.8.8", Public),
            ("64:ff9b::10.0.0.1", Private),
            ("64:ff9b::a9fe:a9fe", LinkLocal),
            ("64:ff9b::127.0.0.1", Loopback),
            ("64:ff9b::172.16.0.1", Private),
            ("64:ff9b::8.8.8.8", Public),
        ]);
    }
}
