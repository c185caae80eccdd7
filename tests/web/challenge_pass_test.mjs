// A pass is offered beside a challenge only when the engine lists it, in
// Debian's chromium (playwright-core) against a real `uckers serve --http`,
// forced plays left to the person: where a piece can move, the throw that
// offers a challenge offers no pass; during the challenge each throw is
// the challenge's (its sixes counted), never a pass; where no piece can
// move, a pass is legal beside the challenge (RULES.md §4) and says that
// the challenge is not taken. Run by ctest as
//   node challenge_pass_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, openBoard, newContext, newGame, dumpPages, connectCaller, seedWhere, waitForHumanOrEnd, checkPlayersText,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("challenge_pass_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;
const call = connectCaller(url);

// The choices a person is offered: the list's plays with their words, the
// button under the board, and every visible text that offers a pass.
const offered = (page) =>
  page.evaluate(() => ({
    plays: [...document.querySelectorAll("#plays button")].map((b) => ({ play: b.dataset.play, text: b.textContent })),
    button: document.querySelector("#btn-pass").hidden ? null : document.querySelector("#btn-pass").textContent,
    passes: [...document.querySelectorAll("button, .control")].filter((b) => b.offsetParent !== null || b.closest("svg")).map((b) => b.textContent).filter((t) => /\bpass\b/i.test(t)),
  }));

await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await newContext(browser);
    const page = await openBoard(context, url);
    await page.click("#btn-settings");
    await page.uncheck("#set-autoplay");
    await page.click("#settings-close");

    // Red on 10 behind a Blue blob of two, three Red pieces in base: a six
    // enters or challenges; the engine lists no pass.
    const behind = "10,b,b,b/b,b,b,b/b,b,b,b/b,b,24,24 r -";
    // The first throw a double six (a challenge, then throws with no six to
    // fail it, or sixes to go on).
    const first = await seedWhere(call, behind, "navy", (ps) => ps.some((p) => p.play === "xr10"));
    assert.ok(!first.plays.some((p) => p.play === "-"), "the engine lists no pass where a piece can move");
    await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: behind, seed: first.seed });
    await waitForHumanOrEnd(page);
    await page.click("#btn-throw");
    await page.waitForSelector('#plays button[data-play="xr10"]');
    let o = await offered(page);
    assert.deepEqual(o.plays.map((p) => p.play).sort(), first.plays.map((p) => p.play).sort(), "the list is the engine's");
    assert.equal(o.button, null, "no pass button beside the challenge");
    assert.deepEqual(o.passes, [], "nothing offers a pass beside the challenge");
    await page.click('#plays button[data-play="xr10"]');
    // Each throw of the challenge is the challenge's.
    for (let k = 0; k < 6; k++) {
      await page.waitForFunction(() => !document.querySelector("#btn-throw").disabled || document.querySelector("#result").textContent || document.querySelector("#plays button"));
      const challenging = await page.evaluate(() => /challenging/.test(document.querySelector("#status").textContent));
      if (!challenging) break;
      await page.click("#btn-throw");
      await page.waitForSelector("#plays button");
      o = await offered(page);
      assert.equal(o.plays.length, 1, "one choice during the challenge");
      assert.doesNotMatch(o.plays[0].text, /pass/i, `the challenge's throw is not a pass: '${o.plays[0].text}'`);
      assert.match(o.plays[0].text, /challenge/i);
      assert.deepEqual(o.passes, [], `nothing offers a pass during the challenge (${o.passes})`);
      await checkPlayersText(page, "during the challenge");
      if (k === 0) await page.screenshot({ path: join(shots, "challenge-throw.png") });
      const before = await page.locator("#history li").count();
      await page.click("#plays button");
      await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
    }
    step("no pass beside a challenge nor during it");

    // Red's other pieces home: no piece can move, so a pass is legal beside
    // the challenge, and said to leave it.
    const stuck = "10,h,h,h/b,b,b,b/b,b,b,b/b,b,24,24 r -";
    const second = await seedWhere(call, stuck, "navy", (ps) => ps.some((p) => p.play === "xr10"));
    assert.ok(second.plays.some((p) => p.play === "-"), "the engine lists a pass where no piece can move");
    await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: stuck, seed: second.seed });
    await waitForHumanOrEnd(page);
    await page.click("#btn-throw");
    await page.waitForSelector('#plays button[data-play="xr10"]');
    o = await offered(page);
    const pass = o.plays.find((p) => p.play === "-");
    assert.ok(pass, "the pass the engine lists is offered");
    assert.match(pass.text, /^Pass: no piece can move, and the challenge is not taken$/, `the pass says it leaves the challenge: '${pass.text}'`);
    assert.equal(o.button, "Pass");
    await page.screenshot({ path: join(shots, "challenge-or-pass.png") });
    step("a legal pass beside a challenge says it leaves it");
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("pass beside a challenge: all checks passed");
});
