//! The generic engine: Knuth's Algorithm X with dancing links and the
//! minimum-remaining-values column choice.
//!
//! Columns are the open cells (each covered exactly once) and the shapes. A shape with one
//! piece is an ordinary primary column. A shape with several identical pieces is a column
//! with a multiplicity: it is never chosen for branching, each row of that shape used
//! lowers its remaining count, and when the count reaches zero the column is covered.
//! Because rows are images of a shape, not of a numbered copy, no solution is found
//! once per permutation of the copies.
//!
//! This engine is the oracle every other solver is checked against: it stays simple.

/// The counts of one search, per number of pieces left to place (index 0 unused).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub attempts: Vec<u64>,
    pub fits: Vec<u64>,
}

/// What a check after a placement sees (see [`Dlx::solve_prefix`]).
pub struct Node<'a> {
    /// For each cell: whether no placed piece covers it.
    pub open: &'a [bool],
    /// For each shape: its pieces not yet placed.
    pub to_place: &'a [u32],
    /// The pieces not yet placed, in all.
    pub left: usize,
}

/// What the solution callback tells the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// An exact-cover matrix with dancing links. Node 0 is the root, nodes `1..=cells` the
/// cell column headers, the next `shapes` nodes the shape column headers, then the rows.
#[derive(Clone)]
pub struct Dlx {
    left: Vec<u32>,
    right: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// For every node, its column header.
    column: Vec<u32>,
    /// For row nodes, the row's number.
    row: Vec<u32>,
    /// Per header: rows still linked in the column.
    len: Vec<u32>,
    /// Per header: whether the column has a multiplicity (a shape with several copies).
    multiple: Vec<bool>,
    /// Per header of a column with a multiplicity: pieces of that shape not yet placed.
    remaining: Vec<u32>,
    cells: usize,
    /// The first node of each row.
    row_start: Vec<u32>,
    pieces: usize,
    /// The rows of the current partial solution.
    chosen: Vec<u32>,
    stopped: bool,
    /// Partial solutions with this many pieces left go to the callback (0: none).
    floor: usize,
    /// For each cell: not covered by a chosen row.
    open: Vec<bool>,
    /// For each shape: pieces not yet placed.
    to_place: Vec<u32>,
    pub counts: Counts,
}

const ROOT: usize = 0;

impl Dlx {
    /// A matrix with `cells` cell columns and one column per shape with the given number of
    /// copies. Rows are added with [`Dlx::add_row`] and numbered from 0 in that order.
    pub fn new(cells: usize, shape_counts: &[usize]) -> Dlx {
        let headers = 1 + cells + shape_counts.len();
        let pieces: usize = shape_counts.iter().sum();
        let mut m = Dlx {
            left: (0..headers as u32).collect(),
            right: (0..headers as u32).collect(),
            up: (0..headers as u32).collect(),
            down: (0..headers as u32).collect(),
            column: (0..headers as u32).collect(),
            row: vec![u32::MAX; headers],
            len: vec![0; headers],
            multiple: vec![false; headers],
            remaining: vec![0; headers],
            cells,
            row_start: Vec::new(),
            pieces,
            chosen: Vec::new(),
            stopped: false,
            floor: 0,
            open: vec![true; cells],
            to_place: shape_counts.iter().map(|&c| c as u32).collect(),
            counts: Counts {
                attempts: vec![0; pieces + 1],
                fits: vec![0; pieces + 1],
            },
        };
        for (s, &count) in shape_counts.iter().enumerate() {
            let h = 1 + cells + s;
            m.multiple[h] = count != 1;
            m.remaining[h] = count as u32;
        }
        // Primary columns are linked into the root's list; the others stay self-linked.
        let mut last = ROOT;
        for h in 1..headers {
            if !m.multiple[h] {
                m.right[last] = h as u32;
                m.left[h] = last as u32;
                last = h;
            }
        }
        m.right[last] = ROOT as u32;
        m.left[ROOT] = last as u32;
        m
    }

