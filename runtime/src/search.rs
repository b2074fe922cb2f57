//! The contract between a solver and the runtime: the [`Search`] a solver implements,
//! and the [`Context`] it searches in, which filters, counts and lists the solutions it
//! reports and takes the subtrees it cuts, for every thread of one run alike.

use std::any::Any;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::info::{Pruning, PuzzleInfo};
use crate::options::{Format, Layout, Options};
use crate::output::{format_definition, format_solution, owners, Stats};
use crate::pictures::Pictures;
use crate::plan::Plan;
use crate::symmetry::Canonical;

/// What a solver implements.
pub trait Search: Send {
    /// Places the images of `prefix` in order, then finds every completion below them and
    /// hands each to [`Context::report`] (all placed images, the prefix first). When
    /// [`Context::floor`] is not zero, a node with that many pieces left is handed to
    /// [`Context::cut`] instead of being searched (the subtrees of a split, or `-g`'s
    /// goal).
    ///
    /// `prefix` is one first image of the plan, or a prefix that this solver handed to
    /// `cut`. A one-image prefix counts its own attempt and fit, a longer one counts
    /// nothing for its images (they were counted when it was cut). The solver adds its
    /// counts to `ctx.stats` before it returns, and stops early when `report` returns
    /// false.
    fn solve_prefix(&mut self, prefix: &[u16], ctx: &mut Context<'_>);

    /// A fresh solver for the same puzzle, for another thread.
    fn fork(&self) -> Box<dyn Search>;

    /// Takes part in the tables of dead states that a run's threads share (where the
    /// solver keeps any): each thread's solver is a [fork](Search::fork) that joined the
    /// same [`RunShare`]. A fork that joins none keeps its own. Required, as
    /// [`Search::capabilities`] is, so that a wrapper forwards it.
    fn join(&mut self, share: &Arc<RunShare>);

    /// What the driver must know of the solver besides its search. Required, so that a
    /// solver wrapping another forwards it whole rather than losing part of it to a
    /// default.
    fn capabilities(&self) -> Capabilities;
}

/// What a solver tells the driver of itself ([`Search::capabilities`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// The instruction set its FILA kernels run in (`-i`'s `KERNELS=`): `None` for a
    /// solver without them.
    pub kernels: Option<&'static str>,
    /// Whether searching a prefix again costs little (a few word operations per image,
    /// as in the FILA solvers), so that a reported `--estimate` can afford more of
    /// Knuth's walks, each step of which searches its node's prefix again. Dancing links
    /// covers every row of the prefix anew (its 4x walks took 62 s, against 15 s, on a
    /// search of 0.15 s).
    pub replays_cheaply: bool,
    /// Whether the search keeps a table of dead states (`--memo`, as the FILA solvers do
    /// where a state fits the table's key).
    pub keeps_dead_states: bool,
}

/// Where listed solutions go: one writer for every thread, so that a solution is always
/// written whole, numbered in the order they are written.
struct Listing<'a> {
    /// Solutions accepted so far in the whole run (a resumed run starts from its
    /// checkpoint's count).
    accepted: u64,
    /// `None` for a silent run, which never lists.
    out: Option<&'a mut (dyn Write + Send)>,
    /// Where the solutions are drawn (`--svg`).
    pictures: Option<Pictures<'a>>,
    /// Why the listing or the pictures stopped, when they could not be written.
    error: Option<String>,
}

/// Why a run stopped before the end of its search: its counts are partial, which its
/// `-i` block says as `STOPPED=` (and `fila merge` refuses it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `--limit` solutions were listed.
    Limit,
    /// The listing could not be written (a closed pipe, a full disk).
    Output,
    /// The pictures could not be written.
    Pictures,
    /// A signal asked the run to stop (`interrupt`).
    Signal,
    /// `--estimate` measured the search instead of running it.
    Estimate,
}

impl Stop {
    /// The value of `STOPPED=`.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Limit => "limit",
            Stop::Output => "output",
            Stop::Pictures => "pictures",
            Stop::Signal => "signal",
            Stop::Estimate => "estimate",
        }
    }
}

