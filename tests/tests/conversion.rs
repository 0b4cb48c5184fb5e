//! Conversion round trips, checked on arbitrary objects: `Conversion::check_round_trips`
//! finds a conversion that loses a field, one that fails on a valid object, and a version
//! with no conversion; the hub's fields a spoke has no place for round-trip through
//! `stash`/`unstash`.

use kubegen::webhook::{Conversion, STASH_ANNOTATION, stash, unstash};

pub mod v1 {
    use kubegen::CustomResource;
    use serde::{Deserialize, Serialize};

    /// The hub.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "ships.kubegen.dev", version = "v1", kind = "Ship", namespaced)]
    pub struct ShipSpec {
        /// +kubebuilder:validation:Minimum=0
        /// +kubebuilder:validation:Maximum=500
        pub replicas: i32,
        #[serde(default)]
        pub note: String,
        /// Only the hub has a crew: the spoke keeps it in an annotation.
        /// +kubebuilder:validation:MaxItems=4
        /// +listType=set
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub crew: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub mode: Option<Mode>,
    }

    #[derive(kubegen::KubeSchema, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
    pub enum Mode {
        Sail,
        Steam,
    }
}

pub mod v2 {
    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    /// The spoke: the count moved into `size`, the mode a flag, no crew.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "ships.kubegen.dev", version = "v2", kind = "Ship", namespaced)]
    pub struct ShipSpec {
        pub size: Size,
        #[serde(default)]
        pub note: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub steam: Option<bool>,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Size {
        /// +kubebuilder:validation:Minimum=0
        /// +kubebuilder:validation:Maximum=500
        pub count: i32,
    }
}

impl TryFrom<v1::Ship> for v2::Ship {
    type Error = String;

    fn try_from(hub: v1::Ship) -> Result<Self, String> {
        let mut metadata = hub.metadata;
        stash(&mut metadata, "crew", &hub.spec.crew)?;
        let steam = hub.spec.mode.map(|m| m == v1::Mode::Steam);
        let spec = v2::ShipSpec { size: v2::Size { count: hub.spec.replicas }, note: hub.spec.note, steam };
        Ok(v2::Ship { metadata, spec })
    }
}

impl TryFrom<v2::Ship> for v1::Ship {
    type Error = String;

    fn try_from(spoke: v2::Ship) -> Result<Self, String> {
        let mut metadata = spoke.metadata;
        let crew = unstash(&mut metadata, "crew")?;
        let mode = spoke.spec.steam.map(|s| if s { v1::Mode::Steam } else { v1::Mode::Sail });
        let spec = v1::ShipSpec { replicas: spoke.spec.size.count, note: spoke.spec.note, crew, mode };
        Ok(v1::Ship { metadata, spec })
    }
}

/// The same kind in another group, converted by hand-made mistakes.
pub mod broken {
    pub mod v1 {
        use kubegen::CustomResource;
        use serde::{Deserialize, Serialize};

        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(group = "broken.kubegen.dev", version = "v1", kind = "Boat", namespaced)]
        pub struct BoatSpec {
            /// +kubebuilder:validation:Minimum=0
            pub replicas: i32,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub crew: Vec<String>,
        }
    }

    pub mod v2 {
        use kubegen::CustomResource;
        use serde::{Deserialize, Serialize};

        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(group = "broken.kubegen.dev", version = "v2", kind = "Boat", namespaced)]
        pub struct BoatSpec {
            /// +kubebuilder:validation:Minimum=0
            pub size: i32,
        }
    }

    pub mod v3 {
        use kubegen::CustomResource;
        use serde::{Deserialize, Serialize};

        /// Served, but no conversion names it.
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
        #[kube(group = "broken.kubegen.dev", version = "v3", kind = "Boat", namespaced)]
        pub struct BoatSpec {
            pub size: i32,
        }
    }

    /// Drops the crew: a hub with one comes back without it.
    impl From<v1::Boat> for v2::Boat {
        fn from(hub: v1::Boat) -> Self {
            v2::Boat { metadata: hub.metadata, spec: v2::BoatSpec { size: hub.spec.replicas } }
        }
    }

    /// Refuses a valid size above 100.
    impl TryFrom<v2::Boat> for v1::Boat {
        type Error = String;

        fn try_from(spoke: v2::Boat) -> Result<Self, String> {
            if spoke.spec.size > 100 {
                return Err(format!("size {} is too large", spoke.spec.size));
            }
            Ok(v1::Boat {
                metadata: spoke.metadata,
                spec: v1::BoatSpec { replicas: spoke.spec.size, crew: Vec::new() },
            })
        }
    }
}

