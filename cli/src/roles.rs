//! The ClusterRoles and Roles `codegen-cli manifests` writes to `config/rbac/role.yaml`
//! from the RBAC markers, normalised and merged exactly as controller-gen does
//! (`pkg/rbac/parser.go`), so the output is byte-stable whatever order the markers were
//! found in.

use std::collections::BTreeMap;

use k8s_openapi::api::rbac::v1::{ClusterRole, PolicyRule, Role};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use kubegen::rbac::RbacRule;

/// A generated ClusterRole (no namespace) or namespaced Role.
#[derive(Debug, Clone, PartialEq)]
pub enum RoleObject {
    Cluster(ClusterRole),
    Namespaced(Role),
}

#[derive(Debug, Clone, Default)]
struct Rule {
    groups: Vec<String>,
    resources: Vec<String>,
    resource_names: Vec<String>,
    verbs: Vec<String>,
    urls: Vec<String>,
}

fn dedup_sort(v: &mut Vec<String>) {
    v.sort();
    v.dedup();
}

impl Rule {
    fn normalize(&mut self) {
        dedup_sort(&mut self.groups);
        dedup_sort(&mut self.resources);
        dedup_sort(&mut self.resource_names);
        dedup_sort(&mut self.verbs);
        dedup_sort(&mut self.urls);
    }

    /// controller-gen's `ruleKey` string: the fields `&`-joined, ` + `-separated.
    fn key(&mut self) -> String {
        self.normalize();
        format!(
            "{} + {} + {} + {}",
            self.groups.join("&"),
            self.resources.join("&"),
            self.resource_names.join("&"),
            self.urls.join("&")
        )
    }

    fn key_without(&mut self, field: &str) -> String {
        self.normalize();
        let part = |name: &str, v: &Vec<String>| if name == field { String::new() } else { v.join("&") };
        format!(
            "{} + {} + {} + {} + {}",
            part("groups", &self.groups),
            part("resources", &self.resources),
            part("resourceNames", &self.resource_names),
            part("urls", &self.urls),
            part("verbs", &self.verbs)
        )
    }

    fn into_policy(self) -> PolicyRule {
        let opt = |v: Vec<String>| if v.is_empty() { None } else { Some(v) };
        PolicyRule {
            api_groups: opt(self.groups),
            resources: opt(self.resources),
            resource_names: opt(self.resource_names),
            non_resource_urls: opt(self.urls),
            verbs: self.verbs,
        }
    }
}

/// Merges the rules that agree on every field but `field`, taking the union of `field`.
fn merge_on(rules: Vec<Rule>, field: &str) -> Vec<Rule> {
    let mut by_key: BTreeMap<String, Rule> = BTreeMap::new();
    for mut rule in rules {
        let key = rule.key_without(field);
        match by_key.get_mut(&key) {
            None => {
                by_key.insert(key, rule);
            }
            Some(existing) => {
                let (into, from) = match field {
                    "groups" => (&mut existing.groups, rule.groups),
                    "resources" => (&mut existing.resources, rule.resources),
                    "urls" => (&mut existing.urls, rule.urls),
                    _ => (&mut existing.verbs, rule.verbs),
                };
                into.extend(from);
                existing.normalize();
            }
        }
    }
    by_key.into_values().collect()
}

/// controller-gen's `NormalizeRules`: split per resource, merge verbs, then resources,
/// then groups, then URLs of otherwise equal rules; collapse `*` verbs; sort by key.
fn normalize_rules(markers: &[&RbacRule]) -> Vec<PolicyRule> {
    let mut rules = Vec::new();
    for m in markers {
        let groups: Vec<String> =
            m.groups.iter().map(|g| if g == "core" { String::new() } else { g.clone() }).collect();
        let base = Rule {
            groups,
            resources: Vec::new(),
            resource_names: m.resource_names.clone(),
            verbs: m.verbs.clone(),
            urls: m.urls.clone(),
        };
        if m.resources.is_empty() {
            rules.push(base);
        } else {
            for r in &m.resources {
                rules.push(Rule { resources: vec![r.clone()], ..base.clone() });
            }
        }
    }
    let rules = merge_on(rules, "verbs");
    let rules = merge_on(rules, "resources");
    let rules = merge_on(rules, "groups");
    let rules = merge_on(rules, "urls");
    let mut keyed: Vec<(String, Rule)> = rules
        .into_iter()
        .map(|mut r| {
            if r.verbs.iter().any(|v| v == "*") {
                r.verbs = vec!["*".into()];
            }
            (r.key(), r)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, r)| r.into_policy()).collect()
}

