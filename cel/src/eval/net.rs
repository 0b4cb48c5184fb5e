//! Kubernetes' IP and CIDR libraries (k8s.io/apiserver `pkg/cel/library/ip.go`,
//! `cidr.go`), with Go's `net/netip` semantics: no IPv4-mapped IPv6 addresses, no zones,
//! no leading zeros in IPv4 octets, canonical forms as `netip.Addr.String()` prints them.

use std::any::Any;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use cel::Env;
use cel::common::types::{CelBool, CelInt, CelString, STRING_TYPE, Type};
use cel::common::value::{StaticVal, Val};

use super::overload::{Args, Ret, arg, declare, fail, ok};
use super::urls::go_quote;

pub(crate) static IP_TYPE: Type = Type::new_unspecified_type("net.IP");
pub(crate) static CIDR_TYPE: Type = Type::new_unspecified_type("net.CIDR");

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    declare(env, &IP_TYPE)?;
    declare(env, &CIDR_TYPE)?;
    let ip = || IP_TYPE.to_owned();
    let cidr = || CIDR_TYPE.to_owned();
    env.add_overload("ip", "string_to_ip", vec![STRING_TYPE], string_to_ip)?;
    env.add_overload("isIP", "is_ip", vec![STRING_TYPE], is_ip)?;
    env.add_overload("ip.isCanonical", "ip_is_canonical", vec![STRING_TYPE], ip_is_canonical)?;
    env.add_overload("string", "ip_to_string", vec![ip()], |a| ok(CelString::from(arg::<Ip>(&a, 0)?.to_string())))?;
    env.add_member_overload("family", "ip_family", ip(), vec![], |a| {
        ok(CelInt::from(if arg::<Ip>(&a, 0)?.0.is_ipv4() { 4 } else { 6 }))
    })?;
    env.add_member_overload("isUnspecified", "ip_is_unspecified", ip(), vec![], |a| ip_bool(a, Ip::is_unspecified))?;
    env.add_member_overload("isLoopback", "ip_is_loopback", ip(), vec![], |a| ip_bool(a, Ip::is_loopback))?;
    env.add_member_overload("isLinkLocalMulticast", "ip_is_link_local_multicast", ip(), vec![], |a| {
        ip_bool(a, Ip::is_link_local_multicast)
    })?;
    env.add_member_overload("isLinkLocalUnicast", "ip_is_link_local_unicast", ip(), vec![], |a| {
        ip_bool(a, Ip::is_link_local_unicast)
    })?;
    env.add_member_overload("isGlobalUnicast", "ip_is_global_unicast", ip(), vec![], |a| {
        ip_bool(a, Ip::is_global_unicast)
    })?;

    env.add_overload("cidr", "string_to_cidr", vec![STRING_TYPE], string_to_cidr)?;
    env.add_overload("isCIDR", "is_cidr", vec![STRING_TYPE], is_cidr)?;
    env.add_overload("string", "cidr_to_string", vec![cidr()], |a| {
        ok(CelString::from(arg::<Cidr>(&a, 0)?.to_string()))
    })?;
    env.add_member_overload("containsIP", "cidr_contains_ip_string", cidr(), vec![STRING_TYPE], contains_ip)?;
    env.add_member_overload("containsIP", "cidr_contains_ip_ip", cidr(), vec![ip()], contains_ip)?;
    env.add_member_overload("containsCIDR", "cidr_contains_cidr_string", cidr(), vec![STRING_TYPE], contains_cidr)?;
    env.add_member_overload("containsCIDR", "cidr_contains_cidr", cidr(), vec![cidr()], contains_cidr)?;
    env.add_member_overload("ip", "cidr_ip", cidr(), vec![], |a| ok(Ip(arg::<Cidr>(&a, 0)?.addr.0)))?;
    env.add_member_overload("masked", "cidr_masked", cidr(), vec![], |a| ok(arg::<Cidr>(&a, 0)?.masked()))?;
    env.add_member_overload("prefixLength", "cidr_prefix_length", cidr(), vec![], |a| {
        ok(CelInt::from(arg::<Cidr>(&a, 0)?.bits as i64))
    })?;
    Ok(())
}

/// An IP address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ip(IpAddr);

/// A prefix: an address (not necessarily masked) and a length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cidr {
    addr: Ip,
    bits: u8,
}

