use cel::Context;
use cel::common::types::CelBool;
use serde_json::{Value as Json, json};

use super::*;

/// The schemas below are written as JSON; the evaluator reads the typed IR.
fn node(schema: &Json) -> Node {
    Node::from_value(schema).expect("a schema")
}

fn validate(schema: &Json, object: &Json, old: Option<&Json>) -> Vec<Violation> {
    super::validate(&node(schema), object, old)
}

fn validate_node(schema: &Json, object: &Json, old: Option<&Json>) -> Vec<Violation> {
    super::validate_node(&node(schema), object, old)
}

/// Evaluates `expr` in the environment, with no variables: its boolean result, or the
/// error as the validator words it.
fn run(expr: &str) -> Result<bool, String> {
    let env = env::env();
    let p = env.compile(expr).map_err(|e| format!("compile: {e}"))?;
    let ctx = Context::with_env(env.clone());
    match cel::Value::resolve_val(p.expression(), &ctx) {
        Ok(v) => v.downcast_ref::<CelBool>().map(|b| *b.inner()).ok_or_else(|| format!("not a bool: {v:?}")),
        Err(e) => Err(describe(&e).0),
    }
}

#[track_caller]
fn yes(exprs: &[&str]) {
    for e in exprs {
        assert_eq!(run(e), Ok(true), "{e}");
    }
}

#[track_caller]
fn fails(expr: &str, contains: &str) {
    match run(expr) {
        Err(e) => assert!(e.contains(contains), "{expr}: {e:?} doesn't contain {contains:?}"),
        Ok(v) => panic!("{expr}: expected an error, got {v}"),
    }
}

fn messages(v: &[Violation]) -> Vec<String> {
    v.iter().map(|v| format!("{}: {}", v.field_path, v.message)).collect()
}

/// A root object schema with `properties` and rules at the root.
fn object(properties: Json, rules: Json) -> Json {
    json!({"type": "object", "properties": properties, "x-kubernetes-validations": rules})
}

// --- the standard library and optional types -------------------------------------

#[test]
fn standard_library_and_optionals() {
    yes(&[
        "1 < 1.5 && 2u > 1 && 1 == 1.0",
        "[1, 2, 3].all(x, x > 0) && [1, 2].exists(x, x == 2) && [1, 2].exists_one(x, x == 2)",
        "[1, 2].map(x, x * 2) == [2, 4] && [1, 2].filter(x, x > 1) == [2]",
        "has({'a': 1}.a) && !has({'a': 1}.b)",
        "'abc'.startsWith('a') && 'abc'.endsWith('c') && 'abc'.contains('b') && 'abc'.matches('^a.c$')",
        "size('héllo') == 5 && size([1]) == 1 && size({'a': 1}) == 1",
        "int('1') == 1 && double('1.5') == 1.5 && string(1) == '1' && uint(1) == 1u",
        "duration('1h') + duration('1m') == duration('61m')",
        "timestamp('2021-01-01T00:00:00Z') + duration('24h') == timestamp('2021-01-02T00:00:00Z')",
        "optional.of(1).hasValue() && optional.of(1).value() == 1",
        "!optional.none().hasValue() && optional.none().orValue(5) == 5",
        "optional.none().or(optional.of(2)).value() == 2",
        "{'a': 1}.?a.value() == 1 && !{'a': 1}.?b.hasValue()",
        "![1, 2][?5].hasValue() && [1, 2][?1].value() == 2",
        "!optional.ofNonZeroValue('').hasValue() && optional.ofNonZeroValue('x').hasValue()",
        "[?optional.none(), 1] == [1] && {?'a': optional.none(), 'b': 2} == {'b': 2}",
        "type(1) == int && type('a') == string",
    ]);
    fails("{'a': 1}.b == 1", "no such key: b");
    fails("[1, 2][5] == 1", "index out of bounds: 5");
    fails("1 / 0 == 1", "division by zero");
    fails("1 % 0 == 1", "modulus by zero");
    fails("9223372036854775807 + 1 > 0", "integer overflow");
    fails("dyn('a') + 1 == 1", "no such overload");
}

#[test]
fn timestamp_getters_read_utc() {
    yes(&[
        "timestamp('2021-01-01T10:00:00+02:00').getHours() == 8",
        "timestamp('2021-01-01T01:00:00+02:00').getDate() == 31",
        "timestamp('2021-01-01T01:00:00+02:00').getFullYear() == 2020",
        "timestamp('2021-03-01T00:00:00Z').getMonth() == 2",
        "timestamp('2021-03-01T00:00:00Z').getDayOfMonth() == 0",
        "timestamp('2021-03-01T00:00:00Z').getDayOfYear() == 59",
        "timestamp('2021-03-01T00:00:00Z').getDayOfWeek() == 1",
        "timestamp('2021-03-01T00:00:01.250Z').getMilliseconds() == 250",
        "timestamp('2021-03-01T00:00:01Z').getSeconds() == 1 && timestamp('2021-03-01T00:02:00Z').getMinutes() == 2",
        "timestamp('2021-01-01T10:00:00Z').getHours('+02:00') == 12",
        "duration('90m').getHours() == 1 && duration('90m').getMinutes() == 90",
        "duration('1.5s').getSeconds() == 1 && duration('1.5s').getMilliseconds() == 1500",
    ]);
}

// --- extensions --------------------------------------------------------------------

