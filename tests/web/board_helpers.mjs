// The web board's test helpers, shared by the chromium tests
// (board_test.mjs, coach_test.mjs): a page opened on the board with its
// errors collected, a browser profile without sliding, a new game through
// the New game dialog, one person's turn by clicks and keys, and the check
// that the page shows no notation.

import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

// The test's arguments (the uckers program, a folder for screenshots) and
// Debian's chromium; exits 2 on missing arguments, 1 without chromium.
// The test's arguments: the uckers binary, then the paths named in `more`
// (returned under those names), then the screenshot folder.
export function testArguments(program, more = []) {
  const args = process.argv.slice(2);
  const uckers = args[0];
  const shots = args[1 + more.length];
  if (!uckers || !shots) {
    console.error(`usage: node ${program} <uckers> ${more.map((m) => `<${m}> `).join("")}<screenshot folder>`);
    process.exit(2);
  }
  const named = Object.fromEntries(more.map((m, i) => [m, args[1 + i]]));
  mkdirSync(shots, { recursive: true });
  const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
  if (!existsSync(chromiumPath)) {
    console.error(`no chromium at ${chromiumPath} (tools/setup installs Debian's)`);
    process.exit(1);
  }
  return { uckers, shots, chromiumPath, ...named };
}

// Errors seen in any page, and the pages opened (for the dump on failure).
export const problems = [];
export const pages = [];
const started = Date.now();
export const step = (what) => console.log(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
export const seconds = () => ((Date.now() - started) / 1000).toFixed(0);

export async function openBoard(context, url, { viewport = { width: 1100, height: 1000 } } = {}) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    // A server stopped on purpose makes the browser log the refused calls.
    if (m.type() === "error" && !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(m.text())) {
      problems.push(`console error: ${m.text()}`);
    }
  });
  page.dialogs = [];
  page.on("dialog", (d) => {
    page.dialogs.push(d.type());
    d.accept();
  });
  pages.push(page);
  await page.goto(url);
  // The seats are built once the engine has answered the start position.
  await page.waitForFunction(() => document.querySelector("#seat-0")?.options.length > 0);
  return page;
}

// A fresh browser profile whose settings say: no sliding pieces (fast
// tests). Forced plays are still played by the board (the default).
export async function newContext(browser) {
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(() => {
    if (!localStorage.getItem("uckers.settings")) {
      localStorage.setItem("uckers.settings", JSON.stringify({ autoplay: true, anim: "off" }));
    }
  });
  return context;
}

// New game…: seats are "person" or a level, one a colour in turn order
// (red, green, yellow, blue, then orange, purple on the six-sided board);
// `board` "four" or "six" (null: the ruleset's), `sides` "partners",
// "teams_of_three" or "solo"; dice "seed" (from `seed`) or "dealt".
export async function newGame(page, { seats, ufen = "", seed = "0", rules = "navy", board = null, sides = "partners", dice = "seed" }) {
  await page.click("#btn-new");
  await page.selectOption("#rules-preset", rules);
  if (board) await page.selectOption("#rules-board", board);
  await page.selectOption("#rules-sides", sides);
  // The seats follow the board and sides chosen (the engine's start position).
  await page.waitForFunction(
    (n) => document.querySelectorAll("#seat-list select.seat").length === n && !document.querySelector("#new-game-start").disabled,
    seats.length,
  );
  for (const [i, s] of seats.entries()) await page.selectOption(`#seat-${i}`, s);
  await page.selectOption("#dice-kind", dice);
  await page.evaluate(() => (document.querySelector("#new-advanced").open = true));
  await page.fill("#start-ufen", ufen);
  if (dice === "seed") await page.fill("#seed", seed);
  await page.click("#new-game-start");
  await page.waitForFunction(() => !document.querySelector("#new-game").open);
}

export const items = (page) => page.locator("#history li").count();
export const resultText = (page) => page.textContent("#result");
export const ufen = (page) => page.inputValue("#ufen");

export async function waitForHumanOrEnd(page, timeout = 60000) {
  await page.waitForFunction(
    () =>
      !document.querySelector("#btn-throw").disabled ||
      document.querySelector("#plays button") ||
      document.querySelector("#result").textContent,
    null,
    { timeout },
  );
}

