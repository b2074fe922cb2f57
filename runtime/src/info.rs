//! What a solver tells the runtime about its puzzle: the box, the pieces, the images and
//! the symmetry tables. Generated solvers build it from constant tables; the generic
//! engine builds it from the model.

/// The lattice a puzzle lives on: what its cells are and how a solution is drawn in text.
/// The geometry (neighbours, symmetries) is the model's (`puzzle::lattice`); the runtime
/// needs only the name and the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lattice {
    /// Cubes (and squares: a box one cell deep), polycube's own lattice.
    Cubic,
    /// Hexagons in axial coordinates: the neighbours of `(x, y)` are `(x±1, y)`,
    /// `(x, y±1)`, `(x+1, y-1)` and `(x-1, y+1)`.
    Hexagonal,
    /// Triangles in rows: `(x, y)` points up when x is even and down when it is odd; its
    /// neighbours are `(x±1, y)` and `(x+1, y-1)` (up) or `(x-1, y+1)` (down).
    Triangular,
    /// Packed spheres (face-centred cubic) in square layers: ball `(x, y, z)` meets
    /// `(x±1, y, z)` and `(x, y±1, z)` in its layer, and rests on the four balls
    /// `(x..=x+1, y..=y+1, z-1)` below it, as cannonballs are stacked in a square pyramid.
    Spheres,
    /// Hexagonal prisms: layers of hexagons (axial coordinates, as `Hexagonal`) stacked
    /// straight up, so `(x, y, z)` also meets `(x, y, z±1)`.
    Prisms,
}

impl Lattice {
    /// Every lattice, in the order of the documentation.
    pub const ALL: [Lattice; 5] = [
        Lattice::Cubic,
        Lattice::Hexagonal,
        Lattice::Triangular,
        Lattice::Spheres,
        Lattice::Prisms,
    ];

    /// The name of the `lattice=` key and of `-i`'s `LATTICE=`.
    pub fn name(self) -> &'static str {
        match self {
            Lattice::Cubic => "cubic",
            Lattice::Hexagonal => "hexagonal",
            Lattice::Triangular => "triangular",
            Lattice::Spheres => "spheres",
            Lattice::Prisms => "prisms",
        }
    }

    /// The lattice named `name` (also `square` for the cubic lattice, `fcc` for the
    /// packed spheres).
    pub fn from_name(name: &str) -> Option<Lattice> {
        match name {
            "square" => Some(Lattice::Cubic),
            "fcc" => Some(Lattice::Spheres),
            _ => Self::ALL.into_iter().find(|l| l.name() == name),
        }
    }

    /// How far each row is drawn to the right of the row below it, in half cells: the
    /// hexagons of a row sit over the gaps of the row below, the triangles of a row one
    /// triangle to the right (an up triangle stands on the down one below it).
    pub fn row_stagger(self) -> usize {
        match self {
            Lattice::Cubic | Lattice::Spheres => 0,
            Lattice::Hexagonal | Lattice::Prisms => 1,
            Lattice::Triangular => 2,
        }
    }
}

/// What occupies one position of the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// An open cell, by its number.
    Open(u16),
    /// A stationary piece, by its index in `PuzzleInfo::piece_names`.
    Stationary(u16),
}

/// One bounded image: its shape and its cells (sorted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    pub shape: u16,
    pub cells: Vec<u16>,
}

/// A symmetry acting on solutions: where each cell goes, and which shape each shape
/// becomes (its mirror image, for maps that turn one-sided pieces over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub cell_map: Vec<u16>,
    pub shape_map: Vec<u16>,
}

/// The first placements of a search: every solution meets exactly one of `images`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstInfo {
    /// What the first placements are, for `-i`: a piece name, or `cell N`.
    pub what: String,
    /// The piece constrained by the filter, or `off`, or `post`.
    pub filter: String,
    pub images: Vec<u16>,
    /// For each first image, the group elements (indices into the group) that fix it:
    /// a solution through it counts only if none of them makes it smaller.
    pub stabilisers: Vec<Vec<u16>>,
    /// Check every solution against the whole group (the post-filter).
    pub full_check: bool,
}

/// A symmetry mode: its group and the filtered first stage under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymmetryInfo {
    /// `rotations` or `rotations+reflections`.
    pub name: String,
    /// The group, identity first.
    pub group: Vec<Element>,
    pub filtered: FirstInfo,
}

/// Why `--mirror` cannot be honoured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirrorRefusal {
    pub why: String,
    /// The user's own choice makes it impossible (a filter piece that is not its own
    /// mirror image): an error. Otherwise (a piece set not closed under mirroring) the
    /// run goes on up to rotations, with a warning.
    pub usage_error: bool,
}

