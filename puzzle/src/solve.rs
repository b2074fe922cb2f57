//! What `fila solve` does with a model before it searches: the engine it runs on, the
//! check of its memory against the limit, the volume filter, the runtime description, and
//! for the FILA engine the lowering. The `fila` executable and the fuzz target that checks
//! the engines against each other both go through it.

use runtime::{Options, PuzzleInfo, RedundancyFilter, Search};

use crate::engine::DlxSearch;
use crate::info::puzzle_info;
use crate::limits::{Bytes, Engine, Limits};
use crate::lower::Ir;
use crate::model::{Puzzle, Redundancy};

/// One puzzle ready to solve: its description, and the FILA engine's IR when it runs on
/// the FILA engine (else dancing links).
pub struct Prepared {
    pub info: PuzzleInfo,
    pub ir: Option<Ir>,
}

impl Prepared {
    /// A solver for the puzzle, on the engine it was prepared for.
    pub fn search(&self) -> Box<dyn Search> {
        match &self.ir {
            Some(ir) => crate::fila::solver(ir),
            None => Box::new(DlxSearch::new(&self.info)),
        }
    }
}

/// The filter the model is built with for `-r`: the named piece, or the automatic
/// choice. The model always has the unfiltered first stage too, which `-r .` uses.
pub fn model_filter(redundancy: &RedundancyFilter) -> Redundancy {
    match redundancy {
        RedundancyFilter::Auto | RedundancyFilter::Off => Redundancy::Auto,
        RedundancyFilter::Piece(name) => Redundancy::Piece(name.clone()),
    }
}

/// Models, describes and (for the FILA engine) lowers one puzzle as the options ask, on
/// `engine` (`--engine`), or without one on the FILA engine unless the puzzle is beyond
/// its limits (then dancing links). A puzzle whose run would need more memory than
/// `limits` allow is refused before its tables are built. `Err` is the message, without
/// the `file:line` it is about.
pub fn prepare(
    mut puzzle: Puzzle,
    options: &Options,
    engine: Option<Engine>,
    limits: &Limits,
) -> Result<Prepared, String> {
    let fila = engine != Some(Engine::Dlx);
    let runs_on = if fila && crate::lower::beyond_limits(&puzzle).is_none() {
        Engine::Fila
    } else {
        Engine::Dlx
    };
    let needed = puzzle.footprint().run_bytes(runs_on);
    if needed > limits.max_memory {
        return Err(format!(
            "solving it would need about {} of memory, more than the limit of {} (--max-memory)",
            Bytes(needed),
            Bytes(limits.max_memory)
        ));
    }
    let defaults = crate::fila::defaults(&puzzle);
    let volume_filter = options
        .volume_filter
        .unwrap_or(fila && defaults.volume_filter);
    if volume_filter {
        puzzle.volume_filter();
    }
    let dlx = "generic engine: dancing links";
    let redundancy = model_filter(&options.redundancy);
    let mut info = puzzle_info(&puzzle, &redundancy, dlx).map_err(|why| why.0)?;
    info.pruning.volume_filter = volume_filter;
    if !fila {
        return Ok(Prepared { info, ir: None });
    }
    let pieces = puzzle.mobile_pieces();
    let f_from = options.f_from.unwrap_or(defaults.f_from).min(pieces);
    match crate::fila::lower(&puzzle, f_from, f_from < pieces) {
        Ok(ir) => {
            info.engine = format!(
                "{}; by default {}",
                crate::fila::describe(&ir),
                defaults.why
            );
            info.order = Some(runtime::Order {
                f_from: defaults.f_from.min(pieces),
                e_stage: ir.e_stage.is_some(),
            });
            Ok(Prepared { info, ir: Some(ir) })
        }
        Err(why) if engine.is_none() => {
            info.engine = format!("{dlx} (not the FILA engine: {})", why.0);
            Ok(Prepared { info, ir: None })
        }
        Err(why) => Err(format!("--engine fila: {}", why.0)),
    }
}
