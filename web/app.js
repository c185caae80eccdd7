// The web board: people and the engine at any seats, played through the
// public API only (api.js). The page holds no rules: legal plays, their
// effects, positions, dice, evaluations and the review all come from the
// engine; words.js says them the way a player would.

import * as api from "./api.js";
import { Board, COLOURS, LETTERS, NAMES, FILL, colourIndex, place, geometryFor, squareName } from "./board.js";
import { drawChart, markOf } from "./chart.js";
import {
  TEAMS, TEAM_NAMES, RULESETS, SWITCHES, OUTCOME, LEVEL_NAMES, MARKS,
  choiceText, playText, movesOf, errorText, diceText, markRank, explainTerms, chanceLost, chanceText, chanceOfPoints, scoreText, challengedBlob,
} from "./words.js";
import { canVerify, newClientSeed, newClientValue, verifyDealt } from "./dealer.js";
import { addPuzzles, dueCards, dayNumber, loadPuzzles } from "./drill.js";
import { Hand, isCall } from "./hand.js";

const $ = (id) => document.getElementById(id);
const store = {
  get(key, fallback) {
    try {
      const v = localStorage.getItem(key);
      return v === null ? fallback : JSON.parse(v);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // A full or blocked storage only loses the saved copy.
    }
  },
};
const SAVED = "uckers.game";
const STATS = "uckers.stats";
const SETTINGS = "uckers.settings";
const DEALT = "uckers.dealt"; // the proofs of the last dealt games, to check again
const DEALT_PENDING = "The server shows its secret when the game is over; then this page checks every throw.";
const DEFAULTS = { autoplay: true, anim: "normal", tutor: false, tutorAt: "MARK_BAD", throwMap: false, guide: false };
// The pace of the board (Settings): a slide's time a square and at most a
// play (a long move goes faster), the dice's roll (frames of the faces,
// the person's own throws only but at slow), the pause after an engine's
// play and after a challenge's throw, and before a forced play is made. At
// normal, an engine's turn is its search and at most about 0.3 s, so a
// person on the six-sided board waits about two seconds between turns
// (bench/web_pacing.mjs measures it).
const PACE = {
  slow: { square: 90, slide: 1500, roll: 5, engineRoll: true, pause: 700, challenge: 900, forced: 1200 },
  normal: { square: 45, slide: 300, roll: 3, engineRoll: false, pause: 0, challenge: 500, forced: 700 },
  fast: { square: 20, slide: 150, roll: 0, engineRoll: false, pause: 0, challenge: 250, forced: 300 },
  off: { square: 0, slide: 0, roll: 0, engineRoll: false, pause: 0, challenge: 0, forced: 60 },
};
const pace = () => PACE[state.settings.anim] || PACE.normal;

const state = {
  info: null,
  game: null,
  gen: 0, // bumped by whatever stops the turns in flight (new game, take back)
  selected: null, // "r:12": the piece clicked
  hand: null, // the play being made on the board, die by die (hand.js)
  inFlight: null, // a person's play sent and not yet in the game: { gen, index, dice }
  armed: null, // a play of the list tapped once on a touch screen (its arrow drawn)
  preview: null, // a play shown on the board while its button has focus
  view: null, // index into game.positions being looked at, or null (the live position)
  diceCache: new Map(),
  evals: new Map(), // ufen -> outcomes of the team to throw
  evalPending: new Map(), // ufen -> the call under way
  bests: new Map(), // "ufen dice" -> the engine's best play there
  bestPending: new Set(),
  busy: false,
  retry: null,
  settings: { ...DEFAULTS, ...store.get(SETTINGS, {}) },
  tutorAsk: null, // the play the tutor stopped: { play, gen, verdict }
  maps: new Map(), // ufen -> the next throw's map (ThrowMap)
  mapPending: new Set(),
};

const boardInput = () => ({ onPiece: pieceClicked, onTarget: targetClicked, onControl: controlClicked, onPeek: peekAt });
let board = new Board($("board"), boardInput());

// The board drawn for a game of `colours` colours (the cross or the hexagon).
function boardFor(colours) {
  if (board.geo.colours !== colours) {
    board = new Board($("board"), { ...boardInput(), geometry: geometryFor(colours) });
  }
  return board;
}

// ---- sides -----------------------------------------------------------------

// The four-sided game of two teams: red and yellow against green and blue.
const TWO_TEAMS = { colours: 4, sides: 2, sideOf: [0, 1, 0, 1], twoTeams: true };

// The sides of a game from GetStartPosition's answer: each colour's side
// (colourSides, 1-based) on the other layouts, none on the four-sided game
// of two teams (RULES.md §11).
function layoutOf(start) {
  const sides = start.colourSides || [];
  if (!sides.length) return TWO_TEAMS;
  const sideOf = sides.map((s) => s - 1);
  return { colours: sideOf.length, sides: Math.max(...sideOf) + 1, sideOf, twoTeams: false };
}

const layout = (g) => g.layout || TWO_TEAMS;
const twoTeams = (g) => layout(g).twoTeams;
const sideOf = (g, c) => layout(g).sideOf[c];
const colourList = (g) => [...Array(layout(g).colours).keys()];
const sideColours = (g, side) => colourList(g).filter((c) => sideOf(g, c) === side);
const joinNames = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);
// A side named by its colours: "Red and Yellow", "Green, Blue and Purple", "Orange".
const sideName = (g, side) => joinNames(sideColours(g, side).map((c) => NAMES[c]));
const sideNameOf = (g, c) => sideName(g, sideOf(g, c));
// A side as records and reviews name it: its colours' letters in turn order,
// upper case ("RY", "GO", "RYO", "P"; docs/records.md).
const sideKey = (g, side) => sideColours(g, side).map((c) => LETTERS[c].toUpperCase()).join("");
const sideOfKey = (g, key) => [...Array(layout(g).sides).keys()].find((s) => sideKey(g, s) === key);
// The name of a side a review or a record names by its key.
const sideNameOfKey = (g, key) => {
  const s = sideOfKey(g, key);
  return s === undefined ? key : sideName(g, s);
};

// ---- helpers -------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const current = () => state.game.positions[state.game.positions.length - 1];
const toThrow = (pos) => colourIndex(pos.structured.toThrow);
const teamOf = (c) => (c % 2 === 0 ? "RY" : "GB"); // the four-sided game of two teams
const pct = (p) => `${Math.round(100 * p)}%`;
const lower = (text) => text.charAt(0).toLowerCase() + text.slice(1);
const isPerson = (g, c) => g.seats[c].person;
// Who plays a seat, in words: a person, the engine at a level, or (a
// loaded record's) the player the record names.
const seatWords = (st) => st.recorded ?? (st.person ? "a person" : `the engine, ${LEVEL_NAMES(st.level)}`);
const seatName = (g, c) => seatWords(g.seats[c]);
const sameSeat = (a, b) => a.person === b.person && a.level === b.level && a.recorded === b.recorded;

// A player as a record names one (docs/records.md: a level with its
// settings, "person", another player of the tools, or any name), in words;
// a record that names none gets a neutral name.
function recordedPlayer(name) {
  const n = (name || "").trim();
  if (!n || n === "?") return "a player the record does not name";
  if (n === "person") return "a person";
  const spec = n.split(",")[0];
  if (state.info?.levels?.includes(spec)) return `the engine, ${LEVEL_NAMES(spec)}`;
  if (spec === "greedy") return "a greedy player (each throw's most forward play)";
  if (spec === "random") return "a player making random plays";
  if (spec === "mcts") return "the engine, by tree search";
  if (/^(cmd|grpc):/.test(n)) return "another program";
  return n;
}

// A loaded record's seats, colour by colour: each side's player as the
// record names it; a side named colour by colour ("person and beginner",
// as the board writes a side whose seats differ) a name a colour.
function recordedSeats(g, names) {
  const seats = [];
  for (let side = 0; side < layout(g).sides; side++) {
    const colours = sideColours(g, side);
    const name = names?.[sideKey(g, side)];
    const parts = (name || "").split(/, | and /);
    colours.forEach((c, i) => {
      seats[c] = { recorded: recordedPlayer(parts.length === colours.length ? parts[i] : name) };
    });
  }
  return seats;
}

// The status line belongs to the position shown: while one looks back, the
// game's own news waits (state.liveStatus) until one comes back.
function status(text, { error = false, retry = null, view = false } = {}) {
  if (!view && !error) state.liveStatus = text;
  if (!view && !error && state.view !== null && state.game?.mode === "play") return;
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
  s.setAttribute("role", error ? "alert" : "status");
  state.retry = retry;
  $("btn-retry").hidden = !retry;
}

// A failed call, explained in words; `retry` runs it again.
function fail(e, retry = null) {
  state.busy = false;
  $("raw-error").textContent = e?.message || String(e);
  const text = e?.player || errorText(e);
  status(retry ? `${text} Press Try again when it is back.` : text, { error: true, retry });
  render();
}

api.retry.onRetry = (attempt, attempts) => {
  // Once a call has given up and offers Try again, another call's retries
  // (the evaluation beside a throw) leave that message and its button be.
  if (state.retry) return;
  status(`Lost touch with the engine; trying again (${attempt} of ${attempts})…`, { error: true });
};

// ---- starting a game -----------------------------------------------------

