//! The plan of one run: which symmetry group, which first images and which checks the
//! options ask for, resolved against what the solver can do, or why it cannot start.

use crate::info::{Element, FirstInfo, Pruning, PuzzleInfo};
use crate::options::{Layout, Options, PieceForm, RedundancyFilter, Threshold};

/// Why a run could not start.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

/// The plan for one run, resolved from the options: which group, which first images,
/// which checks.
#[derive(Clone)]
pub struct Plan<'a> {
    pub symmetry_name: &'a str,
    pub group: &'a [Element],
    pub first: &'a FirstInfo,
    /// The filter is off (`-r .`).
    pub unfiltered: bool,
    /// The pruning in force: the solver's own, changed by the options.
    pub pruning: Pruning,
    /// A generated solver's switch from E to F (see [`crate::Order`]); zero for the
    /// dancing-links engine.
    pub f_from: usize,
    /// The instruction set the solver's FILA kernels run in (`-i`'s `KERNELS=`), set by
    /// the driver from the solver; `None` for the dancing-links engine.
    pub kernels: Option<&'static str>,
    /// The most memory a thread's solver may keep dead states in (`--memo` shared out
    /// among the threads), zero when it keeps none; set by the driver from the solver.
    pub memo: u64,
    /// `-g`: the search stops where this many pieces are left, and lists each such node as
    /// a solution; zero to search to the end.
    pub goal: usize,
    pub notes: Vec<String>,
}

