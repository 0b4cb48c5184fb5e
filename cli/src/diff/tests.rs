//! A table per check id: Rust sources through the derive where the fact comes from the
//! types (one kind in two versions of a module, each field exercising one check), CRD
//! YAML pairs where it lives only in the CRD; and `--against HEAD~1` in a scratch git
//! repository.

use std::collections::BTreeMap;

use super::*;

/// The kind of a module (in each of its versions, one per submodule), as `manifests`
/// and `clients` see it.
fn generation(module: &str) -> Generation {
    let module_path = format!("kubegen_cli::diff::tests::{module}::");
    let kinds: Vec<crate::workspace::Kind> = kubegen::kinds::records(&Default::default())
        .into_iter()
        .filter(|k| k.type_path.starts_with(&module_path))
        .collect();
    assert!(!kinds.is_empty(), "a kind in {module}");
    Generation {
        name: module.into(),
        crds: crate::crd_merge::crds(kinds.clone()).expect("the CRD merges"),
        clients: Some(crate::clients::packages(kinds).expect("the client model")),
        commit: None,
    }
}

/// What `compare` finds, as (check, path, CEL class) in a stable order.
fn found(before: &Generation, after: &Generation, options: &Options) -> Vec<(String, String, Option<CelClass>, Level)> {
    let mut out: Vec<_> = compare(before, after, options)
        .into_iter()
        .map(|f| (f.check.to_string(), f.path.unwrap_or_default(), f.cel, f.level))
        .collect();
    out.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    out
}

