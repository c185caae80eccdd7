// End-to-end test of the web board (web/) in Debian's chromium, driven by
// playwright-core (no browser download), against a real
// `uckers serve --http`. Run by ctest (tests/CMakeLists.txt) as
//   node board_test.mjs <path to uckers> <screenshot folder>
// It plays a game through the board's clicks from a near-end position to
// its end, takes a play back, downloads the record and loads it again,
// watches a whole engine-against-engine game at the fastest level, and
// checks the review's chart and marks. Screenshots go to the folder given.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";

const [uckers, shots] = process.argv.slice(2);
if (!uckers || !shots) {
  console.error("usage: node board_test.mjs <uckers> <screenshot folder>");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!existsSync(chromiumPath)) {
  console.error(`no chromium at ${chromiumPath} (tools/setup installs Debian's)`);
  process.exit(1);
}


const problems = [];
const pages = [];
async function openBoard(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 }, acceptDownloads: true });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  pages.push(page);
  await page.goto(url);
  await page.waitForSelector("#btn-new");
  await page.waitForFunction(() => document.querySelector("#level").options.length > 0);
  return page;
}

async function newGame(page, { seat, level, speed, ufen = "", seed = "0", reviewLevel = "beginner" }) {
  await page.click("#btn-new");
  await page.selectOption("#seat", seat);
  await page.selectOption("#level", level);
  await page.selectOption("#speed", speed);
  await page.selectOption("#review-level", reviewLevel);
  await page.fill("#start-ufen", ufen);
  await page.fill("#seed", seed);
  await page.click("#new-game-start");
}

const items = (page) => page.locator("#history li").count();
const resultText = (page) => page.textContent("#result");

// One human turn through the board: throw, then a piece and its target
// (or the one play listed, a pass). Resolves once the play is made.
async function playOneTurn(page, { shot } = {}) {
  const before = await items(page);
  if (await page.isEnabled("#btn-throw")) await page.click("#btn-throw");
  await page.waitForSelector("#plays button");
  const movable = await page.$$eval(".piece.movable", (ps) => ps.map((p) => p.dataset.piece));
  if (movable.length) {
    await page.click(`.piece.movable[data-piece="${movable[0]}"]`, { force: true });
    const targets = await page.$$eval(".cell.target", (cs) => cs.map((c) => c.dataset.cell));
    if (shot) await page.screenshot({ path: join(shots, shot) });
    if (targets.length) {
      await page.click(`.cell.target[data-cell="${targets[0]}"]`, { force: true });
      // The play is made, or several plays move that piece there and the
      // list now holds only them.
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll("#history li").length > n ||
          document.querySelector("#result").textContent ||
          /plays move that piece there/.test(document.querySelector("#status").textContent),
        before,
      );
      if (/plays move that piece there/.test(await page.textContent("#status"))) {
        await page.click("#plays button >> nth=0");
      }
    } else {
      await page.click("#plays button >> nth=0"); // a challenge or a call
    }
  } else {
    assert.equal(await page.textContent("#plays button"), "Pass (-)");
    await page.click("#plays button");
  }
  await page.waitForFunction(
    (n) => document.querySelectorAll("#history li").length > n || document.querySelector("#result").textContent,
    before,
  );
}

async function waitForHumanOrEnd(page, timeout = 60000) {
  await page.waitForFunction(
    () =>
      !document.querySelector("#btn-throw").disabled ||
      document.querySelector("#plays button") ||
      document.querySelector("#result").textContent,
    null,
    { timeout },
  );
}

