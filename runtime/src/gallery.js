// The gallery's script (runtime/src/gallery.rs writes the page): draws the items of
// PUZZLE for the solutions on view, a page of thumbnails at a time, as
// runtime::picture draws them.
const NS = "http://www.w3.org/2000/svg";
function shade(hex, f) {
  const c = [1, 3, 5].map(i => Math.round(parseInt(hex.substr(i, 2), 16) * f));
  return "#" + c.map(v => v.toString(16).padStart(2, "0")).join("");
}
function path(p) {
  let d = "M" + p[0] + "," + p[1];
  for (let i = 2; i < p.length; i += 2) d += "L" + p[i] + "," + p[i + 1];
  return d + "z";
}
function add(svg, tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  svg.appendChild(e);
  return e;
}
// The picture of one solution, as the Rust side draws it (runtime::picture).
function draw(svg, owners) {
  const u = PUZZLE.unit;
  svg.setAttribute("viewBox", "0 0 " + PUZZLE.w + " " + PUZZLE.h);
  add(svg, "rect", {width: PUZZLE.w, height: PUZZLE.h, fill: "white"});
  const fill = p => owners[p] < 0 ? PUZZLE.empty : PUZZLE.fills[owners[p]];
  let thin = "", thick = "";
  for (const it of PUZZLE.items) {
    switch (it[0]) {
      case "c": add(svg, "path", {d: path(it[2]), fill: fill(it[1])}); break;
      case "e": {
        const seg = "M" + it[3][0] + "," + it[3][1] + "L" + it[3][2] + "," + it[3][3];
        if (it[2] < 0 || owners[it[1]] !== owners[it[2]]) thick += seg; else thin += seg;
        break;
      }
      case "r":
        if (owners[it[1]] === owners[it[2]] && owners[it[1]] >= 0 && PUZZLE.mobile[owners[it[1]]])
          add(svg, "path", {d: "M" + it[3][0] + "," + it[3][1] + "L" + it[3][2] + "," + it[3][3],
            fill: "none", stroke: fill(it[1]), "stroke-width": 0.3 * u});
        break;
      case "b": add(svg, "circle", {cx: it[2][0], cy: it[2][1], r: it[3], fill: fill(it[1]),
        stroke: PUZZLE.outline, "stroke-width": PUZZLE.thin * u}); break;
      case "f": add(svg, "path", {d: path(it[2]), fill: shade(fill(it[1]), it[3]),
        stroke: PUZZLE.outline, "stroke-width": PUZZLE.thin * u, "stroke-linejoin": "round"}); break;
      case "s":
        add(svg, "circle", {cx: it[2][0], cy: it[2][1], r: 0.5 * u, fill: fill(it[1]),
          stroke: PUZZLE.outline, "stroke-width": PUZZLE.thin * u});
        add(svg, "circle", {cx: it[2][0] - 0.15 * u, cy: it[2][1] - 0.15 * u, r: 0.15 * u,
          fill: "white", "fill-opacity": 0.4});
        break;
    }
  }
  add(svg, "path", {d: thin, fill: "none", stroke: "#000000", "stroke-opacity": 0.45,
    "stroke-width": PUZZLE.thin * u, "stroke-linecap": "round"});
  add(svg, "path", {d: thick, fill: "none", stroke: PUZZLE.outline,
    "stroke-width": PUZZLE.thick * u, "stroke-linecap": "round"});
}
const pages = Math.max(1, Math.ceil(SOLUTIONS.length / PER_PAGE));
let page = 0;
function show(k) {
  page = Math.min(Math.max(k, 0), pages - 1);
  const grid = document.getElementById("grid");
  grid.replaceChildren();
  const first = page * PER_PAGE;
  const shown = SOLUTIONS.slice(first, first + PER_PAGE);
  for (const [n, owners] of shown) {
    const cell = document.createElement("div");
    cell.className = "cell";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "thumb");
    draw(svg, owners);
    cell.appendChild(svg);
    const label = document.createElement("span");
    label.textContent = "solution " + n;
    cell.appendChild(label);
    cell.addEventListener("click", () => enlarge(n, owners));
    grid.appendChild(cell);
  }
  document.getElementById("where").textContent = SOLUTIONS.length === 0 ? "no solutions"
    : "solutions " + (first + 1) + " to " + (first + shown.length) + " of " + SOLUTIONS.length
      + " (page " + (page + 1) + " of " + pages + ")";
  document.getElementById("prev").disabled = page === 0;
  document.getElementById("next").disabled = page === pages - 1;
  document.body.dataset.drawn = shown.length;
}
function enlarge(n, owners) {
  const svg = document.getElementById("bigsvg");
  svg.replaceChildren();
  draw(svg, owners);
  svg.setAttribute("width", Math.min(PUZZLE.w * 2, window.innerWidth * 0.9));
  document.getElementById("bigtitle").textContent = PUZZLE.name + ", solution " + n;
  document.getElementById("big").hidden = false;
}
document.getElementById("big").addEventListener("click", () => document.getElementById("big").hidden = true);
document.addEventListener("keydown", e => {
  if (e.key === "Escape") document.getElementById("big").hidden = true;
  if (e.key === "ArrowRight") show(page + 1);
  if (e.key === "ArrowLeft") show(page - 1);
});
document.getElementById("prev").addEventListener("click", () => show(page - 1));
document.getElementById("next").addEventListener("click", () => show(page + 1));
show(0);