#[test]
fn every_spoke_round_trips_on_arbitrary_objects() {
    let conversion = Conversion::<v1::Ship>::hub().spoke::<v2::Ship>();
    let checked = conversion.check_round_trips(200).expect("the conversions round-trip");
    assert_eq!(checked.len(), 1);
    assert_eq!(checked[0].spoke, "ships.kubegen.dev/v2");
    assert_eq!((checked[0].spoke_objects, checked[0].hub_objects), (200, 200));
}

#[test]
fn a_version_without_a_conversion_is_named() {
    let err = Conversion::<v1::Ship>::hub().check_versions().unwrap_err();
    assert!(err.contains("ships.kubegen.dev/v2 (conversion::v2::Ship)"), "{err}");
    let err = Conversion::<broken::v1::Boat>::hub().spoke::<broken::v2::Boat>().check_round_trips(10).unwrap_err();
    assert!(err.contains("broken.kubegen.dev/v3 (conversion::broken::v3::Boat)"), "{err}");
    assert!(!err.contains("/v2 ("), "{err}");
}

#[test]
fn a_conversion_that_loses_a_field_or_fails_is_caught() {
    let conversion = Conversion::<broken::v1::Boat>::hub().spoke::<broken::v2::Boat>();
    // (check_round_trips would stop at v3 first; the round trips are checked alone here.)
    let err = conversion.check_spoke_round_trips(64).unwrap_err();
    assert!(err.contains("broken.kubegen.dev/v2 → broken.kubegen.dev/v1 → broken.kubegen.dev/v2"), "{err}");
    assert!(err.contains("size") && err.contains("is too large"), "{err}");
    // proptest shrinks to the smallest failing size: 101.
    assert!(err.contains("size 101 is too large"), "{err}");
}

#[test]
fn stashed_fields_come_back_and_leave_no_annotation() {
    let hub = v1::Ship {
        metadata: kube::api::ObjectMeta {
            name: Some("one".into()),
            annotations: Some([("team".to_string(), "blue".to_string())].into()),
            ..Default::default()
        },
        spec: v1::ShipSpec { replicas: 3, note: String::new(), crew: vec!["ann".into(), "bo".into()], mode: None },
    };
    let spoke = v2::Ship::try_from(hub.clone()).expect("to v2");
    let annotations = spoke.metadata.annotations.clone().expect("annotations");
    assert_eq!(annotations[STASH_ANNOTATION], r#"{"crew":["ann","bo"]}"#);
    let back = v1::Ship::try_from(spoke).expect("back");
    assert_eq!((&back.metadata, &back.spec), (&hub.metadata, &hub.spec));

    let bare = v1::Ship { metadata: Default::default(), spec: v1::ShipSpec { crew: Vec::new(), ..hub.spec.clone() } };
    let spoke = v2::Ship::try_from(bare.clone()).expect("to v2");
    assert_eq!(spoke.metadata.annotations, None, "an empty crew is not stashed");
    let back = v1::Ship::try_from(spoke).expect("back");
    assert_eq!((back.metadata, back.spec), (bare.metadata, bare.spec));

    let mut broken = v2::Ship::try_from(hub).expect("to v2");
    broken.metadata.annotations.as_mut().expect("annotations").insert(STASH_ANNOTATION.into(), "crew".into());
    let err = v1::Ship::try_from(broken).unwrap_err();
    assert!(err.contains(STASH_ANNOTATION) && err.contains("not a JSON object"), "{err}");
}
