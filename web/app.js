// The web board: a game against the engine, or engine against engine,
// played through the public API only (api.js). The page holds no rules:
// legal plays, their effects, positions, dice, evaluations and the review
// all come from the engine.

import * as api from "./api.js";
import { Board, COLOURS, LETTERS, colourIndex, place } from "./board.js";
import { drawChart, markOf } from "./chart.js";

const $ = (id) => document.getElementById(id);
const TEAMS = { TEAM_RED_YELLOW: "RY", TEAM_GREEN_BLUE: "GB" };
const LEVELS_OUT = {
  OUTCOME_LEVEL_WIN: "a win",
  OUTCOME_LEVEL_EIGHT_PIECER: "an 8-piecer",
  OUTCOME_LEVEL_IN_HARBOUR: "in harbour",
};
const SPEEDS = { normal: 700, fast: 200, fastest: 0 };

const state = {
  info: null,
  game: null,
  gen: 0, // bumped by whatever stops the engine's turns (new game, take back)
  selected: null, // "r:12": the piece clicked
  view: null, // index into game.positions being looked at, or null (the live position)
  diceCache: new Map(),
  busy: false,
};

const board = new Board($("board"), { onPiece: pieceClicked, onTarget: targetClicked });

// ---- helpers -------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const current = () => state.game.positions[state.game.positions.length - 1];
const toThrow = (pos) => colourIndex(pos.structured.toThrow);
const teamOf = (c) => (c % 2 === 0 ? "RY" : "GB");
const pct = (p) => `${(100 * p).toFixed(1)}%`;

function status(text, { error = false } = {}) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
  s.setAttribute("role", error ? "alert" : "status");
}

function fail(e) {
  state.busy = false;
  status(e.message || String(e), { error: true });
  render();
}

function throwText(dice) {
  return `${dice.die1}${dice.die2}`;
}

const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

// ---- starting a game -----------------------------------------------------

async function init() {
  try {
    state.info = await api.engineInfo();
  } catch (e) {
    return fail(e);
  }
  $("engine-name").textContent = `${state.info.name} ${state.info.version}`;
  const preset = $("rules-preset");
  for (const r of state.info.rulesets) preset.add(new Option(r, r));
  const level = $("level");
  for (const l of state.info.levels) level.add(new Option(l, l, l === "grandmaster", l === "grandmaster"));
  const reviewLevel = $("review-level");
  for (const l of state.info.levels) reviewLevel.add(new Option(l, l, l === "grandmaster", l === "grandmaster"));
  const box = $("switches");
  for (const s of state.info.implementedSwitches) {
    const label = document.createElement("label");
    const cb = document.createElement("input");
    cb.type = "checkbox";
    cb.value = s;
    cb.name = "switch";
    label.append(cb, ` ${s}`);
    box.append(label);
  }
  $("new-game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("new-game").close();
    newGameFromForm();
  });
  $("new-game-cancel").addEventListener("click", () => $("new-game").close());
  $("btn-new").addEventListener("click", () => $("new-game").showModal());
  $("btn-throw").addEventListener("click", humanThrow);
  $("btn-takeback").addEventListener("click", takeBack);
  $("btn-hint").addEventListener("click", hint);
  $("btn-review").addEventListener("click", review);
  $("btn-download").addEventListener("click", download);
  $("record-file").addEventListener("change", loadRecord);
  $("nav-first").addEventListener("click", () => viewAt(0));
  $("nav-prev").addEventListener("click", () => viewAt((state.view ?? state.game.positions.length - 1) - 1));
  $("nav-next").addEventListener("click", () => viewAt((state.view ?? state.game.positions.length - 1) + 1));
  $("nav-live").addEventListener("click", () => viewAt(null));
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if ((e.key === "Enter" || e.key === " ") && t instanceof SVGElement && t.getAttribute("role") === "button") {
      e.preventDefault();
      t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });
  await newGame({ rules: "navy", seat: "RY", level: "intermediate", speed: "normal" });
}