    /// Adds a row covering `cells` (cell numbers) and one piece of `shape`.
    pub fn add_row(&mut self, shape: usize, cells: &[u16]) {
        let number = self.row_start.len() as u32;
        let first = self.left.len() as u32;
        self.row_start.push(first);
        let headers: Vec<usize> = cells
            .iter()
            .map(|&c| c as usize + 1)
            .chain(std::iter::once(1 + self.cells + shape))
            .collect();
        let n = headers.len() as u32;
        for (k, &h) in headers.iter().enumerate() {
            let node = first + k as u32;
            self.left
                .push(if k == 0 { first + n - 1 } else { node - 1 });
            self.right
                .push(if k as u32 == n - 1 { first } else { node + 1 });
            let above = self.up[h];
            self.up.push(above);
            self.down.push(h as u32);
            self.down[above as usize] = node;
            self.up[h] = node;
            self.column.push(h as u32);
            self.row.push(number);
            self.len[h] += 1;
        }
    }

    fn cover(&mut self, c: usize) {
        let (l, r) = (self.left[c] as usize, self.right[c] as usize);
        self.right[l] = r as u32;
        self.left[r] = l as u32;
        let mut i = self.down[c] as usize;
        while i != c {
            let mut j = self.right[i] as usize;
            while j != i {
                let (u, d) = (self.up[j] as usize, self.down[j] as usize);
                self.down[u] = d as u32;
                self.up[d] = u as u32;
                self.len[self.column[j] as usize] -= 1;
                j = self.right[j] as usize;
            }
            i = self.down[i] as usize;
        }
    }

