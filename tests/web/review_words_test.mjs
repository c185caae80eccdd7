// A review tells losses in a player's terms, in Debian's chromium
// (playwright-core) against a real `uckers serve --http`: a near-end game
// is played to its end by clicks, on the four-sided board of two teams and
// in a game of every colour for itself, and reviewed from the review's own
// control; the review's text, its table and its chart's marks say what a
// play cost as a percentage of the chance to win, never a raw number of
// points (no "0.0262", no "0.088 points"), and so do the statistics. Run
// by ctest as
//   node review_words_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, openBoard, newContext, newGame, resultText, waitForHumanOrEnd, playOneTurn, dumpPages, checkPlayersText,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("review_words_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;

const RAW = /\b0\.\d{3,}\b|\d\s*points? (lost|a choice)|costing [\d.]+ points|\berror rate\b/;
const GAMES = [
  {
    name: "four-sided, two teams",
    seats: ["person", "beginner", "person", "beginner"],
    ufen: "20,30,40,b/10,20,b,b/25,35,b,b/15,b,b,b r -",
    sides: "partners",
    rows: 2,
    stats: true,
  },
  {
    name: "every colour for itself",
    seats: ["person", "beginner", "beginner", "beginner"],
    ufen: "20,30,40,b/10,20,b,b/25,35,b,b/15,b,b,b r -",
    sides: "solo",
    rows: 4,
    stats: false,
  },
];

await inChromium(chromiumPath, shots, server, async (browser) => {
    let marks = 0;
    for (const [i, game] of GAMES.entries()) {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, { seats: game.seats, ufen: game.ufen, seed: "20261203", sides: game.sides });
      for (let turn = 0; turn < 300 && !(await resultText(page)); turn++) {
        await waitForHumanOrEnd(page);
        if (await resultText(page)) break;
        await playOneTurn(page);
      }
      assert.match(await resultText(page), /^Game over/, `${game.name}: the game ends`);
      await page.selectOption("#review-level", "beginner");
      await page.click("#btn-review-again");
      await page.waitForFunction(() => /reviewed at Beginner/.test(document.querySelector("#review-status").textContent));
      await page.screenshot({ path: join(shots, `review-words-${i}.png`), fullPage: true });
      // The review as a player reads it: its text and its marks' titles.
      const shown = await page.evaluate(() => document.querySelector("#review").innerText);
      const titles = await page.$$eval("#chart .mark title", (ts) => ts.map((t) => t.textContent));
      step(`${game.name}: ${titles.length} marks; ${shown.replace(/\s+/g, " ").slice(0, 400)}`);
      for (const text of [shown, ...titles]) {
        const m = text.match(RAW);
        assert.ok(!m, `${game.name}: the review shows raw points: '${m?.[0]}' in '${text}'`);
      }
      for (const t of titles) assert.match(t, /costing \d+(\.\d)?% of the chance to win$/, `${game.name}: a mark's cost as a chance`);
      marks += titles.length;
      // Each side's row: its loss a choice as a chance, its luck and score in words.
      const rows = await page.$$eval("#teams tr", (trs) => trs.slice(1).map((tr) => [...tr.children].map((td) => td.textContent)));
      assert.equal(rows.length, game.rows, `${game.name}: a row a side`);
      for (const r of rows) {
        assert.match(r[2], /^(\d+(\.\d)?%|no choices)$/, `${game.name}: chance lost a choice, in percent: ${r[2]}`);
        assert.match(r[7], /^(gave|cost) \d+\.\d points?$|^even$/, `${game.name}: the dice's luck in words: ${r[7]}`);
        assert.match(r[8], /^(won|lost) \d+(\.\d)? points?$|^no points$/, `${game.name}: the score in words: ${r[8]}`);
      }
      if (game.stats) {
        await page.click("#btn-stats");
        const row = await page.textContent("#stats-table tr:nth-child(2)");
        assert.match(row, /\d(\.\d)?%$/, `${game.name}: the statistics' chance lost a choice: ${row}`);
        await page.keyboard.press("Escape");
      }
      await checkPlayersText(page, game.name);
      await context.close();
    }
    // The practice page's words on what counts as right.
    {
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.goto(`${url}practice.html`);
      const text = await page.evaluate(() => document.body.innerText);
      const m = text.match(/\b\d\.\d+ points\b|\b0\.\d{2,}\b/);
      assert.ok(!m, `the practice page shows raw points: '${m?.[0]}'`);
      await context.close();
    }
    assert.ok(marks > 0, "some play was marked, its title checked");
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("a review's losses in a player's terms: all checks passed");
});
