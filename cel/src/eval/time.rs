//! Times and durations as the server reads `format: date`, `date-time` and `duration`
//! strings (kube-openapi `strfmt`, on Go's `time`), and the `date`/`datetime` formats of
//! the format library.

use std::sync::OnceLock;

use chrono::{DateTime, Duration, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone};

/// Go's `time.Parse("2006-01-02", s)`, at UTC.
pub(crate) fn parse_full_date(s: &str) -> Result<DateTime<FixedOffset>, String> {
    let (date, rest) = parse_date_prefix(s)?;
    if !rest.is_empty() {
        return Err(format!("parsing time {s:?}: extra text: {rest:?}"));
    }
    Ok(utc().from_utc_datetime(&date.and_time(NaiveTime::MIN)))
}

fn utc() -> FixedOffset {
    FixedOffset::east_opt(0).expect("zero offset")
}

fn digits(s: &str, n: usize) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    if b.len() < n || !b[..n].iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some((s[..n].parse().ok()?, &s[n..]))
}

fn parse_date_prefix(s: &str) -> Result<(NaiveDate, &str), String> {
    let bad = || format!("parsing time {s:?} as \"2006-01-02\": cannot parse");
    let (y, r) = digits(s, 4).ok_or_else(bad)?;
    let r = r.strip_prefix('-').ok_or_else(bad)?;
    let (m, r) = digits(r, 2).ok_or_else(bad)?;
    let r = r.strip_prefix('-').ok_or_else(bad)?;
    let (d, r) = digits(r, 2).ok_or_else(bad)?;
    if !(1..=12).contains(&m) {
        return Err(format!("parsing time {s:?}: month out of range"));
    }
    let date =
        NaiveDate::from_ymd_opt(y as i32, m, d).ok_or_else(|| format!("parsing time {s:?}: day out of range"))?;
    Ok((date, r))
}

/// `strfmt.ParseDateTime`: RFC 3339 (fractional seconds optional, `Z` or an offset), or
/// a local time without offset taken as UTC; the empty string is the Unix epoch.
pub(crate) fn parse_strfmt_date_time(s: &str) -> Result<DateTime<FixedOffset>, String> {
    if s.is_empty() {
        return Ok(utc().timestamp_opt(0, 0).single().expect("epoch"));
    }
    let bad = || format!("parsing time {s:?} as \"2006-01-02T15:04:05Z07:00\": cannot parse");
    let (date, r) = parse_date_prefix(s).map_err(|_| bad())?;
    let r = r.strip_prefix('T').ok_or_else(bad)?;
    let (h, r) = digits(r, 2).ok_or_else(bad)?;
    let r = r.strip_prefix(':').ok_or_else(bad)?;
    let (mi, r) = digits(r, 2).ok_or_else(bad)?;
    let r = r.strip_prefix(':').ok_or_else(bad)?;
    let (sec, mut r) = digits(r, 2).ok_or_else(bad)?;
    if h > 23 {
        return Err(format!("parsing time {s:?}: hour out of range"));
    }
    if mi > 59 {
        return Err(format!("parsing time {s:?}: minute out of range"));
    }
    if sec > 59 {
        return Err(format!("parsing time {s:?}: second out of range"));
    }
    let mut nanos = 0u32;
    if let Some(frac) = r.strip_prefix('.').or_else(|| r.strip_prefix(',')) {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return Err(bad());
        }
        let mut digits_part: String = frac[..n.min(9)].to_string();
        while digits_part.len() < 9 {
            digits_part.push('0');
        }
        nanos = digits_part.parse().map_err(|_| bad())?;
        r = &frac[n..];
    }
    let offset = if r.is_empty() || r == "Z" {
        utc()
    } else {
        let sign = match r.as_bytes()[0] {
            b'+' => 1,
            b'-' => -1,
            _ => return Err(bad()),
        };
        let (oh, rr) = digits(&r[1..], 2).ok_or_else(bad)?;
        let rr = rr.strip_prefix(':').ok_or_else(bad)?;
        let (om, rr) = digits(rr, 2).ok_or_else(bad)?;
        if !rr.is_empty() {
            return Err(format!("parsing time {s:?}: extra text: {rr:?}"));
        }
        if oh > 23 || om > 59 {
            return Err(format!("parsing time {s:?}: time zone offset out of range"));
        }
        FixedOffset::east_opt(sign * (oh as i32 * 3600 + om as i32 * 60)).ok_or_else(bad)?
    };
    let time = NaiveTime::from_hms_nano_opt(h, mi, sec, nanos).ok_or_else(bad)?;
    let local = NaiveDateTime::new(date, time);
    // The server's timestamp keeps its offset, but CEL reads its fields in UTC
    // (`getHours()` and the like), which the UTC form gives here.
    offset.from_local_datetime(&local).single().map(|t| t.with_timezone(&utc())).ok_or_else(bad)
}

pub(crate) use kubegen_core::schema::formats::{is_date, is_date_time};

/// `strfmt.ParseDuration`: Go's `time.ParseDuration`, else a sum of `<n><unit>` terms
/// with units `ns`, `us`, `ms`, `s`, `m`, `h`, `d`, `w` and their longer spellings.
pub(crate) fn parse_strfmt_duration(s: &str) -> Result<Duration, String> {
    if let Ok(ns) = crate::go_duration::parse(s) {
        return Ok(Duration::nanoseconds(ns));
    }
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(r"(([0-9]+)[\t\n\x0C\r ]*([A-Za-zµ]+))").expect("regex"));
    const UNITS: &[(&[&str], i64)] = &[
        (&["ns", "nano"], 1),
        (&["us", "µs", "micro"], 1_000),
        (&["ms", "milli"], 1_000_000),
        (&["s", "sec"], 1_000_000_000),
        (&["m", "min"], 60_000_000_000),
        (&["h", "hr", "hour"], 3_600_000_000_000),
        (&["d", "day"], 86_400_000_000_000),
        (&["w", "wk", "week"], 604_800_000_000_000),
    ];
    let mut total: i64 = 0;
    let mut ok = false;
    for m in re.captures_iter(s) {
        let factor: i64 = m[2].parse().map_err(|e| format!("strconv.Atoi: parsing {:?}: {e}", &m[2]))?;
        let unit = m[3].trim().to_lowercase();
        for (variants, mult) in UNITS {
            let last = variants.len() - 1;
            for (i, v) in variants.iter().enumerate() {
                if (i == last && unit.starts_with(v)) || v.eq_ignore_ascii_case(&unit) {
                    ok = true;
                    total = total.wrapping_add(factor.wrapping_mul(*mult));
                }
            }
        }
    }
    if ok { Ok(Duration::nanoseconds(total)) } else { Err(format!("unable to parse {s} as duration")) }
}
