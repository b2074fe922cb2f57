//! Packed spheres: the face-centred cubic lattice, as balls are stacked in a square
//! pyramid. Layer z is a square grid of balls; ball `(x, y, z)` meets `(x±1, y, z)` and
//! `(x, y±1, z)` in its layer, rests on the four balls `(x..=x+1, y..=y+1, z-1)` below it
//! and carries the four `(x-1..=x, y-1..=y, z+1)` above it: 12 neighbours. A pyramid with
//! a base of `n x n` balls is the balls with `x, y <= n - 1 - z`.
//!
//! The point group is that of the cube (48 maps): in the frame `(a, b, c) = (x + y + z,
//! x - y, z)` the balls are the integer points with `a + b + c` even, whose 12 neighbours
//! are the permutations of `(±1, ±1, 0)`, and the cube's signed permutations act on them.
//! A map of this module is such a permutation conjugated into the balls' own coordinates
//! (an integer matrix, since the permutations keep the frame's lattice).
//!
//! Pieces turn by the 24 rotations of space, so that a piece and its mirror image are
//! different pieces, except a piece whose balls lie in one plane: it turns over within
//! its plane, which is a rotation of space, so it has all 48 maps. (In a triangular layer
//! a flat piece can be turned over by a half turn that is not a map of the lattice: the
//! layers above and below are not each other's mirror image. On the flat piece alone it
//! acts as a map of the lattice that mirrors.)

use super::{coplanar, BoxMap, Geometry, Lattice, Map, Orthogonal};
use crate::geometry::Coord;

pub struct Spheres;

const STEPS: [Coord; 12] = [
    [-1, 0, 0],
    [0, -1, 0],
    [0, 0, -1],
    [1, 0, -1],
    [0, 1, -1],
    [1, 1, -1],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [-1, 0, 1],
    [0, -1, 1],
    [-1, -1, 1],
];

/// The frame: the ball `(x, y, z)` is the point `FRAME (x, y, z)` of the cube's lattice.
const FRAME: Map = Map([[1, 1, 1], [1, -1, 0], [0, 0, 1]]);
/// The adjugate of [`FRAME`]: `FRAME^-1 = ADJUGATE / DET`.
const ADJUGATE: Map = Map([[-1, -1, 1], [-1, 1, 1], [0, 0, -2]]);
const DET: i32 = -2;

/// The cube's map `o` in the balls' coordinates: `FRAME^-1 o FRAME`.
fn in_balls(o: &Orthogonal) -> Map {
    let m = ADJUGATE.after(&o.map().after(&FRAME));
    Map(m.0.map(|row| {
        row.map(|v| {
            debug_assert_eq!(v % DET, 0, "the cube's maps keep the frame's lattice");
            v / DET
        })
    }))
}

impl Geometry for Spheres {
    fn lattice(&self) -> Lattice {
        Lattice::Spheres
    }

    fn planar(&self) -> bool {
        false
    }

    /// The 24 rotations of space, or the 4 turns of a square layer (`one_side`).
    fn turns(&self, one_side: bool) -> Vec<Map> {
        let turns = if one_side {
            Orthogonal::z_rotations()
        } else {
            Orthogonal::rotations()
        };
        turns.iter().map(in_balls).collect()
    }

    fn turns_of(&self, cells: &[Coord], one_side: bool) -> Vec<Map> {
        if one_side || !coplanar(cells) {
            self.turns(one_side)
        } else {
            Orthogonal::all().iter().map(in_balls).collect()
        }
    }

    fn flat_board_turns_over(&self) -> bool {
        true
    }

    /// The cube's 48 maps; a one-sided (one layer) box only those that keep the layer,
    /// which mirror when they mirror the layer.
    fn box_maps(&self, one_side: bool) -> Vec<BoxMap> {
        Orthogonal::all()
            .into_iter()
            .filter(|t| !one_side || t.perm[2] == 2)
            .map(|t| BoxMap {
                map: in_balls(&t),
                mirrors: if one_side {
                    t.planar_det() < 0
                } else {
                    t.det() < 0
                },
            })
            .collect()
    }

    /// The reflection that swaps x and y (in the frame, b -> -b).
    fn reflection(&self) -> Map {
        Map([[0, 1, 0], [1, 0, 0], [0, 0, 1]])
    }

    fn steps(&self, _c: Coord) -> &'static [Coord] {
        &STEPS
    }

    fn direction_names(&self) -> &'static [&'static str] {
        &[
            "-x", "-y", "-z", "+x-z", "+y-z", "+x+y-z", "+x", "+y", "+z", "-x+z", "-y+z", "-x-y+z",
        ]
    }

    /// No 2-colouring exists (three balls meet pairwise); any colouring keeps the parity
    /// test sound.
    fn black(&self, c: Coord) -> bool {
        (c[0] + c[1]).rem_euclid(2) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::{orientations, tests::*};
    use super::*;

    #[test]
    fn the_cube_group_on_the_balls() {
        let all: Vec<Map> = Orthogonal::all().iter().map(in_balls).collect();
        assert_eq!(all[0], Map::IDENTITY);
        assert_eq!(Map::closure(&all).len(), 48);
        assert_eq!(Spheres.reflection().det(), -1);
        assert!(all.contains(&Spheres.reflection()));
        check_lattice(&Spheres);
        // The steps are the 12 neighbours in the frame: the permutations of (±1, ±1, 0).
        for s in STEPS {
            let f = FRAME.apply(s);
            assert_eq!(f.iter().map(|v| v * v).sum::<i32>(), 2, "{s:?}");
        }
    }

    #[test]
    fn polysphere_counts() {
        // The polyspheres of 1 to 5 balls, counted in the cube's frame by a separate
        // enumeration (every fixed polysphere, 1, 6, 50, 475, 4881, sorted into classes;
        // by hand for 3: a line, a bend at 120 degrees, a right angle, a triangle): with
        // mirror images identified 1, 1, 4, 20, 131; as pieces turn (a piece that is not
        // flat differs from its mirror image) 1, 1, 4, 25, 210.
        let all: Vec<Map> = Orthogonal::all().iter().map(in_balls).collect();
        let turned = |cells: &[Coord]| Spheres.turns_of(cells, false);
        let free: Vec<usize> = (1..=5)
            .map(|n| polyforms_by(&Spheres, n, &turned).len())
            .collect();
        let mirrored: Vec<usize> = (1..=5)
            .map(|n| polyforms(&Spheres, n, &all).len())
            .collect();
        assert_eq!(mirrored, [1, 1, 4, 20, 131]);
        assert_eq!(free, [1, 1, 4, 25, 210]);
    }

    #[test]
    fn a_flat_piece_turns_over_in_its_plane() {
        // A bend at 120 degrees lies in a triangular layer, where it turns over; under the
        // rotations of the cube alone it would have half its orientations.
        let bend = [[0, 0, 0], [1, 0, 0], [1, 0, 1]];
        assert!(coplanar(&bend));
        let rot = Spheres.turns(false);
        let all = Spheres.turns_of(&bend, false);
        assert_eq!(all.len(), 48);
        assert_eq!(orientations(&Spheres, &bend, &rot).len(), 12);
        assert_eq!(orientations(&Spheres, &bend, &all).len(), 24);
        // A tetrahedron is not flat.
        assert!(!coplanar(&[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]));
    }
}
