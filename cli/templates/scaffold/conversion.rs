//! {{ kind }}'s versions, converted through the hub {{ hub }}: the API server sends objects
//! of any served version to the manager's `/convert` with the version it wants, and each
//! goes spoke → {{ hub }} → spoke. `tests/{{ module }}_conversion.rs` checks every spoke's
//! round trips on arbitrary objects.

use kubegen::webhook::Conversion;

use crate::api::{{ group_module }}::{{ hub }};

/// {{ kind }}'s conversion webhook: every spoke version through the hub.
pub fn conversion() -> Conversion<{{ hub }}::{{ kind }}> {
    Conversion::hub()
        // +kubegen:scaffold:spokes (`codegen-cli create webhook --conversion --spoke` adds each)
}
