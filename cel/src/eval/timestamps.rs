//! Timestamp fields read in UTC. cel-go reads `t.getHours()` and the other getters
//! without a time zone in UTC (the API server sets `DefaultUTCTimeZone`), while the
//! `cel` crate reads them in the timestamp's own offset: each such call is rewritten,
//! when a rule is compiled, to a getter that reads timestamps in UTC and durations as
//! before.

use cel::Env;
use cel::common::ast::{CallExpr, Expr};
use cel::common::types::{CelDuration, CelInt, CelTimestamp, DURATION_TYPE, TIMESTAMP_TYPE};
use cel::parser::Macro;
use chrono::{Datelike, Timelike, Utc};

use super::overload::{arg, ok};

const GETTERS: &[&str] = &[
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
];

fn utc_name(getter: &str) -> String {
    format!("@utc.{getter}")
}

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    for getter in GETTERS {
        let name = utc_name(getter);
        env.add_macro(Macro::receiver(*getter, 0, move |helper, target, _args| {
            let Some(t) = target.take() else { return Ok(None) };
            Ok(Some(helper.next_expr(Expr::Call(CallExpr {
                func_name: name.clone(),
                target: Some(Box::new(t)),
                args: vec![],
            }))))
        }))?;
    }
    macro_rules! ts {
        ($getter:literal, $f:expr) => {
            env.add_member_overload(
                &utc_name($getter),
                concat!("utc_timestamp_", $getter),
                TIMESTAMP_TYPE,
                vec![],
                |a| {
                    let t = arg::<CelTimestamp>(&a, 0)?.inner().with_timezone(&Utc);
                    let f: fn(&chrono::DateTime<Utc>) -> i64 = $f;
                    ok(CelInt::from(f(&t)))
                },
            )?;
        };
    }
    ts!("getFullYear", |t| t.year() as i64);
    ts!("getMonth", |t| t.month0() as i64);
    ts!("getDayOfYear", |t| t.ordinal0() as i64);
    ts!("getDayOfMonth", |t| t.day0() as i64);
    ts!("getDate", |t| t.day() as i64);
    ts!("getDayOfWeek", |t| t.weekday().num_days_from_sunday() as i64);
    ts!("getHours", |t| t.hour() as i64);
    ts!("getMinutes", |t| t.minute() as i64);
    ts!("getSeconds", |t| t.second() as i64);
    ts!("getMilliseconds", |t| (t.nanosecond() / 1_000_000) as i64);
    macro_rules! dur {
        ($getter:literal, $f:expr) => {
            env.add_member_overload(
                &utc_name($getter),
                concat!("utc_duration_", $getter),
                DURATION_TYPE,
                vec![],
                |a| {
                    let d = *arg::<CelDuration>(&a, 0)?.inner();
                    let f: fn(chrono::Duration) -> i64 = $f;
                    ok(CelInt::from(f(d)))
                },
            )?;
        };
    }
    dur!("getHours", |d| d.num_hours());
    dur!("getMinutes", |d| d.num_minutes());
    dur!("getSeconds", |d| d.num_seconds());
    dur!("getMilliseconds", |d| d.num_milliseconds());
    // `int(duration)`: its nanoseconds, as cel-go converts it.
    env.add_overload("int", "duration_to_int64", vec![DURATION_TYPE], |a| {
        let d = *arg::<CelDuration>(&a, 0)?.inner();
        match d.num_nanoseconds() {
            Some(n) => ok(CelInt::from(n)),
            None => Err(cel::ExecutionError::function_error("int", "integer overflow")),
        }
    })?;
    Ok(())
}