#[test]
fn strings_extension() {
    yes(&[
        "'hello'.charAt(1) == 'e' && 'hello'.charAt(5) == ''",
        "'hello mellow'.indexOf('ello') == 1 && 'hello mellow'.indexOf('ello', 2) == 7",
        "'hello mellow'.lastIndexOf('ello') == 7 && 'hello mellow'.lastIndexOf('ello', 6) == 1",
        "'TacoCat'.lowerAscii() == 'tacocat' && 'TacoCat'.upperAscii() == 'TACOCAT'",
        "'hello hello'.replace('he', 'we') == 'wello wello' && 'hello hello'.replace('he', 'we', 1) == 'wello hello'",
        "'a,b,c'.split(',') == ['a', 'b', 'c'] && 'a,b,c'.split(',', 2) == ['a', 'b,c']",
        "'tacocat'.substring(4) == 'cat' && 'tacocat'.substring(0, 4) == 'taco'",
        "'  \\ttrim\\n '.trim() == 'trim'",
        "['a', 'b'].join() == 'ab' && ['a', 'b'].join('-') == 'a-b'",
        "strings.quote('a\"b') == '\"a\\\\\"b\"'",
        "'%s has %d items'.format(['list', 3]) == 'list has 3 items'",
    ]);
    fails("'hello'.charAt(6) == ''", "index out of range: 6");
}

#[test]
fn lists_extension() {
    yes(&[
        "[1, 2, 3, 4].slice(1, 3) == [2, 3] && [[1], [2, [3]]].flatten() == [1, 2, [3]] && [[1], [2, [3]]].flatten(2) == [1, 2, 3]",
        "[1, 2, 1, 1.0].distinct() == [1, 2] && [1, 2, 3].reverse() == [3, 2, 1] && [3, 1, 2].sort() == [1, 2, 3]",
        "['aa', 'b', 'ccc'].sortBy(s, size(s)) == ['b', 'aa', 'ccc'] && lists.range(3) == [0, 1, 2]",
        "[1, 2].first() == optional.of(1) && [1, 2].last() == optional.of(2) && ![].first().hasValue() && ![].last().hasValue()",
        "int(duration('1s')) == 1000000000",
    ]);
}

#[test]
fn two_variable_comprehensions() {
    yes(&[
        "[1, 2, 3].all(i, v, v == i + 1) && !['a', 'b'].all(i, v, i == 0)",
        "{'a': 1, 'b': 2}.all(k, v, v > 0 && k != '') && {'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2)",
        "[5, 6].exists(i, v, i == 1 && v == 6) && ![5, 6].exists(i, v, i == v)",
        "[1, 2, 3].existsOne(i, v, v > 2) && !{'a': 1, 'b': 1}.existsOne(k, v, v == 1)",
        "[10, 20].transformList(i, v, i + v) == [10, 21] && [1, 2, 3].transformList(i, v, v > 1, v * 2) == [4, 6]",
        "{'a': 1, 'b': 2}.transformList(k, v, k + string(v)).sort() == ['a1', 'b2']",
        "[10, 20].transformMap(i, v, v + 1) == {0: 11, 1: 21} && {'a': 1, 'b': 2}.transformMap(k, v, v > 1, v * 10) == {'b': 20}",
        "{'a': 1}.transformMapEntry(k, v, {v: k}) == {1: 'a'} && ['x', 'y'].transformMapEntry(i, v, i == 1, {v: i}) == {'y': 1}",
        "[1, 2].all(i, v, [3].all(j, w, w >= v + i)) && ![1, 2].all(i, v, [3].all(j, w, w > v + i))",
    ]);
    fails("['x', 'x'].transformMapEntry(i, v, {v: i}) == {}", "already exists");
}

#[test]
fn sets_extension() {
    yes(&[
        "sets.contains([1, 2, 3], [1, 2]) && sets.contains([1], []) && !sets.contains([1], [2])",
        "sets.contains([1, 2], [1.0, 2u])",
        "sets.equivalent([1, 2], [2, 1, 1]) && !sets.equivalent([1, 2], [1])",
        "sets.intersects([1, 2], [2, 3]) && !sets.intersects([1], [2]) && !sets.intersects([], [])",
    ]);
}

// --- Kubernetes' libraries ---------------------------------------------------------

#[test]
fn lists_library() {
    yes(&[
        "[1, 2, 3].isSorted() && ['a', 'b', 'b', 'c'].isSorted() && ![2.0, 1.0].isSorted() && [].isSorted()",
        "[1, 3].sum() == 4 && [1.0, 3.0].sum() == 4.0 && [].sum() == 0",
        "[duration('1m'), duration('1s')].sum() == duration('1m1s')",
        "[1u, 2u].sum() == 3u",
        "[1, 3].min() == 1 && [1, 3].max() == 3 && ['b', 'a', 'c'].min() == 'a' && [1].max() == 1",
        "[timestamp('2021-01-01T00:00:00Z'), timestamp('2020-01-01T00:00:00Z')].min() == timestamp('2020-01-01T00:00:00Z')",
        "[1, 2, 2, 3].indexOf(2) == 1 && ['a', 'b', 'b', 'c'].lastIndexOf('b') == 2",
        "[1.0].indexOf(1.1) == -1 && [].indexOf('string') == -1 && [1, 2].indexOf(2.0) == 1",
    ]);
    fails("[].min() == 1", "min called on empty list");
    fails("[].max() == 1", "max called on empty list");
    fails("[9223372036854775807, 1].sum() > 0", "integer overflow");
}

#[test]
fn regex_library() {
    yes(&[
        "'abc 123'.find('[0-9]+') == '123' && 'abc'.find('[0-9]+') == ''",
        "'123 abc 456'.findAll('[0-9]+') == ['123', '456']",
        "'123 abc 456'.findAll('[0-9]+', 1) == ['123'] && '123 abc 456'.findAll('[0-9]+', 0) == []",
        "'123 abc 456'.findAll('[0-9]+', -1) == ['123', '456'] && 'abc'.findAll('[0-9]+') == []",
        "'baaab'.findAll('a*') == ['', 'aaa', '']",
    ]);
    fails("'abc'.find('[') == ''", "Illegal regex");
}