async function init() {
  try {
    state.info = await api.engineInfo();
  } catch (e) {
    return fail(e, () => location.reload());
  }
  $("engine-name").textContent = `${state.info.name} ${state.info.version}`;
  const preset = $("rules-preset");
  for (const r of state.info.rulesets) if (RULESETS[r]) preset.add(new Option(RULESETS[r][0], r));
  const about = () => ($("rules-about").textContent = RULESETS[preset.value]?.[1] || "");
  preset.addEventListener("change", () => {
    about();
    refreshSeats();
  });
  about();
  for (const id of ["rules-board", "rules-sides"]) $(id).addEventListener("change", refreshSeats);
  buildSeats(TWO_TEAMS);
  for (const l of state.info.levels) $("review-level").add(new Option(LEVEL_NAMES(l), l, l === "grandmaster", l === "grandmaster"));
  const box = $("switches");
  for (const s of state.info.implementedSwitches) {
    // The board and the sides have choosers of their own.
    if (!SWITCHES[s] || LAYOUT_SWITCHES.includes(s)) continue;
    const label = document.createElement("label");
    const cb = document.createElement("input");
    cb.type = "checkbox";
    cb.value = s;
    cb.name = "switch";
    const name = document.createElement("b");
    name.textContent = ` ${SWITCHES[s][0]}`;
    const line = document.createElement("span");
    line.className = "about";
    line.textContent = ` — ${SWITCHES[s][1]}`;
    label.append(cb, name, line);
    box.append(label);
  }
  $("new-game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    newGameFromForm();
  });
  $("new-game-cancel").addEventListener("click", () => $("new-game").close());
  $("btn-new").addEventListener("click", () => leaveAsk() && $("new-game").showModal());
  $("btn-guided").addEventListener("click", () => leaveAsk() && guidedGame());
  $("btn-guide-close").addEventListener("click", () => {
    if (state.game?.guide) state.game.guide.hidden = true;
    render();
  });
  $("btn-throw").addEventListener("click", humanThrow);
  $("btn-takeback").addEventListener("click", takeBack);
  $("btn-undo-die").addEventListener("click", undoDie);
  $("btn-pass").addEventListener("click", () => canChooseNow() && humanPlay("-"));
  $("btn-play-steps").addEventListener("click", () => {
    const done = canChooseNow() && handNow()?.complete();
    if (done) humanPlay(done.play.play, { shown: true });
  });
  $("btn-hint").addEventListener("click", hint);
  $("btn-review").addEventListener("click", review);
  $("btn-review-again").addEventListener("click", review);
  $("btn-download").addEventListener("click", download);
  $("btn-retry").addEventListener("click", () => {
    const again = state.retry;
    status("Trying again…");
    again?.();
  });
  $("btn-stats").addEventListener("click", showStats);
  // The plays and the tutor's warning are fitted to the screen anew.
  window.addEventListener("resize", () => {
    if (state.game) for (const id of ["plays", "tutor"]) fitToScreen($(id));
  });
  $("btn-settings").addEventListener("click", () => {
    $("set-autoplay").checked = state.settings.autoplay;
    $("set-anim").value = state.settings.anim;
    $("set-tutor").checked = state.settings.tutor;
    $("set-tutor-at").value = state.settings.tutorAt;
    $("set-throwmap").checked = state.settings.throwMap;
    $("set-guide").checked = state.settings.guide;
    $("settings").showModal();
  });
  $("settings").addEventListener("close", () => {
    const guideWas = state.settings.guide;
    state.settings = {
      autoplay: $("set-autoplay").checked,
      anim: $("set-anim").value,
      tutor: $("set-tutor").checked,
      tutorAt: $("set-tutor-at").value,
      throwMap: $("set-throwmap").checked,
      guide: $("set-guide").checked,
    };
    // The guide switched on or off goes for the game in progress too.
    const g = state.game;
    if (g && g.mode === "play" && state.settings.guide !== guideWas) {
      if (state.settings.guide && !g.guide) g.guide = newGuide();
      else if (g.guide) g.guide.hidden = !state.settings.guide;
    }
    store.set(SETTINGS, state.settings);
    if (state.game) render();
  });
  $("btn-rethink").addEventListener("click", rethink);
  $("btn-play-anyway").addEventListener("click", playAnyway);
  $("btn-dealt-check").addEventListener("click", checkDealtAgain);
  $("dice-kind").addEventListener("change", () => {
    $("seed-row").hidden = $("dice-kind").value === "dealt";
  });
  showPracticeDue();
  $("record-file").addEventListener("click", (e) => {
    if (!leaveAsk()) e.preventDefault();
  });
  $("record-file").addEventListener("change", loadRecord);
  $("nav-first").addEventListener("click", () => viewAt(0));
  $("nav-prev").addEventListener("click", () => viewAt(shownIndex() - 1));
  $("nav-next").addEventListener("click", () => viewAt(shownIndex() + 1));
  $("nav-live").addEventListener("click", () => viewAt(null));
  $("btn-resume").addEventListener("click", resumeSaved);
  $("btn-discard").addEventListener("click", () => {
    store.set(SAVED, null);
    $("resume").hidden = true;
    $("new-game").showModal();
  });
  document.addEventListener("keydown", keyPressed);
  window.addEventListener("beforeunload", (e) => {
    if (inProgress()) {
      e.preventDefault();
      e.returnValue = "";
    }
  });
  const saved = store.get(SAVED, null);
  if (saved && saved.version === 1 && !saved.result?.finished) {
    const people = saved.seats.map((s, c) => (s.person ? NAMES[c] : null)).filter(Boolean);
    $("resume-text").textContent = `A game in progress was kept: ${people.length ? people.join(", ") : "nobody"} played by people, ${saved.items.length} throws so far, ${NAMES[colourIndex(saved.positions.at(-1).structured.toThrow)]} to throw.`;
    $("resume").hidden = false;
    $("btn-resume").focus();
    for (const b of document.querySelectorAll(".panel button, #btn-download")) b.disabled = true;
    return;
  }
  const seats = [{ person: true }, { level: "intermediate" }, { person: true }, { level: "intermediate" }];
  await newGame({ rules: "navy", seats });
}

function inProgress() {
  const g = state.game;
  return !!g && g.mode === "play" && !g.result.finished && g.items.length > 0;
}

// Leaving a game in progress asks first (the game stays saved until another starts).
function leaveAsk() {
  if (!inProgress()) return true;
  return window.confirm("Leave the game in progress? It is kept until another game starts.");
}

// The switches that choose the board and the sides (the Board and Sides
// choosers of the New game dialog).
const LAYOUT_SWITCHES = ["six_sided", "teams_of_three", "solo"];

// The rules the New game dialog describes: the ruleset, the board, the
// sides, the house rules ticked.
function formRules({ sides = true } = {}) {
  const switches = [...document.querySelectorAll('input[name="switch"]:checked')].map((c) => c.value);
  const preset = $("rules-preset").value;
  const parts = [preset];
  if ($("rules-board").value === "six" && preset !== "six") parts.push("six_sided");
  const chosen = $("rules-sides").value;
  if (sides && chosen !== "partners") parts.push(chosen);
  return [...parts, ...switches].join("+");
}

// One seat chooser a colour of the board: a person, or the engine at a
// level (each engine seat its own). The choices already made are kept.
function buildSeats(lay) {
  const list = $("seat-list");
  // The choices made are kept while the board keeps its colours.
  const before = [...list.querySelectorAll("select.seat")].map((s) => s.value);
  const kept = before.length === lay.colours ? before : [];
  list.replaceChildren();
  for (let c = 0; c < lay.colours; c++) {
    const label = document.createElement("label");
    label.className = `seat-row ${COLOURS[c]}`;
    const sel = document.createElement("select");
    sel.id = `seat-${c}`;
    sel.className = "seat";
    sel.add(new Option("a person", "person"));
    for (const l of state.info.levels) sel.add(new Option(`the engine, ${LEVEL_NAMES(l)}`, l));
    sel.value = kept[c] || (lay.twoTeams ? (c % 2 === 0 ? "person" : "intermediate") : c === 0 ? "person" : "intermediate");
    label.append(`${NAMES[c]} `, sel);
    list.append(label);
  }
  const g = { layout: lay };
  const sides = [...Array(lay.sides).keys()];
  $("seats-about").textContent = lay.sides === lay.colours
    ? "Every colour plays for itself. People take turns at this screen."
    : `${sides.map((s) => sideName(g, s)).join(" against ")}, partners on one side. People take turns at this screen.`;
  $("seat-list").dataset.colours = String(lay.colours);
}

// The board and sides chosen: the engine's start position for them gives
// the colours and their sides (nothing about the rules is known here).
async function refreshSeats() {
  const asked = (state.seatsAsked = (state.seatsAsked || 0) + 1);
  $("new-game-start").disabled = true;
  try {
    const bare = await api.startPosition(formRules({ sides: false }), null);
    if (asked !== state.seatsAsked) return;
    const six = bare.position.structured.colours.length === 6;
    // Teams of three exist only on the six-sided board.
    $("rules-sides").querySelector('option[value="teams_of_three"]').disabled = !six;
    if (!six && $("rules-sides").value === "teams_of_three") $("rules-sides").value = "partners";
    $("rules-board").value = six ? "six" : "four";
    const start = await api.startPosition(formRules(), null);
    if (asked !== state.seatsAsked) return;
    buildSeats(layoutOf(start));
    $("new-game-error").textContent = "";
  } catch (e) {
    if (asked !== state.seatsAsked) return;
    $("raw-error").textContent = e.message;
    $("new-game-error").textContent = `Those rules were refused: ${e.detail || errorText(e)}`;
  } finally {
    if (asked === state.seatsAsked) $("new-game-start").disabled = false;
  }
}

function newGameFromForm() {
  const rules = formRules();
  const seats = [...document.querySelectorAll("#seat-list select.seat")].map((sel) =>
    sel.value === "person" ? { person: true } : { level: sel.value },
  );
  const dealt = $("dice-kind").value === "dealt";
  const seed = $("seed").value.trim() || "0";
  if (!dealt && !/^\d{1,20}$/.test(seed)) {
    $("new-advanced").open = true;
    $("new-game-error").textContent = `The dice seed must be a whole number, not '${seed}'.`;
    return;
  }
  $("new-game-error").textContent = "";
  newGame({ rules, seats, ufen: $("start-ufen").value.trim() || null, seed, dealt, fromForm: true });
}

function guidedGame() {
  newGame({ rules: "navy", seats: [{ person: true }, { level: "beginner" }, { person: true }, { level: "beginner" }], guided: true });
}

// `guided`: the guided first game, whose guide is on whatever the settings
// say; any other game has the guide when the settings ask for it.
async function newGame({ rules, seats, ufen = null, seed = "0", dealt = false, fromForm = false, guided = false }) {
  const gen = ++state.gen;
  state.busy = false;
  let start;
  let roll = null;
  let deal = null;
  try {
    start = await api.startPosition(rules, ufen);
    const lay = layoutOf(start);
    if (seats.length !== lay.colours) {
      throw Object.assign(new Error(`${seats.length} seats for ${lay.colours} colours`), {
        player: "The seats are still being set for these rules: try again in a moment.",
      });
    }
    // Dealt dice: the server commits to its secret first, then the browser
    // makes the client seed and binds it with the rules and the start; each
    // throw is dealt as the game reaches it.
    if (dealt) {
      deal = { ...(await api.startDealtGame()), clientSeed: newClientSeed(), secret: null, values: [], dice: [] };
      deal.commitmentSignature = (await api.bindDealtGame(deal.token, deal.clientSeed, start.rules, ufen ? start.position.ufen : null)).commitmentSignature;
    } else roll = await api.rollDice(seed, 0, 100);
  } catch (e) {
    if (gen !== state.gen) return;
    if (fromForm) {
      $("raw-error").textContent = e.message;
      $("new-game-error").textContent = ufen && e.code === "invalid_argument"
        ? `That start position was refused: ${e.detail}`
        : e.player || errorText(e);
      return;
    }
    return fail(e, () => newGame({ rules, seats, ufen, seed, dealt, guided }));
  }
  // Another game started (or a record loaded) meanwhile: that one stands.
  if (gen !== state.gen) return;
  // The dialog closes on the game it asked for; the page's first game,
  // arriving late, leaves a dialog the player opened meanwhile alone.
  if (fromForm && $("new-game").open) $("new-game").close();
  $("resume").hidden = true;
  state.selected = null;
  state.view = null;
  state.diceCache = new Map();
  clearReview();
  $("hint-out").replaceChildren();
  tellDealt(deal ? DEALT_PENDING : "");
  state.game = {
    version: 1,
    id: `${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
    rules: start.rules,
    switches: start.switches,
    layout: layoutOf(start),
    seats,
    seed: roll ? roll.seed : "0",
    dealt: deal,
    startUfen: ufen ? start.position.ufen : null,
    date: new Date().toISOString().slice(0, 10),
    positions: [start.position],
    items: [],
    result: start.result,
    dice: null,
    plays: [],
    last: [],
    mode: "play",
    analysis: null,
    guide: guided || state.settings.guide ? { ...newGuide(), guided } : null,
  };
  roll?.throws.forEach((t, i) => state.diceCache.set(i, t));
  save();
  advance();
}

// The game in progress is kept in the browser. Its copy grows with the
// game (every position), so while the engine plays on it is written at
// most once a second; at once when a person is to act or the game ends.
function save() {
  const g = state.game;
  clearTimeout(state.saveTimer);
  if (!g || g.mode !== "play") return;
  const urgent = g.result.finished || isPerson(g, toThrow(current()));
  if (!urgent && Date.now() - (state.savedAt || 0) < 1000) {
    state.saveTimer = setTimeout(save, 1000);
    return;
  }
  state.savedAt = Date.now();
  const { plays, analysis, ...kept } = g;
  store.set(SAVED, g.result.finished ? null : kept);
}

function resumeSaved() {
  const saved = store.get(SAVED, null);
  $("resume").hidden = true;
  if (!saved) return;
  state.gen++;
  state.busy = false;
  state.game = { ...saved, plays: [], analysis: null };
  state.view = null;
  state.selected = null;
  state.diceCache = new Map();
  tellDealt(state.game.dealt ? DEALT_PENDING : "");
  status("The game is back where it was.");
  if (state.game.dice && isPerson(state.game, toThrow(current()))) {
    const gen = state.gen;
    listPlays(gen).then(() => render(), (e) => fail(e, resumeSaved));
    return;
  }
  state.game.dice = null;
  advance();
}

// Throw `index` of the game: from its seed (asked 100 at a time), or dealt
// by the server one at a time, as the game reaches it: asked with a fresh
// client value and the play made with the throw before, each once (the
// game keeps the dice dealt, so a page reloaded asks no throw again).
async function diceAt(index) {
  const g = state.game;
  const cache = state.diceCache;
  if (g.dealt) {
    const d = g.dealt;
    d.dice ||= [];
    d.values ||= [];
    if (!d.dice[index]) {
      const value = newClientValue();
      const answer = await api.dealThrow(d.token, index, value, index > 0 ? g.items[index - 1].play : "");
      d.values[index] = value;
      d.dice[index] = answer.throw;
      save();
    }
    return d.dice[index];
  }
  if (!cache.has(index)) {
    const roll = await api.rollDice(g.seed, index, 100);
    roll.throws.forEach((t, i) => cache.set(index + i, t));
  }
  return cache.get(index);
}

// ---- the turn ------------------------------------------------------------

function turnWords(pos) {
  const g = state.game;
  const c = toThrow(pos);
  const ch = pos.structured.challenge;
  const you = isPerson(g, c) ? "" : ` (${seatName(g, c)})`;
  if (ch) {
    const need = challengeNeed();
    return `${NAMES[c]}${you} is challenging: ${ch.sixes} of ${need ?? "?"} sixes so far. ${isPerson(g, c) ? "Throw again: only sixes count." : ""}`;
  }
  if (isPerson(g, c)) {
    const sides = new Set(colourList(g).filter((x) => isPerson(g, x)).map((x) => sideOf(g, x)));
    return `${NAMES[c]}'s turn${sides.size > 1 ? ` (pass the screen to whoever plays ${NAMES[c]})` : ""}: throw the dice.`;
  }
  return `${NAMES[c]}${you} is thinking…`;
}

