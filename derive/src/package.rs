//! What a kind's module says of its package, as Go says it in `groupversion_info.go`:
//! `//! +groupName=` and `//! +versionName=` read from the module's file (or its `mod.rs`),
//! and the API version its path spells (`api/v1beta1/foo.rs`).

/// `+groupName=` and `+versionName=` in a module's `//!` doc, as Go puts them in a
/// package's `groupversion_info.go`.
#[derive(Default)]
pub struct PackageMarkers {
    pub group: Option<String>,
    pub version: Option<String>,
}

pub fn package_markers(ident: &syn::Ident) -> PackageMarkers {
    let Some(file) = ident.span().unwrap().local_file() else { return PackageMarkers::default() };
    let mut found = package_doc_markers(&file);
    // controller-gen takes the version from the Go package's name; the Rust module path
    // spells it the same way (`api/v1beta1/foo.rs`, `v1beta1.rs`).
    if found.version.is_none() {
        found.version = version_in_path(&file);
    }
    found
}

/// The innermost directory or file name of `file` that is a Kubernetes API version.
fn version_in_path(file: &std::path::Path) -> Option<String> {
    let names = file.with_extension("");
    names.components().rev().filter_map(|c| c.as_os_str().to_str()).find(|n| is_api_version(n)).map(String::from)
}

/// `v1`, `v2beta3`, `v1alpha1`: the versions Kubernetes sorts and serves.
fn is_api_version(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('v') else { return false };
    let major_len = rest.chars().take_while(char::is_ascii_digit).count();
    if major_len == 0 || rest.starts_with('0') {
        return false;
    }
    let rest = &rest[major_len..];
    match rest.strip_prefix("alpha").or_else(|| rest.strip_prefix("beta")) {
        Some(n) => !n.is_empty() && !n.starts_with('0') && n.chars().all(|c| c.is_ascii_digit()),
        None => rest.is_empty(),
    }
}

fn package_doc_markers(file: &std::path::Path) -> PackageMarkers {
    let file = file.to_path_buf();
    let mut candidates = vec![file.clone()];
    if let Some(dir) = file.parent()
        && file.file_name().is_some_and(|n| n != "mod.rs" && n != "lib.rs")
    {
        candidates.push(dir.join("mod.rs"));
    }
    let mut found = PackageMarkers::default();
    for path in candidates {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        for line in text.lines().map(str::trim_start).take_while(|l| l.starts_with("//!") || l.is_empty()) {
            let marker = line.trim_start_matches("//!").trim();
            if let Some(g) = marker.strip_prefix("+groupName=") {
                found.group.get_or_insert_with(|| g.trim().to_string());
            }
            if let Some(v) = marker.strip_prefix("+versionName=") {
                found.version.get_or_insert_with(|| v.trim().to_string());
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn versions_are_read_from_the_module_path() {
        assert_eq!(super::version_in_path(Path::new("src/api/cache/v1beta1/memcached.rs")).as_deref(), Some("v1beta1"));
        assert_eq!(super::version_in_path(Path::new("src/api/v2.rs")).as_deref(), Some("v2"));
        assert_eq!(super::version_in_path(Path::new("src/v1/api/v1alpha2/mod.rs")).as_deref(), Some("v1alpha2"));
        assert_eq!(super::version_in_path(Path::new("src/lib.rs")), None);
        for not in ["v", "v0", "v01", "v1gamma1", "v1beta", "v1beta01", "version"] {
            assert!(!super::is_api_version(not), "{not}");
        }
    }
}
