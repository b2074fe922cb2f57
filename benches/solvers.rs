//! In-process figures (`cargo bench --bench solvers`): the generated solvers for 10x6 and
//! the Soma cube beside the generic engine on the same `PuzzleInfo`, with no process
//! start-up in the measurement. `cargo xtask bench` gives the whole-process figures.

use puzzle::engine::DlxSearch;
use puzzle::model::Redundancy;

// Each generated file has its own `main`, unused here.
#[allow(dead_code)]
mod pentomino_10x6 {
    include!("../generated/pentomino_10x6.rs");
}

#[allow(dead_code)]
mod soma {
    include!("../generated/soma.rs");
}

fn main() {
    divan::main();
}

fn quiet() -> runtime::Options {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        options: runtime::Options,
    }
    Cli::parse_from(["bench", "-q"]).options
}

fn count(info: &runtime::PuzzleInfo, search: &mut dyn runtime::Search) -> u64 {
    let mut sink = std::io::sink();
    runtime::run(info, search, &quiet(), &mut sink)
        .expect("a valid plan")
        .solutions
}

fn generic_info(path: &str) -> runtime::PuzzleInfo {
    let text = std::fs::read_to_string(path).expect("the puzzle file");
    let model = &puzzle::load(path, &text).expect("a valid puzzle")[0];
    puzzle::info::puzzle_info(model, &Redundancy::Auto, "generic engine").expect("an info")
}

#[divan::bench(sample_count = 20)]
fn pentomino_10x6_generated(bencher: divan::Bencher) {
    let info = pentomino_10x6::INFO.to_info();
    bencher.bench_local(|| assert_eq!(count(&info, &mut pentomino_10x6::Solver::new()), 2339));
}

#[divan::bench(sample_count = 3)]
fn pentomino_10x6_generic(bencher: divan::Bencher) {
    let info = generic_info(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/pentomino_10x6.txt"
    ));
    bencher.bench_local(|| assert_eq!(count(&info, &mut DlxSearch::new(&info)), 2339));
}

#[divan::bench(sample_count = 50)]
fn soma_generated(bencher: divan::Bencher) {
    let info = soma::INFO.to_info();
    bencher.bench_local(|| assert_eq!(count(&info, &mut soma::Solver::new()), 480));
}

#[divan::bench(sample_count = 50)]
fn soma_generic(bencher: divan::Bencher) {
    let info = generic_info(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/soma.txt"));
    bencher.bench_local(|| assert_eq!(count(&info, &mut DlxSearch::new(&info)), 480));
}
