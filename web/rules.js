// The rules page's diagrams, drawn by the board itself, and the list of
// house rules by their names.

import { Board } from "./board.js";
import { SWITCHES } from "./words.js";

// Each diagram: the four colours' squares (relative to each colour), and
// plays to draw.
const DIAGRAMS = {
  start: { colours: ["b,b,b,b", "b,b,b,b", "b,b,b,b", "b,b,b,b"] },
  enter: {
    colours: ["b,b,b,3", "b,b,b,b", "b,b,b,b", "b,b,b,b"],
    arrows: [{ kind: "played", moves: [{ c: 0, from: "b", to: "3" }] }],
  },
  blob: {
    colours: ["b,b,b,7", "b,b,b,b", "b,b,b,b", "b,b,24,24"],
    arrows: [{ kind: "preview", moves: [{ c: 0, from: "7", to: "10" }] }],
  },
  challenge: {
    colours: ["b,b,b,10", "b,b,b,b", "b,b,b,b", "b,b,24,24"],
    arrows: [{ kind: "best", moves: [], ring: { c: 0, sq: "11" } }],
    badge: { id: "r:10", text: "1 of 3 sixes" },
  },
  suck: {
    colours: ["b,b,b,11", "b,b,b,52", "b,b,b,b", "b,b,b,b"],
    arrows: [{ kind: "played", moves: [{ c: 1, from: "52", to: "b" }] }],
  },
};

for (const svg of document.querySelectorAll("svg[data-diagram]")) {
  const d = DIAGRAMS[svg.dataset.diagram];
  if (!d) continue;
  const board = new Board(svg, { label: svg.closest("figure")?.querySelector("figcaption")?.textContent || "a diagram" });
  const structured = { colours: d.colours.map((s) => ({ squares: s.split(",") })) };
  board.render(structured, { arrows: d.arrows || [], badges: d.badge ? [d.badge] : [] });
}

const list = document.getElementById("switch-list");
for (const [, [name, line]] of Object.entries(SWITCHES)) {
  const dt = document.createElement("dt");
  dt.textContent = name;
  const dd = document.createElement("dd");
  dd.textContent = line;
  list.append(dt, dd);
}
