//! `codegen-cli`: every subcommand lives in the `kubegen-cli` library.

fn main() -> std::process::ExitCode {
    kubegen_cli::main()
}
