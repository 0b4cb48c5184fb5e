//! Kubernetes' quantity library (k8s.io/apiserver `pkg/cel/library/quantity.go`) on a
//! port of apimachinery's `resource.Quantity`: the same parsing (suffixes `Ki`..`Ei`,
//! `n`..`E`, exponents `e`/`E`, rounding up to nano precision), and the same two
//! representations (a scaled int64, or an arbitrary-precision decimal), which decide
//! what `isInteger`/`asInteger` answer, as on the server.

use std::any::Any;
use std::cmp::Ordering;

use cel::Env;
use cel::common::types::{CelBool, CelDouble, CelInt, CelString, INT_TYPE, STRING_TYPE, Type};
use cel::common::value::{StaticVal, Val};

use super::overload::{Args, Ret, arg, declare, fail, ok};

pub(crate) static QUANTITY_TYPE: Type = Type::new_unspecified_type("kubernetes.Quantity");

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    declare(env, &QUANTITY_TYPE)?;
    let q = || QUANTITY_TYPE.to_owned();
    env.add_overload("quantity", "string_to_quantity", vec![STRING_TYPE], string_to_quantity)?;
    env.add_overload("isQuantity", "is_quantity_string", vec![STRING_TYPE], is_quantity)?;
    env.add_overload("sign", "quantity_sign", vec![q()], sign)?;
    env.add_member_overload("sign", "quantity_sign_member", q(), vec![], sign)?;
    env.add_member_overload("isGreaterThan", "quantity_is_greater_than", q(), vec![q()], |a| {
        cmp_bool(a, Ordering::Greater)
    })?;
    env.add_member_overload("isLessThan", "quantity_is_less_than", q(), vec![q()], |a| cmp_bool(a, Ordering::Less))?;
    env.add_member_overload("compareTo", "quantity_compare_to", q(), vec![q()], compare_to)?;
    env.add_member_overload("asApproximateFloat", "quantity_get_float", q(), vec![], as_approximate_float)?;
    env.add_member_overload("asInteger", "quantity_get_int", q(), vec![], as_integer)?;
    env.add_member_overload("isInteger", "quantity_is_integer", q(), vec![], is_integer)?;
    env.add_member_overload("add", "quantity_add", q(), vec![q()], |a| arith(a, false))?;
    env.add_member_overload("add", "quantity_add_int", q(), vec![INT_TYPE], |a| arith(a, false))?;
    env.add_member_overload("sub", "quantity_sub", q(), vec![q()], |a| arith(a, true))?;
    env.add_member_overload("sub", "quantity_sub_int", q(), vec![INT_TYPE], |a| arith(a, true))?;
    Ok(())
}

fn string_to_quantity<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    match Quantity::parse(arg::<CelString>(&args, 0)?.inner()) {
        Ok(q) => ok(q),
        Err(e) => fail("quantity", e),
    }
}

fn is_quantity<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelBool::from(Quantity::parse(arg::<CelString>(&args, 0)?.inner()).is_ok()))
}

fn sign<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelInt::from(arg::<Quantity>(&args, 0)?.sign() as i64))
}

fn cmp_bool<'b, 'v>(args: Args<'b, 'v>, want: Ordering) -> Ret<'b, 'v> {
    let (a, b) = (arg::<Quantity>(&args, 0)?, arg::<Quantity>(&args, 1)?);
    ok(CelBool::from(a.cmp(b) == want))
}

fn compare_to<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (a, b) = (arg::<Quantity>(&args, 0)?, arg::<Quantity>(&args, 1)?);
    ok(CelInt::from(a.cmp(b) as i64))
}

fn as_approximate_float<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelDouble::from(arg::<Quantity>(&args, 0)?.approximate_f64()))
}

fn as_integer<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    match arg::<Quantity>(&args, 0)?.as_i64() {
        Some(i) => ok(CelInt::from(i)),
        None => fail("asInteger", "cannot convert value to integer"),
    }
}

fn is_integer<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelBool::from(arg::<Quantity>(&args, 0)?.as_i64().is_some()))
}