#[test]
fn urls_library() {
    yes(&[
        "isURL('https://user:pass@example.com:80/path?query=val#fragment') && isURL('/absolute-path')",
        "!isURL('https://a:b:c/') && !isURL('../relative-path') && !isURL('') && !isURL('example.com')",
        "url('/path').getScheme() == '' && url('https://example.com/').getScheme() == 'https'",
        "url('HTTPS://example.com/').getScheme() == 'https'",
        "url('https://example.com:80/').getHost() == 'example.com:80' && url('https://example.com/').getHost() == 'example.com'",
        "url('https://[::1]:80/').getHost() == '[::1]:80' && url('https://[::1]/').getHost() == '[::1]' && url('/path').getHost() == ''",
        "url('https://example.com:80/').getHostname() == 'example.com' && url('https://127.0.0.1:80/').getHostname() == '127.0.0.1'",
        "url('https://[::1]:80/').getHostname() == '::1' && url('/path').getHostname() == ''",
        "url('https://example.com:80/').getPort() == '80' && url('https://example.com/').getPort() == '' && url('/path').getPort() == ''",
        "url('https://example.com/path').getEscapedPath() == '/path'",
        "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
        "url('https://example.com').getEscapedPath() == '' && url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'",
        "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
        "url('https://example.com/path?key with spaces=value with spaces').getQuery() == {'key with spaces': ['value with spaces']}",
        "url('https://example.com/path?').getQuery() == {} && url('https://example.com/path').getQuery() == {}",
        "url('https://example.com/path?a=1+2&b=%41').getQuery() == {'a': ['1 2'], 'b': ['A']}",
        "url('https://example.com/a') == url('https://example.com/a') && url('https://example.com/a') != url('https://example.com/b')",
    ]);
    fails(
        "url('https://a:b:c/').getHost() == ''",
        "URL parse error during conversion from string: parse \"https://a:b:c/\": invalid port \":c\" after host",
    );
    fails("url('../relative-path').getHost() == ''", "invalid URI for request");
    fails("url('https://example.com/%zz').getHost() == ''", "invalid URL escape \"%zz\"");
}

#[test]
fn quantity_library() {
    yes(&[
        "isQuantity('20') && isQuantity('20M') && isQuantity('20Mi') && isQuantity('1.3G') && isQuantity('10000k')",
        "isQuantity('1e3') && isQuantity('1E3') && isQuantity('-1.5Gi') && isQuantity('+5m') && isQuantity('0.5')",
        "!isQuantity('20Mo') && !isQuantity('10Mm') && !isQuantity('1,3G') && !isQuantity('200K') && !isQuantity('Three') && !isQuantity('')",
        "quantity('200M') == quantity('200M') && quantity('200M') == quantity('0.2G') && quantity('0.2G') == quantity('200M')",
        "quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M') && quantity('200M') != quantity('0.3G')",
        "quantity('1Ki') == quantity('1024') && quantity('1e3') == quantity('1k') && quantity('1E3') == quantity('1k')",
        "quantity('50M').isLessThan(quantity('50Mi')) && quantity('50M').isLessThan(quantity('100M')) && !quantity('100M').isLessThan(quantity('50M'))",
        "quantity('50Mi').isGreaterThan(quantity('50M')) && quantity('150Mi').isGreaterThan(quantity('100Mi'))",
        "quantity('200M').compareTo(quantity('0.2G')) == 0 && quantity('50M').compareTo(quantity('50Mi')) == -1 && quantity('50Mi').compareTo(quantity('50M')) == 1",
        "quantity('50k').add(quantity('20')) == quantity('50.02k') && !quantity('50k').add(20).isLessThan(quantity('50020'))",
        "quantity('50k').sub(quantity('20')) == quantity('49.98k') && quantity('50k').sub(20) == quantity('49980')",
        "quantity('50k').add(20).sub(quantity('100k')).asInteger() == -49980",
        "quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger() == 20",
        "quantity('50k').asInteger() == 50000 && quantity('1Ti').asInteger() == 1099511627776",
        "!quantity('9999999999999999999999999999999999999G').isInteger() && quantity('50').isInteger()",
        "quantity('50.703k').asApproximateFloat() == 50703.0 && quantity('1.5Gi').asApproximateFloat() == 1610612736.0",
        "quantity('0.5').asApproximateFloat() == 0.5 && quantity('1n').asApproximateFloat() == 0.000000001",
        "quantity('-1').sign() == -1 && quantity('0').sign() == 0 && quantity('1m').sign() == 1 && sign(quantity('-2Ki')) == -1",
        "quantity('0.1n') == quantity('1n') && quantity('-0.1n') == quantity('-1n')",
        "quantity('5Ei').isGreaterThan(quantity('1E')) && quantity('1E') == quantity('1e18')",
    ]);
    // Representations the server keeps, and what `isInteger` answers for them.
    yes(&[
        "!quantity('1000m').isInteger()",
        "!quantity('1Ei').isInteger()",
        "!quantity('1.5Gi').isInteger()",
        "quantity('0').sub(quantity('5')).asInteger() == -5",
        "quantity('1k').sub(quantity('5')).asInteger() == 995",
    ]);
    fails("quantity('10Mo') == quantity('1')", "quantities must match the regular expression");
    fails("quantity('10Mm') == quantity('1')", "unable to parse quantity's suffix");
    fails("quantity('9999999999999999999999999999999999999G').asInteger() == 1", "cannot convert value to integer");
}

