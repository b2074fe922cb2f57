//! The `fila` command: `fila solve` runs the generic engine on any definition file, with
//! the same options and output as the generated solvers; given polycube's options and no
//! subcommand it behaves as `fila solve`, so polycube scripts work unchanged.

pub mod cli;
