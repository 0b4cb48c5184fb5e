
// {{ hub }} → {{ spoke }}, and back. TODO(user): convert field by field where the two versions
// differ. A hub field {{ spoke }} has no place for goes into an annotation with
// `kubegen::webhook::stash(&mut metadata, "field", &value)` and comes back with `unstash`.
impl TryFrom<{{ hub }}::{{ kind }}> for crate::api::{{ group_module }}::{{ spoke }}::{{ kind }} {
    type Error = String;

    fn try_from(hub: {{ hub }}::{{ kind }}) -> Result<Self, String> {
        kubegen::webhook::by_fields(hub)
    }
}

impl TryFrom<crate::api::{{ group_module }}::{{ spoke }}::{{ kind }}> for {{ hub }}::{{ kind }} {
    type Error = String;

    fn try_from(spoke: crate::api::{{ group_module }}::{{ spoke }}::{{ kind }}) -> Result<Self, String> {
        kubegen::webhook::by_fields(spoke)
    }
}
