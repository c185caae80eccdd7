// The web board played by hand, die by die, in Debian's chromium against a
// real `uckers serve --http` (ctest Web.PlayedByHandInChromium):
//   node hand_test.mjs <path to uckers> <screenshot folder>
// Every play is made as a player makes it: a piece, a lit square, the
// other die on a piece, a call beside its piece; never the list of plays.
//
// 1. Every legal play of more than 200 positions (entering, doubles,
//    blobs, challenges, suck back and blow back, snake eyes' games, the
//    six-sided board), each position loaded through the New game dialog
//    (its UFEN, and a dice seed whose first throw is the throw wanted): the
//    play the page sends (ApplyPlay) is the one meant, and the position
//    after it the engine's; Take back returns to the throw.
// 2. A phone (390 x 844, touch): every piece and lit square a finger's size
//    (44 px), plays made by taps; a listed play's first tap draws it.
// 3. The keyboard: a piece focused shows its squares, Enter chooses it,
//    Space a square; U undoes the last die.
// 4. A whole four-sided game of four people, every decision made on the
//    board (the board makes no play by itself: Settings, forced plays off).
// 5. Take back pressed 0, 100 and 400 ms after a play (sliding on, the
//    engine playing next): one decision back each time.
// 6. Thirty decisions each of a six-sided game and a game of every colour
//    for itself, every one made on the board.

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { CROSS, HEX, place } from "../../web/board.js";
import {
  testArguments, problems, step, seconds, openBoard, newContext, items, resultText, ufen,
  checkPlayersText, dumpPages, connectCaller,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("hand_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;
const call = connectCaller(url);
const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });

// ---- positions -------------------------------------------------------------

// A seed for each throw (not 0, which asks the server for a new seed):
// RollDice's first throw of the seed (so a game
// started with that seed throws it first).
const seedOf = new Map();
for (let seed = 1; seedOf.size < 21 && seed < 2000; seed++) {
  const t = (await call("RollDice", { seed: String(seed), index: 0, count: 1 })).throws[0];
  const key = `${Math.max(t.die1, t.die2)}${Math.min(t.die1, t.die2)}`;
  if (!seedOf.has(key)) seedOf.set(key, { seed: String(seed), dice: t });
}
assert.equal(seedOf.size, 21, "a seed for each of the 21 throws");

// The kinds of position the test must cover, from a play's text and effects.
const KINDS = {
  enter: (ps) => ps.some((p) => /b-0/.test(p.play)),
  doubles: (ps, d) => d.die1 === d.die2 && ps.some((p) => p.play.includes("-")),
  blob: (ps) => ps.some((p) => /^([a-z])(\d+)-(\d+),\1\2-\3$/.test(p.play)) || ps.some((p) => (p.effects?.blobsFormed || []).length),
  challenge: (ps) => ps.some((p) => p.play.startsWith("x")),
  call: (ps) => ps.some((p) => /^[sw]/.test(p.play)),
  knock: (ps) => ps.some((p) => (p.effects?.knockedOff || []).length),
};

