//! Pictures of solutions, as SVG: each piece filled with a colour of its own, thick
//! outlines between pieces and thin grid lines within them, drawn from the lattice's own
//! cells (squares, hexagons, triangles, balls).
//!
//! A picture shows the layers side by side, as the text layout does (layer z = 0 on the
//! left, y up), and for a box more than one layer deep an exploded isometric view of the
//! same layers below them: the layers lifted apart and set side by side, each a step up,
//! so that no piece is hidden. Stationary cells are shaded grey. Units: one cell edge is
//! [`UNIT`] pixels.

use std::collections::HashMap;

use svg::node::element::path::Data;
use svg::node::element::{Circle, Group, Path, Rectangle, Text, Title};
use svg::Document;

use crate::info::{Lattice, PuzzleInfo, Slot};
use crate::output::NOBODY;

/// Pixels per cell edge.
pub const UNIT: f64 = 24.0;
/// The colour of the outlines between pieces.
pub const OUTLINE: Rgb = Rgb(0x1a, 0x1a, 0x1a);
/// The fill of stationary cells.
pub const STATIONARY: Rgb = Rgb(0xc8, 0xc8, 0xc8);
/// The fill of a cell no piece covers (in a partial listing).
pub const EMPTY: Rgb = Rgb(0xff, 0xff, 0xff);
/// The width of the outlines between pieces and of the grid lines within them, in cell
/// edges.
pub const THICK: f64 = 0.16;
pub const THIN: f64 = 0.03;
/// The space between two layers, in cell edges.
const GAP: f64 = 1.0;
/// The size of the type of titles and labels, 0.55 of a cell edge, in pixels (divided
/// rather than multiplied by 0.55, so that it is written as 13.2, not 13.200000000000001).
const TYPE_SIZE: f64 = UNIT * 11.0 / 20.0;
/// The baseline of a title, 0.7 of a cell edge below the top, in pixels.
const TITLE_BASELINE: f64 = UNIT * 7.0 / 10.0;

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Darker by `f` (0 black, 1 the colour itself), for shaded faces.
    fn shade(self, f: f64) -> Rgb {
        let s = |c: u8| (f64::from(c) * f).round() as u8;
        Rgb(s(self.0), s(self.1), s(self.2))
    }
}

/// Kenneth Kelly's colours of maximum contrast, without white, black, grey and the dark
/// olive green (too close to the outlines): the first pieces of a puzzle take them.
const KELLY: [Rgb; 18] = [
    Rgb(0xf3, 0xc3, 0x00),
    Rgb(0x87, 0x56, 0x92),
    Rgb(0xf3, 0x84, 0x00),
    Rgb(0xa1, 0xca, 0xf1),
    Rgb(0xbe, 0x00, 0x32),
    Rgb(0xc2, 0xb2, 0x80),
    Rgb(0x00, 0x88, 0x56),
    Rgb(0xe6, 0x8f, 0xac),
    Rgb(0x00, 0x67, 0xa5),
    Rgb(0xf9, 0x93, 0x79),
    Rgb(0x60, 0x4e, 0x97),
    Rgb(0xf6, 0xa6, 0x00),
    Rgb(0xb3, 0x44, 0x6c),
    Rgb(0xdc, 0xd3, 0x00),
    Rgb(0x88, 0x2d, 0x17),
    Rgb(0x8d, 0xb6, 0x00),
    Rgb(0x65, 0x45, 0x22),
    Rgb(0xe2, 0x58, 0x22),
];

/// The colour of the mobile piece `piece` (its index among the puzzle's pieces), the same
/// in every solution and every run: Kelly's colours first, then hues a golden angle
/// apart, alternately lighter and darker.
pub fn piece_colour(piece: usize) -> Rgb {
    if let Some(&c) = KELLY.get(piece) {
        return c;
    }
    let k = piece - KELLY.len();
    let hue = (k as f64 * 137.507_764) % 360.0;
    let light = [0.55, 0.40][(k / 7) & 1];
    hsl(hue, 0.65, light)
}

