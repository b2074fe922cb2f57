//! Progress on stderr: a bar when stderr is a terminal, plain lines (for batch logs)
//! when `--progress` asks for it elsewhere. The fraction done and the time left come
//! from the estimated sizes of the subtrees, not from a count of subtrees: the subtrees
//! of one search differ in size by orders of magnitude.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::options::Options;

enum Display {
    Off,
    /// Nothing shown, the history kept: `--estimate`'s short run ([`Progress::hidden`]).
    Hidden,
    Bar(ProgressBar),
    Lines {
        next_tenth: u32,
        last: Instant,
    },
}

/// The progress of one run.
pub struct Progress {
    display: Display,
    /// The estimated size of each subtree (zero outside the run's shard).
    weights: Vec<f64>,
    total: f64,
    done: f64,
    subtrees: usize,
    start: Instant,
    /// When each finished subtree was done: seconds since `start`, and `done` then.
    history: Vec<(f64, f64)>,
    /// Whether the solver keeps dead states (`--memo`): then the pace quickens through
    /// the run ([`time_left_quickening`]).
    keeps_dead_states: bool,
}

/// `1h 02m`, `3m 05s`, `12.3s`.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.1}s")
    } else if s < 3600.0 {
        format!("{}m {:02}s", (s / 60.0) as u64, (s % 60.0) as u64)
    } else if s < 86400.0 * 2.0 {
        format!(
            "{}h {:02}m",
            (s / 3600.0) as u64,
            ((s % 3600.0) / 60.0) as u64
        )
    } else {
        format!(
            "{}d {:02}h",
            (s / 86400.0) as u64,
            ((s % 86400.0) / 3600.0) as u64
        )
    }
}

impl Progress {
    /// Whether this run shows progress: as `--progress` says, else where stderr is a
    /// terminal and the run is not quiet.
    pub fn wanted(options: &Options) -> bool {
        options
            .progress
            .unwrap_or_else(|| !options.quiet && std::io::stderr().is_terminal())
    }

    /// Progress that shows nothing but keeps its history, for [`Progress::projection`]:
    /// `--estimate`'s short run of the search.
    pub fn hidden(weights: &[f64], mine: &[usize], keeps_dead_states: bool) -> Progress {
        Progress::with(Display::Hidden, weights, mine, |_| false, keeps_dead_states)
    }

    /// Progress shown by `display`, from the subtrees of `mine` that `done` takes.
    fn with(
        display: Display,
        weights: &[f64],
        mine: &[usize],
        done: impl Fn(usize) -> bool,
        keeps_dead_states: bool,
    ) -> Progress {
        let done_before = work_of(weights, mine, done);
        Progress {
            display,
            weights: weights.to_vec(),
            total: work_of(weights, mine, |_| true),
            done: done_before,
            subtrees: mine.len(),
            start: Instant::now(),
            history: vec![(0.0, done_before)],
            keeps_dead_states,
        }
    }

    /// `weights` has one estimate per subtree; `mine` are this run's subtrees, `done`
    /// marks those a checkpoint found finished. `keeps_dead_states`: the solver keeps a
    /// table of dead states in this run.
    pub fn new(
        options: &Options,
        weights: &[f64],
        mine: &[usize],
        done: &[bool],
        solutions: u64,
        keeps_dead_states: bool,
    ) -> Progress {
        let display = if !Progress::wanted(options) {
            Display::Off
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
            // A bar of its own width and the message cut at the terminal's, so that the line
            // does not wrap (but on a terminal narrower than the elapsed time, the bar and a
            // word, some 32 columns); the time left comes early in the message, to survive
            // the cut.
            let style = ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            Display::Bar(bar)
        } else {
            Display::Lines {
                next_tenth: 1,
                last: Instant::now(),
            }
        };
        let mut p = Progress::with(display, weights, mine, |k| done[k], keeps_dead_states);
        let done_count = mine.iter().filter(|&&k| done[k]).count();
        p.show(done_count, solutions);
        p
    }

    /// The fraction of the estimated work done.
    fn fraction(&self) -> f64 {
        if self.total > 0.0 {
            // `+ 0.0` makes a -0.0 (nothing done yet) 0, which prints without its sign.
            (self.done / self.total).clamp(0.0, 1.0) + 0.0
        } else {
            0.0
        }
    }

    /// Time left: the work left at the pace of the later half of the run so far, or,
    /// when the solver keeps dead states, as the later three quarters show it quickening
    /// ([`time_left_quickening`]).
    pub fn eta(&self) -> Option<Duration> {
        let left = self.left_at(self.start.elapsed().as_secs_f64());
        Duration::try_from_secs_f64(left?).ok()
    }

    /// The seconds left `now` seconds in, as [`Progress::eta`] shows them.
    fn left_at(&self, now: f64) -> Option<f64> {
        if self.keeps_dead_states {
            time_left_quickening(&self.history, now, self.total)
        } else {
            time_left(&self.history, now, self.total)
        }
    }

