//! English plurals for resource names, as controller-gen's `flect.Pluralize` makes them.

/// Words whose plural is not made by a suffix rule (flect's irregular list, the part
/// that kinds use).
const IRREGULAR: &[(&str, &str)] = &[
    ("person", "people"),
    ("man", "men"),
    ("woman", "women"),
    ("child", "children"),
    ("ox", "oxen"),
    ("mouse", "mice"),
    ("goose", "geese"),
    ("foot", "feet"),
    ("tooth", "teeth"),
    ("index", "indices"),
    ("matrix", "matrices"),
    ("vertex", "vertices"),
    ("criterion", "criteria"),
    ("datum", "data"),
    ("medium", "media"),
    ("analysis", "analyses"),
    ("basis", "bases"),
    ("crisis", "crises"),
    ("diagnosis", "diagnoses"),
    ("thesis", "theses"),
    ("quiz", "quizzes"),
    ("leaf", "leaves"),
    ("life", "lives"),
    ("knife", "knives"),
    ("wife", "wives"),
    ("half", "halves"),
    ("shelf", "shelves"),
    ("wolf", "wolves"),
    ("cactus", "cacti"),
    ("focus", "foci"),
    ("fungus", "fungi"),
    ("nucleus", "nuclei"),
    ("radius", "radii"),
    ("stimulus", "stimuli"),
    ("alias", "aliases"),
    ("status", "statuses"),
    ("bus", "buses"),
    ("proxy", "proxies"),
    ("policy", "policies"),
    ("endpoints", "endpoints"),
];

/// Words that are their own plural.
const UNCOUNTABLE: &[&str] = &[
    "equipment",
    "information",
    "rice",
    "money",
    "species",
    "series",
    "fish",
    "sheep",
    "deer",
    "news",
    "metadata",
    "data",
    "config",
    "software",
    "hardware",
    "feedback",
    "traffic",
];

/// The plural of a lowercased kind.
pub fn pluralize(word: &str) -> String {
    // Short irregulars only as whole words: `box` is not `b` + `ox`, `human` not `hu` + `man`.
    for (singular, plural) in IRREGULAR {
        if let Some(prefix) = word.strip_suffix(singular)
            && (prefix.is_empty() || singular.len() > 5)
        {
            return format!("{prefix}{plural}");
        }
    }
    if UNCOUNTABLE.iter().any(|u| word.ends_with(u)) {
        return word.to_string();
    }
    let vowel = |c: char| "aeiou".contains(c);
    let before_last = word.chars().rev().nth(1);
    if word.ends_with('y') && before_last.is_some_and(|c| !vowel(c)) {
        return format!("{}ies", &word[..word.len() - 1]);
    }
    if ["s", "x", "z", "ch", "sh"].iter().any(|s| word.ends_with(s)) {
        return format!("{word}es");
    }
    format!("{word}s")
}

#[cfg(test)]
mod tests {
    use super::pluralize;

    #[test]
    fn kinds_pluralize_like_controller_gen() {
        for (kind, plural) in [
            ("foo", "foos"),
            ("sample", "samples"),
            ("policy", "policies"),
            ("gateway", "gateways"),
            ("ingress", "ingresses"),
            ("box", "boxes"),
            ("match", "matches"),
            ("mesh", "meshes"),
            ("cronjob", "cronjobs"),
            ("testquota", "testquotas"),
            ("networkpolicy", "networkpolicies"),
            ("person", "people"),
            ("status", "statuses"),
            ("human", "humans"),
            ("salesperson", "salespeople"),
        ] {
            assert_eq!(pluralize(kind), plural, "{kind}");
        }
    }
}
