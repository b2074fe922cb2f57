//! The engine's counts judged by an independent orbit count.
//!
//! This module holds its own small model of a puzzle (a [`Spec`]): its own lattice maps,
//! its own canonical form of a shape, its own brute-force tiler and its own symmetry
//! group (all 48 signed axis permutations, filtered by brute force), sharing nothing with
//! the generator but the definition text. A solution is the partition of the open cells
//! into the mobile pieces' cell sets: a piece's shape is a function of its cells, copies
//! are interchangeable, and a map that turns pieces over sends each piece to its mirror
//! shape simply by moving its cells. Counting distinct canonical partitions counts orbits.
//!
//! Then: property tests on random small puzzles (random tilings cut into pieces, and
//! random piece sets filled up with monominoes and stationary cells), and explicit
//! puzzles whose counts can be checked by hand.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use crate::common::{options, solve_in_process, Listed};

/// A lattice point `[x, y, z]`.
pub type P = [i32; 3];

/// A solution: the mobile pieces' cell sets, each sorted, the list sorted.
pub type Sol = Vec<Vec<P>>;

/// A signed permutation of the axes: `apply(c)[i] = ±c[perm[i]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Motion {
    perm: [usize; 3],
    neg: [bool; 3],
}

impl Motion {
    /// All 48.
    pub fn all() -> Vec<Motion> {
        let mut out = Vec::new();
        for a in 0..3 {
            for b in 0..3 {
                for c in 0..3 {
                    if a == b || b == c || a == c {
                        continue;
                    }
                    for s in 0..8 {
                        out.push(Motion {
                            perm: [a, b, c],
                            neg: [s & 1 != 0, s & 2 != 0, s & 4 != 0],
                        });
                    }
                }
            }
        }
        assert_eq!(out.len(), 48);
        out
    }

    fn perm_sign(p: &[usize]) -> i32 {
        let mut sign = 1;
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                if p[i] > p[j] {
                    sign = -sign;
                }
            }
        }
        sign
    }

    /// The determinant: -1 for a map that mirrors 3-space.
    pub fn det(&self) -> i32 {
        self.neg
            .iter()
            .fold(Self::perm_sign(&self.perm), |d, &n| if n { -d } else { d })
    }

    /// For a map keeping the z axis: the determinant of its action on the xy plane.
    pub fn planar_det(&self) -> i32 {
        assert_eq!(self.perm[2], 2);
        self.neg[..2].iter().fold(
            Self::perm_sign(&self.perm[..2]),
            |d, &n| if n { -d } else { d },
        )
    }

    /// About the origin.
    pub fn apply(&self, c: P) -> P {
        let mut out = [0; 3];
        for i in 0..3 {
            out[i] = if self.neg[i] {
                -c[self.perm[i]]
            } else {
                c[self.perm[i]]
            };
        }
        out
    }

    /// Within a box with sides `dims` (which the map must preserve).
    pub fn apply_in_box(&self, c: P, dims: [i32; 3]) -> P {
        let mut out = [0; 3];
        for i in 0..3 {
            let v = c[self.perm[i]];
            out[i] = if self.neg[i] {
                dims[self.perm[i]] - 1 - v
            } else {
                v
            };
        }
        out
    }
}

/// Translates to the least corner 0 and sorts.
pub fn normalize(cells: &[P]) -> Vec<P> {
    let mut min = [i32::MAX; 3];
    for c in cells {
        for i in 0..3 {
            min[i] = min[i].min(c[i]);
        }
    }
    let mut out: Vec<P> = cells
        .iter()
        .map(|c| [c[0] - min[0], c[1] - min[1], c[2] - min[2]])
        .collect();
    out.sort_unstable();
    out
}

pub fn mirror_x(cells: &[P]) -> Vec<P> {
    cells.iter().map(|&[x, y, z]| [-x, y, z]).collect()
}

#[derive(Clone, Debug)]
pub struct PieceSpec {
    pub name: String,
    /// As written (mobile: only the shape matters; stationary: absolute cells).
    pub cells: Vec<P>,
    pub stationary: bool,
}

/// A puzzle as this module understands it.
#[derive(Clone, Debug)]
pub struct Spec {
    pub dims: [i32; 3],
    pub one_side: bool,
    pub pieces: Vec<PieceSpec>,
}

impl Spec {
    /// A spec read off one listed solution of the engine: the pieces where they lie.
    /// `stationary` names the stationary pieces.
    pub fn from_listing(
        dims: [usize; 3],
        one_side: bool,
        listed: &Listed,
        stationary: &[&str],
    ) -> Spec {
        let pieces = listed
            .iter()
            .map(|(name, cells)| PieceSpec {
                name: name.clone(),
                cells: cells.clone(),
                stationary: stationary.contains(&name.as_str()),
            })
            .collect();
        Spec {
            dims: dims.map(|d| d as i32),
            one_side,
            pieces,
        }
    }

    pub fn volume(&self) -> i32 {
        self.dims.iter().product()
    }

    /// The definition text, one `C` line per piece.
    pub fn to_text(&self) -> String {
        let [x, y, z] = self.dims;
        let mut out = format!(
            "D:xDim={x}:yDim={y}:zDim={z}{}\n",
            if self.one_side { ":oneSide" } else { "" }
        );
        for p in &self.pieces {
            let layout: Vec<String> = p
                .cells
                .iter()
                .map(|c| format!("{} {} {}", c[0], c[1], c[2]))
                .collect();
            let kind = if p.stationary { ":type=S" } else { "" };
            out.push_str(&format!(
                "C:name={}{kind}:layout={}\n",
                p.name,
                layout.join(", ")
            ));
        }
        out.push_str("~D\n");
        out
    }