fn arith<'b, 'v>(args: Args<'b, 'v>, sub: bool) -> Ret<'b, 'v> {
    let q = arg::<Quantity>(&args, 0)?;
    let y = match args[1].downcast_ref::<CelInt>() {
        Some(i) => Quantity(Amount::Int { value: *i.inner(), scale: 0 }),
        None => arg::<Quantity>(&args, 1)?.clone(),
    };
    let mut r = q.clone();
    if sub {
        r.sub(&y)
    } else {
        r.add(&y)
    }
    ok(r)
}

// --- resource.Quantity ------------------------------------------------------------

/// A quantity: `Int` is apimachinery's `int64Amount` (`value * 10^scale`), `Dec` its
/// `inf.Dec`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Quantity(Amount);

#[derive(Debug, Clone, PartialEq)]
enum Amount {
    Int { value: i64, scale: i32 },
    Dec(Dec),
}

const ERR_FORMAT: &str = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const ERR_NUMERIC: &str = "unable to parse numeric part of quantity";
const ERR_SUFFIX: &str = "unable to parse quantity's suffix";

impl Val for Quantity {
    fn get_type(&self) -> &Type {
        &QUANTITY_TYPE
    }
    fn cel_type() -> &'static Type {
        &QUANTITY_TYPE
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Quantity>().is_some_and(|o| self.cmp(o) == Ordering::Equal)
    }
}
impl StaticVal for Quantity {}

struct Parts<'a> {
    positive: bool,
    value: &'a str,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

/// apimachinery's `parseQuantityString`.
fn parse_quantity_string(s: &str) -> Result<Parts<'_>, &'static str> {
    let b = s.as_bytes();
    let end = b.len();
    let mut p = Parts { positive: true, value: "", num: "", denom: "", suffix: "" };
    let mut pos = 0;
    if pos < end {
        match b[0] {
            b'-' => {
                p.positive = false;
                pos += 1;
            }
            b'+' => pos += 1,
            _ => {}
        }
    }
    // leading zeros
    loop {
        if pos >= end {
            p.num = "0";
            p.value = "0";
            return Ok(p);
        }
        if b[pos] == b'0' { pos += 1 } else { break }
    }
    // numerator
    let start = pos;
    let mut i = pos;
    loop {
        if i >= end {
            p.num = &s[start..end];
            p.value = s;
            return Ok(p);
        }
        if !b[i].is_ascii_digit() {
            p.num = &s[start..i];
            pos = i;
            break;
        }
        i += 1;
    }
    if p.num.is_empty() {
        p.num = "0";
    }
    // denominator
    if pos < end && b[pos] == b'.' {
        pos += 1;
        let start = pos;
        let mut i = pos;
        loop {
            if i >= end {
                p.denom = &s[start..end];
                p.value = s;
                return Ok(p);
            }
            if !b[i].is_ascii_digit() {
                p.denom = &s[start..i];
                pos = i;
                break;
            }
            i += 1;
        }
    }
    p.value = &s[..pos];
    // suffix
    let suffix_start = pos;
    let mut i = pos;
    loop {
        if i >= end {
            p.suffix = &s[suffix_start..end];
            return Ok(p);
        }
        if !b"eEinumkKMGTP".contains(&b[i]) {
            pos = i;
            break;
        }
        i += 1;
    }
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    let mut i = pos;
    loop {
        if i >= end {
            p.suffix = &s[suffix_start..end];
            return Ok(p);
        }
        if !b[i].is_ascii_digit() {
            break;
        }
        i += 1;
    }
    Err(ERR_FORMAT)
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    DecimalExponent,
    BinarySI,
    DecimalSI,
}

/// apimachinery's suffixer: (base, exponent, format).
fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    let dec = |e| Some((10, e, Format::DecimalSI));
    let bin = |e| Some((2, e, Format::BinarySI));
    match suffix {
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "" => dec(0),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        s if s.len() > 1 && (s.starts_with('e') || s.starts_with('E')) => {
            let parsed: i64 = go_parse_int(&s[1..])?;
            Some((10, parsed as i32, Format::DecimalExponent))
        }
        _ => None,
    }
}

/// Go's `strconv.ParseInt(s, 10, 64)`.
fn go_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.strip_prefix('+').unwrap_or(s).parse().ok()
}

fn int64_add(a: i64, b: i64) -> Option<i64> {
    a.checked_add(b)
}

fn int64_multiply(a: i64, b: i64) -> Option<i64> {
    if a == 0 || b == 0 || a == 1 || b == 1 {
        return Some(a.wrapping_mul(b));
    }
    if a == i64::MIN || b == i64::MIN {
        return None;
    }
    a.checked_mul(b)
}