// The sixes the challenge under way needs, from the play that declared it.
function challengeNeed() {
  const items = state.game.items;
  for (let i = items.length - 1; i >= 0; i--) {
    const ch = items[i].effects?.challenge;
    if (ch?.sixesNeeded) return ch.sixesNeeded;
  }
  return null;
}

async function advance() {
  const g = state.game;
  const gen = state.gen;
  render();
  if (g.mode !== "play") return;
  save();
  if (g.result.finished) return finished();
  const actor = toThrow(current());
  const told = g.items.length ? `${g.items.at(-1).words} ` : "";
  if (isPerson(g, actor)) {
    if (!g.dice) status(`${told}${turnWords(current())}`);
    return;
  }
  status(`${told}${turnWords(current())}`);
  try {
    const dice = await diceAt(g.items.length);
    if (gen !== state.gen) return;
    g.dice = dice;
    if (pace().engineRoll) await rollDice(dice);
    render();
    const best = await api.bestMove(current().ufen, dice, g.rules, { level: g.seats[actor].level });
    if (gen !== state.gen) return;
    await makePlay(best.play, gen);
  } catch (e) {
    if (gen === state.gen) fail(e, advance);
  }
}

async function rollDice(dice) {
  const frames = pace().roll;
  if (!frames) return;
  const faces = $("dice");
  faces.classList.add("rolling");
  for (let i = 0; i < frames; i++) {
    showDice({ die1: 1 + Math.floor(Math.random() * 6), die2: 1 + Math.floor(Math.random() * 6) });
    await sleep(60);
  }
  faces.classList.remove("rolling");
  showDice(dice);
}

function showDice(dice) {
  const pips = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  $("die1").textContent = dice ? pips[dice.die1] : "";
  $("die2").textContent = dice ? pips[dice.die2] : "";
  $("dice").setAttribute("aria-label", dice ? `dice ${dice.die1} and ${dice.die2}` : "no dice thrown");
}

// `shown`: the play was made on the board, die by die, and is drawn
// already (nothing slides).
async function makePlay(play, gen, { shown = false } = {}) {
  const g = state.game;
  const before = current();
  const applied = await api.applyPlay(before.ufen, g.dice, play, g.rules, 0);
  if (gen !== state.gen) return;
  if (!shown) {
    g.plays = [];
    state.hand = null;
    state.selected = null;
    state.preview = null;
    render();
    const fx = applied.effects || {};
    const moves = movesOf(applied.play);
    const slides = moves.length ? moves : (fx.moves || []).map((m) => ({ c: colourIndex(m.colour), from: m.from, to: m.to }));
    const knocked = (fx.knockedOff || []).map((k) => ({ c: colourIndex(k.colour), from: k.from }));
    await board.animate(slides, knocked, pace().square, pace().slide);
    if (gen !== state.gen) return;
  }
  g.plays = [];
  state.hand = null;
  state.selected = null;
  state.preview = null;
  state.armed = null;
  state.inFlight = null;
  const fx = applied.effects || {};
  const mover = toThrow(before);
  const item = { dice: g.dice, play: applied.play, mover, effects: fx };
  item.words = playText({ ...item, before: before.structured, after: applied.position.structured });
  g.items.push(item);
  g.positions.push(applied.position);
  g.result = applied.result;
  g.dice = null;
  g.last = (fx.moves || []).map((m) => place(colourIndex(m.colour), m.to, 0, board.geo).key);
  status(item.words);
  // A challenge's throw is shown a moment, whoever threw it.
  const challenged = fx.challenge?.event && fx.challenge.event !== "CHALLENGE_EVENT_NONE";
  const pause = challenged ? pace().challenge : isPerson(g, mover) ? 0 : pace().pause;
  if (pause) await sleep(pause);
  if (gen !== state.gen) return;
  state.busy = false;
  advance();
}

async function humanThrow() {
  const g = state.game;
  if (!g || state.busy || g.dice || g.result.finished || g.mode !== "play" || !isPerson(g, toThrow(current()))) return;
  state.busy = true;
  state.view = null;
  const gen = state.gen;
  try {
    const dice = await diceAt(g.items.length);
    if (gen !== state.gen) return;
    await rollDice(dice);
    g.dice = dice;
    save();
    await listPlays(gen);
  } catch (e) {
    if (gen === state.gen) fail(e, humanThrow);
    return;
  }
  state.busy = false;
  render();
  autoPlay(gen);
}

async function listPlays(gen) {
  const g = state.game;
  const listed = await api.legalPlays(current().ufen, g.dice, g.rules, 0);
  if (gen !== state.gen) return;
  g.plays = listed.plays;
  state.hand = null;
  state.armed = null;
  const pos = current().structured;
  const c = toThrow(current());
  if (pos.challenge) {
    status(`${NAMES[c]} throws ${diceText(g.dice)} for the challenge.`);
  } else if (g.plays.length === 1 && g.plays[0].play === "-") {
    status(`${NAMES[c]} throws ${diceText(g.dice)}: no play is possible.`);
  } else {
    status(`${NAMES[c]} throws ${diceText(g.dice)}: choose a piece (outlined) and a lit square, or a play from the list.`);
  }
}

// A pass, or the only play, is made after a short pause (Settings).
async function autoPlay(gen) {
  const g = state.game;
  if (!state.settings.autoplay || g.plays.length !== 1) return;
  const only = g.plays[0];
  const c = toThrow(current());
  const words = only.play === "-" ? "" : ` The only play: ${choiceText(only.play, current().structured, c, c, only.effects)}.`;
  $("status").textContent += `${words} Playing it for you…`;
  await sleep(pace().forced);
  if (gen !== state.gen || g.plays.length !== 1 || g.plays[0] !== only) return;
  humanPlay(only.play);
}

// ---- plays made by hand, die by die ----------------------------------------

// The piece a challenge or a call belongs to, as "r:12".
function callPiece(play) {
  const m = play.match(/^([xw])([a-z])(b|\d+)$/);
  if (m) return `${m[2]}:${m[3]}`;
  const s = play.match(/^s([a-z])\d+$/);
  if (!s) return null;
  // Suck back belongs to the caller's piece in line with that lane.
  const pos = current().structured;
  const g = state.game;
  const lane = LETTERS.indexOf(s[1]);
  const track = 13 * pos.colours.length;
  const lastTrack = track - 2;
  const abs = (13 * lane + lastTrack) % track;
  for (const [c, col] of pos.colours.entries()) {
    if (sideOf(g, c) === sideOf(g, lane)) continue;
    for (const sq of col.squares) if (/^\d+$/.test(sq) && Number(sq) <= lastTrack && (13 * c + Number(sq)) % track === abs) return `${LETTERS[c]}:${sq}`;
  }
  return null;
}

// The play being made on the board (web/hand.js): the steps chosen from
// the legal plays of this throw, kept until the play is sent.
function handNow() {
  const g = state.game;
  if (!g?.plays.length || !g.dice) return null;
  if (!state.hand || state.hand.plays !== g.plays) {
    state.hand = new Hand(g.plays, current().structured, g.dice, boardFor(current().structured.colours.length).geo, /bounce_back/.test(g.rules));
  }
  return state.hand;
}

// A person may choose now: the live game, a person to play, plays listed.
function canChooseNow() {
  const g = state.game;
  return !!g && state.view === null && g.mode === "play" && !!g.plays.length && !state.busy && !state.tutorAsk && !g.result.finished && isPerson(g, toThrow(current()));
}

// The calls (challenge, suck back, blow back) of the piece `id`, drawn as
// buttons beside it while it is chosen and no die has been played.
function callsOf(id) {
  const hand = handNow();
  if (!hand || hand.steps.length) return [];
  const pos = current().structured;
  const c = toThrow(current());
  return state.game.plays.filter((p) => isCall(p.play) && callPiece(p.play) === id).map((p) => {
    const lane = p.play.match(/^s[a-z](\d+)$/);
    const text = p.play.startsWith("x") ? "Challenge" : lane ? `Suck back ${Number(lane[1]) - board.geo.lastTrack} up` : "Blow back";
    return { id, play: p.play, text, label: choiceText(p.play, pos, c, c, p.effects) };
  });
}

// "a 3", "a 6 and a 3": the dice still to play.
const diceWords = (values) => values.map((v) => (v === 8 ? `an ${v}` : `a ${v}`)).join(" and ");

// A click on a piece chooses it (again: lets it go), or, when it stands on
// a square the piece already chosen may go to, is a click on that square.
function pieceClicked(id, cellKey) {
  if (!canChooseNow()) return;
  const hand = handNow();
  if (state.selected && id !== state.selected && hand.targets(state.selected).has(cellKey)) return targetClicked(cellKey);
  if (!hand.movable().has(id) && !callsOf(id).length) return;
  state.selected = state.selected === id ? null : id;
  render();
  // The keyboard goes on from the piece to its first lit square (Tab to the others).
  const next = $("board").querySelector(".cell.target") || $("board").querySelector(".control");
  if (state.selected && next) next.focus({ preventScroll: true });
}

// A lit square: the piece chosen goes there by the die (or dice) shown,
// at once on the board; the play is sent once the dice make up one legal
// play.
function targetClicked(key) {
  if (!canChooseNow() || !state.selected) return;
  const hand = handNow();
  const t = hand.targets(state.selected).get(key);
  if (!t) return;
  hand.choose(t.step);
  state.selected = null;
  afterStep();
}

function afterStep() {
  const hand = handNow();
  const done = hand.complete();
  if (done && !done.more) return humanPlay(done.play.play, { shown: true });
  tellHand();
  render();
  $("board").querySelector(".piece.movable")?.focus({ preventScroll: true });
}

// The status line while a play is being made by hand.
function tellHand() {
  const hand = handNow();
  if (!hand?.steps.length) return;
  const c = toThrow(current());
  const left = hand.diceLeft();
  const done = hand.complete();
  status(done
    ? `${NAMES[c]}: play it as it stands, or play ${diceWords(left)} too.`
    : `${NAMES[c]}: ${diceWords(left)} still to play: choose a piece for it.`);
}

// Undoes the last die played on the board (before the play is sent).
function undoDie() {
  const hand = handNow();
  if (!canChooseNow() || !hand?.steps.length) return false;
  hand.undo();
  state.selected = null;
  if (hand.steps.length) tellHand();
  else status(`${NAMES[toThrow(current())]} throws ${diceText(state.game.dice)}: choose a piece (outlined) and a lit square, or a play from the list.`);
  render();
  return true;
}

