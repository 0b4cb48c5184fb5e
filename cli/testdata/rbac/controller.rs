//! RBAC markers covering every normalisation and merge pass (after controller-tools'
//! pkg/rbac/testdata/controller.go). Read by the golden test in src/source_markers.rs.
//!
//! +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=get;watch;create
//! +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/status,verbs=get;update;patch

// Same rule twice with overlapping verbs: verbs merge and dedupe.
// +kubebuilder:rbac:groups=art,resources=jobs,verbs=get
// +kubebuilder:rbac:groups=art,resources=jobs,verbs=get;list
// Same verbs, different resources: resources merge.
// +kubebuilder:rbac:groups=cron,resources=crontabs,verbs=get;list
// +kubebuilder:rbac:groups=cron,resources=schedules,verbs=list;get
// Same resources and verbs, different groups: groups merge.
// +kubebuilder:rbac:groups=apps,resources=widgets,verbs=delete
// +kubebuilder:rbac:groups=extensions,resources=widgets,verbs=delete
// Non-resource URLs merge.
// +kubebuilder:rbac:urls=/metrics,verbs=get
// +kubebuilder:rbac:urls=/healthz;/metrics,verbs=get
// `core` is the empty group; `*` swallows the other verbs.
// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;*
// +kubebuilder:rbac:groups="",resources=configmaps,resourceNames=leader,verbs=get;update
// Namespaced Roles, and a custom role name.
// +kubebuilder:rbac:groups=park,resources=benches,verbs=get,namespace=zoo
// +kubebuilder:rbac:groups=park,resources=benches,verbs=list,namespace=zoo
// +kubebuilder:rbac:groups=park,resources=trees,verbs=watch,namespace=here
// +kubebuilder:rbac:groups=park,resources=trees,verbs=watch,namespace=zoo,roleName=keeper
// +kubebuilder:rbac:groups=park,resources=trees,verbs=get,roleName=gardener

/// The typed spelling lands in the same rules.
#[kubegen::rbac(groups = ["art"], resources = ["jobs"], verbs = ["watch"])]
pub struct Reconciler;

mod nested {
    impl super::Reconciler {
        #[kubegen::rbac(groups = ["art"], resources = ["jobs/status"], verbs = ["get"], namespace = "zoo")]
        pub fn reconcile(&self) {}
    }
}
