// The review chart: Red and Yellow's chance to win before each throw, with
// a throw axis and the marked errors (AnalyseGame's items) as points in the
// colour of the side that made them, to click.

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
// gets the item of a clicked mark.
export function drawChart(svg, analysis, onMark) {
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
  for (const [p, text] of [
    [1, "RY 100%"],
    [0.5, "50%"],
    [0, "GB 100%"],
  ]) {
    const t = el("text", { x: left - 4, y: y(p) + 4, class: "chart-label", "text-anchor": "end" }, svg);
    t.textContent = text;
  }
  // The throw axis: a tick every 10 (or 20, 50) throws.
  const step = n <= 60 ? 10 : n <= 150 ? 20 : 50;
  for (let i = 0; i <= n; i += step) {
    el("line", { x1: x(i), x2: x(i), y1: h - bottom, y2: h - bottom + 5, class: "chart-tick" }, svg);
    const t = el("text", { x: x(i), y: h - bottom + 16, class: "chart-label", "text-anchor": "middle" }, svg);
    t.textContent = String(i);
  }
  const axis = el("text", { x: (left + w - right) / 2, y: h - 4, class: "chart-label", "text-anchor": "middle" }, svg);
  axis.textContent = "throw";
  const points = items.map((it, i) => `${x(i)},${y(it.ryWinBefore)}`).join(" ");
  el("polyline", { points, class: "chart-line" }, svg);
  items.forEach((it, i) => {
    const m = markOf(it);
    if (!m) return;
    const dot = el("circle", {
      cx: x(i),
      cy: y(it.ryWinBefore),
      r: m.r,
      class: `mark ${m.cls} team-${it.team}`,
      tabindex: "0",
      role: "button",
      "data-item": String(it.index),
      "aria-label": `throw ${it.index}, ${SIDE[it.team] || it.team}: ${m.words}`,
    }, svg);
    const title = el("title", {}, dot);
    title.textContent = `Throw ${it.index}, ${SIDE[it.team] || it.team}: ${m.words} (${m.label}), costing ${it.equityLost.toFixed(3)} points`;
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
