//! The puzzle model: open cells in fill order, shapes with copy counts, bounded images,
//! the symmetry group of the box, and the first stage that breaks that symmetry.
//!
//! Everything here is exact and independent of how the search is run: the generic
//! engine and the generator both start from a [`Puzzle`].

use std::collections::{BTreeMap, HashMap};

use crate::diag::Diagnostic;
use crate::geometry::{self, BoxGrid, Coord};
use crate::lattice::{self, Geometry, Lattice, Map};
use crate::limits::{Bytes, Footprint, Limits, MAX_IMAGES};
use crate::parse::PuzzleDef;

/// A cell number: the position of an open cell in fill order.
pub type Cell = u16;

/// A puzzle ready to be searched.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub name: String,
    /// The line of its `D` directive, which diagnostics about the whole puzzle name.
    pub line: usize,
    pub lattice: Lattice,
    pub dims: [usize; 3],
    pub one_side: bool,
    /// The open cells (not covered by a stationary piece) in fill order; a cell's number
    /// is its index here. The fill order scans the shortest side fastest, as Fletcher did.
    pub cells: Vec<Coord>,
    /// For each grid position `x + X*(y + Y*z)`: the open cell there, if any.
    pub cell_at: Vec<Option<Cell>>,
    /// For each grid position: the stationary piece covering it, if any.
    pub stationary_at: Vec<Option<usize>>,
    /// Every piece, mobile and stationary, in definition order.
    pub pieces: Vec<Piece>,
    /// Mobile shapes up to the allowed rotations, in order of first definition.
    pub shapes: Vec<Shape>,
    /// Every bounded image of every shape, grouped by shape.
    pub images: Vec<Image>,
    /// For each shape, the range of its images in `images`.
    pub shape_images: Vec<std::ops::Range<usize>>,
    /// Whether every shape's mirror image is a shape with the same number of copies.
    pub mirror_closed: bool,
    /// Look-up from an image's cells to its number.
    image_index: ImageIndex,
}

#[derive(Clone, Debug)]
pub struct Piece {
    pub name: String,
    /// The shape of a mobile piece; `None` for a stationary one.
    pub shape: Option<usize>,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Shape {
    /// The mobile pieces of this shape (its copies), in definition order.
    pub pieces: Vec<usize>,
    pub size: usize,
    /// The distinct orientations under the allowed rotations, normalized.
    pub orientations: Vec<Vec<Coord>>,
    /// The shape that is this one's mirror image, if the puzzle has it.
    pub mirror: Option<usize>,
}

impl Shape {
    pub fn count(&self) -> usize {
        self.pieces.len()
    }
}

/// One placement of one shape: a set of open cells, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub shape: usize,
    pub cells: Vec<Cell>,
}

/// Which transformations of a solution count as the same solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymmetryMode {
    /// Rotations of the box (and, for one-sided sets closed under mirroring, its flips).
    Rotations,
    /// Reflections too, for piece sets closed under mirroring.
    Mirror,
}

/// A symmetry of the box and its stationary pattern, acting on solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// The lattice map, followed by the translation that brings the box back onto itself.
    pub transform: Map,
    /// Where each open cell goes.
    pub cell_map: Vec<Cell>,
    /// Which shape each shape becomes: itself, or its mirror image for maps that turn
    /// pieces over in a way the pieces themselves cannot.
    pub shape_map: Vec<usize>,
}

impl Symmetry {
    pub fn mirrors(&self) -> bool {
        self.shape_map.iter().enumerate().any(|(s, &t)| s != t)
    }
}

/// How redundant solutions are kept out, as the user asked (`-r`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Redundancy {
    /// Choose a piece automatically (`-r #`).
    Auto,
    /// Constrain the named piece (`-r NAME`).
    Piece(String),
    /// Report every solution (`-r .`).
    Off,
}

