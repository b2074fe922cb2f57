mod client;
mod common;
mod errors;
mod orbits;
mod solve;