/// The pruning a solver applies beyond the redundancy filter: the settings of polycube's
/// `-V`, `-v N` and `-p`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruning {
    /// Images that cut off a region no combination of the other pieces can fill were
    /// dropped before the search (`-V`).
    pub volume_filter: bool,
    /// While more than this many pieces are left, a placement that leaves an open region
    /// whose size no combination of the remaining pieces makes is abandoned (`-v N`).
    pub volume_backtrack: Option<usize>,
    /// While more than this many pieces are left, a placement that leaves an open space
    /// whose checkerboard colour balance no combination of the remaining pieces makes is
    /// abandoned (`-p`: the same threshold as `-v` when it is given, else every level).
    pub parity_backtrack: Option<usize>,
}

impl Pruning {
    /// A backtrack's threshold as `-i` and checkpoints write it, and `-v` takes it: the
    /// number of pieces, or `off`.
    pub fn threshold(backtrack: Option<usize>) -> String {
        backtrack.map_or_else(|| "off".to_string(), |n| n.to_string())
    }
}

/// A generated solver's search order: the E heuristic of the FILA article (among the open
/// cells with the fewest open neighbours, the one where the fewest images fit; where all
/// of them have many, among those with the next fewest too) while more than `f_from`
/// pieces are left, then F (the first open cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    /// The default switch point.
    pub f_from: usize,
    /// Whether the solver carries the E stage, so that `--f-from` can move the switch;
    /// without it the search is F throughout.
    pub e_stage: bool,
}

/// Everything the runtime knows about a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleInfo {
    pub name: String,
    /// Which solver this is, for `-i`.
    pub engine: String,
    pub lattice: Lattice,
    pub dims: [usize; 3],
    /// Whether the pieces only turn in the plane (`oneSide`).
    pub one_side: bool,
    /// One slot per position `x + X*(y + Y*z)`.
    pub grid: Vec<Slot>,
    pub piece_names: Vec<String>,
    /// For each shape, its copies (indices into `piece_names`).
    pub shape_pieces: Vec<Vec<u16>>,
    pub images: Vec<ImageInfo>,
    /// The unfiltered first stage (`-r .`).
    pub unfiltered: FirstInfo,
    pub rotations: SymmetryInfo,
    /// The mirror mode, or why it does not apply.
    pub mirror: Result<SymmetryInfo, MirrorRefusal>,
    /// The pruning the solver applies when the options do not say otherwise.
    pub pruning: Pruning,
    /// The generated solver's search order; `None` for the dancing-links engine, whose
    /// order (fewest choices, Knuth's S) has no switch.
    pub order: Option<Order>,
}

impl PuzzleInfo {
    pub fn cells(&self) -> usize {
        self.grid
            .iter()
            .filter(|s| matches!(s, Slot::Open(_)))
            .count()
    }

    /// The number of mobile pieces: the depth of every search.
    pub fn pieces_to_place(&self) -> usize {
        self.shape_pieces.iter().map(Vec::len).sum()
    }
}

/// Builds the images from a generated solver's flat tables: image k has the shape
/// `shapes[k]` and the cells `cells[starts[k]..starts[k + 1]]`.
pub fn images_from(shapes: &[u16], starts: &[u32], cells: &[u16]) -> Vec<ImageInfo> {
    shapes
        .iter()
        .zip(starts.windows(2))
        .map(|(&shape, range)| ImageInfo {
            shape,
            cells: cells[range[0] as usize..range[1] as usize].to_vec(),
        })
        .collect()
}

/// Builds group elements from a generated solver's flat tables: element k maps cell c to
/// `cell_maps[k * cells + c]` and shape s to `shape_maps[k * shapes + s]`.
pub fn elements_from(
    cells: usize,
    cell_maps: &[u16],
    shapes: usize,
    shape_maps: &[u16],
) -> Vec<Element> {
    let order = cell_maps.len().checked_div(cells).unwrap_or(0);
    (0..order)
        .map(|k| Element {
            cell_map: cell_maps[k * cells..(k + 1) * cells].to_vec(),
            shape_map: shape_maps[k * shapes..(k + 1) * shapes].to_vec(),
        })
        .collect()
}

/// A generated solver's description of its puzzle as constants (a `static INFO` in the
/// generated file), from which [`StaticInfo::to_info`] builds the [`PuzzleInfo`].
pub struct StaticInfo {
    pub name: &'static str,
    pub lattice: Lattice,
    pub dims: [usize; 3],
    pub one_side: bool,
    pub grid: &'static [Slot],
    pub piece_names: &'static [&'static str],
    pub shape_pieces: &'static [&'static [u16]],
    /// Image k has the shape `image_shapes[k]` and the cells
    /// `image_cells[image_starts[k]..image_starts[k + 1]]`.
    pub image_shapes: &'static [u16],
    pub image_starts: &'static [u32],
    pub image_cells: &'static [u16],
    pub unfiltered: StaticFirst,
    pub rotations: StaticSymmetry,
    /// The mirror mode, or why there is none (`why`, and whether asking for it is a
    /// usage error).
    pub mirror: Result<StaticSymmetry, (&'static str, bool)>,
    pub pruning: Pruning,
    pub order: Order,
}