// Positions of games played at random through the API, under each rules
// the dialog offers (a preset and house rules), before a throw a person
// makes with at least two plays; a few of each kind first.
async function positions() {
  const rulesets = [
    { preset: "navy", switches: [] },
    { preset: "wafu", switches: [] },
    { preset: "mess", switches: [] },
    { preset: "navy", switches: ["bounce_back"] },
    { preset: "navy", switches: ["split_single_piece", "mixie_can_challenge"] },
    { preset: "six", switches: [] },
    { preset: "wafu", switches: ["blob_on_blob"] },
  ];
  let rng = 20261202;
  const rand = (n) => {
    rng = (rng * 48271) % 2147483647;
    return rng % n;
  };
  const found = [];
  const kinds = new Map(Object.keys(KINDS).map((k) => [k, 0]));
  let six = 0;
  for (const r of rulesets) {
    const rules = [r.preset, ...r.switches].join("+");
    let pos = (await call("GetStartPosition", { rules })).position;
    let taken = 0;
    for (let t = 0; t < 900 && taken < (r.preset === "six" ? 32 : 25); t++) {
      const dice = { die1: 1 + rand(6), die2: 1 + rand(6) };
      const listed = (await call("ListLegalPlays", { position: { ufen: pos.ufen }, throw: dice, rules, structuredPositions: true })).plays || [];
      if (!listed.length) break;
      const counting = !!pos.structured.challenge;
      const has = Object.keys(KINDS).filter((k) => KINDS[k](listed, dice));
      const rare = has.filter((k) => kinds.get(k) < 12);
      if (!counting && listed.length >= 2 && listed.length <= 14 && (rare.length || rand(5) === 0)) {
        const key = `${Math.max(dice.die1, dice.die2)}${Math.min(dice.die1, dice.die2)}`;
        const { seed, dice: thrown } = seedOf.get(key);
        found.push({ ...r, rules, ufen: pos.ufen, seed, dice: thrown, kinds: has });
        for (const k of has) kinds.set(k, kinds.get(k) + 1);
        if (r.preset === "six") six++;
        taken++;
      }
      // Plays that declare a challenge or call are chosen more often, so
      // that games reach their throws.
      const calls = listed.filter((p) => /^[xsw]/.test(p.play));
      const pick = calls.length && rand(2) ? calls[rand(calls.length)] : listed[rand(listed.length)];
      if (pick.effects?.result?.finished) {
        pos = (await call("GetStartPosition", { rules })).position;
        continue;
      }
      pos = pick.positionAfter;
    }
  }
  // Challenges are rare in random games: Red right behind a green blob of
  // two (or, from base, a green blob on Red's doorstep), with a six thrown.
  for (let k = 0; k < 24; k++) {
    const sixSided = k % 3 === 2;
    const track = sixSided ? 78 : 52;
    const fromBase = k % 4 === 3;
    const p = fromBase ? -1 : 1 + rand(40);
    const g = (p + 1 - 13 + track) % track;
    if (g > track - 2) continue;
    const other = String(p + 3 + rand(8));
    const red = fromBase ? ["b", "b", "b", other] : [String(p), "b", "b", other];
    const cols = [red.join(","), ["b", "b", String(g), String(g)].join(","), ...Array(sixSided ? 4 : 2).fill("b,b,b,b")];
    const preset = sixSided ? "six" : k % 3 ? "mess" : "navy";
    // The engine's spelling of the position (as the page shows it).
    const u = (await call("GetStartPosition", { rules: preset, position: { ufen: `${cols.join("/")} r -` } })).position.ufen;
    const dice = { die1: 6, die2: 1 + rand(6) };
    const listed = (await call("ListLegalPlays", { position: { ufen: u }, throw: dice, rules: preset, structuredPositions: true })).plays || [];
    if (!KINDS.challenge(listed, dice) || listed.length > 14) continue;
    const { seed, dice: thrown } = seedOf.get(`${Math.max(dice.die1, dice.die2)}${Math.min(dice.die1, dice.die2)}`);
    const has = Object.keys(KINDS).filter((x) => KINDS[x](listed, dice));
    found.push({ preset, switches: [], rules: preset, ufen: u, seed, dice: thrown, kinds: has });
    for (const x of has) kinds.set(x, kinds.get(x) + 1);
    if (sixSided) six++;
  }
  // Suck back the same way (WAFU): Red on the square in line with Green's
  // lane, a green piece up the lane.
  for (let k = 0; k < 8; k++) {
    const lane = String(51 + (k % 5));
    const cols = [["b", "b", "11", String(20 + k)], ["b", "b", String(30 + k), lane], ["b", "b", "b", "b"], ["b", "b", "b", "b"]].map((c) => c.join(","));
    const u = (await call("GetStartPosition", { rules: "wafu", position: { ufen: `${cols.join("/")} r -` } })).position.ufen;
    const dice = { die1: 1 + rand(6), die2: 1 + rand(6) };
    const listed = (await call("ListLegalPlays", { position: { ufen: u }, throw: dice, rules: "wafu", structuredPositions: true })).plays || [];
    if (!KINDS.call(listed, dice) || listed.length > 14) continue;
    const { seed, dice: thrown } = seedOf.get(`${Math.max(dice.die1, dice.die2)}${Math.min(dice.die1, dice.die2)}`);
    const has = Object.keys(KINDS).filter((x) => KINDS[x](listed, dice));
    found.push({ preset: "wafu", switches: [], rules: "wafu", ufen: u, seed, dice: thrown, kinds: has });
    for (const x of has) kinds.set(x, kinds.get(x) + 1);
  }
  return { found, kinds, six };
}