// A call drawn beside its piece (a challenge, suck back, blow back).
function controlClicked(play) {
  if (!canChooseNow() || !state.game.plays.some((p) => p.play === play)) return;
  humanPlay(play);
}

// The squares a focused piece could go to, lit faintly.
function peekAt(id) {
  if (!id || !canChooseNow() || state.selected) return null;
  return [...(handNow()?.targets(id).keys() || [])];
}

async function humanPlay(play, { checked = false, shown = false } = {}) {
  if (state.busy || state.tutorAsk) return;
  state.busy = true;
  const g = state.game;
  // The decision in flight, for Take back until the play is in the game.
  state.inFlight = { gen: state.gen, index: g.items.length, dice: g.dice };
  render();
  $("hint-out").replaceChildren();
  const gen = state.gen;
  try {
    if (!checked && (await tutorStops(play, gen))) {
      state.inFlight = null;
      return;
    }
    if (gen !== state.gen) return;
    await makePlay(play, gen, { shown });
  } catch (e) {
    if (gen === state.gen) {
      state.inFlight = null;
      fail(e, () => humanPlay(play, { checked, shown }));
    }
    return;
  }
  state.busy = false;
}

// ---- the tutor -------------------------------------------------------------

// Tutor mode (Settings): before a person's play is made, one JudgePlay (at
// the tutor's level); a play marked at the threshold or worse is stopped
// and the tutor says why. True when it stopped the play.
async function tutorStops(play, gen) {
  const g = state.game;
  if (!state.settings.tutor || g.plays.length < 2) return false;
  const pos = current();
  const verdict = await api.judgePlay(pos.ufen, g.dice, play, g.rules);
  if (gen !== state.gen || markRank(verdict.mark) < markRank(state.settings.tutorAt)) return false;
  state.tutorAsk = { play, gen, verdict };
  state.busy = false;
  const c = toThrow(pos);
  const effects = (p) => g.plays.find((x) => x.play === p)?.effects;
  const mark = MARKS[verdict.mark];
  $("tutor-verdict").textContent = `The tutor: that would be ${mark.words} (${mark.label}), giving away ${chanceLost(verdict.bestEvaluation, verdict.evaluation)} of the chance to win.`;
  $("tutor-play").textContent = `Your play: ${lower(choiceText(play, pos.structured, c, c, effects(play), g.plays))}.`;
  $("tutor-best").textContent = `The best play: ${lower(choiceText(verdict.bestPlay, pos.structured, c, c, effects(verdict.bestPlay), g.plays))}.`;
  const why = explainTerms(verdict.differences);
  $("tutor-why").replaceChildren(...why.map((w) => Object.assign(document.createElement("li"), { textContent: w })));
  $("tutor-why-title").hidden = !why.length;
  status("The tutor stopped that play: rethink it, or play it anyway.");
  render();
  $("tutor").scrollIntoView({ block: "nearest" });
  $("btn-rethink").focus({ preventScroll: true });
  return true;
}

function rethink() {
  if (!state.tutorAsk) return;
  state.tutorAsk = null;
  state.hand = null;
  const pos = current();
  status(`${NAMES[toThrow(pos)]} throws ${diceText(state.game.dice)}: choose again.`);
  render();
  $("plays").querySelector("button")?.focus({ preventScroll: true });
}

function playAnyway() {
  const ask = state.tutorAsk;
  if (!ask) return;
  state.tutorAsk = null;
  humanPlay(ask.play, { checked: true });
}

// Back exactly one decision of a person: a die played on the board and not
// yet sent, else the last throw a person played (the play in flight, when
// one was just sent and is still sliding), its dice still thrown (the dice
// come from the game's seed, so a throw is never thrown again). Not in a
// dealt game: the server keeps every play it was sent.
async function takeBack() {
  const g = state.game;
  if (!g || g.mode !== "play" || g.dealt) return;
  if (state.view === null && undoDie()) return;
  const flying = state.inFlight?.gen === state.gen ? state.inFlight : null;
  let k = g.items.length - 1;
  while (k >= 0 && !isPerson(g, g.items[k].mover)) k--;
  if (flying) k = flying.index;
  if (k < 0) return;
  state.gen++;
  state.busy = false;
  state.view = null;
  state.selected = null;
  state.hand = null;
  state.inFlight = null;
  state.tutorAsk = null;
  const dice = flying ? flying.dice : g.items[k].dice;
  g.plays = [];
  g.items.length = k;
  g.positions.length = k + 1;
  g.result = { finished: false };
  g.last = [];
  g.dice = dice;
  clearReview();
  try {
    await listPlays(state.gen);
  } catch (e) {
    return fail(e, takeBack);
  }
  save();
  render();
}

function finished() {
  const g = state.game;
  const r = g.result;
  const how = r.level === "OUTCOME_LEVEL_WIN" || !OUTCOME[r.level] ? "" : ` with ${OUTCOME[r.level]}`;
  $("result").textContent = resultWords(g, how);
  status("Review the game, download its record, or start a new one.");
  recordStats();
  render();
  if (g.dealt && !g.dealt.secret) revealDealt();
}

// What a finished game's result says to a player: who won and what they
// scored; with more than two sides, what each losing side gave and why
// (RULES.md §11: 1, 2 with no piece home, 3 with every piece in base).
function resultWords(g, how) {
  const r = g.result;
  const pts = (n) => `${n} point${n === 1 ? "" : "s"}`;
  // A side of one colour wins; partners win.
  const one = !twoTeams(g) && sideColours(g, (r.winnerSide || 1) - 1).length === 1;
  const won = `Game over: ${winnerName(g)} win${one ? "s" : ""}`;
  if (twoTeams(g) || !r.sidePoints?.length) return `${won}${how} (${pts(r.points)}).`;
  const why = { 1: "had a piece home", 2: "had no piece home", 3: "had every piece in base" };
  const losers = r.sidePoints
    .map((p, side) => ({ side, lost: -p }))
    .filter((l) => l.lost > 0)
    .map((l) => `${l.lost} from ${sideName(g, l.side)} (${why[l.lost] || "lost"})`);
  return `${won}, scoring ${pts(r.points)}: ${joinNames(losers)}.`;
}

// The winners of a finished game, named by their colours.
function winnerName(g) {
  const r = g.result;
  if (twoTeams(g)) return TEAM_NAMES[TEAMS[r.winner]];
  return sideName(g, (r.winnerSide || 1) - 1);
}

// ---- dealt dice --------------------------------------------------------------

// The dealt game's panel: the commitment (shown before the first throw)
// and the client seed; at the end the secret and the browser's check.
function showDealt() {
  const g = state.game;
  const d = g.dealt;
  $("dealt").hidden = !d;
  if (!d) return;
  $("dealt-commitment").textContent = d.commitment;
  $("dealt-seed").textContent = d.clientSeed;
  $("dealt-secret-row").hidden = !d.secret;
  $("dealt-secret").textContent = d.secret || "";
  $("btn-dealt-check").hidden = !d.secret;
}

function tellDealt(text, { ok = null } = {}) {
  const out = $("dealt-check");
  out.textContent = text;
  out.classList.toggle("verified", ok === true);
  out.classList.toggle("error", ok === false);
}

// The game is over: the server reveals its secret (RevealDealtGame checks
// the record's throws are its own), and the browser checks every throw.
async function revealDealt() {
  const g = state.game;
  const d = g.dealt;
  tellDealt("The game is over: asking the server for its secret…");
  let revealed;
  try {
    revealed = await api.revealDealtGame(d.token, recordText());
  } catch (e) {
    if (state.game !== g) return;
    $("raw-error").textContent = e.message;
    tellDealt(`The server did not reveal its secret: ${errorText(e)}`, { ok: false });
    return;
  }
  if (state.game !== g) return;
  d.secret = revealed.secret;
  d.record = revealed.record;
  // The proof is kept in the browser, to be checked again later.
  const proofs = store.get(DEALT, []).filter((p) => p.id !== g.id);
  proofs.push(proofOf(g));
  store.set(DEALT, proofs.slice(-20));
  render();
  await checkDealt(proofs.at(-1));
}

const proofOf = (g) => ({
  id: g.id,
  date: g.date,
  commitment: g.dealt.commitment,
  clientSeed: g.dealt.clientSeed,
  secret: g.dealt.secret,
  values: g.dealt.values || [],
  throws: g.items.map((it) => `${it.dice.die1}${it.dice.die2}`),
  finished: !!g.result.finished,
  loaded: g.mode === "replay",
  // The record the server signed, and the key it named at the start (of a
  // loaded record: the key the record names).
  signed: g.dealt.record ? { record: g.dealt.record, publicKey: g.dealt.dealerPublicKey } : null,
});

// Checks a proof in the browser (WebCrypto): the secret against the
// commitment shown before the first throw, every throw against the secret
// and the seed.
async function checkDealt(proof) {
  if (!canVerify()) {
    tellDealt("This browser cannot check the dice on this page: its cryptography (WebCrypto) needs a secure page (https, or the engine on this machine). The downloaded record can be checked with the engine's verify command.", { ok: false });
    return;
  }
  tellDealt("Checking every throw…");
  const throws = proof.throws.map((t) => [Number(t[0]), Number(t[1])]);
  const r = await verifyDealt({ ...proof, throws });
  if (r.ok) {
    const said = r.count === 1 ? "the game's one throw follows" : `all ${r.count} throws follow`;
    // Of a loaded record the board knows only what the file says, not when
    // the commitment was shown.
    const committed = proof.loaded ? "the record's commitment" : "the one it committed to before the first throw";
    tellDealt(`Dice verified: the server's secret is ${committed}, and ${said} from it, the client seed and the client's value for each throw. The server signed the game's record with its key ${r.keyId}.`, { ok: true });
  } else if (r.index === null) {
    tellDealt(`Dice not verified: ${r.why}.`, { ok: false });
  } else {
    tellDealt(`Dice not verified: throw ${r.index + 1} was ${r.kept[0]}-${r.kept[1]}, but the secret and the client seed give ${r.dealt[0]}-${r.dealt[1]}.`, { ok: false });
  }
}

// Checks again the copy kept in this browser (a loaded record: its own
// headers and throws).
function checkDealtAgain() {
  const g = state.game;
  const proof = store.get(DEALT, []).find((p) => p.id === g.id) || (g.mode === "replay" && proofOf(g));
  if (!proof) return tellDealt("This game's dice are no longer kept in this browser.", { ok: false });
  checkDealt(proof);
}

// ---- statistics ------------------------------------------------------------

// The side people played, when all the people sat on one side.
function peopleSide(g) {
  // The statistics count games of the four-sided game of two teams.
  if (!twoTeams(g)) return null;
  const sides = new Set(colourList(g).filter((c) => isPerson(g, c)).map(teamOf));
  return sides.size === 1 ? [...sides][0] : null;
}

function recordStats() {
  const g = state.game;
  const side = peopleSide(g);
  if (!side || g.mode !== "play") return;
  const stats = store.get(STATS, []);
  if (stats.some((s) => s.id === g.id)) return;
  const won = TEAMS[g.result.winner] === side;
  stats.push({ id: g.id, month: g.date.slice(0, 7), won, points: g.result.points, chanceLost: null });
  store.set(STATS, stats);
}