/// [`FirstInfo`] as constants.
pub struct StaticFirst {
    pub what: &'static str,
    pub filter: &'static str,
    pub images: &'static [u16],
    pub stabilisers: &'static [&'static [u16]],
    pub full_check: bool,
}

/// [`SymmetryInfo`] as constants: element k maps cell c to `cell_maps[k * cells + c]` and
/// shape s to `shape_maps[k * shapes + s]`.
pub struct StaticSymmetry {
    pub name: &'static str,
    pub cell_maps: &'static [u16],
    pub shape_maps: &'static [u16],
    pub filtered: StaticFirst,
}

impl StaticFirst {
    fn to_info(&self) -> FirstInfo {
        FirstInfo {
            what: self.what.to_string(),
            filter: self.filter.to_string(),
            images: self.images.to_vec(),
            stabilisers: self.stabilisers.iter().map(|s| s.to_vec()).collect(),
            full_check: self.full_check,
        }
    }
}

impl StaticSymmetry {
    fn to_info(&self, cells: usize, shapes: usize) -> SymmetryInfo {
        SymmetryInfo {
            name: self.name.to_string(),
            group: elements_from(cells, self.cell_maps, shapes, self.shape_maps),
            filtered: self.filtered.to_info(),
        }
    }
}

impl StaticInfo {
    /// The description the runtime uses, for a generated FILA solver.
    pub fn to_info(&self) -> PuzzleInfo {
        let cells = self
            .grid
            .iter()
            .filter(|s| matches!(s, Slot::Open(_)))
            .count();
        let shapes = self.shape_pieces.len();
        PuzzleInfo {
            name: self.name.to_string(),
            engine: "generated FILA solver".to_string(),
            lattice: self.lattice,
            dims: self.dims,
            one_side: self.one_side,
            grid: self.grid.to_vec(),
            piece_names: self.piece_names.iter().map(|n| n.to_string()).collect(),
            shape_pieces: self.shape_pieces.iter().map(|p| p.to_vec()).collect(),
            images: images_from(self.image_shapes, self.image_starts, self.image_cells),
            unfiltered: self.unfiltered.to_info(),
            rotations: self.rotations.to_info(cells, shapes),
            mirror: match &self.mirror {
                Ok(m) => Ok(m.to_info(cells, shapes)),
                Err((why, usage_error)) => Err(MirrorRefusal {
                    why: why.to_string(),
                    usage_error: *usage_error,
                }),
            },
            pruning: self.pruning,
            order: Some(self.order),
        }
    }
}

/// A small puzzle for the tests of the modules that take one.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A domino `A` and a monomino `B` in a 3x1x1 box: the domino covers cells 0 and 1
    /// (image 0) or 1 and 2 (image 1), the monomino one cell (images 2 to 4). The half
    /// turn maps the box onto itself, so the filter keeps image 0 of `A`. The mirror mode
    /// is allowed, with the same group; no pruning, and the order of the dancing-links
    /// engine (none). Tests change what they test.
    pub fn example() -> PuzzleInfo {
        let open = |c| Slot::Open(c);
        let image = |shape, cells: &[u16]| ImageInfo {
            shape,
            cells: cells.to_vec(),
        };
        let group = elements_from(3, &[0, 1, 2, 2, 1, 0], 2, &[0, 1, 0, 1]);
        let filtered = FirstInfo {
            what: "piece A".to_string(),
            filter: "A".to_string(),
            images: vec![0],
            stabilisers: vec![vec![]],
            full_check: false,
        };
        let rotations = SymmetryInfo {
            name: "rotations".to_string(),
            group: group.clone(),
            filtered,
        };
        PuzzleInfo {
            name: "example".to_string(),
            engine: "test".to_string(),
            lattice: Lattice::Cubic,
            dims: [3, 1, 1],
            one_side: false,
            grid: vec![open(0), open(1), open(2)],
            piece_names: vec!["A".to_string(), "B".to_string()],
            shape_pieces: vec![vec![0], vec![1]],
            images: vec![
                image(0, &[0, 1]),
                image(0, &[1, 2]),
                image(1, &[0]),
                image(1, &[1]),
                image(1, &[2]),
            ],
            unfiltered: FirstInfo {
                what: "piece A".to_string(),
                filter: "off".to_string(),
                images: vec![0, 1],
                stabilisers: vec![vec![], vec![]],
                full_check: false,
            },
            mirror: Ok(SymmetryInfo {
                name: "rotations+reflections".to_string(),
                ..rotations.clone()
            }),
            rotations,
            pruning: Pruning::default(),
            order: None,
        }
    }
}
