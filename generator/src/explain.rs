//! `cargo xtask gen --explain`: a generated solver's FILA tables in words. For each cell
//! in fill order: its coordinates, the cells whose occupancy chooses its image list set
//! (NOF) and what each index bit means, then every neighbour state with its images by
//! piece (POF: only the images whose first cell it is). The E stage and the narrower
//! solvers of the last cells follow, more briefly.

use std::fmt::Write as _;

use crate::emit::offset;
use crate::lower::{CellPlan, EStage, FStage, FTable, Ir, Mask, E_CONTEXT_CELLS};
use crate::model::Puzzle;

/// The explanation of `ir`, the IR lowered from `puzzle` (read from `path`).
pub fn explain(path: &str, puzzle: &Puzzle, ir: &Ir) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {path}: {} open cells, {} pieces of {} shapes, {} images",
        ir.cells,
        ir.pieces,
        ir.shape_counts.len(),
        puzzle.images.len()
    );
    let _ = writeln!(
        out,
        "# cells are numbered in fill order; an image is written as its piece and its cells"
    );
    explain_solver(&mut out, puzzle, ir, 0);
    out
}

/// One solver, whose cell 0 is the puzzle's cell `offset` (a narrower solver's cells are
/// the last cells of the box).
fn explain_solver(out: &mut String, puzzle: &Puzzle, ir: &Ir, offset: usize) {
    let _ = writeln!(out, "\n## a solver in a {}-bit word", ir.word.bits());
    let order = if ir.e_stage.is_some() {
        format!(
            "the E heuristic while more than {} pieces are left, then F",
            ir.f_from
        )
    } else {
        "the F heuristic throughout".to_string()
    };
    let _ = writeln!(
        out,
        "# the test for regions too small for any piece: {:?}; {order}",
        ir.isolation
    );
    match &ir.f_stage {
        FStage::Table(ft) => explain_table(out, puzzle, ft, offset),
        FStage::Cells(plans) => explain_cells(out, puzzle, plans, offset),
    }
    if let Some(e) = &ir.e_stage {
        explain_e_stage(out, puzzle, e, offset);
    }
    if let Some(tail) = &ir.tail {
        let _ = writeln!(
            out,
            "\n# once every cell before cell {} is filled, the search goes on in a narrower word",
            offset + tail.from
        );
        explain_solver(out, puzzle, &tail.ir, offset + tail.from);
    }
}

/// The F stage from flat tables: each cell's context cells, and its sets.
fn explain_table(out: &mut String, puzzle: &Puzzle, ft: &FTable, offset: usize) {
    let _ = writeln!(
        out,
        "# F stage: flat tables; a cell's set is chosen by the occupancy of the later cells most of its images cover"
    );
    for c in 0..ft.context.len() {
        let cell = offset + c;
        let context: Vec<usize> = bits(ft.context[c]);
        let meaning: Vec<String> = context
            .iter()
            .enumerate()
            .map(|(k, &d)| {
                format!(
                    "bit {k} = cell {} {}",
                    offset + d,
                    relative(puzzle, cell, offset + d)
                )
            })
            .collect();
        let _ = writeln!(out, "\ncell {cell} at {}", at(puzzle, cell));
        let _ = writeln!(
            out,
            "  index: {}",
            if meaning.is_empty() {
                "none (one set)".to_string()
            } else {
                meaning.join(", ")
            }
        );
        for (state, images) in ft.sets(c).enumerate() {
            let filled: Vec<String> = context
                .iter()
                .enumerate()
                .filter(|(k, _)| state >> k & 1 == 1)
                .map(|(_, &d)| (offset + d).to_string())
                .collect();
            let _ = writeln!(
                out,
                "  state {state} ({}): {}",
                if filled.is_empty() {
                    "all open".to_string()
                } else {
                    format!("cells {} filled", filled.join(", "))
                },
                images_by_piece(
                    puzzle,
                    &images.iter().map(|&i| usize::from(i)).collect::<Vec<_>>()
                )
            );
        }
    }
}