#[test]
fn ip_library() {
    yes(&[
        "isIP('127.0.0.1') && isIP('::1') && !isIP('127.0.0.256') && !isIP(':::1') && !isIP('01.2.3.4')",
        "!isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0') && !isIP('')",
        "ip('127.0.0.1').family() == 4 && ip('::1').family() == 6",
        "ip.isCanonical('127.0.0.1') && ip.isCanonical('2001:db8::abcd') && !ip.isCanonical('2001:DB8::ABCD') && !ip.isCanonical('2001:db8::0:0:0:abcd')",
        "ip('0.0.0.0').isUnspecified() && !ip('127.0.0.1').isUnspecified() && ip('::').isUnspecified() && !ip('::1').isUnspecified()",
        "ip('127.0.0.1').isLoopback() && !ip('192.168.0.1').isLoopback() && ip('::1').isLoopback() && !ip('2001:db8::abcd').isLoopback()",
        "ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast() && !ip('fd00::1').isLinkLocalMulticast()",
        "ip('169.254.169.254').isLinkLocalUnicast() && !ip('192.168.0.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && !ip('fd80::1').isLinkLocalUnicast()",
        "ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && ip('2001:db8::abcd').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast()",
        "string(ip('2001:db8:0:0:1:0:0:1')) == '2001:db8::1:0:0:1' && string(ip('::1.2.3.4')) == '::102:304'",
        "ip('127.0.0.1') == ip('127.0.0.1') && ip('::1') != ip('::2')",
        "type(ip('127.0.0.1')) == net.IP",
    ]);
    fails("ip('127.0.0.256').family() == 4", "IP Address \"127.0.0.256\" parse error during conversion from string");
    fails("ip('::ffff:1.2.3.4').family() == 6", "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed");
    fails("ip('fe80::1%eth0').family() == 6", "with zone value is not allowed");
}

#[test]
fn cidr_library() {
    yes(&[
        "isCIDR('192.168.0.0/16') && isCIDR('::1/128') && !isCIDR('192.168.0.0/33') && !isCIDR('::1/129') && !isCIDR('1.2.3.4')",
        "isCIDR('192.168.0.1/16') && !isCIDR('10.0.0.0/08') && !isCIDR('::ffff:1.2.3.4/120')",
        "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && !cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))",
        "cidr('192.168.0.0/24').containsIP('192.168.0.1') && !cidr('192.168.0.0/24').containsIP('192.168.1.1')",
        "!cidr('192.168.0.0/24').containsIP('::1') && cidr('0.0.0.0/0').containsIP('1.2.3.4')",
        "cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24')) && !cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24'))",
        "cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24') && !cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')",
        "cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25') && !cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')",
        "cidr('2001:db8::/32').containsCIDR('2001:db8::/33') && !cidr('2001:db8::/32').containsCIDR('2001:db8::/31')",
        "cidr('192.168.0.1/24').ip() == ip('192.168.0.1') && cidr('192.168.0.1/24').ip().family() == 4 && cidr('::1/128').ip().family() == 6",
        "cidr('192.168.0.0/24').masked() == cidr('192.168.0.0/24') && cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')",
        "cidr('192.168.0.1/24') != cidr('192.168.0.1/24').masked() && cidr('2001:db8:1::/32').masked() == cidr('2001:db8::/32')",
        "cidr('192.168.0.0/16').prefixLength() == 16 && cidr('::1/128').prefixLength() == 128",
        "string(cidr('192.168.0.1/24')) == '192.168.0.1/24' && type(cidr('192.168.0.0/24')) == net.CIDR",
    ]);
    fails(
        "cidr('192.168.0.0/').prefixLength() == 1",
        "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\"",
    );
}

#[test]
fn format_library() {
    yes(&[
        "format.named('dns1123Label').hasValue() && !format.named('nope').hasValue()",
        "format.named('dns1123Label').value().validate('my-name') == optional.none()",
        "format.dns1123Label().validate('my-name') == optional.none() && format.dns1123Label().validate('My_Name').hasValue()",
        "format.dns1123Label().validate('a.b').value() == ['must not contain dots']",
        "format.dns1123Subdomain().validate('apiextensions.k8s.io') == optional.none() && format.dns1123Subdomain().validate('-a').hasValue()",
        "format.dns1035Label().validate('my-name') == optional.none() && format.dns1035Label().validate('1abc').hasValue()",
        "format.qualifiedName().validate('apiextensions.k8s.io/v1beta1') == optional.none() && format.qualifiedName().validate('a/b/c').hasValue()",
        "format.dns1123LabelPrefix().validate('my-label-prefix-') == optional.none() && format.dns1123Label().validate('my-label-prefix-').hasValue()",
        "format.dns1123SubdomainPrefix().validate('mysubdomain.prefix.-') == optional.none()",
        "format.dns1035LabelPrefix().validate('my-label-prefix-') == optional.none()",
        "format.labelValue().validate('') == optional.none() && format.labelValue().validate('a b').hasValue()",
        "format.uri().validate('http://example.com') == optional.none() && format.uri().validate('example.com').value() == ['parse \"example.com\": invalid URI for request']",
        "format.uuid().validate('123e4567-e89b-12d3-a456-426614174000') == optional.none() && format.uuid().validate('123').value() == ['does not match the UUID format']",
        "format.byte().validate('aGVsbG8=') == optional.none() && format.byte().validate('aGVsbG8').value() == ['invalid base64']",
        "format.date().validate('2021-01-01') == optional.none() && format.date().validate('2021-02-30').value() == ['invalid date']",
        "format.datetime().validate('2021-01-01T00:00:00Z') == optional.none() && format.datetime().validate('2021-01-01T25:00:00Z').value() == ['invalid datetime']",
        "format.dns1123Label() == format.dns1123Label() && format.dns1123Label() != format.uri()",
    ]);
    let long = "a".repeat(64);
    assert_eq!(
        run(&format!("format.dns1123Label().validate('{long}').value()[0] == 'must be no more than 63 characters'")),
        Ok(true)
    );
    yes(&[
        "format.dns1123Label().validate('UP').value() == [\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"]",
        "format.qualifiedName().validate('/a').value() == ['prefix part must be non-empty']",
    ]);
}