/// What every thread of one run shares: the plan, the listing, and whether to stop.
pub(crate) struct SharedRun<'a> {
    info: &'a PuzzleInfo,
    plan: &'a Plan<'a>,
    quiet: bool,
    /// How solutions are written (`-f`).
    format: Format,
    /// Whether solutions are drawn.
    drawn: bool,
    unique_only: bool,
    limit: Option<u64>,
    stop: AtomicBool,
    /// Why the run stopped, once it has.
    why: Mutex<Option<Stop>>,
    /// Whether a signal stops it (`interrupt`): not while the search is split or measured,
    /// which must see the whole tree.
    interruptible: bool,
    listing: Mutex<Listing<'a>>,
}

impl<'a> SharedRun<'a> {
    /// For searches that list nothing and stop nowhere: splitting and estimating.
    pub(crate) fn silent(info: &'a PuzzleInfo, plan: &'a Plan<'a>) -> SharedRun<'a> {
        SharedRun {
            info,
            plan,
            quiet: true,
            format: Format::default(),
            drawn: false,
            unique_only: false,
            limit: None,
            stop: AtomicBool::new(false),
            why: Mutex::new(None),
            interruptible: false,
            listing: Mutex::new(Listing {
                accepted: 0,
                out: None,
                pictures: None,
                error: None,
            }),
        }
    }

    /// The state of a run of `options` that lists to `out` and draws to `pictures`,
    /// numbering on from `accepted` (what a resumed run's checkpoint counted).
    pub(crate) fn new(
        info: &'a PuzzleInfo,
        plan: &'a Plan<'a>,
        options: &Options,
        accepted: u64,
        out: &'a mut (dyn Write + Send),
        pictures: Option<Pictures<'a>>,
    ) -> SharedRun<'a> {
        SharedRun {
            info,
            plan,
            quiet: options.quiet,
            format: options.format,
            drawn: pictures.is_some(),
            unique_only: options.unique,
            limit: options.limit,
            stop: AtomicBool::new(options.limit.is_some_and(|l| accepted >= l)),
            why: Mutex::new(
                options
                    .limit
                    .filter(|&l| accepted >= l)
                    .map(|_| Stop::Limit),
            ),
            interruptible: true,
            listing: Mutex::new(Listing {
                accepted,
                out: Some(out),
                pictures,
                error: None,
            }),
        }
    }

    /// Whether the run stopped early: `--limit` was reached, the output went away, or a
    /// signal came.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || (self.interruptible && crate::interrupt::received().is_some())
    }

    /// Stops the run for `why` (the first reason given is the one kept).
    fn stop(&self, why: Stop) {
        self.why
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(why);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Why the run stopped early, if it did.
    pub(crate) fn stop_reason(&self) -> Option<Stop> {
        let why = *self.why.lock().unwrap_or_else(|e| e.into_inner());
        let signal = self.interruptible && crate::interrupt::received().is_some();
        why.or(signal.then_some(Stop::Signal))
    }

    /// Ends the listing: writes `after` (the `-i` block) below the solutions, flushes,
    /// and writes the pictures still to be written (the gallery headed by `counts`). A
    /// reader that went away is not an error here (nothing more can be said to it); a
    /// listing lost otherwise ([`output::write_failure`](crate::output::write_failure)),
    /// and pictures that could not be written, are.
    pub(crate) fn finish_listing(&self, after: Option<&str>, counts: &str) -> Result<(), String> {
        let mut listing = self.listing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(out) = listing.out.as_mut() {
            let written = match after {
                Some(text) => out.write_all(text.as_bytes()),
                None => Ok(()),
            };
            if let Err(e) = written.and_then(|()| out.flush()) {
                let failure = crate::output::write_failure(&e);
                listing.error = listing.error.take().or(failure);
            }
        }
        if let Some(error) = listing.error.take() {
            return Err(error);
        }
        match listing.pictures.take() {
            Some(pictures) => pictures.finish(counts),
            None => Ok(()),
        }
    }
}

/// One solver's view of a run while it searches one subtree.
pub struct Context<'a> {
    pub info: &'a PuzzleInfo,
    pub stats: Stats,
    shared: &'a SharedRun<'a>,
    /// The index of the subtree's first image among the plan's first images.
    pub(crate) entry: usize,
    floor: usize,
    /// Whether the nodes at the floor are `-g`'s goal: partial solutions, reported.
    goal: bool,
    /// The prefixes handed to `cut`, one after another.
    cuts: Vec<u16>,
    pub solutions: u64,
    pub unique: u64,
    canonical: Canonical,
    text: String,
}