macro_rules! opaque {
    ($t:ty, $ty:expr) => {
        impl Val for $t {
            fn get_type(&self) -> &Type {
                &$ty
            }
            fn cel_type() -> &'static Type {
                &$ty
            }
            fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
                Box::new(*self)
            }
            fn as_any(&self) -> Option<&dyn Any> {
                Some(self)
            }
            fn equals(&self, other: &dyn Val) -> bool {
                other.downcast_ref::<$t>().is_some_and(|o| o == self)
            }
        }
        impl StaticVal for $t {}
    };
}
opaque!(Ip, IP_TYPE);
opaque!(Cidr, CIDR_TYPE);

/// Go's `netip.ParseAddr`, its error wording approximated.
fn parse_addr(raw: &str) -> Result<IpAddr, String> {
    if raw.contains('%') {
        return Err(format!("IP address {} with zone value is not allowed", go_quote(raw)));
    }
    let addr: IpAddr = match raw.parse::<IpAddr>() {
        Ok(a) => a,
        Err(_) => {
            let why = if raw.is_empty() {
                "unable to parse IP".to_string()
            } else {
                format!("ParseAddr({}): unable to parse IP", go_quote(raw))
            };
            return Err(format!("IP Address {} parse error during conversion from string: {why}", go_quote(raw)));
        }
    };
    Ok(addr)
}

/// `parseIPAddr`: `netip.ParseAddr` without zones or IPv4-mapped IPv6 addresses.
fn parse_ip(raw: &str) -> Result<Ip, String> {
    let addr = parse_addr(raw)?;
    if let IpAddr::V6(v6) = addr
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {} is not allowed", go_quote(raw)));
    }
    Ok(Ip(addr))
}

/// `parseCIDR`: `netip.ParsePrefix` without IPv4-mapped IPv6 addresses.
fn parse_cidr(raw: &str) -> Result<Cidr, String> {
    let err = |why: String| Err(format!("network address parse error during conversion from string: {why}"));
    let Some((a, b)) = raw.rsplit_once('/') else {
        return err(format!("netip.ParsePrefix({}): no '/'", go_quote(raw)));
    };
    if a.contains('%') {
        return err(format!("netip.ParsePrefix({}): IPv6 zones cannot be present in a prefix", go_quote(raw)));
    }
    let addr: IpAddr = match a.parse() {
        Ok(addr) => addr,
        Err(_) => {
            return err(format!(
                "netip.ParsePrefix({}): ParseAddr({}): unable to parse IP",
                go_quote(raw),
                go_quote(a)
            ));
        }
    };
    let max = if addr.is_ipv4() { 32 } else { 128 };
    let bad_bits = || err(format!("netip.ParsePrefix({}): bad bits after slash: {}", go_quote(raw), go_quote(b)));
    if b.is_empty() || !b.bytes().all(|c| c.is_ascii_digit()) || (b.len() > 1 && b.starts_with('0')) {
        return bad_bits();
    }
    let bits: u32 = match b.parse() {
        Ok(bits) if bits <= max => bits,
        _ => return bad_bits(),
    };
    if let IpAddr::V6(v6) = addr
        && v6.to_ipv4_mapped().is_some()
    {
        return Err(format!("IPv4-mapped IPv6 address {} is not allowed", go_quote(raw)));
    }
    Ok(Cidr { addr: Ip(addr), bits: bits as u8 })
}

impl std::fmt::Display for Ip {
    /// `netip.Addr.String()`: dotted IPv4; RFC 5952 IPv6 (lowercase, the first longest
    /// run of two or more zero groups as `::`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => {
                let g = v6.segments();
                let (mut best, mut best_len, mut i) = (usize::MAX, 0, 0);
                while i < 8 {
                    if g[i] == 0 {
                        let start = i;
                        while i < 8 && g[i] == 0 {
                            i += 1;
                        }
                        if i - start > best_len && i - start >= 2 {
                            best = start;
                            best_len = i - start;
                        }
                    } else {
                        i += 1;
                    }
                }
                let hex = |r: &[u16]| r.iter().map(|x| format!("{x:x}")).collect::<Vec<_>>().join(":");
                if best == usize::MAX {
                    write!(f, "{}", hex(&g))
                } else {
                    write!(f, "{}::{}", hex(&g[..best]), hex(&g[best + best_len..]))
                }
            }
        }
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}

impl Ip {
    fn bits(&self) -> (u128, u32) {
        match self.0 {
            IpAddr::V4(v4) => (u32::from(v4) as u128, 32),
            IpAddr::V6(v6) => (u128::from(v6), 128),
        }
    }

    fn is_unspecified(&self) -> bool {
        self.0.is_unspecified()
    }