impl<'a> Plan<'a> {
    /// The plan `options` ask for on the solver that `info` describes, with notes on what
    /// it cannot honour but can do without (each a warning), or why it cannot start.
    pub fn resolve(info: &'a PuzzleInfo, options: &Options) -> Result<Plan<'a>, UsageError> {
        let mut notes = Vec::new();
        let symmetry = if options.mirror {
            match &info.mirror {
                Ok(m) => m,
                Err(refusal)
                    if refusal.usage_error && options.redundancy != RedundancyFilter::Off =>
                {
                    return Err(UsageError(refusal.why.clone()))
                }
                Err(refusal) => {
                    notes.push(format!("{}; counting up to rotations", refusal.why));
                    &info.rotations
                }
            }
        } else {
            &info.rotations
        };
        let (first, unfiltered) = match &options.redundancy {
            RedundancyFilter::Off => (&info.unfiltered, true),
            RedundancyFilter::Auto => (&symmetry.filtered, false),
            RedundancyFilter::Piece(name) if *name == symmetry.filtered.filter => {
                (&symmetry.filtered, false)
            }
            RedundancyFilter::Piece(name) => {
                return Err(UsageError(format!(
                    "-r {name}: this solver constrains '{}' (use -r # or -r ., or `fila solve -r {name}`)",
                    symmetry.filtered.filter
                )))
            }
        };
        let mut pruning = info.pruning;
        if let Some(on) = options.volume_filter {
            if on != pruning.volume_filter {
                // The images are the solver's: a generated solver carries them compiled in.
                notes.push(format!(
                    "-V={on} ignored: this solver's images were {} the volume filter (cargo xtask gen {}-V)",
                    if pruning.volume_filter { "built with" } else { "built without" },
                    if pruning.volume_filter { "without " } else { "with " },
                ));
            }
        }
        match options.volume_backtrack {
            Some(Threshold::Off) => pruning.volume_backtrack = None,
            Some(Threshold::Above(n)) => pruning.volume_backtrack = Some(n),
            None => {}
        }
        match options.parity {
            Some(false) => pruning.parity_backtrack = None,
            Some(true) => {
                pruning.parity_backtrack = Some(
                    pruning
                        .parity_backtrack
                        .or(pruning.volume_backtrack)
                        .unwrap_or(0),
                )
            }
            None => {}
        }
        let pieces = info.pieces_to_place();
        let f_from = match (info.order, options.f_from) {
            (None, None) => 0,
            (None, Some(_)) => {
                return Err(UsageError(
                    "--f-from applies to the FILA solvers; dancing links chooses its own order"
                        .to_string(),
                ))
            }
            (Some(order), None) => order.f_from.min(pieces),
            (Some(order), Some(n)) if n < pieces && !order.e_stage => {
                return Err(UsageError(format!(
                    "--f-from {n}: this solver was generated without the E stage, so it uses F \
                     throughout (cargo xtask gen --f-from {n}, or --e-stage)"
                )))
            }
            (Some(_), Some(n)) => n.min(pieces),
        };
        check_format(info, options)?;
        check_estimate(options)?;
        check_goal(info, options, first)?;
        Ok(Plan {
            symmetry_name: &symmetry.name,
            group: &symmetry.group,
            first,
            unfiltered,
            pruning,
            f_from,
            kernels: None,
            memo: 0,
            goal: options.goal,
            notes,
        })
    }
}

/// Whether `name` can be written in an `L` block: a token of its own, not the open cell.
pub fn drawable(name: &str) -> bool {
    name != "." && !name.contains(|c: char| c.is_whitespace() || c == ',')
}

/// Refuses a format that cannot write this puzzle's solutions.
fn check_format(info: &PuzzleInfo, options: &Options) -> Result<(), UsageError> {
    let format = options.format;
    if format.layout == Layout::Brief {
        return Ok(());
    }
    if format.pieces == PieceForm::Drawn {
        if let Some(name) = info.piece_names.iter().find(|n| !drawable(n)) {
            return Err(UsageError(format!(
                "-f {}L: piece '{name}' cannot be drawn in an L block (a name there is one \
                 word, without commas, and not '.'); use -f {0}C",
                if format.layout == Layout::Full {
                    'F'
                } else {
                    'S'
                }
            )));
        }
    }
    if options.goal > 0 {
        // A sub-puzzle gives each piece left by the cells of one of its images.
        for (shape, pieces) in info.shape_pieces.iter().enumerate() {
            if !info.images.iter().any(|i| i.shape as usize == shape) {
                let name = pieces
                    .first()
                    .map_or("?", |&p| &info.piece_names[p as usize]);
                return Err(UsageError(format!(
                    "-g with -f F or S: piece '{name}' fits nowhere in the box, so the puzzle has no solutions and no sub-puzzles"
                )));
            }
        }
    }
    Ok(())
}

/// Refuses what `--estimate` cannot honour: it measures the whole search, listing and
/// drawing nothing. (Its refusal of `-g` is the goal's, in [`check_goal`].)
fn check_estimate(options: &Options) -> Result<(), UsageError> {
    let alone = options.limit.is_none()
        && !options.unique
        && options.shard.is_none()
        && options.checkpoint.is_none()
        && options.resume.is_none()
        && options.svg.is_none()
        && options.html.is_none();
    if options.estimate.is_some() && !alone {
        return Err(UsageError(
            "--estimate runs on its own, without --limit, -u, --shard, --checkpoint, --resume, --svg or --html"
                .to_string(),
        ));
    }
    Ok(())
}

/// Refuses a goal (`-g N`) whose partial solutions would not add up: each node the search
/// stops at must hold exactly the solutions below it, counted as the whole run counts them.
fn check_goal(info: &PuzzleInfo, options: &Options, first: &FirstInfo) -> Result<(), UsageError> {
    let goal = options.goal;
    if goal == 0 {
        return Ok(());
    }
    let pieces = info.pieces_to_place();
    if pieces == 0 {
        return Err(UsageError(format!(
            "-g {goal}: the puzzle has no piece to place (its pieces are all stationary)"
        )));
    }
    if goal >= pieces {
        return Err(UsageError(format!(
            "-g {goal}: the puzzle has {pieces} pieces to place, and the search places at least one; the goal must be less than {pieces}"
        )));
    }
    if options.unique {
        return Err(UsageError(
            "-g and -u: whether a solution is unique is known only when it is complete".to_string(),
        ));
    }
    if options.estimate.is_some() {
        return Err(UsageError(
            "-g and --estimate: the estimate measures the whole search".to_string(),
        ));
    }
    let checked = first.stabilisers.iter().filter(|s| !s.is_empty()).count();
    if first.full_check || checked > 0 {
        let why = if first.full_check {
            "no piece can carry the redundancy filter, so every complete solution is checked against the symmetry group".to_string()
        } else {
            format!(
                "{checked} of the {} first placements of the redundancy filter's piece {} are symmetric, so the solutions below them are checked for repeats when complete",
                first.images.len(),
                first.filter
            )
        };
        return Err(UsageError(format!(
            "-g {goal}: {why}; partial solutions would count some solutions more than once. Use -r . (every solution), or a piece none of whose first placements is symmetric: `fila solve -g {goal}` takes one where the puzzle has one, `fila solve -g {goal} -r PIECE` the piece named"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::testing::example;
    use crate::info::{MirrorRefusal, Order};

    /// The plan the command-line arguments `args` ask for on `info`.
    fn resolve<'a>(info: &'a PuzzleInfo, args: &[&str]) -> Result<Plan<'a>, UsageError> {
        Plan::resolve(info, &Options::from_args(args).unwrap())
    }

    fn refusing_mirror(usage_error: bool) -> PuzzleInfo {
        PuzzleInfo {
            mirror: Err(MirrorRefusal {
                why: "piece A is not its own mirror image".to_string(),
                usage_error,
            }),
            ..example()
        }
    }

    #[test]
    fn the_mirror_mode_when_the_solver_allows_it() {
        let info = example();
        let plan = resolve(&info, &["--mirror"]).ok().unwrap();
        assert_eq!(plan.symmetry_name, "rotations+reflections");
        assert!(plan.notes.is_empty());
        let plan = resolve(&info, &[]).ok().unwrap();
        assert_eq!(plan.symmetry_name, "rotations");
    }

    #[test]
    fn a_mirror_refused_for_the_users_own_filter_is_a_usage_error_unless_unfiltered() {
        let info = refusing_mirror(true);
        let why = "piece A is not its own mirror image";
        assert_eq!(
            resolve(&info, &["--mirror"]).err(),
            Some(UsageError(why.to_string()))
        );
        assert_eq!(
            resolve(&info, &["--mirror", "-r", "A"]).err(),
            Some(UsageError(why.to_string()))
        );
        // Without the filter no piece is turned over: the run counts up to rotations.
        let plan = resolve(&info, &["--mirror", "-r", "."]).ok().unwrap();
        assert_eq!(plan.symmetry_name, "rotations");
        assert_eq!(plan.notes, [format!("{why}; counting up to rotations")]);
    }

    #[test]
    fn a_mirror_the_pieces_do_not_allow_is_a_note() {
        let info = refusing_mirror(false);
        let plan = resolve(&info, &["--mirror"]).ok().unwrap();
        assert_eq!(plan.symmetry_name, "rotations");
        assert_eq!(
            plan.notes,
            ["piece A is not its own mirror image; counting up to rotations"]
        );
    }

    #[test]
    fn the_filter_is_the_solvers_piece_or_off() {
        let info = example();
        for args in [&[][..], &["-r", "#"], &["-r", "A"]] {
            let plan = resolve(&info, args).ok().unwrap();
            assert_eq!((plan.first.filter.as_str(), plan.unfiltered), ("A", false));
        }
        let plan = resolve(&info, &["-r", "."]).ok().unwrap();
        assert_eq!((plan.first.filter.as_str(), plan.unfiltered), ("off", true));
        assert_eq!(
            resolve(&info, &["-r", "B"]).err(),
            Some(UsageError(
                "-r B: this solver constrains 'A' (use -r # or -r ., or `fila solve -r B`)"
                    .to_string()
            ))
        );
    }

    #[test]
    fn the_volume_filter_of_another_build_is_a_note() {
        let info = example();
        let plan = resolve(&info, &["-V"]).ok().unwrap();
        assert!(!plan.pruning.volume_filter);
        assert_eq!(
            plan.notes,
            [
                "-V=true ignored: this solver's images were built without the volume filter \
              (cargo xtask gen with -V)"
            ]
        );
        let mut filtered = example();
        filtered.pruning.volume_filter = true;
        let plan = resolve(&filtered, &["-V=false"]).ok().unwrap();
        assert!(plan.pruning.volume_filter);
        assert_eq!(
            plan.notes,
            [
                "-V=false ignored: this solver's images were built with the volume filter \
              (cargo xtask gen without -V)"
            ]
        );
        for (info, args) in [(&info, ["-V=false"]), (&filtered, ["-V"])] {
            assert!(resolve(info, &args).ok().unwrap().notes.is_empty());
        }
    }

    #[test]
    fn the_backtracks_are_the_solvers_changed_by_the_options() {
        let plain = example();
        let mut tuned = example();
        tuned.pruning.volume_backtrack = Some(4);
        // The backtracks in force: the volume backtrack's N, then the parity backtrack's.
        let in_force = |info: &PuzzleInfo, args: &[&str]| {
            let pruning = resolve(info, args).ok().unwrap().pruning;
            (pruning.volume_backtrack, pruning.parity_backtrack)
        };
        assert_eq!(in_force(&plain, &[]), (None, None));
        assert_eq!(in_force(&plain, &["-v", "3"]), (Some(3), None));
        assert_eq!(in_force(&plain, &["-p"]), (None, Some(0)));
        assert_eq!(in_force(&plain, &["-v", "3", "-p"]), (Some(3), Some(3)));
        assert_eq!(in_force(&tuned, &[]), (Some(4), None));
        assert_eq!(in_force(&tuned, &["-p"]), (Some(4), Some(4)));
        assert_eq!(in_force(&tuned, &["-v", "off", "-p"]), (None, Some(0)));
        assert_eq!(in_force(&tuned, &["-v", "none"]), (None, None));
        assert_eq!(in_force(&tuned, &["-p=false"]), (Some(4), None));
        let mut parity_tuned = example();
        parity_tuned.pruning.parity_backtrack = Some(1);
        // -p keeps the solver's own threshold.
        assert_eq!(
            in_force(&parity_tuned, &["-v", "3", "-p"]),
            (Some(3), Some(1))
        );
    }

    #[test]
    fn a_goal_must_leave_partial_solutions_that_add_up() {
        let info = example();
        let goal = |info: &PuzzleInfo, args: &[&str]| resolve(info, args).map(|p| p.goal);
        assert_eq!(goal(&info, &["-g", "1"]), Ok(1));
        assert_eq!(goal(&info, &[]), Ok(0));
        // The example places two pieces: the search places at least one.
        assert!(goal(&info, &["-g", "2"]).is_err());
        assert!(goal(&info, &["-g", "1", "-u"]).is_err());
        // A symmetric first image: its solutions are checked when complete.
        let mut symmetric = example();
        symmetric.rotations.filtered.stabilisers = vec![vec![1]];
        let refused = goal(&symmetric, &["-g", "1"]).unwrap_err();
        assert!(refused.0.contains("are symmetric"), "{refused:?}");
        assert_eq!(goal(&symmetric, &["-g", "1", "-r", "."]), Ok(1));
        let mut post = example();
        post.rotations.filtered.full_check = true;
        assert!(goal(&post, &["-g", "1"]).is_err());
    }

    #[test]
    fn an_estimate_measures_the_whole_search_alone() {
        let info = example();
        assert!(resolve(&info, &["--estimate"]).is_ok());
        assert!(resolve(&info, &["--estimate=0", "-q", "-i", "-j", "2", "-r", "."]).is_ok());
        assert!(resolve(&info, &["--limit", "3", "-u", "--svg", "x"]).is_ok());
        let alone = Err(UsageError(
            "--estimate runs on its own, without --limit, -u, --shard, --checkpoint, --resume, --svg or --html"
                .to_string(),
        ));
        for with in [
            &["--limit", "3"][..],
            &["-u"],
            &["--shard", "1/2"],
            &["--checkpoint", "c"],
            &["--resume", "c"],
            &["--svg", "x"],
            &["--html", "x.html"],
        ] {
            let args = [&["--estimate"][..], with].concat();
            assert_eq!(resolve(&info, &args).map(|_| ()), alone, "{args:?}");
        }
        // -u=false asks for nothing the estimate leaves out.
        assert!(resolve(&info, &["--estimate", "-u=false"]).is_ok());
    }

    #[test]
    fn formats_the_puzzle_cannot_take_are_refused() {
        let mut info = example();
        assert!(resolve(&info, &["-f", "SL"]).is_ok());
        info.piece_names[1] = "a,b".to_string();
        assert!(resolve(&info, &["-f", "SL"]).is_err());
        assert!(resolve(&info, &["-f", "SC"]).is_ok());
        assert!(resolve(&info, &["-f", "B"]).is_ok());
        // A piece that fits nowhere cannot be given, left, by one of its images.
        info.images.retain(|i| i.shape == 0);
        assert!(resolve(&info, &["-f", "SC", "-g", "1"]).is_err());
        assert!(resolve(&info, &["-f", "FC", "-g", "1"]).is_err());
        assert!(resolve(&info, &["-f", "FC"]).is_ok());
    }

    #[test]
    fn the_switch_point_of_a_generated_solver() {
        let generated = |f_from, e_stage| PuzzleInfo {
            order: Some(Order { f_from, e_stage }),
            ..example()
        };
        // The example places two pieces: a switch above that is the same as two.
        let f_from = |info: &PuzzleInfo, args: &[&str]| resolve(info, args).map(|p| p.f_from);
        assert_eq!(f_from(&generated(9, false), &[]), Ok(2));
        assert_eq!(f_from(&generated(1, true), &[]), Ok(1));
        assert_eq!(f_from(&generated(2, true), &["--f-from", "0"]), Ok(0));
        assert_eq!(f_from(&generated(0, true), &["--f-from", "5"]), Ok(2));
        // Without the E stage the search is F throughout: only the whole depth will do.
        assert_eq!(f_from(&generated(2, false), &["--f-from", "7"]), Ok(2));
        assert_eq!(
            f_from(&generated(2, false), &["--f-from", "1"]),
            Err(UsageError(
                "--f-from 1: this solver was generated without the E stage, so it uses F \
                 throughout (cargo xtask gen --f-from 1, or --e-stage)"
                    .to_string()
            ))
        );
    }

    #[test]
    fn the_dancing_links_engine_has_no_switch() {
        let info = example();
        assert_eq!(resolve(&info, &[]).map(|p| p.f_from), Ok(0));
        assert_eq!(
            resolve(&info, &["--f-from", "1"]).err(),
            Some(UsageError(
                "--f-from applies to the FILA solvers; dancing links chooses its own order"
                    .to_string()
            ))
        );
    }
}