function showStats() {
  const stats = store.get(STATS, []);
  const months = new Map();
  for (const s of stats) {
    const m = months.get(s.month) || { games: 0, wins: 0, eight: 0, errors: [] };
    m.games++;
    if (s.won) m.wins++;
    if (s.won && s.points >= 2) m.eight++;
    if (typeof s.chanceLost === "number") m.errors.push(s.chanceLost);
    months.set(s.month, m);
  }
  const table = $("stats-table");
  const row = (cells, th = false) => {
    const tr = document.createElement("tr");
    for (const c of cells) {
      const td = document.createElement(th ? "th" : "td");
      td.textContent = String(c);
      tr.append(td);
    }
    return tr;
  };
  const rows = [row(["month", "games", "wins", "8-piecers won", "chance to win lost a choice (reviewed games)"], true)];
  for (const [month, m] of [...months].sort()) {
    const err = m.errors.length ? chanceText(m.errors.reduce((a, b) => a + b, 0) / m.errors.length) : "not reviewed";
    rows.push(row([month, m.games, m.wins, m.eight, err]));
  }
  if (!months.size) rows.push(row(["no finished games yet", "", "", "", ""]));
  table.replaceChildren(...rows);
  $("stats").showModal();
}

// ---- evaluation and hints ------------------------------------------------

// The side table: every side, who plays it, its chance to win (`chances`,
// side 1 first; none while they are worked out); the side to throw marked.
function showSides(chances, pos) {
  const g = state.game;
  const mover = pos && !g.result.finished ? sideOf(g, toThrow(pos)) : -1;
  const rows = [...Array(layout(g).sides).keys()].map((side) => {
    const tr = document.createElement("tr");
    tr.dataset.side = String(side + 1);
    if (side === mover) tr.classList.add("throwing");
    const th = document.createElement("th");
    th.scope = "row";
    for (const c of sideColours(g, side)) {
      const dot = document.createElement("span");
      dot.className = `swatch ${COLOURS[c]}`;
      dot.setAttribute("aria-hidden", "true");
      th.append(dot);
    }
    th.append(sideName(g, side));
    const who = document.createElement("td");
    const seats = sideColours(g, side).map((c) => g.seats[c]);
    who.textContent = seats.every((st) => sameSeat(st, seats[0]))
      ? seatWords(seats[0])
      : sideColours(g, side).map((c) => `${NAMES[c]}: ${seatWords(g.seats[c])}`).join("; ");
    const chance = document.createElement("td");
    chance.className = "chance";
    const p = chances ? chances[side] : null;
    chance.textContent = p === null || p === undefined ? "…" : pct(p);
    if (p !== null && p !== undefined) chance.dataset.chance = String(p);
    tr.append(th, who, chance);
    return tr;
  });
  const head = document.createElement("tr");
  for (const h of ["side", "played by", "chance to win"]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = h;
    head.append(cell);
  }
  $("sides-table").replaceChildren(head, ...rows);
  $("sides-table").dataset.ufen = chances && pos ? pos.ufen : "";
}

// Every side's chance from an evaluation of `pos` (for its side to throw).
function sideChances(outcomes, pos) {
  const g = state.game;
  if (!twoTeams(g)) return outcomes.sideWinProbabilities || null;
  const w = outcomes.winProbability || 0;
  return teamOf(toThrow(pos)) === "RY" ? [w, 1 - w] : [1 - w, w];
}

function showEvaluation(outcomes, teamToThrow, label, pos) {
  showSides(sideChances(outcomes, pos), pos);
  // With more than two sides the side table says it all.
  const two = twoTeams(state.game);
  $("evalbar").hidden = !two;
  $("outcomes-box").hidden = !two;
  $("eval-title").textContent = label;
  if (!two) return;
  // Outcomes are for the team to throw; the bar shows team RY's chances.
  const ry = teamToThrow === "RY";
  const get = (mine, theirs) => (ry ? outcomes[mine] : outcomes[theirs]);
  const ryWin = ry ? outcomes.winProbability : 1 - outcomes.winProbability;
  $("eval-title").textContent = label;
  $("evalbar-fill").style.width = `${(100 * ryWin).toFixed(1)}%`;
  $("evalbar").setAttribute("aria-valuenow", String(Math.round(100 * ryWin)));
  $("evalbar-text").textContent = `Red and Yellow ${pct(ryWin)} · Green and Blue ${pct(1 - ryWin)}`;
  const rows = [
    ["Red and Yellow win", get("win", "loss")],
    ["… with an 8-piecer", get("winEightPiecer", "lossEightPiecer")],
    ["… in harbour", get("winInHarbour", "lossInHarbour")],
    ["Green and Blue win", get("loss", "win")],
    ["… with an 8-piecer", get("lossEightPiecer", "winEightPiecer")],
    ["… in harbour", get("lossInHarbour", "winInHarbour")],
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
  $("equity").textContent = `Points Red and Yellow expect: ${eq >= 0 ? "+" : ""}${eq.toFixed(2)}`;
}

// The chances shown are always those of the position shown; a position is
// evaluated once it has been shown for a moment (not every position of a
// fast engine game).
function evaluateShown() {
  clearTimeout(state.evalTimer);
  const g = state.game;
  const pos = g.positions[shownIndex()];
  if (state.evals.has(`${g.rules} ${pos.ufen}`)) return evaluateNow();
  $("eval-title").textContent = `${state.view === null ? "Chances now" : `Chances at position ${shownIndex()} (looking back)`}: working them out…`;
  showSides(null, pos);
  delete $("evalbar").dataset.ufen;
  $("evalbar-fill").style.width = "50%";
  $("evalbar-text").textContent = "…";
  state.evalTimer = setTimeout(evaluateNow, 250);
}

async function evaluateNow() {
  const g = state.game;
  const index = shownIndex();
  const pos = g.positions[index];
  const label = state.view === null ? "Chances now" : `Chances at position ${index} (looking back)`;
  $("evalbar").dataset.position = String(index);
  if (index === g.positions.length - 1 && g.result.finished) {
    const won = twoTeams(g) ? (TEAMS[g.result.winner] === "RY" ? 0 : 1) : (g.result.winnerSide || 1) - 1;
    showSides([...Array(layout(g).sides).keys()].map((s) => (s === won ? 1 : 0)), pos);
    $("evalbar").hidden = !twoTeams(g);
    $("outcomes-box").hidden = !twoTeams(g);
    const ryWon = TEAMS[g.result.winner] === "RY";
    $("eval-title").textContent = twoTeams(g) ? label : `${label}: ${winnerName(g)} won`;
    $("evalbar-fill").style.width = ryWon ? "100%" : "0%";
    $("evalbar-text").textContent = `${winnerName(g)} won`;
    $("evalbar").dataset.ufen = pos.ufen;
    return;
  }
  // The same UFEN is another position under other sides (navy+solo).
  const key = `${g.rules} ${pos.ufen}`;
  const cached = state.evals.get(key);
  if (cached) {
    showEvaluation(cached, teamOf(toThrow(pos)), label, pos);
    $("evalbar").dataset.ufen = pos.ufen;
    return;
  }
  $("eval-title").textContent = `${label}: working them out…`;
  delete $("evalbar").dataset.ufen;
  // A loaded record's chances at expert; a game's at its engine's level.
  const level = g.mode === "replay" ? "expert" : g.seats.find((s) => !s.person)?.level || "intermediate";
  try {
    if (!state.evalPending.has(key)) {
      const asked = api.evaluate(pos.ufen, g.rules, { level }, { movetimeMs: 300 });
      state.evalPending.set(key, asked);
      asked.finally(() => state.evalPending.delete(key)).catch(() => {});
    }
    const e = await state.evalPending.get(key);
    state.evals.set(key, e.evaluation);
    if (state.game !== g || shownIndex() !== index || g.positions[index] !== pos) return;
    showEvaluation(e.evaluation, teamOf(toThrow(pos)), label, pos);
    $("evalbar").dataset.ufen = pos.ufen;
  } catch (e) {
    $("raw-error").textContent = e.message;
    $("eval-title").textContent = `${label}: not available (${errorText(e)})`;
  }
}

async function hint() {
  const g = state.game;
  const out = $("hint-out");
  if (!g.dice || !g.plays.length) {
    out.textContent = "Throw first: a hint is the best play for the dice thrown.";
    return;
  }
  out.textContent = "Thinking…";
  const pos = current();
  const c = toThrow(pos);
  try {
    const best = await api.bestMove(pos.ufen, g.dice, g.rules, { level: "expert", multipv: 3 }, { movetimeMs: 1000 });
    const list = document.createElement("ol");
    for (const [i, cand] of best.candidates.entries()) {
      const li = document.createElement("li");
      const effects = g.plays.find((p) => p.play === cand.play)?.effects;
      li.textContent = `${choiceText(cand.play, pos.structured, c, c, effects, g.plays)}: ${sideNameOf(g, c)} win ${pct(cand.evaluation.winProbability)}`;
      if (i > 0) li.textContent += `, ${chanceLost(best.candidates[0].evaluation, cand.evaluation)} less than the first`;
      // Why the best is better: what this one leaves against it.
      const why = explainTerms(cand.differences);
      if (i > 0 && why.length) {
        const ul = document.createElement("ul");
        ul.className = "why";
        for (const w of why) ul.append(Object.assign(document.createElement("li"), { textContent: w }));
        li.append(ul);
      }
      list.append(li);
    }
    const p = document.createElement("p");
    p.textContent = best.candidates.length > 1
      ? "The best plays at the expert level (the first is drawn on the board); under each other play, why it gives up chance to win against the first, each reason with its share:"
      : "The best play at the expert level (drawn on the board):";
    out.replaceChildren(p, list);
    state.hintPlay = best.play;
    render();
  } catch (e) {
    out.textContent = errorText(e);
  }
}

// ---- the next throw's map --------------------------------------------------

// Before a person's throw (and until the play, the throw made lit): each of
// the 21 throws with its probability, its best play and the mover's
// chance after it (ThrowMap, at the tutor's level), as a triangle of cells
// coloured by that chance against the mean. Settings turn it on.
function drawThrowMap(show, pos) {
  const box = $("throwmap-box");
  box.hidden = !(show && state.settings.throwMap && !state.game.result.finished);
  if (box.hidden) return;
  const g = state.game;
  const map = state.maps.get(pos.ufen);
  const grid = $("throwmap");
  if (!map) {
    if (grid.dataset.ufen !== pos.ufen) {
      grid.replaceChildren();
      delete grid.dataset.ufen;
      $("throwmap-title").textContent = "The next throw: working it out…";
    }
    if (!state.mapPending.has(pos.ufen)) {
      state.mapPending.add(pos.ufen);
      api.throwMap(pos.ufen, g.rules).then(
        (m) => {
          state.maps.set(pos.ufen, m);
          state.mapPending.delete(pos.ufen);
          if (state.game === g && current() === pos && state.view === null) render();
        },
        (e) => {
          state.mapPending.delete(pos.ufen);
          $("raw-error").textContent = e.message;
          $("throwmap-title").textContent = `The next throw: not available (${errorText(e)})`;
        },
      );
    }
    return;
  }
  const c = toThrow(pos);
  const side = sideNameOf(g, c);
  const thrown = g.dice ? [Math.max(g.dice.die1, g.dice.die2), Math.min(g.dice.die1, g.dice.die2)] : null;
  const mean = map.evaluation.winProbability;
  $("throwmap-title").textContent = `The next throw: ${side} ${pct(mean)} before it`;
  const say = (t) => {
    const d = t.throw;
    const chance = `${Math.round(36 * t.probability)} in 36`;
    const best = t.bestPlay ? lower(choiceText(t.bestPlay, pos.structured, c, c, null)) : "no play";
    return `${d.die1}-${d.die2} (a chance of ${chance}): ${best}; then ${side} ${pct(t.evaluation.winProbability)}.`;
  };
  if (grid.dataset.ufen !== pos.ufen || grid.dataset.thrown !== String(thrown)) {
    const byThrow = new Map(map.throws.map((t) => [`${t.throw.die1}${t.throw.die2}`, t]));
    const spread = Math.max(0.02, ...map.throws.map((t) => Math.abs(t.evaluation.winProbability - mean)));
    const cells = [];
    for (let hi = 6; hi >= 1; hi--) {
      for (let lo = 6; lo >= 1; lo--) {
        const t = lo <= hi ? byThrow.get(`${hi}${lo}`) || byThrow.get(`${lo}${hi}`) : null;
        if (!t) {
          cells.push(Object.assign(document.createElement("span"), { className: "map-gap" }));
          continue;
        }
        const b = document.createElement("button");
        b.type = "button";
        b.className = "map-cell";
        const p = t.evaluation.winProbability;
        // Green for throws better than the mean, red for worse; the throw
        // furthest from the mean (at least 2 points away) is the full colour.
        const lean = Math.max(-1, Math.min(1, (p - mean) / spread));
        b.style.background = `hsl(${60 + 60 * lean} 70% ${80 - 12 * Math.abs(lean)}%)`;
        b.dataset.throw = `${hi}${lo}`;
        b.dataset.probability = String(t.probability);
        b.dataset.win = String(p);
        const name = Object.assign(document.createElement("b"), { textContent: `${hi}-${lo}` });
        const odds = Object.assign(document.createElement("small"), { textContent: `${Math.round(36 * t.probability)}/36` });
        const win = Object.assign(document.createElement("span"), { textContent: pct(p) });
        b.append(name, odds, win);
        b.setAttribute("aria-label", say(t));
        b.title = say(t);
        if (thrown && thrown[0] === hi && thrown[1] === lo) b.classList.add("thrown");
        const tell = () => ($("throwmap-detail").textContent = say(t));
        b.addEventListener("mouseenter", tell);
        b.addEventListener("focus", tell);
        b.addEventListener("click", tell);
        cells.push(b);
      }
    }
    grid.replaceChildren(...cells);
    grid.dataset.ufen = pos.ufen;
    grid.dataset.thrown = String(thrown);
    const at = thrown && byThrow.get(`${thrown[0]}${thrown[1]}`);
    $("throwmap-detail").textContent = at ? `Thrown: ${say(at)}` : "Point at a throw for its best play.";
  }
}

// ---- records and review --------------------------------------------------

function recordText() {
  const g = state.game;
  const r = g.result;
  // Each side's players: one name when its seats are alike.
  const seatsOf = (side) => {
    const seats = sideColours(g, side).map((c) => g.seats[c]);
    const one = (s) => (s.person ? "person" : s.level ?? "?");
    return seats.every((s) => sameSeat(s, seats[0])) ? one(seats[0]) : joinNames(seats.map(one));
  };
  const headers = [
    ["Rules", g.rules],
    ["Switches", g.switches],
  ];
  for (let side = 0; side < layout(g).sides; side++) {
    const key = sideKey(g, side);
    headers.push([key, g.names?.[key] || seatsOf(side)]);
  }
  if (g.seed && g.seed !== "0") headers.push(["Seed", g.seed]);
  if (g.dealt) {
    headers.push(["Commitment", g.dealt.commitment], ["ClientSeed", g.dealt.clientSeed]);
    if (g.dealt.secret) headers.push(["ServerSecret", g.dealt.secret]);
    if (g.dealt.values?.length) headers.push(["ClientValues", g.dealt.values.slice(0, g.items.length).join(" ")]);
    const signed = g.dealt.record;
    if (signed?.dealerSignature) headers.push(["DealerKey", signed.dealerKey], ["DealerPublicKey", signed.dealerPublicKey], ["DealerSignature", signed.dealerSignature]);
  }
  headers.push(["Date", g.date]);
  if (g.startUfen) headers.push(["Start", g.startUfen]);
  const winners = twoTeams(g) ? TEAMS[r.winner] : sideKey(g, (r.winnerSide || 1) - 1);
  headers.push(["Result", r.finished ? `${winners} ${r.points}` : "*"]);
  const lines = headers.map(([k, v]) => `[${k} "${String(v).replace(/"/g, "'")}"]`);
  const items = g.items.map((it) => `${it.dice.die1}${it.dice.die2}:${it.play}`);
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

// Reads a record (docs/records.md, text or JSON).
function parseRecord(text) {
  let j;
  if (text.trimStart().startsWith("{")) {
    try {
      j = JSON.parse(text);
    } catch {
      throw Object.assign(new Error("bad JSON"), { player: "That file looks like a JSON record but cannot be read." });
    }
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
        if (!t) throw Object.assign(new Error(`record: '${tok}' is not an item <throw>:<play>`), { player: `That file is not a game record: '${tok.slice(0, 20)}' is not a throw and a play.` });
        items.push({ throw: `${t[1]}${t[2]}`, play: t[3] });
      }
    }
    const sidePlayers = Object.entries(h)
      .filter(([k]) => /^[RGYBOP]+$/.test(k))
      .map(([side, player]) => ({ side, player }));
    j = {
      switches: h.Switches, rules: h.Rules, startUfen: h.Start, seed: h.Seed, ry: h.RY, gb: h.GB, date: h.Date, items, sidePlayers,
      dealerCommitment: h.Commitment, clientSeed: h.ClientSeed, dealerSecret: h.ServerSecret,
      clientValues: h.ClientValues ? h.ClientValues.split(" ").filter(Boolean) : [],
      dealerKey: h.DealerKey, dealerPublicKey: h.DealerPublicKey, dealerSignature: h.DealerSignature,
      ...(h.Result && h.Result !== "*" ? { winner: h.Result.split(" ")[0], points: Number(h.Result.split(" ")[1]) } : {}),
    };
  }
  const commitment = j.dealerCommitment || j.dealer_commitment;
  const clientSeed = j.clientSeed || j.client_seed;
  const secret = j.dealerSecret || j.dealer_secret;
  const values = j.clientValues || j.client_values || [];
  return {
    rules: j.switches || j.rules || "navy",
    ufen: j.startUfen || null,
    seed: j.seed || "0",
    // Each side's players by its key: RY and GB, or the other layouts' sides.
    names: Object.fromEntries([
      ["RY", j.ry || "?"],
      ["GB", j.gb || "?"],
      ...(j.sidePlayers || j.side_players || []).map((sp) => [sp.side, sp.player]),
    ]),
    date: j.date || "",
    items: (j.items || []).map((i) => [i.throw, i.play]),
    // A dealt game's headers (docs/records.md), once its secret is out.
    // Of a loaded record, the key the record names signs it (compare its id
    // with the one the operator publishes).
    // A record with any of a dealt game's parts is a dealt record: the
    // check then names a part that is missing.
    dealt: commitment || clientSeed || secret || j.dealerSignature || j.dealer_signature ? { commitment, clientSeed, secret, values, token: null, record: j, dealerPublicKey: j.dealerPublicKey || j.dealer_public_key } : null,
  };
}

