//! From the model to the runtime's [`PuzzleInfo`]: the one description of a puzzle that
//! the generic engine builds at run time and a generated solver carries as constants.

use runtime::{Element, FirstInfo, ImageInfo, MirrorRefusal, PuzzleInfo, Slot, SymmetryInfo};

use crate::model::{
    FirstKind, FirstStage, NotApplicable, Puzzle, Redundancy, Symmetry, SymmetryMode,
};

fn first_info(puzzle: &Puzzle, stage: &FirstStage, redundancy: &Redundancy) -> FirstInfo {
    let what = match stage.kind {
        FirstKind::Piece(p) => format!("piece {}", puzzle.pieces[p].name),
        FirstKind::Cell(c) => format!("cell {c}"),
    };
    let filter = match (redundancy, &stage.kind) {
        (Redundancy::Off, _) => "off".to_string(),
        (_, FirstKind::Piece(p)) => puzzle.pieces[*p].name.clone(),
        (_, FirstKind::Cell(_)) if stage.full_check => "post".to_string(),
        (_, FirstKind::Cell(_)) => "none needed".to_string(),
    };
    FirstInfo {
        what,
        filter,
        images: stage.entries.iter().map(|e| e.image as u16).collect(),
        stabilisers: stage
            .entries
            .iter()
            .map(|e| e.stabiliser.iter().map(|&k| k as u16).collect())
            .collect(),
        full_check: stage.full_check,
    }
}

/// The first stage of `-r NAME` for piece `piece` under `group`, as the runtime reads it:
/// what the filter piece's choice ([`crate::solve`]) measures each candidate with.
pub(crate) fn filter_first(
    puzzle: &Puzzle,
    piece: usize,
    group: &[Symmetry],
) -> Result<FirstInfo, NotApplicable> {
    let redundancy = Redundancy::Piece(puzzle.pieces[piece].name.clone());
    let stage = puzzle.first_stage(&redundancy, group)?;
    Ok(first_info(puzzle, &stage, &redundancy))
}

fn elements(group: &[Symmetry]) -> Vec<Element> {
    group
        .iter()
        .map(|g| Element {
            cell_map: g.cell_map.clone(),
            shape_map: g.shape_map.iter().map(|&s| s as u16).collect(),
        })
        .collect()
}

/// The runtime description of `puzzle` with the filter `redundancy` (`Auto` or a piece;
/// the unfiltered stage is always included). `engine` names the solver for `-i`.
pub fn puzzle_info(
    puzzle: &Puzzle,
    redundancy: &Redundancy,
    engine: &str,
) -> Result<PuzzleInfo, NotApplicable> {
    run_info(puzzle, redundancy, engine, true, false)
}

/// [`puzzle_info`] for one run, whose options say whether it counts up to reflections
/// (`--mirror`): without, the mirror stage is not built (on the Soma, a third of the
/// description's cost) and the description refuses `--mirror` as a usage error. A run
/// that stops at partial solutions (`-g`, `partial`) takes an automatic piece none of
/// whose kept images is symmetric where there is one ([`Puzzle::auto_piece`]).
pub(crate) fn run_info(
    puzzle: &Puzzle,
    redundancy: &Redundancy,
    engine: &str,
    mirror: bool,
    partial: bool,
) -> Result<PuzzleInfo, NotApplicable> {
    // Images, pieces and shapes are numbered with u16 in the runtime.
    if puzzle.images.len() > u16::MAX as usize || puzzle.pieces.len() > u16::MAX as usize {
        return Err(NotApplicable(format!(
            "the puzzle has {} images and {} pieces; fila handles at most 65535 of each",
            puzzle.images.len(),
            puzzle.pieces.len()
        )));
    }
    let grid = (0..puzzle.cell_at.len())
        .map(|g| match (puzzle.cell_at[g], puzzle.stationary_at[g]) {
            (Some(c), _) => Slot::Open(c),
            (None, Some(p)) => Slot::Stationary(p as u16),
            (None, None) => unreachable!("every position is open or stationary"),
        })
        .collect();
    let symmetry = |group: Vec<Symmetry>,
                    name: &str,
                    auto: Option<usize>|
     -> Result<SymmetryInfo, NotApplicable> {
        let stage = puzzle.first_stage_with(redundancy, &group, || auto)?;
        Ok(SymmetryInfo {
            name: name.to_string(),
            group: elements(&group),
            filtered: first_info(puzzle, &stage, redundancy),
        })
    };
    let rotation_group = puzzle.group(SymmetryMode::Rotations)?;
    // The unfiltered stage starts from the automatic piece too.
    let auto = puzzle.auto_piece(&rotation_group, partial);
    let unfiltered = first_info(
        puzzle,
        &puzzle.first_stage_with(&Redundancy::Off, &rotation_group, || auto)?,
        &Redundancy::Off,
    );
    let rotations = symmetry(rotation_group, "rotations", auto)?;
    // A piece set not closed under mirroring refuses the mode; a filter piece the user
    // named that cannot break the larger group is the user's error.
    let mirror = if !mirror {
        Err(MirrorRefusal {
            why: "--mirror: this description was built for a run without it".to_string(),
            usage_error: true,
        })
    } else {
        match puzzle.group(SymmetryMode::Mirror) {
            Err(NotApplicable(why)) => Err(MirrorRefusal {
                why,
                usage_error: false,
            }),
            Ok(group) => {
                let auto = match redundancy {
                    Redundancy::Piece(_) => None,
                    Redundancy::Auto | Redundancy::Off => puzzle.auto_piece(&group, partial),
                };
                symmetry(group, "rotations+reflections", auto).map_err(|NotApplicable(why)| {
                    MirrorRefusal {
                        why: format!("--mirror: {why}"),
                        usage_error: true,
                    }
                })
            }
        }
    };
    Ok(PuzzleInfo {
        name: puzzle.name.clone(),
        engine: engine.to_string(),
        lattice: puzzle.lattice,
        dims: puzzle.dims,
        one_side: puzzle.one_side,
        grid,
        piece_names: puzzle.pieces.iter().map(|p| p.name.clone()).collect(),
        shape_pieces: puzzle
            .shapes
            .iter()
            .map(|s| s.pieces.iter().map(|&p| p as u16).collect())
            .collect(),
        images: puzzle
            .images
            .iter()
            .map(|i| ImageInfo {
                shape: i.shape as u16,
                cells: i.cells.clone(),
            })
            .collect(),
        unfiltered,
        rotations,
        mirror,
        pruning: runtime::Pruning::default(),
        order: None,
    })
}
