// The web board's scripts pinned by their integrity (server/web_integrity.h):
// the board loads in Debian's chromium under its Content-Security-Policy
// with the import map the server adds, and a script changed on the way (by
// a proxy, here Playwright's route) is not run: the board never starts, on
// the main page and the practice page. Run by ctest as
//   node integrity_test.mjs <uckers> <screenshot folder>

import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium, testArguments, problems, step, seconds, openBoard, newContext, dumpPages } from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("integrity_test.mjs");

// A page whose `script` arrives changed: what the browser said, and
// whether the board started (its seats built).
async function openChanged(context, url, script) {
  const page = await context.newPage();
  const said = [];
  page.on("console", (m) => said.push(m.text()));
  page.on("pageerror", (e) => said.push(e.message));
  await page.route(`**/${script}`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()) + "\n// changed on the way\n" });
  });
  await page.goto(url);
  await page.waitForTimeout(3000);
  const started = await page.evaluate(() => (document.querySelector("#seat-0")?.options.length ?? 0) > 0);
  await page.close();
  return { said: said.join("\n"), started };
}

const server = await startHttpServer(uckers);
await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await newContext(browser);
    // As served: the board starts, and no script was refused.
    const page = await openBoard(context, server.url);
    assert.equal(await page.locator('script[type="importmap"]').count(), 1);
    await page.close();
    step("the board starts with its scripts pinned");
    for (const script of ["dealer.js", "app.js", "board.js"]) {
      const changed = await openChanged(context, server.url, script);
      assert.equal(changed.started, false, `the board started with ${script} changed`);
      assert.match(changed.said, /integrity/i, `${script}: ${changed.said}`);
      step(`${script} changed on the way: not run (${changed.said.split("\n")[0].slice(0, 120)})`);
    }
    const practice = await context.newPage();
    const said = [];
    practice.on("console", (m) => said.push(m.text()));
    await practice.route("**/drill.js", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()) + "\n// changed\n" });
    });
    await practice.goto(new URL("practice.html", server.url).href);
    await practice.waitForTimeout(2000);
    assert.match(said.join("\n"), /integrity/i, `practice.html with drill.js changed: ${said.join("\n")}`);
    step("practice.html: a changed drill.js is not run");
    assert.deepEqual(problems, [], "no errors in the page as served");
    console.log(`web integrity: all checks passed in ${seconds()} s`);
});
