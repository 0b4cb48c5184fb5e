//! kubegen's own references, generated from the code so they cannot drift from it: the
//! command line (`docs/cli.md`, every command's `--help` from the clap definitions the
//! binary parses) and the markers (`docs/markers.md`, every entry of the marker registry
//! the derive, the doc-comment parser and the suggestions read). Unit tests compare both
//! with the files; `KUBEGEN_BLESS=1` rewrites them.

use clap::CommandFactory;
use kubegen_core::markers::registry::{Arg, MARKERS, MarkerDef, SubArg, Target};

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
    for (target, title, note) in [
        (
            Target::Resource,
            "On the kind",
            "On the `#[derive(CustomResource)]` type: its `#[kube(...)]` attribute or its doc comment.",
        ),
        (Target::Schema, "On a field or a type", "In the order they are applied, controller-gen's order."),
        (Target::Field, "On a field only", ""),
        (Target::Type, "On a type only", ""),
    ] {
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
    out
}

fn row(def: &MarkerDef) -> String {
    let typed = match def.arg {
        Arg::Flag => format!("`{}`", def.key),
        Arg::Struct(_) | Arg::Pair | Arg::Rule | Arg::Items => format!("`{}(...)`", def.key),
        _ => format!("`{} = ...`", def.key),
    };
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
    let writes = match (def.schema_key, def.values) {
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
            let name = if a.key == a.doc { format!("`{}`", a.key) } else { format!("`{}`/`{}`", a.key, a.doc) };
            if a.required { format!("{name} (required)") } else { name }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    /// `docs/<file>` holds `now`, or is rewritten to hold it under `KUBEGEN_BLESS=1`.
    fn assert_current(file: &str, now: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs").join(file);
        if std::env::var_os("KUBEGEN_BLESS").is_some() {
            std::fs::write(&path, now).unwrap_or_else(|e| panic!("write docs/{file}: {e}"));
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == now,
            "docs/{file} is not what the code says: run `KUBEGEN_BLESS=1 cargo test -p kubegen-cli --lib reference` and commit it"
        );
    }

    #[test]
    fn docs_cli_md_is_the_command_lines_own_help() {
        let now = super::cli_reference();
        assert_current("cli.md", &now);
        for command in ["manifests", "init", "clients", "docs", "envtest", "create api", "create webhook"] {
            assert!(now.contains(&format!("\n## `codegen-cli {command}`\n")), "no section for {command}");
        }
    }

    #[test]
    fn docs_markers_md_is_the_marker_registry() {
        let now = super::marker_reference();
        assert_current("markers.md", &now);
        // Every marker has its row, under both of its spellings.
        for def in super::MARKERS {
            let rows: Vec<&str> = now.lines().filter(|l| l.starts_with(&format!("| `{}", def.key))).collect();
            assert!(!rows.is_empty(), "no row for `{}`", def.key);
            for spelling in def.doc {
                assert!(rows.iter().any(|r| r.contains(&format!("`+{spelling}`"))), "`+{spelling}` is missing");
            }
        }
    }
}