#[test]
fn semver_library() {
    yes(&[
        "isSemver('1.0.0') && isSemver('0.1.0-alpha.1') && isSemver('1.0.0+build.1') && !isSemver('200K') && !isSemver('v1.0')",
        "!isSemver('1.0') && !isSemver('01.0.0') && !isSemver('1.0.0-01') && isSemver('v1.0', true) && isSemver('1.0', true)",
        "semver('v1.0.0', true) == semver('1.0.0') && semver('1.0', true) == semver('1.0.0') && semver('01.01.01', true) == semver('1.1.1')",
        "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
        "semver('1.2.3').compareTo(semver('1.2.3')) == 0 && semver('1.2.3').compareTo(semver('2.0.0')) == -1 && semver('1.2.3').compareTo(semver('0.1.2')) == 1",
        "semver('1.0.0-alpha').isLessThan(semver('1.0.0')) && semver('1.0.0-alpha.2').isGreaterThan(semver('1.0.0-alpha.1'))",
        "semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta')) && semver('1.0.0-alpha').isLessThan(semver('1.0.0-alpha.1'))",
        "semver('1.0.0+a') == semver('1.0.0+b')",
    ]);
    fails("semver('v1.0.0').major() == 1", "Invalid character(s) found in major number \"v1\"");
    fails(
        "semver('1.0', true).major() == 1 && semver('1.0-a', true).major() == 1",
        "short version cannot contain PreRelease/Build meta data",
    );
}

// --- values typed by the schema -----------------------------------------------------

fn verdict(schema: &Json, object: &Json) -> Vec<String> {
    messages(&validate(schema, object, None))
}

#[test]
fn values_follow_the_schema() {
    let schema = object(
        json!({
            "n": {"type": "number"},
            "i": {"type": "integer"},
            "ios": {"x-kubernetes-int-or-string": true},
            "t": {"type": "string", "format": "date-time"},
            "d": {"type": "string", "format": "date"},
            "dur": {"type": "string", "format": "duration"},
            "b": {"type": "string", "format": "byte"},
            "s": {"type": "string"},
        }),
        json!([
            {"rule": "self.n == 1.0 && type(self.n) == double"},
            {"rule": "type(self.i) == int"},
            {"rule": "type(self.ios) == int || self.ios.endsWith('%')"},
            {"rule": "self.t == timestamp('2021-01-01T08:00:00Z') && self.t.getHours() == 8"},
            {"rule": "self.d == timestamp('2021-03-04T00:00:00Z')"},
            {"rule": "self.dur == duration('90s')"},
            {"rule": "self.b == b'hello'"},
            {"rule": "type(self.s) == string"},
        ]),
    );
    let ok = json!({"n": 1, "i": 2, "ios": "50%", "t": "2021-01-01T10:00:00+02:00", "d": "2021-03-04", "dur": "1m30s", "b": "aGVsbG8=", "s": "x"});
    assert_eq!(verdict(&schema, &ok), Vec::<String>::new());
    let ok = json!({"n": 1.0, "i": 2, "ios": 5, "t": "2021-01-01T08:00:00Z", "d": "2021-03-04", "dur": "90s", "b": "aGVsbG8=", "s": "x"});
    assert_eq!(verdict(&schema, &ok), Vec::<String>::new());
    let bad = json!({"n": 2, "i": 2, "ios": "50", "t": "2021-01-01T08:00:00Z", "d": "2021-03-04", "dur": "1 minutes 30 sec", "b": "aGVsbG8=", "s": "x"});
    assert_eq!(
        verdict(&schema, &bad),
        vec![
            ": failed rule: self.n == 1.0 && type(self.n) == double",
            ": failed rule: type(self.ios) == int || self.ios.endsWith('%')"
        ]
    );
}

#[test]
fn invalid_data_is_an_error_when_used() {
    let schema =
        object(json!({"t": {"type": "string", "format": "date-time"}}), json!([{"rule": "self.t.getHours() == 1"}]));
    let got = verdict(&schema, &json!({"t": "yesterday"}));
    assert_eq!(got.len(), 1);
    assert!(got[0].starts_with(": Invalid date-time formatted string yesterday"), "{got:?}");
    assert!(got[0].ends_with("evaluating rule: self.t.getHours() == 1"), "{got:?}");
}

#[test]
fn absent_and_undeclared_fields() {
    let schema = json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"a": {"type": "string"}, "n": {"type": "string", "nullable": true}},
        "x-kubernetes-validations": [
            {"rule": "!has(self.a)", "message": "a is set"},
            {"rule": "!has(self.extra)", "message": "extra is visible"},
            {"rule": "!has(self.n)", "message": "null n is visible"},
        ]
    });
    assert_eq!(verdict(&schema, &json!({"extra": 1, "n": null})), Vec::<String>::new());
    assert_eq!(verdict(&schema, &json!({"a": "x"})), vec![": a is set"]);
    let read = object(json!({"a": {"type": "string"}}), json!([{"rule": "self.a == 'x'"}]));
    assert_eq!(verdict(&read, &json!({})), vec![": no such key: a evaluating rule: self.a == 'x'"]);
}

