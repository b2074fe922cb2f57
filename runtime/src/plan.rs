//! The plan of one run: which symmetry group, which first images and which checks the
//! options ask for, resolved against what the solver can do, or why it cannot start.

use crate::info::{Element, FirstInfo, Pruning, PuzzleInfo};
use crate::options::{Options, RedundancyFilter, Threshold};

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
        let f_from =
            match (info.order, options.f_from) {
                (None, None) => 0,
                (None, Some(_)) => return Err(UsageError(
                    "--f-from applies to generated solvers; this engine chooses by dancing links"
                        .to_string(),
                )),
                (Some(order), None) => order.f_from.min(pieces),
                (Some(order), Some(n)) if n < pieces && !order.e_stage => {
                    return Err(UsageError(format!(
                    "--f-from {n}: this solver was generated without the E stage, so it uses F \
                     throughout (cargo xtask gen --f-from {n}, or --e-stage)"
                )))
                }
                (Some(_), Some(n)) => n.min(pieces),
            };
        Ok(Plan {
            symmetry_name: &symmetry.name,
            group: &symmetry.group,
            first,
            unfiltered,
            pruning,
            f_from,
            notes,
        })
    }
}
