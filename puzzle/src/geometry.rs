//! Points and the box: how the box's positions are numbered. What the points are (cubes,
//! hexagons, triangles) and which are neighbours is the lattice's (`crate::lattice`).

/// A lattice point `[x, y, z]`.
pub type Coord = [i32; 3];

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_positions() {
        let grid = BoxGrid::new([3, 2, 2]);
        assert_eq!(grid.volume(), 12);
        for index in 0..grid.volume() {
            assert_eq!(grid.index(grid.coord(index)), Some(index));
        }
        assert_eq!(grid.index([1, 1, 1]), Some(1 + 3 * (1 + 2)));
        for outside in [[-1, 0, 0], [3, 0, 0], [0, 2, 0], [0, 0, 2]] {
            assert_eq!(grid.index(outside), None, "{outside:?}");
        }
    }
}
