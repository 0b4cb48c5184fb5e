// The API server requires a webhook name of at least three DNS segments.
#[kubegen::webhook(
    path = "/validate-example-com-v1-foo",
    mutating = false,
    failure_policy = "fail",
    side_effects = "None",
    groups = ["example.com"],
    resources = ["foos"],
    verbs = ["create", "update"],
    versions = ["v1"],
    name = "vfoo",
    admission_review_versions = ["v1"]
)]
pub struct Short;

// `patch` is a request's verb, not an admission operation.
#[kubegen::webhook(
    path = "/validate-example-com-v1-foo",
    failure_policy = "fail",
    side_effects = "None",
    groups = ["example.com"],
    resources = ["foos"],
    verbs = ["create", "patch"],
    versions = ["v1"],
    name = "vfoo.example.com",
    admission_review_versions = ["v1"]
)]
pub struct Verb;

// A misspelled key.
#[kubegen::webhook(failure_polcy = "fail")]
pub struct Typo;

fn main() {}
