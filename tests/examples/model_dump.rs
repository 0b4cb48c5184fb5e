fn main() {
    use kubegen::CustomResourceExt;
    let _ = kubegen_tests::fleet::Fleet::crd();
    let all: Vec<serde_json::Value> = serde_json::from_str(&kubegen::registry::registered_json()).unwrap();
    for k in all {
        if k["typePath"].as_str().unwrap().contains(&std::env::args().nth(1).unwrap()) {
            println!("{}", serde_json::to_string_pretty(&k["model"]).unwrap());
        }
    }
}
