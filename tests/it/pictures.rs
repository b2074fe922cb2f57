//! Pictures of solutions (`--svg`): each is rasterised with resvg and checked against the
//! text listing of the same run. Every cell is filled with its piece's colour, every
//! piece has a colour of its own, the outline between two cells is thick exactly where
//! they belong to different pieces, and in the isometric view of a box with depth each
//! cell's top shows its piece's colour.

use std::path::Path;
use std::process::Command;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use runtime::picture::{piece_colour, Picture, Rgb, OUTLINE, THICK, THIN, TITLE, UNIT};
use runtime::{PuzzleInfo, Slot};

use crate::common::{
    executable, files, parse_listing, read, report, root, run_fila, scratch, stderr, stdout, Listed,
};

/// Pixels per picture pixel when rasterising: enough for the thin lines to stay clear of
/// the points sampled beside them.
const SCALE: f32 = 2.0;

/// The puzzle's description, as every engine builds it.
fn info_of(file: &str) -> PuzzleInfo {
    let text = read(&root().join(file));
    let puzzles = generator::load(file, &text).expect("the puzzle reads");
    generator::info::puzzle_info(&puzzles[0], &generator::model::Redundancy::Auto, "test")
        .expect("the puzzle is described")
}

fn rasterise(path: &Path) -> Pixmap {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tree = usvg::Tree::from_data(&data, &usvg::Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let size = tree.size().to_int_size();
    let (w, h) = (
        (size.width() as f32 * SCALE).ceil() as u32,
        (size.height() as f32 * SCALE).ceil() as u32,
    );
    let mut pixmap = Pixmap::new(w, h).expect("a picture of some size");
    resvg::render(
        &tree,
        Transform::from_scale(SCALE, SCALE),
        &mut pixmap.as_mut(),
    );
    pixmap
}

/// The colour at a point of the picture (its own pixels, y down).
fn sample(pixmap: &Pixmap, (x, y): (f64, f64)) -> Rgb {
    let (px, py) = ((x * f64::from(SCALE)) as u32, (y * f64::from(SCALE)) as u32);
    let c = pixmap
        .pixel(px, py)
        .unwrap_or_else(|| panic!("({x}, {y}) is outside the picture"));
    assert_eq!(c.alpha(), 255, "the picture is opaque at ({x}, {y})");
    Rgb(c.red(), c.green(), c.blue())
}

/// Each position's piece index in a listed solution.
fn owners(info: &PuzzleInfo, listed: &Listed) -> Vec<u16> {
    let [xd, yd, _] = info.dims;
    let mut owners = vec![u16::MAX; info.grid.len()];
    for (name, cells) in listed {
        let piece =
            info.piece_names
                .iter()
                .position(|n| n == name)
                .unwrap_or_else(|| panic!("{name} is a piece of the puzzle")) as u16;
        for &[x, y, z] in cells {
            owners[x as usize + xd * (y as usize + yd * z as usize)] = piece;
        }
    }
    owners
}

/// The positions next to each other in one layer, each pair once: those whose cells'
/// centres in the layers view are one cell across apart.
fn neighbours_in_layers(info: &PuzzleInfo, picture: &Picture) -> Vec<(usize, usize)> {
    let across = match info.lattice {
        runtime::Lattice::Triangular => UNIT / 3f64.sqrt(),
        _ => UNIT,
    };
    let per_layer = info.dims[0] * info.dims[1];
    let mut pairs = Vec::new();
    for a in 0..info.grid.len() {
        for b in a + 1..(a / per_layer + 1) * per_layer {
            let (p, q) = (picture.cell_centre(a), picture.cell_centre(b));
            if ((p.0 - q.0).hypot(p.1 - q.1) - across).abs() < 1e-6 {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

fn mobile_at(info: &PuzzleInfo, position: usize) -> bool {
    matches!(info.grid[position], Slot::Open(_))
}

/// Checks one picture of a solution against the solution's owners.
fn check_picture(label: &str, info: &PuzzleInfo, owners: &[u16], path: &Path) {
    let picture = Picture::new(info);
    // Lengths are written to a thousandth of a pixel, on every lattice.
    let svg = std::fs::read_to_string(path).unwrap();
    let long = svg
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .find(|n| {
            n.split_once('.')
                .is_some_and(|(_, decimals)| decimals.len() > 3)
        });
    assert_eq!(
        long, None,
        "{label}: a number written to more than 3 decimals"
    );
    let pixmap = rasterise(path);
    let fill = |owner: u16| match info.grid.iter().zip(owners).find(|(_, &o)| o == owner) {
        Some((Slot::Stationary(_), _)) => runtime::picture::STATIONARY,
        _ => piece_colour(owner as usize),
    };
    // Every cell's middle shows its piece's colour.
    for (p, &owner) in owners.iter().enumerate() {
        let seen = sample(&pixmap, picture.cell_centre(p));
        assert_eq!(seen, fill(owner), "{label}: position {p}, piece {owner}");
    }
    // Every piece has a colour of its own.
    let mobile: std::collections::BTreeSet<u16> = owners
        .iter()
        .zip(&info.grid)
        .filter(|(_, s)| matches!(s, Slot::Open(_)))
        .map(|(&o, _)| o)
        .collect();
    let colours: std::collections::BTreeSet<Rgb> = mobile.iter().map(|&o| fill(o)).collect();
    assert_eq!(colours.len(), mobile.len(), "{label}: one colour per piece");
    assert!(!colours.contains(&OUTLINE) && !colours.contains(&runtime::picture::STATIONARY));
    // Beside the edge between two neighbours, a little way into the first: the outline's
    // colour where they are different pieces, the piece's own where they are one (the
    // thin grid line lies on the edge, narrower than the distance). Balls have no edges:
    // between two balls of one piece a bar of its colour, else the white ground.
    let beside = (THICK + THIN) / 4.0 * UNIT;
    let mut thick = 0;
    for (a, b) in neighbours_in_layers(info, &picture) {
        let (p, q) = (picture.cell_centre(a), picture.cell_centre(b));
        let (mx, my) = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
        if info.lattice == runtime::Lattice::Spheres {
            let seen = sample(&pixmap, (mx, my));
            let one_piece = owners[a] == owners[b] && mobile_at(info, a);
            if one_piece {
                assert_eq!(
                    seen,
                    fill(owners[a]),
                    "{label}: within a piece, {a} and {b}"
                );
            } else {
                assert_eq!(seen, Rgb(255, 255, 255), "{label}: between {a} and {b}");
                thick += 1;
            }
            continue;
        }
        let d = (p.0 - mx).hypot(p.1 - my);
        let at = (mx + (p.0 - mx) * beside / d, my + (p.1 - my) * beside / d);
        let seen = sample(&pixmap, at);
        if owners[a] == owners[b] {
            assert_eq!(
                seen,
                fill(owners[a]),
                "{label}: within a piece, {a} and {b}"
            );
        } else {
            assert_eq!(seen, OUTLINE, "{label}: between pieces, {a} and {b}");
            thick += 1;
        }
    }
    assert!(thick > 0, "{label}: the pieces have outlines between them");
    // Outside the cells: white.
    assert_eq!(
        sample(&pixmap, (1.0, 1.0)),
        Rgb(255, 255, 255),
        "{label}: the ground"
    );
    // The isometric view: the top of every open cell in its piece's colour.
    if info.dims[2] > 1 {
        for (p, slot) in info.grid.iter().enumerate() {
            if let Slot::Open(_) = slot {
                let top = picture
                    .iso_top_centre(p)
                    .unwrap_or_else(|| panic!("{label}: position {p} is in the isometric view"));
                assert_eq!(
                    sample(&pixmap, top),
                    fill(owners[p]),
                    "{label}: the top of position {p} in the isometric view"
                );
            }
        }
    }
}

/// The piece labels of a picture (`--labels`): each name, and the point it is written at
/// in the picture's pixels (y down). They are the texts written from their middle; the
/// title is written from its start.
fn labels_of(path: &Path) -> Vec<(String, (f64, f64))> {
    let svg = std::fs::read_to_string(path).unwrap();
    let attribute = |tag: &str, key: &str| -> f64 {
        let from = tag.find(&format!(" {key}=\"")).expect("the attribute") + key.len() + 3;
        let value = &tag[from..from + tag[from..].find('"').unwrap()];
        value.parse().unwrap()
    };
    svg.split("<text")
        .skip(1)
        .filter(|text| text.contains("text-anchor=\"middle\""))
        .map(|text| {
            let (tag, rest) = text.split_once('>').unwrap();
            let name = rest.split_once("</text>").unwrap().0.trim().to_string();
            // The views are drawn below the title.
            let at = (attribute(tag, "x"), attribute(tag, "y") + TITLE * UNIT);
            (name, at)
        })
        .collect()
}

/// Checks the labels of one picture: one for each mobile piece in each layer it lies
/// in, written on one of its cells (the rasteriser has no fonts, so the point a label is
/// written at shows what lies under it).
fn check_labels(label: &str, info: &PuzzleInfo, owners: &[u16], path: &Path) {
    let pixmap = rasterise(path);
    let per_layer = info.dims[0] * info.dims[1];
    let mut expected: Vec<(usize, &str)> = owners
        .iter()
        .enumerate()
        .filter(|&(p, _)| mobile_at(info, p))
        .map(|(p, &o)| (p / per_layer, info.piece_names[o as usize].as_str()))
        .collect();
    expected.sort();
    expected.dedup();
    let labels = labels_of(path);
    let mut names: Vec<&str> = labels.iter().map(|(n, _)| n.as_str()).collect();
    let mut wanted: Vec<&str> = expected.iter().map(|&(_, n)| n).collect();
    names.sort();
    wanted.sort();
    assert_eq!(names, wanted, "{label}: a label per piece and layer");
    for (name, at) in &labels {
        let piece = info.piece_names.iter().position(|n| n == name).unwrap();
        assert_eq!(
            sample(&pixmap, *at),
            piece_colour(piece),
            "{label}: the label {name} at {at:?} lies on its piece"
        );
    }
}

/// Runs `fila solve` on `file` with `--svg DIR` for the first `n` solutions, and checks
/// each picture against the listing.
fn check_solve(file: &str, n: usize, extra: &[&str]) {
    let name = Path::new(file).file_stem().unwrap().to_str().unwrap();
    let dir = scratch(&format!("solve_{name}"));
    let limit = n.to_string();
    let mut args = vec!["solve", file, "--threads", "1", "--limit", &limit];
    let svg = dir.to_str().unwrap();
    args.extend_from_slice(&["--svg", svg]);
    args.extend_from_slice(extra);
    let out = run_fila(&args, None);
    assert!(out.status.success(), "{file}: {}", stderr(&out));
    let labels = extra.contains(&"--labels");
    check_listing_and_pictures(file, &stdout(&out), &dir, n, labels);
}

fn check_listing_and_pictures(file: &str, text: &str, dir: &Path, n: usize, labels: bool) {
    let info = info_of(file);
    let listing = parse_listing(text, info.dims);
    assert_eq!(listing.len(), n, "{file}: {n} solutions listed");
    let files = files(dir);
    assert_eq!(
        files.len(),
        n,
        "{file}: one picture per solution: {files:?}"
    );
    for (k, (listed, path)) in listing.iter().zip(&files).enumerate() {
        let expected = format!("{}_{:06}.svg", info.name, k + 1);
        assert_eq!(path.file_name().unwrap().to_str().unwrap(), expected);
        let label = format!("{file} solution {}", k + 1);
        let owners = owners(&info, listed);
        check_picture(&label, &info, &owners, path);
        if labels {
            check_labels(&label, &info, &owners, path);
        } else {
            assert!(
                labels_of(path).is_empty(),
                "{label}: no labels unless asked"
            );
        }
    }
}

#[test]
fn pentominoes_in_10x6() {
    check_solve("puzzles/pentomino_10x6.txt", 3, &["--labels"]);
}

#[test]
fn one_sided_pentominoes_in_30x3() {
    check_solve("puzzles/one_sided_30x3.txt", 2, &[]);
}

#[test]
fn soma() {
    check_solve("puzzles/soma.txt", 3, &["--labels"]);
}

#[test]
fn tetris_cube() {
    check_solve("puzzles/tetriscube.txt", 2, &["-r", "L"]);
}

#[test]
fn polyiamonds_and_polyhexes() {
    check_solve("puzzles/hexiamonds_hexagon.txt", 2, &["--labels"]);
    check_solve("puzzles/polyhexes_4x10.txt", 2, &[]);
    check_solve("tests/puzzles/trihexes_hexagon.txt", 2, &[]);
}

#[test]
fn balls_and_prisms() {
    check_solve("tests/puzzles/spheres_pyramid_14.txt", 3, &["--labels"]);
    check_solve("tests/puzzles/prisms_3x2x2.txt", 2, &["--labels"]);
}

/// A generated solver draws as `fila solve` does, with `-q` too.
#[test]
fn a_generated_solver_draws_its_solutions() {
    let dir = scratch("generated_10x6");
    let out = Command::new(executable("pentomino_10x6"))
        .args(["--threads", "1", "--limit", "2", "--labels", "--svg"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    check_listing_and_pictures("puzzles/pentomino_10x6.txt", &stdout(&out), &dir, 2, true);
    let quiet = scratch("generated_10x6_quiet");
    let out = Command::new(executable("pentomino_10x6"))
        .args(["-q", "--limit", "5", "--svg"])
        .arg(&quiet)
        .output()
        .unwrap();
    assert!(out.status.success() && out.stdout.is_empty());
    assert_eq!(std::fs::read_dir(&quiet).unwrap().count(), 5);
}

/// `--svg FILE.svg`: every solution in one picture, one below the other.
#[test]
fn one_file_holds_every_solution() {
    let dir = scratch("one_file");
    let path = dir.join("all.svg");
    let out = run_fila(
        &[
            "solve",
            "-q",
            "-i",
            "puzzles/soma.txt",
            "--svg",
            path.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..100]);
    let n = report(&stdout(&out)).solutions().unwrap();
    assert_eq!(n, 480);
    assert_eq!(text.matches("soma solution ").count(), 480, "a title each");
    let pixmap = rasterise(&path);
    let info = info_of("puzzles/soma.txt");
    let picture = Picture::new(&info);
    let (_, h) = picture.framed_size();
    assert!((f64::from(pixmap.height()) / f64::from(SCALE) - 480.0 * h).abs() < 1.0);
}

/// A path that cannot be written is refused before the search, with exit status 2.
#[test]
fn an_unwritable_path_is_refused() {
    let dir = scratch("unwritable_svg");
    let blocker = dir.join("file");
    std::fs::write(&blocker, "").unwrap();
    for target in [blocker.join("sub"), blocker.join("x.svg")] {
        let out = run_fila(
            &[
                "solve",
                "puzzles/soma.txt",
                "--svg",
                target.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stdout(&out).is_empty(), "nothing is solved");
        assert!(stderr(&out).contains("cannot"), "{}", stderr(&out));
    }
}

/// Several puzzles in one run: one file holds one puzzle's pictures, and a directory each
/// puzzle's under its name, so a file, a page, or two puzzles of one name are refused
/// before anything is solved; two names share a directory.
#[test]
fn several_puzzles_draw_only_where_they_cannot_overwrite() {
    let dir = scratch("several");
    let twice = dir.join("twice");
    std::fs::create_dir_all(&twice).unwrap();
    std::fs::copy(
        root().join("puzzles/soma.txt"),
        twice.join("pentomino_10x6.txt"),
    )
    .unwrap();
    let page = dir.join("g.html").display().to_string();
    let one = dir.join("all.svg").display().to_string();
    let pictures = dir.join("pictures").display().to_string();
    let other = twice.join("pentomino_10x6.txt").display().to_string();
    let both = ["puzzles/soma.txt", "puzzles/pentomino_10x6.txt"];
    let alike = ["puzzles/pentomino_10x6.txt", &other];
    for (args, files, why) in [
        (
            ["--html", &page],
            both,
            "--html takes one puzzle, and the input has 2",
        ),
        (["--svg", &one], both, "--svg FILE.svg takes one puzzle"),
        (
            ["--svg", &pictures],
            alike,
            "two puzzles named pentomino_10x6",
        ),
    ] {
        let out = run_fila(&[&["solve", "-q", "-j1"], &args[..], &files].concat(), None);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}: nothing is solved");
    }
    let out = run_fila(
        &[
            &["solve", "-q", "-j1", "--limit", "2", "--svg", &pictures],
            &both[..],
        ]
        .concat(),
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let drawn = files(Path::new(&pictures));
    let names: Vec<_> = drawn
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "pentomino_10x6_000001.svg",
            "pentomino_10x6_000002.svg",
            "soma_000001.svg",
            "soma_000002.svg"
        ]
    );
}

/// The solutions a checkpoint records (`SOLUTIONS=`).
fn recorded_solutions(checkpoint: &Path) -> u64 {
    let recorded = read(checkpoint);
    (recorded.lines())
        .find_map(|l| l.strip_prefix("SOLUTIONS="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no SOLUTIONS= in {recorded}"))
}

/// A resumed run's file of every solution and its gallery hold the solutions it finds
/// itself, and their headings say so (those found before the stop are not drawn again).
#[test]
fn a_resumed_runs_one_file_says_what_it_holds() {
    let dir = scratch("resumed_one_file");
    let (svg, html) = (dir.join("all.svg"), dir.join("all.html"));
    let checkpoint = dir.join("run.checkpoint").display().to_string();
    let draw = |args: &[&str]| {
        let pictures = [
            "--svg",
            svg.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ];
        let out = run_fila(
            &[
                &["solve", "-q", "-j1"][..],
                &pictures,
                args,
                &["puzzles/soma.txt"],
            ]
            .concat(),
            None,
        );
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        (read(&svg), read(&html))
    };
    let title = |text: &str| {
        let start = text.find("<title>").unwrap() + "<title>".len();
        text[start..start + text[start..].find("</title>").unwrap()].to_string()
    };
    let (one, page) = draw(&["--limit", "100", "--checkpoint", &checkpoint]);
    assert_eq!(title(&one), "soma: 100 solutions");
    assert_eq!(title(&page), "soma: 100 solutions");
    // The checkpoint of the stopped run counted those it had finished the subtrees of.
    let counted = recorded_solutions(Path::new(&checkpoint));
    let (one, page) = draw(&["--resume", &checkpoint]);
    assert_eq!(recorded_solutions(Path::new(&checkpoint)), 480);
    let drawn = one.matches("soma solution ").count();
    assert!((380..480).contains(&drawn), "{drawn} drawn");
    assert_eq!(drawn as u64, 480 - counted, "the resumed run draws its own");
    let heading = format!(
        "soma: {drawn} solutions, those found after the first {} (a resumed run draws only \
         its own)",
        480 - drawn
    );
    assert_eq!(title(&one), heading);
    assert_eq!(title(&page), heading);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--svg DIR` holds one run's pictures: a run that finds fewer solutions than the run
/// before removes that run's pictures past its own, and nothing else; a resumed run keeps
/// those it counted before; a shard's pictures are named by it, a puzzle read from
/// standard input `stdin`; `--svg -` and `--html -` are refused.
#[test]
fn a_directory_holds_one_runs_pictures() {
    let dir = scratch("one_run");
    let svg = dir.to_str().unwrap();
    let soma = "puzzles/soma.txt";
    let names = || -> Vec<String> {
        files(&dir)
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
            .collect()
    };
    let pictures = |stem: &str, range: std::ops::RangeInclusive<u64>| -> Vec<String> {
        range.map(|k| format!("{stem}_{k:06}.svg")).collect()
    };
    let draw = |args: &[&str], stdin: Option<&str>| {
        let out = run_fila(
            &[&["solve", "-q", "-j1", "--svg", svg], args].concat(),
            stdin,
        );
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    };
    draw(&["--limit", "5", soma], None);
    assert_eq!(names(), pictures("soma", 1..=5));
    // Not pictures of this run's puzzle, or not its pictures' names: kept.
    let others = [
        "notes.svg",
        "soma_2_000009.svg",
        "soma_00001.svg",
        "soma_000009.txt",
    ];
    for other in others {
        std::fs::write(dir.join(other), "").unwrap();
    }
    draw(&["--limit", "3", soma], None);
    let mut expected: Vec<String> = others.iter().map(|s| s.to_string()).collect();
    expected.extend(pictures("soma", 1..=3));
    expected.sort();
    assert_eq!(names(), expected);
    // A run stopped at a limit, resumed: the pictures of the solutions its checkpoint
    // counted stay as they are (here marked), the others are drawn anew, and the stale
    // picture past them goes.
    let checkpoint = dir.join("run.checkpoint").display().to_string();
    draw(&["--limit", "100", "--checkpoint", &checkpoint, soma], None);
    let counted = recorded_solutions(Path::new(&checkpoint));
    assert!((1..100).contains(&counted), "{counted} solutions counted");
    for k in 1..=counted {
        std::fs::write(dir.join(format!("soma_{k:06}.svg")), "marked").unwrap();
    }
    std::fs::write(dir.join("soma_000999.svg"), "stale").unwrap();
    draw(&["--resume", &checkpoint, soma], None);
    // The Soma's 480 solutions up to rotation.
    for k in 1..=480 {
        let picture = read(&dir.join(format!("soma_{k:06}.svg")));
        assert_eq!(picture == "marked", k <= counted, "soma_{k:06}.svg");
    }
    assert!(!dir.join("soma_000481.svg").exists() && !dir.join("soma_000999.svg").exists());
    // Shards number their solutions from 1 each, and keep to names of their own.
    let before = names();
    for shard in ["1/2", "2/2"] {
        draw(&["--limit", "2", "--shard", shard, soma], None);
    }
    let mut expected = before;
    expected.extend(pictures("soma_1of2", 1..=2));
    expected.extend(pictures("soma_2of2", 1..=2));
    expected.sort();
    assert_eq!(names(), expected);
    let text = read(&root().join(soma));
    let fresh = scratch("one_run_stdin");
    let out = run_fila(
        &[
            "solve",
            "-q",
            "--limit",
            "1",
            "--svg",
            fresh.to_str().unwrap(),
            "-",
        ],
        Some(&text),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(files(&fresh), [fresh.join("stdin_000001.svg")]);
    for args in [
        &["solve", "-q", "--svg", "-", soma][..],
        &["solve", "-q", "--html", "-", soma][..],
        &["render", soma, "--svg", "-"][..],
    ] {
        let out = run_fila(args, Some(""));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("not to standard output (-)"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// `fila render` draws a saved listing as the run that listed it drew it: the same files,
/// byte for byte.
#[test]
fn a_rendered_listing_is_the_run_s_own_picture() {
    for (file, n) in [
        ("puzzles/pentomino_10x6.txt", 4),
        ("puzzles/tetriscube.txt", 2),
        ("tests/puzzles/trihexes_hexagon.txt", 3),
        ("tests/puzzles/spheres_pyramid_14.txt", 3),
    ] {
        let name = Path::new(file).file_stem().unwrap().to_str().unwrap();
        let (ran, rendered) = (
            scratch(&format!("ran_{name}")),
            scratch(&format!("rendered_{name}")),
        );
        let limit = n.to_string();
        let out = run_fila(
            &[
                "solve",
                file,
                "-i",
                "--limit",
                &limit,
                "--svg",
                ran.to_str().unwrap(),
            ],
            None,
        );
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        let listing = stdout(&out);
        // (`--labels=false`, as `fila solve` takes it: the same pictures as without.)
        let out = run_fila(
            &[
                "render",
                file,
                "-",
                "--labels=false",
                "--svg",
                rendered.to_str().unwrap(),
            ],
            Some(&listing),
        );
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        for k in 1..=n {
            let picture = format!("{}_{k:06}.svg", info_of(file).name);
            let (a, b) = (
                std::fs::read(ran.join(&picture)).unwrap(),
                std::fs::read(rendered.join(&picture)).unwrap(),
            );
            assert!(a == b, "{file}: {picture} differs");
        }
    }
}

/// polycube's own output, as printed in Matt Busche's article (three solutions of
/// hexominoes in two boxes, with a stationary row between them), drawn by `fila render`
/// with the definition drawn from its first solution: each picture shows its listing,
/// and is the picture fila's own listing of the same solution draws, byte for byte.
#[test]
fn polycube_s_own_listing_is_drawn() {
    let definition = "tests/listings/polycube_hexominoes_definition.txt";
    let listing = "tests/listings/polycube_hexominoes.txt";
    let dir = scratch("polycube_listing");
    let ours = scratch("polycube_listing_by_fila");
    let out = run_fila(
        &[
            "render",
            definition,
            listing,
            "--labels",
            "--svg",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // The article indents the listing; the test's reader takes it without.
    let text: String = read(&root().join(listing))
        .lines()
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    check_listing_and_pictures(definition, &text, &dir, 3, true);

    // fila's own listing of the same solutions. Its search of the whole puzzle (34
    // hexominoes) is far too long for a test, so each solution is listed by `fila solve`
    // as the one solution of the puzzle with every piece stationary where polycube placed
    // it (what `-f F` writes), numbered as polycube numbered it, and drawn with the
    // puzzle's own definition.
    let info = info_of(definition);
    let [xd, yd, zd] = info.dims;
    let mut by_fila = String::new();
    for (k, solution) in text.split("# --- SOLUTION ").skip(1).enumerate() {
        let rows: Vec<&str> = solution.lines().skip(1).take(yd).collect();
        let mut names: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
        names.sort_unstable();
        names.dedup();
        let fixed = ours.join(format!("fixed_{}.txt", k + 1));
        std::fs::write(
            &fixed,
            format!(
                "D:xDim={xd}:yDim={yd}:zDim={zd}\nL:stationary={}\n{}\n~L\n~D\n",
                names.join(" "),
                rows.join("\n")
            ),
        )
        .unwrap();
        let out = run_fila(&["solve", fixed.to_str().unwrap()], None);
        assert!(out.status.success(), "solution {}: {}", k + 1, stderr(&out));
        let listed = stdout(&out);
        assert_eq!(listed.matches("# --- SOLUTION ").count(), 1, "{listed}");
        by_fila.push_str(&listed.replace(
            "# --- SOLUTION 1 ---",
            &format!("# --- SOLUTION {} ---", k + 1),
        ));
    }
    let pictures = ours.join("pictures");
    let out = run_fila(
        &[
            "render",
            definition,
            "-",
            "--labels",
            "--svg",
            pictures.to_str().unwrap(),
        ],
        Some(&by_fila),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    for k in 1..=3 {
        let picture = format!("{}_{k:06}.svg", info.name);
        let (theirs, fila) = (
            std::fs::read(dir.join(&picture)).unwrap(),
            std::fs::read(pictures.join(&picture)).unwrap(),
        );
        assert!(
            theirs == fila,
            "{picture}: polycube's and fila's listings differ"
        );
    }
}

/// A listing that does not fit its puzzle is refused with its line, exit status 2, and
/// no picture.
#[test]
fn a_listing_that_does_not_fit_is_refused() {
    let file = "tests/puzzles/one_sided_tetromino_7x4.txt";
    let good = "# --- SOLUTION 1 ---\n";
    let cases = [
        ("", "no solution in the listing"),
        ("# --- SOLUTION x ---\n", ":1: error: not a solution header"),
        (good, ":1: error: solution 1 ends before its 4 rows"),
    ];
    let info = info_of(file);
    let names = &info.piece_names;
    let row = |names: &[&str]| format!("{}\n", names.join(" "));
    let first = names[0].as_str();
    let short_row = format!("{good}{}", row(&[first; 6]));
    let one_cell = format!("{good}{}", row(&[first; 1]));
    let long_row = format!("{good}{}", row(&[first; 8]));
    let two_layers = format!("{good}{} , {}", row(&[first; 7]).trim(), row(&[first; 7]));
    let stranger = format!("{good}{}", row(&["Q9"; 7]));
    let too_many = format!("{good}{}", row(&[first; 7]).repeat(4));
    let row_missing = format!("{good}{}\n{good}", row(&[first; 7]).repeat(3));
    let next_header = format!("{good}{}{good}", row(&[first; 7]).repeat(2));
    let dir = scratch("bad_listing");
    let svg = dir.join("x.svg");
    // `fila render` refuses `text` for the puzzle of `file` with every part of `expected`
    // in its message, and draws nothing.
    let refused = |file: &str, text: &str, expected: &[&str]| {
        let out = run_fila(
            &["render", file, "-", "--svg", svg.to_str().unwrap()],
            Some(text),
        );
        assert_eq!(out.status.code(), Some(2), "{text:?}: {}", stderr(&out));
        for part in expected {
            assert!(
                stderr(&out).contains(part),
                "{text:?}: expected {part:?} in {}",
                stderr(&out)
            );
        }
        assert!(!svg.exists(), "{text:?}: no picture");
    };
    for (text, expected) in cases.iter().map(|(t, e)| (t.to_string(), *e)).chain([
        (short_row, ":2: error: 6 cells in a row of a 7x4x1 box"),
        (one_cell, ":2: error: 1 cell in a row of a 7x4x1 box"),
        (long_row, ":2: error: 8 cells in a row of a 7x4x1 box"),
        (two_layers, ":2: error: 2 layers in a row of a 7x4x1 box"),
        (stranger, ":2: error: no piece is named 'Q9'"),
        (too_many, ":1: error: solution 1: piece"),
        (
            row_missing,
            ":5: error: solution 1 ends after 3 of its 4 rows (a 7x4x1 box)",
        ),
        (
            next_header,
            ":4: error: solution 1 ends after 2 of its 4 rows",
        ),
    ]) {
        refused(file, &text, &[expected]);
    }
    // A solution of a one-sided puzzle, mirrored: every piece has its number of cells,
    // but the chiral ones lie as the other hand, which is not one of their images.
    let file = "puzzles/one_sided_30x3.txt";
    let out = run_fila(&["solve", file, "--limit", "1"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let listed = stdout(&out);
    let mirrored: String = listed
        .lines()
        .skip_while(|l| !l.starts_with("# --- SOLUTION"))
        .take(4)
        .enumerate()
        .map(|(k, l)| match k {
            0 => format!("{l}\n"),
            _ => row(&l.split_whitespace().rev().collect::<Vec<_>>()),
        })
        .collect();
    assert_eq!(mirrored.lines().count(), 4, "{listed}");
    refused(
        file,
        &mirrored,
        &[
            ":1: error: solution 1: piece '",
            "' is not in one of its own orientations",
        ],
    );
    // A listing written as definitions (`-f F`, `-f S`) is not read as rows.
    for args in [&["-f", "F"][..], &["-g", "3", "-f", "SC"][..]] {
        let out = run_fila(&[&["solve", file, "--limit", "1"][..], args].concat(), None);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        refused(
            file,
            &stdout(&out),
            &[
                ":3: error: solution 1 is written as a puzzle definition (-f F or -f S), \
               and only the brief layout (-f B, the default) is read",
            ],
        );
    }
    // The same listing as it was read.
    let out = run_fila(
        &["render", file, "-", "--svg", svg.to_str().unwrap()],
        Some(&listed),
    );
    assert!(out.status.success(), "{listed}: {}", stderr(&out));
}

/// The gallery page: every listed solution in the page's data, its counts at the top.
#[test]
fn a_gallery_holds_every_solution() {
    let dir = scratch("gallery");
    let page = dir.join("soma.html");
    // One run lists the solutions and writes the page: the same ones in the same order.
    let run = run_fila(
        &[
            "solve",
            "puzzles/soma.txt",
            "--html",
            page.to_str().unwrap(),
        ],
        None,
    );
    let out = &run;
    assert!(out.status.success(), "{}", stderr(out));
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.starts_with("<!DOCTYPE html>"));
    assert!(text.contains("SOLUTIONS=480, UNIQUE=480; 480 drawn here."));
    // One line of owners per solution, numbered 1 to 480.
    let data =
        &text[text.find("const SOLUTIONS = [").unwrap()..text.find("const PER_PAGE").unwrap()];
    let numbers: Vec<u64> = data
        .lines()
        .map(|l| {
            let l = l
                .trim_start_matches("const SOLUTIONS = [")
                .trim_start_matches('[');
            l[..l.find(',').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(numbers, (1..=480).collect::<Vec<u64>>());
    // `fila render --html` of the run's listing writes the same data.
    let rendered = dir.join("rendered.html");
    let out = run_fila(
        &[
            "render",
            "puzzles/soma.txt",
            "--html",
            rendered.to_str().unwrap(),
        ],
        Some(&stdout(&run)),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let again = std::fs::read_to_string(&rendered).unwrap();
    let data_of =
        |t: &str| t[t.find("const PUZZLE").unwrap()..t.find("const PER_PAGE").unwrap()].to_string();
    assert!(data_of(&text) == data_of(&again), "the same data");
    // With neither, the message names both ways to draw.
    let out = run_fila(&["render", "puzzles/soma.txt"], Some(&stdout(&run)));
    assert_eq!(out.status.code(), Some(2));
    let (said, svg, html) = (stderr(&out), "--svg <FILE.svg|DIR>", "--html <FILE.html>");
    assert!(said.contains(svg) && said.contains(html), "{said}");
}

/// Runs Debian's headless Chromium on `page`: the page's DOM once its script has run,
/// and a screenshot of the window into `png`. `None` where Chromium is missing (a failure
/// under `FILA_REQUIRE_CHROMIUM=1`, which `.ci/run` sets after installing it).
fn chromium(page: &Path, png: &Path) -> Option<String> {
    let found = Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("FILA_REQUIRE_CHROMIUM").is_err(),
            "Chromium is required here: apt-get install chromium"
        );
        eprintln!("note: chromium is not installed; the gallery is not opened");
        return None;
    }
    let url = format!("file://{}", page.display());
    let common = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--virtual-time-budget=10000",
        "--window-size=1280,1000",
    ];
    let run = |extra: &str| {
        let out = Command::new("chromium")
            .args(common)
            .arg(extra)
            .arg(&url)
            .env("HOME", page.parent().unwrap())
            .output()
            .expect("chromium runs");
        assert!(out.status.success(), "chromium {extra}: {}", stderr(&out));
        out
    };
    run(&format!("--screenshot={}", png.display()));
    Some(stdout(&run("--dump-dom")))
}

/// The gallery of the 10x6 pentominoes and of the Tetris Cube, opened in headless
/// Chromium: the first page of thumbnails is drawn (48 of them, each with its pieces in
/// their colours) and says how many solutions there are; the screenshots are kept in
/// `fila-tests/browser` beside the `fila` executable.
#[test]
fn the_gallery_opens_in_a_browser() {
    let dir = scratch("browser");
    let cases = [
        ("pentomino_10x6", 2339usize, &["--threads", "1"][..]),
        ("tetriscube", 9839, &["-r", "L"][..]),
    ];
    for (name, solutions, args) in cases {
        let page = dir.join(format!("{name}.html"));
        let out = Command::new(executable(name))
            .args(["-q", "--html"])
            .arg(&page)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let png = dir.join(format!("{name}.png"));
        let Some(dom) = chromium(&page, &png) else {
            return;
        };
        assert_eq!(
            dom.matches("<svg class=\"thumb\"").count(),
            48,
            "{name}: 48 thumbnails"
        );
        assert!(dom.contains("data-drawn=\"48\""), "{name}: the script ran");
        let pages = solutions.div_ceil(48);
        let where_ = format!("solutions 1 to 48 of {solutions} (page 1 of {pages})");
        assert!(dom.contains(&where_), "{name}: {where_:?} is shown");
        assert!(dom.contains(&format!("SOLUTIONS={solutions}, UNIQUE={solutions}")));
        // The screenshot shows the pieces: many of their colours, not a blank page.
        let shot = Pixmap::load_png(&png).expect("a PNG screenshot");
        let colours: std::collections::BTreeSet<Rgb> = shot
            .pixels()
            .iter()
            .map(|c| Rgb(c.red(), c.green(), c.blue()))
            .collect();
        let pieces = (0..12)
            .filter(|&p| colours.contains(&piece_colour(p)))
            .count();
        assert!(
            pieces >= 10,
            "{name}: {pieces} piece colours in the screenshot"
        );
    }
}
