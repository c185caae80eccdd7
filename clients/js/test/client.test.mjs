// The client against a live `uckers serve --http`: every method of
// uckers.v1.Engine through the generated service, the helpers, the errors.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Code, ConnectError, createEngineClient, dealtThrow, position, toThrow } from "../src/index.js";
import { startServer } from "./serve.mjs";

const MID = "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -";
let server, engine, rpc;

before(async () => {
  server = await startServer();
  engine = createEngineClient(createConnectTransport({ baseUrl: server.baseUrl, httpVersion: "1.1" }));
  rpc = engine.rpc;
});
after(() => server.child.kill("SIGTERM"));

test("GetEngineInfo", async () => {
  const info = await rpc.getEngineInfo({});
  assert.equal(info.name, "Uckers");
  assert.ok(info.levels.includes("expert"));
});

test("GetStartPosition, through startGame", async () => {
  const game = await engine.startGame("mess");
  assert.equal(game.rules, "mess");
  assert.match(game.switches, /\+mixie_stack/);
  assert.equal(game.ufen, "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb");
});

test("ListLegalPlays and ApplyPlay", async () => {
  const plays = await engine.legalPlays("startpos", [6, 6]);
  assert.deepEqual(plays.map((p) => p.play), ["rb-0,r0-6", "rb-0,rb-0"]);
  const applied = await engine.applyPlay("startpos", "63", "rb-0,r0-3");
  assert.equal(applied.ufen, "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
  assert.equal(applied.finished, false);
});

test("BestMove with a level, in five lines as the README", async () => {
  const best = await engine.bestMove("startpos", [6, 3], { level: "expert" });
  assert.equal(best.play, "rb-0,r0-3");
  assert.ok(best.winProbability > 0.4 && best.winProbability < 0.7);
});

test("Evaluate per throw", async () => {
  const r = await rpc.evaluate({ position: position(MID), perThrow: true, options: { level: "expert" } });
  assert.equal(r.perThrow.length, 21);
  assert.equal(r.perThrow.reduce((s, t) => s + t.weight, 0), 36);
});

test("Analyse streams to one final message", async () => {
  const messages = [];
  for await (const m of rpc.analyse({ position: position(MID), throw: toThrow([6, 3]), limits: { depth: 2 } })) messages.push(m);
  assert.equal(messages.filter((m) => m.final).length, 1);
  assert.ok(messages.at(-1).final && messages.at(-1).bestPlay);
});

test("RollDice", async () => {
  const r = await rpc.rollDice({ seed: 17n, index: 0, count: 3 });
  assert.equal(r.throws.length, 3);
});

test("JudgePlay, through judgePlay, and ThrowMap", async () => {
  const plays = await engine.legalPlays(MID, [6, 3]);
  const judged = await engine.judgePlay(MID, [6, 3], plays.at(-1).play, { level: "casual" });
  assert.ok(["none", "doubtful", "bad", "verybad"].includes(judged.mark));
  assert.ok(judged.equityLost >= 0);
  const map = await rpc.throwMap({ position: position(MID), level: "casual" });
  assert.equal(map.throws.length, 21);
});

test("A dealt game to its end, verified by the client; AnalyseGame of it", async () => {
  const seed = "js-client-test";
  const dealt = await engine.dealtGame(seed);
  assert.match(dealt.commitment, /^[0-9a-f]{64}$/);
  let ufen = "startpos", items = [], result, last = "";
  for (let i = 0; i < 5000 && !result; i++) {
    const dice = await dealt.throwAt(i, last);
    const plays = await engine.legalPlays(ufen, dice);
    const applied = await engine.applyPlay(ufen, dice, plays[0].play);
    items.push(`${dice.die1}${dice.die2}:${applied.play}`);
    last = applied.play;
    ufen = applied.ufen;
    if (applied.finished) result = applied.result;
  }
  assert.ok(result, "the game ended");
  const team = result.winner === 1 ? "RY" : "GB";
  const text = `[Rules "navy"]\n[Result "${team} ${result.points}"]\n\n${items.join(" ")}\n`;
  const revealed = await dealt.reveal(last, text);
  assert.equal(revealed.verifiedThrows, items.length);
  assert.equal(revealed.record.dealerCommitment, dealt.commitment);
  const again = await dealtThrow(revealed.secret, seed, 0, revealed.record.clientValues[0]);
  assert.equal(`${again.die1}${again.die2}`.split("").sort().join(), items[0].slice(0, 2).split("").sort().join());
  const review = await rpc.analyseGame({ game: { case: "recordText", value: text }, level: "beginner" });
  assert.ok(review.items.length > 0);
});

test("errors name the field, with Connect's code", async () => {
  await assert.rejects(engine.bestMove(MID, [9, 3]), (e) =>
    e instanceof ConnectError && e.code === Code.InvalidArgument && /throw\.die1/.test(e.message));
  await assert.rejects(rpc.revealDealtGame({ token: "x", game: { case: "recordText", value: "" } }),
    (e) => e instanceof ConnectError && e.code === Code.InvalidArgument);
  assert.throws(() => toThrow("6x"), TypeError);
  assert.throws(() => position(""), TypeError);
});

test("A dealt game is bound once, dealt in order, and not revealed before its end", async () => {
  const { token } = await rpc.startDealtGame({});
  const value = "00112233445566778899aabbccddeeff";
  await assert.rejects(rpc.dealThrow({ token, index: 0n, clientValue: value }),
    (e) => e instanceof ConnectError && e.code === Code.FailedPrecondition, "not bound yet");
  await rpc.bindDealtGame({ token, clientSeed: "s" });
  await assert.rejects(rpc.bindDealtGame({ token, clientSeed: "t" }),
    (e) => e instanceof ConnectError, "bound once");
  const dice = (await rpc.dealThrow({ token, index: 0n, clientValue: value })).throw;
  await assert.rejects(rpc.dealThrow({ token, clientSeed: "s", index: 1n, clientValue: value }),
    (e) => e instanceof ConnectError && e.code === Code.InvalidArgument, "no seed after the bind");
  const [first] = await engine.legalPlays("startpos", dice);
  await assert.rejects(rpc.revealDealtGame({ token, play: first.play,
    game: { case: "recordText", value: `[Rules "navy"]\n\n${dice.die1}${dice.die2}:${first.play}\n` } }),
  (e) => e instanceof ConnectError && e.code === Code.FailedPrecondition, "not over");
});
