// The browser's check of dealt dice against the tampered-record suite of
// tests/dealer_test.cpp (TamperedRecords): each record is loaded into the
// web board in Debian's chromium as a player loads one (the record file
// input), and the page must say "Dice verified" of the revealed record and
// of no tampered one, the verdict `uckers verify` and tests/verify_dealt.py
// give (Verify.AnIndependentVerifierInPythonAgrees). Run by ctest as
//   node tampered_test.mjs <uckers> <dealer_test> <screenshot folder>

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium, testArguments, problems, step, seconds, openBoard, newContext, dumpPages } from "./board_helpers.mjs";

const { uckers, shots, chromiumPath, dealer_test: dealerTest } = testArguments("tampered_test.mjs", ["dealer_test"]);

// The suite, written by the C++ test (which checks each with uckers verify).
const dir = mkdtempSync(join(tmpdir(), "uckers-tampered-"));
const wrote = spawnSync(dealerTest, ["--gtest_filter=Verify.WritesTheTamperedSuiteForOtherVerifiers"], {
  env: { ...process.env, UCKERS_TAMPERED_DIR: dir },
  encoding: "utf8",
});
assert.equal(wrote.status, 0, wrote.stdout + wrote.stderr);
const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
assert.ok(files.includes("good.json"), files.join(" "));
assert.ok(files.length >= 20, `only ${files.length} records in the suite`);

// What the page says of the dice once a record has been loaded (or its load
// refused): its verdict, "verified" only when it says "Dice verified".
async function verdictOf(page, file) {
  // (a fresh page: its result line is empty until a record is loaded)
  await page.setInputFiles("#record-file", join(dir, file));
  // The load ends with the result line of the game loaded, or with the
  // error of a record the page could not read or replay.
  await page.waitForFunction(
    () =>
      document.querySelector("#status").classList.contains("error") ||
      document.querySelector("#result").textContent.startsWith("Loaded"),
    null,
    { timeout: 60000 },
  );
  // A loaded dealt record is then checked; the check's words replace "".
  const loaded = await page.evaluate(() => !document.querySelector("#status").classList.contains("error"));
  if (loaded) {
    await page
      .waitForFunction(() => /^Dice (not )?verified/.test(document.querySelector("#dealt-check").textContent), null, {
        timeout: 20000,
      })
      .catch(() => {});
  }
  const said = loaded ? await page.textContent("#dealt-check") : await page.textContent("#status");
  return { verified: loaded && said.startsWith("Dice verified"), said };
}

const server = await startHttpServer(uckers);
await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await newContext(browser);
    const verdicts = [];
    for (const file of files) {
      // A fresh page each time: nothing of the record before stays in view.
      const page = await openBoard(context, server.url);
      const v = await verdictOf(page, file);
      verdicts.push({ file, ...v });
      console.log(`${file}: ${v.said}`);
      if (file === "good.json") await page.screenshot({ path: join(shots, "tampered-good.png") });
      if (file === "changed_signature.json") await page.screenshot({ path: join(shots, "tampered-signature.png") });
      await page.close();
    }
    for (const v of verdicts) {
      assert.equal(v.verified, v.file === "good.json", `${v.file}: the page said "${v.said}"`);
      // Each tampered record is either refused at its load or says why not.
      if (v.file !== "good.json") assert.match(v.said, /^Dice not verified: |cannot be replayed/, v.file);
    }
    const refused = verdicts.filter((v) => !v.verified).length;
    step(`${files.length} records: the revealed one verified, ${refused} tampered ones not`);
    assert.deepEqual(problems.filter((p) => !/Failed to load|status of 4\d\d/.test(p)), [], "no errors in the page");
    console.log(`web tampered: all checks passed in ${seconds()} s`);
}, () => rmSync(dir, { recursive: true, force: true }));