#[test]
fn property_names_are_escaped() {
    let schema = object(
        json!({
            "namespace": {"type": "string"},
            "a-b": {"type": "string"},
            "x.y": {"type": "string"},
            "__z": {"type": "string"},
            "has space": {"type": "string"},
        }),
        json!([
            {"rule": "self.__namespace__ == 'n' && self.a__dash__b == 'ab' && self.x__dot__y == 'xy' && self.__underscores__z == 'z'"},
            {"rule": "self.namespace == 'n' && has(self.namespace) && !has(self.a__nope__b)", "message": "plain names read too"},
            {"rule": "self.all(k, k in ['__namespace__', 'a__dash__b', 'x__dot__y', '__underscores__z'])", "message": "iteration"},
        ]),
    );
    assert_eq!(
        verdict(&schema, &json!({"namespace": "n", "a-b": "ab", "x.y": "xy", "__z": "z", "has space": "s"})),
        Vec::<String>::new()
    );
    assert_eq!(verdict(&schema, &json!({"namespace": "m", "a-b": "ab", "x.y": "xy", "__z": "z"})).len(), 2);
}

#[test]
fn resource_root_sees_type_and_object_meta() {
    let schema = json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"x": {"type": "integer"}}}},
        "x-kubernetes-validations": [
            {"rule": "self.metadata.name.startsWith('a') && self.kind == 'K' && self.apiVersion == 'v1'"},
            {"rule": "!has(self.metadata.labels)"},
        ]
    });
    let obj =
        json!({"apiVersion": "v1", "kind": "K", "metadata": {"name": "abc", "labels": {"a": "b"}}, "spec": {"x": 1}});
    assert_eq!(verdict(&schema, &obj), Vec::<String>::new());
    // Without the resource root, only what the schema declares.
    let got = messages(&validate_node(&schema, &obj, None));
    assert_eq!(
        got,
        vec![
            ": no such key: apiVersion evaluating rule: self.metadata.name.startsWith('a') && self.kind == 'K' && self.apiVersion == 'v1'",
            ": no such key: metadata evaluating rule: !has(self.metadata.labels)",
        ]
    );
    // An embedded resource too.
    let embedded = object(
        json!({"template": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-validations": [{"rule": "self.kind == 'Pod' && !has(self.spec)"}]}}),
        json!([]),
    );
    assert_eq!(verdict(&embedded, &json!({"template": {"kind": "Pod", "spec": {"a": 1}}})), Vec::<String>::new());
    assert_eq!(
        verdict(&embedded, &json!({"template": {"kind": "Job"}})),
        vec!["template: failed rule: self.kind == 'Pod' && !has(self.spec)"]
    );
}

// --- the walk, paths and messages ----------------------------------------------------

#[test]
fn paths_of_nested_nodes() {
    let schema = json!({
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string",
                        "x-kubernetes-validations": [{"rule": "self != ''", "message": "name is empty"}]}}}},
                    "m": {"type": "object", "additionalProperties": {"type": "integer",
                        "x-kubernetes-validations": [{"rule": "self >= 0"}]}},
                    "matrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer",
                        "x-kubernetes-validations": [{"rule": "self < 10"}]}}},
                }
            }
        }
    });
    let obj = json!({"spec": {"items": [{"name": "a"}, {"name": ""}], "m": {"ok": 1, "neg.key": -1}, "matrix": [[1], [2, 30]]}});
    assert_eq!(
        verdict(&schema, &obj),
        vec![
            "spec.items[1].name: name is empty",
            "spec.m[neg.key]: failed rule: self >= 0",
            "spec.matrix[1][1]: failed rule: self < 10"
        ]
    );
}

#[test]
fn null_values_are_not_validated() {
    let schema = object(
        json!({"a": {"type": "object", "nullable": true, "properties": {"b": {"type": "string"}}, "x-kubernetes-validations": [{"rule": "false"}]}}),
        json!([]),
    );
    assert_eq!(verdict(&schema, &json!({"a": null})), Vec::<String>::new());
    assert_eq!(verdict(&schema, &json!({"a": {}})), vec!["a: failed rule: false"]);
}

#[test]
fn messages_reasons_and_field_paths() {
    let schema = object(
        json!({"x": {"type": "integer"}, "m": {"type": "object", "additionalProperties": {"type": "string"}}}),
        json!([
            {"rule": "self.x > 0", "message": "  x must be positive  "},
            {"rule": "self.x > 1", "messageExpression": "'x is ' + string(self.x)"},
            {"rule": "self.x > 2", "messageExpression": "'  '", "message": "fallback"},
            {"rule": "self.x > 3", "messageExpression": "self.nope"},
            {"rule": "self.x > 4", "messageExpression": "'a\\nb'"},
            {"rule": "self.x > 5", "messageExpression": "1", "message": "not a string"},
            {"rule": "self.x > 6", "reason": "FieldValueForbidden", "fieldPath": ".x"},
            {"rule": "self.x > 7", "reason": "FieldValueRequired", "fieldPath": ".m['a.b']"},
            {"rule": "self.x > 8", "reason": "Bogus", "fieldPath": ".nope"},
            {"rule": "self.x > 9", "fieldPath": "x"},
        ]),
    );
    let got = validate(&schema, &json!({"x": 0, "m": {}}), None);
    let summary: Vec<(String, String, String)> =
        got.iter().map(|v| (v.field_path.clone(), v.message.clone(), v.reason.clone().unwrap_or_default())).collect();
    let invalid = "FieldValueInvalid".to_string();
    assert_eq!(
        summary,
        vec![
            ("".into(), "x must be positive".into(), invalid.clone()),
            ("".into(), "x is 0".into(), invalid.clone()),
            ("".into(), "fallback".into(), invalid.clone()),
            ("".into(), "failed rule: self.x > 3".into(), invalid.clone()),
            ("".into(), "failed rule: self.x > 4".into(), invalid.clone()),
            ("".into(), "not a string".into(), invalid.clone()),
            ("x".into(), "failed rule: self.x > 6".into(), "FieldValueForbidden".into()),
            ("m[a.b]".into(), "failed rule: self.x > 7".into(), "FieldValueRequired".into()),
            ("".into(), "failed rule: self.x > 8".into(), invalid.clone()),
            ("".into(), "failed rule: self.x > 9".into(), invalid.clone()),
        ]
    );
    // Below the root, the field path is appended to the node's.
    let nested = object(
        json!({"spec": {"type": "object", "properties": {"a": {"type": "string"}},
            "x-kubernetes-validations": [{"rule": "false", "fieldPath": ".a"}, {"rule": "1 / 0 == 1", "message": "m"}]}}),
        json!([]),
    );
    assert_eq!(
        verdict(&nested, &json!({"spec": {}})),
        vec!["spec.a: failed rule: false", "spec: division by zero evaluating rule: m"]
    );
}

