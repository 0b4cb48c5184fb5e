//! kubegen's command line, at the version Cargo.lock pins:
//! `cargo run -p codegen-cli -- manifests` (or `create api`, `--help`).

fn main() -> std::process::ExitCode {
    kubegen_cli::main()
}