// A click on the board as a person makes it, again after a moment when the
// element was being drawn anew at that instant (the board redraws itself
// on every selection, and a redraw can land between finding an element
// and clicking it).
async function clickOnBoard(page, selector) {
  for (let attempt = 0; ; ++attempt) {
    try {
      await page.click(selector, { force: true, timeout: 5000 });
      return;
    } catch (e) {
      if (attempt >= 2 || !/not visible|detached|not attached/i.test(String(e))) throw e;
      await page.waitForTimeout(100);
    }
  }
}

// One person's turn through the board: the T key throws, then die by die a
// piece and its first lit square until the play is made (a call drawn
// beside a piece when no piece moves), or the first play listed; a forced
// play makes itself. `shot`: a screenshot's path, taken with the targets lit.
export async function playOneTurn(page, { shot } = {}) {
  const before = await items(page);
  if (await page.isEnabled("#btn-throw")) await page.keyboard.press("t");
  await page.waitForFunction(
    (n) => document.querySelector("#plays button") || document.querySelectorAll("#history li").length > n,
    before,
  );
  const done = () =>
    page.evaluate(
      (n) => document.querySelectorAll("#history li").length > n || !!document.querySelector("#result").textContent || !!document.querySelector("#tutor:not([hidden])"),
      before,
    );
  if ((await items(page)) === before && (await page.locator("#plays button").count()) > 1) {
    for (let die = 0; die < 4 && !(await done()); die++) {
      const movable = await page.$$eval("#board .piece.movable", (ps) => ps.map((p) => p.dataset.piece));
      let moved = false;
      for (const id of movable) {
        await clickOnBoard(page, `#board .piece.movable[data-piece="${id}"]`);
        const targets = await page.$$eval("#board .cell.target", (cs) => cs.map((c) => c.dataset.cell));
        if (!targets.length) {
          // A piece whose only play is a call: leave it.
          if (await page.locator("#board .piece.selected").count()) await clickOnBoard(page, `#board .piece.movable[data-piece="${id}"]`);
          continue;
        }
        if (shot && die === 0) await page.screenshot({ path: shot });
        await clickOnBoard(page, `#board .cell.target[data-cell="${targets[0]}"]`);
        // The play is sent, or the other die waits for a piece.
        await page.waitForFunction(
          (n) =>
            document.querySelectorAll("#history li").length > n ||
            document.querySelector("#result").textContent ||
            document.querySelector("#tutor:not([hidden])") ||
            document.querySelector("#board .piece.movable") ||
            document.querySelector("#btn-play-steps:not([hidden])"),
          before,
        );
        moved = true;
        break;
      }
      if (!moved) {
        if (await page.locator("#btn-play-steps:visible").count()) await page.click("#btn-play-steps");
        else if (await page.locator("#btn-pass:visible").count()) await page.click("#btn-pass");
        else await page.keyboard.press("1");
        break;
      }
    }
  }
  await page.waitForFunction(
    (n) => document.querySelectorAll("#history li").length > n || document.querySelector("#result").textContent,
    before,
  );
}

// The visible text holds no notation, no UFEN, no snake_case name and no
// raw error (the advanced panel, closed, keeps them).
export async function checkPlayersText(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  const bad = [
    [/[bh\d]+,[bh\d]+,[bh\d]+,[bh\d]+\//, "a UFEN"],
    [/\b[a-z]+_[a-z_]+\b/, "a snake_case name"],
    [/\b(invalid_argument|unavailable|deadline_exceeded|HTTP \d{3})\b/, "a raw error"],
    [/\b[rgyb](b|\d+)-(h|\d+)\b/, "a play in notation"],
  ];
  for (const [re, what] of bad) {
    const m = text.match(re);
    assert.ok(!m, `${where}: the page shows ${what}: '${m?.[0]}'`);
  }
}

// What the pages showed when a test failed, for the log and the folder.
export async function dumpPages(shots) {
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    try {
      await page.screenshot({ path: join(shots, `failed-${i}.png`), fullPage: true, timeout: 5000 });
      const status = await page.textContent("#status, #practice-status", { timeout: 2000 });
      const u = (await page.locator("#ufen").count()) ? await page.inputValue("#ufen", { timeout: 2000 }) : "";
      console.error(`page ${i}: status '${status}', ufen '${u}'`);
    } catch (dump) {
      console.error(`page ${i}: could not be read (${dump.message.split("\n")[0]})`);
    }
  }
  console.error(problems.join("\n"));
}