fn hsl(hue: f64, s: f64, l: f64) -> Rgb {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let h = hue / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let v = |t: f64| ((t + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb(v(r), v(g), v(b))
}

/// A point in cell edges, y up.
type Point = (f64, f64);

/// What a cell is drawn as in its layer.
#[derive(Clone, Debug)]
enum Outline {
    Polygon(Vec<Point>),
    Ball(Point),
}

/// The radius of a ball, in cell edges (balls in a layer are one edge apart).
const BALL: f64 = 0.42;

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// The cell at `(x, y, z)` in its layer's own coordinates (cell edges, y up).
fn outline(lattice: Lattice, [x, y, z]: [usize; 3]) -> Outline {
    let (xf, yf, zf) = (x as f64, y as f64, z as f64);
    match lattice {
        Lattice::Cubic => Outline::Polygon(vec![
            (xf, yf),
            (xf + 1.0, yf),
            (xf + 1.0, yf + 1.0),
            (xf, yf + 1.0),
        ]),
        Lattice::Hexagonal | Lattice::Prisms => {
            // Pointy-topped hexagons one edge across their flats, corners counter-clockwise
            // from the top; row y+1 half a hexagon to the right of row y.
            let (cx, cy) = (xf + yf / 2.0, yf * SQRT3 / 2.0);
            let r = 1.0 / SQRT3;
            Outline::Polygon(
                (0..6)
                    .map(|k| {
                        let a = std::f64::consts::FRAC_PI_3 * k as f64;
                        (cx - r * a.sin(), cy + r * a.cos())
                    })
                    .collect(),
            )
        }
        Lattice::Triangular => {
            // Triangles with unit sides; row y+1 one triangle (half a side) to the right.
            let a = (xf + yf) / 2.0;
            let h = SQRT3 / 2.0;
            let (bottom, top) = (yf * h, (yf + 1.0) * h);
            if x % 2 == 0 {
                Outline::Polygon(vec![(a, bottom), (a + 1.0, bottom), (a + 0.5, top)])
            } else {
                Outline::Polygon(vec![(a, top), (a + 0.5, bottom), (a + 1.0, top)])
            }
        }
        // A ball sits over the middle of the four below it.
        Lattice::Spheres => Outline::Ball((xf + zf / 2.0 + 0.5, yf + zf / 2.0 + 0.5)),
    }
}

/// The centre of an outline.
fn centre(o: &Outline) -> Point {
    match o {
        Outline::Polygon(p) => {
            let n = p.len() as f64;
            let (sx, sy) = p.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
            (sx / n, sy / n)
        }
        Outline::Ball(c) => *c,
    }
}

fn bounds(o: &Outline) -> [f64; 4] {
    match o {
        Outline::Polygon(p) => p.iter().fold(
            [f64::MAX, f64::MAX, f64::MIN, f64::MIN],
            |[a, b, c, d], &(x, y)| [a.min(x), b.min(y), c.max(x), d.max(y)],
        ),
        Outline::Ball((x, y)) => [x - 0.5, y - 0.5, x + 0.5, y + 0.5],
    }
}

/// An edge's key: its ends in thousandths of an edge, in order, so that the two cells on
/// either side of an edge find it alike.
fn edge_key(a: Point, b: Point) -> EdgeKey {
    let k = |(x, y): Point| ((x * 1000.0).round() as i64, (y * 1000.0).round() as i64);
    let (a, b) = (k(a), k(b));
    if a <= b {
        [a, b]
    } else {
        [b, a]
    }
}

/// The drawing of one puzzle's solutions: where each cell goes, computed once.
pub struct Picture<'a> {
    info: &'a PuzzleInfo,
    /// Each position's outline in its layer's coordinates.
    outlines: Vec<Outline>,
    /// The extent of one layer: min x, min y, max x, max y.
    layer: [f64; 4],
    /// The pixel size of the layers view.
    layers_size: (f64, f64),
    /// The exploded isometric view, for a box more than one layer deep: the faces of
    /// each shown cell, back to front, and their extent in projected cell edges (min x,
    /// min y, max x, max y, y up).
    iso: Option<IsoView>,
    /// Where each layer goes in the isometric view (right and up, in cell edges).
    offsets: Vec<Point>,
    /// What a solution's picture draws, in order, in pixels below the title.
    items: Vec<Item>,
    /// Whether each piece is mobile (a copy of some shape) rather than stationary.
    mobile: Vec<bool>,
    /// Write each piece's name on it.
    pub labels: bool,
}

/// One thing a picture draws, in pixels below its title (y down). Its colour is its
/// piece's in the solution drawn: the items are laid out once per puzzle, and a
/// solution's picture is the items read with its owners.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A cell of the layers view, filled.
    Cell {
        position: usize,
        corners: Vec<Point>,
    },
    /// The edge between cells `a` and `b` of one layer (`b` none on the border): a thin
    /// grid line within a piece, a thick outline between pieces. Drawn after the cells.
    Edge {
        a: usize,
        b: Option<usize>,
        from: Point,
        to: Point,
    },
    /// A bar between two balls next to each other in a layer, drawn when one mobile
    /// piece has both.
    Bar {
        a: usize,
        b: usize,
        from: Point,
        to: Point,
    },
    /// A ball of the layers view.
    Ball {
        position: usize,
        centre: Point,
        radius: f64,
    },
    /// A face of a cell in the isometric view: its piece's colour, darkened by `shade`.
    Face {
        position: usize,
        corners: Vec<Point>,
        shade: f64,
    },
    /// A ball in the isometric view.
    Sphere { position: usize, centre: Point },
}

