//! What `fila solve` does with a model before it searches: the engine it runs on, the
//! check of its memory against the limit, the volume filter, the runtime description, and
//! for the FILA engine the lowering. The `fila` executable and the fuzz target that checks
//! the engines against each other both go through it.

use runtime::output::Stats;
use runtime::plan::Plan;
use runtime::split::{subtrees, walk};
use runtime::{Options, PuzzleInfo, RedundancyFilter, Search};

use crate::engine::DlxSearch;
use crate::info::{filter_first, run_info};
use crate::limits::{Bytes, Engine, Limits};
use crate::lower::Ir;
use crate::model::{Puzzle, Redundancy, SymmetryMode};

/// One puzzle ready to solve: its description, and the FILA engine's IR when it runs on
/// the FILA engine (else dancing links).
pub struct Prepared {
    pub info: PuzzleInfo,
    pub ir: Option<Ir>,
    /// The filter piece `-r #` was given by measurement (Knuth's walks, where the search
    /// is long enough to repay them); `None` where it was not measured.
    pub measured_filter: Option<Choice>,
    /// The solver the filter piece was chosen with, its tables built: the first
    /// [`Prepared::search`] takes it rather than building them again.
    built: Option<Box<dyn Search>>,
}

impl Prepared {
    /// A solver for the puzzle, on the engine it was prepared for.
    pub fn search(&mut self) -> Box<dyn Search> {
        if let Some(built) = self.built.take() {
            return built;
        }
        match &self.ir {
            Some(ir) => crate::fila::solver(ir),
            None => Box::new(DlxSearch::new(&self.info)),
        }
    }
}