    fn is_loopback(&self) -> bool {
        match self.0 {
            IpAddr::V4(v4) => v4.octets()[0] == 127,
            IpAddr::V6(v6) => v6 == Ipv6Addr::LOCALHOST,
        }
    }

    fn is_multicast(&self) -> bool {
        match self.0 {
            IpAddr::V4(v4) => v4.octets()[0] & 0xf0 == 0xe0,
            IpAddr::V6(v6) => v6.segments()[0] & 0xff00 == 0xff00,
        }
    }

    fn is_link_local_multicast(&self) -> bool {
        match self.0 {
            IpAddr::V4(v4) => {
                let o = v4.octets();
                o[0] == 224 && o[1] == 0 && o[2] == 0
            }
            IpAddr::V6(v6) => v6.segments()[0] & 0xff0f == 0xff02,
        }
    }

    fn is_link_local_unicast(&self) -> bool {
        match self.0 {
            IpAddr::V4(v4) => {
                let o = v4.octets();
                o[0] == 169 && o[1] == 254
            }
            IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
        }
    }

    fn is_global_unicast(&self) -> bool {
        if let IpAddr::V4(v4) = self.0
            && (v4 == Ipv4Addr::UNSPECIFIED || v4 == Ipv4Addr::BROADCAST)
        {
            return false;
        }
        !self.is_unspecified() && !self.is_loopback() && !self.is_multicast() && !self.is_link_local_unicast()
    }
}

impl Cidr {
    fn mask(&self) -> u128 {
        let (_, width) = self.addr.bits();
        if self.bits == 0 { 0 } else { (!0u128 >> (128 - width)) & !((1u128 << (width - self.bits as u32)) - 1) }
    }

    fn masked(&self) -> Cidr {
        let (v, _) = self.addr.bits();
        let m = v & self.mask();
        let addr = match self.addr.0 {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::from(m as u32)),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::from(m)),
        };
        Cidr { addr: Ip(addr), bits: self.bits }
    }

    fn contains(&self, ip: &Ip) -> bool {
        let ((a, wa), (b, wb)) = (self.addr.bits(), ip.bits());
        wa == wb && a & self.mask() == b & self.mask()
    }
}

fn ip_bool<'b, 'v>(args: Args<'b, 'v>, f: fn(&Ip) -> bool) -> Ret<'b, 'v> {
    ok(CelBool::from(f(arg::<Ip>(&args, 0)?)))
}

fn string_to_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    match parse_ip(arg::<CelString>(&args, 0)?.inner()) {
        Ok(ip) => ok(ip),
        Err(e) => fail("ip", e),
    }
}

fn is_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelBool::from(parse_ip(arg::<CelString>(&args, 0)?.inner()).is_ok()))
}

fn ip_is_canonical<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let s = arg::<CelString>(&args, 0)?.inner();
    match parse_ip(s) {
        Ok(ip) => ok(CelBool::from(ip.to_string() == s)),
        Err(e) => fail("ip.isCanonical", e),
    }
}

fn string_to_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    match parse_cidr(arg::<CelString>(&args, 0)?.inner()) {
        Ok(c) => ok(c),
        Err(e) => fail("cidr", format!("network address parse error during conversion from string: {e}")),
    }
}

fn is_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelBool::from(parse_cidr(arg::<CelString>(&args, 0)?.inner()).is_ok()))
}

fn contains_ip<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = arg::<Cidr>(&args, 0)?;
    let ip = match args[1].downcast_ref::<CelString>() {
        Some(s) => match parse_ip(s.inner()) {
            Ok(ip) => ip,
            Err(e) => return fail("containsIP", e),
        },
        None => *arg::<Ip>(&args, 1)?,
    };
    ok(CelBool::from(c.contains(&ip)))
}

fn contains_cidr<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let c = arg::<Cidr>(&args, 0)?;
    let other = match args[1].downcast_ref::<CelString>() {
        Some(s) => match parse_cidr(s.inner()) {
            Ok(o) => o,
            Err(e) => {
                return fail("containsCIDR", format!("network address parse error during conversion from string: {e}"));
            }
        },
        None => *arg::<Cidr>(&args, 1)?,
    };
    // `cidr.Masked() == PrefixFrom(other.Addr(), cidr.Bits()) && cidr.Bits() <= other.Bits()`
    let same_family = c.addr.0.is_ipv4() == other.addr.0.is_ipv4();
    let contained = same_family && c.contains(&other.addr) && c.bits <= other.bits;
    ok(CelBool::from(contained))
}
