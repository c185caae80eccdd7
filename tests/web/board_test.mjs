// End-to-end test of the web board (web/) in Debian's chromium, driven by
// playwright-core (no browser download), against a real
// `uckers serve --http`. Run by ctest (tests/CMakeLists.txt) as
//   node board_test.mjs <path to uckers> <screenshot folder>
// Everything is done as a player does it, by clicks and keys. Screenshots
// go to the folder given.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, seconds, openBoard, newContext, newGame, items, resultText, ufen,
  waitForHumanOrEnd, playOneTurn, checkPlayersText, dumpPages,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("board_test.mjs");

// Seeds whose first throws make each story (found with `uckers` text
// protocol `roll seed <s> index 0 count 4`):
const SEED_CHALLENGE_WON = "35"; // 4-6, 4-6, 3-6: declared, counted, won
const SEED_CHALLENGE_FAILED = "10"; // a six, then a throw with no six
const SEED_NO_SIX_FIRST = "1"; // a first throw with no six: red must pass
// Red's piece on 10, right behind a blue blob of two on red's 11 (blue's
// 24): a challenge needs 3 sixes (RULES.md §6).
const CHALLENGE_UFEN = "10,b,b,b/b,b,b,b/b,b,b,b/b,b,24,24 r -";

let server = await startHttpServer(uckers);
const { url, port } = server;
await inChromium(chromiumPath, shots, () => server, async (browser) => {
    // 1. A challenge won, told as a player hears it: the choice, the count
    //    beside the challenger, each throw in words, the knock-off.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: CHALLENGE_UFEN, seed: SEED_CHALLENGE_WON });
      await page.keyboard.press("t");
      const choice = page.locator('#plays button[data-play^="x"]');
      await choice.waitFor();
      assert.equal(await choice.textContent(), "Challenge the Blue blob on 11 (needs 3 sixes)");
      await checkPlayersText(page, "a challenge offered");
      await choice.click();
      await page.waitForSelector('#board .badge.challenge');
      assert.match(await page.textContent("#board .badge"), /^1 of 3 sixes$/);
      assert.match(await page.textContent("#status"), /challenges: the Blue blob on 11.*1 of 3/);
      await page.screenshot({ path: join(shots, "challenge-count.png") });
      // The challenge throws move nothing: the board plays each one itself.
      await page.waitForFunction(() => !document.querySelector("#btn-throw").disabled);
      await page.click("#btn-throw");
      await page.waitForFunction(() => document.querySelectorAll("#history li").length > 1);
      assert.match(await page.textContent("#board .badge"), /^2 of 3 sixes$/);
      // The last throw with sliding on (Settings, as a player sets it): the
      // dice roll, the challenger slides on, the blob goes home visibly.
      await page.click("#btn-settings");
      await page.selectOption("#set-anim", "normal");
      await page.click("#settings-close");
      await page.waitForFunction(() => !document.querySelector("#btn-throw").disabled);
      await page.click("#btn-throw");
      await page.waitForSelector("#dice.rolling", { timeout: 5000 });
      await page.waitForSelector("#board .ghost.knocked", { state: "attached", timeout: 10000 });
      await page.waitForFunction(() => /challenge is won/.test(document.querySelector("#history").textContent));
      const story = await page.textContent("#history");
      assert.match(story, /of 3 sixes\. The challenge goes on\.|3 of 3 sixes!/);
      assert.match(story, /3 of 3 sixes! The challenge is won: 2 Blue pieces knocked off/);
      assert.equal((await ufen(page)).split(" ")[0].split("/")[3], "b,b,b,b", "the blue blob went back to base");
      await page.screenshot({ path: join(shots, "challenge-won.png") });
      step("challenge won");
      await context.close();
    }

    // 2. A challenge failed; then a first throw with no six is passed by the
    //    board itself (no click on a play).
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: CHALLENGE_UFEN, seed: SEED_CHALLENGE_FAILED });
      await page.click("#btn-throw");
      await page.click('#plays button[data-play^="x"]');
      await page.waitForSelector('#board .badge.challenge');
      await page.click("#btn-throw");
      await page.waitForFunction(() => /Challenge failed/.test(document.querySelector("#history").textContent));
      assert.match(await page.textContent("#history li:nth-child(2)"), /^Red throws \d-\d: no six\. Challenge failed\.$/);
      assert.equal(await page.locator("#board .badge").count(), 0, "no count once the challenge is over");
      step("challenge failed");
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], seed: SEED_NO_SIX_FIRST });
      await page.click("#btn-throw");
      await page.waitForFunction(() => document.querySelectorAll("#history li").length >= 1);
      assert.match(await page.textContent("#history li:first-child"), /^Red throws \d-\d and cannot move: a pass\.$/);
      step("a forced pass played by the board");
      await context.close();
    }

    // 3. Two people and two engine seats at different levels; looking back
    //    shows that position's chances and the play made from it; a reload
    //    offers the game back; a server restart mid-game is retried.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, { seats: ["person", "beginner", "person", "casual"], seed: "7" });
      const movers = new Set();
      for (let turn = 0; turn < 40 && (movers.size < 4 || (await items(page)) < 12); turn++) {
        await waitForHumanOrEnd(page);
        await playOneTurn(page, { shot: turn === 6 ? join(shots, "board-targets.png") : undefined });
        for (const c of await page.$$eval("#history button", (bs) => bs.map((b) => b.className.split(" ")[1]))) movers.add(c);
      }
      assert.deepEqual([...movers].sort(), ["blue", "green", "red", "yellow"], "all four seats played");
      const notation = await page.textContent("#notation");
      assert.match(notation, /\[RY "person"\]/);
      assert.match(notation, /\[GB "beginner and casual"\]/, "each engine seat its own level");
      await checkPlayersText(page, "a game in progress");
      // Every piece and square has a name; every button says what it does.
      assert.equal(await page.locator("#board .piece:not([aria-label])").count(), 0);
      assert.equal(await page.locator("#board .cell:not([aria-label])").count(), 0);
      const unnamed = await page.$$eval("button", (bs) => bs.filter((b) => !b.textContent.trim() && !b.getAttribute("aria-label")).length);
      assert.equal(unnamed, 0, "every button has a name");
      // Looking back: position 1's chances, not the live ones.
      await page.waitForFunction(() => document.querySelector("#evalbar").dataset.ufen);
      const live = await page.getAttribute("#evalbar", "data-ufen");
      await page.click("#history li:nth-child(2) button");
      const back = await ufen(page);
      assert.notEqual(back, live);
      await page.waitForFunction((u) => document.querySelector("#evalbar").dataset.ufen === u, back);
      assert.match(await page.textContent("#eval-title"), /^Chances at position 1 \(looking back\)$/);
      assert.match(await page.textContent("#status"), /^Looking back at position 1: next, /);
      assert.ok((await page.locator("#board .arrow.played").count()) > 0, "the play made is drawn");
      // The engine's choice there, drawn too when it differs.
      await page.waitForFunction(() => /That is the best play\.|The best play: /.test(document.querySelector("#status").textContent));
      const agrees = /That is the best play\./.test(await page.textContent("#status"));
      assert.equal((await page.locator("#board .arrow.best").count()) > 0, !agrees, "the best play is drawn when it differs");
      await page.screenshot({ path: join(shots, "looking-back.png") });
      await page.click("#nav-live");
      step("people and engines; looking back");
      // A reload asks first, then offers the game back.
      await waitForHumanOrEnd(page);
      const played = await items(page);
      const position = await ufen(page);
      await page.reload();
      assert.ok(page.dialogs.includes("beforeunload"), "leaving a game in progress asks first");
      await page.waitForSelector("#resume:not([hidden])");
      assert.match(await page.textContent("#resume-text"), new RegExp(`${played} throws so far`));
      await page.screenshot({ path: join(shots, "resume.png") });
      await page.click("#btn-resume");
      await page.waitForFunction((n) => document.querySelectorAll("#history li").length === n, played);
      assert.equal(await ufen(page), position, "the game is back where it was");
      step("reload restores the game");
      // The server stops mid-game: the throw is retried, then explained with
      // a button to try again, which works once a server is back.
      await waitForHumanOrEnd(page);
      server.child.kill("SIGTERM");
      await new Promise((r) => server.child.once("exit", r));
      await page.click("#btn-throw");
      await page.waitForFunction(() => /trying again/.test(document.querySelector("#status").textContent));
      await page.waitForFunction(
        () => /^The engine cannot be reached/.test(document.querySelector("#status").textContent),
        null,
        { timeout: 15000 },
      );
      await page.waitForSelector("#btn-retry:not([hidden])", { timeout: 15000 });
      assert.match(await page.textContent("#status"), /^The engine cannot be reached.*Try again/);
      await checkPlayersText(page, "an error");
      await page.screenshot({ path: join(shots, "retry.png") });
      server = await startHttpServer(uckers, { httpPort: port });
      await page.click("#btn-retry");
      await page.waitForFunction(
        (n) => document.querySelector("#plays button") || document.querySelectorAll("#history li").length > n,
        played,
      );
      await playOneTurn(page);
      assert.ok((await items(page)) > played, "the game goes on after the restart");
      step("server restart retried");
      await context.close();
    }

    // 4. A near-end game by clicks to its end; take back; the record
    //    downloaded and loaded back.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: "h,h,h,53/b,b,b,4/h,h,h,h/b,b,b,b r -", seed: "20261125" });
      await page.waitForFunction(() => document.querySelector("#ufen").value.startsWith("53,h,h,h/"));
      await waitForHumanOrEnd(page);
      const ufenBefore = await ufen(page);
      await playOneTurn(page);
      await page.waitForFunction(() => !document.querySelector("#btn-takeback").disabled);
      await page.click("#btn-takeback");
      await page.waitForFunction(() => document.querySelectorAll("#history li").length === 0);
      assert.equal(await ufen(page), ufenBefore, "take back returns to the position");
      assert.ok(await page.isDisabled("#btn-throw"), "the dice stay thrown after a take back");
      // A take back is not played again by itself, even a single play.
      await page.click("#plays button >> nth=0");
      await page.waitForFunction(() => document.querySelectorAll("#history li").length > 0);
      for (let turn = 0; turn < 200 && !(await resultText(page)); turn++) {
        await waitForHumanOrEnd(page);
        if (await resultText(page)) break;
        await playOneTurn(page);
      }
      assert.match(await resultText(page), /^Game over: (Red and Yellow|Green and Blue) win/);
      await page.screenshot({ path: join(shots, "board-end.png") });
      // Statistics count the finished game, and its error rate once reviewed.
      await page.click("#btn-stats");
      assert.match(await page.textContent("#stats-table tr:nth-child(2)"), /^\d{4}-\d\d1[01][01]not reviewed$/);
      await page.keyboard.press("Escape");
      await page.selectOption("#review-level", "beginner");
      await page.click("#btn-review-again");
      await page.waitForFunction(() => /reviewed at Beginner/.test(document.querySelector("#review-status").textContent));
      await page.click("#btn-stats");
      assert.match(await page.textContent("#stats-table tr:nth-child(2)"), /^\d{4}-\d\d1[01][01]\d+(\.\d)?%$/);
      // A player's words on the page, the review and statistics open: none
      // of the program's own (its command names, its letters for variants,
      // its statistic names).
      const shown = await page.evaluate(() => document.body.innerText);
      assert.doesNotMatch(shown, /error rate|points less luck|uckers drill|\(variant [A-G]\)/, "developer words on the page");
      assert.doesNotMatch(await page.textContent("#chart"), /RY 100%|GB 100%/, "the chart's axis in team letters");
      assert.match(await page.textContent("#chart"), /Red and Yellow's chance to win/);
      await page.keyboard.press("Escape");
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#btn-download")]);
      const file = join(shots, "near-end-record.txt");
      await download.saveAs(file);
      const record = readFileSync(file, "utf8");
      assert.match(record, /\[Start "53,h,h,h\/b,b,b,4\/h,h,h,h\/b,b,b,b r -"\]/, "the start in canonical UFEN");
      assert.match(record, /\[Result "(RY|GB) [123]"\]/);
      const played = await items(page);
      await page.setInputFiles("#record-file", file);
      // The result line, which the engine's comment on the position shown does not replace.
      await page.waitForFunction(() => /^Loaded/.test(document.querySelector("#result").textContent));
      assert.equal(await items(page), played, "the loaded record has every throw");
      await page.click("#nav-next");
      assert.match(await page.textContent("#position-index"), /^position 1 of /);
      step("near-end game, record");
      await context.close();
    }

    // 5. Engine against engine to the end, then the review: the chart with a
    //    throw axis and marks in their side's colour; a mark shows its
    //    position with the play made and the best one drawn; the review's
    //    strength changes in the review.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      await newGame(page, { seats: ["beginner", "beginner", "beginner", "beginner"], seed: "11" });
      await page.waitForFunction(() => document.querySelector("#result").textContent, null, { timeout: 120000 });
      const played = await items(page);
      assert.ok(played > 20, `a whole game has many throws, not ${played}`);
      // The move list follows the play to the end.
      const lastVisible = await page.$eval("#history", (h) => {
        const li = h.lastElementChild.getBoundingClientRect();
        const box = h.getBoundingClientRect();
        return li.bottom <= box.bottom + 1 && li.top >= box.top - 1;
      });
      assert.ok(lastVisible, "the last play is in view in the move list");
      await page.selectOption("#review-level", "beginner");
      await page.click("#btn-review");
      await page.waitForFunction(() => /reviewed/.test(document.querySelector("#review-status").textContent), null, { timeout: 120000 });
      await page.selectOption("#review-level", "intermediate");
      await page.click("#btn-review-again");
      await page.waitForFunction(() => /reviewed at Intermediate/.test(document.querySelector("#review-status").textContent), null, { timeout: 120000 });
      assert.match(await page.textContent("#review-status"), new RegExp(`^${played} throws reviewed`));
      assert.ok((await page.locator("#chart .chart-tick").count()) >= 3, "the chart has a throw axis with ticks");
      assert.equal(await page.locator("#chart text", { hasText: /^throw$/ }).count(), 1, "named");
      const marks = await page.locator("#chart .mark").count();
      assert.ok(marks > 0, "a beginner's game reviewed at intermediate has marked errors");
      assert.equal(await page.locator("#chart .mark:not(.team-RY):not(.team-GB)").count(), 0, "each mark in its side's colour");
      assert.equal(await page.locator("#teams tr").count(), 3, "a header and a row per side");
      await page.locator("#chart .mark").first().click();
      assert.match(await page.textContent("#mark-info"), /^Throw \d+: (Red|Green|Yellow|Blue) threw \d-\d and played: .*Best was: /);
      assert.match(await page.textContent("#position-index"), /looking back/);
      assert.ok((await page.locator("#board .arrow.best, #board .ring.best").count()) > 0, "the best play is drawn");
      await checkPlayersText(page, "the review");
      await page.screenshot({ path: join(shots, "review.png"), fullPage: true });
      step(`engine game of ${played} throws reviewed, ${marks} marks`);
      await context.close();
    }

    // 6. The rules page (its diagrams drawn by the board) and the guided
    //    first game.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url);
      const [rules] = await Promise.all([page.waitForEvent("popup"), page.click("#link-rules")]);
      await rules.waitForSelector("svg.diagram .piece");
      assert.ok((await rules.locator("h2").count()) >= 6, "the rules page has its sections");
      assert.ok((await rules.locator("svg.diagram").count()) >= 4, "and its diagrams");
      assert.ok((await rules.locator("#switch-list dt").count()) >= 10, "and the house rules by name");
      await checkPlayersText(rules, "the rules page");
      await rules.screenshot({ path: join(shots, "rules.png") });
      await rules.close();
      await page.click("#btn-guided");
      await page.waitForSelector("#guide:not([hidden])");
      assert.match(await page.textContent("#guide-text"), /Press Throw/);
      await page.click("#btn-throw");
      await page.waitForFunction(() => !/Press Throw/.test(document.querySelector("#guide-text").textContent));
      await page.screenshot({ path: join(shots, "guided.png") });
      step("rules page and guided game");
      await context.close();
    }

    // 7. A phone: the board fits, a few turns are played by taps.
    {
      const context = await newContext(browser);
      const page = await openBoard(context, url, { viewport: { width: 390, height: 844 } });
      await page.waitForSelector("#btn-throw:enabled");
      const box = await page.locator("#board").boundingBox();
      assert.ok(box.width <= 390, `the board fits a phone's width (${box.width})`);
      // The keyboard alone: T throws, Tab reaches a piece, Enter chooses it
      // and a lit square (or a listed play, keys 1-9).
      for (let turn = 0; turn < 3; turn++) {
        await waitForHumanOrEnd(page);
        const before = await items(page);
        // A key pressed before the board took the turn is lost under load:
        // press again until the throw is seen.
        for (let attempt = 0; ; attempt++) {
          await page.keyboard.press("t");
          try {
            await page.waitForFunction(
              (n) => document.querySelector("#plays button") || document.querySelectorAll("#history li").length > n,
              before,
              { timeout: 6000 },
            );
            break;
          } catch (e) {
            if (attempt >= 4) throw e;
          }
        }
        if ((await items(page)) === before && (await page.locator("#plays button").count()) > 1) {
          if (await page.locator("#board .piece.movable").count()) {
            await page.focus("#board .piece.movable");
            await page.keyboard.press("Enter");
          }
          if (await page.locator("#board .cell.target").count()) {
            assert.ok(await page.evaluate(() => document.activeElement.classList.contains("target")), "the first lit square has the focus");
            await page.keyboard.press("Enter");
          }
          if ((await items(page)) === before && (await page.locator("#plays button").count())) await page.keyboard.press("1");
        }
        await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
      }
      assert.ok((await items(page)) >= 3);
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(scroll <= 390, `nothing wider than the phone (${scroll})`);
      await page.screenshot({ path: join(shots, "phone.png") });
      step("phone");
      await context.close();
    }
    // 8. The New game dialog, opened while the page's first game is still on
    //    its way (its dice held back here), stays open when that game arrives.
    {
      const context = await newContext(browser);
      let first = true;
      await context.route("**/uckers.v1.Engine/RollDice", async (route) => {
        if (first) {
          first = false;
          await new Promise((r) => setTimeout(r, 1500));
        }
        await route.continue();
      });
      const page = await openBoard(context, url);
      assert.equal(await ufen(page), "", "the first game is not there yet");
      await page.click("#btn-new");
      await page.waitForFunction(() => document.querySelector("#ufen").value !== "");
      assert.ok(await page.evaluate(() => document.querySelector("#new-game").open), "the dialog stays open");
      await page.selectOption("#rules-sides", "solo");
      await page.click("#new-game-cancel");
      step("a late first game leaves the New game dialog open");
      await context.close();
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log(`web board: all checks passed in ${seconds()} s; screenshots in ${shots}`);
});
