//! Foo's conversions round-trip: arbitrary valid objects of both versions go through the
//! hub and back unchanged (`revisionHistoryLimit` through its annotation), and every
//! version of Foo converts.

#[test]
fn foo_conversions_round_trip() {
    match foo_controller::webhook::conversion().check_round_trips(256) {
        Ok(checked) => {
            for spoke in checked {
                println!(
                    "{}: {} spoke and {} hub objects round-tripped",
                    spoke.spoke, spoke.spoke_objects, spoke.hub_objects
                );
            }
        }
        Err(why) => panic!("{why}"),
    }
}
