// The web board on every board and side layout (RULES.md §11), in Debian's
// chromium driven by playwright-core, against a real `uckers serve --http`.
// Run by ctest (tests/CMakeLists.txt) as
//   node sides_test.mjs <path to uckers> <screenshot folder>
// 1. A whole game on the six-sided board (three teams of two): the
//    hexagonal board drawn from the position, a person at red clicking as a
//    player does, five engine seats, the side table with every side's chance.
// 2. A whole game with two people and two engine seats, each engine at its
//    own level, every colour for itself on the four-sided board: both
//    people at one screen, clicking in turn.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, seconds, openBoard, newContext, newGame, items, resultText, ufen,
  waitForHumanOrEnd, playOneTurn, checkPlayersText, dumpPages,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("sides_test.mjs");

// A result with more than two sides in a player's words: the winners'
// score, and what each losing side gave and why, summing to it (RULES.md §11).
function checkSidesResult(text) {
  const m = text.match(/, scoring (\d+) points?: (.*)\.$/);
  assert.ok(m, text);
  const parts = [...m[2].matchAll(/(\d) from [A-Za-z ,]+? \((had a piece home|had no piece home|had every piece in base)\)/g)];
  assert.ok(parts.length >= 1, text);
  const why = { "had a piece home": 1, "had no piece home": 2, "had every piece in base": 3 };
  for (const p of parts) assert.equal(Number(p[1]), why[p[2]], text);
  assert.equal(parts.reduce((a, p) => a + Number(p[1]), 0), Number(m[1]), text);
}

// The side table once it shows the chances of the position on the board:
// [{ name, who, chance }], side 1 first.
async function sideTable(page) {
  await page.waitForFunction(
    () => {
      const t = document.querySelector("#sides-table");
      return t.dataset.ufen && t.dataset.ufen === document.querySelector("#ufen").value;
    },
    null,
    { timeout: 30000 },
  );
  return page.$$eval("#sides-table tr[data-side]", (rows) =>
    rows.map((r) => ({
      name: r.querySelector("th").textContent,
      who: r.children[1].textContent,
      chance: Number(r.querySelector("td.chance").dataset.chance),
    })),
  );
}

// Plays people's turns through the board until the game ends; engine
// seats play themselves. Checks the side table every `every` turns.
async function playToTheEnd(page, { sides, every, shot }) {
  let turns = 0;
  for (;;) {
    await waitForHumanOrEnd(page, 120000);
    if (await resultText(page)) break;
    await playOneTurn(page, { shot: turns === 5 ? shot : undefined });
    turns++;
    assert.ok(turns < 2000, "the game ends");
    if (turns % every === 0 && !(await resultText(page))) {
      const table = await sideTable(page).catch(() => null);
      if (table) {
        assert.equal(table.length, sides);
        const sum = table.reduce((a, s) => a + s.chance, 0);
        assert.ok(Math.abs(sum - 1) < 0.01, `the chances sum to 1, not ${sum}`);
      }
    }
  }
  return turns;
}