function newGameFromForm() {
  const switches = [...document.querySelectorAll('input[name="switch"]:checked')].map((c) => c.value);
  const rules = [$("rules-preset").value, ...switches].join("+");
  newGame({
    rules,
    seat: $("seat").value,
    level: $("level").value,
    speed: $("speed").value,
    ufen: $("start-ufen").value.trim() || null,
    seed: $("seed").value.trim() || "0",
  });
}

async function newGame({ rules, seat, level, speed, ufen = null, seed = "0" }) {
  state.gen++;
  state.selected = null;
  state.view = null;
  state.diceCache = new Map();
  $("review").hidden = true;
  $("hint-out").textContent = "";
  let start;
  let roll;
  try {
    if (!/^\d{1,20}$/.test(seed)) throw new Error(`dice seed '${seed}': a whole number`);
    start = await api.startPosition(rules, ufen);
    roll = await api.rollDice(seed, 0, 100);
  } catch (e) {
    return fail(e);
  }
  const colourSeat = ["red", "green", "yellow", "blue"].indexOf(seat);
  const humans = new Set(
    seat === "RY" ? [0, 2] : seat === "GB" ? [1, 3] : colourSeat >= 0 ? [colourSeat] : [],
  );
  const names = { RY: level, GB: level };
  if (seat === "RY" || seat === "GB") names[seat] = "human";
  if (colourSeat >= 0) names[teamOf(colourSeat)] = `human (${seat}) and ${level}`;
  state.game = {
    rules: start.rules,
    switches: start.switches,
    seat,
    humans,
    players: colourSeat >= 0 ? 4 : 2,
    level,
    speed: SPEEDS[speed] ?? 700,
    seed: roll.seed,
    startUfen: ufen ? start.position.ufen : null,
    names,
    date: new Date().toISOString().slice(0, 10),
    positions: [start.position],
    items: [],
    result: start.result,
    dice: null,
    plays: [],
    last: [],
    mode: "play",
    analysis: null,
  };
  roll.throws.forEach((t, i) => state.diceCache.set(i, t));
  advance();
}

async function diceAt(index) {
  if (!state.diceCache.has(index)) {
    const roll = await api.rollDice(state.game.seed, index, 100);
    roll.throws.forEach((t, i) => state.diceCache.set(index + i, t));
  }
  return state.diceCache.get(index);
}

// ---- the turn ------------------------------------------------------------

async function advance() {
  const g = state.game;
  const gen = state.gen;
  render();
  if (g.mode !== "play") return;
  if (g.result.finished) return finished();
  const actor = toThrow(current());
  if (g.speed) evaluateNow(gen);
  if (g.humans.has(actor)) {
    if (!g.dice) status(`${COLOURS[actor]} to throw: your turn. Throw the dice.`);
    return;
  }
  status(`${COLOURS[actor]} (engine, ${g.level}) is thinking…`);
  try {
    const dice = await diceAt(g.items.length);
    if (gen !== state.gen) return;
    g.dice = dice;
    render();
    const best = await api.bestMove(current().ufen, dice, g.rules, { level: g.level });
    if (gen !== state.gen) return;
    await makePlay(best.play, gen);
  } catch (e) {
    if (gen === state.gen) fail(e);
  }
}

async function makePlay(play, gen) {
  const g = state.game;
  const applied = await api.applyPlay(current().ufen, g.dice, play, g.rules, g.players);
  if (gen !== state.gen) return;
  g.plays = [];
  state.selected = null;
  render();
  await board.animate(applied.effects, g.speed * 0.6);
  if (gen !== state.gen) return;
  const mover = toThrow(current());
  g.items.push({ throw: throwText(g.dice), dice: g.dice, play: applied.play, mover, effects: applied.effects });
  g.positions.push(applied.position);
  g.result = applied.result;
  g.dice = null;
  g.last = (applied.effects.moves || []).map((m) => place(colourIndex(m.colour), m.to).key);
  if (!g.humans.has(mover) && g.speed) await sleep(g.speed * 0.4);
  if (gen !== state.gen) return;
  state.busy = false;
  advance();
}

async function humanThrow() {
  const g = state.game;
  if (state.busy || g.dice || g.result.finished || !g.humans.has(toThrow(current()))) return;
  state.busy = true;
  try {
    g.dice = await diceAt(g.items.length);
    await listPlays();
  } catch (e) {
    return fail(e);
  }
  state.busy = false;
  render();
}