/// The faces of each cell the isometric view shows, back to front, and their extent.
type IsoView = (Vec<(usize, Vec<Face>)>, [f64; 4]);

/// An edge of a cell (its ends, by [`edge_key`]).
type EdgeKey = [(i64, i64); 2];

/// The margin around a view, and the height of a picture's title, in cell edges (the
/// views are drawn that far down).
const MARGIN: f64 = 0.5;
pub const TITLE: f64 = 0.9;

impl<'a> Picture<'a> {
    pub fn new(info: &'a PuzzleInfo) -> Picture<'a> {
        let [xd, yd, zd] = info.dims;
        let outlines: Vec<Outline> = (0..info.grid.len())
            .map(|p| outline(info.lattice, [p % xd, (p / xd) % yd, p / (xd * yd)]))
            .collect();
        let layer = outlines.iter().map(bounds).fold(
            [f64::MAX, f64::MAX, f64::MIN, f64::MIN],
            |[a, b, c, d], [e, f, g, h]| [a.min(e), b.min(f), c.max(g), d.max(h)],
        );
        let (w, h) = (layer[2] - layer[0], layer[3] - layer[1]);
        let layers_size = (
            (zd as f64 * w + (zd.saturating_sub(1)) as f64 * GAP + 2.0 * MARGIN) * UNIT,
            (h + 2.0 * MARGIN) * UNIT,
        );
        let mut picture = Picture {
            info,
            outlines,
            layer,
            layers_size,
            iso: None,
            offsets: Vec::new(),
            items: Vec::new(),
            mobile: (0..info.piece_names.len())
                .map(|p| info.shape_pieces.iter().any(|s| s.contains(&(p as u16))))
                .collect(),
            labels: false,
        };
        picture.offsets = picture.layer_offsets();
        if zd > 1 {
            let cells = picture.iso_cells();
            let extent = cells
                .iter()
                .flat_map(|(_, faces)| faces.iter().flat_map(|f| f.points.iter()))
                .fold(
                    [f64::MAX, f64::MAX, f64::MIN, f64::MIN],
                    |[a, b, c, d], &(x, y)| [a.min(x), b.min(y), c.max(x), d.max(y)],
                );
            picture.iso = Some((cells, extent));
        }
        picture.items = match info.lattice {
            Lattice::Spheres => picture.ball_items(),
            _ => picture.cell_items(),
        };
        let iso = picture.iso_items();
        picture.items.extend(iso);
        picture
    }

    /// The puzzle drawn.
    pub fn info(&self) -> &PuzzleInfo {
        self.info
    }

    /// The items of one solution's picture, in the order they are drawn.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The cells of the layers view and the edges between them.
    fn cell_items(&self) -> Vec<Item> {
        let mut items = Vec::new();
        // Each edge, by its key: its index among `edges`.
        let mut seen: HashMap<EdgeKey, usize> = HashMap::new();
        let mut edges = Vec::new();
        for (p, o) in self.outlines.iter().enumerate() {
            let Outline::Polygon(points) = o else {
                continue;
            };
            let z = self.layer_of(p);
            let corners: Vec<Point> = points.iter().map(|&q| self.to_pixels(z, q)).collect();
            for k in 0..corners.len() {
                let (from, to) = (corners[k], corners[(k + 1) % corners.len()]);
                match seen.get(&edge_key(from, to)) {
                    Some(&e) => {
                        if let Item::Edge { b, .. } = &mut edges[e] {
                            *b = Some(p);
                        }
                    }
                    None => {
                        seen.insert(edge_key(from, to), edges.len());
                        edges.push(Item::Edge {
                            a: p,
                            b: None,
                            from,
                            to,
                        });
                    }
                }
            }
            items.push(Item::Cell {
                position: p,
                corners,
            });
        }
        items.extend(edges);
        items
    }

    /// The balls of the layers view, and the bars that may join them (beneath them).
    fn ball_items(&self) -> Vec<Item> {
        let [xd, yd, _] = self.info.dims;
        let mut bars = Vec::new();
        let mut balls = Vec::new();
        for (p, o) in self.outlines.iter().enumerate() {
            let z = self.layer_of(p);
            let centre = self.to_pixels(z, centre(o));
            let (x, y) = (p % xd, (p / xd) % yd);
            for (q, there) in [(p + 1, x + 1 < xd), (p + xd, y + 1 < yd)] {
                if there {
                    let to = self.to_pixels(z, self::centre(&self.outlines[q]));
                    bars.push(Item::Bar {
                        a: p,
                        b: q,
                        from: centre,
                        to,
                    });
                }
            }
            // A stationary ball is a small grey dot: it keeps its place without hiding
            // the pieces (and often only shapes the box, as the pyramid's are).
            let radius = match self.info.grid[p] {
                Slot::Stationary(_) => BALL / 3.0,
                Slot::Open(_) => BALL,
            } * UNIT;
            balls.push(Item::Ball {
                position: p,
                centre,
                radius,
            });
        }
        bars.extend(balls);
        bars
    }

    /// The faces and balls of the isometric view, back to front.
    fn iso_items(&self) -> Vec<Item> {
        let Some((cells, extent)) = &self.iso else {
            return Vec::new();
        };
        let mut items = Vec::new();
        for (p, faces) in cells {
            for face in faces {
                let corners: Vec<Point> = face
                    .points
                    .iter()
                    .map(|&q| self.iso_pixels(extent, q))
                    .collect();
                items.push(if face.ball {
                    Item::Sphere {
                        position: *p,
                        centre: corners[0],
                    }
                } else {
                    Item::Face {
                        position: *p,
                        corners,
                        shade: face.shade,
                    }
                });
            }
        }
        items
    }

    /// The size of the whole picture in pixels.
    pub fn size(&self) -> (f64, f64) {
        let (w, h) = self.layers_size;
        match self.iso {
            None => (w, h),
            Some((_, [x0, y0, x1, y1])) => (
                w.max((x1 - x0 + 2.0 * MARGIN) * UNIT),
                h + (y1 - y0 + 2.0 * MARGIN) * UNIT,
            ),
        }
    }

    /// Where a point of layer z's own coordinates is in the picture, in pixels (y down).
    fn to_pixels(&self, z: usize, (x, y): Point) -> Point {
        let [x0, _, x1, y1] = self.layer;
        let left = MARGIN + z as f64 * (x1 - x0 + GAP);
        ((left + x - x0) * UNIT, (MARGIN + y1 - y) * UNIT)
    }

    fn layer_of(&self, position: usize) -> usize {
        position / (self.info.dims[0] * self.info.dims[1])
    }

    /// The centre of a position's cell in the layers view of a [`Picture::document`], in
    /// pixels (y down).
    pub fn cell_centre(&self, position: usize) -> Point {
        let (x, y) = self.layer_centre(position);
        (x, y + TITLE * UNIT)
    }

    /// The centre of a position's cell in the layers view, below the title.
    fn layer_centre(&self, position: usize) -> Point {
        self.to_pixels(self.layer_of(position), centre(&self.outlines[position]))
    }

    /// The middle of the top of a position's cell (of a ball, its middle) in the
    /// isometric view of a [`Picture::document`], in pixels (y down), if it is drawn
    /// there.
    pub fn iso_top_centre(&self, position: usize) -> Option<Point> {
        let (_, extent) = self.iso.as_ref()?;
        if !self.shown(position) {
            return None;
        }
        let o = &self.outlines[position];
        let up = if matches!(o, Outline::Ball(_)) {
            0.0
        } else {
            1.0
        };
        let (x, y) = centre(o);
        let (dx, dz) = self.offsets[self.layer_of(position)];
        let (px, py) = project((x, y, dz + up));
        let point = (px + dx, py);
        let (px, py) = self.iso_pixels(extent, point);
        Some((px, py + TITLE * UNIT))
    }

    /// Where a point of the isometric projection is in the picture, below the title.
    fn iso_pixels(&self, extent: &[f64; 4], (x, y): Point) -> Point {
        let [x0, _, _, y1] = *extent;
        (
            (MARGIN + x - x0) * UNIT,
            self.layers_size.1 + (MARGIN + y1 - y) * UNIT,
        )
    }

    /// The fill of a cell whose owner is `owner` (a piece index, or [`NOBODY`]).
    pub fn fill(&self, owner: u16) -> Rgb {
        match owner {
            NOBODY => EMPTY,
            p if self.is_stationary(p) => STATIONARY,
            p => piece_colour(p as usize),
        }
    }

    fn is_stationary(&self, piece: u16) -> bool {
        !self.mobile[piece as usize]
    }

    /// Whether piece `piece` (an index into the puzzle's pieces) is mobile.
    pub fn is_mobile_piece(&self, piece: usize) -> bool {
        self.mobile[piece]
    }

    /// Whether `owner` is a mobile piece (not a stationary one, not [`NOBODY`]).
    fn is_mobile(&self, owner: u16) -> bool {
        owner != NOBODY && !self.is_stationary(owner)
    }

    /// The picture of one solution, as an SVG document: `owners` holds the piece covering
    /// each position (as [`owners`](crate::output::owners) gives it), `title` is written
    /// above.
    pub fn document(&self, owners: &[u16], title: &str) -> Document {
        let (w, h) = self.framed_size();
        Document::new()
            .set("width", px(w))
            .set("height", px(h))
            .set("viewBox", (0.0, 0.0, px(w), px(h)))
            .add(Title::new(title))
            .add(self.framed(owners, title))
    }

    /// The size of [`Picture::framed`]: the picture with its title.
    pub fn framed_size(&self) -> (f64, f64) {
        let (w, h) = self.size();
        (w, h + TITLE * UNIT)
    }

    /// One solution on a white ground, its title above it.
    pub fn framed(&self, owners: &[u16], title: &str) -> Group {
        let (w, h) = self.framed_size();
        let mut body = self.draw(owners);
        if self.labels {
            body = self.add_labels(body, owners);
        }
        Group::new()
            .add(
                Rectangle::new()
                    .set("width", px(w))
                    .set("height", px(h))
                    .set("fill", "white"),
            )
            .add(
                Text::new(title)
                    .set("x", MARGIN * UNIT)
                    .set("y", TITLE_BASELINE)
                    .set("font-family", "sans-serif")
                    .set("font-size", TYPE_SIZE),
            )
            .add(body.set("transform", format!("translate(0 {})", px(TITLE * UNIT))))
    }

    /// The items read with `owners`: the cells, then the grid lines within pieces and the
    /// outlines between them.
    fn draw(&self, owners: &[u16]) -> Group {
        let mut group = Group::new();
        let (mut thin, mut thick) = (Data::new(), Data::new());
        let fill = |p: usize| self.fill(owners[p]);
        for item in &self.items {
            match item {
                Item::Cell { position, corners } => {
                    group = group.add(
                        Path::new()
                            .set("d", polygon(corners))
                            .set("fill", fill(*position).hex()),
                    );
                }
                Item::Edge { a, b, from, to } => {
                    let outline = b.is_none_or(|b| owners[*a] != owners[b]);
                    let d = if outline { &mut thick } else { &mut thin };
                    *d = std::mem::take(d).move_to(at(*from)).line_to(at(*to));
                }
                Item::Bar { a, b, from, to } => {
                    if owners[*a] == owners[*b] && self.is_mobile(owners[*a]) {
                        group = group.add(
                            stroke(
                                Data::new().move_to(at(*from)).line_to(at(*to)),
                                &fill(*a).hex(),
                                0.3,
                            )
                            .set("stroke-linecap", "butt"),
                        );
                    }
                }
                Item::Ball {
                    position,
                    centre,
                    radius,
                } => {
                    group = group.add(
                        Circle::new()
                            .set("cx", px(centre.0))
                            .set("cy", px(centre.1))
                            .set("r", px(*radius))
                            .set("fill", fill(*position).hex())
                            .set("stroke", OUTLINE.hex())
                            .set("stroke-width", px(THIN * UNIT)),
                    );
                }
                Item::Face {
                    position,
                    corners,
                    shade,
                } => {
                    group = group.add(
                        Path::new()
                            .set("d", polygon(corners))
                            .set("fill", fill(*position).shade(*shade).hex())
                            .set("stroke", OUTLINE.hex())
                            .set("stroke-width", px(THIN * UNIT))
                            .set("stroke-linejoin", "round"),
                    );
                }
                Item::Sphere { position, centre } => {
                    let (cx, cy) = *centre;
                    group = group
                        .add(
                            Circle::new()
                                .set("cx", px(cx))
                                .set("cy", px(cy))
                                .set("r", px(0.5 * UNIT))
                                .set("fill", fill(*position).hex())
                                .set("stroke", OUTLINE.hex())
                                .set("stroke-width", px(THIN * UNIT)),
                        )
                        .add(
                            Circle::new()
                                .set("cx", px(cx - 0.15 * UNIT))
                                .set("cy", px(cy - 0.15 * UNIT))
                                .set("r", px(0.15 * UNIT))
                                .set("fill", "white")
                                .set("fill-opacity", 0.4),
                        );
                }
            }
        }
        if !thin.is_empty() || !thick.is_empty() {
            group = group
                .add(stroke(thin, "#000000", THIN).set("stroke-opacity", 0.45))
                .add(stroke(thick, &OUTLINE.hex(), THICK));
        }
        group
    }

    /// Each mobile piece's name centred on its cell nearest the middle of its cells, in
    /// each layer it lies in (the middle itself may lie off the piece: a V, an L, a ring).
    fn add_labels(&self, mut group: Group, owners: &[u16]) -> Group {
        // For each layer and piece: its cells' centres.
        let mut at: Vec<((usize, u16), Vec<Point>)> = Vec::new();
        for (p, &owner) in owners.iter().enumerate() {
            if !self.is_mobile(owner) {
                continue;
            }
            let key = (self.layer_of(p), owner);
            let centre = self.layer_centre(p);
            match at.iter_mut().find(|(k, _)| *k == key) {
                Some((_, centres)) => centres.push(centre),
                None => at.push((key, vec![centre])),
            }
        }
        for ((_, owner), centres) in at {
            let n = centres.len() as f64;
            let (mx, my) = centres
                .iter()
                .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x / n, sy + y / n));
            let distance = |(x, y): &Point| (x - mx).hypot(y - my);
            let (x, y) = *centres
                .iter()
                .min_by(|a, b| distance(a).total_cmp(&distance(b)))
                .expect("a piece has a cell in each layer it lies in");
            let name = self.info.piece_names.get(owner as usize).map_or("?", |s| s);
            group = group.add(
                Text::new(name)
                    .set("x", px(x))
                    .set("y", px(y))
                    .set("text-anchor", "middle")
                    .set("dominant-baseline", "central")
                    .set("font-family", "sans-serif")
                    .set("font-size", TYPE_SIZE),
            );
        }
        group
    }

    /// Where each layer goes in the isometric view: the layers side by side, each to the
    /// right of the one below it (clear of it by a gap) and a cell's height higher, as a
    /// stair of the box's layers lifted off each other. Each is an offset of the
    /// projection (right, up), in cell edges.
    fn layer_offsets(&self) -> Vec<Point> {
        let zd = self.info.dims[2];
        let mut span = vec![(f64::MAX, f64::MIN); zd];
        for p in (0..self.info.grid.len()).filter(|&p| self.shown(p)) {
            let points = match &self.outlines[p] {
                Outline::Polygon(points) => points.clone(),
                Outline::Ball((x, y)) => vec![(x - 0.6, y - 0.6), (x + 0.6, y + 0.6)],
            };
            let s = &mut span[self.layer_of(p)];
            for q in points {
                let (x, _) = project((q.0, q.1, 0.0));
                *s = (s.0.min(x), s.1.max(x));
            }
        }
        let mut offsets = Vec::with_capacity(zd);
        let mut right = f64::MIN;
        for (z, &(low, high)) in span.iter().enumerate() {
            let dx = if low > high {
                // No shown cell: the layer takes no room.
                0.0
            } else if right == f64::MIN {
                0.0
            } else {
                right + GAP - low
            };
            offsets.push((dx, z as f64));
            if low <= high {
                right = dx + high;
            }
        }
        offsets
    }

    /// Every cell that the isometric view draws, back to front, with its faces in
    /// projected cell edges (y up).
    fn iso_cells(&self) -> Vec<(usize, Vec<Face>)> {
        // How many shown cells of a layer have each edge: a side is hidden where two do.
        let mut sides: HashMap<(usize, EdgeKey), u8> = HashMap::new();
        for p in (0..self.info.grid.len()).filter(|&p| self.shown(p)) {
            if let Outline::Polygon(points) = &self.outlines[p] {
                for k in 0..points.len() {
                    let key = edge_key(points[k], points[(k + 1) % points.len()]);
                    *sides.entry((self.layer_of(p), key)).or_default() += 1;
                }
            }
        }
        let mut cells: Vec<(f64, usize)> = (0..self.info.grid.len())
            .filter(|&p| self.shown(p))
            .map(|p| {
                let (x, y) = centre(&self.outlines[p]);
                // Layers are drawn bottom up; within one, farthest first.
                (self.layer_of(p) as f64 * 1e6 + x - y, p)
            })
            .collect();
        cells.sort_by(|a, b| a.0.total_cmp(&b.0));
        cells
            .into_iter()
            .map(|(_, p)| {
                let open = |a, b| sides.get(&(self.layer_of(p), edge_key(a, b))) == Some(&1);
                (p, self.faces(p, open))
            })
            .collect()
    }

    /// Whether the isometric view draws position p: every open cell, no stationary one
    /// (they would hide the pieces, and often only shape the board).
    fn shown(&self, p: usize) -> bool {
        matches!(self.info.grid[p], Slot::Open(_))
    }

    /// The visible faces of position p's cell, layers lifted apart: the top, and the
    /// sides towards the viewer that no shown cell of the layer covers (`open`).
    fn faces(&self, p: usize, open: impl Fn(Point, Point) -> bool) -> Vec<Face> {
        let (dx, dz) = self.offsets[self.layer_of(p)];
        let lift = |(x, y): Point, up: f64| {
            let (px, py) = project((x, y, dz + up));
            (px + dx, py)
        };
        match &self.outlines[p] {
            Outline::Ball(c) => vec![Face {
                points: vec![lift(*c, 0.0)],
                shade: 1.0,
                ball: true,
            }],
            Outline::Polygon(points) => {
                let mut faces = Vec::new();
                let n = points.len();
                for k in 0..n {
                    let (a, b) = (points[k], points[(k + 1) % n]);
                    // A side faces the viewer (who looks along (1, -1, -1)) when its
                    // outward normal has a positive dot product with (1, -1).
                    let normal = (b.1 - a.1, a.0 - b.0);
                    let facing = normal.0 - normal.1;
                    if facing <= 1e-9 || !open(a, b) {
                        continue;
                    }
                    let shade = 0.55 + 0.3 * (normal.0 / (normal.0.abs() + normal.1.abs()));
                    faces.push(Face {
                        points: vec![lift(a, 0.0), lift(b, 0.0), lift(b, 1.0), lift(a, 1.0)],
                        shade,
                        ball: false,
                    });
                }
                faces.push(Face {
                    points: points.iter().map(|&q| lift(q, 1.0)).collect(),
                    shade: 1.0,
                    ball: false,
                });
                faces
            }
        }
    }
}