let server = await startHttpServer(uckers);
const { url } = server;
await inChromium(chromiumPath, shots, server, async (browser) => {
    // 1. The six-sided board, a whole game.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url, { viewport: { width: 1200, height: 1100 } });
      await newGame(page, {
        rules: "navy",
        board: "six",
        seats: ["person", "beginner", "beginner", "beginner", "beginner", "beginner"],
        seed: "11",
      });
      // The hexagonal board, drawn from the position: 78 track squares, six
      // lanes of five, six homes and six bases.
      assert.equal(await page.locator('#board .cell[data-cell^="t"]').count(), 78);
      assert.equal(await page.locator('#board .cell[data-cell^="l"]').count(), 30);
      assert.equal(await page.locator('#board .cell[data-cell^="h"]').count(), 6);
      assert.equal(await page.locator("#board circle.base").count(), 6);
      assert.equal(await page.locator("#board .piece").count(), 24);
      assert.equal((await ufen(page)).split(" ")[0].split("/").length, 6);
      // The side table: three teams of two, each with its chance.
      const table = await sideTable(page);
      assert.deepEqual(table.map((s) => s.name), ["Red and Blue", "Green and Orange", "Yellow and Purple"]);
      assert.match(table[0].who, /Red: a person; Blue: the engine, Beginner/);
      assert.ok(Math.abs(table.reduce((a, s) => a + s.chance, 0) - 1) < 0.01);
      assert.ok(await page.isHidden("#evalbar"), "two teams' bar is not shown for three");
      await page.screenshot({ path: join(shots, "six-start.png") });
      step("six-sided board drawn");
      const turns = await playToTheEnd(page, { sides: 3, every: 10, shot: join(shots, "six-targets.png") });
      assert.match(await resultText(page), /^Game over: (Red and Blue|Green and Orange|Yellow and Purple) win/);
      checkSidesResult(await resultText(page));
      // The winners' chance is 100% once the end is shown.
      await page.waitForFunction(() => [...document.querySelectorAll("#sides-table td.chance")].some((c) => c.textContent === "100%"));
      const end = await page.$$eval("#sides-table td.chance", (cs) => cs.map((c) => c.textContent));
      assert.deepEqual(end.slice().sort(), ["0%", "0%", "100%"]);
      await checkPlayersText(page, "the six-sided game's end");
      await page.screenshot({ path: join(shots, "six-end.png") });
      step(`six-sided game over after ${turns} turns by the person, ${await items(page)} throws`);
      // The review rates every side: a row a side, a line a side in the chart,
      // each mark on its side's line.
      const played = await items(page);
      await page.selectOption("#review-level", "beginner");
      await page.click("#btn-review");
      await page.waitForFunction(() => /reviewed/.test(document.querySelector("#review-status").textContent), null, { timeout: 180000 });
      assert.match(await page.textContent("#review-status"), new RegExp(`^${played} throws reviewed at Beginner`));
      const rows = await page.$$eval("#teams tr", (trs) => trs.slice(1).map((tr) => tr.firstElementChild.textContent));
      assert.deepEqual(rows, ["Red and Blue", "Green and Orange", "Yellow and Purple"]);
      assert.equal(await page.locator("#chart polyline.side-line").count(), 3, "a line a side");
      await page.screenshot({ path: join(shots, "six-review.png") });
      // The record: a header a side (its colours' letters), the winners' key.
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#btn-download")]);
      const file = join(shots, "six-record.txt");
      await download.saveAs(file);
      const record = readFileSync(file, "utf8");
      assert.match(record, /^\[Rules "six"\]$/m);
      assert.match(record, /^\[RB "person and beginner"\]$/m);
      assert.match(record, /^\[GO "beginner"\]$/m);
      assert.match(record, /^\[YP "beginner"\]$/m);
      assert.match(record, /^\[Result "(RB|GO|YP) \d+"\]$/m);
      // Loaded back, every throw replays to the same end.
      const winners = await resultText(page);
      await page.setInputFiles("#record-file", file);
      // The result line, which the engine's comment on the position shown does not replace.
      await page.waitForFunction(() => /^Loaded/.test(document.querySelector("#result").textContent));
      assert.equal(await items(page), played, "the loaded record has every throw");
      assert.match(await page.textContent("#result"), new RegExp(`^Loaded: ${winners.match(/Game over: (.*?) win/)[1]} won \\d+\\.$`));
      assert.equal(await page.locator("#board .piece").count(), 24, "six colours on the loaded board");
      step("six-sided game reviewed, downloaded and loaded back");
      await context.close();
    }

    // 2. Two people and two engine seats, every colour for itself.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, { rules: "navy", sides: "solo", seats: ["person", "person", "beginner", "intermediate"], seed: "5" });
      assert.equal(await page.locator('#board .cell[data-cell^="t"]').count(), 52);
      const table = await sideTable(page);
      assert.deepEqual(table.map((s) => s.name), ["Red", "Green", "Yellow", "Blue"]);
      assert.deepEqual(table.map((s) => s.who), ["a person", "a person", "the engine, Beginner", "the engine, Intermediate"]);
      // Both people play at this screen: the turn is passed to whoever plays next.
      await waitForHumanOrEnd(page);
      assert.match(await page.textContent("#status"), /Red's turn \(pass the screen to whoever plays Red\)/);
      let greenPlayed = false;
      let turns = 0;
      for (;;) {
        await waitForHumanOrEnd(page, 120000);
        if (await resultText(page)) break;
        const toThrow = await page.textContent("#to-throw");
        assert.match(toThrow, /^(Red|Green) to throw$/, "only the people's colours wait for a click");
        if (toThrow.startsWith("Green")) greenPlayed = true;
        await playOneTurn(page);
        turns++;
        assert.ok(turns < 2000, "the game ends");
      }
      assert.ok(greenPlayed, "the second person had turns");
      assert.match(await resultText(page), /^Game over: (Red|Green|Yellow|Blue) wins, scoring/);
      checkSidesResult(await resultText(page));
      const moved = await page.$$eval("#history button", (bs) => new Set(bs.map((b) => b.className.split(" ")[1])).size);
      assert.equal(moved, 4, "every colour played");
      await checkPlayersText(page, "the four-colour game's end");
      await page.screenshot({ path: join(shots, "solo-end.png") });
      // Its record names every colour's player.
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#btn-download")]);
      const file = join(shots, "solo-record.txt");
      await download.saveAs(file);
      const record = readFileSync(file, "utf8");
      for (const [side, who] of [["R", "person"], ["G", "person"], ["Y", "beginner"], ["B", "intermediate"]]) {
        assert.match(record, new RegExp(`^\\[${side} "${who}"\\]$`, "m"));
      }
      assert.match(record, /^\[Result "[RGYB] \d+"\]$/m);
      step(`two people and two engines: game over after ${turns} turns by the people`);
      await context.close();
    }

    // 3. Dealt dice on the six-sided board, every colour for itself: Red one
    //    piece from the end; the dice checked by the browser at the end and
    //    the record by `uckers verify`.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, {
        rules: "navy",
        board: "six",
        sides: "solo",
        seats: ["person", "beginner", "beginner", "beginner", "beginner", "beginner"],
        ufen: "h,h,h,79/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -",
        dice: "dealt",
      });
      await page.waitForSelector("#dealt:not([hidden])");
      assert.match(await page.textContent("#dealt-commitment"), /^[0-9a-f]{64}$/);
      for (let turn = 0; turn < 300 && !(await resultText(page)); turn++) {
        await waitForHumanOrEnd(page, 120000);
        if (await resultText(page)) break;
        await playOneTurn(page);
      }
      assert.match(await resultText(page), /^Game over: (Red|Green|Yellow|Blue|Orange|Purple) wins/);
      checkSidesResult(await resultText(page));
      await page.waitForFunction(() => /^Dice (not )?verified/.test(document.querySelector("#dealt-check").textContent), null, { timeout: 20000 });
      assert.match(await page.textContent("#dealt-check"), /^Dice verified: /);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#btn-download")]);
      const file = join(shots, "six-solo-dealt-record.txt");
      await download.saveAs(file);
      const verify = spawnSync(uckers, ["verify", file], { encoding: "utf8" });
      assert.equal(verify.status, 0, `uckers verify: ${verify.stdout}${verify.stderr}`);
      assert.match(verify.stdout, new RegExp(`^verified: ${await items(page)} throws`));
      step("a dealt six-sided solo game verified, by the browser and by uckers verify");
      await context.close();
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log(`web board, every layout: all checks passed in ${seconds()} s; screenshots in ${shots}`);
});
