//! Lattices: what a cell is, which cells are its neighbours, and how the lattice maps onto
//! itself. The model and the lowering see a lattice only through [`Geometry`]; each
//! lattice is one module here (`cubic`, `hexagonal`,
//! `triangular`, `spheres`, `prisms`) with its own tests.
//!
//! A cell is a [`Coord`] in the lattice's own coordinates, chosen so that the box
//! `0 <= x < X, 0 <= y < Y, 0 <= z < Z` is the lattice's natural board (a cuboid, a
//! parallelogram of hexagons, a parallelogram of triangles) and polycube's layout (rows
//! of names, layers side by side) draws it. A point-group element is an integer matrix
//! ([`Map`]) acting on an embedding of the cells in which it is linear; translations move
//! by multiples of [`Geometry::period`] on each axis.

mod cubic;
mod hexagonal;
mod prisms;
mod spheres;
mod triangular;

pub use cubic::{Orthogonal, FACE_STEPS};
pub use runtime::Lattice;

use crate::geometry::{offset, Coord};

/// A linear map of the lattice's embedding that fixes the origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Map(pub [[i32; 3]; 3]);

impl Map {
    pub const IDENTITY: Map = Map([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);

    pub fn apply(&self, c: Coord) -> Coord {
        let m = &self.0;
        [0, 1, 2].map(|i| m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2])
    }

    /// `self` after `other`.
    pub fn after(&self, other: &Map) -> Map {
        let (a, b) = (&self.0, &other.0);
        Map([0, 1, 2].map(|i| [0, 1, 2].map(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum())))
    }

    /// +1 for a map that keeps handedness, -1 for one that mirrors.
    pub fn det(&self) -> i32 {
        let m = &self.0;
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    /// Every product of `generators`, the identity first, then in the order first reached
    /// by multiplying on the left (breadth first): a fixed order for a fixed list.
    pub fn closure(generators: &[Map]) -> Vec<Map> {
        let mut group = vec![Map::IDENTITY];
        let mut k = 0;
        while k < group.len() {
            for g in generators {
                let h = g.after(&group[k]);
                if !group.contains(&h) {
                    group.push(h);
                }
            }
            k += 1;
        }
        group
    }
}

/// A map of the box's group candidates: the map, and whether it turns pieces over in a
/// way the pieces cannot turn themselves (so that it identifies mirror-image shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxMap {
    pub map: Map,
    pub mirrors: bool,
}

/// The geometry of one lattice.
pub trait Geometry: Sync {
    fn lattice(&self) -> Lattice;

    /// Whether the lattice is a plane: the box is one layer deep and every cell has z = 0.
    fn planar(&self) -> bool;

    /// The maps pieces may be turned by: every map of the point group that keeps
    /// handedness in 3-space (free pieces), or the turns within the plane (`one_side`).
    fn turns(&self, one_side: bool) -> Vec<Map>;

    /// The maps the piece `cells` may be turned by: [`Geometry::turns`], unless the
    /// lattice lets some shapes turn in more ways (a flat piece of packed spheres turns
    /// over in its own plane).
    fn turns_of(&self, _cells: &[Coord], one_side: bool) -> Vec<Map> {
        self.turns(one_side)
    }

    /// Whether a board that lies in one plane of space turns over as a whole, every map
    /// of it acting on its cells as a rotation of space does (the map after the reflection
    /// in the board's plane), as the pieces in it do ([`Geometry::turns_of`]). So where
    /// the cells are round (packed spheres), the same after a reflection in any plane
    /// through their centres; a prism turned over in a plane that is not a mirror of the
    /// lattice is no longer a prism of it.
    fn flat_board_turns_over(&self) -> bool {
        false
    }

    /// The maps that may carry the box onto itself, identity first, each with whether it
    /// turns pieces over.
    fn box_maps(&self, one_side: bool) -> Vec<BoxMap>;

    /// A reflection, which takes a shape to its mirror image.
    fn reflection(&self) -> Map;

    /// Where map `m` sends cell `c` (about the origin).
    fn transform(&self, m: &Map, c: Coord) -> Coord {
        m.apply(c)
    }

