//! Hexagonal prisms: layers of hexagons stacked straight up, as the lattice-puzzles paper
//! builds them. In layer z the prism `(x, y, z)` meets its six neighbours of the
//! hexagonal lattice (axial coordinates, as in `hexagonal`), and `(x, y, z±1)` above and
//! below it: 8 neighbours.
//!
//! The point group is the hexagon's 12 maps, each with or without the half turn of the
//! z axis (24 maps). Pieces turn by its 12 rotations of space: the hexagon's 6 turns, and
//! its 6 reflections, each with z reversed (a half turn about a horizontal axis). A piece
//! that lies in one layer or in one upright plane is its own mirror image under those,
//! since the reflection in its own plane is a map of the lattice.

use super::hexagonal::{point_group, REFLECTION};
use super::{BoxMap, Geometry, Lattice, Map};
use crate::geometry::Coord;

pub struct Prisms;

const STEPS: [Coord; 8] = [
    [-1, 0, 0],
    [0, -1, 0],
    [1, -1, 0],
    [0, 0, -1],
    [1, 0, 0],
    [0, 1, 0],
    [-1, 1, 0],
    [0, 0, 1],
];

/// The reversal of the z axis.
const Z_FLIP: Map = Map([[1, 0, 0], [0, 1, 0], [0, 0, -1]]);

/// The 24 maps: the hexagon's 12, then each after the reversal of z.
fn all_maps() -> Vec<Map> {
    let plane = point_group();
    let mut all = plane.clone();
    all.extend(plane.iter().map(|m| m.after(&Z_FLIP)));
    all
}

impl Geometry for Prisms {
    fn lattice(&self) -> Lattice {
        Lattice::Prisms
    }

    fn planar(&self) -> bool {
        false
    }

    /// The 12 rotations of space, or the hexagon's 6 turns (`one_side`).
    fn turns(&self, one_side: bool) -> Vec<Map> {
        all_maps()
            .into_iter()
            .filter(|m| m.det() > 0 && (!one_side || m.0[2][2] == 1))
            .collect()
    }

    /// All 24 maps; a one-layer box (`one_side`) only those that keep the layer's side,
    /// which mirror when they mirror the layer.
    fn box_maps(&self, one_side: bool) -> Vec<BoxMap> {
        all_maps()
            .into_iter()
            .filter(|m| !one_side || m.0[2][2] == 1)
            .map(|map| BoxMap {
                map,
                mirrors: map.det() < 0,
            })
            .collect()
    }

    fn reflection(&self) -> Map {
        REFLECTION
    }

    fn steps(&self, _c: Coord) -> &'static [Coord] {
        &STEPS
    }

    fn direction_names(&self) -> &'static [&'static str] {
        &["-x", "-y", "+x-y", "-z", "+x", "+y", "-x+y", "+z"]
    }

    /// No 2-colouring exists (three prisms of a layer meet pairwise); the colouring by
    /// layer and column keeps the parity test sound.
    fn black(&self, c: Coord) -> bool {
        (c[0] + c[2]).rem_euclid(2) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::*;

    #[test]
    fn the_prism_group() {
        let all = all_maps();
        assert_eq!(Map::closure(&all).len(), 24);
        assert_eq!(Prisms.turns(false).len(), 12);
        assert_eq!(Prisms.turns(true).len(), 6);
        check_lattice(&Prisms);
    }

    #[test]
    fn polyprism_counts() {
        // Polyhexes stacked in layers (polyhexprisms), counted by hand for 1 to 3 cells:
        // 1; 2 (side by side, one on the other); 3 cells: in a layer the 3 trihexes,
        // upright the straight column, the L of a column and a side step (its two
        // mirror images are one piece, the L lies in an upright mirror plane), and the
        // bent one of two upright neighbours out of line is not possible, so 5. Pieces
        // in an upright plane turn over in it, so with mirror images identified the
        // counts agree up to 3 cells.
        let free = Prisms.turns(false);
        let all: Vec<Map> = all_maps();
        let count = |maps: &[Map], n| polyforms(&Prisms, n, maps).len();
        assert_eq!(
            (1..=3).map(|n| count(&free, n)).collect::<Vec<_>>(),
            [1, 2, 5]
        );
        assert_eq!(
            (1..=3).map(|n| count(&all, n)).collect::<Vec<_>>(),
            [1, 2, 5]
        );
    }
}
