//! The memcached-operator operator: its API types (`api`, one module per group and version)
//! and the controllers that reconcile them (`controller`).

pub mod api;
pub mod controller;
pub mod webhook;