/// Applies the parity filter ([`Puzzle::parity_filter`]) and says, for `-i`'s `ENGINE=`,
/// what it dropped (nothing where it dropped nothing).
fn parity_note(puzzle: &mut Puzzle) -> String {
    let before = puzzle.images.len();
    match puzzle.parity_filter() {
        0 => String::new(),
        dropped => format!("; the parity filter dropped {dropped} of {before} images"),
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
    // The FILA engine's own filter; dancing links, the oracle, searches without it.
    let parity = if runs_on == Engine::Fila {
        parity_note(&mut puzzle)
    } else {
        String::new()
    };
    let dlx = "generic engine: dancing links";
    let redundancy = model_filter(&options.redundancy);
    let partial = options.goal > 0;
    let mut info =
        run_info(&puzzle, &redundancy, dlx, options.mirror, partial).map_err(|why| why.0)?;
    info.pruning.volume_filter = volume_filter;
    if !fila {
        return Ok(Prepared {
            info,
            ir: None,
            measured_filter: None,
            built: None,
        });
    }
    let pieces = puzzle.mobile_pieces();
    let f_from = options.f_from.unwrap_or(defaults.f_from).min(pieces);
    match crate::fila::lower(&puzzle, f_from, f_from < pieces) {
        Ok(ir) => {
            info.order = Some(runtime::Order {
                f_from: defaults.f_from.min(pieces),
                e_stage: ir.e_stage.is_some(),
            });
            let mut built = None;
            let mut measured_filter = None;
            let mut chose = String::new();
            if options.redundancy == RedundancyFilter::Auto && options.goal == 0 {
                let mut search = crate::fila::solver(&ir);
                if let Some(choice) = choose_filter(&puzzle, &info, options, search.as_mut()) {
                    let name = puzzle.pieces[choice.piece].name.clone();
                    let order = info.order;
                    info = run_info(
                        &puzzle,
                        &Redundancy::Piece(name.clone()),
                        dlx,
                        options.mirror,
                        partial,
                    )
                    .map_err(|why| why.0)?;
                    info.pruning.volume_filter = volume_filter;
                    info.order = order;
                    chose = format!("; {}", choice.why);
                    measured_filter = Some(choice);
                }
                built = Some(search);
            }
            info.engine = format!(
                "{}; by default {}{parity}{chose}",
                crate::fila::describe(&ir),
                defaults.why
            );
            Ok(Prepared {
                info,
                ir: Some(ir),
                measured_filter,
                built,
            })
        }
        Err(why) if engine.is_none() => {
            info.engine = format!("{dlx} (not the FILA engine: {})", why.0);
            Ok(Prepared {
                info,
                ir: None,
                measured_filter: None,
                built: None,
            })
        }
        Err(why) => Err(format!("--engine fila: {}", why.0)),
    }
}

/// The walks of a first glance at the size of the search, on the automatic piece...
const GLANCE_WALKS: usize = 16;
/// ...which must come within this factor of buying [`MIN_WALKS`] a candidate for the
/// sizing round to be made: a search far too short to repay a choice is not sized. A
/// glance from the first images alone underestimates, by up to 13 times on the puzzles
/// here (the polyhexes in 4x10; the one-sided 18x5 11 times, the Bedlam Cube 5, the
/// Tetris Cube not at all), and a choice missed costs far more than a sizing round made
/// for nothing (2.6 ms of the 10x6's 80): the Soma, 625 times short, is spared it, the
/// 10x6 and the one-sided 30x3, about 20 times, are not.
const GLANCE_MARGIN: f64 = 64.0;
/// The walks that size the choice, on the automatic piece.
const SIZING_WALKS: usize = 256;
/// The walks a subtree gets: the tree is split into about a sixteenth as many subtrees
/// as there are walks.
const WALKS_PER_SUBTREE: usize = 16;
/// The walks of the choice may try this share of the placements the search would try
/// with the automatic piece, as the sizing walks estimate them (a walk's placement costs
/// 30 to 120 ns, with the set-up of a search at each node it expands; one of the
/// search's, 28 ns on the Tetris Cube and, with the table of dead states, 6 ns on the
/// one-sided 18x5 for each placement the walks estimate)...
const CHOICE_SHARE: f64 = 0.02;
/// ...and it is made only where that buys each candidate at least this many walks.
/// Fewer rank the pieces badly: on the Tetris Cube, 256 and 2,449 walks a piece put E
/// before L (their searches took 9.1 and 6.9 s), 4,096 and 65,536 ranked L first.
const MIN_WALKS: usize = 1024;
/// The most walks a candidate gets: 0.26 s in all on the one-sided 18x5 (6 candidates,
/// 8 s of search after the choice), 0.3 s on the Tetris Cube (12).
const MAX_WALKS: usize = 4096;

/// The filter piece `-r #` constrains on the FILA engine, and why.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The piece, an index into the model's pieces.
    pub piece: usize,
    /// What `-i`'s `ENGINE=` says of the choice: the candidates, walks and estimates.
    pub why: String,
}

