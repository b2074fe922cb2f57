//! The packed spheres and the hexagonal prisms, judged by a geometry of their own: each
//! cell is its centre in Euclidean space, neighbours are the centres at the distance of a
//! contact, and the board's symmetries are the rigid motions that take its centres onto
//! themselves (and, for the prisms, every prism onto a prism, not askew), found by
//! matching three of its cells. None of `puzzle::lattice` (maps, frames, conjugations) is
//! used here.
//!
//! - Boards that lie in one plane: the pentominoes in a square layer of balls (2339, the
//!   count of the 10x6 rectangle), the tetrahexes in a layer of prisms (9, Polyform
//!   Puzzler's count), and random pieces in a triangle of balls (a triangular layer, where
//!   a piece turns over by a half turn that is not a map of the lattice) against the same
//!   pieces as polyhexes in the same triangle.
//! - Random puzzles (pyramids, tetrahedra and boxes of balls, boxes and hexagons of
//!   prisms, cut into random pieces, copies, a stationary piece now and then, one-sided
//!   sets in one layer): both engines list the same solutions, and for free pieces the
//!   orbits of the listing under the board's rotations of space are the unique count.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::common::{
    listed_alike, number, orbits, random_cut, report, run_fila, stderr, stdout, Draws, SplitMix64,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    Spheres,
    Prisms,
}

/// The height of a prism, against 1 for the distance between the centres of two
/// neighbours in a layer. Not 1, so that no rigid motion can turn a column of prisms
/// into a row.
const HEIGHT: f64 = 1.25;

type Cell = [i32; 3];
type Point = [f64; 3];

impl Space {
    fn name(self) -> &'static str {
        match self {
            Space::Spheres => "spheres",
            Space::Prisms => "prisms",
        }
    }

    /// The centre of cell `(x, y, z)`: balls of unit diameter in square layers, each
    /// resting on the four below it (the layers are `1/sqrt 2` apart and shifted by half
    /// a ball in x and y); prisms in hexagonal layers of unit spacing (rows half a
    /// hexagon apart), stacked straight up.
    fn centre(self, [x, y, z]: Cell) -> Point {
        let (x, y, z) = (f64::from(x), f64::from(y), f64::from(z));
        match self {
            Space::Spheres => [
                x + z / 2.0,
                y + z / 2.0,
                z * std::f64::consts::FRAC_1_SQRT_2,
            ],
            Space::Prisms => [x + y / 2.0, y * 3f64.sqrt() / 2.0, z * HEIGHT],
        }
    }

    /// Whether the orthogonal map `m` takes every cell of the lattice, as a solid, onto a
    /// cell: any map for balls, which are round; for prisms, one that takes the vectors
    /// to the eight neighbours onto themselves, so that a hexagon stays a hexagon of the
    /// lattice and upright stays upright. (A board of prisms in a plane that is no mirror
    /// of the lattice does not turn over: the half turn about an axis in that plane takes
    /// the centres onto centres but the prisms askew.)
    fn keeps_cells(self, m: &[Point; 3]) -> bool {
        match self {
            Space::Spheres => true,
            Space::Prisms => {
                let origin = self.centre([0, 0, 0]);
                let steps: Vec<Point> = [
                    [1, 0, 0],
                    [-1, 0, 0],
                    [0, 1, 0],
                    [0, -1, 0],
                    [-1, 1, 0],
                    [1, -1, 0],
                    [0, 0, 1],
                    [0, 0, -1],
                ]
                .map(|c| sub(self.centre(c), origin))
                .to_vec();
                let keys: Vec<[i64; 3]> = steps.iter().map(|&s| key(s)).collect();
                steps
                    .iter()
                    .all(|&s| keys.contains(&key([0, 1, 2].map(|i| dot(m[i], s)))))
            }
        }
    }

    /// Whether two cells whose centres are `d` apart touch.
    fn touching(self, d: f64) -> bool {
        (d - 1.0).abs() < 1e-6 || (self == Space::Prisms && (d - HEIGHT).abs() < 1e-6)
    }
}

fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: Point, b: Point) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: Point, b: Point) -> Point {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn det(m: [Point; 3]) -> f64 {
    dot(m[0], cross(m[1], m[2]))
}

fn key(p: Point) -> [i64; 3] {
    p.map(|v| (v * 1000.0).round() as i64)
}

/// A board: its cells (the region the mobile pieces fill) in space.
struct Board {
    space: Space,
    cells: Vec<Cell>,
}

/// A symmetry of a board: where each cell goes, and whether a rotation of space (not
/// only a reflection) moves the cells so.
struct Motion {
    map: BTreeMap<Cell, Cell>,
    rotation: bool,
}

impl Board {
    fn touching(&self, a: Cell, b: Cell) -> bool {
        let d = sub(self.space.centre(a), self.space.centre(b));
        self.space.touching(dot(d, d).sqrt())
    }

    /// The rigid motions of space that take the board's centres onto themselves, and its
    /// cells as solids onto cells ([`Space::keeps_cells`]). Each is fixed by where it
    /// sends three cells whose offsets from the centroid span space (for a board in one
    /// plane, two cells and the plane's normal, which may go to either side: a flat board
    /// turns over by a rotation); every choice of images with the same lengths and angles
    /// that gives an orthogonal map taking the board onto itself is one.
    fn motions(&self) -> Vec<Motion> {
        let n = self.cells.len() as f64;
        let points: Vec<Point> = self.cells.iter().map(|&c| self.space.centre(c)).collect();
        let centroid = points.iter().fold([0.0; 3], |s, p| {
            [s[0] + p[0] / n, s[1] + p[1] / n, s[2] + p[2] / n]
        });
        let v: Vec<Point> = points.iter().map(|&p| sub(p, centroid)).collect();
        let at: BTreeMap<[i64; 3], Cell> = points
            .iter()
            .zip(&self.cells)
            .map(|(&p, &c)| (key(p), c))
            .collect();
        let independent = |a: Point, b: Point| dot(cross(a, b), cross(a, b)) > 1e-6;
        // Two independent offsets a, b and a third c; `flat` when there is no third.
        let Some((a, b)) = (0..v.len())
            .flat_map(|a| (0..v.len()).map(move |b| (a, b)))
            .find(|&(a, b)| independent(v[a], v[b]))
        else {
            // A single cell, or cells on a line: the identity, and the half turn about an
            // axis across the line where it takes the cells onto themselves. A line of
            // prisms turns so about an axis of the prism where it is upright or level (a
            // horizontal axis, or the upright one); else only the prism's point
            // reflection, which is no rotation, reverses it.
            let level_or_upright = v.iter().all(|p| p[2].abs() < 1e-6)
                || v.iter().all(|p| p[0].abs() < 1e-6 && p[1].abs() < 1e-6);
            let turns = self.space == Space::Spheres || level_or_upright;
            let turned: Option<BTreeMap<Cell, Cell>> = v
                .iter()
                .zip(&self.cells)
                .map(|(&p, &cell)| {
                    let moved = [0, 1, 2].map(|i| centroid[i] - p[i]);
                    Some((cell, *at.get(&key(moved))?))
                })
                .collect();
            let identity: BTreeMap<Cell, Cell> = self.cells.iter().map(|&c| (c, c)).collect();
            return std::iter::once((identity.clone(), true))
                .chain(turned.filter(|t| *t != identity).map(|t| (t, turns)))
                .map(|(map, rotation)| Motion { map, rotation })
                .collect();
        };
        let third = (0..v.len()).find(|&c| det([v[a], v[b], v[c]]).abs() > 1e-6);
        let basis = [v[a], v[b], third.map_or(cross(v[a], v[b]), |c| v[c])];
        let inverse = invert(basis);
        let mut motions: Vec<Motion> = Vec::new();
        for (ia, &wa) in v.iter().enumerate() {
            for (ib, &wb) in v.iter().enumerate() {
                let same =
                    |p: Point, q: Point, r: Point, s: Point| (dot(p, q) - dot(r, s)).abs() < 1e-6;
                if ia == ib
                    || !same(wa, wa, v[a], v[a])
                    || !same(wb, wb, v[b], v[b])
                    || !same(wa, wb, v[a], v[b])
                {
                    continue;
                }
                let thirds: Vec<Point> = match third {
                    Some(c) => v
                        .iter()
                        .copied()
                        .filter(|&wc| {
                            same(wc, wc, v[c], v[c])
                                && same(wa, wc, v[a], v[c])
                                && same(wb, wc, v[b], v[c])
                        })
                        .collect(),
                    None => {
                        let normal = cross(wa, wb);
                        vec![normal, normal.map(|x| -x)]
                    }
                };
                for wc in thirds {
                    // m = W B^-1, applied to every offset.
                    let w = [wa, wb, wc];
                    let m: [Point; 3] = [0, 1, 2]
                        .map(|i| [0, 1, 2].map(|j| (0..3).map(|k| w[k][i] * inverse[k][j]).sum()));
                    let map: Option<BTreeMap<Cell, Cell>> = v
                        .iter()
                        .zip(&self.cells)
                        .map(|(&p, &cell)| {
                            let moved = [0, 1, 2].map(|i| dot(m[i], p) + centroid[i]);
                            Some((cell, *at.get(&key(moved))?))
                        })
                        .collect();
                    let Some(map) = map else {
                        continue;
                    };
                    if !self.space.keeps_cells(&m) {
                        continue;
                    }
                    let rotation = det(m) > 0.0;
                    match motions.iter_mut().find(|g| g.map == map) {
                        Some(g) => g.rotation |= rotation,
                        None => motions.push(Motion { map, rotation }),
                    }
                }
            }
        }
        motions
    }
}

/// The dual basis of the rows of `m`: row k of the result has dot product 1 with row k
/// of `m` and 0 with the others, so that `sum_k w[k] (row k . p)` maps row j of `m` to
/// `w[j]`.
fn invert(m: [Point; 3]) -> [Point; 3] {
    let d = det(m);
    [
        cross(m[1], m[2]).map(|x| x / d),
        cross(m[2], m[0]).map(|x| x / d),
        cross(m[0], m[1]).map(|x| x / d),
    ]
}

/// `fila solve -q -i ARGS` on `text`: SOLUTIONS and UNIQUE.
fn counts(text: &str, args: &[&str]) -> (u64, u64) {
    let mut all = vec!["solve", "-q", "-i"];
    all.extend_from_slice(args);
    let out = run_fila(&all, Some(text));
    assert!(out.status.success(), "{args:?}: {}\n{text}", stderr(&out));
    let map = report(&stdout(&out));
    (number(&map, "SOLUTIONS"), number(&map, "UNIQUE"))
}

/// The definition of a puzzle on `space` (or on `lattice`, where given) in the box
/// `dims`: the box's cells outside `board` as one stationary piece `*`, then `pieces`
/// (the first of them stationary when `stationary`), each written where it lies.
fn definition(
    lattice: &str,
    dims: [usize; 3],
    board: &[Cell],
    pieces: &[Vec<Cell>],
    stationary: bool,
    one_side: bool,
) -> String {
    let [xd, yd, zd] = dims;
    let mut text = format!(
        "D:lattice={lattice}:xDim={xd}:yDim={yd}:zDim={zd}{}\n",
        if one_side { ":oneSide" } else { "" }
    );
    let layout = |cells: &[Cell]| -> String {
        cells
            .iter()
            .map(|[x, y, z]| format!("{x} {y} {z}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let outside: Vec<Cell> = (0..zd as i32)
        .flat_map(|z| (0..yd as i32).flat_map(move |y| (0..xd as i32).map(move |x| [x, y, z])))
        .filter(|c| !board.contains(c))
        .collect();
    if !outside.is_empty() {
        text.push_str(&format!("C:name=*:type=S:layout={}\n", layout(&outside)));
    }
    for (k, piece) in pieces.iter().enumerate() {
        let kind = if stationary && k == 0 { "S" } else { "M" };
        text.push_str(&format!(
            "C:name=P{k}:type={kind}:layout={}\n",
            layout(piece)
        ));
    }
    text.push_str("~D\n");
    text
}

/// `board` cut into random connected pieces.
fn cut(board: &Board, rng: &mut SplitMix64) -> Vec<Vec<Cell>> {
    random_cut(&board.cells, |a, b| board.touching(a, b), rng)
}

/// A random board on `space` and the box it is drawn in: for the balls a square pyramid,
/// a tetrahedron, a triangle (one triangular layer, upright) or a box; for the prisms a
/// box or a hexagon, one or two layers deep. One-sided sets lie in layer 0.
fn random_board(space: Space, rng: &mut SplitMix64, one_side: bool) -> (Board, [usize; 3]) {
    let range = |n: usize| 0..n as i32;
    let boxed = |xd: usize, yd: usize, zd: usize| -> Vec<Cell> {
        range(zd)
            .flat_map(|z| range(yd).flat_map(move |y| range(xd).map(move |x| [x, y, z])))
            .collect()
    };
    let (cells, dims) = match (space, if one_side { 0 } else { 1 + rng.below(3) }) {
        (Space::Spheres, 0) => {
            let (xd, yd) = (2 + rng.below(3), 2 + rng.below(2));
            (boxed(xd, yd, 1), [xd, yd, 1])
        }
        (Space::Spheres, 1) => {
            // A pyramid on an n x n base: x, y <= n - 1 - z.
            let n = 2 + rng.below(2);
            let cells = boxed(n, n, n)
                .into_iter()
                .filter(|&[x, y, z]| x.max(y) <= n as i32 - 1 - z)
                .collect();
            (cells, [n, n, n])
        }
        (Space::Spheres, 2) => {
            // A tetrahedron of side n, or (half the time) its face: the triangle of side n
            // upright in y = 0. Its balls are (i, n - 1 - l, j + l) for i + j + l < n.
            let n = 3 + rng.below(2) as i32;
            let face = rng.chance(2);
            let cells = boxed(n as usize, n as usize, n as usize)
                .into_iter()
                .filter(|&[x, y, z]| {
                    let (i, l) = (x, n - 1 - y);
                    let j = z - l;
                    j >= 0 && i + j + l < n && (!face || l == 0)
                })
                .map(|[x, y, z]| if face { [x, 0, z] } else { [x, y, z] })
                .collect();
            let dims = [n as usize, if face { 1 } else { n as usize }, n as usize];
            (cells, dims)
        }
        (Space::Spheres, _) => {
            let (xd, yd) = (2 + rng.below(2), 2 + rng.below(2));
            (boxed(xd, yd, 2), [xd, yd, 2])
        }
        (Space::Prisms, k) => {
            let zd = if one_side { 1 } else { 1 + rng.below(2) };
            if k == 1 {
                // A hexagon of side 2 drawn in a 3x3 parallelogram.
                let cells = boxed(3, 3, zd)
                    .into_iter()
                    .filter(|&[x, y, _]| (1..=3).contains(&(x + y)))
                    .collect();
                (cells, [3, 3, zd])
            } else {
                let (xd, yd) = (2 + rng.below(2), 2 + rng.below(2));
                (boxed(xd, yd, zd), [xd, yd, zd])
            }
        }
    };
    (Board { space, cells }, dims)
}

/// A random puzzle on `space` (the board, its box, its pieces, and whether the first
/// piece is stationary).
fn random_puzzle(
    space: Space,
    rng: &mut SplitMix64,
    one_side: bool,
) -> (Board, [usize; 3], Vec<Vec<Cell>>, bool, String) {
    let (board, dims) = random_board(space, rng, one_side);
    let pieces = cut(&board, rng);
    let stationary = pieces.len() > 2 && rng.chance(3);
    let text = definition(
        space.name(),
        dims,
        &board.cells,
        &pieces,
        stationary,
        one_side,
    );
    (board, dims, pieces, stationary, text)
}

/// Random puzzles on the packed spheres and the prisms, as definition texts (`seed`
/// draws them), for the generated solvers' test against the oracle.
pub(crate) fn random_texts(seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    [Space::Spheres, Space::Prisms]
        .into_iter()
        .flat_map(|space| [false, false, true].map(|one_side| (space, one_side)))
        .map(|(space, one_side)| random_puzzle(space, &mut rng, one_side).4)
        .collect()
}

fn check_random(space: Space, seed: u64, one_side: bool) {
    let (board, dims, pieces, stationary, text) =
        random_puzzle(space, &mut SplitMix64::new(seed), one_side);
    let mut fixed: Vec<String> = vec!["*".to_string()];
    if stationary {
        fixed.push("P0".to_string());
    }
    let (fila, unique) = listed_alike(&text, dims, &fixed);
    if !one_side {
        let region: Vec<Cell> = board
            .cells
            .iter()
            .copied()
            .filter(|c| !stationary || !pieces[0].contains(c))
            .collect();
        let motions = Board {
            space,
            cells: region,
        }
        .motions();
        let rotations: Vec<&BTreeMap<Cell, Cell>> = motions
            .iter()
            .filter(|g| g.rotation)
            .map(|g| &g.map)
            .collect();
        assert!(!rotations.is_empty(), "the identity is a motion:\n{text}");
        assert_eq!(orbits(&fila, &rotations) as u64, unique, "orbits:\n{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_sphere_puzzles(seed in any::<u64>(), one_side in any::<bool>()) {
        check_random(Space::Spheres, seed, one_side);
    }

    #[test]
    fn random_prism_puzzles(seed in any::<u64>(), one_side in any::<bool>()) {
        check_random(Space::Prisms, seed, one_side);
    }
}

/// The pentominoes in a square layer of balls are the pentominoes in the plane: 2339
/// solutions in 10x6; the tetrahexes in one layer of prisms are the tetrahexes in the
/// plane: 9 in the 4x7 parallelogram. Both engines.
#[test]
fn one_layer_is_the_plane() {
    let root = crate::common::root();
    let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
    let pentominoes =
        read("puzzles/pentomino_10x6.txt").replace("D:xDim", "D:lattice=spheres:xDim");
    let tetrahexes = read("tests/puzzles/tetrahexes_4x7.txt").replace("hexagonal", "prisms");
    for (text, unique) in [(pentominoes, 2339), (tetrahexes, 9)] {
        for engine in ["fila", "dlx"] {
            let (_, found) = counts(&text, &["--engine", engine, "--threads", "1"]);
            assert_eq!(found, unique, "{engine}:\n{text}");
        }
    }
}

/// A board of prisms turns over only about an axis of the prism. A column of three prisms
/// and one prism beside it halfway up, two rows and a column away: the centres lie in one
/// upright plane, but not in a mirror of the lattice. The half turn about a level axis in
/// that plane would take the centres onto themselves (the column upside down), but the
/// prisms askew; reversing the layers does it, and is a reflection. So an upright domino
/// and two monominoes have 2 solutions (the domino at the foot of the column or at its
/// top), 2 up to rotations and 1 with `--mirror`.
#[test]
fn prisms_turn_over_only_about_an_axis_of_the_prism() {
    let cells: Vec<Cell> = vec![[0, 0, 0], [0, 0, 1], [0, 0, 2], [2, 1, 1]];
    let board = Board {
        space: Space::Prisms,
        cells: cells.clone(),
    };
    let motions = board.motions();
    assert_eq!(
        motions.len(),
        2,
        "the identity and the reversal of the layers"
    );
    assert_eq!(motions.iter().filter(|g| g.rotation).count(), 1);
    let pieces = vec![vec![[0, 0, 0], [0, 0, 1]], vec![[0, 0, 2]], vec![[2, 1, 1]]];
    let text = definition("prisms", [3, 2, 3], &cells, &pieces, false, false);
    for engine in ["fila", "dlx"] {
        let with = |more: &[&str]| counts(&text, &[&["--engine", engine][..], more].concat());
        assert_eq!(with(&["-r", "."]).0, 2, "{engine}:\n{text}");
        assert_eq!(with(&[]), (2, 2), "{engine}:\n{text}");
        assert_eq!(with(&["--mirror"]), (1, 1), "{engine}:\n{text}");
    }
    // Three prisms on a slanting line, none touching: no axis of the prism is across it,
    // so only the point reflection reverses it. A monomino and a piece of two prisms a
    // step apart (in parts, as polycube allows): 2 solutions, 1 with `--mirror`.
    let line: Vec<Cell> = vec![[0, 0, 0], [2, 1, 1], [4, 2, 2]];
    let motions = Board {
        space: Space::Prisms,
        cells: line.clone(),
    }
    .motions();
    assert_eq!(motions.len(), 2, "the identity and the point reflection");
    assert_eq!(motions.iter().filter(|g| g.rotation).count(), 1);
    let pieces = vec![vec![[0, 0, 0], [2, 1, 1]], vec![[4, 2, 2]]];
    let text = definition("prisms", [5, 3, 3], &line, &pieces, false, false);
    for engine in ["fila", "dlx"] {
        let with = |more: &[&str]| counts(&text, &[&["--engine", engine][..], more].concat());
        assert_eq!(with(&["-r", "."]).0, 2, "{engine}:\n{text}");
        assert_eq!(with(&[]), (2, 2), "{engine}:\n{text}");
        assert_eq!(with(&["--mirror"]), (1, 1), "{engine}:\n{text}");
    }
}

/// A triangular layer of balls is a hexagonal lattice: random pieces in a triangle of
/// side 6 upright in the plane y = 0 have as many solutions, all and unique, as the same
/// pieces as polyhexes in the same triangle (the triangle's 6 symmetries are rotations
/// of space on the balls, though 3 of them are not maps of the lattice).
#[test]
fn a_triangular_layer_of_balls_is_a_hexagonal_board() {
    let n = 6;
    let triangle: Vec<Cell> = (0..n)
        .flat_map(|x| (0..n - x).map(move |z| [x, 0, z]))
        .collect();
    let board = Board {
        space: Space::Spheres,
        cells: triangle.clone(),
    };
    assert_eq!(board.motions().iter().filter(|g| g.rotation).count(), 6);
    let dims = [n as usize, 1, n as usize];
    for seed in 0..4 {
        let pieces = cut(&board, &mut SplitMix64::new(seed));
        let balls = definition("spheres", dims, &triangle, &pieces, false, false);
        // The same cells as hexagons (x, z) -> (x, y): the steps in the plane are the same.
        let flat =
            |cells: &[Cell]| -> Vec<Cell> { cells.iter().map(|&[x, _, z]| [x, z, 0]).collect() };
        let hexagons: Vec<Vec<Cell>> = pieces.iter().map(|p| flat(p)).collect();
        let hex = definition(
            "hexagonal",
            [n as usize, n as usize, 1],
            &flat(&triangle),
            &hexagons,
            false,
            false,
        );
        let expected = counts(&hex, &["--engine", "dlx"]);
        assert!(expected.0 >= 1);
        for engine in ["fila", "dlx"] {
            assert_eq!(
                counts(&balls, &["--engine", engine]),
                expected,
                "{engine}:\n{balls}"
            );
        }
    }
}
