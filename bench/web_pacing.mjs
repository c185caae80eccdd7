// How long a person waits on the web board between their turns: a game on
// the six-sided board, the person Red and the five other colours the engine
// at the default level, in Debian's chromium (playwright-core from
// tests/web). For each of the person's turns, the time from their play
// being made to their next throw being theirs to make, at the animation
// speed asked for (Settings: slow, normal, fast, off). Prints the median,
// the 90th percentile and the longest.
//
//   node bench/web_pacing.mjs build/uckers [--turns 30] [--speed normal] [--seed 3]

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startHttpServer } from "../tests/serve_http.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(join(here, "../tests/web/package.json"))("playwright-core");

const args = process.argv.slice(2);
const uckers = args[0];
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i > 0 ? args[i + 1] : fallback;
};
if (!uckers || uckers.startsWith("--")) {
  console.error("usage: node bench/web_pacing.mjs <uckers> [--turns N] [--speed slow|normal|fast|off] [--seed S]");
  process.exit(2);
}
const turns = Number(flag("turns", "30"));
const speed = flag("speed", "normal");
const seed = flag("seed", "3");
if (!(turns > 0) || !["slow", "normal", "fast", "off"].includes(speed)) {
  console.error("web_pacing: --turns must be a positive number, --speed one of slow, normal, fast, off");
  process.exit(2);
}

const server = await startHttpServer(uckers);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
let failed = false;
try {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelector("#seat-0")?.options.length > 0);
  await page.evaluate((anim) => {
    const s = JSON.parse(localStorage.getItem("uckers.settings") || "{}");
    localStorage.setItem("uckers.settings", JSON.stringify({ ...s, anim, autoplay: true }));
  }, speed);
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#seat-0")?.options.length > 0);
  await page.click("#btn-new");
  await page.selectOption("#rules-board", "six");
  await page.waitForFunction(() => document.querySelectorAll("#seat-list select.seat").length === 6);
  await page.selectOption("#seat-0", "person");
  await page.selectOption("#dice-kind", "seed");
  await page.evaluate(() => (document.querySelector("#new-advanced").open = true));
  await page.fill("#seed", seed);
  await page.click("#new-game-start");
  await page.waitForFunction(() => !document.querySelector("#new-game").open);
  const count = () => page.locator("#history li").count();
  const over = async () => Boolean(await page.textContent("#result"));
  const theirs = () =>
    page.waitForFunction(() => !document.querySelector("#btn-throw").disabled || document.querySelector("#result").textContent, null, {
      timeout: 120000,
    });
  const waits = [];
  await theirs();
  for (let t = 0; t < turns && !(await over()); t++) {
    const before = await count();
    await page.keyboard.press("t");
    await page.waitForFunction((n) => document.querySelector("#plays button") || document.querySelectorAll("#history li").length > n, before);
    if ((await count()) === before && (await page.locator("#plays button").count()) > 1) await page.keyboard.press("1");
    await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n || document.querySelector("#result").textContent, before);
    const played = Date.now();
    // A six, or a throw still owed, leaves the person to throw again at once.
    await theirs();
    if (await over()) break;
    const others = (await count()) - before - 1;
    if (others > 0) waits.push(Date.now() - played);
  }
  waits.sort((a, b) => a - b);
  const at = (q) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))];
  console.log(
    `web_pacing: six-sided board, speed ${speed}, ${waits.length} waits between the person's turns: ` +
      `median ${(at(0.5) / 1000).toFixed(2)} s, 90th percentile ${(at(0.9) / 1000).toFixed(2)} s, longest ${(waits.at(-1) / 1000).toFixed(2)} s`,
  );
} catch (e) {
  console.error(`web_pacing: ${e.message}`);
  failed = true;
} finally {
  await browser.close();
  server.child.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