impl<'a> Context<'a> {
    pub(crate) fn new(shared: &'a SharedRun<'a>, entry: usize, floor: usize) -> Context<'a> {
        Context {
            info: shared.info,
            stats: Stats::new(shared.info.pieces_to_place()),
            shared,
            entry,
            floor,
            goal: false,
            cuts: Vec::new(),
            solutions: 0,
            unique: 0,
            canonical: Canonical::new(shared.info.cells()),
            text: String::new(),
        }
    }

    /// The context that searches a subtree of the run to its end: to the complete
    /// solutions, or to the plan's goal (`-g`), whose nodes are reported as solutions.
    pub(crate) fn searching(shared: &'a SharedRun<'a>, entry: usize) -> Context<'a> {
        let goal = shared.plan.goal;
        Context {
            goal: goal > 0,
            ..Context::new(shared, entry, goal)
        }
    }

    /// The pruning in force for this run.
    pub fn pruning(&self) -> Pruning {
        self.shared.plan.pruning
    }

    /// A generated solver's search order: E while more than this many pieces are left,
    /// then F.
    pub fn f_from(&self) -> usize {
        self.shared.plan.f_from
    }

    /// The most memory the solver may keep dead states in (`--memo`; 0: none).
    pub fn memo(&self) -> u64 {
        self.shared.plan.memo
    }

    /// Whether the run asks only for the number of solutions: nothing listed, drawn or
    /// stopped at, and every solution [`Context::report`] takes counted as unique (under
    /// the redundancy filter, without `-g`). Then a node whose search passed every
    /// symmetry check has as many solutions wherever it is reached, and the table of dead
    /// states may keep their count ([`Context::counted`]).
    pub fn counts_only(&self) -> bool {
        let shared = self.shared;
        shared.quiet
            && shared.limit.is_none()
            && !shared.drawn
            && !shared.unique_only
            && !shared.plan.unfiltered
            && !self.goal
    }

    /// Takes `n` solutions without their placements, where [`Context::counts_only`]: those
    /// of a node found again whose completions the table of dead states had counted.
    pub fn counted(&mut self, n: u64) {
        debug_assert!(self.counts_only());
        self.solutions += n;
        self.unique += n;
    }

    /// Nodes with this many pieces left are cut off (handed to [`Context::cut`]); zero
    /// means search to the end.
    pub fn floor(&self) -> usize {
        self.floor
    }

    /// The elements of the group (bit `k` for the plan's `group[k]`) that the filter's
    /// own check compares this subtree's solutions under ([`Context::report`]): the
    /// stabiliser of its first image, or the whole group where no piece carries the filter;
    /// none with `-g`, whose partial solutions are not checked.
    pub fn checked_elements(&self) -> u64 {
        let plan = self.shared.plan;
        // (No lattice's group has more than 48 elements.)
        debug_assert!(plan.group.len() <= 64);
        if self.goal {
            return 0;
        }
        if plan.first.full_check {
            (1..plan.group.len()).fold(0, |m, k| m | 1u64 << k)
        } else {
            plan.first
                .stabilisers
                .get(self.entry)
                .map_or(0, |stab| stab.iter().fold(0, |m, &k| m | 1u64 << k))
                & !1
        }
    }

    /// The check of [`Context::report`] under the elements of `undecided`, on the partial
    /// solution `placed` ([`Canonical::undecided`]): `None` when it rejects every solution
    /// below, else the elements still undecided.
    pub fn undecided(&mut self, placed: &[u16], undecided: u64) -> Option<u64> {
        self.canonical
            .undecided(self.info, placed, self.shared.plan.group, undecided)
    }

    /// The open cells that the last [`Context::undecided`] waits for: nothing can be
    /// decided before a piece covers one of them.
    pub fn awaited(&self) -> &[u16] {
        self.canonical.awaited()
    }

    /// Takes the placements leading to a node at the floor: a subtree of a split, or a
    /// partial solution at `-g`'s goal, which is reported as [`Context::report`] reports
    /// a solution. Returns false when the search must stop.
    pub fn cut(&mut self, placed: &[u16]) -> bool {
        if self.goal {
            return self.report(placed);
        }
        self.cuts.extend_from_slice(placed);
        true
    }

    /// Takes one solution found by the solver (with `-g`, a partial one: the nodes at the
    /// goal, which the plan allows only where no symmetry check is needed on them).
    /// Returns false when the search must stop.
    pub fn report(&mut self, placed: &[u16]) -> bool {
        let shared = self.shared;
        if shared.stopped() {
            return false;
        }
        let plan = shared.plan;
        let group_len = plan.group.len();
        // The filter's own check: the stabiliser of the first image, or the whole group.
        let checked = self.checked_elements();
        if checked != 0
            && !self.canonical.is_least(
                self.info,
                placed,
                plan.group,
                (1..group_len).filter(|&k| checked >> k & 1 != 0),
            )
        {
            return true;
        }
        let unique = self.goal
            || !plan.unfiltered
            || self
                .canonical
                .is_least(self.info, placed, plan.group, 1..group_len);
        if shared.unique_only && !unique {
            return true;
        }
        if shared.quiet && shared.limit.is_none() && !shared.drawn {
            // Nothing to write and nothing to stop at: no need to take the lock.
            self.solutions += 1;
            self.unique += u64::from(unique);
            return true;
        }
        let mut guard = shared.listing.lock().unwrap_or_else(|e| e.into_inner());
        let listing = &mut *guard;
        if shared.stopped() {
            return false;
        }
        listing.accepted += 1;
        self.solutions += 1;
        self.unique += u64::from(unique);
        if let (false, Some(out)) = (shared.quiet, listing.out.as_mut()) {
            self.text.clear();
            let n = listing.accepted;
            match shared.format.layout {
                Layout::Brief => format_solution(self.info, n, placed, &mut self.text),
                Layout::Full | Layout::Sub => {
                    format_definition(self.info, n, placed, shared.format.pieces, &mut self.text)
                }
            }
            if let Err(e) = out.write_all(self.text.as_bytes()) {
                // Nothing more can be said: the reader went away, or the output is lost.
                listing.error = listing.error.take().or(crate::output::write_failure(&e));
                shared.stop(Stop::Output);
                return false;
            }
        }
        if let Some(pictures) = listing.pictures.as_mut() {
            if let Err(error) = pictures.add(listing.accepted, owners(self.info, placed)) {
                listing.error = Some(error);
                shared.stop(Stop::Pictures);
                return false;
            }
        }
        if shared.limit.is_some_and(|l| listing.accepted >= l) {
            shared.stop(Stop::Limit);
            return false;
        }
        true
    }

    /// The children of `prefix` in the solver's own search order (each a prefix one
    /// image longer), found by searching `prefix` with the floor one level below it.
    pub(crate) fn children(
        &mut self,
        search: &mut dyn Search,
        prefix: &[u16],
    ) -> impl ExactSizeIterator<Item = &[u16]> {
        let len = prefix.len() + 1;
        self.floor = self.info.pieces_to_place() - len;
        self.cuts.clear();
        search.solve_prefix(prefix, self);
        self.floor = 0;
        self.cuts.chunks_exact(len)
    }
}

/// What the solvers of one run's threads share: the tables of dead states of the FILA
/// solvers (`fila::memo`), one for each word a solver searches in, by the word's first
/// cell, made by the first thread that asks for it. The search layer keeps them without
/// knowing their type.
pub struct RunShare {
    threads: usize,
    tables: Mutex<Vec<(usize, Arc<dyn Any + Send + Sync>)>>,
}

impl RunShare {
    /// What a run on `threads` threads shares.
    pub fn new(threads: usize) -> Arc<RunShare> {
        Arc::new(RunShare {
            threads: threads.max(1),
            tables: Mutex::new(Vec::new()),
        })
    }

    /// The run's threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The table of the word whose first cell is `first_cell`: the one made for it, or
    /// `make`'s. `None` where the one made for it is of another type than `T`.
    pub fn table<T: Any + Send + Sync>(
        &self,
        first_cell: usize,
        make: impl FnOnce() -> T,
    ) -> Option<Arc<T>> {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, table)) = tables.iter().find(|(cell, _)| *cell == first_cell) {
            return Arc::clone(table).downcast().ok();
        }
        let table = Arc::new(make());
        tables.push((first_cell, Arc::clone(&table) as Arc<dyn Any + Send + Sync>));
        Some(table)
    }
}