    /// The maps a piece may make: the 4 turns in the plane with `oneSide`, else the 24
    /// proper rotations.
    pub fn motions(&self) -> Vec<Motion> {
        Motion::all()
            .into_iter()
            .filter(|m| m.det() == 1 && (!self.one_side || (m.perm[2] == 2 && !m.neg[2])))
            .collect()
    }

    /// The distinct orientations of `cells` under the allowed motions, normalized.
    pub fn orientations(&self, cells: &[P]) -> Vec<Vec<P>> {
        let mut out: Vec<Vec<P>> = Vec::new();
        for m in self.motions() {
            let o = normalize(&cells.iter().map(|&c| m.apply(c)).collect::<Vec<_>>());
            if !out.contains(&o) {
                out.push(o);
            }
        }
        out
    }

    /// The name of a shape's congruence class under the allowed motions.
    pub fn shape_key(&self, cells: &[P]) -> Vec<P> {
        self.orientations(cells).into_iter().min().unwrap()
    }

    pub fn is_chiral(&self, cells: &[P]) -> bool {
        self.shape_key(cells) != self.shape_key(&mirror_x(cells))
    }

    /// The mobile shapes with their numbers of copies.
    pub fn shape_counts(&self) -> BTreeMap<Vec<P>, usize> {
        let mut m = BTreeMap::new();
        for p in self.pieces.iter().filter(|p| !p.stationary) {
            *m.entry(self.shape_key(&p.cells)).or_insert(0) += 1;
        }
        m
    }

    /// Whether every shape's mirror image is a shape with the same number of copies.
    pub fn mirror_closed(&self) -> bool {
        let counts = self.shape_counts();
        counts
            .iter()
            .all(|(k, &n)| counts.get(&self.shape_key(&mirror_x(k))) == Some(&n))
    }

    pub fn stationary_cells(&self) -> BTreeSet<P> {
        self.pieces
            .iter()
            .filter(|p| p.stationary)
            .flat_map(|p| p.cells.iter().copied())
            .collect()
    }

    /// Whether a group element turns pieces over (and so swaps chiral shapes).
    fn improper(&self, m: &Motion) -> bool {
        if self.one_side {
            m.planar_det() < 0
        } else {
            m.det() < 0
        }
    }

    /// The symmetry group, by brute force over all 48 maps: those that map the box and
    /// its stationary pieces onto themselves, the set of their cell sets (each piece onto
    /// one, as polycube has it: no piece of another shape takes a stationary piece's
    /// place), keeping the z axis with `oneSide`; the maps
    /// that turn pieces over only when the piece set is closed under mirroring and either
    /// `oneSide` or `mirror` (`--mirror`) is set. Maps that act alike on the box are kept
    /// once.
    pub fn group(&self, mirror: bool) -> Vec<Motion> {
        let allow_improper = self.mirror_closed() && (self.one_side || mirror);
        let sorted = |cells: Vec<P>| -> Vec<P> {
            let mut cells = cells;
            cells.sort_unstable();
            cells
        };
        let stationary: BTreeSet<Vec<P>> = self
            .pieces
            .iter()
            .filter(|p| p.stationary)
            .map(|p| sorted(p.cells.clone()))
            .collect();
        let box_cells = self.box_cells();
        let mut out: Vec<Motion> = Vec::new();
        let mut actions: BTreeSet<Vec<P>> = BTreeSet::new();
        for m in Motion::all() {
            if (0..3).any(|i| self.dims[m.perm[i]] != self.dims[i]) {
                continue;
            }
            if self.one_side && m.perm[2] != 2 {
                continue;
            }
            if self.improper(&m) && !allow_improper {
                continue;
            }
            let moved: BTreeSet<Vec<P>> = stationary
                .iter()
                .map(|cells| {
                    sorted(
                        cells
                            .iter()
                            .map(|&c| m.apply_in_box(c, self.dims))
                            .collect(),
                    )
                })
                .collect();
            if moved != stationary {
                continue;
            }
            let action: Vec<P> = box_cells
                .iter()
                .map(|&c| m.apply_in_box(c, self.dims))
                .collect();
            if actions.insert(action) {
                out.push(m);
            }
        }
        out
    }

    pub fn box_cells(&self) -> Vec<P> {
        let mut out = Vec::new();
        for z in 0..self.dims[2] {
            for y in 0..self.dims[1] {
                for x in 0..self.dims[0] {
                    out.push([x, y, z]);
                }
            }
        }
        out
    }

    /// Every solution, by brute force: fill the first open cell in scan order with every
    /// placement of every shape still available. `None` when there are more than `cap`.
    pub fn enumerate(&self, cap: usize) -> Option<BTreeSet<Sol>> {
        let mut shapes: Vec<(Vec<Vec<P>>, usize)> = Vec::new();
        let mut keys: Vec<Vec<P>> = Vec::new();
        for p in self.pieces.iter().filter(|p| !p.stationary) {
            let k = self.shape_key(&p.cells);
            match keys.iter().position(|x| *x == k) {
                Some(s) => shapes[s].1 += 1,
                None => {
                    keys.push(k);
                    shapes.push((self.orientations(&p.cells), 1));
                }
            }
        }
        let order = self.box_cells();
        let mut filled: BTreeSet<P> = self.stationary_cells();
        let mut placed: Vec<Vec<P>> = Vec::new();
        let mut found = BTreeSet::new();
        let ok = self.fill(
            &order,
            &mut shapes,
            &mut filled,
            &mut placed,
            &mut found,
            cap,
        );
        ok.then_some(found)
    }

