//! The gallery (`--html FILE`): one self-contained page with every listed solution as a
//! thumbnail, a page of them at a time so that thousands stay usable, and a larger view
//! on a click. The page holds the puzzle's picture items once ([`Picture::items`]) and
//! each solution as its owners; its script draws the items of the solutions on view as
//! SVG, coloured as [`Picture::document`] colours them.

use std::fmt::Write as _;

use crate::picture::{Item, Picture, EMPTY, OUTLINE, THICK, THIN, UNIT};

/// Thumbnails per page.
pub const PER_PAGE: usize = 48;

/// The page's style and script, as files of their own.
const STYLE: &str = include_str!("gallery.css");
const SCRIPT: &str = include_str!("gallery.js");

/// A number for the page's data: at most two decimals, no trailing zeros.
fn num(out: &mut String, v: f64) {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    out.push_str(if s == "-0" { "0" } else { s });
}

fn points(out: &mut String, points: &[(f64, f64)]) {
    out.push('[');
    for (k, &(x, y)) in points.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        num(out, x);
        out.push(',');
        num(out, y);
    }
    out.push(']');
}

/// `text` as a JavaScript string literal (and safe inside a `<script>` element).
fn js_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` for HTML.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The items as the script reads them: `[kind, ...]` with `c` a cell (position,
/// corners), `e` an edge (a, b or -1, from, to), `r` a bar (a, b, from, to), `b` a ball
/// (position, x, y, radius), `f` a face (position, corners, shade), `s` a ball in the
/// isometric view (position, x, y).
fn items_json(out: &mut String, items: &[Item]) {
    out.push('[');
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.push_str(",\n");
        }
        match item {
            Item::Cell { position, corners } => {
                let _ = write!(out, "[\"c\",{position},");
                points(out, corners);
            }
            Item::Edge { a, b, from, to } => {
                let b = b.map_or(-1, |b| b as i64);
                let _ = write!(out, "[\"e\",{a},{b},");
                points(out, &[*from, *to]);
            }
            Item::Bar { a, b, from, to } => {
                let _ = write!(out, "[\"r\",{a},{b},");
                points(out, &[*from, *to]);
            }
            Item::Ball {
                position,
                centre,
                radius,
            } => {
                let _ = write!(out, "[\"b\",{position},");
                points(out, &[*centre]);
                out.push(',');
                num(out, *radius);
            }
            Item::Face {
                position,
                corners,
                shade,
            } => {
                let _ = write!(out, "[\"f\",{position},");
                points(out, corners);
                out.push(',');
                num(out, *shade);
            }
            Item::Sphere { position, centre } => {
                let _ = write!(out, "[\"s\",{position},");
                points(out, &[*centre]);
            }
        }
        out.push(']');
    }
    out.push(']');
}

/// The page of `solutions` (each its number and owners) of `picture`'s puzzle, titled
/// `title` and headed by `counts` (what the run counted).
pub fn page(
    picture: &Picture<'_>,
    title: &str,
    counts: &str,
    solutions: &[(u64, Vec<u16>)],
) -> String {
    let info = picture.info();
    let mut data = String::new();
    let (w, h) = picture.size();
    let fills: Vec<String> = (0..info.piece_names.len())
        .map(|p| format!("\"{}\"", picture.fill(p as u16).hex()))
        .collect();
    let mobile: Vec<&str> = (0..info.piece_names.len())
        .map(|p| if picture.is_mobile_piece(p) { "1" } else { "0" })
        .collect();
    let _ = write!(
        data,
        "const PUZZLE = {{name: {}, w: {}, h: {}, unit: {UNIT}, thin: {THIN}, thick: {THICK}, \
         outline: \"{}\", empty: \"{}\", fills: [{}], mobile: [{}], items: ",
        js_string(&info.name),
        w.ceil(),
        h.ceil(),
        OUTLINE.hex(),
        EMPTY.hex(),
        fills.join(","),
        mobile.join(","),
    );
    items_json(&mut data, picture.items());
    data.push_str("};\nconst SOLUTIONS = [");
    for (k, (n, owners)) in solutions.iter().enumerate() {
        if k > 0 {
            data.push_str(",\n");
        }
        let _ = write!(data, "[{n},[");
        for (j, &o) in owners.iter().enumerate() {
            if j > 0 {
                data.push(',');
            }
            if o == u16::MAX {
                data.push_str("-1");
            } else {
                let _ = write!(data, "{o}");
            }
        }
        data.push_str("]]");
    }
    data.push_str("];\n");
    let title = html_escape(title);
    let counts = html_escape(counts);
    let name = html_escape(&info.name);
    let mut page = String::new();
    let _ = write!(
        page,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="fila">
<title>{title}</title>
<style>
{STYLE}</style>
</head>
<body>
<h1>{name}</h1>
<p id="counts">{counts}; {count} drawn here.</p>
<nav><button id="prev">&#9664; previous</button> <span id="where"></span> <button id="next">next &#9654;</button></nav>
<div id="grid"></div>
<div id="big" hidden><div><svg id="bigsvg"></svg><p id="bigtitle"></p></div></div>
<script>
{data}const PER_PAGE = {PER_PAGE};
{SCRIPT}</script>
</body>
</html>
"#,
        count = solutions.len(),
    );
    page
}