    fn uncover(&mut self, c: usize) {
        let mut i = self.up[c] as usize;
        while i != c {
            let mut j = self.left[i] as usize;
            while j != i {
                let (u, d) = (self.up[j] as usize, self.down[j] as usize);
                self.down[u] = j as u32;
                self.up[d] = j as u32;
                self.len[self.column[j] as usize] += 1;
                j = self.left[j] as usize;
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[c] as usize, self.right[c] as usize);
        self.right[l] = c as u32;
        self.left[r] = c as u32;
    }

    /// Covers the columns of row node `node`'s row other than its own column.
    fn take_others(&mut self, node: usize) {
        let mut j = self.right[node] as usize;
        while j != node {
            self.take_column(self.column[j] as usize);
            j = self.right[j] as usize;
        }
    }

    fn give_back_others(&mut self, node: usize) {
        let mut j = self.left[node] as usize;
        while j != node {
            self.give_back_column(self.column[j] as usize);
            j = self.left[j] as usize;
        }
    }

    /// Uses one of column `c`: covers it, or for a shape with copies uses up one copy and
    /// covers it with the last.
    fn take_column(&mut self, c: usize) {
        if self.multiple[c] {
            self.remaining[c] -= 1;
            if self.remaining[c] == 0 {
                self.cover(c);
            }
        } else {
            self.cover(c);
        }
    }

    fn give_back_column(&mut self, c: usize) {
        if self.multiple[c] {
            if self.remaining[c] == 0 {
                self.uncover(c);
            }
            self.remaining[c] += 1;
        } else {
            self.uncover(c);
        }
    }

    /// Marks the cells and the piece of `row` as taken (`placed`) or given back.
    fn mark(&mut self, row: usize, placed: bool) {
        let start = self.row_start[row] as usize;
        let mut j = start;
        loop {
            let h = self.column[j] as usize;
            if h <= self.cells {
                self.open[h - 1] = !placed;
            } else if placed {
                self.to_place[h - 1 - self.cells] -= 1;
            } else {
                self.to_place[h - 1 - self.cells] += 1;
            }
            j = self.right[j] as usize;
            if j == start {
                break;
            }
        }
    }

    /// Whether `check` lets the search go on below the rows chosen so far, with `left`
    /// pieces still to place.
    fn allowed(&self, left: usize, check: &mut dyn FnMut(&Node<'_>) -> bool) -> bool {
        check(&Node {
            open: &self.open,
            to_place: &self.to_place,
            left,
        })
    }

    /// Finds every solution that uses the rows of `prefix` (disjoint rows, selected in
    /// that order), calling `found(rows, true)` with the rows of each, the prefix first.
    /// When `floor` is not zero, a partial solution with `floor` pieces left goes to
    /// `found(rows, false)` instead of being searched. After every placement (the prefix
    /// as a whole, then each row the search chooses; the placement is counted first),
    /// the search goes on below it only if `check` says so. Returns `Flow::Stop` if the
    /// callback stopped the search.
    pub fn solve_prefix(
        &mut self,
        prefix: &[usize],
        floor: usize,
        check: &mut dyn FnMut(&Node<'_>) -> bool,
        found: &mut dyn FnMut(&[u32], bool) -> Flow,
    ) -> Flow {
        self.stopped = false;
        self.floor = floor;
        for &row in prefix {
            let node = self.row_start[row] as usize;
            // Selecting a given row: take every column it meets.
            self.take_column(self.column[node] as usize);
            self.take_others(node);
            self.mark(row, true);
            self.chosen.push(row as u32);
        }
        if prefix.len() == 1 {
            // The first placement counts like any other.
            self.counts.attempts[self.pieces] += 1;
            self.counts.fits[self.pieces] += 1;
        }
        let left = self.pieces - prefix.len();
        if self.allowed(left, check) {
            self.search(left, check, found);
        }
        for &row in prefix.iter().rev() {
            let node = self.row_start[row] as usize;
            self.chosen.pop();
            self.mark(row, false);
            self.give_back_others(node);
            self.give_back_column(self.column[node] as usize);
        }
        if self.stopped {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }

    /// The search below the rows chosen so far, with `top` pieces left. It keeps its own
    /// stack rather than recursing, since a puzzle may have tens of thousands of pieces:
    /// for each level, the column covered there and the node of the row being tried in
    /// it (the column's header before the first).
    fn search(
        &mut self,
        top: usize,
        check: &mut dyn FnMut(&Node<'_>) -> bool,
        found: &mut dyn FnMut(&[u32], bool) -> Flow,
    ) {
        let mut levels: Vec<(usize, usize)> = Vec::new();
        loop {
            // A node: a solution, a floor, a dead end, or a column to branch on.
            let left = top - levels.len();
            let complete = self.right[ROOT] as usize == ROOT;
            if complete || left <= self.floor {
                if found(&self.chosen, complete) == Flow::Stop {
                    self.stopped = true;
                }
            } else {
                // The primary column with the fewest rows (the first of equals).
                let mut best = self.right[ROOT] as usize;
                let mut c = self.right[best] as usize;
                while c != ROOT && self.len[best] > 0 {
                    if self.len[c] < self.len[best] {
                        best = c;
                    }
                    c = self.right[c] as usize;
                }
                if self.len[best] > 0 {
                    self.cover(best);
                    levels.push((best, best));
                }
            }
            // The next row to try, at the deepest level that has one, undoing the row
            // tried there before.
            loop {
                let Some(&(best, r)) = levels.last() else {
                    return;
                };
                let left = top - (levels.len() - 1);
                if r != best {
                    let row = self.row[r] as usize;
                    self.mark(row, false);
                    self.give_back_others(r);
                    self.chosen.pop();
                }
                let next = self.down[r] as usize;
                if self.stopped || next == best {
                    self.uncover(best);
                    levels.pop();
                    continue;
                }
                if let Some(level) = levels.last_mut() {
                    level.1 = next;
                }
                self.counts.attempts[left] += 1;
                self.counts.fits[left] += 1;
                let row = self.row[next] as usize;
                self.chosen.push(row as u32);
                self.take_others(next);
                self.mark(row, true);
                if self.allowed(left - 1, check) {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(cells: usize, shapes: &[usize], rows: &[(usize, &[u16])], first: &[usize]) -> usize {
        let mut m = Dlx::new(cells, shapes);
        for (s, r) in rows {
            m.add_row(*s, r);
        }
        let mut n = 0;
        for &f in first {
            m.solve_prefix(&[f], 0, &mut |_| true, &mut |_, _| {
                n += 1;
                Flow::Continue
            });
        }
        n
    }

    #[test]
    fn dominoes_in_a_two_by_two() {
        // Cells 0 1 / 2 3; two copies of the domino: two tilings, each counted once.
        let rows: [(usize, &[u16]); 4] = [(0, &[0, 1]), (0, &[2, 3]), (0, &[0, 2]), (0, &[1, 3])];
        // Rows covering cell 0 partition the solutions.
        assert_eq!(count(4, &[2], &rows, &[0, 2]), 2);
    }

    #[test]
    fn copies_are_not_overused() {
        // Three cells in a row, a monomino with 3 copies: one solution.
        let rows: [(usize, &[u16]); 3] = [(0, &[0]), (0, &[1]), (0, &[2])];
        assert_eq!(count(3, &[3], &rows, &[0]), 1);
        // Two distinct monominoes and a domino in a row of 4: a b dd, b a dd, a dd b, ...
        let rows: [(usize, &[u16]); 11] = [
            (0, &[0]),
            (0, &[1]),
            (0, &[2]),
            (0, &[3]),
            (1, &[0]),
            (1, &[1]),
            (1, &[2]),
            (1, &[3]),
            (2, &[0, 1]),
            (2, &[1, 2]),
            (2, &[2, 3]),
        ];
        // Positions of the domino: 3; the two monominoes fill the rest in 2 ways each.
        assert_eq!(count(4, &[1, 1, 1], &rows, &[8, 9, 10]), 6);
    }

    #[test]
    fn the_check_sees_each_placement_and_can_cut_it_off() {
        // Cells 0 1 2 3 in a row, two copies of the domino and a monomino shape with two
        // copies: rows are dominoes 0-1, 1-2, 2-3 and monominoes 0..3.
        let rows: [(usize, &[u16]); 7] = [
            (0, &[0, 1]),
            (0, &[1, 2]),
            (0, &[2, 3]),
            (1, &[0]),
            (1, &[1]),
            (1, &[2]),
            (1, &[3]),
        ];
        let mut m = Dlx::new(4, &[1, 2]);
        for (s, r) in rows {
            m.add_row(s, r);
        }
        // Every node the check sees is consistent: open cells = cells of the pieces left.
        let mut seen = 0;
        let mut solutions = 0;
        for first in [0, 3] {
            m.solve_prefix(
                &[first],
                0,
                &mut |node| {
                    seen += 1;
                    let open = node.open.iter().filter(|&&o| o).count();
                    assert_eq!(open as u32, 2 * node.to_place[0] + node.to_place[1]);
                    assert_eq!(node.left as u32, node.to_place.iter().sum::<u32>());
                    true
                },
                &mut |_, _| {
                    solutions += 1;
                    Flow::Continue
                },
            );
        }
        // dd.. with m m; m dd m; mm dd: three solutions, the rows covering cell 0 first.
        assert_eq!(solutions, 3);
        assert!(seen > 3);
        // A check that refuses the node where both monominoes are placed and the domino
        // is not cuts off the solution mm dd, and only that one.
        let mut solutions = 0;
        for first in [0, 3] {
            m.solve_prefix(
                &[first],
                0,
                &mut |node| node.to_place != [1, 0],
                &mut |_, _| {
                    solutions += 1;
                    Flow::Continue
                },
            );
        }
        assert_eq!(solutions, 2);
        // Everything given back: the state is as new.
        assert!(m.open.iter().all(|&o| o));
        assert_eq!(m.to_place, [1, 2]);
    }

    #[test]
    fn stop_ends_the_search() {
        let rows: [(usize, &[u16]); 3] = [(0, &[0]), (0, &[1]), (0, &[2])];
        let mut m = Dlx::new(3, &[3]);
        for (s, r) in rows {
            m.add_row(s, r);
        }
        assert_eq!(
            m.solve_prefix(&[0], 0, &mut |_| true, &mut |_, _| Flow::Stop),
            Flow::Stop
        );
    }
}
