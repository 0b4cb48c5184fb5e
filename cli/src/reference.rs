//! kubegen's own references, generated from the code so they cannot drift from it: the
//! command line (`docs/cli.md`, every command's `--help` from the clap definitions the
//! binary parses) and the markers (`docs/markers.md`, every entry of the marker registry
//! the derive, the doc-comment parser and the suggestions read, each with its example).
//! The examples are compiled too: `tests/tests/marker_examples.rs` holds each in a module
//! with a test that its CRD holds what the reference says the marker writes. Unit tests
//! compare all three with the files; `KUBEGEN_BLESS=1` rewrites them.

use clap::CommandFactory;
use kubegen_core::markers::registry::{Arg, Example, MARKERS, MarkerDef, Place, SubArg, Target};

use crate::Cli;

/// docs/cli.md: each command's long help, in the order `--help` lists them.
pub fn cli_reference() -> String {
    let mut cli = Cli::command();
    cli.build();
    let mut out = String::from(
        "<!-- Generated from codegen-cli's own help (cli/src/reference.rs); a unit test keeps it current. -->\n\n# codegen-cli reference\n\nEvery command's `--help`, as the installed binary prints it.\n",
    );
    section(&cli, "", &mut out);
    out
}

fn section(command: &clap::Command, parent: &str, out: &mut String) {
    let name =
        if parent.is_empty() { command.get_name().to_string() } else { format!("{parent} {}", command.get_name()) };
    let help = command.clone().render_long_help().to_string();
    let help: Vec<&str> = help.lines().map(str::trim_end).collect();
    out.push_str(&format!("\n## `{name}`\n\n```text\n{}\n```\n", help.join("\n").trim_end()));
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        section(sub, &name, out);
    }
}

/// docs/markers.md: every marker of the registry, grouped by where it stands, with both
/// spellings, its argument, what it needs, the schema key it writes and what it means.
pub fn marker_reference() -> String {
    let mut out = String::from(
        "<!-- Generated from kubegen's marker registry (core/src/markers/registry.rs) by cli/src/reference.rs; a unit test keeps it current. -->\n\n# Marker reference\n\nEvery marker kubegen reads, in its two spellings: the typed attribute (`#[kube(...)]` on the kind or on a field) and the controller-gen spelling in a doc comment (`/// +...`), which Go kubebuilder users can paste verbatim. Schema markers on a type apply wherever the type is used; a field's win over its type's.\n",
    );
    for (target, title, note) in SECTIONS {
        out.push_str(&format!("\n## {title}\n"));
        if !note.is_empty() {
            out.push_str(&format!("\n{note}\n"));
        }
        out.push_str(
            "\n| Typed | Doc comment | Argument | Applies to | Writes | Meaning |\n|---|---|---|---|---|---|\n",
        );
        for def in MARKERS.iter().filter(|d| d.target == target) {
            out.push_str(&row(def));
        }
    }
    out.push_str(
        "\n## Examples\n\nEach marker at work, in the order of the tables. The code compiles as shown (`tests/tests/marker_examples.rs` holds every example, generated from the registry; those the derive refuses are checked to stop with the error shown) with `use kubegen::{CustomResource, KubeSchema};` and `use serde::{Deserialize, Serialize};` in scope. Below it, the part of the CRD it writes: some node of the CRD holds each key shown with the value shown, where a mapping may have more keys than shown, a list has exactly the items shown, and `~` means the key is absent; that example's test checks it.\n",
    );
    for def in SECTIONS.iter().flat_map(|(target, ..)| MARKERS.iter().filter(move |d| d.target == *target)) {
        out.push_str(&format!("\n### `{}`\n", def.key));
        let Some(example) = &def.example else { continue };
        if example.place == Place::Refused {
            out.push_str("\nThe derive refuses it; this does not compile:\n");
        }
        out.push_str(&format!("\n```rust\n{}\n```\n", example_code(example)));
        let crd = if example.crd.is_empty() { "Foo::crd()" } else { example.crd };
        match (example.place, example.writes) {
            (Place::Refused, _) => {
                out.push_str(&format!("\nIt stops with:\n\n```text\nerror: {}\n```\n", example.note))
            }
            (_, "") => out.push_str(&format!("\nWrites nothing into `{crd}`.\n")),
            (_, writes) => out.push_str(&format!("\nWrites into `{crd}`:\n\n```yaml\n{}\n```\n", writes.trim())),
        }
        if !example.note.is_empty() && example.place != Place::Refused {
            out.push_str(&format!("\n{}\n", example.note));
        }
    }
    out
}