async function listPlays() {
  const g = state.game;
  const listed = await api.legalPlays(current().ufen, g.dice, g.rules, g.players);
  g.plays = listed.plays;
  const only = g.plays.length === 1 && g.plays[0].play === "-";
  status(
    only
      ? `Thrown ${throwText(g.dice)}: no play is possible. Pass.`
      : `Thrown ${throwText(g.dice)}: click a piece and its target, or choose a play.`,
  );
}

// The pieces a play moves, as "r:12" keys, each with where it ends.
function pieceMoves(play) {
  return (play.effects.moves || []).map((m) => ({
    id: `${LETTERS[colourIndex(m.colour)]}:${m.from}`,
    to: place(colourIndex(m.colour), m.to).key,
  }));
}

function playsFor(pieceId, targetKey = null) {
  return state.game.plays.filter((p) => {
    const moves = pieceMoves(p);
    if (moves.some((m) => m.id === pieceId && (!targetKey || m.to === targetKey))) return true;
    // A challenge or a call moves nothing yet: it belongs to the piece named.
    const [c, sq] = pieceId.split(":");
    return !targetKey && new RegExp(`^[xsw]${c}${sq}$`).test(p.play);
  });
}

// A click on a piece chooses it, or, when it stands on a target of the piece
// already chosen, is a click on that target.
function pieceClicked(id, cellKey) {
  if (state.view !== null || !state.game.plays.length) return;
  if (state.selected && id !== state.selected && playsFor(state.selected, cellKey).length) {
    return targetClicked(cellKey);
  }
  state.selected = state.selected === id ? null : id;
  render();
}

function targetClicked(key) {
  const g = state.game;
  if (!state.selected || !g.plays.length || state.view !== null) return;
  const matching = playsFor(state.selected, key);
  if (matching.length === 1) return humanPlay(matching[0].play);
  if (matching.length > 1) status(`${matching.length} plays move that piece there: choose one below.`);
  render({ targetKey: key });
}

async function humanPlay(play) {
  if (state.busy) return;
  state.busy = true;
  render(); // no plays offered while this one is made
  $("hint-out").textContent = "";
  try {
    await makePlay(play, state.gen);
  } catch (e) {
    return fail(e);
  }
  state.busy = false;
}

// Back to the last throw a person played, its dice still thrown (the dice
// come from the game's seed, so a throw is never thrown again).
async function takeBack() {
  const g = state.game;
  let k = g.items.length - 1;
  while (k >= 0 && !g.humans.has(g.items[k].mover)) k--;
  if (k < 0 || g.mode !== "play") return;
  state.gen++;
  state.busy = false;
  state.view = null;
  state.selected = null;
  const dice = g.items[k].dice;
  g.items.length = k;
  g.positions.length = k + 1;
  g.result = { finished: false };
  g.last = [];
  g.dice = dice;
  $("review").hidden = true;
  try {
    await listPlays();
  } catch (e) {
    return fail(e);
  }
  render();
  evaluateNow(state.gen);
}

function finished() {
  const g = state.game;
  const r = g.result;
  const team = TEAMS[r.winner];
  const text = `Game over: ${team} wins, ${LEVELS_OUT[r.level] || "a win"} (${r.points} point${r.points === 1 ? "" : "s"}).`;
  $("result").textContent = text;
  status("Review the game, download its record, or start a new one.");
  evaluateNow(state.gen);
  render();
}

// ---- evaluation and hints ------------------------------------------------

