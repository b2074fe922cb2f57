//! The cubic lattice, polycube's own: cubes meeting at faces, the 48 signed permutations
//! of the axes. A box one cell deep is the square lattice, whose pieces turn over by a
//! rotation of space, as in polycube.

use super::{BoxMap, Geometry, Lattice, Map};
use crate::geometry::Coord;

/// An orthogonal map of the cubic lattice onto itself that fixes the origin:
/// a permutation of the axes with a sign on each. `apply(c)[i] = ±c[perm[i]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Orthogonal {
    pub perm: [usize; 3],
    pub negate: [bool; 3],
}

const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

impl Orthogonal {
    pub const IDENTITY: Orthogonal = Orthogonal {
        perm: [0, 1, 2],
        negate: [false; 3],
    };

    /// All 48 maps, the identity first, in a fixed order.
    pub fn all() -> Vec<Orthogonal> {
        let mut out = Vec::with_capacity(48);
        for perm in PERMUTATIONS {
            for signs in 0..8u8 {
                let negate = [signs & 1 != 0, signs & 2 != 0, signs & 4 != 0];
                out.push(Orthogonal { perm, negate });
            }
        }
        out
    }

    /// The 24 proper rotations of 3-space.
    pub fn rotations() -> Vec<Orthogonal> {
        Self::all().into_iter().filter(|o| o.det() == 1).collect()
    }

    /// The 4 rotations about the z axis (pieces that may not be turned over).
    pub fn z_rotations() -> Vec<Orthogonal> {
        Self::rotations()
            .into_iter()
            .filter(|o| o.perm[2] == 2 && !o.negate[2])
            .collect()
    }

    /// The determinant, +1 for a rotation and -1 for a map that mirrors.
    pub fn det(&self) -> i32 {
        self.map().det()
    }

    /// The determinant of the map restricted to the xy plane, for maps that keep the z axis.
    pub fn planar_det(&self) -> i32 {
        let parity = if self.perm[0] == 0 { 1 } else { -1 };
        self.negate[..2]
            .iter()
            .fold(parity, |d, &n| if n { -d } else { d })
    }

    /// The map as a matrix.
    pub fn map(&self) -> Map {
        let mut m = [[0; 3]; 3];
        for i in 0..3 {
            m[i][self.perm[i]] = if self.negate[i] { -1 } else { 1 };
        }
        Map(m)
    }
}

/// The six steps from a cell to its face neighbours, in the order of the ILSI bits of
/// the FILA article: -x, -y, -z, +x, +y, +z.
pub const FACE_STEPS: [Coord; 6] = [
    [-1, 0, 0],
    [0, -1, 0],
    [0, 0, -1],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
];

pub struct Cubic;

impl Geometry for Cubic {
    fn lattice(&self) -> Lattice {
        Lattice::Cubic
    }

    fn planar(&self) -> bool {
        false
    }

    fn turns(&self, one_side: bool) -> Vec<Map> {
        let turns = if one_side {
            Orthogonal::z_rotations()
        } else {
            Orthogonal::rotations()
        };
        turns.iter().map(Orthogonal::map).collect()
    }

    /// All 48 maps; a one-sided (flat) box only those that keep the z axis, which mirror
    /// when they mirror the plane.
    fn box_maps(&self, one_side: bool) -> Vec<BoxMap> {
        Orthogonal::all()
            .into_iter()
            .filter(|t| !one_side || t.perm[2] == 2)
            .map(|t| BoxMap {
                map: t.map(),
                mirrors: if one_side {
                    t.planar_det() < 0
                } else {
                    t.det() < 0
                },
            })
            .collect()
    }

    fn reflection(&self) -> Map {
        Map([[-1, 0, 0], [0, 1, 0], [0, 0, 1]])
    }

    fn steps(&self, _c: Coord) -> &'static [Coord] {
        &FACE_STEPS
    }

    fn direction_names(&self) -> &'static [&'static str] {
        &["-x", "-y", "-z", "+x", "+y", "+z"]
    }
}

#[cfg(test)]
mod tests {
    use super::super::{canonical, mirror, orientations, tests::*};
    use super::*;

    #[test]
    fn group_sizes() {
        assert_eq!(Orthogonal::all().len(), 48);
        assert_eq!(Orthogonal::rotations().len(), 24);
        assert_eq!(Orthogonal::z_rotations().len(), 4);
        assert_eq!(Orthogonal::all()[0], Orthogonal::IDENTITY);
        check_lattice(&Cubic);
    }

    #[test]
    fn rotations_preserve_handedness() {
        // A chiral tetracube (one of the Soma twist pieces) is not congruent to its mirror
        // under rotations, but is under all 48 maps.
        let a = vec![[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]];
        let rot = Cubic.turns(false);
        let all: Vec<Map> = Orthogonal::all().iter().map(Orthogonal::map).collect();
        assert_ne!(
            canonical(&Cubic, &a, &rot),
            canonical(&Cubic, &mirror(&Cubic, &a), &rot)
        );
        assert_eq!(
            canonical(&Cubic, &a, &all),
            canonical(&Cubic, &mirror(&Cubic, &a), &all)
        );
    }

    #[test]
    fn pentomino_orientation_counts() {
        let x = vec![[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]];
        let f = vec![[1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 2, 0], [2, 2, 0]];
        let rot = Cubic.turns(false);
        let flat = Cubic.turns(true);
        // In 3-space a flat piece lies in one of three planes: X has one orientation in
        // each, F eight (it turns over within its plane).
        assert_eq!(orientations(&Cubic, &x, &rot).len(), 3);
        assert_eq!(orientations(&Cubic, &f, &rot).len(), 24);
        assert_eq!(orientations(&Cubic, &x, &flat).len(), 1);
        assert_eq!(orientations(&Cubic, &f, &flat).len(), 4);
    }

    #[test]
    fn polycube_counts() {
        // Free polycubes (rotations only: mirror images differ), OEIS A000162: 1, 1, 2, 8, 29.
        let rot = Cubic.turns(false);
        let counts: Vec<usize> = (1..=5).map(|n| polyforms(&Cubic, n, &rot).len()).collect();
        assert_eq!(counts, [1, 1, 2, 8, 29]);
    }
}
