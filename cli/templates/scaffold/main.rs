//! The {{ project }} manager: every controller in one process, with controller-runtime's
//! flags (`--kubeconfig`, `--leader-elect`, `--health-probe-bind-address=:8081`,
//! `--metrics-bind-address=:8080`, `--namespace`, `--log-level`; see `--help`).

use clap::Parser;
use kubegen::host::ManagerArgs;

#[derive(Parser)]
#[command(about = "The {{ project }} operator")]
struct Args {
    #[command(flatten)]
    manager: ManagerArgs,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    args.manager.init_tracing();
    let client = args.manager.client().await?;
    let manager = args.manager.manager(client, "{{ project }}");
    // +kubegen:scaffold:controllers (`codegen-cli create api` adds each controller above)
    manager.run().await?;
    Ok(())
}