// ---- the page ------------------------------------------------------------

// The plays the page sends, as it sends them.
function watchPlays(page) {
  page.sent = [];
  page.on("request", (req) => {
    if (req.url().endsWith("/uckers.v1.Engine/ApplyPlay")) page.sent.push(JSON.parse(req.postData()).play);
  });
}

// New game… with every colour a person: the rules (a preset and house
// rules ticked), a start position and a dice seed.
async function newGame(page, { preset, switches = [], ufen: u, seed, seats = null, sides = "partners" }) {
  await page.click("#btn-new");
  // The six-sided board is Navy's rules on the board of six.
  await page.selectOption("#rules-preset", preset === "six" ? "navy" : preset);
  await page.selectOption("#rules-board", preset === "six" ? "six" : "four");
  await page.evaluate(() => (document.querySelector("#switches").closest("details").open = true));
  for (const box of await page.$$('input[name="switch"]')) {
    const want = switches.includes(await box.getAttribute("value"));
    if ((await box.isChecked()) !== want) await box.click();
  }
  await page.selectOption("#rules-sides", sides);
  const colours = preset === "six" ? 6 : 4;
  await page.waitForFunction(
    (n) => document.querySelectorAll("#seat-list select.seat").length === n && !document.querySelector("#new-game-start").disabled,
    colours,
  );
  for (let c = 0; c < colours; c++) await page.selectOption(`#seat-${c}`, seats?.[c] || "person");
  await page.selectOption("#dice-kind", "seed");
  await page.evaluate(() => (document.querySelector("#new-advanced").open = true));
  await page.fill("#start-ufen", u);
  await page.fill("#seed", seed);
  await page.click("#new-game-start");
  await page.waitForFunction(() => !document.querySelector("#new-game").open);
  await page.waitForFunction(
    (x) => (x ? document.querySelector("#ufen").value === x : !!document.querySelector("#ufen").value) && !document.querySelector("#history li") && document.querySelector("#dice").getAttribute("aria-label") === "no dice thrown",
    u,
  );
}

// The throw: T, then the plays listed (the page's own list, read only to
// know them: the test chooses on the board).
async function throwDice(page) {
  await page.waitForSelector("#btn-throw:enabled");
  await page.keyboard.press("t");
  await page.waitForFunction(() => document.querySelectorAll("#plays button").length > 0);
}

const geoOf = (u) => (u.split(" ")[0].split("/").length === 6 ? HEX : CROSS);
const LET = "rgybop";
const movesOf = (play) =>
  play.split(",").map((m) => {
    const t = m.match(/^([a-z])(b|h|\d+)-(b|h|\d+)$/);
    return { c: LET.indexOf(t[1]), from: t[2], to: t[3] };
  });

// The board is ready for a click: the pieces that may move are drawn.
const ready = (page) => page.waitForFunction(() => document.querySelector("#board .piece.movable") || document.querySelector("#btn-pass:not([hidden])"));

// How a player taps or clicks: `how` "click", "tap" (touch) or "key".
async function press(page, selector, how) {
  const el = page.locator(selector).first();
  if (how === "tap") await el.tap({ force: true });
  else if (how === "key") {
    await el.focus();
    await page.keyboard.press(selector.includes(".cell") ? " " : "Enter");
  } else await el.click({ force: true });
}