/// The first placement of every search: a list of images that every solution meets
/// exactly once (the images of one piece, or the images covering one cell), cut down to
/// one per orbit of the symmetry group when a filter is active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstStage {
    pub kind: FirstKind,
    pub entries: Vec<FirstEntry>,
    /// Whether every solution must be checked against the whole group (the post-filter
    /// used when no piece can carry the symmetry breaking).
    pub full_check: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FirstKind {
    /// Every image of this piece (or one per orbit).
    Piece(usize),
    /// Every image covering this cell.
    Cell(Cell),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstEntry {
    pub image: usize,
    /// The non-identity group elements (indices into the group) that fix this image:
    /// a solution through it is kept only if no such element makes it smaller.
    pub stabiliser: Vec<usize>,
}

/// Look-up from each image's cells to its number.
/// The images by their cells (in ascending order).
type ImageIndex = HashMap<Vec<Cell>, usize, std::hash::BuildHasherDefault<runtime::fnv::Fnv1a64>>;

fn index_images(images: &[Image]) -> ImageIndex {
    images
        .iter()
        .enumerate()
        .map(|(i, im)| (im.cells.clone(), i))
        .collect()
}

/// The first shape whose mirror image is not a shape with the same number of copies.
fn unpaired_shape(shapes: &[Shape]) -> Option<usize> {
    shapes
        .iter()
        .position(|s| s.mirror.is_none_or(|m| shapes[m].count() != s.count()))
}

/// Why a requested symmetry mode or filter piece cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotApplicable(pub String);

impl Puzzle {
    /// Builds the model of one parsed puzzle. `name` is what the puzzle is called in output.
    /// A puzzle with more images than fila numbers, or that no engine could solve within
    /// the memory `limits` allow, is refused before its images are built.
    pub fn build(
        def: &PuzzleDef,
        name: &str,
        file: &str,
        limits: &Limits,
    ) -> Result<Puzzle, Vec<Diagnostic>> {
        let dims = def.dims;
        let geometry = lattice::geometry(def.lattice);
        let grid = BoxGrid::new(dims);
        let stationary_at = stationary_cells(def, &grid, file)?;
        let cells: Vec<Coord> = geometry
            .fill_order(dims)
            .into_iter()
            .filter(|&c| grid.index(c).is_some_and(|g| stationary_at[g].is_none()))
            .collect();
        let mut cell_at = vec![None; grid.volume()];
        for (i, &c) in cells.iter().enumerate() {
            if let Some(g) = grid.index(c) {
                cell_at[g] = Some(i as Cell);
            }
        }
        let (pieces, shapes) = pieces_and_shapes(def, geometry);
        let mirror_closed = unpaired_shape(&shapes).is_none();
        let period = geometry.period();
        let footprint = count_images(&shapes, period, &grid, &cell_at, cells.len(), limits)
            .map_err(|(shape, message)| {
                let first = &pieces[shapes[shape].pieces[0]];
                vec![Diagnostic::new(
                    file,
                    def.line,
                    1,
                    format!(
                        "{message}; the count passed the limit at piece '{}' (line {})",
                        first.name, first.line
                    ),
                )]
            })?;
        let (images, shape_images) = place_shapes(&shapes, period, &grid, &cell_at, &footprint);
        let image_index = index_images(&images);

        Ok(Puzzle {
            name: name.to_string(),
            line: def.line,
            lattice: def.lattice,
            dims,
            one_side: def.one_side,
            cells,
            cell_at,
            stationary_at,
            pieces,
            shapes,
            images,
            shape_images,
            mirror_closed,
            image_index,
        })
    }

    /// The size of the model as it is now (the volume filter and tails thin the images),
    /// for the memory estimates of [`crate::limits`].
    pub fn footprint(&self) -> Footprint {
        Footprint {
            cells: self.cells.len() as u64,
            images: self.images.len() as u64,
            image_cells: self.images.iter().map(|im| im.cells.len() as u64).sum(),
            pieces: self.mobile_pieces() as u64,
            shapes: self.shapes.len() as u64,
        }
    }

    /// The number of mobile pieces, which is the depth of every search.
    pub fn mobile_pieces(&self) -> usize {
        self.shapes.iter().map(Shape::count).sum()
    }

    /// The numbering of the box's positions, which `cell_at` and `stationary_at` follow.
    pub fn box_grid(&self) -> BoxGrid {
        BoxGrid::new(self.dims)
    }

    /// The puzzle's lattice: its neighbours and maps.
    pub fn geometry(&self) -> &'static dyn Geometry {
        lattice::geometry(self.lattice)
    }

    /// The open cell at `c`, if `c` is in the box and open.
    pub fn cell_of(&self, c: Coord) -> Option<Cell> {
        self.cell_at[self.box_grid().index(c)?]
    }

    /// Each open cell's neighbours among the open cells, in the order of the lattice's
    /// directions ([`Geometry::steps`]).
    pub fn neighbours(&self) -> Vec<Vec<Cell>> {
        let geometry = self.geometry();
        self.cells
            .iter()
            .map(|&c| {
                lattice::neighbours(geometry, c)
                    .filter_map(|n| self.cell_of(n))
                    .collect()
            })
            .collect()
    }

    /// Whether every mobile piece is connected. The volume filter, the volume backtrack
    /// and the isolation test judge regions of open cells by the sizes of whole pieces;
    /// a piece in parts (polycube accepts them) can fill several regions at once, so
    /// they stand aside when a piece is not connected.
    pub fn pieces_connected(&self) -> bool {
        let geometry = self.geometry();
        self.shapes.iter().all(|shape| {
            let Some(cells) = shape.orientations.first() else {
                return true;
            };
            let mut reached = vec![cells[0]];
            let mut next = 0;
            while next < reached.len() {
                let c = reached[next];
                next += 1;
                for n in lattice::neighbours(geometry, c) {
                    if cells.contains(&n) && !reached.contains(&n) {
                        reached.push(n);
                    }
                }
            }
            reached.len() == cells.len()
        })
    }

    /// polycube's volume filter (`-V`), applied once before any search: drops every image
    /// whose placement cuts off an open region (a connected set of the cells left open by
    /// the stationary pieces and the image) whose size no combination of the other mobile
    /// pieces (all of them but one copy of the image's shape) makes. Returns the number of
    /// images dropped.
    ///
    /// A symmetry of the box maps the regions around an image onto those around its image
    /// and a shape onto one of the same size and count, so it maps dropped images to
    /// dropped images: the group and the first stage stay valid.
    pub fn volume_filter(&mut self) -> usize {
        if !self.pieces_connected() {
            return 0;
        }
        let neighbours = self.neighbours();
        let total: usize = self.shapes.iter().map(|s| s.size * s.count()).sum();
        // The pieces by size, and for each size of a piece: which region sizes the other
        // pieces (all but one of that size) make. Shapes of one size share a table.
        let mut by_size: BTreeMap<usize, usize> = BTreeMap::new();
        for shape in &self.shapes {
            *by_size.entry(shape.size).or_insert(0) += shape.count();
        }
        let makes: BTreeMap<usize, Vec<bool>> = by_size
            .keys()
            .map(|&skip| {
                let mut sums = vec![false; total + 1];
                sums[0] = true;
                for (&size, &count) in &by_size {
                    for _ in 0..count - usize::from(size == skip) {
                        for v in (size..=total).rev() {
                            sums[v] |= sums[v - size];
                        }
                    }
                }
                (skip, sums)
            })
            .collect();
        let mut open = vec![true; self.cells.len()];
        let mut stack: Vec<Cell> = Vec::new();
        let keep: Vec<bool> = self
            .images
            .iter()
            .map(|image| {
                open.iter_mut().for_each(|o| *o = true);
                for &c in &image.cells {
                    open[c as usize] = false;
                }
                let mut fits = true;
                for start in 0..open.len() {
                    if !open[start] {
                        continue;
                    }
                    // Flood-fill the region of `start`, closing its cells as it goes.
                    open[start] = false;
                    stack.push(start as Cell);
                    let mut size = 0;
                    while let Some(c) = stack.pop() {
                        size += 1;
                        for &n in &neighbours[c as usize] {
                            if open[n as usize] {
                                open[n as usize] = false;
                                stack.push(n);
                            }
                        }
                    }
                    let fillable = makes
                        .get(&self.shapes[image.shape].size)
                        .and_then(|sums| sums.get(size))
                        .copied()
                        .unwrap_or(false);
                    if !fillable {
                        fits = false;
                        break;
                    }
                }
                fits
            })
            .collect();
        self.keep_images(&keep)
    }

    /// The parity filter, applied once before a FILA search: drops every image whose
    /// colour balance (black cells less white ones, by the lattice's colouring) leaves
    /// the open cells a balance that no choice of images of the other mobile pieces (all
    /// of them but one copy of the image's shape) makes, and again with the balances
    /// left, until none is dropped. Every solution's images sum to the box's balance, so
    /// none is lost. It drops images only where the box's balance is near the extreme its
    /// pieces can make (the box-in-a-diamond hexomino puzzle's is the extreme: only
    /// images with their balance the box's way are kept); elsewhere it drops nothing.
    /// Returns the number of images dropped.
    ///
    /// An image is dropped only with every image a symmetry of the box maps it to
    /// (under the largest group, with mirror images where the piece set allows them), so
    /// the group and the first stage stay valid whatever the lattice's colouring.
    pub fn parity_filter(&mut self) -> usize {
        let geometry = self.geometry();
        let colour = |c: Cell| {
            if geometry.black(self.cells[c as usize]) {
                1i64
            } else {
                -1
            }
        };
        let target: i64 = (0..self.cells.len() as Cell).map(colour).sum();
        let balance: Vec<i64> = self
            .images
            .iter()
            .map(|im| im.cells.iter().map(|&c| colour(c)).sum())
            .collect();
        let range: i64 = self
            .shapes
            .iter()
            .map(|s| (s.size * s.count()) as i64)
            .sum();
        let offset = range as usize;
        let mut keep = vec![true; self.images.len()];
        loop {
            // Each shape's balances among the images kept.
            let mut balances: Vec<Vec<i64>> = vec![Vec::new(); self.shapes.len()];
            for (i, im) in self.images.iter().enumerate() {
                if keep[i] && !balances[im.shape].contains(&balance[i]) {
                    balances[im.shape].push(balance[i]);
                }
            }
            // For each shape: the balances the other pieces make (offset by `range`).
            let makes: Vec<Vec<bool>> = (0..self.shapes.len())
                .map(|skip| {
                    let mut sums = vec![false; 2 * offset + 1];
                    sums[offset] = true;
                    for (s, shape) in self.shapes.iter().enumerate() {
                        for _ in 0..shape.count() - usize::from(s == skip) {
                            let mut next = vec![false; sums.len()];
                            for (v, _) in sums.iter().enumerate().filter(|(_, &on)| on) {
                                for &b in &balances[s] {
                                    if let Some(to) = next.get_mut((v as i64 + b) as usize) {
                                        *to = true;
                                    }
                                }
                            }
                            sums = next;
                        }
                    }
                    sums
                })
                .collect();
            let mut dropped = false;
            for (i, im) in self.images.iter().enumerate() {
                let rest = target - balance[i] + range;
                let made = (0..=2 * range).contains(&rest) && makes[im.shape][rest as usize];
                if keep[i] && !made {
                    keep[i] = false;
                    dropped = true;
                }
            }
            if !dropped {
                break;
            }
        }
        if keep.iter().all(|&k| k) {
            return 0;
        }
        // Keep an image wherever the box's symmetry maps it to one kept.
        let mode = if self.mirror_closed {
            SymmetryMode::Mirror
        } else {
            SymmetryMode::Rotations
        };
        let group = self.group(mode).unwrap_or_default();
        let closed: Vec<bool> = (0..self.images.len())
            .map(|i| {
                keep[i]
                    || group
                        .iter()
                        .any(|g| self.map_image(g, i).is_none_or(|j| keep[j]))
            })
            .collect();
        self.keep_images(&closed)
    }

    /// Keeps the images marked in `keep` (one mark an image), and returns how many were
    /// dropped.
    fn keep_images(&mut self, keep: &[bool]) -> usize {
        let before = self.images.len();
        let mut k = 0;
        self.images.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        // The images stay grouped by shape, in the same order.
        let mut start = 0;
        for (s, range) in self.shape_images.iter_mut().enumerate() {
            let len = self.images[start..]
                .iter()
                .take_while(|im| im.shape == s)
                .count();
            *range = start..start + len;
            start += len;
        }
        self.image_index = index_images(&self.images);
        before - self.images.len()
    }

    /// The puzzle left once the cells before `from` (in fill order) are filled: the open
    /// cells `from..`, numbered from 0, and the images that lie wholly among them, each
    /// with the number it has here. The pieces, shapes and copies are this puzzle's.
    ///
    /// A generated solver for a box wider than its narrower words hands its search over
    /// to the solver of such a tail once every cell before `from` is filled: every image
    /// placed after that lies in the tail.
    pub fn tail(&self, from: usize) -> (Puzzle, Vec<usize>) {
        let from = from.min(self.cells.len());
        let cells = self.cells[from..].to_vec();
        let cell_at = self
            .cell_at
            .iter()
            .map(|c| c.and_then(|c| (c as usize).checked_sub(from).map(|c| c as Cell)))
            .collect();
        let mut images = Vec::new();
        let mut numbers = Vec::new();
        let mut shape_images = Vec::new();
        for range in &self.shape_images {
            let start = images.len();
            for i in range.clone() {
                let im = &self.images[i];
                if im.cells[0] as usize >= from {
                    images.push(Image {
                        shape: im.shape,
                        cells: im.cells.iter().map(|&c| c - from as Cell).collect(),
                    });
                    numbers.push(i);
                }
            }
            shape_images.push(start..images.len());
        }
        let image_index = index_images(&images);
        let tail = Puzzle {
            name: self.name.clone(),
            line: self.line,
            lattice: self.lattice,
            dims: self.dims,
            one_side: self.one_side,
            cells,
            cell_at,
            stationary_at: self.stationary_at.clone(),
            pieces: self.pieces.clone(),
            shapes: self.shapes.clone(),
            images,
            shape_images,
            mirror_closed: self.mirror_closed,
            image_index,
        };
        (tail, numbers)
    }

    /// The image of `shape` covering exactly `cells` (sorted), if there is one.
    pub fn find_image(&self, shape: usize, cells: &[Cell]) -> Option<usize> {
        self.image_index
            .get(cells)
            .copied()
            .filter(|&i| self.images[i].shape == shape)
    }

    /// The symmetry group under `mode`, the identity first. Mirror mode is refused when
    /// the piece set is not closed under mirroring.
    pub fn group(&self, mode: SymmetryMode) -> Result<Vec<Symmetry>, NotApplicable> {
        if mode == SymmetryMode::Mirror && !self.mirror_closed {
            let missing = unpaired_shape(&self.shapes)
                .map(|s| self.pieces[self.shapes[s].pieces[0]].name.clone())
                .unwrap_or_default();
            return Err(NotApplicable(format!(
                "--mirror does not apply: the piece set is not closed under mirroring \
                 (the mirror image of piece '{missing}' is not among the pieces with the same count)"
            )));
        }
        // Maps that turn pieces over in a way they cannot turn themselves identify mirror
        // images. One-sided sets closed under mirroring admit them as polycube does; so
        // does mirror mode.
        let allow_mirroring = self.mirror_closed && (self.one_side || mode == SymmetryMode::Mirror);
        let identity_shapes: Vec<usize> = (0..self.shapes.len()).collect();
        let mirrored_shapes: Vec<usize> = self
            .shapes
            .iter()
            .enumerate()
            .map(|(s, sh)| sh.mirror.unwrap_or(s))
            .collect();
        let mut group: Vec<Symmetry> = Vec::new();
        let geometry = self.geometry();
        let grid = self.box_grid();
        // On the cubic lattice, polycube's rule: the maps of the box that keep its
        // stationary pattern, each stationary piece onto one (a piece of another shape
        // cannot take its place, nor two pieces together). On the others the box is a
        // frame for the coordinates (a hexagon is drawn in a parallelogram, with
        // stationary cells around it): the board is the region the mobile pieces fill,
        // and a symmetry is a map of that region onto itself.
        let cubic = self.lattice == Lattice::Cubic;
        let frame: Vec<Coord> = if cubic {
            (0..grid.volume()).map(|g| grid.coord(g)).collect()
        } else {
            self.cells.clone()
        };
        let home = lattice::normalizing_shift(geometry, &frame);
        // A board of free balls that lies in one plane of space turns over as a whole: on
        // its cells every map acts as a rotation of space does (the map after the
        // reflection in the board's plane), though that rotation need not be a map of the
        // lattice (a triangular layer of packed spheres). Not prisms: a board of prisms in
        // a slanting plane has mirror maps that no rotation of the pieces makes.
        let flat_board =
            geometry.flat_board_turns_over() && !self.one_side && lattice::coplanar(&self.cells);
        'maps: for candidate in geometry.box_maps(self.one_side) {
            let mirrors = candidate.mirrors && !flat_board;
            if mirrors && !allow_mirroring {
                continue;
            }
            let t = candidate.map;
            // The map takes the frame onto itself when, moved back by a translation, the
            // image of every position is in the frame (a bijection onto as many positions).
            let moved: Vec<Coord> = frame.iter().map(|&c| geometry.transform(&t, c)).collect();
            let back = lattice::normalizing_shift(geometry, &moved);
            let shift = [0, 1, 2].map(|i| back[i] - home[i]);
            if cubic
                && !(moved
                    .iter()
                    .all(|&c| grid.contains(geometry::offset(c, shift)))
                    && self
                        .keeps_stationary_pieces(|g| grid.index(geometry::offset(moved[g], shift))))
            {
                continue;
            }
            let mut cell_map = Vec::with_capacity(self.cells.len());
            for &c in &self.cells {
                let to = geometry::offset(geometry.transform(&t, c), shift);
                match self.cell_of(to) {
                    Some(d) => cell_map.push(d),
                    None => continue 'maps,
                }
            }
            let shape_map = if mirrors {
                mirrored_shapes.clone()
            } else {
                identity_shapes.clone()
            };
            let symmetry = Symmetry {
                transform: t,
                cell_map,
                shape_map,
            };
            if !group
                .iter()
                .any(|g| g.cell_map == symmetry.cell_map && g.shape_map == symmetry.shape_map)
            {
                group.push(symmetry);
            }
        }
        Ok(group)
    }

    /// Whether the map `to` of the box's positions takes every stationary piece exactly
    /// onto a stationary piece (itself or another of its shape).
    fn keeps_stationary_pieces(&self, to: impl Fn(usize) -> Option<usize>) -> bool {
        let mut size = vec![0usize; self.pieces.len()];
        for p in self.stationary_at.iter().flatten() {
            size[*p] += 1;
        }
        let mut onto: Vec<Option<usize>> = vec![None; self.pieces.len()];
        for (g, p) in self.stationary_at.iter().enumerate() {
            let Some(p) = *p else { continue };
            let Some(q) = to(g).and_then(|h| self.stationary_at[h]) else {
                return false;
            };
            if size[q] != size[p] || onto[p].is_some_and(|r| r != q) {
                return false;
            }
            onto[p] = Some(q);
        }
        true
    }

    /// Where `g` sends image `i`.
    pub fn map_image(&self, g: &Symmetry, i: usize) -> Option<usize> {
        let image = &self.images[i];
        let shape = g.shape_map[image.shape];
        let mapped = image.cells.iter().map(|&c| g.cell_map[c as usize]);
        // Pieces of up to 16 cells (all the usual ones) are mapped without an allocation:
        // this runs for every image under every symmetry.
        let mut small = [0; 16];
        if image.cells.len() <= small.len() {
            let cells = &mut small[..image.cells.len()];
            cells.iter_mut().zip(mapped).for_each(|(to, c)| *to = c);
            cells.sort_unstable();
            self.find_image(shape, cells)
        } else {
            let mut cells: Vec<Cell> = mapped.collect();
            cells.sort_unstable();
            self.find_image(shape, &cells)
        }
    }

    /// The pieces that can carry the symmetry breaking under `group`: uniquely shaped,
    /// and their own mirror image when the group turns pieces over.
    pub fn filter_candidates(&self, group: &[Symmetry]) -> Vec<usize> {
        let mirroring = group.iter().any(Symmetry::mirrors);
        self.shapes
            .iter()
            .enumerate()
            .filter(|(s, shape)| shape.count() == 1 && (!mirroring || shape.mirror == Some(*s)))
            .map(|(_, shape)| shape.pieces[0])
            .collect()
    }

    /// Checks that the named piece can carry the symmetry breaking.
    fn filter_piece(&self, name: &str, group: &[Symmetry]) -> Result<usize, NotApplicable> {
        let Some(p) = self.pieces.iter().position(|p| p.name == name) else {
            return Err(NotApplicable(format!(
                "-r {name}: there is no piece named '{name}'"
            )));
        };
        let Some(s) = self.pieces[p].shape else {
            return Err(NotApplicable(format!(
                "-r {name}: piece '{name}' is stationary"
            )));
        };
        if self.shapes[s].count() != 1 {
            return Err(NotApplicable(format!(
                "-r {name}: piece '{name}' is not uniquely shaped ({} pieces share its shape)",
                self.shapes[s].count()
            )));
        }
        if !self.filter_candidates(group).contains(&p) {
            return Err(NotApplicable(format!(
                "-r {name}: piece '{name}' is not its own mirror image, so it cannot break a symmetry that turns pieces over"
            )));
        }
        Ok(p)
    }

    /// The orbits of `group` on the images of `piece`: for each, the image it was found
    /// from (the first not yet seen, in image order) and its images under `group`, in
    /// the group's order.
    fn orbits<'a>(
        &'a self,
        piece: usize,
        group: &'a [Symmetry],
    ) -> impl Iterator<Item = (usize, Vec<usize>)> + 'a {
        let s = self.pieces[piece].shape.expect("a mobile piece");
        let range = self.shape_images[s].clone();
        let start = range.start;
        let mut seen = vec![false; range.len()];
        range.filter_map(move |i| {
            if seen[i - start] {
                return None;
            }
            let orbit: Vec<usize> = group
                .iter()
                .map(|g| {
                    self.map_image(g, i)
                        .expect("a symmetry maps images to images")
                })
                .collect();
            for &j in &orbit {
                seen[j - start] = true;
            }
            Some((i, orbit))
        })
    }

    /// The number of orbits of `group` on the images of `piece`: the images of it that
    /// [`Puzzle::orbit_representatives`] keeps, without finding them.
    fn orbit_count(&self, piece: usize, group: &[Symmetry]) -> usize {
        self.orbits(piece, group).count()
    }

    /// One image per orbit of `group` on the images of `piece` (the least, in cell order),
    /// each with its stabiliser.
    pub fn orbit_representatives(&self, piece: usize, group: &[Symmetry]) -> Vec<FirstEntry> {
        let mut entries: Vec<FirstEntry> = self
            .orbits(piece, group)
            .map(|(i, orbit)| {
                // The representative is the least image of the orbit by its cells; its
                // stabiliser is conjugate to that of `i` and is computed afresh.
                let rep = *orbit
                    .iter()
                    .min_by(|&&a, &&b| self.images[a].cells.cmp(&self.images[b].cells))
                    .expect("an orbit holds its own image");
                let stabiliser = (1..group.len())
                    .filter(|&k| {
                        if rep == i {
                            orbit[k] == i
                        } else {
                            self.map_image(&group[k], rep) == Some(rep)
                        }
                    })
                    .collect();
                FirstEntry {
                    image: rep,
                    stabiliser,
                }
            })
            .collect();
        entries.sort_by(|a, b| self.images[a.image].cells.cmp(&self.images[b.image].cells));
        entries
    }

    /// The first stage for the redundancy filter the user asked for, under `group`.
    pub fn first_stage(
        &self,
        redundancy: &Redundancy,
        group: &[Symmetry],
    ) -> Result<FirstStage, NotApplicable> {
        self.first_stage_with(redundancy, group, || self.auto_piece(group, false))
    }

    /// [`Puzzle::first_stage`] with `auto` for [`Puzzle::auto_piece`] under `group`,
    /// called only where the automatic piece is needed: what builds several stages under
    /// one group finds that piece once.
    pub fn first_stage_with(
        &self,
        redundancy: &Redundancy,
        group: &[Symmetry],
        auto: impl FnOnce() -> Option<usize>,
    ) -> Result<FirstStage, NotApplicable> {
        let piece = match redundancy {
            Redundancy::Piece(name) => Some(self.filter_piece(name, group)?),
            Redundancy::Auto | Redundancy::Off => auto(),
        };
        let all_entries = |images: Vec<usize>| -> Vec<FirstEntry> {
            images
                .into_iter()
                .map(|image| FirstEntry {
                    image,
                    stabiliser: Vec::new(),
                })
                .collect()
        };
        Ok(match (piece, redundancy) {
            (Some(p), Redundancy::Off) => FirstStage {
                kind: FirstKind::Piece(p),
                entries: all_entries(
                    self.shape_images[self.pieces[p].shape.unwrap()]
                        .clone()
                        .collect(),
                ),
                full_check: false,
            },
            (Some(p), _) => FirstStage {
                kind: FirstKind::Piece(p),
                entries: self.orbit_representatives(p, group),
                full_check: false,
            },
            (None, _) => {
                // No piece can carry the filter: start from the images covering the first
                // cell and check every solution against the whole group instead.
                let covering = (0..self.images.len())
                    .filter(|&i| self.images[i].cells.first() == Some(&0))
                    .collect();
                FirstStage {
                    kind: FirstKind::Cell(0),
                    entries: all_entries(covering),
                    full_check: *redundancy != Redundancy::Off && group.len() > 1,
                }
            }
        })
    }

    /// The piece the automatic filter constrains: the candidate with the fewest kept
    /// images (the filter piece is placed first, once per kept image, so it starts the
    /// fewest subtrees), then the one whose kept images are the smallest fraction of its
    /// images (the best at removing redundancy), then the largest piece. Measured on every
    /// file of one puzzle in `puzzles/` and `tests/puzzles/` (BENCHMARKS.md, session 28),
    /// fewest kept images first never searched longer than the fraction first: the same
    /// piece on most, and 1.09 to 4.2 times fewer placements where they differ (X rather
    /// than W in the pentomino rectangles and the one-sided 30x3, X rather than I in the
    /// 8x8 with a centre hole, O rather than T for the one-sided tetrominoes in 7x4, K
    /// rather than A for the hexiamonds in 6x6, whose best candidate, J, is 1.7 times
    /// shorter still). For a run that stops at partial solutions (`-g`, `partial`), the
    /// candidates none of whose kept images is symmetric come first: a symmetric one has
    /// its solutions checked for repeats only when complete, which such a run refuses.
    pub fn auto_piece(&self, group: &[Symmetry], partial: bool) -> Option<usize> {
        let mut best: Option<(usize, usize, usize)> = None; // (piece, kept, total)
        for p in self.filter_candidates(group) {
            let s = self.pieces[p].shape.unwrap();
            let total = self.shape_images[s].len();
            if total == 0 {
                // A piece that fits nowhere: the puzzle has no solution, and this piece
                // says so at once.
                return Some(p);
            }
            let kept = self.orbit_count(p, group);
            let better = match best {
                None => true,
                Some((q, k, t)) => {
                    let size = |piece: usize| self.shapes[self.pieces[piece].shape.unwrap()].size;
                    // For a run with a goal, every orbit whole first (no kept image
                    // symmetric: kept * |group| = total); then the fewest kept images, the
                    // fraction kept (kept / total against k / t), the larger piece.
                    let symmetric =
                        |kept: usize, total: usize| partial && kept * group.len() != total;
                    symmetric(kept, total)
                        .cmp(&symmetric(k, t))
                        .then(kept.cmp(&k))
                        .then((kept * t).cmp(&(k * total)))
                        .then(size(q).cmp(&size(p)))
                        .is_lt()
                }
            };
            if better {
                best = Some((p, kept, total));
            }
        }
        best.map(|(p, _, _)| p)
    }
}

