// The coach on every layout of RULES.md §11 in Debian's chromium
// (playwright-core), against a real `uckers serve --http`: on the six-sided
// board (three teams of two) and in a four-sided game of every colour for
// itself, tutor mode stops a blunder before it is made and says what it
// costs, Rethink lets the player choose again, and the next throw's map
// shows the 21 throws. Run by ctest as
//   node layouts_coach_test.mjs <path to uckers> <screenshot folder>
// Everything on the page is done as a player does it, by clicks; the test
// asks the engine itself (JudgePlay) which play is a blunder.

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { tutorAndMapOn, inChromium,
  testArguments, problems, step, openBoard, newContext, newGame, items, ufen, checkPlayersText,
  dumpPages, throwForChoice, judgeAll, clickPlay, connectCaller,
} from "./board_helpers.mjs";
import { markRank } from "../../web/words.js";

const { uckers, shots, chromiumPath } = testArguments("layouts_coach_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;
const call = connectCaller(url);

// A reason: what the play leaves against the best, then its signed size.
const WHY = /^(Leaves|Gives|Makes|Breaks|Knocks off|Lets|Has) .*; the best play.*: ([\u2212+]\d+(\.\d)?|±0)%$/;

const LAYOUTS = [
  { name: "six-sided", rules: "six", board: "six", sides: "partners", seats: 6 },
  { name: "solo", rules: "navy+solo", board: "four", sides: "solo", seats: 4 },
];

await inChromium(chromiumPath, shots, server, async (browser) => {
    for (const layout of LAYOUTS) {
      // A context of its own: no game kept from the layout before.
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await tutorAndMapOn(page);
      const seats = ["person", ...Array(layout.seats - 1).fill("beginner")];
      await newGame(page, { seats, seed: "7", rules: "navy", board: layout.board, sides: layout.sides });
      // The next throw's map before the person's first throw: 21 throws.
      await page.waitForFunction(() => document.querySelectorAll("#throwmap .map-cell").length === 21, null, { timeout: 30000 });
      const probabilities = await page.$$eval("#throwmap .map-cell", (cs) => cs.map((c) => Number(c.dataset.probability)));
      assert.ok(Math.abs(probabilities.reduce((a, b) => a + b, 0) - 1) < 1e-9, `${layout.name}: the throws' chances sum to 1`);
      assert.match(await page.textContent("#throwmap-title"), /^The next throw: .+ \d+% before it$/);
      step(`${layout.name}: the next throw's map`);
      let stopped = false;
      for (let turn = 0; turn < 60 && !stopped; turn++) {
        const t = await throwForChoice(page);
        if (!t) continue;
        const { best, worst } = await judgeAll(page, call, t, layout.rules);
        const before = await items(page);
        if (markRank(worst.mark) < 2) {
          await clickPlay(page, best.play);
          await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
          assert.ok(await page.isHidden("#tutor"), `${layout.name}: the best play is not stopped`);
          continue;
        }
        await clickPlay(page, worst.play);
        await page.waitForSelector("#tutor:not([hidden])");
        assert.match(
          await page.textContent("#tutor-verdict"),
          /^The tutor: that would be a (bad|very bad) play \(\?\??\), giving away \d+(\.\d)?% of the chance to win\.$/,
        );
        // Why, each reason with its signed share of the chance to win.
        const tutorWhy = await page.$$eval("#tutor-why li", (ls) => ls.map((l) => l.textContent));
        for (const w of tutorWhy) assert.match(w, WHY, `${layout.name}: a reason with its size`);
        assert.match(await page.textContent("#tutor-best"), /^The best play: [a-z].+\.$/);
        assert.equal(await items(page), before, `${layout.name}: the blunder is not made yet`);
        await checkPlayersText(page, `the tutor (${layout.name})`);
        await page.screenshot({ path: join(shots, `tutor-${layout.rules.replace("+", "-")}.png`) });
        await page.click("#btn-rethink");
        assert.ok(await page.isHidden("#tutor"));
        assert.equal(await ufen(page), t.ufen, `${layout.name}: Rethink keeps the position`);
        // A hint on this layout: the best plays, under the others their reasons.
        await page.click("#btn-hint");
        await page.waitForSelector("#hint-out ol > li");
        await page.waitForSelector("#hint-out .why li", { timeout: 30000 });
        const hintWhy = await page.$$eval("#hint-out .why li", (ls) => ls.map((l) => l.textContent));
        for (const w of hintWhy) assert.match(w, WHY, `${layout.name}: a hint's reason`);
        assert.match(await page.textContent("#hint-out ol > li:nth-child(2)"), /, \d+(\.\d)?% less than the first/);
        await page.screenshot({ path: join(shots, `hint-${layout.rules.replace("+", "-")}.png`) });
        step(`${layout.name}: a hint explained: ${hintWhy[0]}`);
        await page.waitForSelector(`#plays button[data-play="${best.play}"]`);
        await clickPlay(page, best.play);
        await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
        assert.ok(await page.isHidden("#tutor"), `${layout.name}: a good play is not stopped`);
        stopped = true;
        step(`${layout.name}: a blunder stopped and rethought (${worst.mark}, ${worst.lost.toFixed(3)})`);
      }
      assert.ok(stopped, `${layout.name}: the tutor stopped a blunder`);
      await context.close();
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log(`web coach on every layout: all checks passed; screenshots in ${shots}`);
});
