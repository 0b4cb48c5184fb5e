//! The string formats the API server checks in a structural schema, as go-openapi's
//! strfmt reads them (`IsDate`, `IsDateTime`): one reading for `Validate`, the CRD lint
//! and the CEL evaluator's `format` checks; and the integer formats' ranges, which the
//! server does not check ([`range`]).

/// The range a node's integers are bounded to without a bound of its own: its format's
/// ([`range`]), or, on an int-or-string, `int32`'s — `x-kubernetes-int-or-string` is
/// Kubernetes' `intstr.IntOrString`, whose integer is an int32 in Go and in k8s-openapi
/// (whose schema kubegen bounds so; the server took 2^52 in one, issue 28's objects tier).
pub fn implied_range(format: Option<&str>, int_or_string: bool) -> Option<(i64, i64)> {
    format.and_then(range).or_else(|| int_or_string.then(|| (i32::MIN.into(), i32::MAX.into())))
}

/// The range of an integer format whose every value a JSON number holds exactly, as
/// `(minimum, maximum)`: `int32` and `uint32` (what Rust's `i32`/`u32`, Go's
/// `int32`/`uint32` and k8s.io/api's fields hold), and schemars' 8- and 16-bit ones.
///
/// The API server never checks a format's range: it stores 2^40 in a `format: int32`
/// field, which no typed client of that field (Go's `int32`, the operator's own `i32`) can
/// read back. A CRD therefore carries the range as `minimum`/`maximum` (the structural pass
/// writes them where the schema sets no tighter bound), and `diff` does not call a CRD that
/// takes up the range a tightening. `int64` and `uint64` are left out: the server compares
/// bounds as float64, which cannot hold their edges.
pub fn range(format: &str) -> Option<(i64, i64)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        _ => return None,
    })
}

/// strfmt's `IsDate`: `YYYY-MM-DD`, a day that exists.
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| {
        b[r.clone()].iter().all(u8::is_ascii_digit).then(|| s[r].parse::<u32>().ok()).flatten()
    };
    let (Some(year), Some(month), Some(day)) = (num(0..4), num(5..7), num(8..10)) else { return false };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// strfmt's `IsDateTime`: a valid date, a `t` (either case), then
/// `HH:MM:SS(.frac)?(z|±HH:MM)` with hours, minutes and seconds in range.
/// The API server's `hostname` format (kube-openapi's strfmt): a single label of a letter,
/// digit or symbol, an optional hyphen and up to 62 more without hyphens, or dotted labels
/// (hyphens inside) ending in a top-level label of 2 to 63 letters; at most 255 bytes, no
/// label over 63. Found by the generated kinds tier: `ly--v6a3` is no hostname to the server.
pub fn is_hostname(s: &str) -> bool {
    use std::sync::OnceLock;
    static RE: OnceLock<Option<regex::Regex>> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(concat!(
            r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|",
            r"([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$"
        ))
        .ok()
    });
    let Some(re) = re else { return true };
    re.is_match(s) && s.len() <= 255 && s.split('.').all(|label| label.len() <= 63)
}

pub fn is_date_time(s: &str) -> bool {
    let lower = s.to_lowercase();
    // strfmt splits on every `t` and reads the first two parts.
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else { return false };
    if !is_date(date) {
        return false;
    }
    let b = time.as_bytes();
    let two = |i: usize| {
        b.get(i..i + 2).filter(|d| d.iter().all(u8::is_ascii_digit)).map(|d| (d[0] - b'0') * 10 + (d[1] - b'0'))
    };
    let (Some(h), Some(m), Some(sec)) = (two(0), two(3), two(6)) else { return false };
    if b.get(2) != Some(&b':') || b.get(5) != Some(&b':') || h > 23 || m > 59 || sec > 59 {
        return false;
    }
    let mut rest = &time[8..];
    if let Some(frac) = rest.strip_prefix(|_: char| true).filter(|_| !rest.starts_with(['z', '+', '-'])) {
        // Any one character, then digits (strfmt's `(.[0-9]+)?`).
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return false;
        }
        rest = &frac[digits..];
    }
    match rest.as_bytes() {
        [b'z'] => true,
        [b'+' | b'-', oh @ ..] if oh.len() == 5 => {
            oh[0].is_ascii_digit()
                && oh[1].is_ascii_digit()
                && oh[2] == b':'
                && oh[3].is_ascii_digit()
                && oh[4].is_ascii_digit()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostnames_as_the_api_server_reads_them() {
        for good in ["a", "a-b", "ab", "example.com", "my-host.example.com", "x1.io"] {
            assert!(super::is_hostname(good), "{good}");
        }
        for bad in ["ly--v6a3", "ab-c", "-a", "a.b.c.1", "a..com", "", "exa mple.com"] {
            assert!(!super::is_hostname(bad), "{bad}");
        }
    }

    #[test]
    fn dates_exist() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2024-13-01"));
        assert!(!is_date("2024-1-01"));
    }

    #[test]
    fn date_times_as_strfmt_reads_them() {
        for good in ["2024-01-01T00:00:00Z", "2024-01-01t23:59:59.123456789+05:30", "2024-01-01T10:00:00-07:00"] {
            assert!(is_date_time(good), "{good}");
        }
        for bad in [
            "2024-01-01T24:00:00Z",
            "2024-01-01T10:60:00Z",
            "2024-01-01",
            "2024-02-30T00:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00.Z",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
    }
}
