// The board drawn in SVG. It knows only where each square is drawn
// (RULES.md §1: relative square p of colour c is the main-track square
// (13c + p) mod the track's length, then the colour's lane and home); which
// plays are legal comes from the engine.
//
// Everything about where things are drawn lives in a geometry object
// (`CROSS`, the four-sided board's 15 x 15 cross; `HEX`, the six-sided
// board's six arms round a hexagon); the drawing code reads only the
// geometry, so another board shape is another geometry.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;
export const COLOURS = ["red", "green", "yellow", "blue", "orange", "purple"];
export const LETTERS = ["r", "g", "y", "b", "o", "p"];
export const FILL = {
  red: "#d9342b",
  green: "#2e9e44",
  yellow: "#e8c21a",
  blue: "#2f6fd6",
  orange: "#ee7d1b",
  purple: "#8a3fb8",
};
export const NAMES = ["Red", "Green", "Yellow", "Blue", "Orange", "Purple"];

// The four-sided board: 52 main-track cells from red's doorstep clockwise,
// a five-cell lane and a home triangle per colour, a base per colour.
function crossGeometry() {
  const track = [];
  const run = (x, y, dx, dy, n) => {
    for (let i = 0; i < n; i++) track.push([x + dx * i, y + dy * i]);
  };
  run(1, 6, 1, 0, 5);
  run(6, 5, 0, -1, 6);
  run(7, 0, 1, 0, 1);
  run(8, 0, 0, 1, 6);
  run(9, 6, 1, 0, 6);
  run(14, 7, 0, 1, 1);
  run(14, 8, -1, 0, 6);
  run(8, 9, 0, 1, 6);
  run(7, 14, -1, 0, 1);
  run(6, 14, 0, -1, 6);
  run(5, 8, -1, 0, 6);
  run(0, 7, 0, -1, 1);
  run(0, 6, 0, -1, 1);
  const lanes = [
    [1, 7, 1, 0],
    [7, 1, 0, 1],
    [13, 7, -1, 0],
    [7, 13, 0, -1],
  ].map(([x, y, dx, dy]) => [0, 1, 2, 3, 4].map((i) => [x + dx * i, y + dy * i]));
  const m = 7.5;
  return {
    size: 15,
    colours: 4,
    track,
    lastTrack: 50, // a colour's last main-track square (RULES.md §1)
    lanes,
    bases: [
      [0, 0],
      [9, 0],
      [9, 9],
      [0, 9],
    ],
    baseSize: 6,
    homes: [
      [6.5, 7.5],
      [7.5, 6.5],
      [8.5, 7.5],
      [7.5, 8.5],
    ],
    homeShapes: [
      [[6, 6], [6, 9], [m, m]],
      [[6, 6], [9, 6], [m, m]],
      [[9, 6], [9, 9], [m, m]],
      [[6, 9], [9, 9], [m, m]],
    ],
  };
}
export const CROSS = crossGeometry();

