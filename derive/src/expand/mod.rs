pub mod apply;
pub mod resource;
pub mod schema;
mod typed;
