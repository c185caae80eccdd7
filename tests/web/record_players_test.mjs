// A loaded record shows its players as the record names them, in Debian's
// chromium (playwright-core) against a real `uckers serve --http`: a record
// is loaded through Load record, as a player loads a file, and the side
// table says who played each side from the record's headers (people and
// engines by the names it gives, colour by colour where a side's seats
// differ), a neutral name where the record names nobody, never an engine
// the record does not name. Run by ctest as
//   node record_players_test.mjs <path to uckers> <screenshot folder>

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium, testArguments, problems, step, openBoard, newContext, dumpPages, checkPlayersText } from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("record_players_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;

const UNNAMED = "a player the record does not name";
const RECORDS = [
  {
    name: "two teams, a side of a person and an engine",
    text: '[Rules "navy"]\n[Switches "navy"]\n[RY "person and beginner"]\n[GB "expert,movetime=100"]\n[Date "2026-11-21"]\n[Result "*"]\n\n52:- 41:- 33:- 21:-\n',
    who: ["Red: a person; Yellow: the engine, Beginner", "the engine, Expert"],
  },
  {
    name: "two teams, nobody named",
    text: '[Rules "navy"]\n[Switches "navy"]\n[Result "*"]\n\n52:- 41:-\n',
    who: [UNNAMED, UNNAMED],
  },
  {
    name: "every colour for itself",
    text: '[Rules "navy+solo"]\n[Switches "navy+solo"]\n[R "Alice"]\n[G "person"]\n[Y "intermediate"]\n[Result "*"]\n\n52:- 41:- 33:- 21:-\n',
    who: ["Alice", "a person", "the engine, Intermediate", UNNAMED],
  },
];

await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await newContext(browser);
    const page = await openBoard(context, url);
    for (const [i, rec] of RECORDS.entries()) {
      await page.setInputFiles("#record-file", { name: `record-${i}.txt`, mimeType: "text/plain", buffer: Buffer.from(rec.text) });
      await page.waitForFunction((n) => document.querySelector("#status").textContent.startsWith(`Loaded record-${n}.txt`), i);
      await page.waitForFunction((n) => document.querySelectorAll("#sides-table tr[data-side]").length === n, rec.who.length);
      const who = await page.$$eval("#sides-table tr[data-side] td:not(.chance)", (ts) => ts.map((t) => t.textContent));
      assert.deepEqual(who, rec.who, `${rec.name}: the players the record names`);
      const text = await page.evaluate(() => `${document.querySelector("#sides-table").innerText} ${document.querySelector("#to-throw").innerText}`);
      assert.ok(!/Expert/.test(text) || rec.who.some((w) => /Expert/.test(w)), `${rec.name}: no engine the record does not name`);
      await checkPlayersText(page, rec.name);
      await page.screenshot({ path: join(shots, `record-players-${i}.png`) });
      step(`${rec.name}: ${who.join(" | ")}`);
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("a loaded record's players: all checks passed");
});