    fn fill(
        &self,
        order: &[P],
        shapes: &mut Vec<(Vec<Vec<P>>, usize)>,
        filled: &mut BTreeSet<P>,
        placed: &mut Vec<Vec<P>>,
        found: &mut BTreeSet<Sol>,
        cap: usize,
    ) -> bool {
        let Some(&target) = order.iter().find(|c| !filled.contains(*c)) else {
            if shapes.iter().all(|s| s.1 == 0) {
                let mut sol = placed.clone();
                sol.sort();
                found.insert(sol);
            }
            return found.len() <= cap;
        };
        let inside = |c: &P| (0..3).all(|i| c[i] >= 0 && c[i] < self.dims[i]);
        for s in 0..shapes.len() {
            if shapes[s].1 == 0 {
                continue;
            }
            for o in 0..shapes[s].0.len() {
                for a in 0..shapes[s].0[o].len() {
                    let anchor = shapes[s].0[o][a];
                    let cells: Vec<P> = shapes[s].0[o]
                        .iter()
                        .map(|c| {
                            [
                                c[0] - anchor[0] + target[0],
                                c[1] - anchor[1] + target[1],
                                c[2] - anchor[2] + target[2],
                            ]
                        })
                        .collect();
                    if !cells.iter().all(|c| inside(c) && !filled.contains(c)) {
                        continue;
                    }
                    let mut sorted = cells.clone();
                    sorted.sort_unstable();
                    filled.extend(cells.iter().copied());
                    shapes[s].1 -= 1;
                    placed.push(sorted);
                    let go_on = self.fill(order, shapes, filled, placed, found, cap);
                    placed.pop();
                    shapes[s].1 += 1;
                    for c in &cells {
                        filled.remove(c);
                    }
                    if !go_on {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The least image of `sol` under `group`.
    pub fn canonical(&self, sol: &Sol, group: &[Motion]) -> Sol {
        group
            .iter()
            .map(|g| {
                let mut moved: Sol = sol
                    .iter()
                    .map(|piece| {
                        let mut cells: Vec<P> = piece
                            .iter()
                            .map(|&c| g.apply_in_box(c, self.dims))
                            .collect();
                        cells.sort_unstable();
                        cells
                    })
                    .collect();
                moved.sort();
                moved
            })
            .min()
            .unwrap()
    }

    /// One canonical form per orbit.
    pub fn orbits<'a>(
        &self,
        sols: impl IntoIterator<Item = &'a Sol>,
        group: &[Motion],
    ) -> BTreeSet<Sol> {
        sols.into_iter().map(|s| self.canonical(s, group)).collect()
    }

    /// Checks one listed solution against the spec (the stationary pieces where they were
    /// put, every mobile piece listed under its own name with its own shape, the open
    /// cells covered) and returns it as a partition.
    pub fn solution_of(&self, listed: &Listed, context: &str) -> Sol {
        let mut sol = Sol::new();
        let names: BTreeSet<&str> = listed.keys().map(String::as_str).collect();
        let expected: BTreeSet<&str> = self.pieces.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names, expected,
            "the pieces listed are the puzzle's pieces\n{context}"
        );
        for p in &self.pieces {
            let cells = &listed[&p.name];
            if p.stationary {
                let mut want = p.cells.clone();
                want.sort_unstable();
                assert_eq!(
                    *cells, want,
                    "stationary piece {} stays put\n{context}",
                    p.name
                );
            } else {
                assert_eq!(
                    self.shape_key(cells),
                    self.shape_key(&p.cells),
                    "piece {} is listed with its own shape\n{context}",
                    p.name
                );
                sol.push(cells.clone());
            }
        }
        sol.sort();
        sol
    }
}

/// Runs the engine in-process and parses its listing.
fn engine_listing(
    spec: &Spec,
    text: &str,
    redundancy: &str,
    mirror: bool,
    unique: bool,
) -> (u64, u64, Vec<Sol>) {
    let run =
        solve_in_process(text, &options(redundancy, mirror, unique, false)).unwrap_or_else(|e| {
            panic!("-r {redundancy} mirror={mirror} unique={unique} failed: {e}\n{text}")
        });
    let dims = spec.dims.map(|d| d as usize);
    let listed = crate::common::parse_listing(&run.output, dims);
    assert_eq!(
        listed.len() as u64,
        run.solutions,
        "one block per solution\n{text}"
    );
    let sols = listed.iter().map(|l| spec.solution_of(l, text)).collect();
    (run.solutions, run.unique, sols)
}

/// The whole comparison for one puzzle: the engine's every-solution listing against the
/// brute-force tiler, and its filtered counts (`-r #`, `-r . -u`, `-r NAME`), with and
/// without `--mirror`, against the orbit counts. Returns (all, orbits under rotations,
/// orbits with --mirror) for the explicit tests.
pub fn judge(spec: &Spec, cap: usize) -> Option<(usize, usize, usize)> {
    let text = spec.to_text();
    let all = spec.enumerate(cap)?;

    // -r .: every solution, each once, each valid.
    let (n, _, listed) = engine_listing(spec, &text, ".", false, false);
    let listed_set: BTreeSet<Sol> = listed.iter().cloned().collect();
    assert_eq!(
        listed_set.len(),
        listed.len(),
        "-r . lists no solution twice\n{text}"
    );
    assert_eq!(
        listed_set, all,
        "-r . lists exactly the brute-force solutions\n{text}"
    );
    assert_eq!(n as usize, all.len(), "{text}");

    let mut counts = [0usize; 2];
    for (k, mirror) in [false, true].into_iter().enumerate() {
        let group = spec.group(mirror);
        let orbits = spec.orbits(&all, &group);
        let expected = orbits.len() as u64;
        counts[k] = orbits.len();
        let what = format!(
            "mirror={mirror} group order {} orbits {expected}\n{text}",
            group.len()
        );

        // -r #: one solution per orbit.
        let (n, u, sols) = engine_listing(spec, &text, "#", mirror, false);
        assert_eq!(n, expected, "-r # SOLUTIONS {what}");
        assert_eq!(u, expected, "-r # UNIQUE {what}");
        let canon = spec.orbits(&sols, &group);
        assert_eq!(
            canon.len(),
            sols.len(),
            "-r # lists one solution per orbit {what}"
        );
        assert_eq!(canon, orbits, "-r # meets every orbit {what}");

        // -r . -u: the post-filter.
        let (n, u, sols) = engine_listing(spec, &text, ".", mirror, true);
        assert_eq!(
            (n, u),
            (expected, expected),
            "-r . -u SOLUTIONS and UNIQUE {what}"
        );
        let canon = spec.orbits(&sols, &group);
        assert_eq!(
            canon.len(),
            sols.len(),
            "-r . -u lists one solution per orbit {what}"
        );
        assert_eq!(canon, orbits, "-r . -u meets every orbit {what}");

        // -r .: UNIQUE counts the orbits.
        let run = solve_in_process(&text, &options(".", mirror, false, true)).unwrap();
        assert_eq!(
            (run.solutions, run.unique),
            (all.len() as u64, expected),
            "-r . SOLUTIONS and UNIQUE {what}"
        );
    }

    // -r NAME under rotations: a piece can carry the filter when it is uniquely shaped and
    // the group turns no piece over, or the piece is its own mirror image.
    let group = spec.group(false);
    let turns_over = group.iter().any(|g| spec.improper(g))
        && spec
            .pieces
            .iter()
            .any(|p| !p.stationary && spec.is_chiral(&p.cells));
    let shape_counts = spec.shape_counts();
    for p in &spec.pieces {
        let result = solve_in_process(&text, &options(&p.name, false, false, true));
        let usable = !p.stationary
            && shape_counts[&spec.shape_key(&p.cells)] == 1
            && !(turns_over && spec.is_chiral(&p.cells));
        match result {
            Ok(run) => {
                assert!(
                    usable,
                    "-r {} was accepted but cannot carry the filter\n{text}",
                    p.name
                );
                assert_eq!(
                    (run.solutions, run.unique),
                    (counts[0] as u64, counts[0] as u64),
                    "-r {}\n{text}",
                    p.name
                );
            }
            Err(e) => assert!(
                !usable,
                "-r {} was refused ({e}) but can carry the filter\n{text}",
                p.name
            ),
        }
    }
    Some((all.len(), counts[0], counts[1]))
}

// ---------------------------------------------------------------------------------------
// Random puzzles.

use crate::common::{Draws, SplitMix64 as Rng};

/// The boxes the random puzzles use: small enough that the brute-force tiler and the
/// debug-mode engine take milliseconds.
const BOXES: &[[i32; 3]] = &[
    [1, 1, 1],
    [2, 1, 1],
    [3, 1, 1],
    [2, 2, 1],
    [4, 1, 1],
    [3, 2, 1],
    [2, 3, 1],
    [3, 3, 1],
    [4, 2, 1],
    [2, 4, 1],
    [5, 2, 1],
    [4, 3, 1],
    [3, 4, 1],
    [4, 4, 1],
    [6, 2, 1],
    [1, 2, 2],
    [2, 1, 2],
    [1, 3, 3],
    [2, 2, 2],
    [3, 2, 2],
    [2, 3, 2],
    [2, 2, 3],
    [3, 3, 2],
];

const NEIGHBOURS: [P; 6] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Writes a mobile piece's cells as a user might: turned by a random allowed motion and
/// shifted a little, so that the engine has to recognise copies itself.
fn write_mobile(spec: &Spec, cells: &[P], rng: &mut Rng) -> Vec<P> {
    let motions = spec.motions();
    let m = motions[rng.below(motions.len())];
    let turned = normalize(&cells.iter().map(|&c| m.apply(c)).collect::<Vec<_>>());
    let shift = [
        rng.below(2) as i32,
        rng.below(2) as i32,
        if spec.one_side {
            0
        } else {
            rng.below(2) as i32
        },
    ];
    let mut out: Vec<P> = turned.iter().map(|&c| add(c, shift)).collect();
    rng.shuffle(&mut out);
    out
}

/// Splits `cells` into one or two stationary pieces (possibly disconnected).
fn stationary_pieces(cells: Vec<P>, rng: &mut Rng) -> Vec<PieceSpec> {
    if cells.is_empty() {
        return Vec::new();
    }
    let split = if cells.len() > 1 && rng.chance(2) {
        1 + rng.below(cells.len() - 1)
    } else {
        cells.len()
    };
    let mut out = vec![PieceSpec {
        name: "s0".into(),
        cells: cells[..split].to_vec(),
        stationary: true,
    }];
    if split < cells.len() {
        out.push(PieceSpec {
            name: "s1".into(),
            cells: cells[split..].to_vec(),
            stationary: true,
        });
    }
    out
}

/// A random tiling of the box (minus some stationary cells) cut into pieces of 1 to 4
/// cells grown at random, now and then one of them disconnected: at least one solution.
fn random_tiling(dims: [i32; 3], one_side: bool, seed: u64) -> Spec {
    let mut rng = Rng::new(seed);
    let mut spec = Spec {
        dims,
        one_side,
        pieces: Vec::new(),
    };
    let mut cells = spec.box_cells();
    rng.shuffle(&mut cells);
    let volume = cells.len();
    let stationary_count = if volume > 1 && rng.chance(3) {
        1 + rng.below(volume.min(4) - 1)
    } else {
        0
    };
    let stationary: Vec<P> = cells[..stationary_count].to_vec();
    let mut free: BTreeSet<P> = cells[stationary_count..].iter().copied().collect();
    let mut regions: Vec<Vec<P>> = Vec::new();
    for &start in &cells[stationary_count..] {
        if !free.remove(&start) {
            continue;
        }
        let target = 1 + rng.below(4);
        let mut region = vec![start];
        while region.len() < target {
            let frontier: Vec<P> = region
                .iter()
                .flat_map(|&c| NEIGHBOURS.iter().map(move |&d| add(c, d)))
                .filter(|c| free.contains(c))
                .collect();
            if frontier.is_empty() {
                break;
            }
            let next = frontier[rng.below(frontier.len())];
            free.remove(&next);
            region.push(next);
        }
        regions.push(region);
    }
    // Now and then a disconnected piece: two small regions taken as one.
    if regions.len() >= 2 && rng.chance(6) {
        let (a, b) = (regions.len() - 2, regions.len() - 1);
        if regions[a].len() + regions[b].len() <= 4 {
            let last = regions.pop().unwrap();
            regions.last_mut().unwrap().extend(last);
        }
    }
    for (k, region) in regions.iter().enumerate() {
        let cells = write_mobile(&spec, region, &mut rng);
        spec.pieces.push(PieceSpec {
            name: format!("p{k}"),
            cells,
            stationary: false,
        });
    }
    spec.pieces.extend(stationary_pieces(stationary, &mut rng));
    rng.shuffle(&mut spec.pieces);
    spec
}

/// A random polyomino (in the plane) or polycube of `size` cells.
fn random_shape(size: usize, planar: bool, rng: &mut Rng) -> Vec<P> {
    let mut cells = vec![[0, 0, 0]];
    while cells.len() < size {
        let c = cells[rng.below(cells.len())];
        let d = NEIGHBOURS[rng.below(if planar { 4 } else { 6 })];
        let n = add(c, d);
        if !cells.contains(&n) {
            cells.push(n);
        }
    }
    normalize(&cells)
}

/// A random set of shapes of 1 to 4 cells, each with 1 to 3 copies, sometimes closed
/// under mirroring; the rest of the box filled with monominoes and stationary cells.
pub(crate) fn random_pieces(dims: [i32; 3], one_side: bool, seed: u64) -> Spec {
    let mut rng = Rng::new(seed);
    let mut spec = Spec {
        dims,
        one_side,
        pieces: Vec::new(),
    };
    let volume = spec.volume() as usize;
    let planar = dims[2] == 1;
    let mut shapes: Vec<(Vec<P>, usize)> = Vec::new();
    // One-sided sets with chiral pieces and their mirror images are where the box's flips
    // join the group (polycube's rule): make them often, since random growth seldom does.
    let chiral_pair = one_side && volume >= 8 && rng.chance(2);
    if chiral_pair {
        let chiral = [S_TETROMINO, L_TETROMINO][rng.below(2)];
        shapes.push((chiral.to_vec(), 1));
    }
    for _ in 0..1 + rng.below(3) - usize::from(chiral_pair) {
        let size = 1 + rng.below(4.min(volume));
        shapes.push((random_shape(size, planar, &mut rng), 1 + rng.below(3)));
    }
    if chiral_pair || rng.chance(2) {
        for k in 0..shapes.len() {
            let (cells, count) = shapes[k].clone();
            let m = normalize(&mirror_x(&cells));
            let key = spec.shape_key(&m);
            if !shapes.iter().any(|(c, _)| spec.shape_key(c) == key) {
                shapes.push((m, count));
            }
        }
    }
    // Copies beyond the volume go; mirror partners go together with their shape only by
    // chance, which also makes sets that are almost, but not quite, mirror-closed.
    let mut pieces: Vec<Vec<P>> = Vec::new();
    let mut total = 0;
    for (cells, count) in &shapes {
        for _ in 0..*count {
            if total + cells.len() <= volume {
                total += cells.len();
                pieces.push(cells.clone());
            }
        }
    }
    let rest = volume - total;
    // Either a few monominoes and the rest stationary, or monominoes only (which keeps
    // the box's symmetry).
    let monominoes = if rng.chance(2) {
        rest
    } else {
        rest.min(rng.below(4))
    };
    for _ in 0..monominoes {
        pieces.push(vec![[0, 0, 0]]);
    }
    if pieces.is_empty() {
        pieces.push(vec![[0, 0, 0]]);
    }
    let stationary_count = volume - pieces.iter().map(Vec::len).sum::<usize>();
    let mut cells = spec.box_cells();
    rng.shuffle(&mut cells);
    for (k, p) in pieces.iter().enumerate() {
        let cells = write_mobile(&spec, p, &mut rng);
        spec.pieces.push(PieceSpec {
            name: format!("p{k}"),
            cells,
            stationary: false,
        });
    }
    spec.pieces.extend(stationary_pieces(
        cells[..stationary_count].to_vec(),
        &mut rng,
    ));
    rng.shuffle(&mut spec.pieces);
    spec
}

/// The twist tetracube (a Soma piece): chiral in 3-space.
const TWIST: &[P] = &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]];

/// Boxes for [`random_mirror_pairs`]: flat ones for one-sided sets, small 3D ones for
/// free pieces with the twist tetracubes.
const PAIR_BOXES: &[[i32; 3]] = &[
    [4, 2, 1],
    [2, 4, 1],
    [5, 2, 1],
    [3, 3, 1],
    [4, 3, 1],
    [3, 4, 1],
    [4, 4, 1],
    [6, 2, 1],
    [2, 2, 2],
    [3, 2, 2],
    [2, 2, 3],
];

/// A chiral piece and its mirror image (one-sided S/Z or L/J tetrominoes in a flat box,
/// the two twist tetracubes in a 3D one), sometimes another shape with its mirror image,
/// the rest monominoes: mirror-closed sets in boxes with their full symmetry, where the
/// maps that turn pieces over must swap the partners.
fn random_mirror_pairs(dims: [i32; 3], seed: u64) -> Spec {
    let mut rng = Rng::new(seed);
    let one_side = dims[2] == 1;
    let mut spec = Spec {
        dims,
        one_side,
        pieces: Vec::new(),
    };
    let volume = spec.volume() as usize;
    let chiral = if one_side {
        [S_TETROMINO, L_TETROMINO][rng.below(2)]
    } else {
        TWIST
    };
    let mut shapes = vec![chiral.to_vec()];
    if rng.chance(2) {
        shapes.push(random_shape(1 + rng.below(4), one_side, &mut rng));
    }
    let mut pieces: Vec<Vec<P>> = Vec::new();
    for cells in shapes {
        let mirrored = normalize(&mirror_x(&cells));
        let pair_size = if spec.is_chiral(&cells) {
            2 * cells.len()
        } else {
            cells.len()
        };
        if pieces.iter().map(Vec::len).sum::<usize>() + pair_size > volume {
            continue;
        }
        let chiral = spec.is_chiral(&cells);
        pieces.push(cells);
        if chiral {
            pieces.push(mirrored);
        }
    }
    let rest = volume - pieces.iter().map(Vec::len).sum::<usize>();
    pieces.extend(std::iter::repeat_n(vec![[0, 0, 0]], rest));
    for (k, p) in pieces.iter().enumerate() {
        let cells = write_mobile(&spec, p, &mut rng);
        spec.pieces.push(PieceSpec {
            name: format!("p{k}"),
            cells,
            stationary: false,
        });
    }
    rng.shuffle(&mut spec.pieces);
    spec
}

/// More solutions than this and a random case is not judged (the brute-force tiler and
/// the debug-mode listing would take too long); the cases are small enough that this is
/// rare.
const CAP: usize = 3000;

pub(crate) fn case_strategy() -> impl Strategy<Value = ([i32; 3], bool, u64)> {
    (0..BOXES.len(), any::<bool>(), any::<u64>()).prop_map(|(b, one_side, seed)| {
        let dims = BOXES[b];
        (dims, one_side && dims[2] == 1, seed)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random tilings cut into pieces: always at least one solution.
    #[test]
    fn random_tilings_count_orbits((dims, one_side, seed) in case_strategy()) {
        let spec = random_tiling(dims, one_side, seed);
        if let Some((all, _, _)) = judge(&spec, CAP) {
            prop_assert!(all >= 1, "a tiling has at least one solution\n{}", spec.to_text());
        }
    }

    /// Mirror-closed sets with chiral pieces in symmetric boxes.
    #[test]
    fn random_mirror_pairs_count_orbits(b in 0..PAIR_BOXES.len(), seed in any::<u64>()) {
        let spec = random_mirror_pairs(PAIR_BOXES[b], seed);
        prop_assert!(spec.mirror_closed());
        judge(&spec, CAP);
    }

    /// Random piece sets with copies, monominoes and stationary cells.
    #[test]
    fn random_piece_sets_count_orbits((dims, one_side, seed) in case_strategy()) {
        let spec = random_pieces(dims, one_side, seed);
        judge(&spec, CAP);
    }
}

// ---------------------------------------------------------------------------------------
// Explicit puzzles with counts checked by hand, the orbit count judging the engine too.

fn mobile(name: &str, cells: &[P]) -> PieceSpec {
    PieceSpec {
        name: name.to_string(),
        cells: cells.to_vec(),
        stationary: false,
    }
}

fn stationary(name: &str, cells: &[P]) -> PieceSpec {
    PieceSpec {
        name: name.to_string(),
        cells: cells.to_vec(),
        stationary: true,
    }
}

const MONO: &[P] = &[[0, 0, 0]];
const DOMINO: &[P] = &[[0, 0, 0], [1, 0, 0]];

/// Asserts the hand counts (every solution, up to rotations, up to rotations and
/// reflections) against both the independent count and the engine.
fn hand(spec: Spec, all: usize, rotations: usize, mirror: usize) {
    let got = judge(&spec, 100_000).expect("small");
    assert_eq!(
        got,
        (all, rotations, mirror),
        "(every solution, up to rotations, with --mirror)\n{}",
        spec.to_text()
    );
}

fn copies(name: &str, cells: &[P], n: usize) -> Vec<PieceSpec> {
    (0..n)
        .map(|k| mobile(&format!("{name}{k}"), cells))
        .collect()
}

/// Dominoes in an N x 2 box: F(N+1) tilings (F(1) = F(2) = 1). The flip top-to-bottom
/// fixes every tiling; the flip left-to-right fixes T(k)+T(k-1) of them for N = 2k and
/// T(k) for N = 2k+1, so there are (T(N) + fixed)/2 orbits; the 2x2 square also turns a
/// quarter, which makes its two tilings one.
#[test]
fn dominoes_in_two_by_n() {
    let tilings = [1, 1, 2, 3, 5, 8, 13, 21, 34, 55]; // T(0) ... T(9)
    let expected_orbits = [0, 1, 1, 2, 4, 5, 9, 12, 21, 30]; // N = 0 ... 9
    for n in 1..=9usize {
        let spec = Spec {
            dims: [n as i32, 2, 1],
            one_side: false,
            pieces: copies("d", DOMINO, n),
        };
        // Flat dominoes are their own mirror image: --mirror adds nothing.
        hand(spec, tilings[n], expected_orbits[n], expected_orbits[n]);
        // The same count when the copies are written in different orientations.
        let mut turned = copies("d", DOMINO, n);
        for (k, p) in turned.iter_mut().enumerate() {
            if k % 2 == 1 {
                p.cells = vec![[0, 0, 0], [0, 0, 1]];
            }
        }
        hand(
            Spec {
                dims: [n as i32, 2, 1],
                one_side: false,
                pieces: turned,
            },
            tilings[n],
            expected_orbits[n],
            expected_orbits[n],
        );
    }
}

#[test]
fn check_domino_orbit_formula() {
    // The table above, from the formula in the comment.
    let t = |n: usize| -> usize { [1, 1, 2, 3, 5, 8, 13, 21, 34, 55][n] };
    for n in 3..=9 {
        let fixed = if n % 2 == 0 {
            t(n / 2) + t(n / 2 - 1)
        } else {
            t(n / 2)
        };
        assert_eq!((t(n) + fixed) / 2, [0, 1, 1, 2, 4, 5, 9, 12, 21, 30][n]);
    }
}

/// Monominoes are interchangeable copies: one way to fill any region.
#[test]
fn monominoes() {
    hand(
        Spec {
            dims: [3, 3, 1],
            one_side: false,
            pieces: copies("m", MONO, 9),
        },
        1,
        1,
        1,
    );
    hand(
        Spec {
            dims: [2, 2, 2],
            one_side: false,
            pieces: copies("m", MONO, 8),
        },
        1,
        1,
        1,
    );
    hand(
        Spec {
            dims: [1, 1, 1],
            one_side: false,
            pieces: copies("m", MONO, 1),
        },
        1,
        1,
        1,
    );
    hand(
        Spec {
            dims: [3, 3, 1],
            one_side: true,
            pieces: copies("m", MONO, 9),
        },
        1,
        1,
        1,
    );
    // Around a stationary piece.
    let mut pieces = copies("m", MONO, 7);
    pieces.push(stationary("S", &[[0, 0, 0], [2, 2, 0]]));
    hand(
        Spec {
            dims: [3, 3, 1],
            one_side: false,
            pieces,
        },
        1,
        1,
        1,
    );
}

/// Stationary pieces are pieces: a symmetry takes each onto one of its own shape, as
/// polycube's does, not merely the stationary cells onto stationary cells.
#[test]
fn stationary_pieces_keep_their_places() {
    // A 3x2 box whose bottom row is a stationary monomino D at x = 0 and a stationary
    // domino Q beside it; a domino and a monomino fill the top row, the domino left or
    // right. The flip left to right keeps the bottom row's cells but would put D on
    // Q's place: no symmetry is left, and both fillings count. Likewise with D on the
    // right.
    let cases: [(&[P], &[P]); 2] = [
        (&[[0, 0, 0]], &[[1, 0, 0], [2, 0, 0]]),
        (&[[2, 0, 0]], &[[0, 0, 0], [1, 0, 0]]),
    ];
    for (d, q) in cases {
        let pieces = vec![
            stationary("D", d),
            stationary("Q", q),
            mobile("a", DOMINO),
            mobile("c", MONO),
        ];
        hand(
            Spec {
                dims: [3, 2, 1],
                one_side: false,
                pieces,
            },
            2,
            2,
            2,
        );
    }
    // Two stationary monominoes at the bottom corners of a 3x2 box: the flip swaps them,
    // a piece onto another of its shape, and keeps the puzzle; the fillings of the rest
    // (a domino and two monominoes) are 3 (domino in the top row left or right, or
    // upright in the middle column), and the flip pairs the first two.
    let mut pieces = vec![
        stationary("L", &[[0, 0, 0]]),
        stationary("R", &[[2, 0, 0]]),
        mobile("a", DOMINO),
    ];
    pieces.extend(copies("m", MONO, 2));
    hand(
        Spec {
            dims: [3, 2, 1],
            one_side: false,
            pieces,
        },
        3,
        2,
        2,
    );
    // The centre of a 4x4 box held by two stationary dominoes lying side by side: a
    // quarter turn keeps the four cells but stands the dominoes up, so only the half turn
    // and the flips along and across them keep the puzzle (four maps where a square of
    // one stationary piece keeps eight). Six dominoes fill the ring around the centre;
    // the ring's tilings are counted by the independent count, and the engine's must
    // agree with it under the smaller group.
    let mut pieces = vec![
        stationary("T", &[[1, 2, 0], [2, 2, 0]]),
        stationary("B", &[[1, 1, 0], [2, 1, 0]]),
    ];
    pieces.extend(copies("d", DOMINO, 6));
    let spec = Spec {
        dims: [4, 4, 1],
        one_side: false,
        pieces,
    };
    assert_eq!(spec.group(false).len(), 4);
    judge(&spec, 100_000).expect("small");
}

/// Dominoes and monominoes mixed.
#[test]
fn dominoes_and_monominoes() {
    // Two dominoes in 2x2: side by side either way; one quarter turn apart.
    hand(
        Spec {
            dims: [2, 2, 1],
            one_side: false,
            pieces: copies("d", DOMINO, 2),
        },
        2,
        1,
        1,
    );
    // A domino and a monomino in 3x1: the domino left or right, one flip apart.
    let mut pieces = copies("d", DOMINO, 1);
    pieces.push(mobile("m", MONO));
    hand(
        Spec {
            dims: [3, 1, 1],
            one_side: false,
            pieces,
        },
        2,
        1,
        1,
    );
    // A domino and two monominoes in 2x2: the domino on any of the four sides.
    let mut pieces = copies("d", DOMINO, 1);
    pieces.extend(copies("m", MONO, 2));
    hand(
        Spec {
            dims: [2, 2, 1],
            one_side: false,
            pieces,
        },
        4,
        1,
        1,
    );
    // Four dominoes in the 2x2x2 cube: all parallel (3 ways) or two layers crossed
    // (3 axes times 2): 9 tilings, two kinds.
    hand(
        Spec {
            dims: [2, 2, 2],
            one_side: false,
            pieces: copies("d", DOMINO, 4),
        },
        9,
        2,
        2,
    );
    // Three dominoes in 3x2: all upright, or one upright at either end with two lying:
    // 3 tilings; the ends are a flip apart.
    hand(
        Spec {
            dims: [3, 2, 1],
            one_side: false,
            pieces: copies("d", DOMINO, 3),
        },
        3,
        2,
        2,
    );
    // Two dominoes and a monomino in 5x1: the monomino at 0, 2 or 4: 3 tilings; the
    // ends are a flip apart: 2.
    let mut pieces = copies("d", DOMINO, 2);
    pieces.push(mobile("m", MONO));
    hand(
        Spec {
            dims: [5, 1, 1],
            one_side: false,
            pieces,
        },
        3,
        2,
        2,
    );
}

const S_TETROMINO: &[P] = &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]];
const L_TETROMINO: &[P] = &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]];
const J_TETROMINO: &[P] = &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]];
const L_TROMINO: &[P] = &[[0, 0, 0], [1, 0, 0], [0, 1, 0]];

