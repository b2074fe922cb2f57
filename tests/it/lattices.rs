//! The hexagonal and triangular lattices, judged by a geometry of their own: each cell is
//! its centre in the Euclidean plane, neighbours are the centres at the distance of a side,
//! and the board's symmetries are the rigid motions (6 turns, 6 reflections about the
//! board's centre) that take the set of centres onto itself. None of `puzzle::lattice`
//! (axial maps, embeddings, periods) is used here.
//!
//! - Polyform Puzzler's counts, by both engines, and the full listing (`-r .`) whose
//!   orbits under the independent group are the unique solutions;
//! - random puzzles on each lattice (random boards cut into random pieces, copies,
//!   stationary pieces, one-sided sets): both engines list the same solutions, and for free
//!   pieces the orbits of the listing are the unique count.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use crate::common::{listed_alike, number, orbits, random_cut, CellSets, Draws, SplitMix64};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plane {
    Hexagonal,
    Triangular,
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

impl Plane {
    fn name(self) -> &'static str {
        match self {
            Plane::Hexagonal => "hexagonal",
            Plane::Triangular => "triangular",
        }
    }

    /// The centre of cell `(x, y)` in the plane: hexagons of unit spacing in rows half a
    /// hexagon apart; triangles of unit side, row y between heights y and y+1 (times
    /// √3/2), pointing up at even x.
    fn centre(self, x: i32, y: i32) -> (f64, f64) {
        let h = SQRT3 / 2.0;
        match self {
            Plane::Hexagonal => (x as f64 + y as f64 / 2.0, y as f64 * h),
            Plane::Triangular => {
                let q = x.div_euclid(2) as f64;
                let shift = y as f64 / 2.0;
                if x.rem_euclid(2) == 0 {
                    (q + shift + 0.5, (y as f64 + 1.0 / 3.0) * h)
                } else {
                    (q + shift + 1.0, (y as f64 + 2.0 / 3.0) * h)
                }
            }
        }
    }

    /// The distance between the centres of two cells that share a side.
    fn side(self) -> f64 {
        match self {
            Plane::Hexagonal => 1.0,
            Plane::Triangular => 1.0 / SQRT3,
        }
    }
}

type Cell = (i32, i32);

/// A board: its cells and their centres.
struct Board {
    plane: Plane,
    cells: Vec<Cell>,
}

fn key((a, b): (f64, f64)) -> (i64, i64) {
    ((a * 1000.0).round() as i64, (b * 1000.0).round() as i64)
}

impl Board {
    fn new(plane: Plane, xd: i32, yd: i32) -> Board {
        let cells = (0..yd).flat_map(|y| (0..xd).map(move |x| (x, y))).collect();
        Board { plane, cells }
    }

    fn centre(&self, c: Cell) -> (f64, f64) {
        self.plane.centre(c.0, c.1)
    }

    fn neighbours(&self, a: Cell, b: Cell) -> bool {
        let ((x0, y0), (x1, y1)) = (self.centre(a), self.centre(b));
        ((x1 - x0).hypot(y1 - y0) - self.plane.side()).abs() < 1e-6
    }

    /// The rigid motions of the plane that take the region the mobile pieces fill (the
    /// board less `fixed`, the stationary cells) onto itself, as maps of its cells;
    /// `reflections` false keeps the turns only.
    fn group(&self, fixed: &BTreeSet<Cell>, reflections: bool) -> Vec<BTreeMap<Cell, Cell>> {
        let region: Vec<Cell> = self
            .cells
            .iter()
            .copied()
            .filter(|c| !fixed.contains(c))
            .collect();
        let n = region.len() as f64;
        let (cx, cy) = region
            .iter()
            .map(|&c| self.centre(c))
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
        let at: BTreeMap<(i64, i64), Cell> =
            region.iter().map(|&c| (key(self.centre(c)), c)).collect();
        let mut group = Vec::new();
        for k in 0..6 {
            for flip in [false, true] {
                if flip && !reflections {
                    continue;
                }
                let angle = k as f64 * std::f64::consts::PI / 3.0;
                let (s, c) = angle.sin_cos();
                let map: Option<BTreeMap<Cell, Cell>> = region
                    .iter()
                    .map(|&cell| {
                        let (mut x, y) = self.centre(cell);
                        if flip {
                            x = 2.0 * cx - x;
                        }
                        let (dx, dy) = (x - cx, y - cy);
                        let to = (cx + c * dx - s * dy, cy + s * dx + c * dy);
                        Some((cell, *at.get(&key(to))?))
                    })
                    .collect();
                group.extend(map);
            }
        }
        group
    }
}