    /// Where the run stood when its last subtree so far was finished: the seconds from
    /// the start to then, the fraction of the estimated work done, and the seconds left
    /// as [`Progress::eta`] would have shown them then. `None` before any work is done.
    pub fn projection(&self) -> Option<(f64, f64, f64)> {
        let &(then, _) = self.history.last()?;
        Some((then, self.fraction(), self.left_at(then)?))
    }

    fn message(&self, done_count: usize, solutions: u64) -> String {
        let eta = self.eta().map_or_else(
            || "estimating".to_string(),
            |d| format!("about {} left", duration_text(d)),
        );
        format!(
            "{:5.1}% of the estimated work, {eta}, {done_count}/{} subtrees, {solutions} solutions",
            100.0 * self.fraction(),
            self.subtrees
        )
    }

    fn show(&mut self, done_count: usize, solutions: u64) {
        let fraction = self.fraction();
        let message = match &self.display {
            Display::Off | Display::Hidden => return,
            _ => self.message(done_count, solutions),
        };
        match &mut self.display {
            Display::Off | Display::Hidden => {}
            Display::Bar(bar) => {
                bar.set_position((fraction * 1000.0) as u64);
                bar.set_message(message);
            }
            Display::Lines { next_tenth, last } => {
                let tenth = (fraction * 10.0) as u32;
                if tenth >= *next_tenth || last.elapsed() >= Duration::from_secs(60) {
                    eprintln!(
                        "progress: {} elapsed, {message}",
                        duration_text(self.start.elapsed())
                    );
                    *next_tenth = tenth + 1;
                    *last = Instant::now();
                }
            }
        }
    }

    /// Subtree `k` is finished; `done_count` subtrees and `solutions` solutions so far.
    pub fn finished(&mut self, k: usize, done_count: usize, solutions: u64) {
        if matches!(self.display, Display::Off) {
            return;
        }
        self.done += self.weights.get(k).copied().unwrap_or(0.0);
        self.history
            .push((self.start.elapsed().as_secs_f64(), self.done));
        self.show(done_count, solutions);
    }

    /// Clears the bar; nothing is shown after.
    pub fn finish(&mut self) {
        if let Display::Bar(bar) = &self.display {
            bar.finish_and_clear();
        }
        self.display = Display::Off;
    }
}

/// The estimated work of the subtrees of `mine` that `which` takes.
fn work_of(weights: &[f64], mine: &[usize], which: impl Fn(usize) -> bool) -> f64 {
    mine.iter()
        .filter(|&&k| which(k))
        .map(|&k| weights.get(k).copied().unwrap_or(0.0))
        .sum()
}

/// The seconds left of a run with `total` work, `now` seconds in, from its `history`
/// (seconds and work done, in order, from the start): the work left at the pace of the
/// later half of the run so far, `None` before any work is done.
fn time_left(history: &[(f64, f64)], now: f64, total: f64) -> Option<f64> {
    let &(_, done) = history.last()?;
    // The last point at or before half the time so far.
    let from = history
        .partition_point(|&(t, _)| t <= now / 2.0)
        .saturating_sub(1);
    let (then, done_then) = history[from];
    let (seconds, work) = if done > done_then {
        (now - then, done - done_then)
    } else {
        let (start, done_start) = history[0];
        (now - start, done - done_start)
    };
    (work > 0.0).then(|| seconds * (total - done).max(0.0) / work)
}

