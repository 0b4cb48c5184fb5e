//! The markers `codegen-cli manifests` reads from any comment, not from a type's schema:
//! `+kubebuilder:rbac`, `+kubebuilder:webhook` and `+kubebuilder:webhookconfiguration`.
//! One reader for the CLI's source scan and the derive's doc-comment parser, which checks
//! them where they stand on a derived type.

use crate::rbac::RbacRule;
use crate::webhook::{WebhookMarker, parse_configuration_marker};

/// One such marker, read.
#[derive(Debug, Clone, PartialEq)]
pub enum CommentMarker {
    Rbac(RbacRule),
    Webhook(Box<WebhookMarker>),
    /// `+kubebuilder:webhookconfiguration`: (mutating, the configuration's name).
    Configuration(bool, String),
}

/// `line` (the text after the `+`) read as one of these markers; `None` for any other
/// line, the parser's message for a bad one.
pub fn comment_marker(line: &str) -> Option<Result<CommentMarker, String>> {
    let line = line.trim_end();
    let read = if let Some(args) = line.strip_prefix("kubebuilder:rbac:") {
        RbacRule::parse_marker(args).map(CommentMarker::Rbac).map_err(|e| e.to_string())
    } else if let Some(args) = line.strip_prefix("kubebuilder:webhookconfiguration:") {
        parse_configuration_marker(args)
            .map(|(m, name)| CommentMarker::Configuration(m, name))
            .map_err(|e| e.to_string())
    } else if let Some(args) = line.strip_prefix("kubebuilder:webhook:") {
        WebhookMarker::parse_marker(args).map(|w| CommentMarker::Webhook(Box::new(w))).map_err(|e| e.to_string())
    } else {
        return None;
    };
    Some(read)
}