/// Chooses the filter piece for `-r #` on the FILA engine by measurement, where the
/// search is long enough to repay it. The filter piece is placed first, in each of its
/// images up to the box's symmetry, and the E or F order fills the box around it: a piece
/// that leaves awkward holes there makes every subtree larger. On the Tetris Cube the
/// piece best at removing redundancy (A) took 21.5 s, and L 6.9 s (one thread, this
/// machine); the model's automatic piece, G (the fewest kept images), three times L's
/// placements by the walks.
///
/// For each piece that can carry the filter, Knuth's walks down the solver's own tree
/// (from the nodes of its first few levels, [`WALKS_PER_SUBTREE`] walks each) estimate
/// the placements its search would try, and the fewest win. A glance of
/// [`GLANCE_WALKS`] on the automatic piece rules out searches far too short, then a round
/// of [`SIZING_WALKS`] sizes the search; the candidates then get walks
/// worth [`CHOICE_SHARE`] of it, or the automatic piece is kept where that is under
/// [`MIN_WALKS`] each. The walks depend only on the puzzle and the options (their seeds
/// on the subtree, their count on the sizing walks), never on the machine, the kernels
/// or the threads, so every shard and resumed run of a puzzle chooses the same piece.
/// `None`: the model's piece, unmeasured.
fn choose_filter(
    puzzle: &Puzzle,
    info: &PuzzleInfo,
    options: &Options,
    search: &mut dyn Search,
) -> Option<Choice> {
    let (mode, symmetry) = match &info.mirror {
        Ok(mirror) if options.mirror => (SymmetryMode::Mirror, mirror),
        _ => (SymmetryMode::Rotations, &info.rotations),
    };
    let group = puzzle.group(mode).ok()?;
    let candidates = puzzle.filter_candidates(&group);
    if group.len() < 2 || candidates.len() < 2 {
        return None;
    }
    // The automatic piece, whose first stage the description has (`-r #`, with a
    // candidate to take: a stage of that piece's images). Candidates are uniquely shaped.
    let shape = info.images[*symmetry.filtered.images.first()? as usize].shape as usize;
    let auto = candidates
        .iter()
        .copied()
        .find(|&p| puzzle.pieces[p].shape == Some(shape))?;
    let plan = Plan::resolve(info, options).ok()?;
    // The placements the walks estimate with `piece` as the filter's, and what they tried.
    let mut measure = |piece: usize, walks: usize| -> Option<(f64, u64)> {
        let measured;
        let first = if piece == auto {
            &symmetry.filtered
        } else {
            measured = filter_first(puzzle, piece, &group).ok()?;
            &measured
        };
        let plan = Plan {
            first,
            notes: Vec::new(),
            ..plan.clone()
        };
        // Walks from whole levels of the tree rather than from the first images alone:
        // each subtree gets its share of the walks, and the estimate varies far less
        // (the one-sided 15x6 with 4,096 walks a piece: T before X from the first images,
        // whose searches `--estimate` puts at 6.8 and 4.2 G placements).
        let mut upper = Stats::new(info.pieces_to_place());
        let subtrees = subtrees(info, &plan, search, walks / WALKS_PER_SUBTREE, &mut upper);
        let probes = walks
            .div_ceil(subtrees.len().max(1))
            .max(WALKS_PER_SUBTREE / 4);
        let split: u64 = upper.attempts.iter().sum();
        let (mut attempts, mut cost) = (split as f64, split);
        for (k, subtree) in subtrees.iter().enumerate() {
            let walked = walk(info, &plan, search, subtree, (k, 0), probes);
            attempts += walked.attempts;
            cost += walked.cost;
        }
        Some((attempts, cost))
    };
    // The walks each candidate would get from `walks` walks that estimate `sized`
    // placements and cost `cost`.
    let buys = |sized: f64, cost: u64, walks: usize| {
        let per_walk = cost as f64 / walks as f64;
        CHOICE_SHARE * sized / (candidates.len() as f64 * per_walk.max(1.0))
    };
    let (glanced, cost) = measure(auto, GLANCE_WALKS)?;
    if GLANCE_MARGIN * buys(glanced, cost, GLANCE_WALKS) < MIN_WALKS as f64 {
        return None;
    }
    let (sized, cost) = measure(auto, SIZING_WALKS)?;
    let walks = buys(sized, cost, SIZING_WALKS).min(MAX_WALKS as f64) as usize;
    if walks < MIN_WALKS {
        return None;
    }
    let mut measured = Vec::with_capacity(candidates.len());
    for &p in &candidates {
        measured.push((p, measure(p, walks)?.0));
    }
    // The fewest placements; on a tie, the automatic piece, then the first candidate.
    let &(best, attempts) = measured
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1).then((b.0 == auto).cmp(&(a.0 == auto))))?;
    let name = |p: usize| &puzzle.pieces[p].name;
    let why = if best == auto {
        format!(
            "filter piece {} (the automatic one): the fewest placements of {} candidates by \
             Knuth's walks ({walks} each; about {attempts:.3e})",
            name(auto),
            candidates.len(),
        )
    } else {
        let auto_attempts = measured.iter().find(|m| m.0 == auto).map_or(0.0, |m| m.1);
        format!(
            "filter piece {} rather than {} (the automatic one): the fewest placements of \
             {} candidates by Knuth's walks ({walks} each; about {attempts:.3e} against \
             {auto_attempts:.3e})",
            name(best),
            name(auto),
            candidates.len(),
        )
    };
    Some(Choice { piece: best, why })
}
