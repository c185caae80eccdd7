// Every legal play can be made die by die (web/hand.js), without a browser:
//   node hand_steps_test.mjs <path to uckers>
// Games are played at random through the Connect front under rules of
// every kind (entering, doubles, blobs moving whole, split throws, bounce
// back, suck back, stacks, the six-sided board); at each throw, every
// legal play that moves pieces is made the way the board offers it: for
// each order of steps that makes it, the piece's lit square for each step,
// until the steps make up a play. Some order must make exactly that play,
// and the die each step uses must be one of the throw's.

import assert from "node:assert/strict";
import { startHttpServer } from "../serve_http.mjs";
import { Hand, pieceId, isCall } from "../../web/hand.js";
import { CROSS, HEX, place } from "../../web/board.js";
import { connectCaller } from "./board_helpers.mjs";

const uckers = process.argv[2];
if (!uckers) {
  console.error("usage: node hand_steps_test.mjs <uckers>");
  process.exit(2);
}
const server = await startHttpServer(uckers);
const call = connectCaller(server.url);
let plays = 0;
const unreachable = [];
try {
  for (const rules of ["navy", "wafu", "mess", "six", "navy+bounce_back", "navy+split_single_piece", "wafu+mixie_stack+blob_on_blob", "six+solo"]) {
    let pos = (await call("GetStartPosition", { rules })).position;
    let rng = 12345;
    const rand = (n) => {
      rng = (rng * 48271) % 2147483647;
      return rng % n;
    };
    const bounce = /bounce_back/.test(rules);
    for (let t = 0; t < 300; t++) {
      const dice = { die1: 1 + rand(6), die2: 1 + rand(6) };
      const listed = (await call("ListLegalPlays", { position: { ufen: pos.ufen }, throw: dice, rules, structuredPositions: true })).plays || [];
      if (!listed.length) break;
      const geo = pos.structured.colours.length === 6 ? HEX : CROSS;
      for (const p of listed) {
        if (p.play === "-" || isCall(p.play)) continue;
        plays++;
        const seqs = new Hand(listed, pos.structured, dice, geo, bounce).entries.find((e) => e.play === p).seqs;
        const made = seqs.some((seq) => {
          const hand = new Hand(listed, pos.structured, dice, geo, bounce);
          for (const st of seq) {
            const t = hand.targets(pieceId(st.c, st.from)).get(place(st.c, st.to, 0, geo).key);
            if (!t) return false;
            assert.ok(t.step.dice.every((v) => v === dice.die1 || v === dice.die2), `${p.play}: a step by a die of the throw`);
            hand.choose(t.step);
            const done = hand.complete();
            if (done && !done.more) break;
          }
          return hand.complete()?.play === p;
        });
        if (!made) unreachable.push(`${rules} ${pos.ufen} ${dice.die1}-${dice.die2}: ${p.play}`);
      }
      const pick = listed[rand(listed.length)];
      pos = pick.effects?.result?.finished ? (await call("GetStartPosition", { rules })).position : pick.positionAfter;
    }
  }
  assert.deepEqual(unreachable, [], "every legal play can be made die by die");
  assert.ok(plays > 3000, `enough plays tried (${plays})`);
  console.log(`hand steps: all ${plays} plays made die by die`);
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  server.child.kill("SIGTERM");
}