mod before {
    use std::collections::BTreeMap;

    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Widget", namespaced)]
    pub struct WidgetSpec {
        pub gone: Option<String>,
        pub count: Option<i32>,
        pub owner: Option<String>,
        pub mode: Option<Mode>,
        #[kube(maximum = 10)]
        pub size: Option<i32>,
        pub name: Option<String>,
        pub host: Option<String>,
        #[kube(default = 1)]
        pub replicas: Option<i32>,
        #[kube(nullable)]
        pub note: Option<String>,
        #[kube(list_type = "set")]
        pub tags: Option<Vec<String>>,
        #[kube(map_type = "granular")]
        pub labels: Option<BTreeMap<String, String>>,
        #[kube(preserve_unknown_fields)]
        pub extra: Option<BTreeMap<String, String>>,
        pub level: Option<i32>,
        pub stage: Option<String>,
        pub retired: Option<String>,
        pub args: Option<Vec<Arg>>,
        #[kube(validation(rule = "self.size() < 10", message = "short"))]
        pub title: Option<String>,
        pub legacy: Option<Legacy>,
        pub unchanged: Option<String>,
        #[kube(min_length = 1, max_length = 10)]
        pub code: Option<String>,
        #[kube(min_items = 1, max_items = 10)]
        pub ports: Option<Vec<i32>>,
        #[kube(max_properties = 10)]
        pub annotations: Option<BTreeMap<String, String>>,
        pub colour: Option<String>,
        pub zone: String,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub enum Mode {
        Fast,
        Slow,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Arg {
        pub value: Option<String>,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Legacy {
        pub a: Option<String>,
    }
}

mod after {
    use std::collections::BTreeMap;

    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Widget", namespaced)]
    pub struct WidgetSpec {
        // `gone` is gone.
        pub count: Option<String>,
        pub owner: String,
        pub mode: Option<Mode>,
        #[kube(maximum = 5)]
        pub size: Option<i32>,
        #[kube(pattern = "^[a-z]+$")]
        pub name: Option<String>,
        #[kube(format = "hostname")]
        pub host: Option<String>,
        #[kube(default = 2)]
        pub replicas: Option<i32>,
        pub note: Option<String>,
        #[kube(list_type = "atomic")]
        pub tags: Option<Vec<String>>,
        #[kube(map_type = "atomic")]
        pub labels: Option<BTreeMap<String, String>>,
        pub extra: Option<BTreeMap<String, String>>,
        #[kube(validation(rule = "self >= 0", message = "not negative"))]
        pub level: Option<i32>,
        #[kube(validation(rule = "self == oldSelf", message = "immutable"))]
        pub stage: Option<String>,
        /// A transition rule that refuses a value left as stored (issue 28).
        #[kube(validation(rule = "oldSelf != 'legacy' || self != 'legacy'", message = "legacy is retired"))]
        pub retired: Option<String>,
        pub args: Option<Vec<Arg>>,
        #[kube(validation(rule = "self.size() < 5", message = "short"))]
        pub title: Option<String>,
        // Wire-compatible (the same fields), but the clients' type is renamed.
        pub legacy: Option<Modern>,
        pub unchanged: Option<String>,
        #[kube(min_length = 2, max_length = 8)]
        pub code: Option<String>,
        #[kube(min_items = 2, max_items = 5)]
        pub ports: Option<Vec<i32>>,
        #[kube(min_properties = 1, max_properties = 5)]
        pub annotations: Option<BTreeMap<String, String>>,
        /// Renamed in Rust only: the wire name, and so every generated client, stays.
        #[serde(rename = "colour")]
        pub color: Option<String>,
        /// Renamed on the wire: the old field is gone, the new one required.
        pub region: String,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub enum Mode {
        Fast,
        Turbo,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Arg {
        #[kube(validation(rule = "self.size() > 0", message = "not empty"))]
        pub value: Option<String>,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Modern {
        pub a: Option<String>,
    }
}

#[test]
fn each_schema_and_client_check_finds_its_change_in_rust_sources() {
    use CelClass::*;
    let (before, after) = (generation("before"), generation("after"));
    let (e, w) = (Level::Error, Level::Warn);
    let want: Vec<(&str, &str, Option<CelClass>, Level)> = vec![
        ("bounds-tightened", "spec.annotations", None, e),
        ("bounds-tightened", "spec.code", None, e),
        ("bounds-tightened", "spec.ports", None, e),
        ("bounds-tightened", "spec.size", None, e),
        ("cel-rule-added", "spec.args[*].value", Some(BreaksStoredObjects), e),
        // issue 28: found by a new user's trial — a ratchet-safe rule is an error, as a
        // tightened bound is (bounds-tightened above): new writes of values the server
        // took are refused, stored objects ratcheted.
        ("cel-rule-added", "spec.level", Some(RatchetSafe), e),
        // issue 28: found by a new user's trial — a transition rule that refuses the value
        // `legacy` left as stored refuses every update of an object holding it.
        ("cel-rule-added", "spec.retired", Some(BreaksStoredObjects), e),
        ("cel-rule-added", "spec.stage", Some(BreaksNewWrites), e),
        ("cel-rule-changed", "spec.title", Some(RatchetSafe), e),
        ("client-field-removed", "WidgetSpec.gone", None, e),
        ("client-field-removed", "WidgetSpec.zone", None, e),
        ("client-field-required", "WidgetSpec.owner", None, e),
        ("client-field-type-changed", "WidgetSpec.count", None, e),
        ("client-field-type-changed", "WidgetSpec.legacy", None, e),
        ("client-type-removed", "Legacy", None, e),
        ("client-variant-removed", "Mode", None, e),
        ("default-changed", "spec.replicas", None, e),
        ("enum-value-added", "spec.mode", None, w),
        ("enum-value-removed", "spec.mode", None, e),
        ("field-removed", "spec.gone", None, e),
        ("field-removed", "spec.zone", None, e),
        ("format-changed", "spec.host", None, e),
        ("list-type-changed", "spec.tags", None, e),
        ("map-type-changed", "spec.labels", None, e),
        ("nullable-removed", "spec.note", None, e),
        ("pattern-changed", "spec.name", None, e),
        ("preserve-unknown-removed", "spec.extra", None, e),
        ("required-added", "spec.owner", None, e),
        ("required-added", "spec.region", None, e),
        ("type-changed", "spec.count", None, e),
        // `colour` renamed `color` with `#[serde(rename = "colour")]`: nothing. The CRD is
        // the same, and so is every generated client (Go, TypeScript and Python name a
        // field after its wire name); only Rust code naming the field sees the rename,
        // and the client model does not record Rust's field names.
    ];
    let want: Vec<_> = want.into_iter().map(|(c, p, k, l)| (c.to_string(), p.to_string(), k, l)).collect();
    assert_eq!(found(&before, &after, &Options::default()), want);
    // Each count bound is named with its old and new value.
    let message = |path: &str| {
        let findings = compare(&before, &after, &Options::default());
        let f = findings.into_iter().find(|f| f.check == "bounds-tightened" && f.path.as_deref() == Some(path));
        f.map(|f| f.message).unwrap_or_default()
    };
    assert!(message("spec.code").contains("(minLength 1 → 2, maxLength 10 → 8)"), "{}", message("spec.code"));
    assert!(message("spec.ports").contains("(minItems 1 → 2, maxItems 10 → 5)"), "{}", message("spec.ports"));
    assert!(
        message("spec.annotations").contains("(minProperties none → 1, maxProperties 10 → 5)"),
        "{}",
        message("spec.annotations")
    );
    // Nothing changed, nothing found.
    assert_eq!(found(&before, &before, &Options::default()), []);
}

/// A kind with its fields at the root (`no_spec`): a rule on its type stands at the
/// root, whose value holds `metadata`, so ratcheting never excuses it.
mod root_before {
    use kubegen::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Knob", no_spec, namespaced)]
    pub struct KnobSpec {
        pub turn: i64,
    }
}

mod root_after {
    use kubegen::CustomResource;
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Knob", no_spec, namespaced)]
    #[kube(validation = ("self.turn <= 100", "a turn is at most 100"))]
    pub struct KnobSpec {
        pub turn: i64,
    }
}

#[test]
fn a_rule_at_the_root_breaks_stored_objects() {
    let found = found(&generation("root_before"), &generation("root_after"), &Options::default());
    let want = [("cel-rule-added".to_string(), String::new(), Some(CelClass::BreaksStoredObjects), Level::Error)];
    assert_eq!(found, want);
}

/// The resource facts through the derive: `Gizmo` in two versions, each a submodule.
mod resources_before {
    pub mod v1 {
        use kubegen::{CustomResource, KubeSchema};
        use serde::{Deserialize, Serialize};

        /// +kubebuilder:storageversion
        /// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas"
        /// +kubebuilder:printcolumn:name="Color",type=string,JSONPath=".spec.color"
        /// +kubebuilder:selectablefield:JSONPath=".spec.color"
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Gizmo", namespaced, status = "GizmoStatus")]
        #[kube(scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"))]
        pub struct GizmoSpec {
            pub replicas: Option<i32>,
            pub color: Option<String>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
        pub struct GizmoStatus {
            pub replicas: Option<i32>,
        }
    }

    pub mod v2 {
        use kubegen::CustomResource;
        use serde::{Deserialize, Serialize};

        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "diff.kubegen.dev", version = "v2", kind = "Gizmo", namespaced, storage = false)]
        pub struct GizmoSpec {
            pub replicas: Option<i32>,
        }
    }
}

mod resources_after {
    pub mod v1 {
        use kubegen::CustomResource;
        use serde::{Deserialize, Serialize};

        /// The Replicas column, the selectable field and both subresources are gone; the
        /// Color column moved to `-o wide`; v1 is no longer served.
        /// +kubebuilder:unservedversion
        /// +kubebuilder:printcolumn:name="Color",type=string,JSONPath=".spec.color",priority=1
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Gizmo", namespaced = false, storage = false)]
        pub struct GizmoSpec {
            pub replicas: Option<i32>,
            pub color: Option<String>,
        }
    }

    pub mod v2 {
        use kubegen::{CustomResource, KubeSchema};
        use serde::{Deserialize, Serialize};

        /// Now the storage version, deprecated, with a status subresource.
        /// +kubebuilder:storageversion
        /// +kubebuilder:deprecatedversion:warning="diff.kubegen.dev/v2 Gizmo is going away"
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "diff.kubegen.dev", version = "v2", kind = "Gizmo", namespaced = false, status = "GizmoStatus")]
        pub struct GizmoSpec {
            pub replicas: Option<i32>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
        pub struct GizmoStatus {
            pub replicas: Option<i32>,
        }
    }
}

#[test]
fn each_resource_check_finds_its_change_in_rust_sources() {
    let (before, after) = (generation("resources_before"), generation("resources_after"));
    let mut found: Vec<(&str, Option<String>, Option<String>)> =
        compare(&before, &after, &Options::default()).into_iter().map(|f| (f.check, f.version, f.path)).collect();
    found.sort();
    let at = |c: &'static str, v: Option<&str>, p: Option<&str>| (c, v.map(str::to_string), p.map(str::to_string));
    let want = vec![
        // The status subresource goes with the status field and its type.
        at("client-type-removed", Some("v1"), Some("GizmoStatus")),
        at("field-removed", Some("v1"), Some("status")),
        at("printer-column-changed", Some("v1"), None),
        at("printer-column-removed", Some("v1"), None),
        at("scope-changed", None, None),
        at("selectable-field-removed", Some("v1"), None),
        at("status-subresource-added", Some("v2"), None),
        at("storage-version-changed", None, None),
        at("subresource-removed", Some("v1"), None),
        at("subresource-removed", Some("v1"), None),
        at("version-deprecated", Some("v2"), None),
        at("version-unserved", Some("v1"), None),
    ];
    assert_eq!(found, want);
    // issue 28: found by a new user's trial — with the status subresource, the server
    // drops `status` from every write to the object: data a client sends is dropped, an
    // error as field-removed is.
    let added =
        compare(&before, &after, &Options::default()).into_iter().find(|f| f.check == "status-subresource-added");
    assert_eq!(added.map(|f| f.level), Some(Level::Error));
}

#[test]
fn configured_levels_replace_defaults_and_off_drops_the_finding() {
    let (before, after) = (generation("before"), generation("after"));
    let levels = BTreeMap::from([("field-removed".to_string(), Level::Off), ("cel-rule-added".into(), Level::Warn)]);
    let options = Options::new(levels, false).expect("known ids");
    let found = found(&before, &after, &options);
    assert!(!found.iter().any(|f| f.0 == "field-removed"), "{found:?}");
    assert!(found.iter().filter(|f| f.0 == "cel-rule-added").all(|f| f.3 == Level::Warn), "{found:?}");
    let err = Options::new(BTreeMap::from([("field-remove".to_string(), Level::Off)]), false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "[workspace.metadata.kubegen.diff]: unknown check `field-remove`; did you mean `field-removed`?"
    );
}

/// A CRD as `manifests` writes it: two versions, columns, selectable fields, both
/// subresources, namespaced; each case edits its text.
const BASE: &str = r#"---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.diff.kubegen.dev
spec:
  group: diff.kubegen.dev
  names:
    categories:
    - gear
    kind: Gadget
    listKind: GadgetList
    plural: gadgets
    shortNames:
    - gd
    singular: gadget
  scope: Namespaced
  versions:
  - additionalPrinterColumns:
    - jsonPath: .spec.replicas
      name: Replicas
      type: integer
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: date
    name: v1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            properties:
              replicas:
                type: integer
              items:
                items:
                  type: string
                type: array
              choice:
                allOf:
                - minLength: 1
                type: string
            type: object
        type: object
    selectableFields:
    - jsonPath: .spec.replicas
    served: true
    storage: true
    subresources:
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
      status: {}
  - name: v1beta1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            properties:
              size:
                type: integer
            type: object
        type: object
    served: true
    storage: false
"#;

/// BASE's first printer column.
const REPLICAS_COLUMN: &str = "    - jsonPath: .spec.replicas\n      name: Replicas\n      type: integer\n";

fn crds(yaml: &str) -> Generation {
    Generation { name: "yaml".into(), crds: source::parse(yaml).expect("CRD YAML"), clients: None, commit: None }
}

#[test]
fn each_resource_check_finds_its_change_in_crd_yaml() {
    let v1beta1 = BASE.find("  - name: v1beta1").expect("v1beta1");
    // (what changed, the CRD after it, the checks found with a path each)
    type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);
    let cases: Vec<Case> = vec![
        ("a CRD is gone", String::new(), vec![("kind-removed", "")]),
        ("v1beta1 is dropped", BASE[..v1beta1].to_string(), vec![("version-removed", "")]),
        (
            "v1beta1 unserved",
            BASE.replace("    served: true\n    storage: false", "    served: false\n    storage: false"),
            vec![("version-unserved", "")],
        ),
        (
            "storage moves to v1beta1, v1 unserved",
            BASE.replace("    served: true\n    storage: true", "    served: false\n    storage: false")
                .replace("    served: true\n    storage: false", "    served: true\n    storage: true"),
            vec![("storage-version-changed", ""), ("version-unserved", "")],
        ),
        (
            "storage moves to v1beta1, v1 still served",
            BASE.replace("    storage: false\n", "    storage: true\n")
                .replace("    storage: true\n    subresources", "    storage: false\n    subresources"),
            vec![],
        ),
        ("cluster-scoped", BASE.replace("  scope: Namespaced", "  scope: Cluster"), vec![("scope-changed", "")]),
        (
            "the Replicas column removed",
            BASE.replace(REPLICAS_COLUMN, ""),
            vec![("printer-column-removed", "")],
        ),
        (
            "the Replicas column shows the status",
            BASE.replace(REPLICAS_COLUMN, &REPLICAS_COLUMN.replace(".spec.replicas", ".status.replicas")),
            vec![("printer-column-changed", "")],
        ),
        (
            "the Replicas column as a string, with -o wide",
            BASE.replace(REPLICAS_COLUMN, "    - jsonPath: .spec.replicas\n      name: Replicas\n      priority: 1\n      type: string\n"),
            vec![("printer-column-changed", "")],
        ),
        (
            "the Replicas column with a description",
            BASE.replace(REPLICAS_COLUMN, &format!("{REPLICAS_COLUMN}      description: desired\n")),
            vec![],
        ),
        (
            "the columns swapped",
            BASE.replace(REPLICAS_COLUMN, "").replace("      type: date\n", &format!("      type: date\n{REPLICAS_COLUMN}")),
            vec![("printer-column-changed", "")],
        ),
        (
            "a column added",
            BASE.replace(REPLICAS_COLUMN, &format!("{REPLICAS_COLUMN}    - jsonPath: .spec.items\n      name: Items\n      type: string\n")),
            vec![],
        ),
        ("the kind renamed", BASE.replace("    kind: Gadget\n", "    kind: Gizmo\n"), vec![("kind-renamed", "")]),
        (
            "the kind renamed with its list kind",
            BASE.replace("    kind: Gadget\n    listKind: GadgetList\n", "    kind: Gizmo\n    listKind: GizmoList\n"),
            vec![("kind-renamed", "")],
        ),
        (
            "the plural changed, the name kept",
            BASE.replace("    plural: gadgets\n", "    plural: gadgetz\n"),
            vec![("kind-renamed", "")],
        ),
        (
            "the list kind changed",
            BASE.replace("    listKind: GadgetList\n", "    listKind: GadgetCollection\n"),
            vec![("names-changed", "")],
        ),
        (
            "the list kind left to its default",
            BASE.replace("    listKind: GadgetList\n", ""),
            vec![],
        ),
        ("the singular changed", BASE.replace("    singular: gadget\n", "    singular: gdgt\n"), vec![("names-changed", "")]),
        ("a category lost", BASE.replace("    - gear\n", ""), vec![("names-changed", "")]),
        ("a category added", BASE.replace("    - gear\n", "    - gear\n    - all\n"), vec![]),
        (
            "v1beta1 deprecated",
            BASE.replace("    served: true\n    storage: false", "    served: true\n    storage: false\n    deprecated: true"),
            vec![("version-deprecated", "")],
        ),
        (
            "v1beta1 gains the status subresource",
            BASE.replace("    served: true\n    storage: false", "    served: true\n    storage: false\n    subresources:\n      status: {}"),
            vec![("status-subresource-added", "")],
        ),
        (
            "the scale subresource reads another status path",
            BASE.replace("statusReplicasPath: .status.replicas", "statusReplicasPath: .status.ready"),
            vec![("unhandled", "")],
        ),
        (
            "a conversion strategy written out",
            BASE.replace("  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: None\n"),
            vec![("unhandled", "")],
        ),
        (
            "no selectable fields",
            BASE.replace("    selectableFields:\n    - jsonPath: .spec.replicas\n", ""),
            vec![("selectable-field-removed", "")],
        ),
        ("no status subresource", BASE.replace("      status: {}\n", ""), vec![("subresource-removed", "")]),
        (
            "no scale subresource",
            BASE.replace("      scale:\n        specReplicasPath: .spec.replicas\n        statusReplicasPath: .status.replicas\n", ""),
            vec![("subresource-removed", "")],
        ),
        (
            "allOf changed, a short name lost",
            BASE.replace("                - minLength: 1", "                - minLength: 2").replace("    - gd\n", "    - gdt\n"),
            vec![("names-changed", ""), ("unhandled", "spec.choice")],
        ),
        (
            "a rule that does not parse",
            BASE.replace(
                "              replicas:\n                type: integer",
                "              replicas:\n                type: integer\n                x-kubernetes-validations:\n                - rule: self >",
            ),
            vec![("unhandled", "spec.replicas")],
        ),
    ];
    for (what, after, want) in cases {
        let mut found: Vec<(&str, String)> = compare(&crds(BASE), &crds(&after), &Options::default())
            .into_iter()
            .map(|f| (f.check, f.path.unwrap_or_default()))
            .collect();
        found.sort();
        let want: Vec<(&str, String)> = want.into_iter().map(|(c, p)| (c, p.to_string())).collect();
        assert_eq!(found, want, "{what}");
    }
}

#[test]
fn alpha_versions_are_warnings_unless_strict() {
    let alpha = BASE.replace("  - name: v1beta1", "  - name: v1alpha1");
    let after = alpha.replace("              size:\n                type: integer\n", "");
    let levels = |strict| -> Vec<(&'static str, Level)> {
        let options = Options::new(BTreeMap::new(), strict).expect("no levels");
        compare(&crds(&alpha), &crds(&after), &options).into_iter().map(|f| (f.check, f.level)).collect()
    };
    assert_eq!(levels(false), [("field-removed", Level::Warn)]);
    assert_eq!(levels(true), [("field-removed", Level::Error)]);
    assert!(is_alpha("v2alpha3") && !is_alpha("v1beta1") && !is_alpha("alpha"));
}

/// `--warn-only`, as CI runs the examples: a breaking change is still reported, as a
/// warning, and a configured `off` still drops it.
#[test]
fn warn_only_reports_errors_as_warnings() {
    let after = BASE.replace("namespaced", "Cluster").replace("scope: Namespaced", "scope: Cluster");
    let found = |levels: BTreeMap<String, Level>| -> Vec<(&'static str, Level)> {
        let options = Options { warn_only: true, ..Options::new(levels, false).expect("levels") };
        compare(&crds(BASE), &crds(&after), &options).into_iter().map(|f| (f.check, f.level)).collect()
    };
    assert_eq!(found(BTreeMap::new()), [("scope-changed", Level::Warn)]);
    assert_eq!(found([("scope-changed".to_string(), Level::Off)].into()), []);
}

/// issue 28: found by a new user's trial — one rule for levels: a CEL rule added to an
/// existing field and a `maximum` lowered do the same on the wire (new writes of values
/// the server took are refused, stored objects ratcheted), so they get the same level
/// by default, in a `v*alpha*` version (lowered to warn), with `--strict`, and a
/// configured level still replaces the default.
#[test]
fn a_ratchet_safe_rule_and_a_tightened_bound_get_the_same_level() {
    let before = BASE.replace("  - name: v1beta1", "  - name: v1alpha1");
    let after = before
        .replace(
            "              replicas:\n                type: integer\n",
            "              replicas:\n                type: integer\n                x-kubernetes-validations:\n                - rule: self >= 0\n",
        )
        .replace("              size:\n                type: integer\n", "              size:\n                maximum: 5\n                type: integer\n");
    let levels = |levels: &[(&str, Level)], strict| -> Vec<(&'static str, String, Level)> {
        let levels = levels.iter().map(|(c, l)| (c.to_string(), *l)).collect();
        let options = Options::new(levels, strict).expect("known ids");
        let mut found: Vec<_> = compare(&crds(&before), &crds(&after), &options)
            .into_iter()
            .map(|f| (f.check, f.version.unwrap_or_default(), f.level))
            .collect();
        found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        found
    };
    let (e, w) = (Level::Error, Level::Warn);
    let at = |c, v: &str, l| (c, v.to_string(), l);
    assert_eq!(levels(&[], false), [at("bounds-tightened", "v1alpha1", w), at("cel-rule-added", "v1", e)]);
    assert_eq!(levels(&[], true), [at("bounds-tightened", "v1alpha1", e), at("cel-rule-added", "v1", e)]);
    let both_in_v1 = after.replace("  - name: v1alpha1", "  - name: v1beta1");
    let options = Options::default();
    let found: Vec<(&str, Level)> =
        compare(&crds(BASE), &crds(&both_in_v1), &options).into_iter().map(|f| (f.check, f.level)).collect();
    assert_eq!(found, [("cel-rule-added", e), ("bounds-tightened", e)]);
    assert_eq!(
        levels(&[("cel-rule-added", w)], true),
        [at("bounds-tightened", "v1alpha1", e), at("cel-rule-added", "v1", w)]
    );
}

/// docs/diff.md's "Levels" table gives each check's default level by its effect on the
/// wire: every check is in one row, and the row's level is the check's.
#[test]
fn the_levels_table_names_every_check_at_its_default_level() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/diff.md")).expect("docs/diff.md");
    let section = doc.split_once("\n## Levels\n").expect("a Levels section").1;
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut seen: BTreeMap<String, Level> = BTreeMap::new();
    for row in section.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| effect")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        assert_eq!(cells.len(), 3, "docs/diff.md Levels: a row is | effect | level | checks |: {row}");
        let level = match cells[1] {
            "error" => Level::Error,
            "warn" => Level::Warn,
            other => panic!("docs/diff.md Levels: level {other:?} in {row}"),
        };
        for id in cells[2].split('`').skip(1).step_by(2) {
            let check = CHECKS.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("`{id}` is not a check: {row}"));
            assert_eq!(check.level, level, "docs/diff.md Levels: `{id}` is {:?} in the code", check.level);
            assert!(seen.insert(id.to_string(), level).is_none(), "docs/diff.md Levels: `{id}` in two rows");
        }
    }
    for check in CHECKS {
        assert!(seen.contains_key(check.id), "docs/diff.md Levels: `{}` is in no row", check.id);
    }
}

