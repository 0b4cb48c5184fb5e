//! The Foo controller binary: controller-runtime's manager flags (`--kubeconfig`,
//! `--leader-elect`, `--health-probe-bind-address=:8081`, ...), kubebuilder's webhook
//! flags (`--webhook-cert-path`, `--webhook-bind-address=:9443`) and `--concurrency`.

use std::sync::Arc;

use clap::Parser;
use foo_controller::controller::{FooReconciler, controller};
use kubegen::host::ManagerArgs;

#[derive(Parser)]
#[command(about = "The sample-controller Foo controller, on kubegen's reconciler host")]
struct Args {
    #[command(flatten)]
    manager: ManagerArgs,
    #[command(flatten)]
    webhook: kubegen::webhook::WebhookArgs,
    /// Foos reconciled at once.
    #[arg(long, default_value_t = 2)]
    concurrency: u16,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    args.manager.init_tracing();
    let client = args.manager.client().await?;
    let reconciler = Arc::new(FooReconciler::new(client.clone()));
    let foos = controller(client.clone(), args.manager.namespace.as_deref()).concurrency(args.concurrency);
    // Foo's admission webhooks, with the serving certificate in --webhook-cert-path; without
    // one they are not served.
    let _webhooks = args.webhook.serve(foo_controller::webhook::add(kubegen::webhook::Webhooks::new())).await?;
    args.manager.manager(client, "foo-controller").add(foos, reconciler).run().await?;
    Ok(())
}
