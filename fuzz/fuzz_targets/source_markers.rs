//! A source file as `manifests` scans a package for RBAC and webhook markers: the
//! `// +kubebuilder:rbac:...`, `+kubebuilder:webhook:...` and
//! `+kubebuilder:webhookconfiguration:...` comment markers, and the typed
//! `#[kubegen::rbac(...)]` and `#[kubegen::webhook(...)]` attributes syn finds in it.

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// One file per fuzzing process, rewritten for each input (the scan reads files).
fn file() -> &'static PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("kubegen-fuzz-source-markers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        dir.join("lib.rs")
    })
}

fuzz_target!(|text: &str| {
    std::fs::write(file(), text).expect("the source file is written");
    let _ = kubegen_cli::fuzzing::source_markers(file());
    for line in text.lines() {
        let comment = line.trim_start().trim_start_matches(['/', '!']).trim_start();
        if let Some(args) = comment.strip_prefix("+kubebuilder:rbac:") {
            let _ = kubegen::rbac::RbacRule::parse_marker(args);
        }
        if let Some(args) = comment.strip_prefix("+kubebuilder:webhook:") {
            let _ = kubegen_core::webhook::WebhookMarker::parse_marker(args);
        }
    }
});