fn positive_scale_int64(base: i64, scale: i32) -> Option<i64> {
    let mut v = base;
    for _ in 0..scale {
        v = int64_multiply(v, 10)?;
    }
    Some(v)
}

impl Quantity {
    /// apimachinery's `ParseQuantity`.
    pub(crate) fn parse(s: &str) -> Result<Quantity, &'static str> {
        if s.is_empty() {
            return Err(ERR_FORMAT);
        }
        if s == "0" {
            return Ok(Quantity(Amount::Int { value: 0, scale: 0 }));
        }
        let p = parse_quantity_string(s)?;
        let (base, exponent, format) = interpret(p.suffix).ok_or(ERR_SUFFIX)?;
        let (precision, mut scale, mut mantissa);
        mantissa = 1i64;
        scale = 0i32;
        match format {
            Format::DecimalExponent | Format::DecimalSI => {
                scale = exponent;
                precision = 18 - (p.num.len() + p.denom.len()) as i32;
            }
            Format::BinarySI => {
                if exponent >= 0 && p.denom.is_empty() {
                    mantissa <<= exponent as u32;
                    precision = 15 - p.num.len() as i32 - (exponent as f32 * 3.0 / 10.0) as i32 - 1;
                } else {
                    precision = -1;
                }
            }
        }
        if precision >= 0 {
            scale -= p.denom.len() as i32;
            if scale >= -9 {
                let shifted = format!("{}{}", p.num, p.denom);
                let value: i64 = shifted.parse().map_err(|_| ERR_NUMERIC)?;
                if let Some(mut result) = int64_multiply(value, mantissa) {
                    if !p.positive {
                        result = result.wrapping_neg();
                    }
                    return Ok(Quantity(Amount::Int { value: result, scale }));
                }
            }
        }
        let mut amount = Dec::parse(p.value).ok_or(ERR_NUMERIC)?;
        if base == 10 {
            amount.scale = amount.scale.wrapping_sub(exponent);
        } else {
            amount.mag = amount.mag.mul_pow2(exponent as u32);
        }
        // Go would build a decimal of billions of digits; none fits a request.
        if !amount.mag.is_zero() && 9i64 - amount.scale as i64 > 100_000 {
            return Err(ERR_NUMERIC);
        }
        let negative = amount.neg;
        amount.neg = false;
        if !amount.mag.is_zero() {
            amount = amount.round_up(9);
        }
        if format == Format::BinarySI {
            let max = Dec { neg: false, mag: Big::from_u64(i64::MAX as u64), scale: 0 };
            if amount.cmp(&max) == Ordering::Greater {
                amount = max;
            }
        }
        amount.neg = negative && !amount.mag.is_zero();
        Ok(Quantity(Amount::Dec(amount)))
    }

    fn to_dec(&self) -> Dec {
        match &self.0 {
            Amount::Int { value, scale } => Dec::from_i64(*value, -scale),
            Amount::Dec(d) => d.clone(),
        }
    }

    fn cmp(&self, o: &Quantity) -> Ordering {
        self.to_dec().cmp(&o.to_dec())
    }

    fn sign(&self) -> i32 {
        match self.to_dec() {
            d if d.mag.is_zero() => 0,
            d if d.neg => -1,
            _ => 1,
        }
    }

    /// `int64Amount.Add`: false when the result doesn't fit.
    fn int_add(a: &mut (i64, i32), b: (i64, i32)) -> bool {
        if b.0 == 0 {
            return true;
        }
        if a.0 == 0 {
            *a = b;
            return true;
        }
        if a.1 == b.1 {
            match int64_add(a.0, b.0) {
                Some(c) => a.0 = c,
                None => return false,
            }
        } else if a.1 > b.1 {
            let Some(c) = positive_scale_int64(a.0, a.1 - b.1).and_then(|c| int64_add(c, b.0)) else { return false };
            *a = (c, b.1);
        } else {
            let Some(c) = positive_scale_int64(b.0, b.1 - a.1).and_then(|c| int64_add(a.0, c)) else { return false };
            a.0 = c;
        }
        true
    }

    fn add(&mut self, y: &Quantity) {
        if let (Amount::Int { value, scale }, Amount::Int { value: yv, scale: ys }) = (&self.0, &y.0) {
            let mut a = (*value, *scale);
            if Self::int_add(&mut a, (*yv, *ys)) {
                self.0 = Amount::Int { value: a.0, scale: a.1 };
                return;
            }
        }
        self.0 = Amount::Dec(self.to_dec().add(&y.to_dec()));
    }

    fn sub(&mut self, y: &Quantity) {
        if let (Amount::Int { value, scale }, Amount::Int { value: yv, scale: ys }) = (&self.0, &y.0) {
            let mut a = (*value, *scale);
            if Self::int_add(&mut a, (yv.wrapping_neg(), *ys)) {
                self.0 = Amount::Int { value: a.0, scale: a.1 };
                return;
            }
        }
        self.0 = Amount::Dec(self.to_dec().add(&y.to_dec().negated()));
    }

    /// `Quantity.AsInt64`.
    fn as_i64(&self) -> Option<i64> {
        match &self.0 {
            Amount::Int { value, scale: 0 } => Some(*value),
            Amount::Int { scale, .. } if *scale < 0 => None,
            Amount::Int { value, scale } => positive_scale_int64(*value, *scale),
            Amount::Dec(_) => None,
        }
    }

    /// `Quantity.AsApproximateFloat64`: the unscaled value times `10^exponent`, in
    /// float64 arithmetic as Go computes it.
    fn approximate_f64(&self) -> f64 {
        let (base, exponent) = match &self.0 {
            Amount::Int { value, scale } => (*value as f64, *scale),
            Amount::Dec(d) => {
                let m: f64 = d.mag.to_string().parse().unwrap_or(f64::INFINITY);
                (if d.neg { -m } else { m }, -d.scale)
            }
        };
        if exponent == 0 {
            return base;
        }
        base * go_pow10(exponent)
    }
}