function showEvaluation(outcomes, teamToThrow) {
  // Outcomes are for the team to throw; the bar shows team RY's chances.
  const ry = teamToThrow === "RY";
  const get = (mine, theirs) => (ry ? outcomes[mine] : outcomes[theirs]);
  const ryWin = ry ? outcomes.winProbability : 1 - outcomes.winProbability;
  $("evalbar-fill").style.width = pct(ryWin);
  $("evalbar").setAttribute("aria-valuenow", String(Math.round(100 * ryWin)));
  $("evalbar-text").textContent = `RY ${pct(ryWin)} · GB ${pct(1 - ryWin)}`;
  const rows = [
    ["RY wins", get("win", "loss")],
    ["RY 8-piecer", get("winEightPiecer", "lossEightPiecer")],
    ["RY in harbour", get("winInHarbour", "lossInHarbour")],
    ["GB wins", get("loss", "win")],
    ["GB 8-piecer", get("lossEightPiecer", "winEightPiecer")],
    ["GB in harbour", get("lossInHarbour", "winInHarbour")],
  ];
  $("outcomes").replaceChildren(
    ...rows.map(([name, p]) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.textContent = name;
      const td = document.createElement("td");
      td.textContent = pct(p);
      tr.append(th, td);
      return tr;
    }),
  );
  const eq = ry ? outcomes.equity : -outcomes.equity;
  $("equity").textContent = `RY equity ${eq >= 0 ? "+" : ""}${eq.toFixed(3)}`;
}

async function evaluateNow(gen) {
  const g = state.game;
  const pos = current();
  if (g.result.finished) {
    const ryWon = TEAMS[g.result.winner] === "RY";
    $("evalbar-fill").style.width = ryWon ? "100%" : "0%";
    $("evalbar-text").textContent = `${TEAMS[g.result.winner]} won`;
    return;
  }
  try {
    const e = await api.evaluate(pos.ufen, g.rules, { level: g.level }, { movetimeMs: 300 });
    if (gen !== state.gen || pos !== current()) return;
    showEvaluation(e.evaluation, teamOf(toThrow(pos)));
  } catch (e) {
    if (gen === state.gen) fail(e);
  }
}

async function hint() {
  const g = state.game;
  if (!g.dice || !g.plays.length) {
    $("hint-out").textContent = "Throw first: a hint is the best play for the dice.";
    return;
  }
  $("hint-out").textContent = "Thinking…";
  try {
    const best = await api.bestMove(current().ufen, g.dice, g.rules, { level: "expert", multipv: 3 }, { movetimeMs: 1000 });
    const lines = best.candidates.map(
      (c, i) => `${i + 1}. ${c.play}  equity ${c.evaluation.equity >= 0 ? "+" : ""}${c.evaluation.equity.toFixed(3)}, wins ${pct(c.evaluation.winProbability)}`,
    );
    $("hint-out").textContent = `Best: ${best.play}\n${lines.join("\n")}`;
  } catch (e) {
    $("hint-out").textContent = e.message;
  }
}

// ---- records and review --------------------------------------------------

function recordText() {
  const g = state.game;
  const r = g.result;
  const headers = [
    ["Rules", g.rules],
    ["Switches", g.switches],
    ["RY", g.names.RY],
    ["GB", g.names.GB],
  ];
  if (g.seed && g.seed !== "0") headers.push(["Seed", g.seed]);
  headers.push(["Date", g.date]);
  if (g.startUfen) headers.push(["Start", g.startUfen]);
  headers.push(["Result", r.finished ? `${TEAMS[r.winner]} ${r.points}` : "*"]);
  const lines = headers.map(([k, v]) => `[${k} "${String(v).replace(/"/g, "'")}"]`);
  const items = g.items.map((it) => `${it.throw}:${it.play}`);
  lines.push("");
  for (let i = 0; i < items.length; i += 8) lines.push(items.slice(i, i + 8).join(" "));
  return lines.join("\n") + "\n";
}