// Makes `play` on the board, die by die, `variant` choosing between the
// orders a player could take (the other move first, a summed move die by
// die); resolves once the page has sent a play.
// `split`: the rules let one piece land between its dice
// (`split_single_piece`), so a summed move is the both-dice square only.
async function playOnBoard(page, play, dice, u, { variant = 0, how = "click", split = false } = {}) {
  const geo = geoOf(u);
  const sent = page.sent.length;
  const cell = (c, sq) => place(c, sq, 0, geo).key;
  const piece = async (c, sq) => {
    const sel = `#board .piece.movable[data-piece="${LET[c]}:${sq}"]`;
    await page.waitForSelector(sel, { timeout: 5000 }).catch(() => {
      throw new Error(`${play}: the piece ${LET[c]}:${sq} cannot be chosen`);
    });
    await press(page, sel, how);
  };
  const target = async (c, sq) => {
    const sel = `#board .cell.target[data-cell="${cell(c, sq)}"]`;
    await page.waitForSelector(sel, { timeout: 5000 }).catch(() => {
      throw new Error(`${play}: ${cell(c, sq)} is not lit for the piece chosen`);
    });
    await press(page, sel, how);
  };
  const isSent = () => page.sent.length > sent;
  // Another die waits for a piece (the board draws the next step at once).
  const more = async () => !isSent() && (await page.locator("#board .piece.movable, #btn-play-steps:not([hidden])").count()) > 0;
  if (play === "-") {
    await press(page, "#btn-pass", how === "key" ? "click" : how);
  } else if (/^[xsw]/.test(play)) {
    const m = play.match(/^([xw])([a-z])(b|\d+)$/);
    const owner = m ? `${m[2]}:${m[3]}` : await callerOf(page, play);
    await press(page, `#board .piece.movable[data-piece="${owner}"]`, how);
    await page.waitForSelector(`#board .control[data-call="${play}"]`, { timeout: 5000 });
    await press(page, `#board .control[data-call="${play}"]`, how);
  } else {
    let moves = movesOf(play);
    const [a, b] = moves;
    if (b && variant % 2 && a.to !== b.from && b.to !== a.from && !(a.from === b.from && a.c === b.c)) moves = [b, a];
    if (moves.length === 1) {
      const [m] = moves;
      const len = (s) => (s === "h" ? geo.lastTrack + 6 : Number(s));
      const step = len(m.to) - (m.from === "b" ? -1 : len(m.from));
      const sum = dice.die1 + dice.die2;
      // A summed move: both dice at once, or (variant odd) die by die.
      if (m.from !== "b" && step === sum && variant % 2 && !split) {
        const mid = String(len(m.from) + dice.die1);
        await piece(m.c, m.from);
        await target(m.c, mid);
        if (await more()) {
          await piece(m.c, mid);
          await target(m.c, m.to);
        }
      } else {
        await piece(m.c, m.from);
        await target(m.c, m.to);
      }
    } else {
      for (const [k, m] of moves.entries()) {
        if (k && !(await more())) break;
        await piece(m.c, m.from);
        await target(m.c, m.to);
      }
    }
  }
  if (!isSent() && (await page.locator("#btn-play-steps:not([hidden])").count())) await press(page, "#btn-play-steps", how === "key" ? "click" : how);
  for (let i = 0; i < 250 && !isSent(); i++) await page.waitForTimeout(20);
  assert.ok(isSent(), `${play}: no play was sent (status '${await page.textContent("#status")}')`);
  return page.sent.at(-1);
}

// The caller's piece of a suck back call, as the board draws it: the
// movable piece whose button is that call.
async function callerOf(page, play) {
  const ids = await page.$$eval("#board .piece.movable", (ps) => [...new Set(ps.map((p) => p.dataset.piece))]);
  for (const id of ids) {
    await page.locator(`#board .piece.movable[data-piece="${id}"]`).first().click({ force: true });
    const has = await page.locator(`#board .control[data-call="${play}"]`).count();
    await page.locator(`#board .piece.movable[data-piece="${id}"]`).first().click({ force: true });
    if (has) return id;
  }
  throw new Error(`${play}: no piece has its button`);
}