    /// The translations are the multiples of this on each axis.
    fn period(&self) -> Coord {
        [1, 1, 1]
    }

    /// The steps from cell `c` to its neighbours, one per direction (in the order of
    /// [`Geometry::direction_names`]).
    fn steps(&self, c: Coord) -> &'static [Coord];

    /// The names of the directions, for comments in generated code and `--explain`.
    fn direction_names(&self) -> &'static [&'static str];

    /// The kind of cell `c` is: cells of one kind differ by a translation and have the
    /// same steps. Triangles are of two kinds (up and down); other lattices of one.
    fn kind(&self, _c: Coord) -> usize {
        0
    }

    /// The colour of the parity tests: a 2-colouring of the lattice where it has one
    /// (cubes, triangles); on the hexagonal lattice any colouring keeps the test sound
    /// but weaker (it has no 2-colouring: three hexagons meet at each corner).
    fn black(&self, c: Coord) -> bool {
        (c[0] + c[1] + c[2]).rem_euclid(2) == 0
    }

    /// The positions of a box with sides `dims` in fill order: along its shortest line
    /// of neighbouring cells first, as Fletcher scanned.
    fn fill_order(&self, dims: [usize; 3]) -> Vec<Coord> {
        let mut axes = [0usize, 1, 2];
        axes.sort_by_key(|&a| (dims[a], a));
        let mut cells = Vec::with_capacity(dims.iter().product());
        for outer in 0..dims[axes[2]] {
            for middle in 0..dims[axes[1]] {
                for inner in 0..dims[axes[0]] {
                    let mut c = [0i32; 3];
                    c[axes[2]] = outer as i32;
                    c[axes[1]] = middle as i32;
                    c[axes[0]] = inner as i32;
                    cells.push(c);
                }
            }
        }
        cells
    }
}

/// The geometry of `lattice`.
pub fn geometry(lattice: Lattice) -> &'static dyn Geometry {
    match lattice {
        Lattice::Cubic => &cubic::Cubic,
        Lattice::Hexagonal => &hexagonal::Hexagonal,
        Lattice::Triangular => &triangular::Triangular,
        Lattice::Spheres => &spheres::Spheres,
        Lattice::Prisms => &prisms::Prisms,
    }
}

/// The neighbours of `c`, in the order of the directions.
pub fn neighbours(g: &dyn Geometry, c: Coord) -> impl Iterator<Item = Coord> {
    g.steps(c).iter().map(move |&s| offset(c, s))
}

/// The translation that takes `cells` to their normal position: the least multiple of
/// the period on each axis that brings them nearest to 0 without going below.
pub fn normalizing_shift(g: &dyn Geometry, cells: &[Coord]) -> Coord {
    let period = g.period();
    let mut min = [i32::MAX; 3];
    for c in cells {
        for i in 0..3 {
            min[i] = min[i].min(c[i]);
        }
    }
    [0, 1, 2].map(|i| {
        if min[i] == i32::MAX {
            0
        } else {
            -min[i].div_euclid(period[i]) * period[i]
        }
    })
}

/// `cells` translated to their normal position, sorted: one representative for every
/// translate of a shape.
pub fn normalize(g: &dyn Geometry, cells: &[Coord]) -> Vec<Coord> {
    let shift = normalizing_shift(g, cells);
    let mut out: Vec<Coord> = cells.iter().map(|&c| offset(c, shift)).collect();
    out.sort_unstable();
    out
}

