//! `[workspace.metadata.kubegen]` (and a package's `[package.metadata.kubegen]`): TOML as
//! `cargo metadata` hands it over (as JSON), read into the CLI's settings, the diff
//! levels checked.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(table) = toml::from_str::<toml::Table>(text) else { return };
    let Ok(json) = serde_json::to_value(&table) else { return };
    let kubegen = json.pointer("/workspace/metadata/kubegen").or_else(|| json.pointer("/package/metadata/kubegen"));
    let _ = kubegen_cli::fuzzing::settings(kubegen.unwrap_or(&json));
});
