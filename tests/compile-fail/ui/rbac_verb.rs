#[kubegen::rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get", "fetch"])]
pub struct Reconciler;

#[kubegen::rbac(groups = ["apps"], resource = ["deployments"])]
pub struct Other;

fn main() {}