/// The distinct orientations of a shape under `maps`, each normalized, in the order first met.
pub fn orientations(g: &dyn Geometry, cells: &[Coord], maps: &[Map]) -> Vec<Vec<Coord>> {
    let mut out: Vec<Vec<Coord>> = Vec::new();
    for m in maps {
        let turned: Vec<Coord> = cells.iter().map(|&c| g.transform(m, c)).collect();
        let n = normalize(g, &turned);
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// A name for a shape's congruence class under `maps`: its least orientation.
pub fn canonical(g: &dyn Geometry, cells: &[Coord], maps: &[Map]) -> Vec<Coord> {
    orientations(g, cells, maps)
        .into_iter()
        .min()
        .unwrap_or_default()
}

/// Whether `cells` lie in one plane of space. Meant for the lattices whose coordinates
/// are a linear image of space (the three-dimensional ones), where a plane of cells is a
/// plane of coordinates.
pub fn coplanar(cells: &[Coord]) -> bool {
    let Some(&o) = cells.first() else {
        return true;
    };
    let d: Vec<[i64; 3]> = cells
        .iter()
        .map(|c| [0, 1, 2].map(|i| i64::from(c[i] - o[i])))
        .collect();
    let cross = |u: &[i64; 3], v: &[i64; 3]| {
        [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ]
    };
    // The normal of the first two independent differences; every difference must be
    // perpendicular to it.
    for (i, u) in d.iter().enumerate() {
        for v in &d[i + 1..] {
            let n = cross(u, v);
            if n != [0; 3] {
                return d
                    .iter()
                    .all(|w| n[0] * w[0] + n[1] * w[1] + n[2] * w[2] == 0);
            }
        }
    }
    true
}

/// The mirror image of `cells`.
pub fn mirror(g: &dyn Geometry, cells: &[Coord]) -> Vec<Coord> {
    let r = g.reflection();
    cells.iter().map(|&c| g.transform(&r, c)).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every polyform of `size` cells up to translation and `maps` (grown cell by cell
    /// from the cells of every kind at the origin), each by its canonical form.
    pub fn polyforms(g: &dyn Geometry, size: usize, maps: &[Map]) -> BTreeSet<Vec<Coord>> {
        polyforms_by(g, size, &|_| maps.to_vec())
    }

    /// [`polyforms`] where the maps depend on the shape.
    pub fn polyforms_by(
        g: &dyn Geometry,
        size: usize,
        maps: &dyn Fn(&[Coord]) -> Vec<Map>,
    ) -> BTreeSet<Vec<Coord>> {
        // A single triangle pointing down is one pointing up, turned.
        let seeds = BTreeSet::from([canonical(g, &[[0, 0, 0]], &maps(&[[0, 0, 0]]))]);
        let mut level = seeds;
        for _ in 1..size {
            let mut next = BTreeSet::new();
            // Grown from each shape and its mirror image: where the maps depend on the
            // shape, a class's representative may be the mirror image of a part of
            // some larger shape.
            for shape in level.iter().flat_map(|s| [s.clone(), mirror(g, s)]) {
                for &c in &shape {
                    for n in neighbours(g, c) {
                        if g.planar() && n[2] != 0 || shape.contains(&n) {
                            continue;
                        }
                        let mut grown = shape.clone();
                        grown.push(n);
                        next.insert(canonical(g, &grown, &maps(&grown)));
                    }
                }
            }
            level = next;
        }
        level
    }

    /// The laws every lattice obeys: the point group maps neighbours to neighbours, the
    /// neighbour relation is symmetric, and kinds are kept by translations.
    pub fn check_lattice(g: &dyn Geometry) {
        let all: Vec<Map> = g.box_maps(false).iter().map(|b| b.map).collect();
        assert_eq!(all[0], Map::IDENTITY);
        let span = if g.planar() { 0 } else { 3 };
        for x in -3..=3 {
            for y in -3..=3 {
                for z in -span..=span {
                    let c = [x, y, z];
                    assert_eq!(g.steps(c).len(), g.direction_names().len());
                    for n in neighbours(g, c) {
                        assert!(neighbours(g, n).any(|m| m == c), "{c:?} {n:?}");
                        for m in &all {
                            let (a, b) = (g.transform(m, c), g.transform(m, n));
                            assert!(neighbours(g, a).any(|d| d == b), "{m:?} {c:?} {n:?}");
                        }
                    }
                    let p = g.period();
                    assert_eq!(g.kind(c), g.kind(offset(c, p)));
                    assert_eq!(g.steps(c), g.steps(offset(c, p)));
                }
            }
        }
        // The turns pieces may make are among the maps the box may make.
        for t in g.turns(true).iter().chain(&g.turns(false)) {
            assert!(all.contains(t), "{t:?}");
        }
    }
}