type Sol = CellSets<Cell>;

/// Listed solutions, their cells in the plane.
fn in_plane(sols: Vec<CellSets<[i32; 3]>>) -> Vec<Sol> {
    sols.into_iter()
        .map(|s| {
            s.into_iter()
                .map(|piece| piece.into_iter().map(|[x, y, _]| (x, y)).collect())
                .collect()
        })
        .collect()
}

/// The whole listing (`crate::common::listing`), its cells in the plane.
fn listing(
    text: &str,
    dims: [usize; 3],
    stationary: &[String],
    args: &[&str],
) -> (Vec<Sol>, u64, u64) {
    let (sols, all, unique) = crate::common::listing(text, dims, stationary, args);
    (in_plane(sols), all, unique)
}

/// Polyform Puzzler's counts (its documentation: solutions distinct up to the board's
/// symmetry) of puzzles in `tests/puzzles/`: the file's stem, its lattice, its box, the
/// count. (The generated solvers find them too: `generated::random_puzzles_agree_with_the_oracle`.)
pub(crate) const PUBLISHED: &[(&str, Plane, [usize; 3], u64)] = &[
    ("tetrahexes_4x7", Plane::Hexagonal, [7, 4, 1], 9),
    ("hexiamonds_4x9", Plane::Triangular, [18, 4, 1], 74),
    ("hexiamonds_6x6", Plane::Triangular, [12, 6, 1], 156),
    ("hexiamonds_3x12", Plane::Triangular, [24, 3, 1], 0),
];

/// The published counts, by both engines of `fila solve`, under the filter; and the whole
/// listing, whose orbits under the independent group are the unique solutions.
#[test]
fn published_counts_and_their_orbits() {
    for &(name, plane, dims, published) in PUBLISHED {
        let file = format!("tests/puzzles/{name}.txt");
        for engine in ["fila", "dlx"] {
            let map = crate::common::check(&file, &["--engine", engine], published);
            assert_eq!(number(&map, "UNIQUE"), published, "{name} {engine}");
            assert_eq!(crate::common::value_of(&map, "LATTICE"), plane.name());
        }
        let text = std::fs::read_to_string(crate::common::root().join(&file)).unwrap();
        let (sols, all, unique) = listing(&text, dims, &[], &["--engine", "fila"]);
        assert_eq!((sols.len() as u64, unique), (all, published), "{name}");
        assert_eq!(
            sols.iter().collect::<BTreeSet<_>>().len(),
            sols.len(),
            "{name}: listed twice"
        );
        let board = Board::new(plane, dims[0] as i32, dims[1] as i32);
        let group = board.group(&BTreeSet::new(), true);
        assert_eq!(
            orbits(&sols, &group.iter().collect::<Vec<_>>()) as u64,
            published,
            "{name}: orbits"
        );
    }
}

