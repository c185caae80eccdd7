// The board: a cross of 15 x 15 cells drawn in SVG. It knows only where
// each square is drawn (RULES.md §1: relative square p of colour c is the
// main-track square (13c + p) mod 52, lanes 51..55, home); which plays are
// legal comes from the engine.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;
export const COLOURS = ["red", "green", "yellow", "blue"];
export const LETTERS = ["r", "g", "y", "b"];
const FILL = { red: "#d9342b", green: "#2e9e44", yellow: "#e8c21a", blue: "#2f6fd6" };

// The 52 main-track cells, from red's doorstep clockwise.
function track() {
  const cells = [];
  const run = (x, y, dx, dy, n) => {
    for (let i = 0; i < n; i++) cells.push([x + dx * i, y + dy * i]);
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
  return cells;
}
const TRACK = track();
// Each colour's lane (51..55), from the track inwards.
const LANES = [
  [1, 7, 1, 0],
  [7, 1, 0, 1],
  [13, 7, -1, 0],
  [7, 13, 0, -1],
].map(([x, y, dx, dy]) => [0, 1, 2, 3, 4].map((i) => [x + dx * i, y + dy * i]));
const BASES = [
  [0, 0],
  [9, 0],
  [9, 9],
  [0, 9],
];
const HOMES = [
  [6.0, 7.0],
  [7.0, 6.0],
  [8.0, 7.0],
  [7.0, 8.0],
];

export function colourIndex(name) {
  // "COLOUR_RED", "red" or "r".
  const n = String(name).toLowerCase().replace("colour_", "");
  const i = n.length === 1 ? LETTERS.indexOf(n) : COLOURS.indexOf(n);
  return i;
}

// The cell key and centre (in cells) of colour c's relative square.
export function place(c, square, slot = 0) {
  if (square === "b") {
    const [bx, by] = BASES[c];
    const spots = [
      [2, 2],
      [4, 2],
      [2, 4],
      [4, 4],
    ];
    const [sx, sy] = spots[slot % 4];
    return { key: `b${LETTERS[c]}`, x: bx + sx, y: by + sy };
  }
  if (square === "h") {
    const [hx, hy] = HOMES[c];
    return { key: `h${LETTERS[c]}`, x: hx + 0.5, y: hy + 0.5 };
  }
  const p = Number(square);
  if (p <= 50) {
    const abs = (13 * c + p) % 52;
    const [x, y] = TRACK[abs];
    return { key: `t${abs}`, x: x + 0.5, y: y + 0.5 };
  }
  const [x, y] = LANES[c][p - 51];
  return { key: `l${LETTERS[c]}${p}`, x: x + 0.5, y: y + 0.5 };
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class Board {
  constructor(svg, { onPiece, onTarget }) {
    this.svg = svg;
    this.onPiece = onPiece;
    this.onTarget = onTarget;
    svg.setAttribute("viewBox", `0 0 ${15 * CELL} ${15 * CELL}`);
    this.cells = new Map();
    this.drawGrid();
    this.pieceLayer = el("g", { class: "pieces" }, svg);
    this.fxLayer = el("g", { class: "fx" }, svg);
  }

  drawGrid() {
    const g = el("g", { class: "grid" }, this.svg);
    el("rect", { x: 0, y: 0, width: 15 * CELL, height: 15 * CELL, class: "felt" }, g);
    BASES.forEach(([bx, by], c) => {
      el("rect", {
        x: bx * CELL + 4,
        y: by * CELL + 4,
        width: 6 * CELL - 8,
        height: 6 * CELL - 8,
        rx: 12,
        fill: FILL[COLOURS[c]],
        class: "base",
      }, g);
      el("rect", {
        x: (bx + 1) * CELL,
        y: (by + 1) * CELL,
        width: 4 * CELL,
        height: 4 * CELL,
        rx: 8,
        class: "base-inner",
      }, g);
      this.cells.set(`b${LETTERS[c]}`, { x: bx + 3, y: by + 3, node: null });
    });
    const cell = (key, x, y, cls, fill) => {
      const r = el("rect", {
        x: x * CELL,
        y: y * CELL,
        width: CELL,
        height: CELL,
        class: `cell ${cls}`,
        "data-cell": key,
      }, g);
      if (fill) r.setAttribute("fill", fill);
      r.addEventListener("click", () => this.onTarget(key));
      this.cells.set(key, { x: x + 0.5, y: y + 0.5, node: r });
    };
    TRACK.forEach(([x, y], abs) => {
      const door = abs % 13 === 0 ? COLOURS[abs / 13] : null;
      cell(`t${abs}`, x, y, door ? "door" : "track", door ? FILL[door] : null);
    });
    LANES.forEach((lane, c) =>
      lane.forEach(([x, y], i) => cell(`l${LETTERS[c]}${51 + i}`, x, y, "lane", FILL[COLOURS[c]])),
    );
    // Home: four triangles meeting in the centre.
    const m = 7.5 * CELL;
    const corners = [
      [6, 6, 6, 9],
      [6, 6, 9, 6],
      [9, 6, 9, 9],
      [6, 9, 9, 9],
    ];
    corners.forEach(([x1, y1, x2, y2], c) => {
      const t = el("polygon", {
        points: `${x1 * CELL},${y1 * CELL} ${x2 * CELL},${y2 * CELL} ${m},${m}`,
        fill: FILL[COLOURS[c]],
        class: "cell home",
        "data-cell": `h${LETTERS[c]}`,
      }, g);
      t.addEventListener("click", () => this.onTarget(`h${LETTERS[c]}`));
      this.cells.set(`h${LETTERS[c]}`, { x: HOMES[c][0] + 0.5, y: HOMES[c][1] + 0.5, node: t });
    });
    // Square numbers on the doorsteps' neighbours help reading plays.
    TRACK.forEach(([x, y], abs) => {
      if (abs % 13 === 0) {
        const label = el("text", {
          x: (x + 0.5) * CELL,
          y: (y + 0.5) * CELL + 4,
          class: "door-label",
        }, g);
        label.textContent = "0";
      }
    });
  }

  // Draws a structured position (uckers.v1.StructuredPosition as JSON).
  // `movable`: "r:12" keys of pieces that can move; `selected`: one of them.
  render(structured, { movable = new Set(), selected = null, targets = new Set(), last = [] } = {}) {
    this.pieceLayer.replaceChildren();
    this.fxLayer.replaceChildren();
    for (const node of this.svg.querySelectorAll(".cell")) {
      node.classList.remove("target", "last");
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
      node.removeAttribute("aria-label");
    }
    for (const key of last) this.cells.get(key)?.node?.classList.add("last");
    for (const key of targets) {
      const n = this.cells.get(key)?.node;
      if (!n) continue;
      n.classList.add("target");
      n.setAttribute("tabindex", "0");
      n.setAttribute("role", "button");
      n.setAttribute("aria-label", `move to ${key}`);
    }
    // Group the pieces by the cell they stand on.
    const groups = new Map();
    structured.colours.forEach((col, c) => {
      let baseSlot = 0;
      for (const sq of col.squares) {
        const p = place(c, sq, sq === "b" ? baseSlot++ : 0);
        const key = sq === "b" ? `${p.key}${baseSlot}` : p.key;
        if (!groups.has(key)) groups.set(key, { x: p.x, y: p.y, pieces: [] });
        groups.get(key).pieces.push({ c, sq });
      }
    });
    // A mixie stack's order, bottom to top, where the rules keep one.
    const stackOrder = new Map();
    for (const s of structured.stacks || []) {
      const p = place(colourIndex(s.team), String(s.square));
      stackOrder.set(p.key, s.order.map(colourIndex));
    }
    for (const [key, g] of groups) {
      let pieces = g.pieces;
      const order = stackOrder.get(key);
      if (order) {
        pieces = order.map((c) => pieces.find((p) => p.c === c && !p.used && (p.used = true)));
      }
      const n = pieces.length;
      const offsets =
        n === 1
          ? [[0, 0]]
          : [
              [-0.2, -0.2],
              [0.2, -0.2],
              [-0.2, 0.2],
              [0.2, 0.2],
            ];
      const r = n === 1 ? 0.34 : 0.22;
      pieces.forEach((piece, i) => {
        const [dx, dy] = offsets[i % 4];
        const id = `${LETTERS[piece.c]}:${piece.sq}`;
        const circle = el("circle", {
          cx: (g.x + dx) * CELL,
          cy: (g.y + dy) * CELL,
          r: r * CELL,
          fill: FILL[COLOURS[piece.c]],
          class: "piece",
          "data-piece": id,
        }, this.pieceLayer);
        if (movable.has(id)) {
          circle.classList.add("movable");
          circle.setAttribute("tabindex", "0");
          circle.setAttribute("role", "button");
          circle.setAttribute("aria-label", `${COLOURS[piece.c]} piece on ${piece.sq}`);
          circle.addEventListener("click", () => this.onPiece(id, key.startsWith("b") ? `b${LETTERS[piece.c]}` : key));
        }
        if (id === selected) circle.classList.add("selected");
        if (order && i === n - 1) circle.classList.add("top");
      });
      if (n > 4) {
        const t = el("text", { x: g.x * CELL, y: g.y * CELL + 5, class: "count" }, this.pieceLayer);
        t.textContent = String(n);
      }
    }
  }

  // Slides a ghost piece along each move of a play's effects; resolves
  // when done.
  animate(effects, ms) {
    if (!ms) return Promise.resolve();
    for (const m of effects.moves || []) {
      const c = colourIndex(m.colour);
      const from = place(c, m.from);
      const to = place(c, m.to);
      const ghost = el("circle", {
        cx: from.x * CELL,
        cy: from.y * CELL,
        r: 0.3 * CELL,
        fill: FILL[COLOURS[c]],
        class: "ghost",
      }, this.fxLayer);
      ghost.style.transition = `transform ${ms}ms ease-in-out`;
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          ghost.style.transform = `translate(${(to.x - from.x) * CELL}px, ${(to.y - from.y) * CELL}px)`;
        }),
      );
    }
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}
