// The rules page's diagrams are big enough to read, in Debian's chromium
// (playwright-core) against a real `uckers serve --http`: on a phone
// (390 x 844) each diagram is at least 300 px wide, on a desktop
// (1280 x 800) at least 360 px, square, drawn (its board's squares), and
// neither it nor the page is wider than the screen. Run by ctest as
//   node rules_diagrams_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium, testArguments, problems, pages, step, dumpPages } from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("rules_diagrams_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;

const SCREENS = [
  { name: "phone", width: 390, height: 844, min: 300 },
  { name: "desktop", width: 1280, height: 800, min: 360 },
];

await inChromium(chromiumPath, shots, server, async (browser) => {
    for (const screen of SCREENS) {
      const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height } });
      const page = await context.newPage();
      pages.push(page);
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      await page.goto(`${url}rules.html`);
      await page.waitForFunction(() => [...document.querySelectorAll("svg[data-diagram]")].every((s) => s.querySelector(".cell")));
      const boxes = await page.$$eval("svg[data-diagram]", (ss) =>
        ss.map((s) => {
          const r = s.getBoundingClientRect();
          return { name: s.dataset.diagram, left: r.left, right: r.right, width: r.width, height: r.height };
        }),
      );
      assert.ok(boxes.length >= 5, `${screen.name}: the diagrams`);
      for (const b of boxes) {
        assert.ok(b.width >= screen.min, `${screen.name}: the ${b.name} diagram is ${b.width.toFixed(0)} px wide, under ${screen.min}`);
        assert.ok(Math.abs(b.height - b.width) < 2, `${screen.name}: the ${b.name} diagram is square (${b.width} x ${b.height})`);
        assert.ok(b.left >= 0 && b.right <= screen.width, `${screen.name}: the ${b.name} diagram within the screen (${b.left}..${b.right})`);
      }
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= screen.width, `${screen.name}: the page is ${wide} px wide, wider than the screen`);
      await page.screenshot({ path: join(shots, `rules-diagrams-${screen.name}.png`), fullPage: true });
      step(`${screen.name}: diagrams ${boxes.map((b) => b.width.toFixed(0)).join(", ")} px wide`);
      await context.close();
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("the rules' diagrams legible: all checks passed");
});