/// One-sided pieces turn only in the plane.
#[test]
fn one_sided() {
    // The L tromino and a monomino in 2x2: four turns, all one up to rotation. The L
    // tromino is its own mirror image, so the set is mirror-closed and the box's flips
    // count too (they add nothing here).
    let pieces = vec![mobile("L", L_TROMINO), mobile("m", MONO)];
    hand(
        Spec {
            dims: [2, 2, 1],
            one_side: true,
            pieces,
        },
        4,
        1,
        1,
    );

    // The S tetromino and two monominoes in 3x2: one-sided, only S lying down fits, and
    // its half turn is itself: 1. Free, it also turns over into Z: 2, one flip apart.
    let pieces = || {
        vec![
            mobile("S", S_TETROMINO),
            mobile("a", MONO),
            mobile("b", MONO),
        ]
    };
    hand(
        Spec {
            dims: [3, 2, 1],
            one_side: true,
            pieces: pieces(),
        },
        1,
        1,
        1,
    );
    hand(
        Spec {
            dims: [3, 2, 1],
            one_side: false,
            pieces: pieces(),
        },
        2,
        1,
        1,
    );

    // Two L tetrominoes in 4x2: one-sided, L and L turned a half turn interlock one way
    // only (1). Free, the J way too (2), one flip apart. An L and a J never tile it.
    let two_l = || copies("L", L_TETROMINO, 2);
    hand(
        Spec {
            dims: [4, 2, 1],
            one_side: true,
            pieces: two_l(),
        },
        1,
        1,
        1,
    );
    hand(
        Spec {
            dims: [4, 2, 1],
            one_side: false,
            pieces: two_l(),
        },
        2,
        1,
        1,
    );
    let l_and_j = vec![mobile("L", L_TETROMINO), mobile("J", J_TETROMINO)];
    hand(
        Spec {
            dims: [4, 2, 1],
            one_side: true,
            pieces: l_and_j,
        },
        0,
        0,
        0,
    );
    // Two J tetrominoes: the mirror image of the two L's.
    hand(
        Spec {
            dims: [4, 2, 1],
            one_side: true,
            pieces: copies("J", J_TETROMINO, 2),
        },
        1,
        1,
        1,
    );

    // One-sided and mirror-closed: an L and a J tetromino and four monominoes in 6x2.
    // Lying down (the only way they fit), each piece has 2 turns x 4 places; L and J
    // never interlock, so they lie in columns 0-2 and 3-5: 2 x 2 x 2 = 8 solutions. The
    // group is the half turn and, the set being mirror-closed, the two flips, which
    // swap L and J. Burnside: the half turn fixes none, the left-right flip fixes 4 (J is
    // L's mirror image across the middle), the top-bottom flip none: (8+0+4+0)/4 = 3.
    // With --mirror nothing changes.
    let spec = || {
        let mut pieces = vec![mobile("L", L_TETROMINO), mobile("J", J_TETROMINO)];
        pieces.extend(copies("m", MONO, 4));
        Spec {
            dims: [6, 2, 1],
            one_side: true,
            pieces,
        }
    };
    assert_eq!(spec().group(false).len(), 4);
    hand(spec(), 8, 3, 3);
    // Without the flips (proper maps only) it would be 8/2 = 4: check that the flips
    // really are what makes it 3.
    let s = spec();
    let all = s.enumerate(100).unwrap();
    let proper: Vec<Motion> = s
        .group(false)
        .into_iter()
        .filter(|m| !s.improper(m))
        .collect();
    assert_eq!(s.orbits(&all, &proper).len(), 4);

    // Two L's (copies, one-sided: not mirror-closed) and four monominoes in 6x2. With L
    // lying as L0 (bottom row, foot up at the left) or L2 (its half turn), at columns
    // q and r: (L0, L0) and (L2, L2) only apart, {0, 3}: 1 + 1; (L0 at q, L2 at r) when
    // r - q is 1, 2 or 3 (they interlock) or q - r = 3: 3 + 2 + 1 + 1 = 7. In all 9. The
    // group is the identity and the half turn, which fixes the 3 with r = 3 - q:
    // (9 + 3)/2 = 6.
    let mut pieces = copies("L", L_TETROMINO, 2);
    pieces.extend(copies("m", MONO, 4));
    hand(
        Spec {
            dims: [6, 2, 1],
            one_side: true,
            pieces,
        },
        9,
        6,
        6,
    );
}
