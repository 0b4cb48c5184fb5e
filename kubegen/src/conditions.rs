//! Status conditions (`metav1.Condition`) the way apimachinery's `meta.SetStatusCondition`
//! keeps them: one entry per type, and `lastTransitionTime` moves only when the status
//! does — so a reconcile that writes the same condition every time does not make the
//! condition look new, and `kubectl wait --for=condition=...` sees a stable time.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use k8s_openapi::jiff::Timestamp;

/// Condition statuses, as the API spells them.
pub const TRUE: &str = "True";
pub const FALSE: &str = "False";
pub const UNKNOWN: &str = "Unknown";

/// A condition of `type_` with `status`, `reason` and `message`, observed at
/// `observed_generation` (the object's `metadata.generation`), stamped now.
pub fn new(type_: &str, status: &str, reason: &str, message: &str, observed_generation: Option<i64>) -> Condition {
    Condition {
        type_: type_.into(),
        status: status.into(),
        reason: reason.into(),
        message: message.into(),
        observed_generation,
        last_transition_time: Time(Timestamp::now()),
    }
}

/// Sets `condition` in `conditions`, as `meta.SetStatusCondition` does: a new type is
/// appended (stamped now when its `lastTransitionTime` is the zero time); an existing
/// one takes the new reason, message and observed generation, and the new
/// `lastTransitionTime` only when its status changes. Returns whether anything changed.
pub fn set(conditions: &mut Vec<Condition>, mut condition: Condition) -> bool {
    if condition.last_transition_time.0 == Timestamp::UNIX_EPOCH {
        condition.last_transition_time = Time(Timestamp::now());
    }
    let Some(existing) = conditions.iter_mut().find(|c| c.type_ == condition.type_) else {
        conditions.push(condition);
        return true;
    };
    let mut changed = false;
    if existing.status != condition.status {
        existing.status = condition.status;
        existing.last_transition_time = condition.last_transition_time;
        changed = true;
    }
    if existing.reason != condition.reason {
        existing.reason = condition.reason;
        changed = true;
    }
    if existing.message != condition.message {
        existing.message = condition.message;
        changed = true;
    }
    if existing.observed_generation != condition.observed_generation {
        existing.observed_generation = condition.observed_generation;
        changed = true;
    }
    changed
}

/// The condition of `type_`, if there is one.
pub fn find<'a>(conditions: &'a [Condition], type_: &str) -> Option<&'a Condition> {
    conditions.iter().find(|c| c.type_ == type_)
}

/// Removes the condition of `type_`; returns whether there was one.
pub fn remove(conditions: &mut Vec<Condition>, type_: &str) -> bool {
    let before = conditions.len();
    conditions.retain(|c| c.type_ != type_);
    conditions.len() != before
}

/// Whether the condition of `type_` is there with status `True`.
pub fn is_true(conditions: &[Condition], type_: &str) -> bool {
    find(conditions, type_).is_some_and(|c| c.status == TRUE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> Time {
        Time(Timestamp::from_second(seconds).expect("valid time"))
    }

    fn condition(status: &str, reason: &str, time: Time) -> Condition {
        Condition { last_transition_time: time, ..new("Available", status, reason, "", Some(1)) }
    }

    #[test]
    fn transition_time_moves_only_with_the_status() {
        let mut all = Vec::new();
        assert!(set(&mut all, condition(TRUE, "Ready", at(100))));
        // Same status, new reason: changed, but the transition time stays.
        assert!(set(&mut all, condition(TRUE, "StillReady", at(200))));
        assert_eq!(all[0].last_transition_time, at(100));
        assert_eq!(all[0].reason, "StillReady");
        // The same condition again changes nothing.
        assert!(!set(&mut all, condition(TRUE, "StillReady", at(300))));
        // A new status takes the new time.
        assert!(set(&mut all, condition(FALSE, "Broken", at(400))));
        assert_eq!(all[0].last_transition_time, at(400));
        assert_eq!(all.len(), 1);
        assert!(!is_true(&all, "Available"));
    }

    #[test]
    fn the_zero_time_is_stamped_now() {
        let mut all = Vec::new();
        set(&mut all, condition(TRUE, "Ready", Time(Timestamp::UNIX_EPOCH)));
        assert!(all[0].last_transition_time.0 > Timestamp::UNIX_EPOCH);
        assert!(is_true(&all, "Available"));
    }

    #[test]
    fn find_and_remove_by_type() {
        let mut all = vec![new("A", TRUE, "R", "", None), new("B", FALSE, "R", "", None)];
        assert_eq!(find(&all, "B").map(|c| c.status.as_str()), Some(FALSE));
        assert!(remove(&mut all, "A"));
        assert!(!remove(&mut all, "A"));
        assert_eq!(all.len(), 1);
    }
}
