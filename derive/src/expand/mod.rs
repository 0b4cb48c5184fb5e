pub mod apply;
pub mod resource;
pub mod schema;
mod schema_data;
mod typed;
