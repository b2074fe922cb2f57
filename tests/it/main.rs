mod client;
mod common;
mod errors;
mod generated;
mod orbits;
mod parallel;
mod pruning;
mod solve;
