// The official Connect client for Node (@connectrpc/connect-node) against a
// real `uckers serve --http`: every method of uckers.v1.Engine, unary and
// streaming, an error and a deadline (the
// server answers before it with its best play so far). Message types are built at run time
// from the descriptor set CMake writes (protoc --include_imports).
// usage: node client_test.mjs <uckers binary> <descriptor set>
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { startHttpServer } from "../serve_http.mjs";

const [uckers, descriptors] = process.argv.slice(2);
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(descriptors)));
const service = registry.getService("uckers.v1.Engine");
assert.ok(service, "uckers.v1.Engine is in the descriptor set");

// Starts the server on free ports; resolves with its HTTP port.

const ufen = (text) => ({ kind: { case: "ufen", value: text } });
const start = ufen("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");

async function main() {
  const { child, port } = await startHttpServer(uckers);
  try {
    const transport = createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: "1.1" });
    const client = createClient(service, transport);
    const results = [];
    const check = async (name, fn) => {
      try { await fn(); } catch (e) { throw new Error(`${name}: ${e.message}`, { cause: e }); }
      results.push(name);
    };

    await check("GetEngineInfo", async () => {
      const info = await client.getEngineInfo({});
      assert.equal(info.name, "Uckers");
      assert.ok(info.levels.includes("expert"));
    });
    await check("GetStartPosition", async () => {
      const r = await client.getStartPosition({ rules: "mess" });
      assert.equal(r.rules, "mess");
      assert.match(r.switches, /\+mixie_stack/);
    });
    await check("RollDice", async () => {
      const r = await client.rollDice({ seed: 17n, index: 0, count: 3 });
      assert.equal(r.seed, 17n);
      assert.equal(r.throws.length, 3);
      const again = await client.rollDice({ seed: 17n, index: 2, count: 1 });
      assert.deepEqual([again.throws[0].die1, again.throws[0].die2], [r.throws[2].die1, r.throws[2].die2]);
    });
    await check("ListLegalPlays", async () => {
      const r = await client.listLegalPlays({ position: start, throw: { die1: 6, die2: 6 } });
      assert.deepEqual(r.plays.map((p) => p.play), ["rb-0,r0-6", "rb-0,rb-0"]);
      assert.equal(r.plays[0].effects.moves[0].to, "6");
    });
    await check("ApplyPlay", async () => {
      const r = await client.applyPlay({ position: start, throw: { die1: 6, die2: 3 }, play: "rb-0,r0-3" });
      assert.equal(r.position.ufen, "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
    });
    await check("BestMove", async () => {
      const r = await client.bestMove({ position: start, throw: { die1: 6, die2: 3 }, limits: { depth: 2 } });
      assert.ok(["rb-0,r0-3"].includes(r.play), r.play);
      assert.ok(r.evaluation.winProbability > 0 && r.evaluation.winProbability < 1);
    });
    await check("Evaluate", async () => {
      const r = await client.evaluate({ position: start, limits: { depth: 1 } });
      assert.ok(r.evaluation.winProbability > 0.3);
    });
    await check("Analyse (server stream)", async () => {
      const messages = [];
      for await (const m of client.analyse({ position: start, throw: { die1: 6, die2: 3 }, limits: { depth: 2 } })) {
        messages.push(m);
      }
      assert.ok(messages.length >= 2);
      assert.equal(messages.at(-1).final, true);
    });
    await check("AnalyseGame", async () => {
      const record = { rules: "navy", items: [{ throw: "63", play: "rb-0,r0-3" }, { throw: "52", play: "r3-10" }] };
      const r = await client.analyseGame({ game: { case: "record", value: record }, level: "beginner" });
      assert.equal(r.teams.length, 2);
    });
    await check("an error: invalid_argument", async () => {
      await assert.rejects(client.listLegalPlays({ position: ufen("nonsense"), throw: { die1: 6, die2: 3 } }),
        (e) => e instanceof ConnectError && e.code === Code.InvalidArgument && /position\.ufen/.test(e.message));
    });
    await check("a deadline: the best play found in time", async () => {
      const t0 = Date.now();
      const r = await client.bestMove({ position: start, throw: { die1: 6, die2: 3 }, limits: { depth: 12 } },
        { timeoutMs: 1000 });
      assert.ok(r.play.length > 0);
      assert.ok(Date.now() - t0 < 3000);
    });
    console.log(`connect-node client: ${results.length} checks passed: ${results.join(", ")}`);
  } finally {
    child.kill("SIGTERM");
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