#[test]
fn a_rule_reading_old_self_under_an_atomic_list_is_unhandled_not_guessed() {
    // oldSelf is refused there by the server; the tool says it cannot class it.
    let node = kubegen_core::schema::node::Node::of_type("string");
    let rule = kubegen_core::schema::markers::Rule { rule: "self == oldSelf".into(), ..Default::default() };
    assert!(cel::classify(&rule, &node, "spec.args[*]", false).is_err());
    assert_eq!(cel::classify(&rule, &node, "spec.name", true), Ok(CelClass::BreaksNewWrites));
}

/// issue 28: found by a new user's trial — a transition rule is *breaks new writes only*
/// when it provably holds with the value unchanged, else *breaks stored objects*: the
/// server runs it, unratcheted, on every update of an object holding the value, so a
/// value it refuses as stored refuses a label change too.
#[test]
fn a_transition_rule_that_can_refuse_an_unchanged_value_breaks_stored_objects() {
    use CelClass::*;
    let string = kubegen_core::schema::node::Node::of_type("string");
    let object = kubegen_core::schema::node::Node::from_value(&serde_json::json!({"type": "object",
        "properties": {"x": {"type": "string"}, "name": {"type": "string"}}, "required": ["name"]}))
    .expect("a schema node");
    let cases = [
        ("self == oldSelf", &string, BreaksNewWrites),
        ("self >= oldSelf", &string, BreaksNewWrites),
        ("oldSelf <= self", &string, BreaksNewWrites),
        ("!has(oldSelf.x) || self.x == oldSelf.x", &object, BreaksNewWrites),
        ("self.name == oldSelf.name", &object, BreaksNewWrites),
        ("oldSelf != 'legacy' || self != 'legacy'", &string, BreaksStoredObjects),
        ("oldSelf != 'x'", &string, BreaksStoredObjects),
        ("self > oldSelf", &string, BreaksStoredObjects),
        // `x` absent: reading it fails, on every update of such an object.
        ("self.x == oldSelf.x", &object, BreaksStoredObjects),
    ];
    for (text, node, want) in cases {
        let rule = kubegen_core::schema::markers::Rule { rule: text.into(), ..Default::default() };
        assert_eq!(cel::classify(&rule, node, "spec.f", true), Ok(want), "{text}");
    }
    // The message says why: the rule may refuse a value left as stored.
    let found = schema_findings(
        serde_json::json!({"type": "string"}),
        serde_json::json!({"type": "string", "x-kubernetes-validations": [{"rule": "oldSelf != 'legacy' || self != 'legacy'"}]}),
    );
    let (check, message) = &found[0];
    assert_eq!(*check, "cel-rule-added");
    assert!(
        message.contains(
            "breaks stored objects: it reads oldSelf, and with oldSelf equal to self it is not shown to hold"
        ),
        "{message}"
    );
    assert!(message.contains("refused on every update, a label change or a status write too"), "{message}");
}

