// The guided first game teaches each rule once, as it first comes up, in
// Debian's chromium (playwright-core) against a real `uckers serve --http`.
// Run by ctest as
//   node guide_test.mjs <path to uckers> <screenshot folder>
// 1. The guided first game (Red and Yellow by clicks, the engine at
//    beginner; its dice seed fixed by the test) played to its end: at each
//    decision of a person, every rule that has come up so far (entering on
//    a six, a knock-off, a blob, the home lane, a release to throw for the
//    partner, a challenge: the plays the engine lists, the plays made) has
//    had its message, a rule the plays offer for the first time has it on
//    the screen then, and no rule's message came before the rule; no
//    message is shown twice; a challenge's message gives the sixes
//    RULES.md §6 asks (the blob's pieces and one more, two more from base).
// 2. A second game shows no guide; with the guide switched on in Settings,
//    a game of a challenge from the track, one from base and one of WAFU
//    with suck back say each with the right count.

import assert from "node:assert/strict";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startHttpServer } from "../serve_http.mjs";
import { inChromium,
  testArguments, problems, step, openBoard, newContext, newGame, dumpPages, connectCaller, playOneTurn, resultText,
  waitForHumanOrEnd, items, seedWhere, turnOf,
} from "./board_helpers.mjs";

const { uckers, shots, chromiumPath } = testArguments("guide_test.mjs");
const server = await startHttpServer(uckers);
const { url } = server;
const call = connectCaller(url);

// The messages of the game: what does not teach a rule of its own.
const STEPS = new Set(["throw", "engine", "choose", "pass", "over", "challenging"]);

// The pieces of a UFEN: each colour's squares.
const squaresOf = (u) => u.split(" ")[0].split("/").map((c) => c.split(","));

// RULES.md §6: the sixes a challenge play needs, from the position: the
// blob's pieces on the square ahead of the challenger (its doorstep from
// base), and one more, two more from base.
function sixesNeeded(u, play) {
  const m = play.match(/^x([rgyb])(b|\d+)$/);
  const c = "rgyb".indexOf(m[1]);
  const ahead = m[2] === "b" ? 0 : Number(m[2]) + 1;
  const abs = (13 * c + ahead) % 52;
  let blob = 0;
  squaresOf(u).forEach((sq, d) => {
    if (d === c) return;
    for (const s of sq) if (/^\d+$/.test(s) && Number(s) <= 50 && (13 * d + Number(s)) % 52 === abs) blob++;
  });
  return { blob, need: blob + (m[2] === "b" ? 2 : 1) };
}

// The rules a play brings up (the engine's play and its effects).
function rulesOf(p) {
  const keys = new Set();
  const moves = /^[xsw-]/.test(p.play) ? [] : p.play.split(",").map((m) => m.match(/^[a-z](b|h|\d+)-(b|h|\d+)$/));
  if (moves.some((m) => m[1] === "b")) keys.add("enter");
  if ((p.effects?.knockedOff || []).length && !/^[sw]/.test(p.play)) keys.add("knock");
  if ((p.effects?.blobsFormed || []).some((b) => !b.mixie)) keys.add("blob");
  if (moves.some((m) => m[2] === "h" || Number(m[2]) > 50)) keys.add("lane");
  if (/^x/.test(p.play)) keys.add("challenge");
  if (/^[sw]/.test(p.play)) keys.add("suck");
  return keys;
}

// The rules the move list shows have come up (any colour's plays).
function rulesOfHistory(texts) {
  const keys = new Set();
  for (const t of texts) {
    if (/knocking off|knocked off/.test(t)) keys.add("knock");
    if (/making a blob/.test(t)) keys.add("blob");
    if (/into the home lane|\d home\b/.test(t)) keys.add("lane");
    if (/is released|All four \w+ pieces are home/.test(t)) keys.add("partner");
    if (/ and challenges: /.test(t)) keys.add("challenge");
    if (/enters/.test(t)) keys.add("enter");
  }
  return keys;
}

// Every message the guide shows, as it changes.
async function watchGuide(page) {
  await page.evaluate(() => {
    window.guideLog = [];
    const box = document.querySelector("#guide-text");
    const note = () => {
      const shown = [...box.querySelectorAll("[data-lesson]")].map((p) => ({ key: p.dataset.lesson, text: p.textContent }));
      if (shown.length) window.guideLog.push({ shown, items: document.querySelectorAll("#history li").length, visible: !document.querySelector("#guide").hidden });
    };
    new MutationObserver(note).observe(box, { childList: true, subtree: true, characterData: true });
    note();
  });
}
const guideLog = (page) => page.evaluate(() => window.guideLog);
const shownNow = (page) => page.$$eval("#guide-text [data-lesson]", (ps) => ps.map((p) => ({ key: p.dataset.lesson, text: p.textContent })));

