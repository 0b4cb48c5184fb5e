//! kubegen's own command-line reference, `docs/cli.md`: every command's `--help`, from
//! the same clap definitions the binary parses, so the page cannot drift from the tool
//! (a unit test compares it; `KUBEGEN_BLESS=1` rewrites it).

use clap::CommandFactory;

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

#[cfg(test)]
mod tests {
    #[test]
    fn docs_cli_md_is_the_command_lines_own_help() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md");
        let now = super::cli_reference();
        if std::env::var_os("KUBEGEN_BLESS").is_some() {
            std::fs::write(&path, &now).expect("write docs/cli.md");
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == now,
            "docs/cli.md is not codegen-cli's help: run `KUBEGEN_BLESS=1 cargo test -p kubegen-cli --lib reference` and commit it"
        );
        for command in ["manifests", "init", "clients", "docs", "envtest", "create api", "create webhook"] {
            assert!(now.contains(&format!("\n## `codegen-cli {command}`\n")), "no section for {command}");
        }
    }
}