/// One ClusterRole per role name for rules without a namespace, one Role per
/// (namespace, role name); ordered by namespace, then name. For a namespace-scoped
/// manager (`manager_namespace`: `system`, which config/default's kustomization renames)
/// the rules without a namespace go into a Role in the manager's namespace instead.
pub fn generate_roles(
    markers: &[RbacRule],
    default_role_name: &str,
    manager_namespace: Option<&str>,
) -> Vec<RoleObject> {
    let mut buckets: BTreeMap<(String, String), Vec<&RbacRule>> = BTreeMap::new();
    for m in markers {
        let name = if m.role_name.is_empty() { default_role_name.to_string() } else { m.role_name.clone() };
        let namespace = match manager_namespace {
            Some(manager) if m.namespace.is_empty() => manager.to_string(),
            _ => m.namespace.clone(),
        };
        buckets.entry((namespace, name)).or_default().push(m);
    }
    buckets
        .into_iter()
        .map(|((namespace, name), rules)| {
            let rules = Some(normalize_rules(&rules));
            if namespace.is_empty() {
                RoleObject::Cluster(ClusterRole {
                    metadata: ObjectMeta { name: Some(name), ..Default::default() },
                    rules,
                    aggregation_rule: None,
                })
            } else {
                RoleObject::Namespaced(Role {
                    metadata: ObjectMeta { name: Some(name), namespace: Some(namespace), ..Default::default() },
                    rules,
                })
            }
        })
        .collect()
}

/// Resources of Kubernetes' own API that are cluster-scoped: a namespaced Role's rule for
/// one grants nothing.
const CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "namespaces"),
    ("", "nodes"),
    ("", "persistentvolumes"),
    ("", "componentstatuses"),
    ("apiextensions.k8s.io", "customresourcedefinitions"),
    ("apiregistration.k8s.io", "apiservices"),
    ("admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
    ("admissionregistration.k8s.io", "validatingwebhookconfigurations"),
    ("admissionregistration.k8s.io", "validatingadmissionpolicies"),
    ("admissionregistration.k8s.io", "validatingadmissionpolicybindings"),
    ("rbac.authorization.k8s.io", "clusterroles"),
    ("rbac.authorization.k8s.io", "clusterrolebindings"),
    ("storage.k8s.io", "storageclasses"),
    ("storage.k8s.io", "csidrivers"),
    ("storage.k8s.io", "csinodes"),
    ("storage.k8s.io", "volumeattachments"),
    ("scheduling.k8s.io", "priorityclasses"),
    ("node.k8s.io", "runtimeclasses"),
    ("networking.k8s.io", "ingressclasses"),
    ("certificates.k8s.io", "certificatesigningrequests"),
    ("authentication.k8s.io", "tokenreviews"),
    ("authorization.k8s.io", "subjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectrulesreviews"),
    ("flowcontrol.apiserver.k8s.io", "flowschemas"),
    ("flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations"),
];

/// `+kubebuilder:rbac:...` as the rule reads (for messages).
fn shown(m: &RbacRule) -> String {
    let mut parts = Vec::new();
    for (key, values) in [("groups", &m.groups), ("resources", &m.resources), ("urls", &m.urls), ("verbs", &m.verbs)] {
        if !values.is_empty() {
            parts.push(format!("{key}={}", values.join(";")));
        }
    }
    format!("+kubebuilder:rbac:{}", parts.join(","))
}