#[test]
fn against_head_1_reads_the_crds_committed_there() {
    let dir = std::env::temp_dir().join(format!("kubegen-diff-git-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bases = dir.join("config/crd/bases");
    std::fs::create_dir_all(&bases).expect("scratch directory");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
            .args(args)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "-q", "-b", "work"]);
    let file = bases.join("diff.kubegen.dev_gadgets.yaml");
    std::fs::write(&file, BASE).expect("writes");
    std::fs::write(bases.join("kustomization.yaml"), "resources:\n- diff.kubegen.dev_gadgets.yaml\n").expect("writes");
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "one"]);
    std::fs::write(&file, BASE.replace("              replicas:\n                type: integer\n", ""))
        .expect("writes");
    git(&["commit", "-q", "-am", "two"]);
    let crd_dir = std::path::Path::new("config/crd/bases");
    let before = source::load(&dir, Some("HEAD~1"), crd_dir).expect("HEAD~1 reads");
    assert_eq!(before.name, "config/crd/bases at HEAD~1");
    assert!(before.clients.is_none(), "a git ref gives CRDs only");
    let after = source::load(&dir, Some("config/crd/bases"), crd_dir).expect("the directory reads");
    let found: Vec<(&str, Option<String>)> =
        compare(&before, &after, &Options::default()).into_iter().map(|f| (f.check, f.path)).collect();
    assert_eq!(found, [("field-removed", Some("spec.replicas".into()))]);
    // No default branch: the default is HEAD, which is the new generation here.
    let head = source::load(&dir, None, crd_dir).expect("HEAD reads");
    assert_eq!(head.name, "config/crd/bases at HEAD");
    assert!(compare(&head, &after, &Options::default()).is_empty());
    // A CI checkout of a pull request: no local main, origin's main one commit behind.
    git(&["update-ref", "refs/remotes/origin/main", "HEAD~1"]);
    let base = source::load(&dir, None, crd_dir).expect("the merge base reads");
    assert!(base.name.ends_with("(the merge base with origin/main)"), "{}", base.name);
    let found: Vec<&str> = compare(&base, &after, &Options::default()).into_iter().map(|f| f.check).collect();
    assert_eq!(found, ["field-removed"]);
    let Err(err) = source::load(&dir, Some("no-such-ref"), crd_dir) else { panic!("no-such-ref read") };
    assert!(format!("{err:#}").contains("neither a file, a directory nor a git ref"), "{err:#}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Each check has a section in docs/diff.md that starts with its default level and
/// shows it: a fenced example with the change and the line `diff` prints for it.
#[test]
fn every_check_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/diff.md")).expect("docs/diff.md");
    for check in CHECKS {
        let heading = format!("### `{}`\n\n", check.id);
        let at = doc.find(&heading).unwrap_or_else(|| panic!("docs/diff.md has no section for `{}`", check.id));
        let level = match check.level {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Off => "off",
        };
        let said = format!("Default: {level}.");
        let section = &doc[at + heading.len()..];
        assert!(section.starts_with(&said), "docs/diff.md: `{}` should start with {said:?}", check.id);
        let end = ["\n## ", "\n### "].iter().filter_map(|h| section.find(h)).min().unwrap_or(section.len());
        let section = &section[..end];
        let fenced: Vec<&str> = section.split("```").skip(1).step_by(2).collect();
        assert!(!fenced.is_empty(), "docs/diff.md: `{}` has no fenced example", check.id);
        let printed = match check.level {
            Level::Warn => format!("warning[{}]: ", check.id),
            _ => format!("error[{}]: ", check.id),
        };
        let shown = fenced.iter().flat_map(|f| f.lines()).any(|l| l.starts_with(&printed));
        assert!(shown, "docs/diff.md: `{}`'s example should show the line diff prints ({printed:?})", check.id);
    }
    // Every line of output the document shows has its check's default level (lowered to
    // a warning in a `v*alpha*` version).
    let fenced = doc.split("```").skip(1).step_by(2);
    for line in fenced.flat_map(|f| f.lines()) {
        let Some((level, rest)) = line.split_once('[') else { continue };
        let Some((id, place)) = rest.split_once("]: ") else { continue };
        if !["error", "warning"].contains(&level) {
            continue;
        }
        let check = CHECKS.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("docs/diff.md: `{id}` is no check"));
        let alpha = place.split_whitespace().take(2).any(|w| is_alpha(w.trim_end_matches(':')));
        let want = match check.level {
            Level::Error if !alpha => "error",
            _ => "warning",
        };
        assert_eq!(level, want, "docs/diff.md shows {line:?}, but `{id}` is {:?} by default", check.level);
    }
}