/// Go's `math.Pow10`, table for table.
fn go_pow10(n: i32) -> f64 {
    let p = |e: i32| -> f64 { format!("1e{e}").parse().unwrap_or(0.0) };
    if (0..=308).contains(&n) {
        return p(n / 32 * 32) * p(n % 32);
    }
    if (-323..=0).contains(&n) {
        let m = -n;
        return p(-(m / 32 * 32)) / p(m % 32);
    }
    if n > 0 { f64::INFINITY } else { 0.0 }
}

/// A decimal: `(-1)^neg * mag * 10^-scale`, as `inf.Dec`.
#[derive(Debug, Clone, PartialEq)]
struct Dec {
    neg: bool,
    mag: Big,
    scale: i32,
}

impl Dec {
    fn from_i64(v: i64, scale: i32) -> Dec {
        Dec { neg: v < 0, mag: Big::from_u64(v.unsigned_abs()), scale }
    }

    /// `inf.Dec.SetString`: an optional sign, digits with at most one point.
    fn parse(s: &str) -> Option<Dec> {
        let (neg, body) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        let digits = format!("{int}{frac}");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mag = Big::parse(&digits);
        Some(Dec { neg: neg && !mag.is_zero(), mag, scale: frac.len() as i32 })
    }

    fn negated(mut self) -> Dec {
        self.neg = !self.neg && !self.mag.is_zero();
        self
    }

    fn rescaled(&self, scale: i32) -> Big {
        self.mag.mul_pow10((scale - self.scale) as u32)
    }

    fn cmp(&self, o: &Dec) -> Ordering {
        let sign = |d: &Dec| {
            if d.mag.is_zero() {
                0
            } else if d.neg {
                -1
            } else {
                1
            }
        };
        let (sa, so) = (sign(self), sign(o));
        if sa != so {
            return sa.cmp(&so);
        }
        let s = self.scale.max(o.scale);
        let c = self.rescaled(s).cmp(&o.rescaled(s));
        if sa < 0 { c.reverse() } else { c }
    }

    fn add(&self, o: &Dec) -> Dec {
        let s = self.scale.max(o.scale);
        let (a, b) = (self.rescaled(s), o.rescaled(s));
        let (neg, mag) = if self.neg == o.neg {
            (self.neg, a.add(&b))
        } else if a.cmp(&b) != Ordering::Less {
            (self.neg, a.sub(&b))
        } else {
            (o.neg, b.sub(&a))
        };
        Dec { neg: neg && !mag.is_zero(), mag, scale: s }
    }

