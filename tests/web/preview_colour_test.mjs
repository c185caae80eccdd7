// A play previewed is drawn in the mover's colour, in Debian's chromium
// (playwright-core) against a real `uckers serve --http`: on the board,
// pointing at a play of the list (Red's turn) and focusing one (Green's,
// then Yellow's) draws its arrow in that colour; on the practice page a
// puzzle of Blue's draws its previewed plays in blue and one of Red's in
// red. Run by ctest as
//   node preview_colour_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, openBoard, newContext, newGame, dumpPages, waitForHumanOrEnd, items, pages,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("preview_colour_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;

// The pieces' colours on the board (web/board.js FILL), as the browser
// computes them.
const COLOUR = {
  Red: "rgb(217, 52, 43)",
  Green: "rgb(46, 158, 68)",
  Yellow: "rgb(209, 169, 0)",
  Blue: "rgb(47, 111, 214)",
};

// The strokes of the preview arrows drawn and of their heads.
const previewColours = (page) =>
  page.$$eval("#board .arrow.preview", (as) =>
    as.map((a) => {
      const head = a.getAttribute("marker-end")?.match(/#([^)]+)/)?.[1];
      const path = head ? document.getElementById(head)?.querySelector("path") : null;
      return { stroke: getComputedStyle(a).stroke, head: path ? getComputedStyle(path).fill : null };
    }),
  );

async function expectColour(page, who, how) {
  await page.waitForSelector("#board .arrow.preview", { state: "attached" });
  const drawn = await previewColours(page);
  assert.ok(drawn.length, `${who}: a preview drawn`);
  for (const d of drawn) {
    assert.equal(d.stroke, COLOUR[who], `${who}'s play (${how}) drawn in ${who}'s colour`);
    if (d.head) assert.equal(d.head, COLOUR[who], `${who}'s arrow head in ${who}'s colour`);
  }
}

await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await newContext(browser);
    const page = await openBoard(context, url);
    // Two pieces of each colour out: every throw moves something.
    const ufen = "10,20,b,b/10,20,b,b/10,20,b,b/10,20,b,b r -";
    await newGame(page, { seats: ["person", "person", "person", "person"], ufen, seed: "11" });
    for (const [who, how] of [["Red", "pointed at"], ["Green", "focused"], ["Yellow", "focused"]]) {
      for (;;) {
        await waitForHumanOrEnd(page);
        if (await page.isEnabled("#btn-throw")) await page.click("#btn-throw");
        const before = await items(page);
        await page.waitForFunction((n) => document.querySelectorAll("#plays button").length || document.querySelectorAll("#history li").length > n, before);
        const mover = (await page.textContent("#to-throw")).split(" ")[0];
        if ((await page.locator("#plays button").count()) > 1 && mover === who) break;
        // Another colour's turn (a six's extra throw, a forced play): made.
        if (await page.locator("#plays button").count()) await page.click("#plays button >> nth=0");
        await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
      }
      const last = page.locator("#plays button").last();
      if (how === "pointed at") await last.hover();
      else await last.focus();
      await expectColour(page, who, how);
      await page.screenshot({ path: join(shots, `preview-${who.toLowerCase()}.png`) });
      step(`${who}'s play ${how}: drawn in ${who}'s colour`);
      const before = await items(page);
      await last.click();
      await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
    }

    // The practice page: a puzzle of Blue's and one of Red's, kept as a
    // review keeps them.
    const card = (id, u, t) => ({ id, rules: "navy", ufen: u, throw: t, played: "", best: "", candidates: [], lost: 0.1, mark: "MARK_BAD", level: "beginner", source: "a test", due: 0, interval: 0, ease: 2.5, reps: 0 });
    await page.evaluate((cards) => localStorage.setItem("uckers.puzzles", JSON.stringify({ nextId: 3, cards })), [
      card(1, "10,20,b,b/10,20,b,b/10,20,b,b/10,20,b,b b -", "53"),
      card(2, "10,20,b,b/10,20,b,b/10,20,b,b/10,20,b,b r -", "42"),
    ]);
    const practice = await context.newPage();
    pages.push(practice);
    practice.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await practice.goto(`${url}practice.html`);
    for (const who of ["Blue", "Red"]) {
      await practice.waitForFunction((w) => document.querySelector("#question").textContent.startsWith(w) && document.querySelectorAll("#plays button").length > 1, who);
      await practice.locator("#plays button").last().hover();
      await expectColour(practice, who, "in practice");
      await practice.screenshot({ path: join(shots, `preview-practice-${who.toLowerCase()}.png`) });
      step(`practice: ${who}'s play drawn in ${who}'s colour`);
      await practice.locator("#plays button").last().click();
      await practice.waitForSelector("#verdict:not([hidden])");
      await practice.click("#btn-next");
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("previews in the mover's colour: all checks passed");
});
