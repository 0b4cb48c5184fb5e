//! A body the API server (or anyone reaching the port) posts to the webhook server,
//! answered at every path a real operator serves: sample-controller's Foo defaulter and
//! validator (AdmissionReview), the schema validator, and Foo's conversion
//! (ConversionReview). Whatever the body, the answer is a review in JSON.

#![no_main]

use std::sync::OnceLock;

use kubegen::webhook::{SchemaValidator, Webhooks};
use libfuzzer_sys::fuzz_target;

fn server() -> &'static (tokio::runtime::Runtime, Webhooks) {
    static SERVER: OnceLock<(tokio::runtime::Runtime, Webhooks)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
        let webhooks =
            foo_controller::webhook::add(Webhooks::new()).validate_at::<foo_controller::Foo>("/schema", SchemaValidator);
        (runtime, webhooks)
    })
}

fuzz_target!(|body: &[u8]| {
    let (runtime, webhooks) = server();
    for path in webhooks.paths() {
        let answer = runtime.block_on(webhooks.review(path, body)).expect("a webhook at each path");
        let answer: serde_json::Value = serde_json::from_slice(&answer).expect("the answer is JSON");
        assert!(answer["response"].is_object(), "the answer is a review: {answer}");
    }
});
