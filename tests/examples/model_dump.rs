//! Prints the client model of the kinds whose type path contains the argument:
//! `cargo run -p kubegen-tests --example model_dump -- Fleet`.
fn main() {
    use kubegen::CustomResourceExt;
    let _ = kubegen_tests::fleet::Fleet::crd();
    let wanted = std::env::args().nth(1).unwrap_or_default();
    for record in kubegen::kinds::records(&Default::default()) {
        if record.type_path.contains(&wanted) {
            println!("{}", serde_json::to_string_pretty(&record.types).expect("JSON"));
        }
    }
}
