//! The one integration-test binary: each module tests one side of fila (see its own
//! first lines); `common` holds the helpers they share.

mod client;
mod common;
mod errors;
mod estimate;
mod formats;
mod fuzz;
mod generated;
mod lattices;
mod orbits;
mod parallel;
mod pictures;
mod portable;
mod pruning;
mod solve;
mod space;
mod tune;
