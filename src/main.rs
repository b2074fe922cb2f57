//! The `fila` executable; see [`fila::cli`].

fn main() {
    std::process::exit(fila::cli::main(std::env::args().collect()));
}