/// [`time_left`] for a run that keeps dead states (`--memo`), whose pace quickens as
/// its table fills: each subtree's share of the estimated work (from walks, which do not
/// consult the table) comes faster the more states the table already holds. The time
/// `t` a run has taken to do a fraction `x` of its work then grows about as a power of
/// it, `t = T x^b` with `b` below 1 (as the distinct states met grow with the states
/// visited); `b` is the slope of `ln t` against `ln x` over the history of the later
/// three quarters of the time so far (least squares), held between 0.25 and 1, and the
/// time left is `T - now`. Fewer than three points there: [`time_left`]. `x` is of this
/// run's work: a resumed run starts with an empty table.
///
/// What it measured against the pace of the later half: BENCHMARKS.md, "The time left of
/// a run that keeps dead states".
fn time_left_quickening(history: &[(f64, f64)], now: f64, total: f64) -> Option<f64> {
    let &(_, done) = history.last()?;
    let (_, done_start) = history[0];
    let work = total - done_start;
    let fraction = |d: f64| (d - done_start) / work;
    let x = fraction(done);
    if x.is_nan() || x <= 0.0 {
        return time_left(history, now, total);
    }
    // Least squares of ln t on ln x over the points of the later three quarters (at most
    // about 64 of them, evenly spread: the time left is asked for at every subtree).
    let window = &history[history.partition_point(|&(t, _)| t < now / 4.0)..];
    let (mut n, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(t, d) in window.iter().step_by((window.len() / 64).max(1)) {
        if t > 0.0 && fraction(d) > 0.0 {
            let (lx, ly) = (fraction(d).ln(), t.ln());
            (n, sx, sy, sxx, sxy) = (n + 1.0, sx + lx, sy + ly, sxx + lx * lx, sxy + lx * ly);
        }
    }
    let (sxx, sxy) = (sxx - sx * sx / n, sxy - sx * sy / n);
    if n < 3.0 || sxx <= 0.0 {
        return time_left(history, now, total);
    }
    let b = (sxy / sxx).clamp(0.25, 1.0);
    Some((now * (x.min(1.0).powf(-b) - 1.0)).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::{time_left, time_left_quickening, Progress};

    /// A hidden progress keeps its history: where the run stood at its last subtree.
    #[test]
    fn a_hidden_progress_projects_from_its_last_subtree() {
        let mut p = Progress::hidden(&[1.0, 1.0, 2.0, 5.0], &[0, 1, 2], false);
        assert_eq!(p.projection().map(|(_, x, _)| x), None);
        p.finished(0, 1, 0);
        p.finished(1, 2, 0);
        let (then, fraction, left) = p.projection().unwrap();
        assert_eq!(fraction, 0.5);
        assert!(
            then > 0.0 && left.is_finite() && left >= 0.0,
            "{then} {left}"
        );
        p.finished(2, 3, 0);
        let (_, fraction, left) = p.projection().unwrap();
        assert_eq!((fraction, left), (1.0, 0.0));
    }

    /// Whether `a` and `b` agree to within a millionth.
    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-6 * b.abs().max(1.0))
    }

    #[test]
    fn time_left_of_a_quickening_run_follows_its_power() {
        // A run that takes 20 x^0.5 seconds to do the fraction x of 100 units: at a
        // quarter (10 s) it has 10 s left, where the pace of its later half (5 s for the
        // last 18.75 units) says 20 s.
        let history: Vec<(f64, f64)> = (0..=100)
            .map(|i| {
                let x = 0.25 * i as f64 / 100.0;
                (20.0 * x.sqrt(), 100.0 * x)
            })
            .collect();
        assert!(close(time_left_quickening(&history, 10.0, 100.0), 10.0));
        assert!(close(time_left(&history, 10.0, 100.0), 20.0));
        // A steady pace is a power of 1: 50 done in 5 s, 50 left.
        let steady: Vec<(f64, f64)> = (0..=5).map(|s| (s as f64, 10.0 * s as f64)).collect();
        assert!(close(time_left_quickening(&steady, 5.0, 100.0), 5.0));
        // A slowing pace (t = 10 x^2) is held to a power of 1: the pace of the whole run.
        let slowing: Vec<(f64, f64)> = (0..=10)
            .map(|i| {
                let x = 0.05 * i as f64;
                (10.0 * x * x, 100.0 * x)
            })
            .collect();
        assert!(close(time_left_quickening(&slowing, 2.5, 100.0), 2.5));
        // A resumed run's power is of its own work: 40 was done before it, and it did
        // the fraction x of the other 60 in 20 x^0.5 seconds.
        let resumed: Vec<(f64, f64)> = (0..=100)
            .map(|i| {
                let x = 0.25 * i as f64 / 100.0;
                (20.0 * x.sqrt(), 40.0 + 60.0 * x)
            })
            .collect();
        assert!(close(time_left_quickening(&resumed, 10.0, 100.0), 10.0));
        // Too few points for a slope, or none done: as `time_left`.
        let few = [(0.0, 0.0), (4.0, 10.0), (8.0, 50.0)];
        assert_eq!(
            time_left_quickening(&few, 8.0, 100.0),
            time_left(&few, 8.0, 100.0)
        );
        assert_eq!(time_left_quickening(&[(0.0, 0.0)], 5.0, 100.0), None);
        // All done.
        let all: Vec<(f64, f64)> = (0..=4).map(|s| (s as f64, 25.0 * s as f64)).collect();
        assert!(close(time_left_quickening(&all, 4.0, 100.0), 0.0));
    }

    #[test]
    fn time_left_goes_at_the_later_pace() {
        // Nothing done yet: no estimate.
        assert_eq!(time_left(&[(0.0, 0.0)], 5.0, 100.0), None);
        // A steady pace: 10 units a second, 50 done in 5 s, 50 left.
        let steady: Vec<(f64, f64)> = (0..=5).map(|s| (s as f64, 10.0 * s as f64)).collect();
        assert_eq!(time_left(&steady, 5.0, 100.0), Some(5.0));
        // A slow start (10 units in 4 s), then 10 a second: from 4 s on the pace is 10
        // a second, so 50 left take 5 s, where the pace of the whole run says 12.5 s.
        let hastening = [(0.0, 0.0), (4.0, 10.0), (6.0, 30.0), (8.0, 50.0)];
        assert_eq!(time_left(&hastening, 8.0, 100.0), Some(5.0));
        // No work done in the later half: the pace of the whole run.
        let stalled = [(0.0, 0.0), (1.0, 50.0)];
        assert_eq!(time_left(&stalled, 10.0, 100.0), Some(10.0));
        // A resumed run: 40 was done before it started; 10 more in 1 s.
        assert_eq!(
            time_left(&[(0.0, 40.0), (1.0, 50.0)], 1.0, 100.0),
            Some(5.0)
        );
        // All done.
        assert_eq!(
            time_left(&[(0.0, 0.0), (2.0, 100.0)], 2.0, 100.0),
            Some(0.0)
        );
    }
}
