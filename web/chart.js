// The review chart: team RY's win probability before each throw, with the
// marked errors (AnalyseGame's items) as points one can click.

const SVG = "http://www.w3.org/2000/svg";
const MARKS = {
  MARK_DOUBTFUL: { label: "?!", cls: "doubtful" },
  MARK_BAD: { label: "?", cls: "bad" },
  MARK_VERY_BAD: { label: "??", cls: "very-bad" },
};

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
  const h = 200;
  const pad = 24;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const items = analysis.items || [];
  const n = Math.max(items.length, 1);
  const x = (i) => pad + ((w - 2 * pad) * i) / n;
  const y = (p) => pad + (h - 2 * pad) * (1 - p);
  el("rect", { x: pad, y: pad, width: w - 2 * pad, height: h - 2 * pad, class: "chart-frame" }, svg);
  el("line", { x1: pad, x2: w - pad, y1: y(0.5), y2: y(0.5), class: "chart-half" }, svg);
  for (const [p, text] of [
    [1, "RY 100%"],
    [0.5, "50%"],
    [0, "GB 100%"],
  ]) {
    const t = el("text", { x: 2, y: y(p) + 4, class: "chart-label" }, svg);
    t.textContent = text;
  }
  const points = items.map((it, i) => `${x(i)},${y(it.ryWinBefore)}`).join(" ");
  el("polyline", { points, class: "chart-line" }, svg);
  items.forEach((it, i) => {
    const m = markOf(it);
    if (!m) return;
    const dot = el("circle", {
      cx: x(i),
      cy: y(it.ryWinBefore),
      r: 6,
      class: `mark ${m.cls} team-${it.team}`,
      tabindex: "0",
      role: "button",
      "data-item": String(it.index),
      "aria-label": `item ${it.index}, ${it.team} played ${it.play}, best ${it.bestPlay} (${m.label})`,
    }, svg);
    const title = el("title", {}, dot);
    title.textContent = `${it.index}. ${it.throw}:${it.play} ${m.label}  best ${it.bestPlay}  −${it.equityLost.toFixed(3)}`;
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
