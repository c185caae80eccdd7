// End-to-end test of the web board's coaching and dealt dice in Debian's
// chromium (playwright-core), against a real `uckers serve --http`: tutor
// mode (a blunder stopped, Rethink, Play anyway), the next throw's map,
// the explanations under a hint and under a review mark, the practice page
// (a missed puzzle brought back), and a game with dealt dice checked by
// the browser (and a tampered throw caught). Run by ctest as
//   node coach_test.mjs <path to uckers> <screenshot folder>
// Everything on the page is done as a player does it, by clicks; the test
// asks the engine itself (JudgePlay) which play is a blunder.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { tutorAndMapOn, inChromium,
  testArguments, problems, pages, step, seconds, openBoard, newContext, newGame, items, resultText, ufen,
  waitForHumanOrEnd, playOneTurn, checkPlayersText, dumpPages, throwForChoice, judgeAll, clickPlay, connectCaller,
} from "./board_helpers.mjs";
import { commitmentOf, dealtDice } from "../../web/dealer.js";
import { reschedule, dueCards, dayText, parseDay } from "../../web/drill.js";
import { markRank, explainTerms, chanceLost } from "../../web/words.js";

const { uckers, shots, chromiumPath } = testArguments("coach_test.mjs");

// Each side with a blob to keep and pieces in play: a careless play breaks
// a blob or leaves a piece to be hit, which the tutor's level marks.
const TUTOR_UFEN = "b,10,13,13/b,b,16,19/1,8,8,13/6,6,16,25 r -";
// Red and Yellow one piece from the end: a dealt game is over in a few throws.
const NEAR_END_UFEN = "h,h,h,53/b,b,b,4/h,h,h,h/b,b,b,b r -";
// A sentence of words.js's explanations.
// A reason: what the play leaves against the best, then its size, the
// change in the mover's chance to win it accounts for, signed.
const WHY = /^(Leaves|Gives|Makes|Breaks|Knocks off|Lets|Has) .*; the best play.*: ([\u2212+]\d+(\.\d)?|±0)%$/;
const SIGNED = /: [\u2212+]\d+(\.\d)?%$/;

