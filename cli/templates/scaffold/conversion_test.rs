//! {{ kind }}'s conversions round-trip: arbitrary valid objects of every version go through
//! the hub and back unchanged, and every version of {{ kind }} converts. Scaffolded by
//! `codegen-cli create webhook --conversion`; keep it as the versions change.

#[test]
fn {{ module }}_conversions_round_trip() {
    let conversion = {{ crate_name }}::webhook::{{ module }}_conversion::conversion();
    match conversion.check_round_trips(256) {
        Ok(checked) => {
            for spoke in checked {
                println!("{}: {} spoke and {} hub objects round-tripped", spoke.spoke, spoke.spoke_objects, spoke.hub_objects);
            }
        }
        Err(why) => panic!("{why}"),
    }
}