// A challenge's message: its counts against RULES.md and the play's words.
function checkChallengeWords(text, u, play, listed) {
  const { blob, need } = sixesNeeded(u, play);
  const m = text.match(/blob of (\d+) needs (\d+) sixes \((from base, )?the blob's pieces and (one|two) more\)/);
  assert.ok(m, `the challenge's message gives its counts: '${text}'`);
  assert.equal(Number(m[1]), blob, "the blob's pieces");
  assert.equal(Number(m[2]), need, `the sixes needed (RULES.md §6): ${text}`);
  assert.equal(m[4], play.includes("b") && /^x[rgyb]b$/.test(play) ? "two" : "one");
  if (listed) assert.match(listed, new RegExp(`needs ${need} sixes`), "the same count as the play's words");
  return need;
}

await inChromium(chromiumPath, shots, server, async (browser) => {
    const context = await newContext(browser);
    const page = await openBoard(context, url);
    // The guided game's dice from a fixed seed, so the test plays one game.
    await page.route("**/uckers.v1.Engine/RollDice", (route) => {
      const body = JSON.parse(route.request().postData());
      if (body.seed === "0") body.seed = process.env.GUIDE_SEED || "3";
      route.continue({ postData: JSON.stringify(body) });
    });

    // 1. The guided first game to its end.
    await watchGuide(page);
    await page.click("#btn-guided");
    await page.waitForSelector("#guide:not([hidden])");
    const occurred = new Set();
    let decisions = 0;
    let challengeSeen = 0;
    for (let turn = 0; turn < 1500; turn++) {
      await waitForHumanOrEnd(page, 120000);
      if (await resultText(page)) break;
      const history = await page.$$eval("#history li", (ls) => ls.map((l) => l.textContent));
      for (const k of rulesOfHistory(history)) occurred.add(k);
      const before = await items(page);
      if (await page.isEnabled("#btn-throw")) await page.keyboard.press("t");
      await page.waitForFunction((n) => document.querySelector("#plays button") || document.querySelectorAll("#history li").length > n || document.querySelector("#result").textContent, before);
      if ((await page.locator("#plays button").count()) > 1) {
        decisions++;
        const t = await turnOf(page);
        const { plays } = await call("ListLegalPlays", { position: { ufen: t.ufen }, throw: t.dice, rules: "navy", players: 0 });
        const offered = new Set();
        for (const p of plays) for (const k of rulesOf(p)) offered.add(k);
        const fresh = [...offered].filter((k) => !occurred.has(k));
        for (const k of offered) occurred.add(k);
        const log = await guideLog(page);
        const seen = new Set(log.flatMap((e) => e.shown.map((l) => l.key)));
        const now = await shownNow(page);
        for (const k of occurred) assert.ok(seen.has(k), `decision ${decisions}: the rule '${k}' has come up, and its message was shown (seen: ${[...seen]})`);
        for (const k of fresh) assert.ok(now.some((l) => l.key === k), `decision ${decisions}: '${k}' comes up first now and is on the screen (${now.map((l) => l.key)})`);
        for (const k of seen) assert.ok(STEPS.has(k) || occurred.has(k), `decision ${decisions}: no message before its rule ('${k}')`);
        if (fresh.includes("challenge")) {
          const x = plays.find((p) => p.play.startsWith("x"));
          const listed = await page.textContent(`#plays button[data-play="${x.play}"]`);
          const text = now.find((l) => l.key === "challenge").text;
          challengeSeen = checkChallengeWords(text, t.ufen, x.play, listed);
          await page.screenshot({ path: join(shots, "guide-challenge.png") });
        }
        if (fresh.length) step(`decision ${decisions}: ${fresh.join(", ")} taught as it came up`);
        // A challenge the engine made first: its message's counts are those
        // of RULES.md §6 and of the move list's words for it.
        const taught = log.flatMap((e) => e.shown).find((l) => l.key === "challenge");
        if (taught && !challengeSeen) {
          const m = taught.text.match(/blob of (\d+) needs (\d+) sixes \((from base, )?the blob's pieces and (one|two) more\)/);
          assert.ok(m, `the challenge's message gives its counts: '${taught.text}'`);
          assert.equal(Number(m[2]), Number(m[1]) + (m[3] ? 2 : 1), `the sixes of RULES.md §6: ${taught.text}`);
          const made = history.find((h) => / and challenges: /.test(h));
          assert.ok(made, "the challenge made is in the move list");
          assert.match(made, new RegExp(`needs ${m[2]} sixes`), "the same count as the move list's");
          challengeSeen = Number(m[2]);
          step(`decision ${decisions}: an engine's challenge taught: ${taught.text}`);
        }
      }
      if (await resultText(page)) break;
      await playOneTurn(page);
    }
    assert.match(await resultText(page), /^Game over/, "the guided game is played to its end");
    await page.waitForFunction(() => document.querySelector("#guide-text [data-lesson=over]"));
    const log = await guideLog(page);
    const keys = log.flatMap((e) => e.shown.map((l) => l.key));
    const texts = log.flatMap((e) => e.shown.map((l) => l.text));
    // A message stays until the next: each change shows messages never shown before.
    assert.equal(new Set(keys).size, keys.length, `no message shown twice: ${keys.join(", ")}`);
    assert.equal(new Set(texts).size, texts.length, "no text shown twice");
    for (const k of ["throw", "enter", "choose", "engine", "over"]) assert.ok(keys.includes(k), `the guided game taught '${k}'`);
    for (const k of occurred) assert.ok(keys.includes(k), `the rule '${k}' came up and was taught`);
    await page.screenshot({ path: join(shots, "guide-over.png") });
    step(`guided game over after ${decisions} decisions: ${keys.join(", ")}${challengeSeen ? ` (a challenge: ${challengeSeen} sixes)` : ""}`);

    // 2. A second game: no guide, unless switched on.
    await newGame(page, { seats: ["person", "beginner", "person", "beginner"], seed: "4" });
    for (let turn = 0; turn < 6; turn++) {
      assert.ok(await page.isHidden("#guide"), "a later game shows no guide");
      await waitForHumanOrEnd(page);
      await playOneTurn(page);
    }
    assert.ok(await page.isHidden("#guide"), "a later game shows no guide");
    step("a later game: no guide");
    await page.click("#btn-settings");
    await page.check("#set-guide");
    await page.click("#settings-close");
    const CHALLENGES = [
      { name: "from the track", ufen: "10,b,b,b/b,b,b,b/b,b,b,b/b,b,24,24 r -", play: "xr10", need: 3 },
      { name: "from base", ufen: "b,b,b,b/b,b,b,b/b,b,b,b/b,b,13,13 r -", play: "xrb", need: 4 },
    ];
    for (const ch of CHALLENGES) {
      const { seed } = await seedWhere(call, ch.ufen, "navy", (ps) => ps.some((p) => p.play === ch.play));
      await newGame(page, { seats: ["person", "beginner", "person", "beginner"], ufen: ch.ufen, seed });
      await page.waitForSelector("#guide:not([hidden])");
      await waitForHumanOrEnd(page);
      await page.click("#btn-throw");
      await page.waitForSelector(`#plays button[data-play="${ch.play}"]`);
      await page.waitForSelector("#guide-text [data-lesson=challenge]");
      const text = await page.textContent("#guide-text [data-lesson=challenge]");
      const listed = await page.textContent(`#plays button[data-play="${ch.play}"]`);
      assert.equal(checkChallengeWords(text, ch.ufen, ch.play, listed), ch.need, `a challenge ${ch.name}`);
      step(`the guide switched on: a challenge ${ch.name} needs ${ch.need} sixes`);
    }
    await newGame(page, { seats: ["person", "beginner", "person", "beginner"], rules: "wafu", ufen: "b,b,b,11/b,b,b,52/b,b,b,b/b,b,b,b r -", seed: "3" });
    await waitForHumanOrEnd(page);
    await page.click("#btn-throw");
    await page.waitForSelector('#plays button[data-play="sg52"]');
    await page.waitForSelector("#guide-text [data-lesson=suck]");
    assert.match(await page.textContent("#guide-text [data-lesson=suck]"), /^Suck back: .*either die or their sum/);
    await page.screenshot({ path: join(shots, "guide-suck-back.png") });
    step("the guide switched on: suck back");
    assert.deepEqual(problems, [], "no errors in the page");
    console.log("the guide: all checks passed");
});
