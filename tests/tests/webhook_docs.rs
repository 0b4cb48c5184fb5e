//! docs/webhooks.md's example, compiled and run: a validator and a defaulter for Foo,
//! served over TLS with a CA the webhook made itself. The page shows the code between
//! the markers verbatim.

// docs:webhooks:start
use foo_controller::Foo;
use kubegen::webhook::{
    Authority, CertStore, Defaulter, Denial, FieldError, Request, Validator, Verdict, WebhookServer, Webhooks,
};

/// A Foo's Deployment keeps its name.
struct FooValidator;

impl Validator<Foo> for FooValidator {
    async fn validate_update(&self, old: &Foo, new: &Foo, _: &Request) -> Verdict {
        if old.spec.deployment_name != new.spec.deployment_name {
            return Err(Denial::invalid(vec![FieldError::forbidden("spec.deploymentName", "cannot change once set")]));
        }
        Ok(Vec::new())
    }
}

/// A Foo without replicas gets two.
struct FooDefaulter;

impl Defaulter<Foo> for FooDefaulter {
    async fn default(&self, foo: &mut Foo, _: &Request) -> Result<(), Denial> {
        foo.spec.replicas.get_or_insert(2);
        Ok(())
    }
}

/// Serves both on `addr`, with a serving certificate for the webhook's Service signed by
/// a CA of its own; `ca.ca_pem()` is the configurations' `caBundle`.
async fn serve(addr: std::net::SocketAddr) -> Result<(Authority, WebhookServer), Box<dyn std::error::Error>> {
    let ca = Authority::new("foo-webhook", Default::default())?;
    let names = ["foo-webhook-service.foo-system.svc".to_string(), "127.0.0.1".to_string()];
    let certs = CertStore::new(&ca.issue(&names)?)?;
    let server = Webhooks::new().validate::<Foo>(FooValidator).default::<Foo>(FooDefaulter).serve(addr, certs).await?;
    Ok((ca, server))
}
// docs:webhooks:end

#[tokio::test]
async fn the_example_serves() {
    let (ca, server) = serve(([127, 0, 0, 1], 0).into()).await.expect("serves");
    assert!(ca.ca_pem().starts_with("-----BEGIN CERTIFICATE-----"));
    assert_ne!(server.local_addr().port(), 0);
}

#[test]
fn the_docs_show_this_code() {
    let source = include_str!("webhook_docs.rs");
    let start = source.find("// docs:webhooks:start\n").expect("start marker") + "// docs:webhooks:start\n".len();
    let end = source.find("// docs:webhooks:end").expect("end marker");
    let docs = include_str!("../../docs/webhooks.md");
    assert!(
        docs.contains(&format!("```rust\n{}```", &source[start..end])),
        "docs/webhooks.md no longer shows tests/tests/webhook_docs.rs's example"
    );
}