/// A board drawn in a larger frame: the hexagon of `trihexes_hexagon` inside a 5x5
/// parallelogram of stationary cells. Its symmetry is the hexagon's (12 maps), found by
/// both engines and checked against the orbits of the whole listing under the test's
/// own group of the region.
#[test]
fn a_board_is_as_symmetric_as_its_region() {
    let file = "tests/puzzles/trihexes_hexagon.txt";
    for engine in ["fila", "dlx"] {
        let map = crate::common::check(file, &["--engine", engine], 59);
        assert_eq!(
            crate::common::value_of(&map, "GROUP_ORDER"),
            "12",
            "{engine}"
        );
    }
    let text = std::fs::read_to_string(crate::common::root().join(file)).unwrap();
    let dims = [5, 5, 1];
    let stationary = ["*".to_string()];
    let (sols, all, unique) = listing(&text, dims, &stationary, &["--engine", "fila"]);
    assert_eq!((sols.len() as u64, all, unique), (672, 672, 59));
    let fixed: BTreeSet<Cell> = (0..5)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .filter(|&(x, y)| !(2..=6).contains(&(x + y)))
        .collect();
    let group = Board::new(Plane::Hexagonal, 5, 5).group(&fixed, true);
    assert_eq!(group.len(), 12);
    assert_eq!(orbits(&sols, &group.iter().collect::<Vec<_>>()), 59);
}

/// A random puzzle on `plane`: a small board cut into random connected pieces, one of
/// them stationary now and then; the pieces are written where they were cut (only their
/// shapes matter), so the puzzle has a solution. Returns the text, the box, and the
/// stationary piece's name and cells (if there is one).
fn random_puzzle(
    plane: Plane,
    rng: &mut SplitMix64,
    one_side: bool,
) -> (String, [usize; 3], Vec<String>, BTreeSet<Cell>) {
    let (xd, yd) = match plane {
        Plane::Hexagonal => (2 + rng.below(3) as i32, 2 + rng.below(3) as i32),
        Plane::Triangular => (4 + rng.below(5) as i32, 2 + rng.below(2) as i32),
    };
    let board = Board::new(plane, xd, yd);
    let pieces = random_cut(&board.cells, |a, b| board.neighbours(a, b), rng);
    let stationary = pieces.len() > 2 && rng.chance(3);
    let mut text = format!(
        "D:lattice={}:xDim={xd}:yDim={yd}:zDim=1{}\n",
        plane.name(),
        if one_side { ":oneSide" } else { "" }
    );
    let mut names = Vec::new();
    let mut fixed = BTreeSet::new();
    for (k, piece) in pieces.iter().enumerate() {
        let name = format!("P{k}");
        let kind = if stationary && k == 0 { "S" } else { "M" };
        if kind == "S" {
            names.push(name.clone());
            fixed.extend(piece.iter().copied());
        }
        let layout: Vec<String> = piece.iter().map(|(x, y)| format!("{x} {y} 0")).collect();
        text.push_str(&format!(
            "C:name={name}:type={kind}:layout={}\n",
            layout.join(", ")
        ));
    }
    text.push_str("~D\n");
    (text, [xd as usize, yd as usize, 1], names, fixed)
}

/// Random puzzles on the hexagonal and triangular lattices, as definition texts (`seed`
/// draws them), for the generated solvers' test against the oracle.
pub(crate) fn random_texts(seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    [Plane::Hexagonal, Plane::Triangular]
        .into_iter()
        .flat_map(|plane| [false, true].map(|one_side| (plane, one_side)))
        .map(|(plane, one_side)| random_puzzle(plane, &mut rng, one_side).0)
        .collect()
}

fn check_random(plane: Plane, seed: u64, one_side: bool) {
    let mut rng = SplitMix64::new(seed);
    let (text, dims, stationary, fixed) = random_puzzle(plane, &mut rng, one_side);
    let (fila, unique) = listed_alike(&text, dims, &stationary);
    let fila = in_plane(fila);
    if !one_side {
        let group = Board::new(plane, dims[0] as i32, dims[1] as i32).group(&fixed, true);
        assert_eq!(
            orbits(&fila, &group.iter().collect::<Vec<_>>()) as u64,
            unique,
            "orbits:\n{text}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_hexagonal_puzzles(seed in any::<u64>(), one_side in any::<bool>()) {
        check_random(Plane::Hexagonal, seed, one_side);
    }

    #[test]
    fn random_triangular_puzzles(seed in any::<u64>(), one_side in any::<bool>()) {
        check_random(Plane::Triangular, seed, one_side);
    }
}