    /// The value rounded away from zero to `scale` digits after the point, at exactly
    /// that scale.
    fn round_up(&self, scale: i32) -> Dec {
        if self.scale <= scale {
            return Dec { neg: self.neg, mag: self.rescaled(scale), scale };
        }
        let (mut q, exact) = self.mag.div_pow10((self.scale - scale) as u32);
        if !exact {
            q = q.add(&Big::from_u64(1));
        }
        Dec { neg: self.neg, mag: q, scale }
    }
}

/// A non-negative integer in base 10^9 limbs, least significant first.
#[derive(Debug, Clone, PartialEq)]
struct Big(Vec<u32>);

const LIMB: u64 = 1_000_000_000;

impl Big {
    fn from_u64(mut v: u64) -> Big {
        let mut limbs = Vec::new();
        while v > 0 {
            limbs.push((v % LIMB) as u32);
            v /= LIMB;
        }
        Big(limbs)
    }

    fn parse(digits: &str) -> Big {
        let b = digits.as_bytes();
        let mut limbs = Vec::new();
        let mut end = b.len();
        while end > 0 {
            let start = end.saturating_sub(9);
            let chunk = std::str::from_utf8(&b[start..end]).unwrap_or("0");
            limbs.push(chunk.parse().unwrap_or(0));
            end = start;
        }
        let mut big = Big(limbs);
        big.trim();
        big
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn mul_small(&self, m: u32) -> Big {
        let mut carry = 0u64;
        let mut out = Vec::with_capacity(self.0.len() + 1);
        for &l in &self.0 {
            let v = l as u64 * m as u64 + carry;
            out.push((v % LIMB) as u32);
            carry = v / LIMB;
        }
        while carry > 0 {
            out.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn mul_pow10(&self, mut k: u32) -> Big {
        if self.is_zero() {
            return Big(Vec::new());
        }
        let mut b = self.clone();
        while k >= 9 {
            if !b.is_zero() {
                b.0.insert(0, 0);
            }
            k -= 9;
        }
        b.mul_small(10u32.pow(k))
    }

    fn mul_pow2(&self, mut k: u32) -> Big {
        let mut b = self.clone();
        while k > 0 {
            let step = k.min(29);
            b = b.mul_small(1 << step);
            k -= step;
        }
        b
    }

    /// `self / 10^k`, and whether it divides exactly.
    fn div_pow10(&self, mut k: u32) -> (Big, bool) {
        let mut b = self.clone();
        let mut exact = true;
        while k > 0 {
            if b.is_zero() {
                break;
            }
            let step = k.min(9);
            let d = 10u64.pow(step);
            let mut rem = 0u64;
            for l in b.0.iter_mut().rev() {
                let cur = rem * LIMB + *l as u64;
                *l = (cur / d) as u32;
                rem = cur % d;
            }
            if rem != 0 {
                exact = false;
            }
            b.trim();
            k -= step;
        }
        (b, exact)
    }

    fn add(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len().max(o.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(o.0.len()) {
            let v = *self.0.get(i).unwrap_or(&0) as u64 + *o.0.get(i).unwrap_or(&0) as u64 + carry;
            out.push((v % LIMB) as u32);
            carry = v / LIMB;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        Big(out)
    }

    /// `self - o`, for `self >= o`.
    fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut v = self.0[i] as i64 - *o.0.get(i).unwrap_or(&0) as i64 - borrow;
            borrow = 0;
            if v < 0 {
                v += LIMB as i64;
                borrow = 1;
            }
            out.push(v as u32);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
}

impl Ord for Big {
    fn cmp(&self, o: &Big) -> Ordering {
        self.0.len().cmp(&o.0.len()).then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, o: &Big) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Eq for Big {}

impl std::fmt::Display for Big {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.split_last() {
            None => f.write_str("0"),
            Some((top, rest)) => {
                write!(f, "{top}")?;
                for l in rest.iter().rev() {
                    write!(f, "{l:09}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
pub(crate) fn parse_for_test(s: &str) -> Result<(bool, String), &'static str> {
    Quantity::parse(s).map(|q| (matches!(q.0, Amount::Int { .. }), q.to_dec().mag.to_string()))
}
