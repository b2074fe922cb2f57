//! The triangular lattice (polyiamonds). Triangles lie in rows: `(x, y)` points up when
//! x is even and down when x is odd, so a row reads up, down, up, ... from the left, and
//! the box `X x Y` (X triangles in each of Y rows) is a parallelogram of rhombi when X is
//! even. Row y+1 is drawn one triangle to the right of row y: the up triangle `(2q, y+1)`
//! stands on the down triangle `(2q+1, y)`. The triangle `(x, y)` meets `(x-1, y)` and `(x+1, y)` in its row, and across its
//! horizontal side `(x+1, y-1)` below it (pointing up) or `(x-1, y+1)` above it (down).
//!
//! The lattice's maps are those of the hexagonal lattice of its corners: the triangle
//! `(2q + o, y)` is embedded as its centre, `(3q + 1 + o, 3y + 1 + o)` in thirds of the
//! axial coordinates of the corners, where the 12 maps of the hexagon act linearly.
//! Translations move by whole rhombi: 2 along x.

use super::hexagonal::{planar_box_maps, planar_turns, point_group, REFLECTION};
use super::{BoxMap, Geometry, Lattice, Map};
use crate::geometry::Coord;

pub struct Triangular;

const UP: [Coord; 3] = [[-1, 0, 0], [1, 0, 0], [1, -1, 0]];
const DOWN: [Coord; 3] = [[-1, 0, 0], [1, 0, 0], [-1, 1, 0]];

/// The centre of triangle `c`, in thirds of the corners' axial coordinates.
fn embed([x, y, z]: Coord) -> Coord {
    let (q, o) = (x.div_euclid(2), x.rem_euclid(2));
    [3 * q + 1 + o, 3 * y + 1 + o, z]
}

/// The triangle whose centre is `e` (the inverse of [`embed`] on centres).
fn unembed([a, b, z]: Coord) -> Coord {
    // A centre is (1, 1) (up) or (2, 2) (down) modulo 3.
    let o = a.rem_euclid(3) - 1;
    [
        2 * (a - 1 - o).div_euclid(3) + o,
        (b - 1 - o).div_euclid(3),
        z,
    ]
}

impl Geometry for Triangular {
    fn lattice(&self) -> Lattice {
        Lattice::Triangular
    }

    fn planar(&self) -> bool {
        true
    }

    fn turns(&self, one_side: bool) -> Vec<Map> {
        planar_turns(point_group(), one_side)
    }

    fn box_maps(&self, one_side: bool) -> Vec<BoxMap> {
        planar_box_maps(point_group(), one_side)
    }

    fn reflection(&self) -> Map {
        REFLECTION
    }

    fn transform(&self, m: &Map, c: Coord) -> Coord {
        unembed(m.apply(embed(c)))
    }

    fn period(&self) -> Coord {
        [2, 1, 1]
    }

    fn steps(&self, c: Coord) -> &'static [Coord] {
        if self.kind(c) == 0 {
            &UP
        } else {
            &DOWN
        }
    }

    fn direction_names(&self) -> &'static [&'static str] {
        &["-x", "+x", "across"]
    }

    fn kind(&self, c: Coord) -> usize {
        c[0].rem_euclid(2) as usize
    }

    /// Up and down: every neighbour of a triangle points the other way.
    fn black(&self, c: Coord) -> bool {
        self.kind(c) == 0
    }

    /// Along the shorter side of the parallelogram: rows (x fastest) when a row has at
    /// most as many rhombi as there are rows, else strips of rhombi along y (up `(2q, y)`,
    /// down `(2q+1, y)`, up `(2q, y+1)`, ...): either way each cell meets the one before.
    fn fill_order(&self, [xd, yd, zd]: [usize; 3]) -> Vec<Coord> {
        let mut cells = Vec::with_capacity(xd * yd * zd);
        let rhombi = xd.div_ceil(2);
        for z in 0..zd as i32 {
            if rhombi <= yd {
                for y in 0..yd as i32 {
                    for x in 0..xd as i32 {
                        cells.push([x, y, z]);
                    }
                }
            } else {
                for q in 0..rhombi as i32 {
                    for y in 0..yd as i32 {
                        for o in 0..2 {
                            if ((2 * q + o) as usize) < xd {
                                cells.push([2 * q + o, y, z]);
                            }
                        }
                    }
                }
            }
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::super::neighbours;
    use super::super::tests::*;
    use super::*;

    #[test]
    fn embedding_and_laws() {
        for x in -5..5 {
            for y in -5..5 {
                assert_eq!(unembed(embed([x, y, 0])), [x, y, 0]);
            }
        }
        check_lattice(&Triangular);
    }

    #[test]
    fn polyiamond_counts() {
        // Free polyiamonds, OEIS A000577: 1, 1, 1, 3, 4, 12, 24; one-sided, A006534:
        // 1, 1, 1, 4, 6, 19, 43.
        let free = Triangular.turns(false);
        let one_sided = Triangular.turns(true);
        let count = |maps: &[Map], n| polyforms(&Triangular, n, maps).len();
        assert_eq!(
            (1..=7).map(|n| count(&free, n)).collect::<Vec<_>>(),
            [1, 1, 1, 3, 4, 12, 24]
        );
        assert_eq!(
            (1..=7).map(|n| count(&one_sided, n)).collect::<Vec<_>>(),
            [1, 1, 1, 4, 6, 19, 43]
        );
    }

    #[test]
    fn the_fill_order_walks_neighbours() {
        // Both orders visit every position once, each cell next to the one before it
        // within a row or strip (but for the last strip of an odd row, up triangles only).
        for dims in [[6, 2, 1], [4, 5, 1], [5, 2, 1]] {
            let order = Triangular.fill_order(dims);
            assert_eq!(order.len(), dims[0] * dims[1]);
            let strip = dims[0].div_ceil(2) > dims[1];
            for pair in order.windows(2) {
                let starts = if strip {
                    pair[1][1] == 0 && pair[1][0] % 2 == 0 || pair[1][0] as usize == dims[0] - 1
                } else {
                    pair[1][0] == 0
                };
                assert!(
                    starts || neighbours(&Triangular, pair[0]).any(|n| n == pair[1]),
                    "{dims:?} {pair:?}"
                );
            }
        }
    }
}
