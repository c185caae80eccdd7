// Every control a player uses in a turn is a finger's size on a phone, in
// Debian's chromium (playwright-core) against a real `uckers serve --http`:
// at 390 x 844, in a person's turn (the dice to throw, then thrown with
// the plays listed, then a piece chosen with its squares lit, then the
// Settings open), every button, link, list of choices, toggle and the
// board's pieces and lit squares (where a finger lands on them) is at
// least 44 x 44 CSS px, a toggle by its label. Run by ctest as
//   node tap_targets_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium, testArguments, problems, step, openBoard, newGame, dumpPages } from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("tap_targets_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;
const MIN = 44;

// The controls shown, each with its box where a finger lands: a toggle's
// or a file chooser's label, the board's reach drawn unseen for its pieces
// and lit squares, its calls' buttons; those under 44 px either way.
async function smallTargets(page, where) {
  const found = await page.evaluate((min) => {
    const name = (e) => (e.id ? `#${e.id}` : "") + (e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 40);
    const out = [];
    let count = 0;
    const seen = new Set();
    const open = document.querySelector("dialog[open]");
    const scope = open || document.body;
    for (const e of scope.querySelectorAll("button, a[href], select, input, summary, [role=button], #board .hit")) {
      if (!open && e.closest("dialog")) continue;
      // A closed panel's contents are not shown (only its heading).
      if (!e.matches("summary") && e.closest("details:not([open])")) continue;
      let box = e;
      if (e.matches("input[type=checkbox], input[type=radio], input[type=file]")) box = e.closest("label") || e;
      if (e.closest("#board") && !e.matches(".hit, .control")) continue;
      if (seen.has(box)) continue;
      seen.add(box);
      const r = box.getBoundingClientRect();
      const style = getComputedStyle(box);
      if (r.width === 0 || r.height === 0 || style.visibility === "hidden") continue;
      count++;
      if (r.width < min - 0.5 || r.height < min - 0.5) out.push(`${box.tagName.toLowerCase()} ${name(box)}: ${r.width.toFixed(0)} x ${r.height.toFixed(0)}`);
    }
    return { count, out };
  }, MIN);
  step(`${where}: ${found.count} controls, ${found.out.length} smaller than ${MIN} px`);
  return found;
}

await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      if (!localStorage.getItem("uckers.settings")) localStorage.setItem("uckers.settings", JSON.stringify({ autoplay: true, anim: "off" }));
    });
    const page = await openBoard(context, url, { viewport: { width: 390, height: 844 } });
    // Two of Red's pieces out: every throw is a choice of piece.
    await newGame(page, { seats: ["person", "person", "person", "person"], ufen: "10,20,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", seed: "7" });
    await page.waitForFunction(() => !document.querySelector("#btn-throw").disabled);
    const small = [];
    const look = async (where) => {
      const { count, out } = await smallTargets(page, where);
      assert.ok(count > 5, `${where}: controls found`);
      small.push(...out.map((o) => `${where}: ${o}`));
      await page.screenshot({ path: join(shots, `tap-targets-${where.replace(/\W+/g, "-")}.png`), fullPage: true });
    };
    await look("dice to throw");
    await page.tap("#btn-throw");
    await page.waitForFunction(() => document.querySelectorAll("#plays button").length > 1 && document.querySelector("#board .piece.movable"));
    await look("plays listed");
    const box = await page.locator("#board .piece.movable").first().boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForSelector("#board .cell.target");
    await look("a piece chosen");
    await page.tap("#btn-settings");
    await page.waitForFunction(() => document.querySelector("#settings")?.open);
    await look("settings");
    assert.deepEqual(small, [], "every control at least 44 x 44 px");
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("tap targets a finger's size on a phone: all checks passed");
});