// Replays a record through the engine, item by item, so that every
// position can be looked at.
async function loadRecord(e) {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  state.gen++;
  state.busy = false;
  const gen = state.gen;
  try {
    const rec = parseRecord(await file.text());
    const start = await api.startPosition(rec.rules, rec.ufen);
    const lay = layoutOf(start);
    const g = {
      version: 1,
      id: `record-${Date.now()}`,
      rules: start.rules,
      switches: start.switches,
      layout: lay,
      seats: [],
      seed: rec.seed,
      dealt: rec.dealt,
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
    g.seats = recordedSeats(g, rec.names);
    for (const [i, [t, play]] of rec.items.entries()) {
      const dice = { die1: Number(t[0]), die2: Number(t[1]) };
      const pos = g.positions[g.positions.length - 1];
      let applied;
      try {
        // Two players on the four-sided game of two teams, as records are
        // replayed; the default seating on the other layouts.
        applied = await api.applyPlay(pos.ufen, dice, play, g.rules, lay.twoTeams ? 2 : 0);
      } catch (err) {
        if (err.code !== "invalid_argument") throw err;
        throw Object.assign(new Error(`record item ${i + 1} '${t}:${play}': ${err.detail}`), {
          player: `Throw ${i + 1} of the record is not a legal play in its position, so the record cannot be replayed.`,
        });
      }
      if (gen !== state.gen) return;
      const item = { dice, play: applied.play, mover: toThrow(pos), effects: applied.effects || {} };
      item.words = playText({ ...item, before: pos.structured, after: applied.position.structured });
      g.items.push(item);
      g.positions.push(applied.position);
      g.result = applied.result;
    }
    state.game = g;
    state.view = 0;
    state.selected = null;
    clearReview();
    tellDealt("");
    $("result").textContent = g.result.finished
      ? `Loaded: ${winnerName(g)} won ${g.result.points}.`
      : "Loaded: the game is unfinished.";
    status(`Loaded ${file.name}: ${g.items.length} throws. Step through it or review it.`);
    render();
    if (g.dealt) checkDealt(proofOf(g));
  } catch (err) {
    fail(err);
  }
}

// The review chart's sides on a layout other than the four-sided game of two
// teams: each side's key, name and colour (its first colour's), side 1 first.
function chartSides(g) {
  if (twoTeams(g)) return null;
  return [...Array(layout(g).sides).keys()].map((side) => ({
    key: sideKey(g, side),
    name: sideName(g, side),
    colour: COLOURS[sideColours(g, side)[0]],
  }));
}

function clearReview() {
  if (state.game) state.game.analysis = null;
  $("chart").replaceChildren();
  $("teams").replaceChildren();
  $("mark-info").textContent = "";
  $("mark-why").replaceChildren();
  delete $("mark-why").dataset.item;
  $("review-status").textContent = "Not reviewed yet: choose a strength and review.";
}

async function review() {
  const g = state.game;
  if (!g.items.length) return status("Nothing to review yet.", { error: true });
  $("review").scrollIntoView({ block: "nearest" });
  const level = $("review-level").value;
  $("review-status").textContent = `Reviewing at ${LEVEL_NAMES(level)} strength…`;
  $("chart").replaceChildren();
  $("teams").replaceChildren();
  $("mark-info").textContent = "";
  $("mark-why").replaceChildren();
  delete $("mark-why").dataset.item;
  try {
    const analysis = await api.analyseGame(recordText(), level);
    g.analysis = analysis;
    drawChart($("chart"), analysis, showMark, chartSides(g));
    const marks = analysis.items.filter((it) => markOf(it)).length;
    // The marked decisions become practice puzzles: the people's, in a game
    // people played; every side's in a record or an engine game.
    const people = g.mode === "play" && g.seats.some((s) => s.person);
    const added = addPuzzles(analysis, {
      rules: g.rules,
      source: g.mode === "play" ? `the game of ${g.date}` : `a record${g.date ? ` of ${g.date}` : ""}`,
      take: (it) => !people || isPerson(g, colourIndex(it.colour)),
    });
    showPracticeDue();
    const puzzles = added ? ` ${added} new practice puzzle${added === 1 ? "" : "s"}.` : "";
    $("review-status").textContent = `${analysis.items.length} throws reviewed at ${LEVEL_NAMES(analysis.level)} strength in ${analysis.seconds.toFixed(1)} s: ${marks} marked.${puzzles}`;
    // In a player's words: the chance to win each side gave away a choice
    // on average, its rating, its marks, what the dice gave it and its
    // score with and without the luck, in points of the game's score.
    const head = ["side", "choices", "chance to win lost a choice, on average", "rating", "doubtful ?!", "bad ?", "very bad ??", "the dice", "score", "score without the dice's luck"];
    const tr = document.createElement("tr");
    for (const h of head) {
      const th = document.createElement("th");
      th.textContent = h;
      tr.append(th);
    }
    const sides = analysis.teams.length;
    const rows = analysis.teams.map((t) => {
      const r = document.createElement("tr");
      const cells = [
        twoTeams(g) ? TEAM_NAMES[t.team] || t.team : sideNameOfKey(g, t.team),
        t.decisions,
        t.decisions ? chanceText(chanceOfPoints(t.errorRate, sides)) : "no choices",
        t.rating,
        t.doubtful,
        t.bad,
        t.veryBad,
        diceLuckText(t.luck),
        scoreText(t.points),
        scoreText(t.luckAdjustedPoints),
      ];
      for (const c of cells) {
        const td = document.createElement("td");
        td.textContent = String(c);
        r.append(td);
      }
      return r;
    });
    $("teams").replaceChildren(tr, ...rows);
    // The chance to win the people lost a choice goes into the statistics.
    const side = peopleSide(g);
    const mine = side && analysis.teams.find((t) => t.team === side);
    if (mine && g.mode === "play") {
      const stats = store.get(STATS, []);
      const s = stats.find((x) => x.id === g.id);
      if (s) {
        s.chanceLost = chanceOfPoints(mine.errorRate, sides);
        store.set(STATS, stats);
      }
    }
    render();
  } catch (e) {
    $("raw-error").textContent = e.message;
    $("review-status").textContent = errorText(e);
  }
}

// What the dice gave a side (AnalyseGame's luck, in points of the score)
// in words: "gave 0.4 points", "cost 1.2 points", "even".
function diceLuckText(luck) {
  const text = Math.abs(luck).toFixed(1);
  if (Number(text) === 0) return "even";
  return `${luck < 0 ? "cost" : "gave"} ${text} point${text === "1.0" ? "" : "s"}`;
}

function showMark(item) {
  // The position before the item's throw, with what was played and the best.
  viewAt(item.index - 1);
  const g = state.game;
  const pos = g.positions[item.index - 1];
  const c = toThrow(pos);
  const m = markOf(item);
  const played = g.items[item.index - 1];
  const playedWords = choiceText(item.play, pos.structured, c, c, played?.effects).toLowerCase();
  const bestWords = choiceText(item.bestPlay, pos.structured, c, c, null).toLowerCase();
  $("mark-info").textContent = `Throw ${item.index}: ${NAMES[c]} threw ${item.throw[0]}-${item.throw[1]} and played: ${playedWords} (${m.words}). Best was: ${bestWords}.`;
  explainMark(item);
}

// Under a mark, why the best play was better: the terms JudgePlay names
// (at the review's level, so that its verdict is the mark's).
async function explainMark(item) {
  const g = state.game;
  const why = $("mark-why");
  const asked = (why.dataset.item = `${g.id} ${item.index}`);
  why.replaceChildren(Object.assign(document.createElement("li"), { textContent: "Working out why…" }));
  const dice = { die1: Number(item.throw[0]), die2: Number(item.throw[1]) };
  try {
    const verdict = await api.judgePlay(item.ufen, dice, item.play, g.rules, g.analysis?.level || "", 1);
    if (why.dataset.item !== asked) return;
    const lines = explainTerms(verdict.differences);
    if (!lines.length) lines.push("By what each play leaves on the board the two look alike: the difference is in how the game goes on.");
    lines.unshift(`The play gave away ${chanceLost(verdict.bestEvaluation, verdict.evaluation)} of the chance to win against the best play.`);
    why.replaceChildren(...lines.map((w) => Object.assign(document.createElement("li"), { textContent: w })));
  } catch (e) {
    if (why.dataset.item !== asked) return;
    $("raw-error").textContent = e.message;
    why.replaceChildren(Object.assign(document.createElement("li"), { textContent: `Why is not available (${errorText(e)})` }));
  }
}

// The practice puzzles due today, on the Practice link.
function showPracticeDue() {
  const due = dueCards(loadPuzzles().cards, dayNumber(), Infinity).length;
  $("link-practice").textContent = due ? `Practice (${due} due)` : "Practice";
}

// ---- drawing -------------------------------------------------------------

const shownIndex = () => (state.view === null ? state.game.positions.length - 1 : state.view);

// The engine's best play from a position looked back at, for the dice that
// were thrown there: the review's when there is one, else asked for
// (BestMove at expert, 300 ms) and kept.
function bestAt(index) {
  const g = state.game;
  const it = g.items[index];
  if (!it) return null;
  const reviewed = g.analysis?.items?.find((a) => a.index === index + 1);
  if (reviewed?.bestPlay) return reviewed.bestPlay;
  const pos = g.positions[index];
  const key = `${g.rules} ${pos.ufen} ${it.dice.die1}${it.dice.die2}`;
  if (state.bests.has(key)) return state.bests.get(key);
  if (!state.bestPending.has(key)) {
    state.bestPending.add(key);
    api.bestMove(pos.ufen, it.dice, g.rules, { level: "expert" }, { movetimeMs: 300 }).then(
      (best) => {
        state.bests.set(key, best.play);
        state.bestPending.delete(key);
        if (state.game === g && state.view === index) {
          render();
          tellView();
        }
      },
      (e) => {
        state.bestPending.delete(key);
        $("raw-error").textContent = e.message;
      },
    );
  }
  return null;
}

// The status line while looking back: the play made from the position
// shown, and the engine's choice once known.
function tellView() {
  const g = state.game;
  const index = state.view;
  const it = g.items[index];
  if (!it) return status(`Looking back at position ${index}: the end of the game.`, { view: true });
  let text = `Looking back at position ${index}: next, ${it.words}`;
  const best = bestAt(index);
  const pos = g.positions[index];
  if (best && best === it.play) text += " That is the best play.";
  else if (best) text += ` The best play: ${choiceText(best, pos.structured, it.mover, it.mover, null).toLowerCase()}.`;
  status(text, { view: true });
}

function viewAt(index) {
  const g = state.game;
  const last = g.positions.length - 1;
  state.view = index === null ? null : Math.max(0, Math.min(last, index));
  if (state.view === last && g.mode === "play") state.view = null;
  state.selected = null;
  render();
  if (state.view !== null) {
    $("hint-out").replaceChildren();
    tellView();
  } else if (g.mode === "play") {
    status(state.liveStatus || turnWords(current()), { view: true });
  }
}

function keyPressed(e) {
  const t = e.target;
  if ((e.key === "Enter" || e.key === " ") && t instanceof SVGElement && t.getAttribute("role") === "button") {
    e.preventDefault();
    t.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    return;
  }
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || document.querySelector("dialog[open]")) return;
  if (e.key === "t" || e.key === "T") {
    e.preventDefault();
    humanThrow();
  } else if (/^[1-9]$/.test(e.key)) {
    const b = document.querySelectorAll("#plays button")[Number(e.key) - 1];
    if (b) {
      e.preventDefault();
      b.click();
    }
  } else if (e.key === "ArrowLeft" && state.game) {
    viewAt(shownIndex() - 1);
  } else if (e.key === "ArrowRight" && state.game) {
    viewAt(shownIndex() + 1);
  } else if ((e.key === "u" || e.key === "U" || e.key === "Backspace") && handNow()?.steps.length) {
    e.preventDefault();
    undoDie();
  } else if (e.key === "Escape" && state.tutorAsk) {
    rethink();
  } else if (e.key === "Escape" && state.selected) {
    state.selected = null;
    render();
  }
}

