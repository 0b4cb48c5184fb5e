//! Go's `time.ParseDuration`, which CEL's `duration()` follows: the checker uses it for
//! constant arguments, the evaluator for `format: duration` values.

/// Go's `time.ParseDuration`, in nanoseconds.
pub(crate) fn parse(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {orig:?}");
    let mut s = orig;
    let mut neg = false;
    if let Some(c) = s.chars().next()
        && (c == '-' || c == '+')
    {
        neg = c == '-';
        s = &s[1..];
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    const LIMIT: u64 = 1 << 63;
    let mut d: u64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return Err(invalid());
        }
        // integer part
        let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &b[..n] {
            if v > (LIMIT - 1) / 10 {
                return Err(invalid());
            }
            v = v * 10 + (c - b'0') as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        let pre = n > 0;
        s = &s[n..];
        let mut f: u64 = 0;
        let mut scale = 1f64;
        let mut post = false;
        if let Some(rest) = s.strip_prefix('.') {
            s = rest;
            let b = s.as_bytes();
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            let mut overflow = false;
            for &c in &b[..n] {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + (c - b'0') as u64;
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = n > 0;
            s = &s[n..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let i = s.bytes().take_while(|c| !(*c == b'.' || c.is_ascii_digit())).count();
        if i == 0 {
            return Err(format!("time: missing unit in duration {orig:?}"));
        }
        let u = &s[..i];
        s = &s[i..];
        let unit: u64 = match u {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(format!("time: unknown unit {u:?} in duration {orig:?}")),
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok((d as i128).wrapping_neg() as i64);
    }
    if d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}