/// What a namespace-scoped project's rules without a namespace cannot be in its Role:
/// non-resource URLs (the API server refuses such a Role) and cluster-scoped resources —
/// Kubernetes' own and the project's cluster-scoped kinds (`own`: group, plural) — which
/// a Role cannot grant (the manager would be refused at run time). Each names the rule
/// and what to do instead.
pub fn namespaced_refusals(markers: &[RbacRule], own: &[(String, String)]) -> Vec<String> {
    let fix = "make the project cluster-wide (`codegen-cli edit --namespaced=false`), or remove the marker";
    let mut refused = Vec::new();
    for m in markers.iter().filter(|m| m.namespace.is_empty()) {
        if !m.urls.is_empty() {
            refused.push(format!(
                "{}: the project is namespace-scoped (`namespaced = true` in [workspace.metadata.kubegen]), so this rule would go into its Role, and the API server refuses non-resource URLs in a Role; {fix}",
                shown(m)
            ));
        }
        for group in &m.groups {
            let group = if group == "core" { "" } else { group.as_str() };
            for resource in &m.resources {
                let base = resource.split('/').next().unwrap_or(resource);
                let known = CLUSTER_SCOPED.iter().any(|(g, r)| *g == group && *r == base);
                let ours = own.iter().any(|(g, r)| g == group && r == base);
                if known || ours {
                    refused.push(format!(
                        "{}: `{base}` is cluster-scoped and the project is namespace-scoped, so its Role cannot grant it (the manager would be refused); {fix}",
                        shown(m)
                    ));
                }
            }
        }
    }
    refused.sort();
    refused.dedup();
    refused
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(args: &str) -> RbacRule {
        RbacRule::parse_marker(args).expect("marker parses")
    }

    fn policies(objects: &[RoleObject]) -> Vec<Vec<PolicyRule>> {
        objects
            .iter()
            .map(|o| match o {
                RoleObject::Cluster(c) => c.rules.clone().unwrap_or_default(),
                RoleObject::Namespaced(r) => r.rules.clone().unwrap_or_default(),
            })
            .collect()
    }

    fn p(groups: &[&str], resources: &[&str], verbs: &[&str]) -> PolicyRule {
        let v = |s: &[&str]| if s.is_empty() { None } else { Some(s.iter().map(|x| x.to_string()).collect()) };
        PolicyRule {
            api_groups: v(groups),
            resources: v(resources),
            verbs: verbs.iter().map(|x| x.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn merges_verbs_then_resources_then_groups() {
        let roles = generate_roles(
            &[
                rule("groups=apps,resources=deployments,verbs=get;list"),
                rule("groups=apps,resources=deployments,verbs=watch;get"),
                rule("groups=apps,resources=replicasets,verbs=get;list;watch"),
                rule("groups=batch,resources=replicasets,verbs=get;list;watch"),
                rule("groups=core,resources=events,verbs=create;patch"),
            ],
            "manager-role",
            None,
        );
        assert_eq!(
            policies(&roles),
            [[
                p(&[""], &["events"], &["create", "patch"]),
                // Resources merge before groups, so apps' two resources join first and
                // batch's replicasets stay apart, as with controller-gen.
                p(&["apps"], &["deployments", "replicasets"], &["get", "list", "watch"]),
                p(&["batch"], &["replicasets"], &["get", "list", "watch"]),
            ]]
        );
    }

    #[test]
    fn a_namespaced_project_refuses_urls_and_cluster_scoped_resources_in_its_role() {
        let markers = [
            rule("groups=a.io,resources=bs,verbs=get"),
            rule("urls=/metrics,verbs=get"),
            rule("groups=core,resources=nodes,verbs=list"),
            rule("groups=a.io,resources=globals/status,verbs=get"),
            rule("groups=core,resources=nodes,verbs=list,namespace=elsewhere"),
        ];
        let refused = namespaced_refusals(&markers, &[("a.io".into(), "globals".into())]);
        assert_eq!(refused.len(), 3, "{refused:#?}");
        assert!(refused.iter().any(|r| r.contains("urls=/metrics") && r.contains("non-resource URLs")), "{refused:#?}");
        assert!(refused.iter().any(|r| r.contains("`nodes` is cluster-scoped")), "{refused:#?}");
        assert!(refused.iter().any(|r| r.contains("`globals` is cluster-scoped")), "{refused:#?}");
        assert!(refused.iter().all(|r| r.contains("edit --namespaced=false")));
        assert!(namespaced_refusals(&markers[..1], &[]).is_empty());
    }

    #[test]
    fn a_namespaced_manager_gets_a_role_in_its_namespace_for_rules_without_one() {
        let markers =
            [rule("groups=a.io,resources=bs,verbs=get"), rule("groups=a.io,resources=cs,verbs=list,namespace=other")];
        let roles = generate_roles(&markers, "manager-role", Some("system"));
        let placed: Vec<(Option<String>, Option<String>)> = roles
            .iter()
            .map(|r| match r {
                RoleObject::Namespaced(r) => (r.metadata.namespace.clone(), r.metadata.name.clone()),
                RoleObject::Cluster(c) => (None, c.metadata.name.clone()),
            })
            .collect();
        let role = |ns: &str| (Some(ns.to_string()), Some("manager-role".to_string()));
        assert_eq!(placed, [role("other"), role("system")]);
        assert!(matches!(generate_roles(&markers[..1], "manager-role", None)[0], RoleObject::Cluster(_)));
    }

    #[test]
    fn star_verbs_collapse_and_namespaces_make_roles() {
        let roles = generate_roles(
            &[
                rule("groups=art,resources=jobs,verbs=get;*"),
                rule("groups=art,resources=jobs,verbs=get,namespace=zoo"),
                rule("groups=art,resources=jobs,verbs=list,namespace=zoo,roleName=keeper"),
            ],
            "manager-role",
            None,
        );
        assert_eq!(policies(&roles)[0], [p(&["art"], &["jobs"], &["*"])]);
        let names: Vec<(Option<String>, Option<String>)> = roles
            .iter()
            .map(|o| match o {
                RoleObject::Cluster(c) => (None, c.metadata.name.clone()),
                RoleObject::Namespaced(r) => (r.metadata.namespace.clone(), r.metadata.name.clone()),
            })
            .collect();
        assert_eq!(
            names,
            [
                (None, Some("manager-role".into())),
                (Some("zoo".into()), Some("keeper".into())),
                (Some("zoo".into()), Some("manager-role".into())),
            ]
        );
    }

    #[test]
    fn urls_merge_for_otherwise_equal_rules() {
        let roles = generate_roles(&[rule("urls=/metrics,verbs=get"), rule("urls=/healthz,verbs=get")], "r", None);
        assert_eq!(
            policies(&roles)[0],
            [PolicyRule {
                non_resource_urls: Some(vec!["/healthz".into(), "/metrics".into()]),
                verbs: vec!["get".into()],
                ..Default::default()
            }]
        );
    }
}
