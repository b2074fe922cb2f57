//! The search driver: the runtime owns the loop over first placements (independent
//! subtrees), the solution filter, the listing and the statistics; a solver only
//! finishes the search below one first placement.

use std::io::Write;
use std::time::Instant;

use crate::info::{Element, FirstInfo, PuzzleInfo};
use crate::options::Options;
use crate::output::{format_solution, Stats};
use crate::symmetry::Canonical;

/// What a solver implements: place the image `first`, then find every completion and
/// hand each to [`Context::report`] (as the list of placed image numbers, `first`
/// included). The solver adds its placement counts to `ctx.stats` before it returns, and
/// stops early when `report` returns false.
pub trait Search {
    fn solve_subtree(&mut self, first: u16, ctx: &mut Context<'_>);
}

/// Why a run could not start.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

/// The plan for one run, resolved from the options: which group, which first images,
/// which checks.
pub struct Plan<'a> {
    pub symmetry_name: &'a str,
    pub group: &'a [Element],
    pub first: &'a FirstInfo,
    /// The filter is off (`-r .`).
    pub unfiltered: bool,
    pub notes: Vec<String>,
}

impl<'a> Plan<'a> {
    pub fn resolve(info: &'a PuzzleInfo, options: &Options) -> Result<Plan<'a>, UsageError> {
        let mut notes = Vec::new();
        let symmetry = if options.mirror {
            match &info.mirror {
                Ok(m) => m,
                Err(refusal) if refusal.usage_error && options.redundancy != "." => {
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
        let (first, unfiltered) = match options.redundancy.as_str() {
            "." => (&info.unfiltered, true),
            "#" => (&symmetry.filtered, false),
            name if name == symmetry.filtered.filter => (&symmetry.filtered, false),
            name => {
                return Err(UsageError(format!(
                    "-r {name}: this solver constrains '{}' (use -r # or -r ., or `fila solve -r {name}`)",
                    symmetry.filtered.filter
                )))
            }
        };
        Ok(Plan {
            symmetry_name: &symmetry.name,
            group: &symmetry.group,
            first,
            unfiltered,
            notes,
        })
    }
}

/// The state shared between the driver and a solver during one run.
pub struct Context<'a> {
    pub info: &'a PuzzleInfo,
    pub stats: Stats,
    plan: &'a Plan<'a>,
    /// The first entry being searched.
    entry: usize,
    pub solutions: u64,
    pub unique: u64,
    quiet: bool,
    unique_only: bool,
    limit: Option<u64>,
    stopped: bool,
    canonical: Canonical,
    text: String,
    out: &'a mut dyn Write,
}

impl Context<'_> {
    /// Takes one solution found by the solver. Returns false when the search must stop.
    pub fn report(&mut self, placed: &[u16]) -> bool {
        if self.stopped {
            return false;
        }
        let plan = self.plan;
        let group_len = plan.group.len();
        // The filter's own check: the stabiliser of the first image, or the whole group.
        if plan.first.full_check {
            if !self
                .canonical
                .is_least(self.info, placed, plan.group, 1..group_len)
            {
                return true;
            }
        } else if let Some(stab) = plan.first.stabilisers.get(self.entry) {
            if !stab.is_empty()
                && !self.canonical.is_least(
                    self.info,
                    placed,
                    plan.group,
                    stab.iter().map(|&k| k as usize),
                )
            {
                return true;
            }
        }
        let unique = !plan.unfiltered
            || self
                .canonical
                .is_least(self.info, placed, plan.group, 1..group_len);
        if self.unique_only && !unique {
            return true;
        }
        self.solutions += 1;
        if unique {
            self.unique += 1;
        }
        if !self.quiet {
            self.text.clear();
            format_solution(self.info, self.solutions, placed, &mut self.text);
            if self.out.write_all(self.text.as_bytes()).is_err() {
                // The reader went away (a closed pipe): nothing more can be said.
                self.stopped = true;
                return false;
            }
        }
        if self.limit.is_some_and(|l| self.solutions >= l) {
            self.stopped = true;
            return false;
        }
        true
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

/// The result of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub solutions: u64,
    pub unique: u64,
    pub stats: Stats,
    pub seconds: f64,
}

/// Runs `search` over every first placement of the plan, listing solutions to `out`
/// and, with `-i`, the statistics after them.
pub fn run(
    info: &PuzzleInfo,
    search: &mut dyn Search,
    options: &Options,
    out: &mut dyn Write,
) -> Result<Summary, UsageError> {
    let start = Instant::now();
    let plan = Plan::resolve(info, options)?;
    for note in &plan.notes {
        eprintln!("warning: {}: {note}", info.name);
    }
    let mut ctx = Context {
        info,
        stats: Stats::new(info.pieces_to_place()),
        plan: &plan,
        entry: 0,
        solutions: 0,
        unique: 0,
        quiet: options.quiet,
        unique_only: options.unique,
        limit: options.limit,
        stopped: options.limit == Some(0),
        canonical: Canonical::default(),
        text: String::new(),
        out,
    };
    for (k, &first) in plan.first.images.iter().enumerate() {
        if ctx.stopped {
            break;
        }
        ctx.entry = k;
        search.solve_subtree(first, &mut ctx);
    }
    let summary = Summary {
        solutions: ctx.solutions,
        unique: ctx.unique,
        stats: ctx.stats.clone(),
        seconds: start.elapsed().as_secs_f64(),
    };
    if options.info {
        let text = format_info(info, &plan, options, &summary);
        let _ = ctx.out.write_all(text.as_bytes());
    }
    let _ = ctx.out.flush();
    Ok(summary)
}

/// The `-i` block: `#` comments and `KEY=VALUE` lines.
pub fn format_info(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    options: &Options,
    summary: &Summary,
) -> String {
    let mut out = String::new();
    out.push_str(&format!("\n# {} ({})\n", info.name, info.engine));
    for note in &plan.notes {
        out.push_str(&format!("# {note}\n"));
    }
    if !options.polycube_switch.is_empty() || options.polycube_flag > 0 {
        out.push_str("# polycube's algorithm-tuning options were accepted and ignored\n");
    }
    let [x, y, z] = info.dims;
    let kv = |out: &mut String, k: &str, v: String| out.push_str(&format!("{k}={v}\n"));
    kv(&mut out, "PUZZLE", info.name.clone());
    kv(&mut out, "ENGINE", info.engine.clone());
    kv(&mut out, "BOX", format!("{x}x{y}x{z}"));
    kv(&mut out, "CELLS", info.cells().to_string());
    kv(&mut out, "PIECES", info.pieces_to_place().to_string());
    kv(&mut out, "SHAPES", info.shape_pieces.len().to_string());
    kv(&mut out, "IMAGES", info.images.len().to_string());
    kv(&mut out, "SYMMETRY", plan.symmetry_name.to_string());
    kv(&mut out, "GROUP_ORDER", plan.group.len().to_string());
    kv(&mut out, "REDUNDANCY_FILTER", plan.first.filter.clone());
    kv(&mut out, "FIRST", plan.first.what.clone());
    kv(
        &mut out,
        "FIRST_IMAGES",
        plan.first.images.len().to_string(),
    );
    let checked = plan
        .first
        .stabilisers
        .iter()
        .filter(|s| !s.is_empty())
        .count();
    kv(
        &mut out,
        "FIRST_IMAGES_WITH_STABILISER_CHECK",
        checked.to_string(),
    );
    kv(&mut out, "SOLUTIONS", summary.solutions.to_string());
    kv(&mut out, "UNIQUE", summary.unique.to_string());
    kv(
        &mut out,
        "ATTEMPTS_TOTAL",
        summary.stats.attempts.iter().sum::<u64>().to_string(),
    );
    kv(
        &mut out,
        "FITS_TOTAL",
        summary.stats.fits.iter().sum::<u64>().to_string(),
    );
    out.push_str("# Placement attempts and fits when N pieces were left to place:\n");
    for n in (1..summary.stats.attempts.len()).rev() {
        out.push_str(&format!("ATTEMPTS[{n:2}]={}\n", summary.stats.attempts[n]));
    }
    for n in (1..summary.stats.fits.len()).rev() {
        out.push_str(&format!("FITS[{n:2}]={}\n", summary.stats.fits[n]));
    }
    kv(&mut out, "SECONDS", format!("{:.6}", summary.seconds));
    out
}