// ---- the guide -----------------------------------------------------------

// The guide of a game: the lessons given (each once a game), the items
// already looked at, and the lessons shown now.
const newGuide = () => ({ seen: [], checked: 0, shown: [], hidden: false });

// What a lesson says: each rule as it first comes up in the game. `at`: the
// play or item it came up in, for the words that depend on it.
function lessonText(key, g, pos, at) {
  const c = toThrow(pos);
  const side = sideNameOf(g, c);
  switch (key) {
    case "throw":
      return `It is ${NAMES[c]}'s turn. Press Throw (or the T key) to throw the two dice; a six earns another throw. ${side} win when all their pieces are home.`;
    case "engine":
      return `${NAMES[c]} is played by the engine: watch its pieces move; each play is told under the board and in the move list.`;
    case "choose":
      return "The pieces that can move glow. Click one, then one of the lit squares, die by die; or pick a play from the list (keys 1 to 9).";
    case "pass":
      return `No piece can move with this throw, so the turn passes: ${state.settings.autoplay ? "the board plays the pass for you" : "press Go on under the board"}.`;
    case "enter":
      return "A six lets a piece leave base onto its doorstep (the square of its colour by the base); the other die can then move it or another piece.";
    case "knock":
      return "Landing on a single opposing piece knocks it off: it goes back to its base and must enter again with a six. Your pieces are safe in the home lane.";
    case "blob":
      return "Two or more pieces of one colour on a square make a blob: opposing pieces can neither pass it nor land on it, and it can only be taken by a challenge.";
    case "lane":
      return "After going round the track a piece turns into its home lane, the five squares of its colour towards the middle; it needs the exact throw to get home.";
    case "partner":
      return "Once all four of a colour's pieces are home, it throws once a turn for a six: a six releases it, and from then on its turns move its partner's pieces, with all the usual rules.";
    case "challenge": {
      const blob = challengedBlob(at.play, at.before);
      const need = at.effects?.challenge?.sixesNeeded;
      const more = (g.switches || "").includes("one_less_six") ? (blob?.fromBase ? 1 : 0) : blob?.fromBase ? 2 : 1;
      const whose = blob && blob.c !== null ? `The ${NAMES[blob.c]} blob of ${blob.size}` : "The blob";
      const rule = blob?.fromBase ? "from base, the blob's pieces and two more" : "the blob's pieces and one more";
      const switched = (g.switches || "").includes("one_less_six") ? ", one fewer by the house rules" : "";
      const who = at.mover === undefined || isPerson(g, at.mover) ? "" : `${NAMES[at.mover]} challenges. `;
      return `${who}A blob right in front of a piece can be challenged on a throw with a six. ${whose} needs ${need ?? (blob ? blob.size + more : "?")} sixes (${rule}${switched}); the six thrown counts as the first, and the challenger keeps throwing: every six counts, a throw without a six fails.${who ? "" : " Or just move."}`;
    }
    case "challenging":
      return "A challenge goes on: keep throwing. Each six counts (a double six counts two); a throw without a six ends the challenge. The count stands beside the challenger.";
    case "suck":
      return "Suck back: a piece standing in line with an opposing colour's home lane may, instead of playing, try to send a piece in that lane back to base: it needs as many as the lane piece is squares up the lane, on either die or their sum, and a hit moves the caller on one square. Blow back is the same the other way, by the lane piece's owner.";
    case "over":
      return "The game is over. Review shows where each side lost ground; How to play has the full rules.";
    default:
      return "";
  }
}

// The rules a play brings up: entering, a knock-off, a blob, the home lane,
// a challenge, suck back or blow back, a release.
function rulesOfPlay(g, play, effects) {
  const keys = [];
  const last = 13 * layout(g).colours - 2;
  const moves = movesOf(play);
  if (moves.some((m) => m.from === "b")) keys.push("enter");
  if ((effects?.knockedOff || []).length && !/^[sw]/.test(play)) keys.push("knock");
  if ((effects?.blobsFormed || []).some((b) => !b.mixie)) keys.push("blob");
  if (moves.some((m) => m.to === "h" || Number(m.to) > last)) keys.push("lane");
  if (/^x/.test(play)) keys.push("challenge");
  if (/^[sw]/.test(play)) keys.push("suck");
  if ((effects?.released || []).length) keys.push("partner");
  return keys;
}

// The lessons that come up now, in the live game: what happened since the
// guide last looked (the plays made, by anyone), then what the person to
// play can do; each lesson once a game.
function guideLessons(g, humanTurn, pos) {
  const guide = g.guide;
  const found = [];
  const add = (key, at = null) => {
    if (!guide.seen.includes(key) && !found.some((f) => f.key === key)) found.push({ key, at });
  };
  const allHome = (p, c) => p.structured.colours[c].squares.every((sq) => sq === "h");
  for (let i = guide.checked; i < g.items.length; i++) {
    const it = g.items[i];
    for (const key of rulesOfPlay(g, it.play, it.effects)) add(key, { ...it, before: g.positions[i].structured });
    // A colour's last piece home: from now on it throws for a partner.
    if (colourList(g).some((c) => allHome(g.positions[i + 1], c) && !allHome(g.positions[i], c))) add("partner", it);
  }
  guide.checked = g.items.length;
  const c = toThrow(pos);
  if (g.result.finished) add("over");
  else if (!humanTurn) add("engine");
  else if (pos.structured.challenge) add("challenging");
  else if (!g.dice) {
    add("throw");
    if (allHome(pos, c)) add("partner");
  } else {
    const plays = g.plays;
    if (plays.length === 1 && plays[0].play === "-") add("pass");
    else if (plays.length) add("choose");
    for (const p of plays) for (const key of rulesOfPlay(g, p.play, p.effects)) add(key, { ...p, before: pos.structured, mover: c });
  }
  return found;
}