#[test]
fn overload_errors_are_worded_as_the_server_does() {
    let schema = object(json!({"v": {"x-kubernetes-int-or-string": true}}), json!([{"rule": "self.v > 1"}]));
    assert_eq!(
        verdict(&schema, &json!({"v": "a"})),
        vec![
            ": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.v > 1"
        ]
    );
}

#[test]
fn all_of_rules_run() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "allOf": [{"x-kubernetes-validations": [{"rule": "self.a > 1"}]}, {"properties": {"a": {"x-kubernetes-validations": [{"rule": "self < 5"}]}}}]
    });
    assert_eq!(verdict(&schema, &json!({"a": 9})), vec!["a: failed rule: self < 5"]);
    assert_eq!(verdict(&schema, &json!({"a": 0})), vec![": failed rule: self.a > 1"]);
}

// --- transition rules ----------------------------------------------------------------

fn update(schema: &Json, new: &Json, old: &Json) -> Vec<String> {
    messages(&validate(schema, new, Some(old)))
}

#[test]
fn transition_rules_need_an_old_value() {
    let schema = object(
        json!({"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]}}),
        json!([{"rule": "!has(oldSelf.a) || has(self.a)", "message": "a cannot be unset"}]),
    );
    assert_eq!(verdict(&schema, &json!({"a": "x"})), Vec::<String>::new());
    assert_eq!(update(&schema, &json!({"a": "x"}), &json!({"a": "x"})), Vec::<String>::new());
    assert_eq!(update(&schema, &json!({"a": "y"}), &json!({"a": "x"})), vec!["a: immutable"]);
    assert_eq!(update(&schema, &json!({}), &json!({"a": "x"})), vec![": a cannot be unset"]);
    // A field new in this update has no old value: its transition rule doesn't run.
    assert_eq!(update(&schema, &json!({"a": "y"}), &json!({})), Vec::<String>::new());
}

#[test]
fn optional_old_self() {
    let schema = object(
        json!({"a": {"type": "string", "x-kubernetes-validations": [
            {"rule": "!oldSelf.hasValue() || oldSelf.value() == self", "optionalOldSelf": true, "message": "immutable once set"},
            {"rule": "oldSelf.hasValue() || self.startsWith('new-')", "optionalOldSelf": true, "message": "new values start with new-"},
        ]}}),
        json!([]),
    );
    assert_eq!(verdict(&schema, &json!({"a": "x"})), vec!["a: new values start with new-"]);
    assert_eq!(verdict(&schema, &json!({"a": "new-x"})), Vec::<String>::new());
    assert_eq!(update(&schema, &json!({"a": "x"}), &json!({"a": "x"})), Vec::<String>::new());
    assert_eq!(update(&schema, &json!({"a": "y"}), &json!({"a": "x"})), vec!["a: immutable once set"]);
    assert_eq!(update(&schema, &json!({"a": "y"}), &json!({})), vec!["a: new values start with new-"]);
}

#[test]
fn list_items_correlate_only_in_map_lists() {
    let item = json!({"type": "object", "properties": {"name": {"type": "string"}, "v": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "self.v >= oldSelf.v", "message": "v cannot decrease"}]});
    let map_list = object(
        json!({"l": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "items": item}}),
        json!([]),
    );
    let old = json!({"l": [{"name": "a", "v": 2}, {"name": "b", "v": 5}]});
    // Reordered: items are found by key.
    assert_eq!(
        update(&map_list, &json!({"l": [{"name": "b", "v": 5}, {"name": "a", "v": 3}]}), &old),
        Vec::<String>::new()
    );
    assert_eq!(
        update(&map_list, &json!({"l": [{"name": "b", "v": 4}, {"name": "a", "v": 3}]}), &old),
        vec!["l[0]: v cannot decrease"]
    );
    // A new key has no old item.
    assert_eq!(update(&map_list, &json!({"l": [{"name": "c", "v": 0}]}), &old), Vec::<String>::new());
    for list_type in [json!(null), json!("atomic")] {
        let mut schema = map_list.clone();
        schema["properties"]["l"]["x-kubernetes-list-type"] = list_type;
        assert_eq!(update(&schema, &json!({"l": [{"name": "a", "v": 0}]}), &old), Vec::<String>::new());
    }
}

#[test]
fn set_and_map_lists_compare_ignoring_order() {
    let schema = object(
        json!({
            "s": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "m": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}},
            "a": {"type": "array", "items": {"type": "string"}},
        }),
        json!([
            {"rule": "self.s == oldSelf.s", "message": "s changed"},
            {"rule": "self.m == oldSelf.m", "message": "m changed"},
            {"rule": "self.a == oldSelf.a", "message": "a changed"},
        ]),
    );
    let old = json!({"s": ["x", "y"], "m": [{"k": "a", "v": 1}, {"k": "b", "v": 2}], "a": ["x", "y"]});
    let new = json!({"s": ["y", "x"], "m": [{"k": "b", "v": 2}, {"k": "a", "v": 1}], "a": ["y", "x"]});
    assert_eq!(update(&schema, &new, &old), vec![": a changed"]);
    let changed = json!({"s": ["y", "z"], "m": [{"k": "b", "v": 2}, {"k": "a", "v": 9}], "a": ["x", "y"]});
    assert_eq!(update(&schema, &changed, &old), vec![": s changed", ": m changed"]);
    // `+` merges as the server's set and map lists do.
    let merge = object(
        json!({
            "s": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "m": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}},
        }),
        json!([
            {"rule": "self.s + ['b', 'c'] == ['a', 'b', 'c']"},
            {"rule": "(self.m + oldSelf.m).map(e, e.v) == [10, 2]"},
            {"rule": "size(self.m + oldSelf.m) == 2"},
        ]),
    );
    let new = json!({"s": ["a", "b"], "m": [{"k": "a", "v": 1}, {"k": "b", "v": 2}]});
    let old = json!({"s": [], "m": [{"k": "a", "v": 10}]});
    assert_eq!(update(&merge, &new, &old), Vec::<String>::new());
}

