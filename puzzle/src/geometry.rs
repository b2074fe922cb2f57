//! Lattice geometry: the 48 signed permutations of the axes, shapes up to translation,
//! and the box: how its positions are numbered and which of them are face neighbours.

/// A lattice point `[x, y, z]`.
pub type Coord = [i32; 3];

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
        let parity = match self.perm {
            [0, 1, 2] | [1, 2, 0] | [2, 0, 1] => 1,
            _ => -1,
        };
        self.negate
            .iter()
            .fold(parity, |d, &n| if n { -d } else { d })
    }

    /// The determinant of the map restricted to the xy plane, for maps that keep the z axis.
    pub fn planar_det(&self) -> i32 {
        let parity = if self.perm[0] == 0 { 1 } else { -1 };
        self.negate[..2]
            .iter()
            .fold(parity, |d, &n| if n { -d } else { d })
    }

    pub fn apply(&self, c: Coord) -> Coord {
        let mut out = [0; 3];
        for i in 0..3 {
            let v = c[self.perm[i]];
            out[i] = if self.negate[i] { -v } else { v };
        }
        out
    }

    /// Maps a cell of a box with sides `dims` to the box with sides `dims` permuted by
    /// this map, reflecting within the box rather than about the origin.
    pub fn apply_in_box(&self, c: Coord, dims: [usize; 3]) -> Coord {
        let mut out = [0; 3];
        for i in 0..3 {
            let v = c[self.perm[i]];
            out[i] = if self.negate[i] {
                dims[self.perm[i]] as i32 - 1 - v
            } else {
                v
            };
        }
        out
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

/// `c` moved by `step`.
pub fn offset(c: Coord, step: Coord) -> Coord {
    [c[0] + step[0], c[1] + step[1], c[2] + step[2]]
}

/// The positions of a box with sides `dims`, numbered `x + X*(y + Y*z)` (x fastest):
/// the layout of the model's `cell_at` and `stationary_at` and of the runtime's
/// `PuzzleInfo::grid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxGrid {
    pub dims: [usize; 3],
}

impl BoxGrid {
    pub fn new(dims: [usize; 3]) -> BoxGrid {
        BoxGrid { dims }
    }

    /// The number of positions.
    pub fn volume(&self) -> usize {
        self.dims.iter().product()
    }

    pub fn contains(&self, c: Coord) -> bool {
        (0..3).all(|i| c[i] >= 0 && (c[i] as usize) < self.dims[i])
    }

    /// The position of `c`, when it is inside the box.
    pub fn index(&self, c: Coord) -> Option<usize> {
        self.contains(c)
            .then(|| c[0] as usize + self.dims[0] * (c[1] as usize + self.dims[1] * c[2] as usize))
    }

    /// The point at position `index`: the inverse of [`BoxGrid::index`].
    pub fn coord(&self, index: usize) -> Coord {
        let [xd, yd, _] = self.dims;
        [
            (index % xd) as i32,
            (index / xd % yd) as i32,
            (index / (xd * yd)) as i32,
        ]
    }

    /// The positions of the face neighbours of `c` inside the box, in the order of
    /// [`FACE_STEPS`].
    pub fn face_neighbours(self, c: Coord) -> impl Iterator<Item = usize> {
        FACE_STEPS
            .iter()
            .filter_map(move |&step| self.index(offset(c, step)))
    }
}

/// Translates `cells` so that every coordinate's minimum is 0, and sorts them.
pub fn normalize(cells: &[Coord]) -> Vec<Coord> {
    let mut min = [i32::MAX; 3];
    for c in cells {
        for i in 0..3 {
            min[i] = min[i].min(c[i]);
        }
    }
    let mut out: Vec<Coord> = cells
        .iter()
        .map(|c| [c[0] - min[0], c[1] - min[1], c[2] - min[2]])
        .collect();
    out.sort_unstable();
    out
}

/// The distinct orientations of a shape under `maps`, each normalized, in the order first met.
pub fn orientations(cells: &[Coord], maps: &[Orthogonal]) -> Vec<Vec<Coord>> {
    let mut out: Vec<Vec<Coord>> = Vec::new();
    for m in maps {
        let turned: Vec<Coord> = cells.iter().map(|&c| m.apply(c)).collect();
        let n = normalize(&turned);
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// A name for a shape's congruence class: its least orientation.
pub fn canonical(cells: &[Coord], maps: &[Orthogonal]) -> Vec<Coord> {
    orientations(cells, maps)
        .into_iter()
        .min()
        .unwrap_or_default()
}

/// The mirror image of `cells` in the plane x = 0.
pub fn mirror(cells: &[Coord]) -> Vec<Coord> {
    cells.iter().map(|&[x, y, z]| [-x, y, z]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_sizes() {
        assert_eq!(Orthogonal::all().len(), 48);
        assert_eq!(Orthogonal::rotations().len(), 24);
        assert_eq!(Orthogonal::z_rotations().len(), 4);
        assert_eq!(Orthogonal::all()[0], Orthogonal::IDENTITY);
    }

    #[test]
    fn rotations_preserve_handedness() {
        // A chiral tetracube (one of the Soma twist pieces) is not congruent to its mirror
        // under rotations, but is under all 48 maps.
        let a = vec![[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]];
        let rot = Orthogonal::rotations();
        assert_ne!(canonical(&a, &rot), canonical(&mirror(&a), &rot));
        assert_eq!(
            canonical(&a, &Orthogonal::all()),
            canonical(&mirror(&a), &Orthogonal::all())
        );
    }

    #[test]
    fn pentomino_orientation_counts() {
        let x = vec![[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]];
        let f = vec![[1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 2, 0], [2, 2, 0]];
        let rot = Orthogonal::rotations();
        // In 3-space a flat piece lies in one of three planes: X has one orientation in
        // each, F eight (it turns over within its plane).
        assert_eq!(orientations(&x, &rot).len(), 3);
        assert_eq!(orientations(&f, &rot).len(), 24);
        assert_eq!(orientations(&x, &Orthogonal::z_rotations()).len(), 1);
        assert_eq!(orientations(&f, &Orthogonal::z_rotations()).len(), 4);
    }

    #[test]
    fn box_positions_and_face_neighbours() {
        let grid = BoxGrid::new([3, 2, 2]);
        assert_eq!(grid.volume(), 12);
        for index in 0..grid.volume() {
            assert_eq!(grid.index(grid.coord(index)), Some(index));
        }
        assert_eq!(grid.index([1, 1, 1]), Some(1 + 3 * (1 + 2)));
        for outside in [[-1, 0, 0], [3, 0, 0], [0, 2, 0], [0, 0, 2]] {
            assert_eq!(grid.index(outside), None, "{outside:?}");
        }
        // A corner has three neighbours, in the order -x -y -z +x +y +z; the middle of an
        // edge four.
        assert_eq!(
            grid.face_neighbours([0, 0, 0]).collect::<Vec<_>>(),
            [1, 3, 6]
        );
        let middle = grid.index([1, 0, 0]).unwrap();
        let around: Vec<Coord> = grid
            .face_neighbours([1, 0, 0])
            .map(|n| grid.coord(n))
            .collect();
        assert_eq!(around, [[0, 0, 0], [2, 0, 0], [1, 1, 0], [1, 0, 1]]);
        assert!(around
            .iter()
            .all(|&c| grid.face_neighbours(c).any(|n| n == middle)));
    }
}