// The guide's panel: the lessons that came up last, until others come up.
function showGuide(g, humanTurn, pos, viewing) {
  const guide = g.guide;
  $("guide").hidden = !guide || guide.hidden;
  if (!guide) return;
  if (!viewing && g.mode === "play") {
    const found = guideLessons(g, humanTurn, pos);
    if (found.length) {
      guide.seen.push(...found.map((f) => f.key));
      guide.shown = found.map((f) => ({ key: f.key, text: lessonText(f.key, g, pos, f.at) }));
    }
  }
  const box = $("guide-text");
  const keys = guide.shown.map((l) => l.key).join(" ");
  if (box.dataset.lessons === keys) return;
  box.dataset.lessons = keys;
  box.replaceChildren(...guide.shown.map((l) => {
    const p = document.createElement("p");
    p.dataset.lesson = l.key;
    p.textContent = l.text;
    return p;
  }));
}

// The colour whose pieces `actor` moves in `pos`: its own, or once it is
// released its first partner after it in turn order with a piece not home
// (RULES.md §7, §11).
function movingColour(g, pos, actor) {
  if (!(pos.structured.released || []).some((c) => colourIndex(c) === actor)) return actor;
  const n = layout(g).colours;
  for (let k = 1; k < n; k++) {
    const c = (actor + k) % n;
    if (sideOf(g, c) === sideOf(g, actor) && pos.structured.colours[c].squares.some((sq) => sq !== "h")) return c;
  }
  return actor;
}

function render() {
  const g = state.game;
  if (!g) return;
  const last = g.positions.length - 1;
  const viewing = state.view !== null;
  const index = viewing ? state.view : last;
  const pos = g.positions[index];
  const live = !viewing && g.mode === "play";
  const actor = toThrow(pos);
  const humanTurn = live && !g.result.finished && isPerson(g, actor);
  if (state.tutorAsk && (state.tutorAsk.gen !== state.gen || viewing)) state.tutorAsk = null;
  const asking = humanTurn && !!state.tutorAsk;
  const canChoose = humanTurn && g.plays.length && !state.busy && !asking;
  let movable = new Set();
  const targets = new Set();
  const targetLabels = new Map();
  let controls = [];
  // The play being made on the board: its steps drawn, while it is chosen
  // and while it is sent.
  const hand = humanTurn && !asking && g.dice ? handNow() : null;
  const drawn = hand?.steps.length ? hand.shown() : pos.structured;
  if (canChoose && hand) {
    movable = hand.movable();
    if (!hand.steps.length) for (const p of g.plays) if (isCall(p.play) && callPiece(p.play)) movable.add(callPiece(p.play));
    if (state.selected && !movable.has(state.selected)) state.selected = null;
    if (state.selected) {
      for (const [key, t] of hand.targets(state.selected)) {
        targets.add(key);
        const by = t.step.dice.length === 2 ? (t.step.pieces === 2 ? `the blob, ${t.step.dice[0]} each` : `both dice, ${t.step.dice[0] + t.step.dice[1]}`) : `${t.step.dice[0]}`;
        targetLabels.set(key, `move ${by} to ${squareName(key, board.geo)}`);
      }
      controls = callsOf(state.selected);
    }
  } else if (!canChoose) state.selected = null;
  // Plays drawn on the board: the one previewed, the hint, or when looking
  // back the play made from here and (reviewed) the best one.
  const arrows = [];
  const arrowOf = (play, kind) => {
    const moves = movesOf(play);
    const call = play?.match(/^[xsw]([a-z])(b|\d+)$/);
    // A preview in the colour whose pieces the mover moves.
    return { moves, kind, ring: call ? { c: LETTERS.indexOf(call[1]), sq: call[2] } : null, colour: movingColour(g, pos, actor) };
  };
  if (asking) {
    // The play the tutor stopped, and the best play.
    arrows.push(arrowOf(state.tutorAsk.play, "preview"));
    arrows.push(arrowOf(state.tutorAsk.verdict.bestPlay, "best"));
  } else if (viewing && g.items[index]) {
    arrows.push(arrowOf(g.items[index].play, "played"));
    const best = bestAt(index);
    if (best && best !== g.items[index].play) arrows.push(arrowOf(best, "best"));
  } else if (canChoose && state.preview) {
    arrows.push(arrowOf(state.preview, "preview"));
  } else if (canChoose && state.hintPlay && g.plays.some((p) => p.play === state.hintPlay)) {
    arrows.push(arrowOf(state.hintPlay, "best"));
  }
  // The challenge under way, counted beside the challenger.
  const badges = [];
  const ch = pos.structured.challenge;
  if (ch) {
    const moving = movingColour(g, pos, actor);
    const need = index === last ? challengeNeed() : null;
    badges.push({ id: `${LETTERS[moving]}:${ch.from}`, text: `${ch.sixes} of ${need ?? "?"} sixes`, cls: "challenge" });
  }
  const drawBoard = (shownArrows) =>
    boardFor(pos.structured.colours.length).render(drawn, { movable, selected: state.selected, targets, targetLabels, controls, last: viewing ? [] : g.last, badges, arrows: shownArrows });
  drawBoard(arrows);
  // The dice still to play, while a play is made on the board.
  const left = hand?.steps.length ? [...hand.diceLeft()] : null;
  for (const id of ["die1", "die2"]) {
    const v = g.dice?.[id === "die1" ? "die1" : "die2"];
    const i = left ? left.indexOf(v) : 0;
    $(id).classList.toggle("used", !!left && i < 0);
    if (left && i >= 0) left.splice(i, 1);
  }
  const complete = hand?.complete();
  $("hand").hidden = !(canChoose && hand && (hand.steps.length || g.plays.some((p) => p.play === "-")));
  $("hand-left").textContent = hand?.steps.length ? (hand.diceLeft().length ? `Still to play: ${diceWords(hand.diceLeft())}` : "Both dice played") : "";
  $("btn-undo-die").hidden = !hand?.steps.length;
  $("btn-play-steps").hidden = !complete?.more;
  // A pass (or a throw that moves nothing: a challenge's, a release's) is
  // a button of its own too; the board makes it itself when it is the only
  // play (Settings).
  $("btn-pass").hidden = !(canChoose && !hand?.steps.length && g.plays.some((p) => p.play === "-"));
  $("btn-pass").textContent = g.plays.length > 1 ? "Pass" : "Go on";
  // The dice, whose turn, the position's place in the game.
  // At the end, the throw that ended the game stays shown.
  const dice = live && g.result.finished ? g.items.at(-1)?.dice || null : live ? g.dice : viewing && g.items[index] ? g.items[index].dice : null;
  if (!$("dice").classList.contains("rolling")) showDice(dice);
  $("to-throw").textContent = g.result.finished && !viewing ? "" : `${NAMES[actor]} to throw${isPerson(g, actor) ? "" : ` (${seatName(g, actor)})`}`;
  $("to-throw").className = `to-throw ${COLOURS[actor]}`;
  $("ufen").value = pos.ufen;
  $("seed-out").textContent = g.seed;
  $("rules-out").textContent = g.switches || g.rules;
  $("notation").textContent = recordText();
  $("position-index").textContent = `position ${index} of ${last}${viewing ? " (looking back)" : ""}`;
  if (!g.result.finished && g.mode === "play") $("result").textContent = "";
  // The plays to choose from: all, or those of the piece (and square) chosen.
  const list = $("plays");
  list.replaceChildren();
  if (canChoose) {
    let shown = hand?.steps.length ? hand.consistent() : g.plays;
    if (state.selected) {
      const next = hand.nextSteps().filter((n) => `${LETTERS[n.step.c]}:${n.step.from}` === state.selected);
      shown = shown.filter((p) => next.some((n) => n.plays.has(p)) || (isCall(p.play) && callPiece(p.play) === state.selected && !hand.steps.length));
    }
    shown.forEach((p, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "play";
      b.dataset.play = p.play;
      b.textContent = choiceText(p.play, pos.structured, actor, actor, p.effects, g.plays);
      if (i < 9) b.setAttribute("aria-keyshortcuts", String(i + 1));
      const show = () => {
        state.preview = p.play;
        drawBoard([arrowOf(p.play, "preview")]);
      };
      // On a touch screen the first tap draws the play, the second makes it.
      b.addEventListener("pointerdown", (e) => {
        state.touchTap = e.pointerType === "touch" ? p.play : null;
      });
      b.addEventListener("click", () => {
        const touched = state.touchTap === p.play;
        state.touchTap = null;
        if (touched && state.armed !== p.play) {
          state.armed = p.play;
          show();
          status(`${b.textContent}: tap it again to play it.`);
          return;
        }
        humanPlay(p.play);
      });
      b.addEventListener("mouseenter", show);
      b.addEventListener("focus", show);
      li.append(b);
      list.append(li);
    });
  }
  $("plays-title").textContent = canChoose ? (state.selected ? "Plays of the piece chosen" : `Plays (${g.plays.length})`) : "Plays";
  // The game so far, in words, following the position shown.
  const hist = $("history");
  const have = hist.children.length;
  if (have > g.items.length || (have && hist.children[0].dataset.game !== g.id)) hist.replaceChildren();
  for (let i = hist.children.length; i < g.items.length; i++) {
    const it = g.items[i];
    const li = document.createElement("li");
    li.dataset.game = g.id;
    const b = document.createElement("button");
    b.type = "button";
    b.className = `item ${COLOURS[it.mover]}`;
    b.textContent = it.words;
    b.addEventListener("click", () => viewAt(i));
    li.append(b);
    hist.append(li);
  }
  [...hist.children].forEach((li, i) => {
    const b = li.firstChild;
    if (i === index) b.setAttribute("aria-current", "true");
    else b.removeAttribute("aria-current");
  });
  const follow = hist.children[Math.min(index, hist.children.length - 1)];
  if (follow) {
    if (follow.offsetTop < hist.scrollTop) hist.scrollTop = follow.offsetTop;
    else if (follow.offsetTop + follow.offsetHeight > hist.scrollTop + hist.clientHeight) {
      hist.scrollTop = follow.offsetTop + follow.offsetHeight - hist.clientHeight;
    }
  }
  $("review").hidden = !g.items.length;
  $("tutor").hidden = !asking;
  drawThrowMap(live && humanTurn, pos);
  showDealt();
  // The guide.
  showGuide(g, humanTurn, pos, viewing);
  const humanItems = g.items.some((it) => isPerson(g, it.mover));
  $("btn-throw").disabled = !humanTurn || !!g.dice || state.busy;
  // A dealt game's server keeps every play it was sent: no taking back.
  $("btn-takeback").disabled = g.mode !== "play" || !(humanItems || state.inFlight || hand?.steps.length) || !!g.dealt;
  $("btn-hint").disabled = !canChoose;
  $("btn-review").disabled = !g.items.length;
  $("btn-download").disabled = !g.items.length;
  $("nav-prev").disabled = index === 0;
  $("nav-first").disabled = index === 0;
  $("nav-next").disabled = index === last;
  $("nav-live").disabled = !viewing || g.mode !== "play";
  if (!canChoose) state.hintPlay = null;
  for (const id of ["plays", "tutor"]) fitToScreen($(id));
  evaluateShown();
}

// A long list of plays, or the tutor's warning, ends on the screen: it is
// as tall as the viewport leaves below its top (the page unscrolled), at
// least a few lines, and scrolls inside itself.
function fitToScreen(el) {
  el.style.maxHeight = "";
  if (el.hidden || !el.offsetParent) return;
  const room = window.innerHeight - (el.getBoundingClientRect().top + window.scrollY) - 8;
  if (el.scrollHeight > room) el.style.maxHeight = `${Math.max(room, 150)}px`;
}

init();