/// The stationary piece at each position of the box (`None`: open or outside any).
fn stationary_cells(
    def: &PuzzleDef,
    grid: &BoxGrid,
    file: &str,
) -> Result<Vec<Option<usize>>, Vec<Diagnostic>> {
    let mut stationary_at = vec![None; grid.volume()];
    for (p, piece) in def.pieces.iter().enumerate() {
        if piece.stationary {
            for &c in &piece.cells {
                let free = grid.index(c).filter(|&g| stationary_at[g].is_none());
                let Some(g) = free else {
                    // The reader rejects these; a model built from other input still must not panic.
                    return Err(vec![Diagnostic::new(
                        file,
                        piece.line,
                        1,
                        format!(
                            "stationary piece '{}' is outside the box or overlaps another",
                            piece.name
                        ),
                    )]);
                };
                stationary_at[g] = Some(p);
            }
        }
    }
    Ok(stationary_at)
}

/// The pieces, and their distinct shapes up to the rotations the puzzle allows, each with
/// its orientations and its mirror image among the shapes.
fn pieces_and_shapes(def: &PuzzleDef, geometry: &dyn Geometry) -> (Vec<Piece>, Vec<Shape>) {
    let maps = |cells: &[Coord]| geometry.turns_of(cells, def.one_side);
    let mut pieces = Vec::new();
    let mut shapes: Vec<Shape> = Vec::new();
    let mut canon: Vec<Vec<Coord>> = Vec::new();
    for piece in &def.pieces {
        let shape = if piece.stationary {
            None
        } else {
            let turns = maps(&piece.cells);
            let c = lattice::canonical(geometry, &piece.cells, &turns);
            let s = match canon.iter().position(|k| *k == c) {
                Some(s) => s,
                None => {
                    canon.push(c);
                    shapes.push(Shape {
                        pieces: Vec::new(),
                        size: piece.cells.len(),
                        orientations: lattice::orientations(geometry, &piece.cells, &turns),
                        mirror: None,
                    });
                    shapes.len() - 1
                }
            };
            shapes[s].pieces.push(pieces.len());
            Some(s)
        };
        pieces.push(Piece {
            name: piece.name.clone(),
            shape,
            line: piece.line,
        });
    }
    for shape in shapes.iter_mut() {
        let mirrored = lattice::mirror(geometry, &shape.orientations[0]);
        let m = lattice::canonical(geometry, &mirrored, &maps(&mirrored));
        shape.mirror = canon.iter().position(|k| *k == m);
    }
    (pieces, shapes)
}