/// The reference's sections: the markers of each target, with a title and a note.
const SECTIONS: [(Target, &str, &str); 4] = [
    (
        Target::Resource,
        "On the kind",
        "On the `#[derive(CustomResource)]` type: its `#[kube(...)]` attribute or its doc comment.",
    ),
    (Target::Schema, "On a field or a type", "In the order they are applied, controller-gen's order."),
    (Target::Field, "On a field only", ""),
    (Target::Type, "On a type only", ""),
];

/// An example's code as it compiles: a field or kind snippet inside the kind `Foo`.
fn example_code(example: &Example) -> String {
    let code = example.code.trim_matches('\n');
    let head = "#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]\n#[kube(group = \"example.com\", version = \"v1\", kind = \"Foo\")]\n";
    match example.place {
        Place::Items | Place::Refused => code.to_string(),
        Place::Field => {
            let fields: Vec<String> =
                code.lines().map(|l| if l.is_empty() { String::new() } else { format!("    {l}") }).collect();
            format!("{head}pub struct FooSpec {{\n{}\n}}", fields.join("\n"))
        }
        Place::Kind => {
            let (docs, attrs): (Vec<&str>, Vec<&str>) = code.lines().partition(|l| l.starts_with("///"));
            let mut out = String::new();
            for line in docs.iter().chain([head.trim_end()].iter()).chain(attrs.iter()) {
                if !line.is_empty() {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            out.push_str("pub struct FooSpec {\n    pub replicas: i32,\n}");
            out
        }
    }
}

/// tests/tests/marker_examples.rs: each marker's example in a module of its own, with a
/// test that the CRD holds what the reference says the marker writes.
pub fn marker_examples() -> String {
    let mut out = String::from(MARKER_EXAMPLES_HEAD);
    for def in MARKERS {
        let Some(example) = &def.example else { continue };
        if example.place == Place::Refused {
            continue;
        }
        let crd = if example.crd.is_empty() { "Foo::crd()" } else { example.crd };
        let code: Vec<String> = example_code(example)
            .lines()
            .map(|l| if l.is_empty() { String::new() } else { format!("    {l}") })
            .collect();
        let test = if example.writes.is_empty() {
            format!(
                "    #[test]\n    fn builds_its_crd() {{\n        serde_json::to_value({crd}).expect(\"the CRD serializes\");\n    }}\n"
            )
        } else {
            let hashes =
                "#".repeat((1..).find(|n| !example.writes.contains(&format!("\"{}", "#".repeat(*n)))).unwrap_or(1));
            let writes: String = example.writes.trim().lines().map(|l| format!("{l}\n")).collect();
            format!(
                "    #[test]\n    fn writes() {{\n        super::assert_writes(\n            {crd},\n            r{hashes}\"\n{writes}\"{hashes},\n        );\n    }}\n"
            )
        };
        out.push_str(&format!("\nmod {} {{\n    use super::*;\n\n{}\n\n{test}}}\n", def.key, code.join("\n")));
    }
    out
}

/// The examples the derive refuses, each a file of its own for trybuild:
/// `tests/compile-fail/marker_examples/<key>.rs`, beside the `.stderr` trybuild pins
/// (tests/compile-fail/tests/compile_fail.rs runs them).
pub fn refused_examples() -> Vec<(&'static MarkerDef, String)> {
    MARKERS
        .iter()
        .filter_map(|def| def.example.filter(|e| e.place == Place::Refused).map(|e| (def, e)))
        .map(|(def, example)| {
            let file = format!(
                "//! `{}`, as docs/markers.md shows it: the derive refuses it. Generated from the marker\n//! registry by cli/src/reference.rs; tests/compile_fail.rs checks that it does not compile.\n\nuse kubegen::CustomResource;\nuse serde::{{Deserialize, Serialize}};\n\n{}\n\nfn main() {{}}\n",
                def.key,
                example_code(&example)
            );
            (def, file)
        })
        .collect()
}

const MARKER_EXAMPLES_HEAD: &str = r#"//! The marker reference's examples, compiled: one module per marker of the registry, with
//! the example docs/markers.md shows and a test that the CRD holds what the reference says
//! the marker writes. Generated from core/src/markers/registry.rs by cli/src/reference.rs
//! (`KUBEGEN_BLESS=1 cargo test -p kubegen-cli --lib reference` rewrites it); edit the
//! registry, not this file.

// Some examples show a function a user would call (`a == b` on a derived `PartialEq`).
#![allow(dead_code)]

use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Some node of `crd` holds `writes` (YAML): each key with its value, where a mapping may
/// have more keys, a list has exactly the items given, and `~` means the key is absent.
#[track_caller]
fn assert_writes(crd: impl Serialize, writes: &str) {
    let crd = serde_json::to_value(crd).expect("the CRD serializes");
    let want: Value = serde_saphyr::from_str(writes).expect("`writes` is YAML");
    assert!(
        some_node(&crd, &want),
        "no node of the CRD holds\n{writes}\nThe CRD:\n{}",
        serde_json::to_string_pretty(&crd).unwrap_or_default()
    );
}

fn some_node(node: &Value, want: &Value) -> bool {
    holds(node, want)
        || match node {
            Value::Object(map) => map.values().any(|v| some_node(v, want)),
            Value::Array(items) => items.iter().any(|v| some_node(v, want)),
            _ => false,
        }
}

fn holds(have: &Value, want: &Value) -> bool {
    match (have, want) {
        (Value::Object(have), Value::Object(want)) => want.iter().all(|(key, want)| match have.get(key) {
            None => want.is_null(),
            Some(have) => !want.is_null() && holds(have, want),
        }),
        (Value::Array(have), Value::Array(want)) => {
            have.len() == want.len() && have.iter().zip(want).all(|(have, want)| holds(have, want))
        }
        // The CRD writes bounds as floats (`maximum: 10.0`); the YAML says `10`.
        (Value::Number(have), Value::Number(want)) => have.as_f64() == want.as_f64(),
        _ => have == want,
    }
}
"#;

fn row(def: &MarkerDef) -> String {
    let typed = match def.arg {
        Arg::Flag => format!("`{}`", def.key),
        Arg::Struct(_) | Arg::Pair | Arg::Rule | Arg::Items => format!("`{}(...)`", def.key),
        _ => format!("`{} = ...`", def.key),
    };
    let typed = format!("[{typed}](#{})", def.key);
    let doc: Vec<String> = def.doc.iter().map(|d| format!("`+{d}`")).collect();
    let doc = if doc.is_empty() { "—".to_string() } else { doc.join("<br>") };
    let mut applies = match def.needs {
        [] if def.target == Target::Resource => "the kind".to_string(),
        [] if def.target == Target::Type => "a struct".to_string(),
        [] => "any node".to_string(),
        needs => needs.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or "),
    };
    if def.repeatable {
        applies.push_str("; repeatable");
    }
    let writes = match (def.sets.map(|f| f.key()), def.values) {
        (Some(key), []) => format!("`{key}`"),
        (Some(key), values) => {
            format!("`{key}`: {}", values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "))
        }
        (None, _) => "—".into(),
    };
    let meaning = def.help.replace('|', "\\|");
    format!("| {typed} | {doc} | {} | {applies} | {writes} | {meaning} |\n", argument(def.arg))
}

/// A marker's argument in words.
fn argument(arg: Arg) -> String {
    match arg {
        Arg::Flag => "none (a flag)".into(),
        Arg::Int => "an integer".into(),
        Arg::Number => "a number".into(),
        Arg::Str => "a string".into(),
        Arg::StrList => "strings (`[\"a\", \"b\"]` typed, `a;b` in a comment)".into(),
        Arg::Any => "a value (a Rust literal typed, controller-gen's syntax in a comment)".into(),
        Arg::JsonText => "JSON text".into(),
        Arg::Struct(args) => format!("named: {}", sub_args(args)),
        Arg::FlagOrStr => "none, or a string".into(),
        Arg::Pair => "a name and a value".into(),
        Arg::Rule => "a CEL rule: a string, `(rule, message)`, or named arguments".into(),
        Arg::Items => "markers for each item".into(),
    }
}

fn sub_args(args: &[SubArg]) -> String {
    args.iter()
        .map(|a| {
            let name =
                if a.key.as_str() == a.doc { format!("`{}`", a.key) } else { format!("`{}`/`{}`", a.key, a.doc) };
            if a.required { format!("{name} (required)") } else { name }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    /// `<file>` (from the workspace root) holds `now`, or is rewritten to hold it under
    /// `KUBEGEN_BLESS=1`.
    fn assert_current(file: &str, now: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file);
        if std::env::var_os("KUBEGEN_BLESS").is_some() {
            std::fs::write(&path, now).unwrap_or_else(|e| panic!("write {file}: {e}"));
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == now,
            "{file} is not what the code says: run `KUBEGEN_BLESS=1 cargo test -p kubegen-cli --lib reference` and commit it"
        );
    }

    #[test]
    fn docs_cli_md_is_the_command_lines_own_help() {
        let now = super::cli_reference();
        assert_current("docs/cli.md", &now);
        for command in ["manifests", "init", "clients", "docs", "envtest", "create api", "create webhook"] {
            assert!(now.contains(&format!("\n## `codegen-cli {command}`\n")), "no section for {command}");
        }
    }

    #[test]
    fn docs_markers_md_is_the_marker_registry() {
        let now = super::marker_reference();
        assert_current("docs/markers.md", &now);
        // Every marker has its row, under both of its spellings ...
        for def in super::MARKERS {
            let rows: Vec<&str> = now.lines().filter(|l| l.starts_with(&format!("| [`{}", def.key))).collect();
            assert!(!rows.is_empty(), "no row for `{}`", def.key);
            for spelling in def.doc {
                assert!(rows.iter().any(|r| r.contains(&format!("`+{spelling}`"))), "`+{spelling}` is missing");
            }
            // ... and its section, with the example's code.
            let heading = format!("\n### `{}`\n", def.key);
            let section = now.split_once(&heading).map(|(_, rest)| rest.split("\n### ").next().unwrap_or(rest));
            assert!(section.is_some_and(|s| s.contains("```rust\n")), "no example for `{}`", def.key);
        }
    }

    /// Every marker has an example, each compiled with a test of what it writes, and the
    /// file that compiles them is the registry's: an example that does not compile, or
    /// writes something else than the reference says, fails `cargo test --workspace`.
    #[test]
    fn every_marker_has_an_example_the_tests_compile() {
        let missing: Vec<&str> =
            super::MARKERS.iter().filter(|d| d.example.is_none()).map(|d| d.key.as_str()).collect();
        assert!(missing.is_empty(), "markers without an example in the registry: {missing:?}");
        let now = super::marker_examples();
        assert_current("tests/tests/marker_examples.rs", &now);
        let refused = super::refused_examples();
        for (def, file) in &refused {
            assert_current(&format!("tests/compile-fail/marker_examples/{}.rs", def.key), file);
        }
        // ... and the examples the derive refuses stop with the error the reference quotes.
        for (def, _) in &refused {
            let path = format!("tests/compile-fail/marker_examples/{}.stderr", def.key);
            let stderr = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(&path);
            let stderr = std::fs::read_to_string(&stderr).unwrap_or_default();
            let error = format!("error: {}", def.example.map(|e| e.note).unwrap_or_default());
            assert!(
                stderr.contains(&error),
                "{path} does not hold the error docs/markers.md quotes ({error}); run `TRYBUILD=overwrite cargo test -p kubegen-compile-fail` and read it"
            );
        }
    }
}
