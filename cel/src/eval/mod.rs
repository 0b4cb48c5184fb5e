//! Evaluation of rules against objects (in progress).