// 0. Without a browser: the page's dice derivation against dealer/'s known
//    answers (tests/dealer_test.cpp), and its schedule against the drill's.
{
  const counting = [...Array(32).keys()].map((i) => i.toString(16).padStart(2, "0")).join("");
  assert.equal(await commitmentOf(counting), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
  const value = [...Array(16).keys()].map((i) => (16 + i).toString(16).padStart(2, "0")).join("");
  const dealt = [];
  for (let i = 0; i < 8; i++) dealt.push((await dealtDice(counting, "client-seed-42", i, value)).join(""));
  assert.deepEqual(dealt, ["11", "66", "22", "62", "21", "51", "55", "45"]);
  // Throw 8's first byte is 0xfd: rejected, never folded.
  assert.deepEqual(await dealtDice(counting, "client-seed-42", 8, value), [6, 6]);
  // SM-2 as app/drill.cpp: right 1, 3, then interval x ease; wrong: today.
  const card = { id: 1, due: 100, interval: 0, ease: 2.5, reps: 0 };
  const intervals = [true, true, true, false, true].map((right) => reschedule(card, right, 100).interval);
  assert.deepEqual(intervals, [1, 3, 8, 0, 1]);
  assert.equal(card.due, 101);
  assert.ok(Math.abs(card.ease - 2.7) < 1e-9, `ease ${card.ease}`);
  const cards = [{ id: 2, due: 5 }, { id: 1, due: 5 }, { id: 3, due: 3 }, { id: 4, due: 9 }];
  assert.deepEqual(dueCards(cards, 5).map((c) => c.id), [3, 1, 2], "the longest overdue first, then the oldest");
  assert.equal(dayText(parseDay("2026-01-02")), "2026-01-02");
  assert.equal(parseDay("2026-02-30"), null);
  assert.deepEqual(explainTerms([{ term: "blobs_broken", best: 0, play: 1 }, { term: "race_pips", best: 400.2, play: 400.4 }]), [
    "Breaks 1 blob; the best play breaks no blob.",
  ]);
  // With their sizes: each signed, in percent of the chance to win, the largest first.
  assert.deepEqual(explainTerms([
    { term: "exposed", best: 0, play: 2, winChance: -0.0085 },
    { term: "blobs_broken", best: 0, play: 1, winChance: -0.027 },
    { term: "knocked_off", best: 0, play: 1, winChance: 0.124 },
  ]), [
    "Knocks off 1 opposing piece; the best play knocks off no opposing piece: +12%",
    "Breaks 1 blob; the best play breaks no blob: \u22122.7%",
    "Leaves 2 pieces open to a hit next turn; the best play leaves no piece: \u22120.9%",
  ]);
  // The hit chance names the piece most in danger and whose throw it fears.
  assert.deepEqual(explainTerms([{ term: "hit_chance", best: 0, play: 0.5278, winChance: -0.0185, colour: "COLOUR_GREEN", squares: 5 }]), [
    "Leaves a piece 5 squares in front of Green: a 53% chance it is knocked off next turn; the best play, 0%: \u22121.8%",
  ]);
  assert.equal(chanceLost({ winProbability: 0.52 }, { winProbability: 0.46 }), "6.0%");
  assert.equal(chanceLost({ winProbability: 0.46 }, { winProbability: 0.52 }), "0.0%", "never negative");
  step("dice derivation and schedule");
}

const server = await startHttpServer(uckers);
const { url } = server;
const call = connectCaller(url);

// Item i (0-based) of the game's record, as "<throw>:<play>".
async function itemAt(page, i) {
  const record = await page.textContent("#notation");
  return record.split("\n\n")[1].split(/\s+/).filter(Boolean)[i];
}


await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await newContext(browser);
    // 1. Tutor mode and the next throw's map, switched on in Settings; the
    //    hint's explanation; a blunder stopped and rethought, later ones
    //    played anyway; the review explains its marks, which become puzzles.
    const blunders = [];
    {
      const page = await openBoard(context, url);
      await tutorAndMapOn(page);
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: TUTOR_UFEN, seed: "4" });
      // The map of red's first throw: 21 throws whose chances make 1.
      await page.waitForFunction(() => document.querySelectorAll("#throwmap .map-cell").length === 21);
      const probabilities = await page.$$eval("#throwmap .map-cell", (cs) => cs.map((c) => Number(c.dataset.probability)));
      assert.ok(Math.abs(probabilities.reduce((a, b) => a + b, 0) - 1) < 1e-9, `the throws' chances sum to 1: ${probabilities}`);
      assert.equal(probabilities.filter((p) => Math.abs(p - 1 / 36) < 1e-9).length, 6, "six doubles, 1 in 36 each");
      const cells = await page.$$eval("#throwmap .map-cell", (cs) => cs.map((c) => c.textContent));
      for (const text of cells) assert.match(text, /^([1-6])-([1-6])[12]\/36\d{1,3}%$/);
      assert.match(await page.textContent("#throwmap-title"), /^The next throw: Red and Yellow \d+% before it$/);
      await page.hover('#throwmap .map-cell[data-throw="65"]');
      assert.match(await page.textContent("#throwmap-detail"), /^6-5 \(a chance of 2 in 36\): .+; then Red and Yellow \d+%\.$/);
      await checkPlayersText(page, "the throw map");
      await page.screenshot({ path: join(shots, "throw-map.png") });
      step("the next throw's map");

      let rethought = false;
      for (let turn = 0; turn < 30 && blunders.length < 2; turn++) {
        const t = await throwForChoice(page);
        if (!t) continue;
        const { best, worst } = await judgeAll(page, call, t, "navy");
        const before = await items(page);
        if (markRank(worst.mark) < 2) {
          // Nothing bad enough to test here: the best play, never stopped.
          await clickPlay(page, best.play);
          await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
          assert.ok(await page.isHidden("#tutor"), "the best play is not stopped");
          continue;
        }
        if (!rethought) {
          // The thrown cell is lit on the map; a hint explains its choices.
          const thrown = `${Math.max(t.dice.die1, t.dice.die2)}${Math.min(t.dice.die1, t.dice.die2)}`;
          assert.equal(await page.getAttribute("#throwmap .map-cell.thrown", "data-throw"), thrown);
          await page.click("#btn-hint");
          await page.waitForSelector("#hint-out ol > li");
          await page.waitForSelector("#hint-out .why li");
          const hintWhy = await page.$$eval("#hint-out .why li", (ls) => ls.map((l) => l.textContent));
          for (const w of hintWhy) assert.match(w, WHY);
          await checkPlayersText(page, "a hint");
          await page.screenshot({ path: join(shots, "hint-why.png") });
          step(`a hint explained: ${hintWhy[0]}`);
          // The blunder is stopped: its mark, loss and the best play in words.
          await clickPlay(page, worst.play);
          await page.waitForSelector("#tutor:not([hidden])");
          assert.match(await page.textContent("#tutor-verdict"), /^The tutor: that would be a (bad|very bad) play \(\?\??\), giving away \d+(\.\d)?% of the chance to win\.$/);
          assert.match(await page.textContent("#tutor-best"), /^The best play: [a-z].+\.$/);
          assert.ok((await page.locator("#tutor-why li").count()) > 0, "the tutor says why");
          const tutorWhy = await page.$$eval("#tutor-why li", (ls) => ls.map((l) => l.textContent));
          for (const w of tutorWhy) assert.match(w, WHY);
          assert.ok(tutorWhy.some((w) => SIGNED.test(w)), `the tutor's reasons are signed percentages: ${tutorWhy}`);
          assert.equal(await page.locator("#plays button").count(), 0, "no play can be chosen while the tutor asks");
          assert.ok((await page.locator("#board .arrow.best").count()) > 0, "the best play is drawn");
          await checkPlayersText(page, "the tutor");
          await page.screenshot({ path: join(shots, "tutor.png") });
          await page.click("#btn-rethink");
          assert.ok(await page.isHidden("#tutor"));
          assert.equal(await items(page), before, "Rethink: the play is not made");
          assert.equal(await ufen(page), t.ufen);
          await page.waitForSelector(`#plays button[data-play="${best.play}"]`);
          // The player chooses again: a good play goes through.
          await clickPlay(page, best.play);
          await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
          assert.ok(await page.isHidden("#tutor"), "a good play is not stopped");
          assert.equal(await itemAt(page, before), `${t.dice.die1}${t.dice.die2}:${best.play}`, "the good play is made");
          rethought = true;
          step(`a blunder stopped and rethought (${worst.mark}, ${worst.lost.toFixed(3)})`);
          continue;
        }
        // Play anyway: the play is made as chosen.
        await clickPlay(page, worst.play);
        await page.waitForSelector("#tutor:not([hidden])");
        await page.click("#btn-play-anyway");
        await page.waitForFunction((n) => document.querySelectorAll("#history li").length > n, before);
        assert.ok(await page.isHidden("#tutor"));
        assert.equal(await itemAt(page, before), `${t.dice.die1}${t.dice.die2}:${worst.play}`, "the play is made as chosen");
        blunders.push({ index: before + 1, ...worst, ...t });
        step(`a blunder played anyway (${worst.mark}, ${worst.lost.toFixed(3)})`);
      }
      assert.ok(rethought, "a blunder was stopped");
      assert.equal(blunders.length, 2, "two blunders were played anyway");
      // The review at the tutor's level marks them; a mark says why.
      await waitForHumanOrEnd(page);
      await page.selectOption("#review-level", "advanced");
      await page.click("#btn-review");
      await page.waitForFunction(() => /reviewed at Advanced/.test(document.querySelector("#review-status").textContent));
      assert.match(await page.textContent("#review-status"), /\d+ new practice puzzles?\./);
      for (const b of blunders) assert.equal(await page.locator(`#chart .mark[data-item="${b.index}"]`).count(), 1, `blunder ${b.index} marked`);
      await page.click(`#chart .mark[data-item="${blunders[0].index}"]`);
      await page.waitForFunction(() => {
        const li = document.querySelector("#mark-why li");
        return li && !/^Working out why/.test(li.textContent);
      });
      const markWhy = await page.$$eval("#mark-why li", (ls) => ls.map((l) => l.textContent));
      assert.match(markWhy[0], /^The play gave away \d+(\.\d)?% of the chance to win against the best play\.$/);
      for (const w of markWhy.slice(1)) assert.match(w, WHY);
      assert.match(await page.textContent("#link-practice"), /^Practice \(\d+ due\)$/);
      await checkPlayersText(page, "a mark explained");
      step("the review's marks explained");
      await page.close();
    }

    // 2. Practice: the puzzles due; a wrong answer comes back in the session,
    //    a right one tomorrow (the drill's schedule).
    {
      const page = await context.newPage();
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
      pages.push(page);
      const today = new Date().toISOString().slice(0, 10);
      await page.goto(`${url}practice.html?today=${today}`);
      const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("uckers.puzzles")));
      assert.ok(kept.cards.length >= 2, `the blunders are puzzles: ${kept.cards.length}`);
      for (const b of blunders) {
        assert.ok(kept.cards.some((c) => c.ufen === b.ufen && c.played === b.play), `a puzzle of throw ${b.index}`);
      }
      const shown = async () => {
        await page.waitForSelector("#puzzle:not([hidden]) #plays button:enabled");
        return Number(await page.getAttribute("#puzzle", "data-puzzle"));
      };
      const cardOf = (id) => kept.cards.find((c) => c.id === id);
      const missed = await shown();
      assert.match(await page.textContent("#question"), /^(Red|Green|Yellow|Blue) threw \d-\d: what is the best play\?$/);
      await checkPlayersText(page, "a puzzle");
      await page.click(`#plays button[data-play="${cardOf(missed).played}"]`);
      await page.waitForSelector("#verdict:not([hidden])");
      assert.equal(await page.textContent("#verdict-text"), "Wrong.");
      assert.match(await page.textContent("#verdict-next"), /later in this session/);
      assert.ok((await page.locator("#board .arrow.best").count()) > 0, "the best play is drawn");
      await page.screenshot({ path: join(shots, "practice-wrong.png") });
      let back = false;
      for (let n = 0; n < kept.cards.length + 1 && !back; n++) {
        await page.click("#btn-next");
        const id = await shown();
        back = id === missed;
        await page.click(`#plays button[data-play="${cardOf(id).best}"]`);
        await page.waitForSelector("#verdict:not([hidden])");
        assert.equal(await page.textContent("#verdict-text"), "Right.", `puzzle ${id} answered with its best play`);
        assert.match(await page.textContent("#verdict-next"), /^It comes back on \d{4}-\d\d-\d\d\.$/);
      }
      assert.ok(back, "the missed puzzle came back in the session");
      await page.click("#btn-next");
      const total = Math.min(10, kept.cards.length);
      await page.waitForFunction(() => /^Session over/.test(document.querySelector("#practice-status").textContent));
      assert.equal(await page.textContent("#practice-status"), `Session over: ${total} of ${total + 1} answers right. The next puzzle is due on ${dayText(parseDay(today) + 1)}.`);
      const after = await page.evaluate(() => JSON.parse(localStorage.getItem("uckers.puzzles")));
      const again = after.cards.find((c) => c.id === missed);
      assert.deepEqual([again.due - parseDay(today), again.interval, again.reps], [1, 1, 1], "wrong then right: tomorrow");
      assert.ok(Math.abs(again.ease - 2.4) < 1e-9, `ease ${again.ease}`);
      // Nothing due today any more; tomorrow they are back.
      await page.goto(`${url}practice.html?today=${today}`);
      await page.waitForFunction(() => /^No puzzles due today/.test(document.querySelector("#practice-status").textContent));
      await page.goto(`${url}practice.html?today=${dayText(parseDay(today) + 1)}`);
      assert.equal(await shown(), Math.min(...after.cards.map((c) => c.id)));
      step("practice: a missed puzzle brought back");
      await page.close();
    }
    await context.close();

    // 3. Dealt dice: the commitment before the first throw, a game to its
    //    end, the secret revealed and every throw checked by the browser;
    //    the copy kept in the browser, tampered with, fails.
    {
      const dealtContext = await newContext(browser);
      const page = await openBoard(dealtContext, url);
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: NEAR_END_UFEN, dice: "dealt" });
      await page.waitForSelector("#dealt:not([hidden])");
      const commitment = await page.textContent("#dealt-commitment");
      const seed = await page.textContent("#dealt-seed");
      assert.match(commitment, /^[0-9a-f]{64}$/);
      assert.match(seed, /^[0-9a-f]{32}$/);
      assert.equal(await items(page), 0, "the commitment is shown before the first throw");
      await checkPlayersText(page, "a dealt game");
      for (let turn = 0; turn < 200 && !(await resultText(page)); turn++) {
        await waitForHumanOrEnd(page);
        if (await resultText(page)) break;
        await playOneTurn(page);
      }
      assert.match(await resultText(page), /^Game over: /);
      await page.waitForFunction(() => /^Dice (not )?verified/.test(document.querySelector("#dealt-check").textContent), null, { timeout: 20000 });
      const played = await items(page);
      const allThrows = played === 1 ? "the game's one throw follows" : `all ${played} throws follow`;
      const keyId = (await page.textContent("#notation")).match(/\[DealerKey "([0-9a-f]{16})"\]/)?.[1];
      assert.ok(keyId, "the record names the dealer's key");
      assert.equal(await page.textContent("#dealt-check"), `Dice verified: the server's secret is the one it committed to before the first throw, and ${allThrows} from it, the client seed and the client's value for each throw. The server signed the game's record with its key ${keyId}.`);
      assert.equal(await page.textContent("#dealt-commitment"), commitment, "the same commitment");
      const secret = await page.textContent("#dealt-secret");
      assert.equal(createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex"), commitment, "SHA-256 of the secret");
      const notation = await page.textContent("#notation");
      assert.ok(notation.includes(`[Commitment "${commitment}"]`) && notation.includes(`[ClientSeed "${seed}"]`) && notation.includes(`[ServerSecret "${secret}"]`));
      assert.ok(await page.isDisabled("#btn-takeback"), "no take back once the dice are known");
      await page.locator("#dealt").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, "dealt-verified.png") });
      // The record downloaded: `uckers verify` agrees.
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#btn-download")]);
      const record = join(shots, "dealt-record.txt");
      await download.saveAs(record);
      const verify = spawnSync(uckers, ["verify", record], { encoding: "utf8" });
      assert.equal(verify.status, 0, `uckers verify: ${verify.stdout}${verify.stderr}`);
      assert.match(verify.stdout, new RegExp(`^verified: ${played} throws.*signed by dealer key ${keyId}`));
      step(`a dealt game of ${played} throws verified, by the browser and by uckers verify`);
      // A throw of the kept copy changed: that throw fails.
      const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("uckers.dealt")).at(-1).throws);
      const k = kept.length - 1;
      const real = kept[k];
      const fake = real === "11" ? "66" : "11";
      await page.evaluate(([i, t]) => {
        const proofs = JSON.parse(localStorage.getItem("uckers.dealt"));
        proofs.at(-1).throws[i] = t;
        localStorage.setItem("uckers.dealt", JSON.stringify(proofs));
      }, [k, fake]);
      await page.click("#btn-dealt-check");
      await page.waitForFunction(() => /^Dice not verified/.test(document.querySelector("#dealt-check").textContent));
      const dealtText = `${real[0]}-${real[1]}`;
      const dealtReversed = `${real[1]}-${real[0]}`;
      const failed = await page.textContent("#dealt-check");
      assert.ok(
        [dealtText, dealtReversed].some((d) => failed === `Dice not verified: throw ${k + 1} was ${fake[0]}-${fake[1]}, but the secret and the client seed give ${d}.`),
        failed,
      );
      assert.ok(await page.$eval("#dealt-check", (p) => p.classList.contains("error")));
      await page.screenshot({ path: join(shots, "dealt-tampered.png") });
      // A changed secret fails at the commitment.
      await page.evaluate(() => {
        const proofs = JSON.parse(localStorage.getItem("uckers.dealt"));
        proofs.at(-1).secret = proofs.at(-1).secret.replace(/^./, (c) => (c === "0" ? "1" : "0"));
        localStorage.setItem("uckers.dealt", JSON.stringify(proofs));
      });
      await page.click("#btn-dealt-check");
      await page.waitForFunction(() => /commitment/.test(document.querySelector("#dealt-check").textContent));
      assert.equal(await page.textContent("#dealt-check"), "Dice not verified: the secret's SHA-256 is not the commitment.");
      // A changed signature of the kept record fails at the signature.
      await page.evaluate(([i, t]) => {
        const proofs = JSON.parse(localStorage.getItem("uckers.dealt"));
        const p = proofs.at(-1);
        p.throws[i] = t;
        p.secret = p.signed.record.dealerSecret;
        p.signed.record.dealerSignature = p.signed.record.dealerSignature.replace(/^./, (c) => (c === "0" ? "1" : "0"));
        localStorage.setItem("uckers.dealt", JSON.stringify(proofs));
      }, [k, real]);
      await page.click("#btn-dealt-check");
      await page.waitForFunction(() => /signature/.test(document.querySelector("#dealt-check").textContent));
      assert.equal(await page.textContent("#dealt-check"), "Dice not verified: the server's signature of the record does not hold.");
      step("tampered throws, secret and signature caught");
      // The record loaded back is checked from its own headers.
      await page.setInputFiles("#record-file", record);
      // The result line, which the engine's comment on the position shown does not replace.
      await page.waitForFunction(() => /^Loaded/.test(document.querySelector("#result").textContent));
      await page.waitForFunction(() => /^Dice (not )?verified/.test(document.querySelector("#dealt-check").textContent));
      assert.ok((await page.textContent("#dealt-check")).endsWith(`, and ${allThrows} from it, the client seed and the client's value for each throw. The server signed the game's record with its key ${keyId}.`));
      step("the record loaded back verified");
      await dealtContext.close();
    }
    assert.deepEqual(problems, [], "no errors in the page");
    console.log(`web coach: all checks passed in ${seconds()} s; screenshots in ${shots}`);
});
