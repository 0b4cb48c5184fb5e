pub mod resource;
pub mod schema;