function download() {
  const blob = new Blob([recordText()], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `uckers-${state.game.date}.txt`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// Reads a record (docs/records.md, text or JSON) and replays it through the
// engine, item by item, so that every position can be looked at.
function parseRecord(text) {
  // The text form is read into the JSON form's fields (uckers.v1.GameRecord).
  let j;
  if (text.trimStart().startsWith("{")) {
    j = JSON.parse(text);
  } else {
    const h = {};
    const items = [];
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (!line || line.startsWith("#")) continue;
      const m = line.match(/^\[(\w+)\s+"(.*)"\]$/);
      if (m) {
        h[m[1]] = m[2];
        continue;
      }
      for (const tok of line.split(/\s+/)) {
        const t = tok.match(/^([1-6])([1-6]):(\S+)$/);
        if (!t) throw new Error(`record: '${tok}' is not an item <throw>:<play>`);
        items.push({ throw: `${t[1]}${t[2]}`, play: t[3] });
      }
    }
    j = { switches: h.Switches, rules: h.Rules, startUfen: h.Start, seed: h.Seed, ry: h.RY, gb: h.GB, date: h.Date, items };
  }
  return {
    rules: j.switches || j.rules || "navy",
    ufen: j.startUfen || null,
    seed: j.seed || "0",
    names: { RY: j.ry || "?", GB: j.gb || "?" },
    date: j.date || "",
    items: (j.items || []).map((i) => [i.throw, i.play]),
  };
}

async function loadRecord(e) {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  state.gen++;
  const gen = state.gen;
  try {
    const rec = parseRecord(await file.text());
    const start = await api.startPosition(rec.rules, rec.ufen);
    const g = {
      rules: start.rules,
      switches: start.switches,
      seat: "watch",
      humans: new Set(),
      players: 2,
      level: "expert",
      speed: 0,
      seed: rec.seed,
      startUfen: rec.ufen,
      names: rec.names,
      date: rec.date,
      positions: [start.position],
      items: [],
      result: start.result,
      dice: null,
      plays: [],
      last: [],
      mode: "replay",
      analysis: null,
    };
    for (const [i, [t, play]] of rec.items.entries()) {
      const dice = { die1: Number(t[0]), die2: Number(t[1]) };
      const pos = g.positions[g.positions.length - 1];
      let applied;
      try {
        applied = await api.applyPlay(pos.ufen, dice, play, g.rules, 2);
      } catch (err) {
        throw new Error(`record item ${i + 1} '${t}:${play}': ${err.detail || err.message}`);
      }
      if (gen !== state.gen) return;
      g.items.push({ throw: t, dice, play: applied.play, mover: toThrow(pos), effects: applied.effects });
      g.positions.push(applied.position);
      g.result = applied.result;
    }
    state.game = g;
    state.view = 0;
    state.selected = null;
    $("review").hidden = true;
    $("result").textContent = g.result.finished
      ? `Loaded: ${TEAMS[g.result.winner]} won ${g.result.points}.`
      : "Loaded: the game is unfinished.";
    status(`Loaded ${file.name}: ${g.items.length} throws. Step through it or review it.`);
    render();
  } catch (err) {
    fail(err);
  }
}

async function review() {
  const g = state.game;
  if (!g.items.length) return status("Nothing to review yet.", { error: true });
  $("review").hidden = false;
  $("review-status").textContent = "Analysing…";
  $("chart").replaceChildren();
  $("teams").replaceChildren();
  try {
    const analysis = await api.analyseGame(recordText(), $("review-level").value);
    g.analysis = analysis;
    drawChart($("chart"), analysis, showMark);
    const marks = analysis.items.filter((it) => markOf(it)).length;
    $("review-status").textContent = `${analysis.items.length} throws analysed at ${analysis.level} in ${analysis.seconds.toFixed(2)} s: ${marks} marked.`;
    const head = ["team", "decisions", "error rate", "rating", "?!", "?", "??", "luck", "points", "luck-adjusted"];
    const tr = document.createElement("tr");
    for (const h of head) {
      const th = document.createElement("th");
      th.textContent = h;
      tr.append(th);
    }
    const rows = analysis.teams.map((t) => {
      const r = document.createElement("tr");
      const cells = [
        t.team,
        t.decisions,
        t.errorRate.toFixed(4),
        t.rating,
        t.doubtful,
        t.bad,
        t.veryBad,
        t.luck.toFixed(2),
        t.points,
        t.luckAdjustedPoints.toFixed(2),
      ];
      for (const c of cells) {
        const td = document.createElement("td");
        td.textContent = String(c);
        r.append(td);
      }
      return r;
    });
    $("teams").replaceChildren(tr, ...rows);
  } catch (e) {
    $("review-status").textContent = e.message;
  }
}

function showMark(item) {
  // The position before the item's throw, with what was played and the best.
  viewAt(item.index - 1);
  const m = markOf(item);
  $("mark-info").textContent = `Throw ${item.index}, ${item.team} threw ${item.throw}: played ${item.play} (${m.label}, −${item.equityLost.toFixed(3)}); best ${item.bestPlay}. Luck ${item.luck >= 0 ? "+" : ""}${item.luck.toFixed(3)}.`;
}

// ---- drawing -------------------------------------------------------------

function viewAt(index) {
  const g = state.game;
  const last = g.positions.length - 1;
  state.view = index === null ? null : Math.max(0, Math.min(last, index));
  if (state.view === last && g.mode === "play") state.view = null;
  state.selected = null;
  render();
}

function render({ targetKey = null } = {}) {
  const g = state.game;
  if (!g) return;
  const last = g.positions.length - 1;
  const viewing = state.view !== null;
  const index = viewing ? state.view : last;
  const pos = g.positions[index];
  const live = !viewing && g.mode === "play";
  const humanTurn = live && !g.result.finished && g.humans.has(toThrow(pos));
  const movable = new Set();
  const targets = new Set();
  if (humanTurn && g.plays.length) {
    for (const p of g.plays) for (const m of pieceMoves(p)) movable.add(m.id);
    for (const p of g.plays) {
      const mm = p.play.match(/^[xsw]([rgyb])(b|\d+)$/);
      if (mm) movable.add(`${mm[1]}:${mm[2]}`);
    }
    if (state.selected) {
      for (const p of playsFor(state.selected)) {
        for (const m of pieceMoves(p)) if (m.id === state.selected) targets.add(m.to);
      }
    }
  }
  board.render(pos.structured, {
    movable,
    selected: state.selected,
    targets,
    last: viewing ? [] : g.last,
  });
  // The dice, the position and its place in the game.
  const dice = live ? g.dice : viewing && g.items[index] ? g.items[index].dice : null;
  $("dice").textContent = dice ? `${DIE_FACES[dice.die1]} ${DIE_FACES[dice.die2]}` : "";
  $("dice").setAttribute("aria-label", dice ? `dice ${dice.die1} and ${dice.die2}` : "no dice thrown");
  $("to-throw").textContent = g.result.finished && !viewing ? "" : `${COLOURS[toThrow(pos)]} to throw`;
  $("to-throw").className = `to-throw ${COLOURS[toThrow(pos)]}`;
  $("ufen").value = pos.ufen;
  $("position-index").textContent = `position ${index} of ${last}${viewing ? " (looking back)" : ""}`;
  if (!g.result.finished && g.mode === "play") $("result").textContent = "";
  // The plays to choose from: all, or those of the piece (and target) chosen.
  const list = $("plays");
  list.replaceChildren();
  if (humanTurn && g.plays.length && !state.busy) {
    let shown = g.plays;
    if (state.selected) shown = playsFor(state.selected, targetKey);
    for (const p of shown) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "play";
      b.dataset.play = p.play;
      b.textContent = p.play === "-" ? "Pass (-)" : p.play;
      b.addEventListener("click", () => humanPlay(p.play));
      li.append(b);
      list.append(li);
    }
  }
  $("plays-title").textContent = humanTurn && g.plays.length
    ? state.selected ? `Plays of ${state.selected}` : `Legal plays (${g.plays.length})`
    : "Plays";
  // History.
  const hist = $("history");
  hist.replaceChildren();
  g.items.forEach((it, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = `item ${COLOURS[it.mover]}`;
    b.textContent = `${it.throw}:${it.play}`;
    if (index === i + 1) b.setAttribute("aria-current", "true");
    b.addEventListener("click", () => viewAt(i + 1));
    li.append(b);
    hist.append(li);
  });
  const humanItems = g.items.some((it) => g.humans.has(it.mover));
  $("btn-throw").disabled = !humanTurn || !!g.dice || state.busy;
  $("btn-takeback").disabled = g.mode !== "play" || !humanItems;
  $("btn-hint").disabled = !humanTurn || !g.dice;
  $("btn-review").disabled = !g.items.length;
  $("btn-download").disabled = !g.items.length;
  $("nav-prev").disabled = index === 0;
  $("nav-first").disabled = index === 0;
  $("nav-next").disabled = index === last;
  $("nav-live").disabled = !viewing;
}

init();
