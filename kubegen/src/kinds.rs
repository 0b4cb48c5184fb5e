//! Every `#[derive(CustomResource)]` in a linked crate registers itself here, so
//! `codegen-cli manifests` can list a workspace's kinds without being told their paths.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen_core::kind::{KindRecord, KindTypes, Options};

/// One derived kind.
#[doc(hidden)]
pub struct Registration {
    /// The CRD and the client model, from one pass over the kind's types.
    pub parts: fn(&Options) -> (CustomResourceDefinition, KindTypes),
    /// `module::path::Type` of the root type.
    pub type_path: &'static str,
    /// `file:line` of the derive.
    pub source: &'static str,
    /// `+kubebuilder:skipversion`: leave this version out of the merged CRD.
    pub skip_version: bool,
    /// `+kubebuilder:storageversion` / `storage = ...` as written; `None` when unset.
    pub storage_marked: Option<bool>,
}

inventory::collect!(Registration);

/// The kinds of every crate linked into this binary, in a stable order.
pub fn registered() -> Vec<&'static Registration> {
    let mut all: Vec<&'static Registration> = inventory::iter::<Registration>.into_iter().collect();
    all.sort_by(|a, b| a.type_path.cmp(b.type_path));
    all
}

/// The registered kinds' records, their CRDs generated with `options`.
pub fn records(options: &Options) -> Vec<KindRecord> {
    registered()
        .into_iter()
        .map(|r| {
            let (crd, types) = (r.parts)(options);
            KindRecord {
                type_path: r.type_path.into(),
                source: r.source.into(),
                skip_version: r.skip_version,
                storage_marked: r.storage_marked,
                crd,
                types,
            }
        })
        .collect()
}

/// The main of `codegen-cli manifests`' helper program: the options from its arguments,
/// the records of every kind linked into it as JSON on stdout, which the CLI reads back
/// as `Vec<KindRecord>`.
pub fn helper_main() {
    let options = Options::from_args(std::env::args().skip(1));
    let records = records(&options);
    // A marker the derive wrote that does not read back is missing from its CRD.
    let unread = crate::schema::markers::take_unread();
    if !unread.is_empty() {
        for problem in unread {
            eprintln!("error: {problem}");
        }
        std::process::exit(1);
    }
    let json = serde_json::to_string(&records).expect("a CRD serializes to JSON");
    println!("{json}");
}