/// One face of a cell in the isometric view.
struct Face {
    points: Vec<Point>,
    /// How light the face is (1 the piece's colour).
    shade: f64,
    /// A ball: `points` is its centre.
    ball: bool,
}

/// A length in pixels as it is written: to a thousandth of a pixel, so that a file reads
/// 446.123 where the arithmetic gave 446.1229744348775 (or 7.2 for 7.199999999999999).
/// Whatever is written is rounded where it is written, sums and products included.
pub(crate) fn px(v: f64) -> f64 {
    // `+ 0.0` writes -0 as 0.
    (v * 1000.0).round() / 1000.0 + 0.0
}

/// A point in pixels as it is written (see [`px`]).
fn at((x, y): Point) -> Point {
    (px(x), px(y))
}

/// The isometric projection (cell edges, y up) of a point in space: x runs to the right
/// and down, y to the right and up (away from the viewer), z up.
fn project((x, y, z): (f64, f64, f64)) -> Point {
    let c = SQRT3 / 2.0;
    ((x + y) * c, (y - x) * 0.5 + z)
}

fn polygon(points: &[Point]) -> Data {
    let mut d = Data::new().move_to(at(points[0]));
    for &p in &points[1..] {
        d = d.line_to(at(p));
    }
    d.close()
}

fn stroke(data: Data, colour: &str, width: f64) -> Path {
    Path::new()
        .set("d", data)
        .set("fill", "none")
        .set("stroke", colour)
        .set("stroke-width", px(width * UNIT))
        .set("stroke-linecap", "round")
}

#[cfg(test)]
mod tests {
    use super::px;

    #[test]
    fn lengths_are_written_to_a_thousandth_of_a_pixel() {
        assert_eq!(px(446.122_974_434_877_5).to_string(), "446.123");
        assert_eq!(px(0.3 * 24.0).to_string(), "7.2");
        assert_eq!(px(135.666_641_993_581_6 * 3.0).to_string(), "407");
        assert_eq!(px(-0.000_1).to_string(), "0");
        assert_eq!(px(12.0).to_string(), "12");
    }
}
