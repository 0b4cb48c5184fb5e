//! The reconciler host (feature `runtime`): the control loop of Kubernetes'
//! sample-controller — watch, work queue, reconcile, status, events — as a thin layer on
//! kube-runtime, with what it leaves to every user: client-go's rate-limited retries,
//! a manager for several controllers with graceful shutdown, Lease-based leader
//! election, `/healthz` `/readyz` `/metrics`, and helpers for events, status, owner
//! references, finalizers and server-side apply.

mod args;
mod controller;
mod helpers;
pub(crate) mod leader;
mod manager;
mod metrics;
mod probes;
mod queue;
mod retry;
mod shard;
mod shard_server;

pub use args::{ArgsError, BindAddress, ManagerArgs};
pub use controller::{Controller, Failure, ReconcileError, Reconciler, ScopedApi, Watched};
pub use helpers::{
    Events, OperationResult, OwnerError, apply, controller_owner_ref, create_or_patch, create_or_update, patch_status,
    set_controller_reference,
};
/// The earlier name of [`OperationResult`], which collided with the webhooks' admission
/// `Operation`.
#[deprecated(since = "0.1.0", note = "renamed OperationResult, as controller-runtime names it")]
pub type Operation = OperationResult;
pub use kube::runtime::controller::Action;
pub use kube::runtime::finalizer::{Event as FinalizerEvent, finalizer};
pub use kube::runtime::watcher::Config as WatcherConfig;
pub use leader::LeaderElection;
pub use manager::{Manager, ManagerError, Stop};
pub use metrics::Metrics;
pub use probes::Health;
pub use retry::{RateLimiter, RetryPolicy};
pub use shard::{Ring, Sharding, object_key};
pub use shard_server::{Ranges, ShardSelection};