// The six-sided board (RULES.md §11): 78 main-track squares, 13 a colour.
// Each colour has an arm three cells wide and six long, standing on one
// edge of a central hexagon (the homes, one triangle a colour); arms point
// outwards 60 degrees apart, clockwise in turn order from red's (pointing
// left, as on the cross). On its arm a colour's squares run as on the
// cross: the outer column of the arm before it outwards, the tip (the
// square in line with the lane, 76), the inner column's outermost square,
// then the doorstep and four more inwards; the lane is the middle column,
// from the tip inwards. Bases sit in the wedge between an arm and the next.
function hexGeometry() {
  const colours = 6;
  const size = 19;
  const mid = size / 2;
  const apothem = (3 * Math.sqrt(3)) / 2; // the hexagon's side is an arm's width
  const deg = (c) => 180 + 60 * c;
  const frame = (c) => {
    const a = (deg(c) * Math.PI) / 180;
    return { out: [Math.cos(a), Math.sin(a)], side: [-Math.sin(a), Math.cos(a)] };
  };
  // Cell of arm c: `u` cells out from the hexagon (0..5), `v` across the
  // arm (+1 the inner column, the one with the doorstep; -1 the outer).
  const cellOf = (c, u, v) => {
    const { out, side } = frame(c);
    const r = apothem + u + 0.5;
    const x = mid + out[0] * r + side[0] * v;
    const y = mid + out[1] * r + side[1] * v;
    return [x - 0.5, y - 0.5, deg(c) + 90];
  };
  const track = new Array(13 * colours);
  for (let c = 0; c < colours; c++) {
    const at = (i) => ((i % track.length) + track.length) % track.length;
    for (let k = 0; k < 6; k++) track[at(13 * c - 8 + k)] = cellOf(c, k, -1);
    track[at(13 * c - 2)] = cellOf(c, 5, 0);
    track[at(13 * c - 1)] = cellOf(c, 5, 1);
    for (let j = 0; j < 5; j++) track[at(13 * c + j)] = cellOf(c, 4 - j, 1);
  }
  const lanes = [];
  const homes = [];
  const homeShapes = [];
  const bases = [];
  for (let c = 0; c < colours; c++) {
    lanes.push([4, 3, 2, 1, 0].map((u) => cellOf(c, u, 0)));
    const { out, side } = frame(c);
    const corner = (v) => [mid + out[0] * apothem + side[0] * v * 1.5, mid + out[1] * apothem + side[1] * v * 1.5];
    homeShapes.push([corner(1), corner(-1), [mid, mid]]);
    homes.push([mid + out[0] * apothem * 0.62, mid + out[1] * apothem * 0.62]);
    const b = ((deg(c) + 30) * Math.PI) / 180;
    bases.push([mid + Math.cos(b) * 6.9, mid + Math.sin(b) * 6.9]);
  }
  return {
    size,
    colours,
    track,
    lastTrack: 76,
    lanes,
    bases, // centres
    baseRadius: 1.85,
    homes,
    homeShapes,
  };
}
export const HEX = hexGeometry();

// The geometry of a board of `colours` colours.
export const geometryFor = (colours) => (colours === 6 ? HEX : CROSS);

export function colourIndex(name) {
  // "COLOUR_RED", "red" or "r".
  const n = String(name).toLowerCase().replace("colour_", "");
  return n.length === 1 ? LETTERS.indexOf(n) : COLOURS.indexOf(n);
}

// The cell key and centre (in cells) of colour c's relative square.
export function place(c, square, slot = 0, geo = CROSS) {
  if (square === "b") {
    const [bx, by] = geo.bases[c];
    if (geo.baseRadius) {
      const [sx, sy] = [[-0.7, -0.7], [0.7, -0.7], [-0.7, 0.7], [0.7, 0.7]][slot % 4];
      return { key: `b${LETTERS[c]}`, x: bx + sx, y: by + sy };
    }
    const spots = [
      [2, 2],
      [4, 2],
      [2, 4],
      [4, 4],
    ];
    const [sx, sy] = spots[slot % 4];
    return { key: `b${LETTERS[c]}`, x: bx + sx, y: by + sy };
  }
  const p = square === "h" ? geo.lastTrack + 6 : Number(square);
  if (p > geo.lastTrack + 5) {
    const [hx, hy] = geo.homes[c];
    return { key: `h${LETTERS[c]}`, x: hx, y: hy };
  }
  if (p <= geo.lastTrack) {
    const abs = (13 * c + p) % geo.track.length;
    const [x, y] = geo.track[abs];
    return { key: `t${abs}`, x: x + 0.5, y: y + 0.5 };
  }
  const [x, y] = geo.lanes[c][p - geo.lastTrack - 1];
  return { key: `l${LETTERS[c]}${p}`, x: x + 0.5, y: y + 0.5 };
}