#[test]
fn findings_render_as_text_json_and_yaml() {
    let after = BASE.replace("  scope: Namespaced", "  scope: Cluster");
    let findings = compare(&crds(BASE), &crds(&after), &Options::default());
    let notes = vec!["client model not compared".to_string()];
    let text = report::render(Format::Text, "HEAD", None, &notes, &findings, None).expect("text");
    assert_eq!(
        text,
        "error[scope-changed]: diff.kubegen.dev/Gadget: the scope changed from Namespaced to Cluster: every object's URL changes and stored objects are not moved\nnote: client model not compared\ncompared with HEAD: 1 error, 0 warnings\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&report::render(Format::Json, "HEAD", None, &notes, &findings, None).expect("json"))
            .expect("JSON");
    assert_eq!(json["findings"][0]["check"], "scope-changed");
    assert_eq!(json["errors"], 1);
    let yaml = report::render(Format::Yaml, "HEAD", None, &notes, &findings, None).expect("yaml");
    assert!(yaml.contains("check: scope-changed"), "{yaml}");
}

/// The checks `schema::compare` finds between two schema nodes written as JSON.
fn schema_checks(old: serde_json::Value, new: serde_json::Value) -> Vec<&'static str> {
    let node = |v: serde_json::Value| kubegen_core::schema::node::Node::from_value(&v).expect("a schema node");
    let mut out = Vec::new();
    schema::compare(&At::default(), &node(old), &node(new), &mut out);
    out.into_iter().map(|f| f.check).collect()
}