/// The F stage as index functions: each cell's neighbours, and the set of each state.
fn explain_cells(out: &mut String, puzzle: &Puzzle, plans: &[CellPlan], offset: usize) {
    let _ = writeln!(
        out,
        "# F stage: one index function per cell, reading the neighbours that can be open there"
    );
    for plan in plans {
        let cell = offset + plan.cell as usize;
        let _ = writeln!(out, "\ncell {cell} at {}", at(puzzle, cell));
        let reads: Vec<String> = plan
            .open_neighbours
            .iter()
            .enumerate()
            .map(|(k, n)| {
                format!(
                    "bit {k} = cell {} ({})",
                    offset + n.cell as usize,
                    n.direction
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "  index: {}",
            if reads.is_empty() {
                "none (one set)".to_string()
            } else {
                reads.join(", ")
            }
        );
        for (state, lists) in plan.sets.iter().enumerate() {
            let words = plan.state(state);
            let images: Vec<usize> = lists
                .iter()
                .flat_map(|l| l.images.iter().copied())
                .collect();
            let _ = writeln!(
                out,
                "  state {state} ({}): {}",
                if words.is_empty() { "-" } else { &words },
                images_by_piece(puzzle, &images)
            );
        }
    }
}

/// The E stage, one line a cell.
fn explain_e_stage(out: &mut String, puzzle: &Puzzle, e: &EStage, offset: usize) {
    let all = puzzle.neighbours();
    let most = if all.iter().any(|n| n.len() > E_CONTEXT_CELLS) {
        format!(" (of the {E_CONTEXT_CELLS} covered by most of its images, where it has more)")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "\n# E stage: every image covering a cell, per state of all its neighbours{most}"
    );
    for (c, neighbours) in e.neighbours.iter().enumerate() {
        let sets = e.set_base[c + 1] - e.set_base[c];
        let first = e.set_base[c] as usize;
        let images = e.index[first + 1] - e.index[first];
        let names: Vec<String> = neighbours
            .iter()
            .map(|&n| {
                format!(
                    "{} {}",
                    offset + n as usize,
                    relative(puzzle, offset + c, offset + n as usize)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "cell {} at {}: neighbours {}; {sets} sets, {images} images with every neighbour open",
            offset + c,
            at(puzzle, offset + c),
            names.join(", ")
        );
    }
}

/// The cells of a mask, ascending.
fn bits(mask: Mask) -> Vec<usize> {
    (0..Mask::BITS)
        .filter(|&c| mask.bit_at(c as u32) == 1)
        .collect()
}

fn at(puzzle: &Puzzle, cell: usize) -> String {
    let [x, y, z] = puzzle.cells[cell];
    format!("({x}, {y}, {z})")
}

/// Where cell `d` lies from cell `c`.
fn relative(puzzle: &Puzzle, c: usize, d: usize) -> String {
    format!("({})", offset(puzzle.cells[c], puzzle.cells[d]))
}

/// Images grouped by piece. Every solver numbers its images as the model does (a
/// narrower solver's are renumbered to the wider one's).
fn images_by_piece(puzzle: &Puzzle, images: &[usize]) -> String {
    if images.is_empty() {
        return "no image".to_string();
    }
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < images.len() {
        let shape = puzzle.images[images[k]].shape;
        let name = &puzzle.pieces[puzzle.shapes[shape].pieces[0]].name;
        let mut group = Vec::new();
        while k < images.len() && puzzle.images[images[k]].shape == shape {
            let cells: Vec<String> = puzzle.images[images[k]]
                .cells
                .iter()
                .map(|c| c.to_string())
                .collect();
            group.push(format!("{{{}}}", cells.join(",")));
            k += 1;
        }
        out.push(format!("{name} {}", group.join(" ")));
    }
    let count = match images.len() {
        1 => "1 image".to_string(),
        n => format!("{n} images"),
    };
    format!("{count}: {}", out.join("; "))
}

#[cfg(test)]
mod tests {
    use crate::Config;

    fn tiny() -> (&'static str, String) {
        let path = "tests/ui/puzzles/tiny.txt";
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(path),
        )
        .unwrap();
        (path, text)
    }

    /// What the generator decides for a small puzzle, in words: a change to lowering
    /// shows here as a diff to review (`cargo insta review`).
    #[test]
    fn the_explanation_of_a_tiny_puzzle() {
        let (path, text) = tiny();
        insta::assert_snapshot!(crate::explain(path, &text, &Config::default()).unwrap());
    }

    /// The whole generated file of a small puzzle, after its stamp (which names the
    /// generator's version): a change to what the emitter writes shows here as a diff.
    #[test]
    fn the_generated_file_of_a_tiny_puzzle() {
        let (path, text) = tiny();
        let generated = crate::generate(path, &text, &Config::default()).unwrap();
        assert!(
            generated.data.is_empty(),
            "a tiny puzzle's tables are literals"
        );
        let (_stamp, code) = generated.code.split_once("\n\n").unwrap();
        insta::assert_snapshot!(code);
    }
}