// The centres a piece of colour c passes through from one relative square
// to another (a piece entering goes base, doorstep; a knocked-off piece
// goes straight to its base).
export function pathOf(c, from, to, geo = CROSS) {
  const home = geo.lastTrack + 6;
  const num = (s) => (s === "h" ? home : s === "b" ? -1 : Number(s));
  const a = num(from);
  const b = num(to);
  const pts = [place(c, from, 0, geo)];
  if (b < 0 || b <= a) {
    pts.push(place(c, to, 0, geo));
    return pts;
  }
  for (let p = Math.max(a + 1, 0); p <= b; p++) pts.push(place(c, p === home ? "h" : String(p), 0, geo));
  return pts;
}

// A square's name for a person: "Red's doorstep", "square 12", "Red's lane, 2 from the track".
export function squareName(key, geo = CROSS) {
  const c = LETTERS.indexOf(key[1]);
  if (key[0] === "b") return `${NAMES[c]}'s base`;
  if (key[0] === "h") return `${NAMES[c]}'s home`;
  if (key[0] === "l") return `${NAMES[c]}'s home lane, square ${Number(key.slice(2)) - geo.lastTrack}`;
  const abs = Number(key.slice(1));
  if (abs % 13 === 0) return `${NAMES[abs / 13]}'s doorstep`;
  return `track square ${abs} (counted from Red's doorstep)`;
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The smallest target a finger can hit, in screen pixels.
export const TOUCH_PX = 44;

export class Board {
  // `onPiece(id, cellKey)`, `onTarget(cellKey)` and `onControl(play)` get
  // clicks (or Enter); `onPeek(id)` is told when a movable piece has the
  // focus (null when it loses it) and answers the cell keys it may go to. A
  // board without them (a diagram) is only drawn.
  constructor(svg, { onPiece = null, onTarget = null, onControl = null, onPeek = null, geometry = CROSS, label = "the Uckers board" } = {}) {
    this.svg = svg;
    this.geo = geometry;
    this.onPiece = onPiece;
    this.onTarget = onTarget;
    this.onControl = onControl;
    this.onPeek = onPeek;
    this.hits = [];
    // A pointer's click goes to the nearest piece, lit square or control
    // within half a finger's width (TOUCH_PX) of it, so that each is at
    // least that big however small the board is drawn; where two are
    // closer than that, each keeps the side nearer to it. The keyboard's
    // Enter (an untrusted click on the element itself) is left alone.
    // One listener a drawing: a board drawn anew on the same element (the
    // other board shape) takes the place of the last.
    if (svg.boardClick) svg.removeEventListener("click", svg.boardClick, { capture: true });
    svg.boardClick = null;
    if (onPiece || onTarget) {
      svg.boardClick = (e) => {
        if (!e.isTrusted) return;
        const hit = this.hitAt(e.clientX, e.clientY);
        if (!hit) return;
        e.stopPropagation();
        e.preventDefault();
        hit.act();
      };
      svg.addEventListener("click", svg.boardClick, { capture: true });
    }
    svg.setAttribute("viewBox", `0 0 ${this.geo.size * CELL} ${this.geo.size * CELL}`);
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", label);
    svg.replaceChildren();
    this.cells = new Map();
    this.drawGrid();
    this.arrowLayer = el("g", { class: "arrows" }, svg);
    this.pieceLayer = el("g", { class: "pieces" }, svg);
    this.fxLayer = el("g", { class: "fx" }, svg);
    const defs = el("defs", {}, svg);
    // A preview is drawn in the mover's colour: a head for each colour.
    for (const kind of ["played", "best", "preview", ...COLOURS.map((c) => `preview ${c}`)]) {
      const mk = el("marker", {
        id: `${svg.id || "b"}-head-${kind.replace(" ", "-")}`,
        viewBox: "0 0 10 10",
        refX: 6,
        refY: 5,
        markerWidth: 4,
        markerHeight: 4,
        orient: "auto-start-reverse",
      }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", class: `head ${kind}` }, mk);
    }
  }

  drawGrid() {
    const geo = this.geo;
    const g = el("g", { class: "grid" }, this.svg);
    el("rect", { x: 0, y: 0, width: geo.size * CELL, height: geo.size * CELL, class: "felt" }, g);
    geo.bases.forEach(([bx, by], c) => {
      if (geo.baseRadius) {
        el("circle", { cx: bx * CELL, cy: by * CELL, r: geo.baseRadius * CELL, fill: FILL[COLOURS[c]], class: "base", "aria-label": `${NAMES[c]}'s base` }, g);
        el("circle", { cx: bx * CELL, cy: by * CELL, r: (geo.baseRadius - 0.5) * CELL, class: "base-inner" }, g);
        this.cells.set(`b${LETTERS[c]}`, { x: bx, y: by, node: null });
        return;
      }
      const s = geo.baseSize;
      el("rect", {
        x: bx * CELL + 4,
        y: by * CELL + 4,
        width: s * CELL - 8,
        height: s * CELL - 8,
        rx: 12,
        fill: FILL[COLOURS[c]],
        class: "base",
        "aria-label": `${NAMES[c]}'s base`,
      }, g);
      el("rect", { x: (bx + 1) * CELL, y: (by + 1) * CELL, width: (s - 2) * CELL, height: (s - 2) * CELL, rx: 8, class: "base-inner" }, g);
      this.cells.set(`b${LETTERS[c]}`, { x: bx + s / 2, y: by + s / 2, node: null });
    });
    const cell = (key, x, y, cls, fill, angle = 0) => {
      const r = el("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: `cell ${cls}`, "data-cell": key }, g);
      // A cell of a slanting arm turns about its centre.
      if (angle % 360) r.setAttribute("transform", `rotate(${angle % 360} ${(x + 0.5) * CELL} ${(y + 0.5) * CELL})`);
      r.setAttribute("aria-label", squareName(key, geo));
      if (fill) r.setAttribute("fill", fill);
      if (this.onTarget) r.addEventListener("click", () => this.onTarget(key));
      this.cells.set(key, { x: x + 0.5, y: y + 0.5, node: r });
    };
    geo.track.forEach(([x, y, angle], abs) => {
      const door = abs % 13 === 0 ? COLOURS[abs / 13] : null;
      cell(`t${abs}`, x, y, door ? "door" : "track", door ? FILL[door] : null, angle);
    });
    geo.lanes.forEach((lane, c) =>
      lane.forEach(([x, y, angle], i) => cell(`l${LETTERS[c]}${geo.lastTrack + 1 + i}`, x, y, "lane", FILL[COLOURS[c]], angle)),
    );
    geo.homeShapes.forEach((pts, c) => {
      const key = `h${LETTERS[c]}`;
      const t = el("polygon", {
        points: pts.map(([x, y]) => `${x * CELL},${y * CELL}`).join(" "),
        fill: FILL[COLOURS[c]],
        class: "cell home",
        "data-cell": key,
        "aria-label": squareName(key, geo),
      }, g);
      if (this.onTarget) t.addEventListener("click", () => this.onTarget(key));
      this.cells.set(key, { x: geo.homes[c][0], y: geo.homes[c][1], node: t });
    });
  }

  // Board units per screen pixel (1 when the board is not laid out).
  unitsPerPx() {
    const w = this.svg.getBoundingClientRect().width;
    return w ? (this.geo.size * CELL) / w : 1;
  }

  // The piece, lit square or control a click at (clientX, clientY) is for:
  // a control it falls in (grown to a finger's size), else the nearest
  // target within reach (a lit square before a piece at the same spot).
  hitAt(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm || !this.hits.length) return null;
    const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    const x = pt.x / CELL;
    const y = pt.y / CELL;
    for (const h of this.hits) {
      if (h.box && Math.abs(x - h.x) <= h.box.w / 2 && Math.abs(y - h.y) <= h.box.h / 2) return h;
    }
    let best = null;
    let bestD = Infinity;
    for (const h of this.hits) {
      if (h.box) continue;
      const d = Math.hypot(x - h.x, y - h.y) - (h.kind === "target" ? 1e-6 : 0);
      if (d <= h.r && d < bestD) {
        best = h;
        bestD = d;
      }
    }
    return best;
  }

  // Marks the cells `keys` as where the focused piece could go (`peek`).
  peek(keys) {
    for (const node of this.svg.querySelectorAll(".cell.peek")) node.classList.remove("peek");
    for (const key of keys || []) this.cells.get(key)?.node?.classList.add("peek");
  }

  // Draws a structured position (uckers.v1.StructuredPosition as JSON).
  // `movable`: "r:12" keys of pieces that can move; `selected`: one of them;
  // `targets`: cell keys lit; `last`: cell keys outlined; `badges`: text
  // beside a piece ({ id: "r:12", text }); `arrows`: plays drawn
  // ({ moves: [{ c, from, to }], kind: "played" | "best" | "preview" });
  // `targetLabels`: a lit square's words ("move 3 to …"); `controls`:
  // buttons drawn beside a piece ({ id: "r:12", play, text, label }).
  render(structured, { movable = new Set(), selected = null, targets = new Set(), last = [], badges = [], arrows = [], targetLabels = new Map(), controls = [] } = {}) {
    this.pieceLayer.replaceChildren();
    this.fxLayer.replaceChildren();
    this.arrowLayer.replaceChildren();
    this.pieceAt = new Map();
    this.hits = [];
    const reach = Math.max(0.5, (TOUCH_PX / 2) * this.unitsPerPx() / CELL);
    for (const node of this.svg.querySelectorAll(".cell")) {
      node.classList.remove("target", "last", "peek");
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
      node.setAttribute("aria-label", squareName(node.dataset.cell, this.geo));
    }
    for (const key of last) this.cells.get(key)?.node?.classList.add("last");
    for (const key of targets) {
      const n = this.cells.get(key)?.node;
      if (!n) continue;
      n.classList.add("target");
      n.setAttribute("tabindex", "0");
      n.setAttribute("role", "button");
      n.setAttribute("aria-label", targetLabels.get(key) || `move to ${squareName(key, this.geo)}`);
      const at = this.cells.get(key);
      this.hits.push({ kind: "target", x: at.x, y: at.y, r: reach, key, act: () => this.onTarget?.(key) });
    }
    // Group the pieces by the cell they stand on.
    const groups = new Map();
    structured.colours.forEach((col, c) => {
      let baseSlot = 0;
      for (const sq of col.squares) {
        const p = place(c, sq, sq === "b" ? baseSlot++ : 0, this.geo);
        const key = sq === "b" ? `${p.key}${baseSlot}` : p.key;
        if (!groups.has(key)) groups.set(key, { x: p.x, y: p.y, cell: p.key, pieces: [] });
        groups.get(key).pieces.push({ c, sq });
      }
    });
    // A mixie stack's order, bottom to top, where the rules keep one.
    const stackOrder = new Map();
    for (const s of structured.stacks || []) {
      const p = place(colourIndex(s.team), String(s.square), 0, this.geo);
      stackOrder.set(p.key, s.order.map(colourIndex));
    }
    for (const [key, g] of groups) {
      let pieces = g.pieces;
      const order = stackOrder.get(key);
      if (order) {
        const stacked = order.map((c) => pieces.find((p) => p.c === c && !p.used && (p.used = true)));
        // An order that does not fit the pieces there is not drawn.
        if (stacked.every(Boolean) && stacked.length === pieces.length) pieces = stacked;
        else pieces.forEach((p) => delete p.used);
      }
      const n = pieces.length;
      const offsets = n === 1 ? [[0, 0]] : [[-0.2, -0.2], [0.2, -0.2], [-0.2, 0.2], [0.2, 0.2]];
      const r = n === 1 ? 0.34 : 0.22;
      pieces.forEach((piece, i) => {
        const [dx, dy] = offsets[i % 4];
        const id = `${LETTERS[piece.c]}:${piece.sq}`;
        const top = order && i === n - 1;
        const circle = el("circle", {
          cx: (g.x + dx) * CELL,
          cy: (g.y + dy) * CELL,
          r: r * CELL,
          fill: FILL[COLOURS[piece.c]],
          class: "piece",
          "data-piece": id,
          role: "img",
        }, this.pieceLayer);
        const where = piece.sq === "b" ? "in base" : piece.sq === "h" ? "home" : `on ${squareName(g.cell, this.geo)}`;
        let label = `${NAMES[piece.c]} piece ${where}${n > 1 && piece.sq !== "b" ? `, one of ${n} there` : ""}${top ? ", the top of the stack" : ""}`;
        if (movable.has(id)) {
          circle.classList.add("movable");
          circle.setAttribute("tabindex", "0");
          circle.setAttribute("role", "button");
          label += ": can move";
          const cellKey = key.startsWith("b") ? `b${LETTERS[piece.c]}` : key;
          circle.addEventListener("click", () => this.onPiece?.(id, cellKey));
          circle.addEventListener("focus", () => this.peek(this.onPeek?.(id)));
          circle.addEventListener("blur", () => this.peek(null));
          this.hits.push({ kind: "piece", x: g.x + dx, y: g.y + dy, r: Math.max(r, reach), id, act: () => this.onPiece?.(id, cellKey) });
        }
        circle.setAttribute("aria-label", label);
        if (id === selected) circle.classList.add("selected");
        if (top) circle.classList.add("top");
        this.pieceAt.set(id, { x: g.x + dx, y: g.y + dy });
      });
      if (n > 4) {
        const t = el("text", { x: g.x * CELL, y: g.y * CELL + 5, class: "count" }, this.pieceLayer);
        t.textContent = String(n);
      }
    }
    for (const a of arrows) this.drawArrow(a);
    for (const b of badges) this.drawBadge(b);
    this.drawControls(controls, reach);
    // Each target's reach, drawn unseen (the tests measure it).
    for (const h of this.hits) {
      if (h.box) continue;
      el("circle", { cx: h.x * CELL, cy: h.y * CELL, r: h.r * CELL, class: "hit", "data-hit": h.key || h.id }, this.fxLayer);
    }
  }

  // Buttons beside a piece (a challenge, suck back, blow back): at least a
  // finger's size, stacked beside the piece, inside the board.
  drawControls(controls, reach) {
    const byPiece = new Map();
    for (const ctl of controls) {
      if (!byPiece.has(ctl.id)) byPiece.set(ctl.id, []);
      byPiece.get(ctl.id).push(ctl);
    }
    const size = this.geo.size;
    for (const [id, list] of byPiece) {
      const at = this.pieceAt.get(id);
      if (!at) continue;
      const h = Math.max(0.8, 2 * reach);
      const grow = Math.max(1, h / 0.8);
      const w = Math.max(2 * reach, ...list.map((ctl) => ((8 * ctl.text.length + 16) / CELL) * grow));
      const tall = list.length * h + (list.length - 1) * 0.1;
      // Beside the piece, on the first side that covers no piece or lit
      // square a finger must reach (the piece's own above all), else the
      // side that covers fewest.
      const sides = [
        [at.x + 0.6, at.y - tall / 2],
        [at.x - 0.6 - w, at.y - tall / 2],
        [at.x - w / 2, at.y + 0.6],
        [at.x - w / 2, at.y - 0.6 - tall],
      ].map(([x, y]) => [Math.min(Math.max(x, 0), size - w), Math.min(Math.max(y, 0), size - tall)]);
      const inside = (o, [x, y]) => o.x > x - 0.3 && o.x < x + w + 0.3 && o.y > y - 0.3 && o.y < y + tall + 0.3;
      const covered = (p) =>
        this.hits.filter((o) => !o.box && inside(o, p)).length + (inside(at, p) ? 1000 : 0);
      const [x0, y0] = sides.reduce((a, b) => (covered(b) < covered(a) ? b : a));
      list.forEach((ctl, i) => {
        const x = x0;
        const y = y0 + i * (h + 0.1);
        const g = el("g", { class: "control", "data-call": ctl.play, role: "button", tabindex: "0", "aria-label": ctl.label }, this.fxLayer);
        el("rect", { x: x * CELL, y: y * CELL, width: w * CELL, height: h * CELL, rx: 8 }, g);
        const t = el("text", { x: (x + w / 2) * CELL, y: (y + h / 2) * CELL + 5 * grow, "font-size": `${14 * grow}px` }, g);
        t.textContent = ctl.text;
        g.addEventListener("click", () => this.onControl?.(ctl.play));
        this.hits.unshift({ kind: "control", x: x + w / 2, y: y + h / 2, box: { w, h }, play: ctl.play, act: () => this.onControl?.(ctl.play) });
      });
    }
  }

  // A play drawn: its moves as arrows, a call as a ring round its square.
  // `colour` (an index): the mover's, whose colour a preview is drawn in
  // (by default the colour of the first piece moved).
  drawArrow({ moves, kind, ring = null, colour = null }) {
    const c = colour ?? moves[0]?.c;
    const cls = kind === "preview" && c !== undefined && c !== null ? `${kind} ${COLOURS[c]}` : kind;
    for (const m of moves) {
      const pts = pathOf(m.c, m.from, m.to, this.geo);
      const d = pts.map((p, i) => `${i ? "L" : "M"}${p.x * CELL},${p.y * CELL}`).join(" ");
      el("path", { d, class: `arrow ${cls}`, "marker-end": `url(#${this.svg.id || "b"}-head-${cls.replace(" ", "-")})` }, this.arrowLayer);
    }
    if (ring) {
      const p = place(ring.c, ring.sq, 0, this.geo);
      el("circle", { cx: p.x * CELL, cy: p.y * CELL, r: 0.55 * CELL, class: `arrow ring ${cls}` }, this.arrowLayer);
    }
  }

  drawBadge({ id, text, cls = "" }) {
    const at = this.pieceAt?.get(id);
    if (!at) return;
    const w = 8 * text.length + 12;
    const x = Math.min(Math.max(at.x * CELL - w / 2, 2), this.geo.size * CELL - w - 2);
    const y = at.y < 1.5 ? at.y * CELL + 0.55 * CELL : at.y * CELL - 0.95 * CELL;
    const g = el("g", { class: `badge ${cls}`, "data-badge": id }, this.fxLayer);
    el("rect", { x, y, width: w, height: 22, rx: 6 }, g);
    const t = el("text", { x: x + w / 2, y: y + 16 }, g);
    t.textContent = text;
  }

  // Slides a piece along the track for each move (knocked-off pieces go
  // back to their base); resolves when done. `ms` per square, a slide at
  // most `most` ms (a long move goes faster).
  animate(moves, knocked, ms, most = Infinity) {
    if (!ms || !Element.prototype.animate) return Promise.resolve();
    const runs = [];
    const slide = (c, from, to, cls, delay) => {
      const pts = pathOf(c, from, to, this.geo);
      const still = this.pieceLayer.querySelector(`.piece[data-piece="${LETTERS[c]}:${from}"]:not(.moving)`);
      still?.classList.add("moving");
      // The ghost stands on its first square from the start: a knocked-off
      // piece waits there (its delay) until the slide that hits it ends.
      const ghost = el("circle", { cx: 0, cy: 0, r: 0.3 * CELL, fill: FILL[COLOURS[c]], class: `ghost ${cls}`, transform: `translate(${pts[0].x * CELL}, ${pts[0].y * CELL})` }, this.fxLayer);
      const frames = pts.map((p) => ({ transform: `translate(${p.x * CELL}px, ${p.y * CELL}px)` }));
      // A knocked-off piece takes as long as a slide of five squares home.
      const duration = Math.min(most, (cls === "knocked" ? 5 : Math.max(1, pts.length - 1)) * ms);
      const a = ghost.animate(frames, { duration, delay, easing: "ease-in-out", fill: "both" });
      runs.push(a.finished.catch(() => {}));
      return duration;
    };
    let t = 0;
    for (const m of moves) t = Math.max(t, slide(m.c, m.from, m.to, "", 0));
    for (const k of knocked) slide(k.c, k.from, "b", "knocked", t);
    return Promise.all(runs);
  }
}