#[test]
fn relaxations_pass_and_tightenings_do_not() {
    use serde_json::json;
    let with = |mut n: serde_json::Value, extra: serde_json::Value| {
        n.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        n
    };
    let int = |extra| with(json!({"type": "integer"}), extra);
    let str_ = |extra| with(json!({"type": "string"}), extra);
    let list = |extra| with(json!({"type": "array", "items": {"type": "string"}}), extra);
    let map = |extra| with(json!({"type": "object", "additionalProperties": {"type": "string"}}), extra);
    let cases: Vec<(&str, serde_json::Value, serde_json::Value, Vec<&str>)> = vec![
        ("multipleOf 4 → 2 accepts more", int(json!({"multipleOf": 4})), int(json!({"multipleOf": 2})), vec![]),
        ("multipleOf 2 → 4", int(json!({"multipleOf": 2})), int(json!({"multipleOf": 4})), vec!["bounds-tightened"]),
        (
            "maximum made exclusive",
            int(json!({"maximum": 10})),
            int(json!({"maximum": 10, "exclusiveMaximum": true})),
            vec!["bounds-tightened"],
        ),
        ("minimum lowered", int(json!({"minimum": 1})), int(json!({"minimum": 0})), vec![]),
        ("minLength raised", str_(json!({"minLength": 1})), str_(json!({"minLength": 2})), vec!["bounds-tightened"]),
        ("maxLength lowered", str_(json!({"maxLength": 10})), str_(json!({"maxLength": 5})), vec!["bounds-tightened"]),
        ("maxLength raised", str_(json!({"maxLength": 5})), str_(json!({"maxLength": 10})), vec![]),
        ("maxLength dropped", str_(json!({"maxLength": 5})), str_(json!({})), vec![]),
        ("minItems added", list(json!({})), list(json!({"minItems": 1})), vec!["bounds-tightened"]),
        ("maxItems lowered", list(json!({"maxItems": 10})), list(json!({"maxItems": 5})), vec!["bounds-tightened"]),
        ("minItems lowered", list(json!({"minItems": 2})), list(json!({"minItems": 1})), vec![]),
        (
            "minProperties raised",
            map(json!({"minProperties": 1})),
            map(json!({"minProperties": 2})),
            vec!["bounds-tightened"],
        ),
        ("maxProperties added", map(json!({})), map(json!({"maxProperties": 5})), vec!["bounds-tightened"]),
        ("maxProperties raised", map(json!({"maxProperties": 5})), map(json!({"maxProperties": 6})), vec![]),
        ("uniqueItems added", list(json!({})), list(json!({"uniqueItems": true})), vec!["bounds-tightened"]),
        ("a default added", str_(json!({})), str_(json!({"default": "a"})), vec!["default-changed"]),
        ("a default removed", str_(json!({"default": "a"})), str_(json!({})), vec!["default-changed"]),
        (
            "list-map keys changed",
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "required": ["name", "port"], "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}}),
            json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "port"],
                "items": {"type": "object", "required": ["name", "port"], "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}}),
            vec!["list-type-changed"],
        ),
        ("enum dropped", json!({"type": "string", "enum": ["a"]}), json!({"type": "string"}), vec![]),
        ("pattern dropped", json!({"type": "string", "pattern": "^a$"}), json!({"type": "string"}), vec![]),
        ("format dropped", json!({"type": "string", "format": "uri"}), json!({"type": "string"}), vec![]),
        (
            "description changed",
            json!({"type": "string", "description": "a"}),
            json!({"type": "string", "description": "b"}),
            vec![],
        ),
        (
            "an optional field added",
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}),
            vec![],
        ),
        (
            "a required field with a default added",
            json!({"type": "object", "properties": {}}),
            json!({"type": "object", "properties": {"b": {"type": "string", "default": "x"}}, "required": ["b"]}),
            vec![],
        ),
        (
            "a required field without a default added",
            json!({"type": "object", "properties": {}}),
            json!({"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}),
            vec!["required-added"],
        ),
        (
            "a field removed where unknown fields are kept",
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-preserve-unknown-fields": true}),
            json!({"type": "object", "properties": {}, "x-kubernetes-preserve-unknown-fields": true}),
            vec![],
        ),
        (
            "a type change is reported once, not again below",
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({"type": "array", "items": {"type": "string"}}),
            vec!["type-changed"],
        ),
        (
            "anyOf changed",
            json!({"type": "string", "anyOf": [{"minLength": 1}]}),
            json!({"type": "string", "anyOf": [{"minLength": 2}]}),
            vec!["unhandled"],
        ),
        (
            "a map became a struct",
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            vec!["map-type-changed"],
        ),
        (
            "a rule added that every supported server refuses (a message with a line break)",
            json!({"type": "string"}),
            json!({"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "message": "not\nempty"}]}),
            vec!["cel-rule-added", "unhandled"],
        ),
        (
            "a rule removed",
            json!({"type": "string", "x-kubernetes-validations": [{"rule": "self != ''"}]}),
            json!({"type": "string"}),
            vec![],
        ),
        (
            "only a rule's message changed",
            json!({"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "message": "a"}]}),
            json!({"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "message": "b"}]}),
            vec![],
        ),
    ];
    for (what, old, new, want) in cases {
        assert_eq!(schema_checks(old, new), want, "{what}");
    }
}

/// A rule on each item of a list of strings, which runs once per item: its estimate
/// grows with `maxItems` (`None`: unbounded, as many items as fit in a request).
fn listed(max_items: Option<u64>, rule: Option<&str>) -> serde_json::Value {
    let mut item = serde_json::json!({"type": "string", "maxLength": 1000});
    if let Some(rule) = rule {
        item["x-kubernetes-validations"] = serde_json::json!([{"rule": rule}]);
    }
    let mut names = serde_json::json!({"type": "array", "items": item});
    if let Some(n) = max_items {
        names["maxItems"] = n.into();
    }
    let spec = serde_json::json!({"type": "object", "properties": {"names": names}});
    serde_json::json!({"type": "object", "properties": {"spec": spec}})
}

fn described(mut schema: serde_json::Value) -> serde_json::Value {
    schema["properties"]["spec"]["properties"]["names"]["description"] = "the names".into();
    schema
}

/// The findings `schema::compare` makes between two schemas, as (check, message).
fn schema_findings(old: serde_json::Value, new: serde_json::Value) -> Vec<(&'static str, String)> {
    let node = |v: serde_json::Value| kubegen_core::schema::node::Node::from_value(&v).expect("a schema node");
    let mut out = Vec::new();
    schema::compare(&At::default(), &node(old), &node(new), &mut out);
    out.into_iter().map(|f| (f.check, f.message)).collect()
}

/// `self.contains('x')` on a string of at most 1,000 characters costs 401 per item on
/// every supported release: 23,000 items make 9,223,000 (92% of the budget), 30,000 make
/// 12,030,000.
const NEAR_ITEMS: u64 = 23_000;
const OVER_ITEMS: u64 = 30_000;

#[test]
fn a_rules_cost_is_held_to_each_supported_releases_budget() {
    const RULE: &str = "self.contains('x')";
    let (small, near, over) = (Some(10), Some(NEAR_ITEMS), Some(OVER_ITEMS));
    let checks = |old, new| schema_findings(old, new).into_iter().map(|f| f.0).collect::<Vec<_>>();
    let cases: Vec<(&str, serde_json::Value, serde_json::Value, Vec<&str>)> = vec![
        ("added, cheap", listed(small, None), listed(small, Some(RULE)), vec!["cel-rule-added"]),
        ("added, near", listed(small, None), listed(near, Some(RULE)), vec!["cel-rule-added", "cel-rule-near-budget"]),
        ("added, over", listed(small, None), listed(over, Some(RULE)), vec!["cel-rule-added", "cel-rule-over-budget"]),
        // A rule kept as it was: reported when a bound raised or dropped made it costlier.
        (
            "kept, maxItems raised to near",
            listed(small, Some(RULE)),
            listed(near, Some(RULE)),
            vec!["cel-rule-near-budget"],
        ),
        (
            "kept, maxItems raised to over",
            listed(small, Some(RULE)),
            listed(over, Some(RULE)),
            vec!["cel-rule-over-budget"],
        ),
        ("kept, maxItems dropped", listed(small, Some(RULE)), listed(None, Some(RULE)), vec!["cel-rule-over-budget"]),
        ("kept near, something else changed", listed(near, Some(RULE)), described(listed(near, Some(RULE))), vec![]),
        ("kept, maxItems lowered", listed(near, Some(RULE)), listed(small, Some(RULE)), vec!["bounds-tightened"]),
    ];
    for (what, old, new, want) in cases {
        assert_eq!(checks(old, new), want, "{what}");
    }
    let message = |new| {
        let found = schema_findings(listed(small, None), new);
        found
            .into_iter()
            .find(|f| f.0.starts_with("cel-rule-") && f.0.ends_with("budget"))
            .map(|f| f.1)
            .unwrap_or_default()
    };
    let over = message(listed(over, Some(RULE)));
    assert!(
        over.starts_with("the rule `self.contains('x')` of spec.names[*] is over the API server's cost budget on Kubernetes 1.35, 1.36, 1.37, whose servers refuse the CRD: estimated rule cost ")
            && over.contains("exceeds the API server's budget of 10000000 per rule"),
        "{over}"
    );
    let near = message(listed(near, Some(RULE)));
    assert!(near.contains("near the API server's budget of 10000000 per rule: "), "{near}");
    assert!(near.contains("on Kubernetes 1.35, 1.36, 1.37;"), "{near}");
    // Refused for another reason than cost: unhandled, with the releases.
    let refused = schema_findings(
        serde_json::json!({"type": "string"}),
        serde_json::json!({"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "message": "not\nempty"}]}),
    );
    let said = "the rule `self != ''` of the root is refused by the API server of Kubernetes 1.35, 1.36, 1.37: message must not contain line breaks";
    assert!(refused.iter().any(|f| f.0 == "unhandled" && f.1 == said), "{refused:?}");
}

/// `--cluster`'s verdict on one stored object, without a cluster: every violation of the
/// new schema with the value whose staying unchanged ratcheting excuses it — the value
/// itself, a list-map's item, the whole atomic list for its items — and none for a
/// transition rule that fails on an unchanged value.
#[test]
fn stored_objects_are_judged_with_what_ratcheting_excuses() {
    let crd = |spec: serde_json::Value| -> CustomResourceDefinition {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "gauges.diff.kubegen.dev"},
            "spec": {"group": "diff.kubegen.dev", "scope": "Namespaced",
                "names": {"kind": "Gauge", "plural": "gauges"},
                "versions": [
                    {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                        "type": "object", "properties": {"spec": spec, "metadata": {"type": "object"}, "note": {"type": "string"}},
                        "required": ["note"],
                        "x-kubernetes-validations": [{"rule": "self.spec.level < 20", "message": "low"}]}}},
                    {"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {
                        "type": "object", "properties": {"spec": {"type": "object"}}}}}]}
        }))
        .expect("a CRD")
    };
    let item = serde_json::json!({"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer", "maximum": 5}}});
    let new = crd(serde_json::json!({"type": "object", "properties": {
        "level": {"type": "integer", "x-kubernetes-validations": [{"rule": "self <= 10", "message": "at most 10"}]},
        "mode": {"type": "string", "x-kubernetes-validations": [{"rule": "oldSelf != 'legacy'", "message": "retired"}]},
        "atomic": {"type": "array", "x-kubernetes-list-type": "atomic", "items": item},
        "keyed": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "items": item},
        "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 3}}}}));
    let object = serde_json::json!({"apiVersion": "diff.kubegen.dev/v1", "kind": "Gauge",
        "metadata": {"name": "g", "namespace": "ns", "labels": {"app": "anything-goes-here"}},
        "spec": {"level": 50, "mode": "legacy", "atomic": [{"name": "a", "size": 9}], "keyed": [{"name": "b", "size": 9}],
            "labels": {"k": "long"}}});
    let judged: Vec<(String, Option<String>)> =
        cluster::Judge::new(&new, "v1").violations(&object).into_iter().map(|v| (v.path, v.unless_unchanged)).collect();
    let some = |s: &str| Some(s.to_string());
    assert_eq!(
        judged,
        [
            ("spec.atomic[0].size".to_string(), some("spec.atomic")),
            ("spec.keyed[0].size".to_string(), some("spec.keyed[0].size")),
            ("spec.labels.k".to_string(), some("spec.labels.k")),
            // The root holds metadata, which the server never finds unchanged: a field
            // required there, a rule there.
            ("".to_string(), None),
            ("".to_string(), None),
            ("spec.level".to_string(), some("spec.level")),
            ("spec.mode".to_string(), None),
        ]
    );
    // Another version's schema judges the objects read in it.
    assert_eq!(cluster::Judge::new(&new, "v2").violations(&object), []);
}

/// issue 28: found by a new user's trial — `codegen-cli diff OLD NEW` compares two files
/// or directories of CRD YAML from anywhere, as crdify does, with the same checks,
/// levels, formats and exit status; no workspace is read.
#[test]
fn old_new_compares_two_files_or_directories_of_crd_yaml() {
    use clap::Parser;
    #[derive(clap::Parser)]
    struct Cmd {
        #[command(flatten)]
        args: DiffArgs,
    }
    let dir = std::env::temp_dir().join(format!("kubegen-diff-old-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let new_dir = dir.join("new");
    std::fs::create_dir_all(&new_dir).expect("scratch directory");
    let old = dir.join("old.yaml");
    std::fs::write(&old, BASE).expect("writes");
    let new = new_dir.join("gadgets.yaml");
    std::fs::write(&new, BASE.replace("              replicas:\n                type: integer\n", "")).expect("writes");
    std::fs::write(new_dir.join("kustomization.yaml"), "resources:\n- gadgets.yaml\n").expect("writes");
    let (old, new_dir) = (old.to_str().expect("a UTF-8 path"), new_dir.to_str().expect("a UTF-8 path"));
    let parse = |argv: &[&str]| Cmd::try_parse_from([&["diff"], argv].concat()).map(|c| c.args);
    let run = |argv: &[&str]| {
        let args = parse(argv).expect("the arguments parse");
        files(&args, args.old.as_deref().expect("OLD"), args.new.as_deref().expect("NEW")).expect("compares")
    };

    let (text, status) = run(&[old, new_dir]);
    assert_eq!(
        text,
        format!(
            "error[field-removed]: diff.kubegen.dev/Gadget v1 spec.replicas: spec.replicas is gone: the server prunes it from stored objects on their next write, and clients setting it lose it\n\
             note: client model not compared: {old} and {new_dir} are CRD YAML\n\
             compared {new_dir} with {old}: 1 error, 0 warnings\n"
        )
    );
    assert_eq!(status, ExitCode::FAILURE);
    let (text, status) = run(&[old, new_dir, "--warn-only"]);
    assert!(text.starts_with("warning[field-removed]: "), "{text}");
    assert_eq!(status, ExitCode::SUCCESS);
    let (json, _) = run(&[old, new_dir, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!((&json["against"], &json["new"], &json["errors"]), (&old.into(), &new_dir.into(), &1.into()));
    let (text, status) = run(&[old, old]);
    assert!(text.ends_with(": 0 errors, 0 warnings\n"), "{text}");
    assert_eq!(status, ExitCode::SUCCESS);
    // The whole command: the same status.
    assert_eq!(super::run(parse(&[old, new_dir]).expect("parses")).expect("runs"), ExitCode::FAILURE);

    // Flags that name a workspace's generation make no sense with OLD NEW.
    for argv in [
        &[old, new_dir, "--against", "HEAD"][..],
        &[old, new_dir, "--build-ref"],
        &[old, new_dir, "--crd-dir", "x"],
        &[old, new_dir, "-p", "x"],
        &[old],
    ] {
        assert!(parse(argv).is_err(), "{argv:?} parsed");
    }
    let args = parse(&[old, "no-such.yaml"]).expect("parses");
    let err = files(&args, std::path::Path::new(old), std::path::Path::new("no-such.yaml")).unwrap_err();
    assert_eq!(err.to_string(), "no-such.yaml: no such file or directory");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 29: a tightened integer bound read as `5.0 → 3.0` (a CRD's float64 field), and a
/// renamed field only as a removal.
#[test]
fn bounds_read_as_written_and_a_rename_is_named() {
    let before = BASE.replace(
        "              replicas:\n                type: integer\n",
        "              replicas:\n                maximum: 5\n                type: integer\n",
    );
    let after = BASE
        .replace(
            "              replicas:\n                type: integer\n",
            "              replicas:\n                maximum: 3\n                type: integer\n",
        )
        .replace("              items:\n                items:\n", "              entries:\n                items:\n");
    let found = compare(&crds(&before), &crds(&after), &Options::default());
    let message = |check: &str| {
        found.iter().filter(|f| f.check == check).map(|f| f.message.clone()).collect::<Vec<_>>().join("\n")
    };
    assert!(message("bounds-tightened").contains("maximum 5 → 3"), "{}", message("bounds-tightened"));
    let removed = message("field-removed");
    assert!(removed.contains("spec.items is gone") && removed.contains("(renamed to `entries`?"), "{removed}");
}

/// issue 28, found by the generated kinds tier: the server stores 2^40 in a `format:
/// int32` field, which the operator's `i32` cannot read, so a CRD carries the format's
/// range as bounds. A CRD an older kubegen wrote (the format alone) against one that
/// takes the range up tightens nothing; a bound inside the range still does, against the
/// format's edge.
#[test]
fn an_integer_formats_range_taken_up_as_bounds_is_no_tightening() {
    let int32 = |extra: &str| {
        BASE.replace(
            "              replicas:\n                type: integer\n",
            &format!("              replicas:\n                format: int32\n{extra}                type: integer\n"),
        )
    };
    let found = |old: &str, new: &str| -> Vec<(&'static str, String)> {
        compare(&crds(old), &crds(new), &Options::default()).into_iter().map(|f| (f.check, f.message)).collect()
    };
    let ranged = int32("                maximum: 2147483647\n                minimum: -2147483648\n");
    assert_eq!(found(&int32(""), &ranged), []);
    assert_eq!(found(&ranged, &int32("")), []);
    // A u32's range: its format goes (the server knows no uint32), the minimum of 0 stays.
    let u32 = |extra: &str| {
        BASE.replace(
            "              replicas:\n                type: integer\n",
            &format!("              replicas:\n{extra}                minimum: 0\n                type: integer\n"),
        )
    };
    assert_eq!(found(&u32(""), &u32("                maximum: 4294967295\n")), []);
    assert_eq!(found(&u32(""), &u32("                maximum: 4294967294\n")).len(), 1);
    let found = found(&int32(""), &int32("                maximum: 10\n                minimum: -2147483648\n"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "bounds-tightened");
    assert!(found[0].1.contains("maximum none → 10"), "{}", found[0].1);
}
