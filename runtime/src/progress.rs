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
    Bar(ProgressBar),
    Lines { next_tenth: u32, last: Instant },
}

/// The progress of one run.
pub struct Progress {
    display: Display,
    /// The estimated size of each subtree (zero outside the run's shard).
    weights: Vec<f64>,
    total: f64,
    done: f64,
    /// What was done before this run started (a resumed run).
    done_before: f64,
    subtrees: usize,
    start: Instant,
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
    /// Whether this run shows progress: asked for, or stderr is a terminal and the run
    /// is not quiet.
    pub fn wanted(options: &Options) -> bool {
        options.progress || (!options.quiet && std::io::stderr().is_terminal())
    }

    /// `weights` has one estimate per subtree; `mine` are this run's subtrees, `done`
    /// marks those a checkpoint found finished.
    pub fn new(
        options: &Options,
        weights: &[f64],
        mine: &[usize],
        done: &[bool],
        solutions: u64,
    ) -> Progress {
        let total: f64 = mine
            .iter()
            .map(|&k| weights.get(k).copied().unwrap_or(0.0))
            .sum();
        let done_before: f64 = mine
            .iter()
            .filter(|&&k| done[k])
            .map(|&k| weights.get(k).copied().unwrap_or(0.0))
            .sum();
        let display = if !Progress::wanted(options) {
            Display::Off
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {msg}")
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
        let mut p = Progress {
            display,
            weights: weights.to_vec(),
            total,
            done: done_before,
            done_before,
            subtrees: mine.len(),
            start: Instant::now(),
        };
        let done_count = mine.iter().filter(|&&k| done[k]).count();
        p.show(done_count, solutions);
        p
    }

    /// The fraction of the estimated work done.
    fn fraction(&self) -> f64 {
        if self.total > 0.0 {
            (self.done / self.total).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Time left: the time this run took for its share of the estimated work, scaled to
    /// the work left.
    pub fn eta(&self) -> Option<Duration> {
        let run = self.done - self.done_before;
        if run <= 0.0 {
            return None;
        }
        let left = (self.total - self.done).max(0.0);
        Duration::try_from_secs_f64(self.start.elapsed().as_secs_f64() * left / run).ok()
    }

    fn message(&self, done_count: usize, solutions: u64) -> String {
        let eta = self.eta().map_or_else(
            || "estimating".to_string(),
            |d| format!("about {} left", duration_text(d)),
        );
        format!(
            "{:5.1}% of the estimated work, {done_count}/{} subtrees, {solutions} solutions, {eta}",
            100.0 * self.fraction(),
            self.subtrees
        )
    }

    fn show(&mut self, done_count: usize, solutions: u64) {
        let fraction = self.fraction();
        let message = match &self.display {
            Display::Off => return,
            _ => self.message(done_count, solutions),
        };
        match &mut self.display {
            Display::Off => {}
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
