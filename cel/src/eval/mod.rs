//! Evaluation of rules against objects (in progress).

#[cfg(test)]
mod probe {
    use cel::{Context, Env, Value};
    use std::sync::Arc;

    fn run(src: &str) -> String {
        let mut env = Env::stdlib();
        env.add_extension(cel::extensions::strings).unwrap();
        let env = Arc::new(env);
        let p = match env.compile(src) { Ok(p) => p, Err(e) => return format!("PARSE {e}") };
        let ctx = Context::with_env(env);
        match Value::resolve_val(p.expression(), &ctx) {
            Ok(v) => format!("{:?}", v),
            Err(e) => format!("ERR {e} / {e:?}"),
        }
    }

    #[test]
    fn probe() {
        for s in [
            "1 < 1.5", "1 == 1.0", "{'a': 1}.?b", "{'a': 1}.b", "has({'a': 1}.b)", "[1,2][5]", "1/0", "1%0",
            "9223372036854775807 + 1", "int(1e30)", "'abc'.charAt(5)", "string(timestamp('2021-01-01T10:00:00+02:00'))",
            "timestamp('2021-01-01T10:00:00+02:00').getHours()", "duration('1h') + duration('1m')", "string(duration('1h1m'))",
            "optional.of(1).orValue(2)", "optional.none().or(optional.of(3))", "[1, 2].exists_one(x, x > 1)", "'a'.matches('[')",
            "size('héllo')", "'x' + 1", "true || 1/0 == 1", "[1,2,3].map(x, x * 2)", "dyn(1) == 1u", "'%d items'.format([3])",
            "strings.quote('a\"b')", "[1] == [1.0]", "type(1) == int", "null == null", "{'a': null}.a == null",
            "[1,2].filter(x, x > 1)", "'abc'.substring(1)", "bytes('abc') == b'abc'", "uint(1) + 2u",
            "timestamp('2021-01-01T00:00:00Z') - duration('1h')", "[[1]] + [[2]]", "1 in [1, 2]", "'a' in {'a': 1}",
            "optional.ofNonZeroValue([])", "[?optional.none(), 1]", "{'a': 1}[?'b']", "string(1.5)", "string(1e20)", "double('1e3')",
        ] {
            println!("{s:60} => {}", run(s));
        }
        let v4: Result<std::net::Ipv4Addr, _> = "01.2.3.4".parse();
        println!("ipv4 leading zero {:?}", v4);
        let v6: std::net::Ipv6Addr = "::1.2.3.4".parse().unwrap();
        println!("ipv6 {v6} {}", "2001:db8:0:0:1:0:0:1".parse::<std::net::Ipv6Addr>().unwrap());
        let re = regex::Regex::new("a*").unwrap();
        println!("{:?}", re.find_iter("baaab").map(|m| m.as_str()).collect::<Vec<_>>());
    }
}
