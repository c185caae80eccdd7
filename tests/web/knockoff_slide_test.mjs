// A knocked-off piece slides home from its own square, in Debian's chromium
// (playwright-core) against a real `uckers serve --http`: in a game of
// every colour for itself and one of partners, a person knocks a piece off
// with pieces sliding, and every frame of the knocked piece's slide, from
// the first, is drawn on the board between the piece's square and its base
// (never at the board's corner while the hitter's slide runs). Run by ctest as
//   node knockoff_slide_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, openBoard, newContext, newGame, dumpPages, connectCaller, seedWhere, waitForHumanOrEnd,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("knockoff_slide_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;
const call = connectCaller(url);

// Red on 10, a Green piece on Green's square 1 (track square 14), four
// squares ahead of it; the other pieces in base.
const UFEN = "10,b,b,b/1,b,b,b/b,b,b,b/b,b,b,b r -";
const LAYOUTS = [
  { name: "every colour for itself", rules: "navy+solo", sides: "solo" },
  { name: "partners", rules: "navy", sides: "partners" },
];

await inChromium(chromiumPath, shots, server, async (browser) => {
    for (const layout of LAYOUTS) {
      const { seed, plays } = await seedWhere(call, UFEN, layout.rules, (ps) => ps.some((p) => (p.effects?.knockedOff || []).length));
      const hit = plays.find((p) => (p.effects?.knockedOff || []).length);
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      // Pieces slide, slowly: the hitter's slide takes a while.
      await page.click("#btn-settings");
      await page.selectOption("#set-anim", "slow");
      await page.click("#settings-close");
      await newGame(page, { seats: ["person", "beginner", "beginner", "beginner"], ufen: UFEN, seed, rules: "navy", sides: layout.sides });
      await waitForHumanOrEnd(page);
      await page.click("#btn-throw");
      await page.waitForSelector(`#plays button[data-play="${hit.play}"]`);
      // Where the piece to be knocked off stands, and its base, on the screen.
      const knocked = hit.effects.knockedOff[0];
      const id = `${knocked.colour.replace("COLOUR_", "").charAt(0).toLowerCase()}:${knocked.from}`;
      const { square, base, size, baseSize } = await page.evaluate((pid) => {
        const centre = (r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
        const piece = document.querySelector(`#board .piece[data-piece="${pid}"]`).getBoundingClientRect();
        const colour = pid[0];
        const b = document.querySelector(`#board .base[aria-label^="${{ r: "Red", g: "Green", y: "Yellow", b: "Blue" }[colour]}"]`).getBoundingClientRect();
        return { square: centre(piece), base: centre(b), size: piece.width, baseSize: b.width };
      }, id);
      // Every frame, the knocked piece's ghost where it is drawn.
      await page.evaluate(() => {
        window.ghostFrames = [];
        const look = () => {
          for (const g of document.querySelectorAll("#board .ghost.knocked")) {
            const r = g.getBoundingClientRect();
            window.ghostFrames.push({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
          }
          if (window.ghostFrames.length < 400) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
      await page.click(`#plays button[data-play="${hit.play}"]`);
      await page.waitForFunction(() => window.ghostFrames.length > 0 && !document.querySelector("#board .ghost.knocked"), null, { timeout: 20000 });
      const frames = await page.evaluate(() => window.ghostFrames);
      await page.screenshot({ path: join(shots, `knockoff-${layout.sides}.png`) });
      const first = frames[0];
      const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
      assert.ok(dist(first, square) < size, `${layout.name}: the knocked piece's slide starts on its square ${JSON.stringify(square)}, not at ${JSON.stringify(first)}`);
      // Each frame lies on the way from the square to the base (its spot in
      // the base is off the base's centre).
      const way = dist(square, base);
      for (const f of frames) {
        assert.ok(dist(f, square) + dist(f, base) < way + 2 * size + baseSize / 2, `${layout.name}: a frame at ${JSON.stringify(f)} is off the way from ${JSON.stringify(square)} to ${JSON.stringify(base)}`);
      }
      step(`${layout.name}: the knocked piece slid from its square (${frames.length} frames)`);
      await context.close();
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("knock-off slides: all checks passed");
});