// After a play, Take back returns to the throw: the same position and dice.
async function takeBackTo(page, u, n) {
  await page.click("#btn-takeback");
  await page.waitForFunction(
    ([x, k]) => document.querySelector("#ufen").value === x && document.querySelectorAll("#history li").length === k && document.querySelectorAll("#plays button").length > 0,
    [u, n],
  );
}

// A browser profile whose settings are `settings` (sliding off, forced
// plays made by the board, unless said), `options` the context's (a
// phone's viewport and touch).
async function contextWith(settings = {}, options = {}) {
  const context = await browser.newContext(options);
  await context.addInitScript((s) => {
    if (!localStorage.getItem("uckers.settings")) localStorage.setItem("uckers.settings", JSON.stringify(s));
  }, { autoplay: true, anim: "off", ...settings });
  return context;
}

// The play listed first and last, or a random one, of the page's list
// (read to know the plays; they are made on the board).
const listedPlays = (page) => page.$$eval("#plays button", (bs) => bs.map((b) => b.dataset.play));

// HAND_PART=n runs part n alone (to work on it).
const part = (n) => !process.env.HAND_PART || Number(process.env.HAND_PART) === n;

try {
  const { found, kinds, six } = await positions();
  // 1. Every legal play of the positions, by board clicks only.
  if (part(1)) {
    step(`${found.length} positions (${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}, six-sided ${six})`);
    assert.ok(found.length >= 200, `at least 200 positions (${found.length})`);
    for (const [k, n] of kinds) assert.ok(n >= 5, `at least 5 positions with ${k} (${n})`);
    assert.ok(six >= 20, `at least 20 six-sided positions (${six})`);
    const context = await newContext(browser);
    const page = await openBoard(context, url);
    watchPlays(page);
    let plays = 0;
    for (const [i, p] of found.entries()) {
      await newGame(page, p);
      await throwDice(page);
      const listed = await call("ListLegalPlays", { position: { ufen: p.ufen }, throw: p.dice, rules: p.rules });
      const shownDice = await page.getAttribute("#dice", "aria-label");
      assert.equal(shownDice, `dice ${p.dice.die1} and ${p.dice.die2}`, `${p.rules} ${p.ufen} seed ${p.seed}: the throw of the seed`);
      for (const [j, lp] of listed.plays.entries()) {
        await ready(page);
        const sent = await playOnBoard(page, lp.play, p.dice, p.ufen, { variant: i + j, split: p.switches.includes("split_single_piece") });
        assert.equal(sent, lp.play, `${p.rules} ${p.ufen} ${p.dice.die1}-${p.dice.die2}: the play sent is the one meant`);
        await page.waitForFunction((x) => document.querySelector("#ufen").value === x, lp.positionAfter.ufen);
        await takeBackTo(page, p.ufen, 0);
        plays++;
      }
      if (i % 25 === 24) step(`${i + 1} positions, ${plays} plays`);
    }
    await checkPlayersText(page, "plays made by hand");
    step(`every legal play of ${found.length} positions made on the board (${plays} plays)`);
    await context.close();
  }
  // 2. A phone, by touch: a finger's size for every piece and lit square;
  //    plays made by taps; a listed play's first tap draws it, the second
  //    makes it.
  if (part(2)) {
    const context = await contextWith({}, { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    const page = await openBoard(context, url, { viewport: { width: 390, height: 844 } });
    watchPlays(page);
    const sample = found.filter((p, i) => i % 12 === 0);
    let tapped = 0;
    for (const [i, p] of sample.entries()) {
      await newGame(page, p);
      await throwDice(page);
      const plays = await listedPlays(page);
      await ready(page);
      // Every piece that may move, and every square lit for one, is at
      // least 44 px across where a finger lands (its reach, drawn unseen).
      const small = await page.$$eval("#board .hit", (hs) => hs.map((h) => [h.dataset.hit, h.getBoundingClientRect().width]).filter(([, w]) => w < 43.5));
      assert.deepEqual(small, [], `${p.ufen}: pieces a finger can reach`);
      const play = plays[i % plays.length];
      const chosen = play.match(/^([a-z])(b|h|\d+)-/);
      if (chosen) {
        await page.locator(`#board .piece.movable[data-piece="${chosen[1]}:${chosen[2]}"]`).first().tap({ force: true });
        const lit = await page.$$eval("#board .cell.target", (cs) => cs.map((c) => c.dataset.cell));
        const smallLit = await page.$$eval("#board .hit", (hs, keys) => hs.filter((h) => keys.includes(h.dataset.hit)).map((h) => h.getBoundingClientRect().width).filter((w) => w < 43.5), lit);
        assert.deepEqual(smallLit, [], `${p.ufen}: lit squares a finger can reach`);
        await page.locator(`#board .piece.movable[data-piece="${chosen[1]}:${chosen[2]}"]`).first().tap({ force: true });
      }
      const sent = await playOnBoard(page, play, p.dice, p.ufen, { variant: i, how: "tap", split: p.switches.includes("split_single_piece") });
      assert.equal(sent, play, `${p.ufen}: the play tapped is the one meant`);
      tapped++;
      await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, 0);
      await takeBackTo(page, p.ufen, 0);
    }
    // A listed play tapped once is drawn on the board and not made.
    const p = found.find((x) => x.preset === "navy" && !x.kinds.includes("challenge"));
    await newGame(page, p);
    await throwDice(page);
    const before = page.sent.length;
    const first = page.locator("#plays button").first();
    const play = await first.getAttribute("data-play");
    await first.tap();
    await page.waitForSelector("#board .arrow.preview", { state: "attached" });
    await page.waitForTimeout(300);
    assert.equal(page.sent.length, before, "a first tap makes no play");
    assert.match(await page.textContent("#status"), /tap it again/);
    await page.locator("#plays button").first().tap();
    await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, 0);
    assert.equal(page.sent.at(-1), play, "the second tap makes it");
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= 390, `nothing wider than the phone (${scroll})`);
    await page.screenshot({ path: join(shots, "hand-phone.png") });
    step(`phone: ${tapped} plays made by taps, a finger's size for every target`);
    await context.close();
  }
  // 3. The keyboard: a piece focused shows where it may go; Enter chooses
  //    it, Space a lit square; U undoes the last die; a listed play
  //    focused is drawn.
  if (part(3)) {
    const context = await contextWith();
    const page = await openBoard(context, url);
    watchPlays(page);
    // Red on 10 and 20, dice 6-2 (a seed whose first throw it is).
    const { seed, dice } = seedOf.get("62");
    const u = "b,b,10,20/b,b,b,b/b,b,b,b/b,b,b,b r -";
    await newGame(page, { preset: "navy", ufen: u, seed });
    await throwDice(page);
    await ready(page);
    await page.focus('#board .piece.movable[data-piece="r:10"]');
    const peek = await page.$$eval("#board .cell.peek", (cs) => cs.map((c) => c.dataset.cell).sort());
    assert.deepEqual(peek, ["t12", "t16", "t18"], "a piece focused shows its squares (2, 6 and both dice)");
    await page.keyboard.press("Enter");
    assert.ok(await page.evaluate(() => document.activeElement.classList.contains("target")), "the first lit square has the focus");
    await page.focus('#board .cell.target[data-cell="t16"]');
    await page.keyboard.press(" ");
    await page.waitForFunction(() => /a 2 still to play/.test(document.querySelector("#status").textContent));
    assert.equal(await page.locator('#board .piece[data-piece="r:16"]').count(), 1, "the piece is drawn where the 6 took it");
    assert.equal(page.sent.length, 0, "nothing sent before the play is whole");
    assert.match(await page.textContent("#hand-left"), /Still to play: a 2/);
    assert.equal(await page.locator("#die1.used, #die2.used").count(), 1, "the die played is shown used");
    await page.keyboard.press("u");
    assert.equal(await page.locator('#board .piece[data-piece="r:16"]').count(), 0, "U undoes the die");
    assert.equal(await page.locator("#die1.used, #die2.used").count(), 0);
    await page.focus('#plays button[data-play="r10-12,r20-26"]');
    await page.waitForSelector("#board .arrow.preview", { state: "attached" });
    let n = 0;
    for (const play of ["r10-16,r20-22", "r10-18", "r20-28", "r10-12,r20-26"]) {
      await ready(page);
      const sent = await playOnBoard(page, play, dice, u, { variant: n, how: "key" });
      assert.equal(sent, play, "the play made by keys is the one meant");
      await page.waitForFunction((k) => document.querySelectorAll("#history li").length > k, 0);
      await takeBackTo(page, u, 0);
      n++;
    }
    for (const [i, p] of found.filter((x, k) => k % 20 === 5).entries()) {
      await newGame(page, p);
      await throwDice(page);
      const plays = await listedPlays(page);
      await ready(page);
      const play = plays[(i * 7) % plays.length];
      assert.equal(await playOnBoard(page, play, p.dice, p.ufen, { variant: i, how: "key", split: p.switches.includes("split_single_piece") }), play);
      n++;
    }
    step(`keyboard: ${n} plays made by keys alone`);
    await context.close();
  }
  // 4. A whole four-sided game of four people, every decision made on the
  //    board: forced plays too (Settings), passes with the board's button.
  // The decisions of a game, up to `limit`, each made on the board with
  // plays drawn from `seed`: how many, and the plays chosen from the list.
  async function decideOnTheBoard(page, seed, limit = Infinity) {
    let decisions = 0;
    let rng = seed;
    const listClicks = [];
    await page.exposeFunction("listClicked", (p) => listClicks.push(p));
    await page.evaluate(() => document.querySelector("#plays").addEventListener("click", (e) => window.listClicked(e.target.dataset.play), true));
    while (decisions < limit && !(await resultText(page))) {
      await page.waitForFunction(() => !document.querySelector("#btn-throw").disabled || document.querySelector("#plays button") || document.querySelector("#result").textContent);
      if (await resultText(page)) break;
      if (await page.isEnabled("#btn-throw")) await throwDice(page);
      const u = await ufen(page);
      const label = await page.getAttribute("#dice", "aria-label");
      const [, d1, d2] = label.match(/^dice (\d) and (\d)$/);
      const plays = await listedPlays(page);
      rng = (rng * 48271) % 2147483647;
      const play = plays[rng % plays.length];
      const before = await items(page);
      await ready(page);
      const sent = await playOnBoard(page, play, { die1: Number(d1), die2: Number(d2) }, u, { variant: decisions });
      assert.equal(sent, play);
      await page.waitForFunction((k) => document.querySelectorAll("#history li").length > k, before);
      decisions++;
    }
    return { decisions, listClicks };
  }
  if (part(4)) {
    const context = await contextWith({ autoplay: false });
    const page = await openBoard(context, url);
    watchPlays(page);
    await newGame(page, { preset: "navy", ufen: "", seed: "7" });
    const { decisions, listClicks } = await decideOnTheBoard(page, 7);
    assert.equal(listClicks.length, 0, "no play chosen from the list");
    assert.equal(page.sent.length, decisions, "every play sent was made on the board");
    assert.equal(await items(page), decisions);
    assert.match(await resultText(page), /Game over/);
    step(`a whole game of ${decisions} decisions made on the board: ${await resultText(page)}`);
    await context.close();
  }
  // 6. Thirty decisions each of a six-sided game and a game of every colour
  //    for itself, every one made on the board.
  if (part(6)) {
    for (const [preset, sides] of [["six", "partners"], ["navy", "solo"]]) {
      const context = await contextWith({ autoplay: false });
      const page = await openBoard(context, url);
      watchPlays(page);
      await newGame(page, { preset, sides, ufen: "", seed: "11" });
      const { decisions, listClicks } = await decideOnTheBoard(page, 11, 30);
      assert.equal(listClicks.length, 0, `${preset} ${sides}: no play chosen from the list`);
      assert.equal(decisions, 30, `${preset} ${sides}: 30 decisions (the game ended sooner)`);
      assert.equal(page.sent.length, decisions, "every play sent was made on the board");
      step(`${preset === "six" ? "the six-sided board" : "every colour for itself"}: 30 decisions made on the board`);
      await context.close();
    }
  }
  // 5. Take back 0, 100 and 400 ms after a play made on the board and one
  //    chosen from the list, pieces sliding and the engine to play next,
  //    a person's decision made before it: one decision back each time
  //    (not two), and it stays there.
  if (part(5)) {
    const context = await contextWith({ anim: "normal" });
    const page = await openBoard(context, url);
    watchPlays(page);
    const u = "b,b,10,20/b,b,10,20/b,b,10,20/b,b,10,20 r -";
    const seats = ["person", "beginner", "person", "beginner"];
    const diceOf = async () => {
      const [, a, b] = (await page.getAttribute("#dice", "aria-label")).match(/^dice (\d) and (\d)$/);
      return { die1: Number(a), die2: Number(b) };
    };
    let round = 0;
    for (const how of ["board", "list"]) {
      for (const ms of [0, 100, 400]) {
        await newGame(page, { preset: "navy", ufen: u, seed: String(11 + round++), seats });
        // A first decision of a person, then the engine's turns, up to the
        // next throw of a person.
        await throwDice(page);
        await ready(page);
        await playOnBoard(page, (await listedPlays(page))[0], await diceOf(), u);
        await page.waitForFunction(() => !document.querySelector("#btn-throw").disabled && document.querySelectorAll("#history li").length > 0);
        await throwDice(page);
        await ready(page);
        const before = await items(page);
        const shown = await ufen(page);
        const dicePlayed = await page.getAttribute("#dice", "aria-label");
        const play = (await listedPlays(page)).at(-1);
        if (how === "board") await playOnBoard(page, play, await diceOf(), shown);
        else await page.click(`#plays button[data-play="${play}"]`);
        await page.waitForTimeout(ms);
        await page.click("#btn-takeback");
        await page.waitForFunction(
          ([x, d]) => document.querySelector("#ufen").value === x && document.querySelector("#dice").getAttribute("aria-label") === d && document.querySelectorAll("#plays button").length > 0,
          [shown, dicePlayed],
          { timeout: 10000 },
        ).catch(async () => {
          throw new Error(`take back ${ms} ms after ${play} (${how}): at '${await ufen(page)}' with ${await items(page)} plays, not '${shown}' with ${before}`);
        });
        await page.waitForTimeout(1500);
        assert.equal(await ufen(page), shown, `take back ${ms} ms after a play (${how}): the position before it, still`);
        assert.equal(await items(page), before, `take back ${ms} ms after a play (${how}): the decision before it kept`);
        assert.equal(await page.getAttribute("#dice", "aria-label"), dicePlayed, "the same throw");
        assert.ok((await page.locator("#plays button").count()) > 0, "the plays of the throw to choose again");
      }
    }
    step("take back at 0, 100 and 400 ms: one decision back each time");
    await context.close();
  }
  await checkPlayersTextLater();
} catch (e) {
  console.error(e);
  await dumpPages(shots);
  process.exitCode = 1;
} finally {
  await browser.close();
  server.child.kill("SIGTERM");
}
async function checkPlayersTextLater() {}
if (!process.exitCode) {
  assert.deepEqual(problems, [], "no errors in the page");
  console.log(`hand: all checks passed in ${seconds()} s`);
}
