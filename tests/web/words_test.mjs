// The board's words (web/words.js) for each rule a player must hear told
// (RULES.md §6, §7, §9: challenges, throwing for the partner, snake eyes,
// suck back and blow back, a mixie stack's top piece), from the engine's
// real answers: a `uckers serve --http` is started and asked for the legal
// plays and what each does. Run by ctest as
//   node words_test.mjs <path to uckers>

import assert from "node:assert/strict";
import { startHttpServer } from "../serve_http.mjs";
import { choiceText, playText } from "../../web/words.js";

const [uckers] = process.argv.slice(2);
if (!uckers) {
  console.error("usage: node words_test.mjs <uckers>");
  process.exit(2);
}
const server = await startHttpServer(uckers);
const call = async (method, body) => {
  const res = await fetch(`http://127.0.0.1:${server.port}/uckers.v1.Engine/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
};

// The choice and the sentence for one play of a throw in a position.
async function told(rules, ufen, [d1, d2], play) {
  const start = await call("GetStartPosition", { rules, position: { ufen } });
  assert.ok(start.position, `${ufen} under ${rules}: ${JSON.stringify(start)}`);
  const dice = { die1: d1, die2: d2 };
  const listed = await call("ListLegalPlays", { position: { ufen }, throw: dice, rules });
  const legal = listed.plays.find((p) => p.play === play);
  assert.ok(legal, `${play} is legal in ${ufen} with ${d1}${d2}: ${listed.plays.map((p) => p.play)}`);
  const applied = await call("ApplyPlay", { position: { ufen }, throw: dice, play, rules });
  const mover = "rgyb".indexOf(ufen.split(" ")[1]);
  const before = start.position.structured;
  return {
    choice: choiceText(play, before, mover, mover, legal.effects),
    said: playText({ play: applied.play, dice, mover, effects: applied.effects, before, after: applied.position.structured }),
  };
}

const cases = [
  // §6: a challenge, declared, counted, won and failed.
  ["navy", "10,b,b,b/b,b,b,b/b,b,b,b/b,b,24,24 r -", [4, 6], "xr10",
    "Challenge the Blue blob on 11 (needs 3 sixes)",
    "Red throws 4-6 and challenges: the Blue blob on 11 (needs 3 sixes); 1 of 3 so far."],
  ["navy", "10,b,b,b/b,b,b,b/b,b,b,b/b,b,24,24 r c10:1", [6, 2], "-", null,
    "Red throws 6-2: 2 of 3 sixes. The challenge goes on."],
  ["navy", "10,b,b,b/b,b,b,b/b,b,b,b/b,b,24,24 r c10:2", [6, 3], "-", null,
    "Red throws 6-3: 3 of 3 sixes! The challenge is won: 2 Blue pieces knocked off, and the challenger takes the square."],
  ["navy", "10,b,b,b/b,b,b,b/b,b,b,b/b,b,24,24 r c10:2", [5, 3], "-", null,
    "Red throws 5-3: no six. Challenge failed."],
  // §7: released by a six, then throwing for the partner.
  ["navy", "h,h,h,h/b,b,b,b/b,b,20,30/b,b,b,b r -", [6, 2], "-", null,
    "Red throws 6-2: a six! Red is released and from now on throws for its partner."],
  ["navy", "h,h,h,h/b,b,b,b/b,b,20,30/b,b,b,b r -", [5, 2], "-", null,
    "Red throws 5-2: no six, so Red is not released yet."],
  ["navy", "h,h,h,h/b,b,b,b/b,b,20,30/b,b,b,b r pr", [5, 2], "y20-27",
    "Moves a Yellow piece on 20 forward 7",
    "Red throws 5-2 for Yellow and moves a piece on 20 forward 7."],
  // §4: entering and moving on, a knock-off.
  ["navy", "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", [6, 3], "rb-0,r0-3",
    "Enters a piece and moves it 3",
    "Red throws 6-3 and enters a piece and moves it 3."],
  ["navy", "b,b,b,5/b,b,b,b/b,b,b,b/b,b,b,22 r -", [3, 1], "r5-9",
    "Moves a piece on 5 forward 4, knocking off a Blue piece",
    "Red throws 3-1 and moves a piece on 5 forward 4, knocking off a Blue piece."],
  // §9 snake eyes: the first 1-1, then a second.
  ["wafu", "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb", [1, 1], "-", null,
    "Red throws 1-1: snake eyes! Every Red piece in base comes out onto its doorstep. Another 1-1 next time sends them all back."],
  ["wafu", "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b r Sr", [1, 1], "-", null,
    "Red throws 1-1: snake eyes again! Every Red piece not home goes back to base."],
  // §9 suck back and blow back.
  ["wafu", "b,b,b,11/b,b,b,52/b,b,b,b/b,b,b,b r -", [2, 3], "sg52",
    "Try suck back on the Green piece 2 up its lane (needs a 2, on either die or both)",
    "Red throws 2-3 for suck back on the Green lane piece: a hit! It goes back to base and Red's piece moves on one."],
  ["wafu", "b,b,b,11/b,b,b,52/b,b,b,b/b,b,b,b r -", [4, 3], "sg52", null,
    "Red throws 4-3 for suck back on the Green lane piece: a miss."],
  ["wafu", "b,b,b,11/b,b,b,52/b,b,b,b/b,b,b,b g -", [2, 4], "wg52",
    "Try blow back from the Green piece 2 up its lane (needs a 2, on either die or both)",
    "Green throws 2-4 for blow back from its lane: a hit! The Red piece in line goes back to base."],
  // §9 mixie stack: only the top piece moves.
  ["mess", "b,b,b,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:yr", [3, 1], "r10-14",
    "Moves the top piece (Red) of the stack on 10 forward 4",
    "Red throws 3-1 and moves the top piece (Red) of the stack on 10 forward 4."],
];

let failed = 0;
try {
  for (const [rules, ufen, dice, play, choice, said] of cases) {
    try {
      const got = await told(rules, ufen, dice, play);
      if (choice) assert.equal(got.choice, choice);
      assert.equal(got.said, said);
    } catch (e) {
      failed++;
      console.error(`${rules} ${ufen} ${dice.join("")}:${play}\n  ${e.message}`);
    }
  }
} finally {
  server.child.kill("SIGTERM");
}
if (failed) {
  console.error(`${failed} of ${cases.length} plays told wrongly`);
  process.exit(1);
}
console.log(`words: all ${cases.length} plays told as a player hears them`);
