//! The memcached-operator manager: every controller in one process, with controller-runtime's
//! flags (`--kubeconfig`, `--leader-elect`, `--health-probe-bind-address=:8081`,
//! `--metrics-bind-address=:8080`, `--namespace`, `--log-level`; see `--help`).

use clap::Parser;
use kubegen::host::ManagerArgs;

#[derive(Parser)]
#[command(about = "The memcached-operator operator")]
struct Args {
    #[command(flatten)]
    manager: ManagerArgs,
    #[command(flatten)]
    webhook: kubegen::webhook::WebhookArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    args.manager.init_tracing();
    let client = args.manager.client().await?;
    let manager = args.manager.manager(client, "memcached-operator");
    let manager =
        memcached_operator::controller::memcached::add(manager, args.manager.namespace.as_deref());
    // +kubegen:scaffold:controllers (`codegen-cli create api` adds each controller above)
    // The webhooks, on --webhook-bind-address (:9443) with the serving certificate in
    // --webhook-cert-path, where kubebuilder's deployment mounts cert-manager's; without
    // one (a local `make run`) they are not served; `make run-webhooks` serves them to a
    // local API server.
    let webhooks = kubegen::webhook::Webhooks::new();
    let webhooks = memcached_operator::webhook::memcached::add(webhooks);
    // +kubegen:scaffold:webhooks (`codegen-cli create webhook` adds each kind above)
    let _webhook_server = args.webhook.serve(webhooks).await?;
    manager.run().await?;
    Ok(())
}