/// Calls `each(shape, cells)` for every image of every shape, in order: each orientation
/// at each translation (by multiples of `period`) that lies on open cells, its cells
/// ascending. Stops early when `each` returns false.
fn for_each_image(
    shapes: &[Shape],
    period: Coord,
    grid: &BoxGrid,
    cell_at: &[Option<Cell>],
    mut each: impl FnMut(usize, &[Cell]) -> bool,
) {
    let dims = grid.dims;
    let [px, py, pz] = period.map(|p| p as usize);
    let mut placed = Vec::new();
    for (s, shape) in shapes.iter().enumerate() {
        for orientation in &shape.orientations {
            let mut extent = [0i32; 3];
            for c in orientation {
                for i in 0..3 {
                    extent[i] = extent[i].max(c[i]);
                }
            }
            for tz in (0..(dims[2] as i32 - extent[2]).max(0)).step_by(pz) {
                for ty in (0..(dims[1] as i32 - extent[1]).max(0)).step_by(py) {
                    for tx in (0..(dims[0] as i32 - extent[0]).max(0)).step_by(px) {
                        placed.clear();
                        let open = orientation.iter().all(|&c| {
                            let cell = grid
                                .index(geometry::offset(c, [tx, ty, tz]))
                                .and_then(|g| cell_at[g]);
                            placed.extend(cell);
                            cell.is_some()
                        });
                        if open {
                            placed.sort_unstable();
                            if !each(s, &placed) {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Counts the images `for_each_image` would build, without building them, stopping as
/// soon as there are more than fila numbers or than any engine could solve within
/// `limits`: `Err` then gives the shape at which the count passed the limit.
fn count_images(
    shapes: &[Shape],
    period: Coord,
    grid: &BoxGrid,
    cell_at: &[Option<Cell>],
    open_cells: usize,
    limits: &Limits,
) -> Result<Footprint, (usize, String)> {
    let mut footprint = Footprint {
        cells: open_cells as u64,
        pieces: shapes.iter().map(|s| s.pieces.len() as u64).sum(),
        shapes: shapes.len() as u64,
        ..Footprint::default()
    };
    let mut over = None;
    for_each_image(shapes, period, grid, cell_at, |s, cells| {
        footprint.images += 1;
        footprint.image_cells += cells.len() as u64;
        if footprint.images > MAX_IMAGES as u64 {
            over = Some((
                s,
                format!(
                    "the pieces have more than {MAX_IMAGES} placements (images) in the box, the most fila can number"
                ),
            ));
        } else if footprint.least_run_bytes() > limits.max_memory {
            over = Some((
                s,
                format!(
                    "solving it would need more memory than the limit of {} (--max-memory): the placements (images) of the pieces have {} cells already",
                    Bytes(limits.max_memory),
                    footprint.image_cells
                ),
            ));
        }
        over.is_none()
    });
    match over {
        Some(over) => Err(over),
        None => Ok(footprint),
    }
}

/// Every image of every shape (as `for_each_image` finds them), and the range of each
/// shape's images.
fn place_shapes(
    shapes: &[Shape],
    period: Coord,
    grid: &BoxGrid,
    cell_at: &[Option<Cell>],
    footprint: &Footprint,
) -> (Vec<Image>, Vec<std::ops::Range<usize>>) {
    let mut images = Vec::with_capacity(footprint.images as usize);
    let mut shape_images = Vec::new();
    for_each_image(shapes, period, grid, cell_at, |s, cells| {
        while shape_images.len() <= s {
            shape_images.push(images.len()..images.len());
        }
        images.push(Image {
            shape: s,
            cells: cells.to_vec(),
        });
        shape_images[s].end = images.len();
        true
    });
    while shape_images.len() < shapes.len() {
        shape_images.push(images.len()..images.len());
    }
    (images, shape_images)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(text: &str) -> Puzzle {
        crate::load("test.txt", text).unwrap().remove(0)
    }

    #[test]
    fn a_symmetry_takes_each_stationary_piece_onto_one_of_its_shape() {
        let group = |stationary: &str| {
            let text = format!(
                "D:xDim=3:yDim=2:zDim=1\n{stationary}C:name=a:layout=0 0 0, 1 0 0\nC:name=c:layout=0 0 0\n~D\n"
            );
            puzzle(&text).group(SymmetryMode::Rotations).unwrap().len()
        };
        // The bottom row as one piece, or as a monomino and a domino (the flip would put
        // the monomino on the domino's place), or as three monominoes.
        let one = "C:name=S:type=S:layout=0 0 0, 1 0 0, 2 0 0\n";
        let two = "C:name=D:type=S:layout=0 0 0\nC:name=Q:type=S:layout=1 0 0, 2 0 0\n";
        let three = "L:stationary=x y z\n. . .\nx y z\n~L\n";
        assert_eq!(group(one), 2);
        assert_eq!(group(two), 1);
        assert_eq!(group(three), 2);
    }

    /// Every image of `shape` as coordinate sets, sorted.
    fn placements(p: &Puzzle, shape: usize) -> Vec<Vec<Coord>> {
        let mut out: Vec<Vec<Coord>> = p.shape_images[shape]
            .clone()
            .map(|i| {
                let mut c: Vec<Coord> = p.images[i]
                    .cells
                    .iter()
                    .map(|&c| p.cells[c as usize])
                    .collect();
                c.sort_unstable();
                c
            })
            .collect();
        out.sort();
        out
    }

    /// The model after the filter is whole: images grouped by shape in their ranges, and
    /// each found again by its cells.
    fn check_consistent(p: &Puzzle) {
        let mut next = 0;
        for (s, range) in p.shape_images.iter().enumerate() {
            assert_eq!(range.start, next);
            next = range.end;
            for i in range.clone() {
                assert_eq!(p.images[i].shape, s);
                assert_eq!(p.find_image(s, &p.images[i].cells), Some(i));
            }
        }
        assert_eq!(next, p.images.len());
        assert_eq!(p.image_index.len(), p.images.len());
    }

    #[test]
    fn open_cells_in_fill_order_with_their_neighbours() {
        // A 3x2 box with a stationary cell at (1, 0): the shortest side (y) varies fastest.
        let p = puzzle(
            "D:xDim=3:yDim=2:zDim=1\nC:name=K:type=S:layout=1 0 0\n\
             C:name=A:layout=0 0 0, 1 0 0\nC:name=B:layout=0 0 0, 1 0 0\nC:name=M:layout=0 0 0\n~D\n",
        );
        assert_eq!(
            p.cells,
            [[0, 0, 0], [0, 1, 0], [1, 1, 0], [2, 0, 0], [2, 1, 0]]
        );
        for (c, &coord) in p.cells.iter().enumerate() {
            assert_eq!(p.cell_of(coord), Some(c as Cell));
        }
        for closed in [[1, 0, 0], [-1, 0, 0], [3, 0, 0], [0, 2, 0], [0, 0, 1]] {
            assert_eq!(p.cell_of(closed), None, "{closed:?}");
        }
        let stationary = p.box_grid().index([1, 0, 0]).unwrap();
        assert_eq!(p.stationary_at[stationary], Some(0));
        // Face neighbours among the open cells, in the order -x -y -z +x +y +z; the
        // stationary cell is no one's neighbour.
        let neighbours = p.neighbours();
        assert_eq!(
            neighbours,
            [vec![1], vec![0, 2], vec![1, 4], vec![4], vec![2, 3]]
        );
    }

    #[test]
    fn a_tail_keeps_the_images_among_its_cells_renumbered() {
        // Two dominoes and a straight tromino in a 7x1 strip (cells 0..7).
        let p = puzzle(
            "D:xDim=7:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\nC:name=B:layout=0 0 0, 1 0 0\nC:name=I:layout=0 0 0, 1 0 0, 2 0 0\n~D\n",
        );
        let (tail, numbers) = p.tail(2);
        check_consistent(&tail);
        assert_eq!(tail.cells, p.cells[2..].to_vec());
        assert_eq!(tail.shapes.len(), p.shapes.len());
        // Every image of the strip lying in cells 2..7, and no other, with cells - 2.
        let expected: Vec<usize> = (0..p.images.len())
            .filter(|&i| p.images[i].cells[0] >= 2)
            .collect();
        assert_eq!(numbers, expected);
        for (t, &i) in numbers.iter().enumerate() {
            assert_eq!(tail.images[t].shape, p.images[i].shape);
            let shifted: Vec<Cell> = p.images[i].cells.iter().map(|&c| c - 2).collect();
            assert_eq!(tail.images[t].cells, shifted);
        }
        // A grid position before the tail is no cell of it.
        assert_eq!(tail.cell_at[0], None);
        assert_eq!(tail.cell_at[2], Some(0));
    }

    #[test]
    fn an_l_that_cuts_off_a_corner_is_dropped() {
        // Three trominoes in a 3x3 box: an L covering the three cells around a corner
        // leaves that corner alone, and no tromino fills one cell. Nothing else cuts off
        // a region that is not a multiple of 3 (a straight tromino in the middle column
        // leaves two columns of 3).
        let mut p = puzzle(
            "D:xDim=3:yDim=3:zDim=1\n\
             C:name=L:layout=0 0 0, 1 0 0, 0 1 0\n\
             C:name=I:layout=0 0 0, 1 0 0, 2 0 0\n\
             C:name=J:layout=0 0 0, 1 0 0, 2 0 0\n\
             ~D\n",
        );
        let before_l = placements(&p, 0);
        let before_i = placements(&p, 1);
        assert_eq!((before_l.len(), before_i.len()), (16, 6));
        assert_eq!(p.volume_filter(), 4);
        check_consistent(&p);
        let cutting: Vec<Vec<Coord>> = vec![
            vec![[0, 1, 0], [1, 0, 0], [1, 1, 0]],
            vec![[0, 1, 0], [1, 1, 0], [1, 2, 0]],
            vec![[1, 0, 0], [1, 1, 0], [2, 1, 0]],
            vec![[1, 1, 0], [1, 2, 0], [2, 1, 0]],
        ];
        let expected: Vec<Vec<Coord>> = before_l
            .into_iter()
            .filter(|c| !cutting.contains(c))
            .collect();
        assert_eq!(placements(&p, 0), expected);
        assert_eq!(placements(&p, 1), before_i);
        // Filtering again drops nothing more.
        assert_eq!(p.volume_filter(), 0);
    }

    #[test]
    fn the_image_own_copy_does_not_count() {
        // A monomino and a domino in a row of 3: the monomino in the middle leaves two
        // single cells, and only the domino is left to fill them. Every other image leaves
        // one region the other piece fills.
        let mut p = puzzle(
            "D:xDim=3:yDim=1:zDim=1\n\
             C:name=M:layout=0 0 0\n\
             C:name=D:layout=0 0 0, 1 0 0\n\
             ~D\n",
        );
        assert_eq!(p.volume_filter(), 1);
        check_consistent(&p);
        assert_eq!(placements(&p, 0), vec![vec![[0, 0, 0]], vec![[2, 0, 0]]]);
        assert_eq!(placements(&p, 1).len(), 2);
        // With three monominoes every region is a number of monominoes: nothing goes.
        let mut p = puzzle(
            "D:xDim=3:yDim=1:zDim=1\n\
             C:name=M:layout=0 0 0\n\
             C:name=N:layout=0 0 0\n\
             C:name=O:layout=0 0 0\n\
             ~D\n",
        );
        assert_eq!(p.volume_filter(), 0);
    }

    #[test]
    fn copies_of_a_shape_see_one_another() {
        // Two L trominoes in a 2x3 box: an L in one 2x2 end leaves its fourth cell and the
        // other end's two cells; that is one region of 3 when the fourth cell touches them,
        // else regions of 1 and 2, which the other L cannot fill. 4 of the 8 images go.
        let mut p = puzzle(
            "D:xDim=2:yDim=3:zDim=1\n\
             C:name=L:layout=0 0 0, 1 0 0, 0 1 0\n\
             C:name=M:layout=0 0 0, 1 0 0, 0 1 0\n\
             ~D\n",
        );
        assert_eq!(p.images.len(), 8);
        assert_eq!(p.volume_filter(), 4);
        check_consistent(&p);
        for kept in placements(&p, 0) {
            // The cell the L leaves in its own 2x2 end is in the middle row, beside the
            // other end.
            let end = if kept.iter().all(|c| c[1] <= 1) { 0 } else { 1 };
            let left = (0..2)
                .flat_map(|x| [[x, end, 0], [x, end + 1, 0]])
                .find(|c| !kept.contains(c))
                .unwrap();
            assert_eq!(left[1], 1, "{kept:?}");
        }
    }

    #[test]
    fn symmetric_images_are_dropped_together() {
        let cases = [
            (
                "pentomino_10x6",
                include_str!("../../puzzles/pentomino_10x6.txt"),
            ),
            (
                "pentomino_20x3",
                include_str!("../../tests/puzzles/pentomino_20x3.txt"),
            ),
            // A square tetromino across the middle of a 2x2x4 box leaves 4 and 8 cells,
            // which straight trominoes cannot fill: the two such images, at z = 1 and
            // z = 2, are swapped by the box's turns.
            (
                "square_and_trominoes_2x2x4",
                "D:xDim=2:yDim=2:zDim=4\n\
                 C:name=O:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0\n\
                 C:name=I1:layout=0 0 0, 1 0 0, 2 0 0\n\
                 C:name=I2:layout=0 0 0, 1 0 0, 2 0 0\n\
                 C:name=I3:layout=0 0 0, 1 0 0, 2 0 0\n\
                 C:name=I4:layout=0 0 0, 1 0 0, 2 0 0\n\
                 ~D\n",
            ),
            (
                "one_sided_tetromino_7x4",
                include_str!("../../tests/puzzles/one_sided_tetromino_7x4.txt"),
            ),
            (
                "pentomino_8x8_centre",
                include_str!("../../tests/puzzles/pentomino_8x8_centre.txt"),
            ),
        ];
        for (name, text) in cases {
            let original = puzzle(text);
            let mut filtered = original.clone();
            let dropped = filtered.volume_filter();
            assert!(dropped > 0, "{name}: the filter drops nothing");
            if name == "square_and_trominoes_2x2x4" {
                assert_eq!(dropped, 2);
            }
            check_consistent(&filtered);
            let kept = |i: usize| {
                let im = &original.images[i];
                filtered.find_image(im.shape, &im.cells).is_some()
            };
            assert_eq!(
                (0..original.images.len()).filter(|&i| !kept(i)).count(),
                dropped
            );
            check_dropped_together(name, &original, &filtered);
        }
    }

    /// Images a symmetry of the box maps to each other are dropped together by a filter
    /// that made `filtered` from `original`, under every group that applies, so that the
    /// filtered model's first stage is built under the same group.
    fn check_dropped_together(name: &str, original: &Puzzle, filtered: &Puzzle) {
        let kept = |i: usize| {
            let im = &original.images[i];
            filtered.find_image(im.shape, &im.cells).is_some()
        };
        for mode in [SymmetryMode::Rotations, SymmetryMode::Mirror] {
            let Ok(group) = original.group(mode) else {
                continue;
            };
            // The group depends on the box and the pieces only.
            assert_eq!(filtered.group(mode).unwrap(), group);
            assert!(group.len() > 1, "{name}: a symmetric box");
            for g in &group {
                for i in 0..original.images.len() {
                    let j = original.map_image(g, i).unwrap();
                    assert_eq!(kept(i), kept(j), "{name}: images {i} and {j}");
                }
            }
            let stage = filtered.first_stage(&Redundancy::Auto, &group).unwrap();
            assert!(!stage.entries.is_empty());
        }
    }

    #[test]
    fn the_parity_filter_keeps_the_images_with_the_balance_the_box_needs() {
        let balance = |p: &Puzzle, cells: &[Cell]| -> i64 {
            let g = p.geometry();
            cells
                .iter()
                .map(|&c| if g.black(p.cells[c as usize]) { 1 } else { -1 })
                .sum()
        };
        // The shapes the filter thins, by piece name, and the one balance each keeps, as
        // a multiple of the box's balance. The Soma's box is +-1, its V tricube +-1, its
        // T and P tetracubes +-2 and the others 0: the T and the P make -4, 0 or 4
        // together, so the V lies the box's way and the T and P either way. The
        // tetrominoes' box is +-2, the T's extreme.
        type Case = (&'static str, &'static str, &'static [(&'static str, i64)]);
        let cases: [Case; 2] = [
            ("soma", include_str!("../../puzzles/soma.txt"), &[("V", 1)]),
            (
                "tetrominoes_parity_5x5",
                include_str!("../../tests/puzzles/tetrominoes_parity_5x5.txt"),
                &[("T", 1)],
            ),
        ];
        for (name, text, kept_balance) in cases {
            let original = puzzle(text);
            let all: Vec<Cell> = (0..original.cells.len() as Cell).collect();
            let target = balance(&original, &all);
            assert!(target != 0, "{name}");
            let mut filtered = original.clone();
            let dropped = filtered.parity_filter();
            check_consistent(&filtered);
            let kept = |i: usize| {
                let im = &original.images[i];
                filtered.find_image(im.shape, &im.cells).is_some()
            };
            let mut expected = 0;
            for (i, im) in original.images.iter().enumerate() {
                let piece = &original.pieces[original.shapes[im.shape].pieces[0]].name;
                let wanted = kept_balance
                    .iter()
                    .find(|(n, _)| n == piece)
                    .map(|&(_, k)| k * target);
                let keep = wanted.is_none_or(|b| balance(&original, &im.cells) == b);
                assert_eq!(kept(i), keep, "{name}: image {i} of {piece}");
                expected += usize::from(!keep);
            }
            assert_eq!(dropped, expected, "{name}");
            assert!(dropped > 0, "{name}");
            check_dropped_together(name, &original, &filtered);
        }
        // A box whose balance is in the middle of what its pieces make loses nothing.
        let mut p = puzzle(include_str!("../../puzzles/pentomino_10x6.txt"));
        let images = p.images.len();
        assert_eq!(p.parity_filter(), 0);
        assert_eq!(p.images.len(), images);
    }
}