// The position and the dice of the turn shown.
export async function turnOf(page) {
  const label = await page.getAttribute("#dice", "aria-label");
  const m = label.match(/^dice (\d) and (\d)$/);
  assert.ok(m, `dice shown: ${label}`);
  return { ufen: await ufen(page), dice: { die1: Number(m[1]), die2: Number(m[2]) } };
}

// Every play of the page's list judged by the engine at the tutor's level
// under `rules` (`call` posts to the server's Connect front): the best and
// the worst, spelled as the list spells them.
export async function judgeAll(page, call, { ufen: u, dice }, rules) {
  const plays = await page.$$eval("#plays button", (bs) => bs.map((b) => b.dataset.play));
  const judged = [];
  for (const play of plays) {
    const j = await call("JudgePlay", { position: { ufen: u }, throw: dice, play, rules, alternatives: 1 });
    judged.push({ play, lost: j.equityLost, mark: j.mark });
  }
  judged.sort((a, b) => a.lost - b.lost);
  return { best: judged[0], worst: judged.at(-1), count: judged.length };
}

// A person's throw; the turn, or null when the board made a forced play.
export async function throwForChoice(page) {
  await waitForHumanOrEnd(page);
  if (await resultText(page)) return null;
  const before = await items(page);
  if (await page.isEnabled("#btn-throw")) await page.click("#btn-throw");
  await page.waitForFunction(
    (n) => document.querySelector("#plays button") || document.querySelectorAll("#history li").length > n,
    before,
  );
  if ((await items(page)) > before) return null;
  if ((await page.locator("#plays button").count()) < 2) {
    await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
    return null;
  }
  return turnOf(page);
}

// Chooses a play from the page's list.
export async function clickPlay(page, play) {
  await page.click(`#plays button[data-play="${play}"]`);
}

// A caller of the server's Connect front at `url`: posts a method's JSON
// request and answers its JSON reply, failing on an error.
export function connectCaller(url) {
  return async (method, body) => {
    const res = await fetch(`${url}uckers.v1.Engine/${method}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const j = await res.json();
    assert.ok(res.ok, `${method}: ${JSON.stringify(j)}`);
    return j;
  };
}

// A dice seed whose first throw, from `ufen` under `rules`, offers plays
// for which `wanted(plays, dice)` holds (`call`: connectCaller's); with
// that throw and its plays (ListLegalPlays with their effects).
export async function seedWhere(call, ufen, rules, wanted, { from = 1, upTo = 2000 } = {}) {
  for (let seed = from; seed <= upTo; seed++) {
    const { throws } = await call("RollDice", { seed: String(seed), index: 0, count: 1 });
    const dice = throws[0];
    const { plays } = await call("ListLegalPlays", { position: { ufen }, throw: dice, rules, players: 0 });
    if (wanted(plays, dice)) return { seed: String(seed), dice, plays };
  }
  throw new Error(`no seed up to ${upTo} gives the throw wanted from ${ufen}`);
}

// Runs a test's body with Debian's chromium launched: on a failure prints
// it, saves every page opened (dumpPages) and sets the exit code 1; at the
// end closes the browser, stops `server` (tests/serve_http.mjs: or a
// function giving the one running then, for a test that restarts it) and
// runs `cleanup`, if given.
export async function inChromium(chromiumPath, shots, server, body, cleanup = () => {}) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  try {
    await body(browser);
  } catch (e) {
    console.error(e);
    await dumpPages(shots);
    process.exitCode = 1;
  } finally {
    await browser.close();
    (typeof server === "function" ? server() : server).child.kill("SIGTERM");
    cleanup();
  }
}

// Settings: the tutor stopping a play marked bad or worse, and the next
// throw's map, both on.
export async function tutorAndMapOn(page) {
  await page.click("#btn-settings");
  await page.check("#set-tutor");
  await page.selectOption("#set-tutor-at", "MARK_BAD");
  await page.check("#set-throwmap");
  await page.click("#settings-close");
}
