// The decision in view, in Debian's chromium (playwright-core) against a
// real `uckers serve --http`: at 1280 × 800 and at 390 × 844, in a person's
// turn (the plays listed), with the tutor's warning shown and at game over,
// the board, the dice, the throw control, the status line and the panel of
// the decision at hand (the plays, the tutor's warning, the result) each
// lie wholly inside the viewport with the page unscrolled. Run by ctest as
//   node decision_in_view_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, openBoard, newContext, newGame, dumpPages, connectCaller, throwForChoice, judgeAll,
  clickPlay, playOneTurn, resultText, waitForHumanOrEnd,
} from "./board_helpers.mjs";
import { markRank } from "../../web/words.js";

const { uckers, shots, chromiumPath } = testArguments("decision_in_view_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;
const call = connectCaller(url);

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];
const TUTOR_UFEN = "b,10,13,13/b,b,16,19/1,8,8,13/6,6,16,25 r -";
const NEAR_END_UFEN = "h,h,h,53/b,b,b,4/h,h,h,h/b,b,b,b r -";
const ALWAYS = { board: "#board", dice: "#dice", "throw control": "#btn-throw", "status line": "#status" };

// Each element's box against the viewport, the page scrolled to the top.
async function checkInView(page, vp, where, panel) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const wanted = { ...ALWAYS, ...panel };
  const boxes = await page.evaluate((sel) => Object.fromEntries(Object.entries(sel).map(([k, s]) => {
    const e = document.querySelector(s);
    if (!e) return [k, null];
    const r = e.getBoundingClientRect();
    return [k, { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }];
  })), wanted);
  await page.screenshot({ path: join(shots, `in-view-${vp.name}-${where.replace(/\W+/g, "-")}.png`) });
  for (const [what, b] of Object.entries(boxes)) {
    assert.ok(b && b.width > 0 && b.height > 0, `${vp.name}, ${where}: the ${what} is shown`);
    const inside = b.left >= -0.5 && b.top >= -0.5 && b.right <= vp.width + 0.5 && b.bottom <= vp.height + 0.5;
    assert.ok(inside, `${vp.name}, ${where}: the ${what} (${Math.round(b.left)}, ${Math.round(b.top)}, ${Math.round(b.right)}, ${Math.round(b.bottom)}) lies inside ${vp.width} × ${vp.height}`);
  }
  step(`${vp.name}, ${where}: ${Object.keys(boxes).join(", ")} in view`);
}

await inChromium(chromiumPath, shots, server, async (browser) => {
    // IN_VIEW=phone (or desktop) checks one viewport alone.
    for (const vp of VIEWPORTS.filter((v) => !process.env.IN_VIEW || v.name === process.env.IN_VIEW)) {
      const context = await newContext(browser);
      const page = await openBoard(context, url, { viewport: { width: vp.width, height: vp.height } });
      await page.click("#btn-settings");
      await page.check("#set-tutor");
      await page.selectOption("#set-tutor-at", "MARK_DOUBTFUL");
      await page.click("#settings-close");

      // A person's turn: the plays listed; then a play the tutor stops.
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: TUTOR_UFEN, seed: "3" });
      let listed = false;
      let warned = false;
      for (let turn = 0; turn < 40 && !warned; turn++) {
        const t = await throwForChoice(page);
        if (!t) continue;
        if (!listed) {
          await checkInView(page, vp, "a person's turn", { "plays listed": "#plays" });
          listed = true;
        }
        const { best, worst } = await judgeAll(page, call, t, "navy");
        const before = await page.locator("#history li").count();
        if (markRank(worst.mark) < 1) {
          await clickPlay(page, best.play);
          await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
          continue;
        }
        await clickPlay(page, worst.play);
        await page.waitForSelector("#tutor:not([hidden])");
        await checkInView(page, vp, "the tutor's warning", { "tutor's warning": "#tutor", "Rethink": "#btn-rethink", "Play anyway": "#btn-play-anyway" });
        warned = true;
      }
      assert.ok(listed && warned, `${vp.name}: a person's turn and a warning seen`);

      // Game over: Red's last piece home, Yellow's all home.
      await page.click("#btn-settings");
      await page.uncheck("#set-tutor");
      await page.click("#settings-close");
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: NEAR_END_UFEN, seed: "5" });
      for (let turn = 0; turn < 200 && !(await resultText(page)); turn++) {
        await waitForHumanOrEnd(page);
        if (await resultText(page)) break;
        await playOneTurn(page);
      }
      assert.match(await resultText(page), /^Game over/);
      await checkInView(page, vp, "game over", { "game over": "#result" });
      await context.close();
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("the decision in view: all checks passed");
});