const { child, url } = await startHttpServer(uckers);
const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
try {
  // 1. From a near-end position (red needs an exact 3, yellow is home;
  //    green and blue far behind), team RY played by clicks to the end.
  {
    const page = await openBoard(browser, url);
    await newGame(page, {
      seat: "RY",
      level: "beginner",
      speed: "fast",
      ufen: "h,h,h,53/b,b,b,4/h,h,h,h/b,b,b,b r -",
      seed: "20261125",
    });
    await page.waitForFunction(() => document.querySelector("#ufen").value.startsWith("53,h,h,h/"));
    await waitForHumanOrEnd(page);
    // The first human turn: play, take it back, and play again.
    const ufenBefore = await page.inputValue("#ufen");
    await playOneTurn(page, { shot: "board-targets.png" });
    assert.notEqual(await page.inputValue("#ufen"), ufenBefore);
    await page.waitForFunction(() => !document.querySelector("#btn-takeback").disabled);
    await page.click("#btn-takeback");
    await page.waitForSelector("#plays button");
    assert.equal(await page.inputValue("#ufen"), ufenBefore, "take back returns to the position");
    assert.equal(await items(page), 0, "take back removes the play from the game");
    assert.ok(await page.isDisabled("#btn-throw"), "the dice stay thrown after a take back");
    // Play on to the end.
    for (let turn = 0; turn < 200 && !(await resultText(page)); turn++) {
      await waitForHumanOrEnd(page);
      if (await resultText(page)) break;
      await playOneTurn(page);
    }
    const result = await resultText(page);
    assert.match(result, /^Game over: (RY|GB) wins/);
    await page.screenshot({ path: join(shots, "board-end.png") });
    // The record downloads with its result, and loads back into the board.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#btn-download")]);
    const file = join(shots, "near-end-record.txt");
    await download.saveAs(file);
    const record = readFileSync(file, "utf8");
    assert.match(record, /\[Start "53,h,h,h\/b,b,b,4\/h,h,h,h\/b,b,b,b r -"\]/, "the start in canonical UFEN");
    assert.match(record, /\[Result "(RY|GB) [123]"\]/);
    const played = await items(page);
    await page.setInputFiles("#record-file", file);
    await page.waitForFunction(() => /^Loaded/.test(document.querySelector("#status").textContent));
    assert.equal(await items(page), played, "the loaded record has every throw");
    await page.click("#nav-next");
    assert.match(await page.textContent("#position-index"), /^position 1 of /);
    await page.close();
  }

  // 2. Engine against engine at the fastest level, to the end; then the
  //    review: the chart with its marks, a mark showing its position.
  {
    const page = await openBoard(browser, url);
    await newGame(page, { seat: "watch", level: "beginner", speed: "fastest", seed: "11", reviewLevel: "intermediate" });
    await page.waitForFunction(() => document.querySelector("#result").textContent, null, { timeout: 240000 });
    assert.match(await resultText(page), /^Game over: (RY|GB) wins/);
    const played = await items(page);
    assert.ok(played > 20, `a whole game has many throws, not ${played}`);
    await page.click("#btn-review");
    await page.waitForFunction(() => /analysed/.test(document.querySelector("#review-status").textContent), null, {
      timeout: 240000,
    });
    const analysed = await page.textContent("#review-status");
    assert.match(analysed, new RegExp(`^${played} throws analysed`));
    assert.equal(await page.locator("#chart polyline").count(), 1);
    const marks = await page.locator("#chart .mark").count();
    assert.ok(marks > 0, "a beginner's game reviewed at intermediate has marked errors");
    assert.equal(await page.locator("#teams tr").count(), 3, "a header and a row per team");
    await page.locator("#chart .mark").first().click();
    assert.match(await page.textContent("#mark-info"), /^Throw \d+, (RY|GB) threw \d\d: played /);
    assert.match(await page.textContent("#position-index"), /looking back/);
    await page.locator("#review").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, "review.png"), fullPage: true });
    console.log(`engine game: ${played} throws, ${marks} marks; ${analysed}`);
    await page.close();
  }

  // 3. Phone width: the board and the throw button fit.
  {
    const page = await openBoard(browser, url);
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await page.locator("#board").boundingBox();
    assert.ok(box.width <= 390, `the board fits a phone's width (${box.width})`);
    await page.screenshot({ path: join(shots, "phone.png"), fullPage: true });
    await page.close();
  }
  assert.deepEqual(problems, [], "no errors in the page");
  console.log(`web board: all checks passed; screenshots in ${shots}`);
} catch (e) {
  // What the page showed when it failed, for the log and the folder.
  console.error(e);
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    try {
      await page.screenshot({ path: join(shots, `failed-${i}.png`), fullPage: true, timeout: 5000 });
      const status = await page.textContent("#status", { timeout: 2000 });
      const ufen = await page.inputValue("#ufen", { timeout: 2000 });
      console.error(`page ${i}: status '${status}', ufen '${ufen}'`);
    } catch (dump) {
      console.error(`page ${i}: could not be read (${dump.message.split("\n")[0]})`);
    }
  }
  console.error(problems.join("\n"));
  process.exitCode = 1;
} finally {
  await browser.close();
  child.kill("SIGTERM");
}