#[test]
fn object_equality_sees_unknown_fields() {
    let schema = object(
        json!({"o": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"a": {"type": "string"}}}}),
        json!([{"rule": "self.o == oldSelf.o", "message": "o changed"}]),
    );
    let old = json!({"o": {"a": "x", "u": 1}});
    assert_eq!(update(&schema, &json!({"o": {"a": "x", "u": 1}}), &old), Vec::<String>::new());
    assert_eq!(update(&schema, &json!({"o": {"a": "x", "u": 2}}), &old), vec![": o changed"]);
    assert_eq!(update(&schema, &json!({"o": {"a": "x"}}), &old), vec![": o changed"]);
}

#[test]
fn unchanged_values_are_ratcheted_on_update() {
    let schema = object(
        json!({
            "a": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 10", "message": "a too small"}]},
            "l": {"type": "array", "items": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 10", "message": "item too small"}]}},
            "b": {"type": "integer"},
        }),
        json!([{"rule": "self.a > self.b", "message": "a <= b"}]),
    );
    let old = json!({"a": 1, "l": [1, 2], "b": 5});
    // Nothing changed: no errors, though every rule fails.
    assert_eq!(update(&schema, &old, &old), Vec::<String>::new());
    // `a` unchanged, `b` changed: the root changed, so its rule reports; `a`'s doesn't.
    assert_eq!(update(&schema, &json!({"a": 1, "l": [1, 2], "b": 6}), &old), vec![": a <= b"]);
    // Items correlate by index for ratcheting: only the changed one reports.
    assert_eq!(update(&schema, &json!({"a": 1, "l": [1, 3], "b": 5}), &old), vec![": a <= b", "l[1]: item too small"]);
    // On create, everything reports.
    assert_eq!(verdict(&schema, &old).len(), 4);
}

#[test]
fn evaluation_errors_are_not_ratcheted() {
    let schema = object(json!({"a": {"type": "integer"}}), json!([{"rule": "self.nope == 1"}]));
    let old = json!({"a": 1});
    assert_eq!(update(&schema, &old, &old), vec![": no such key: nope evaluating rule: self.nope == 1"]);
}

#[test]
fn compile_errors_are_reported() {
    let schema = object(json!({}), json!([{"rule": "self.("}, {"rule": "   "}]));
    let got = verdict(&schema, &json!({}));
    assert_eq!(got.len(), 1);
    assert!(got[0].starts_with(": rule compile error: compilation failed"), "{got:?}");
}

#[test]
fn field_path_normalization() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "object", "properties": {"b": {"type": "string"}}},
        "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {"c": {"type": "string"}}}},
    }});
    let schema = node(&schema);
    assert_eq!(normalize_field_path(".a.b", &schema).as_deref(), Some("a.b"));
    assert_eq!(normalize_field_path(".m['x.y'].c", &schema).as_deref(), Some("m[x.y].c"));
    assert_eq!(normalize_field_path("['a'].b", &schema).as_deref(), Some("a.b"));
    assert_eq!(normalize_field_path(".m['it\\'s']", &schema).as_deref(), Some("m[it's]"));
    assert_eq!(normalize_field_path(".nope", &schema), None);
    assert_eq!(normalize_field_path("a.b", &schema), None);
    assert_eq!(normalize_field_path(".a[", &schema), None);
}

#[test]
fn quantity_representations() {
    use super::quantity::parse_for_test;
    assert_eq!(parse_for_test("1.5Gi"), Ok((false, "1610612736000000000".into())));
    assert_eq!(parse_for_test("1Ki"), Ok((true, "1024".into())));
    assert_eq!(parse_for_test("100m"), Ok((true, "100".into())));
    assert_eq!(parse_for_test("."), Ok((true, "0".into())));
    assert_eq!(parse_for_test("+"), Ok((true, "0".into())));
    assert!(parse_for_test("-").is_ok());
    assert!(parse_for_test("1e").is_err());
    assert!(parse_for_test("1e+").is_err());
    assert!(parse_for_test("1e-3").is_ok());
}

#[test]
fn go_durations() {
    use super::time::parse_strfmt_duration;
    use crate::go_duration::parse as parse_go_duration;
    assert_eq!(parse_go_duration("1h30m"), Ok(5_400_000_000_000));
    assert_eq!(parse_go_duration("-1.5s"), Ok(-1_500_000_000));
    assert_eq!(parse_go_duration("0"), Ok(0));
    assert!(parse_go_duration("1").is_err());
    assert!(parse_go_duration("").is_err());
    assert_eq!(parse_go_duration("3µs"), Ok(3_000));
    assert_eq!(parse_strfmt_duration("2 days").map(|d| d.num_hours()), Ok(48));
    assert_eq!(parse_strfmt_duration("1 minutes 30 sec").map(|d| d.num_seconds()), Ok(90));
    assert_eq!(parse_strfmt_duration("1w").map(|d| d.num_days()), Ok(7));
    assert!(parse_strfmt_duration("soon").is_err());
}
