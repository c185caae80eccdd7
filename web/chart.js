// The review chart: Red and Yellow's chance to win before each throw (on
// other layouts, every side's, a line each), with a throw axis and the
// marked errors (AnalyseGame's items) as points in the colour of the side
// that made them, to click.

import { FILL } from "./board.js";
import { chanceText, chanceOfPoints } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const MARKS = {
  MARK_DOUBTFUL: { label: "?!", cls: "doubtful", words: "a doubtful play", r: 5 },
  MARK_BAD: { label: "?", cls: "bad", words: "a bad play", r: 6.5 },
  MARK_VERY_BAD: { label: "??", cls: "very-bad", words: "a very bad play", r: 8 },
};
const SIDE = { RY: "Red and Yellow", GB: "Green and Blue" };


function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export function markOf(item) {
  return MARKS[item.mark] || null;
}

// Draws `analysis` (uckers.v1.GameAnalysis as JSON) into `svg`; `onMark`
// gets the item of a clicked mark. `sides` (null for the four-sided game of
// two teams) lists the other layouts' sides in order, each `{key, name,
// colour}`: a line a side of its chance to win (the items' sideWinsBefore).
export function drawChart(svg, analysis, onMark, sides = null) {
  const w = 600;
  const h = 220;
  const left = 56;
  const right = 12;
  const top = 12;
  const bottom = 36;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const items = analysis.items || [];
  const n = Math.max(items.length, 1);
  const x = (i) => left + ((w - left - right) * i) / n;
  const y = (p) => top + (h - top - bottom) * (1 - p);
  el("rect", { x: left, y: top, width: w - left - right, height: h - top - bottom, class: "chart-frame" }, svg);
  el("line", { x1: left, x2: w - right, y1: y(0.5), y2: y(0.5), class: "chart-half" }, svg);
  const labels = [
    [1, "100%"],
    [0.5, "50%"],
    [0, "0%"],
  ];
  // What the line is, in words: with two teams, the first team's chance
  // (the other's is what is left); otherwise each side's line its colour.
  const caption = el("text", { x: left + 6, y: top + 14, class: "chart-label" }, svg);
  caption.textContent = sides ? "each side's chance to win" : `${SIDE.RY}'s chance to win`;
  for (const [p, text] of labels) {
    const t = el("text", { x: left - 4, y: y(p) + 4, class: "chart-label", "text-anchor": "end" }, svg);
    t.textContent = text;
  }
  // The throw axis: a tick every 10 throws, or 20, 50, 100… so that at
  // most a dozen labels share it.
  const step = [10, 20, 50, 100, 200, 500, 1000, 2000].find((st) => n / st <= 12) || 5000;
  for (let i = 0; i <= n; i += step) {
    el("line", { x1: x(i), x2: x(i), y1: h - bottom, y2: h - bottom + 5, class: "chart-tick" }, svg);
    const t = el("text", { x: x(i), y: h - bottom + 16, class: "chart-label", "text-anchor": "middle" }, svg);
    t.textContent = String(i);
  }
  const axis = el("text", { x: (left + w - right) / 2, y: h - 4, class: "chart-label", "text-anchor": "middle" }, svg);
  axis.textContent = "throw";
  // The chance of the mover's side before item `it` (RY's with two teams).
  const sideIndex = (key) => (sides ? sides.findIndex((s) => s.key === key) : -1);
  const chanceOf = (it, side) => (side < 0 ? it.ryWinBefore : (it.sideWinsBefore || [])[side] ?? 0);
  if (sides) {
    sides.forEach((s, side) => {
      const points = items.map((it, i) => `${x(i)},${y(chanceOf(it, side))}`).join(" ");
      const line = el("polyline", { points, class: `chart-line side-line ${s.colour}`, style: `stroke: ${FILL[s.colour]}` }, svg);
      el("title", {}, line).textContent = `${s.name}: chance to win`;
    });
  } else {
    const points = items.map((it, i) => `${x(i)},${y(it.ryWinBefore)}`).join(" ");
    el("polyline", { points, class: "chart-line" }, svg);
  }
  // The number of sides, for the chance a mark's points stand for.
  const sidesOf = (analysis.teams || []).length || (sides ? sides.length : 2);
  const nameOf = (key) => (sides ? sides[sideIndex(key)]?.name : SIDE[key]) || key;
  items.forEach((it, i) => {
    const m = markOf(it);
    if (!m) return;
    const side = sideIndex(it.team);
    const dot = el("circle", {
      cx: x(i),
      cy: y(sides ? chanceOf(it, side) : it.ryWinBefore),
      r: m.r,
      class: `mark ${m.cls} team-${it.team}`,
      tabindex: "0",
      role: "button",
      "data-item": String(it.index),
      "aria-label": `throw ${it.index}, ${nameOf(it.team)}: ${m.words}`,
    }, svg);
    if (sides && side >= 0) dot.setAttribute("style", `fill: ${FILL[sides[side].colour]}`);
    const title = el("title", {}, dot);
    title.textContent = `Throw ${it.index}, ${nameOf(it.team)}: ${m.words} (${m.label}), costing ${chanceText(chanceOfPoints(it.equityLost, sidesOf))} of the chance to win`;
    const activate = () => onMark(it);
    dot.addEventListener("click", activate);
    dot.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        activate();
      }
    });
  });
}
