// A typed client of uckers.v1.Engine over Connect (`uckers serve --http`),
// for the browser and Node: the generated service (gen/uckers/v1/engine_pb.js,
// @bufbuild/protoc-gen-es) through @connectrpc/connect, and a small layer
// over it for a front-end: a game's start, a best move at a level, a play
// judged, and a dealt game whose dice the client checks itself.
//
//   import { createEngineClient } from "@uckers/client";
//   import { createConnectTransport } from "@connectrpc/connect-web"; // or connect-node
//   const engine = createEngineClient(createConnectTransport({ baseUrl: "http://127.0.0.1:8080" }));
//   console.log((await engine.bestMove("startpos", [6, 3])).play);
import { createClient } from "@connectrpc/connect";
import { Engine } from "../gen/uckers/v1/engine_pb.js";

export { Engine };
export { Code, ConnectError } from "@connectrpc/connect";

const START = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";

/** A request's Position from a UFEN ("startpos": the navy start). */
export function position(ufen) {
  if (typeof ufen !== "string" || ufen.trim() === "") {
    throw new TypeError(`position: expected a UFEN string or "startpos", not ${JSON.stringify(ufen)}`);
  }
  return { kind: { case: "ufen", value: ufen === "startpos" ? START : ufen } };
}

/** A Throw from [6, 3], "63" or { die1, die2 }; the server checks the range. */
export function toThrow(dice) {
  if (typeof dice === "string") {
    if (!/^\d\d$/.test(dice)) throw new TypeError(`throw: ${JSON.stringify(dice)} is not two digits such as "63"`);
    return { die1: Number(dice[0]), die2: Number(dice[1]) };
  }
  if (Array.isArray(dice) && dice.length === 2 && dice.every(Number.isInteger)) {
    return { die1: dice[0], die2: dice[1] };
  }
  if (dice && Number.isInteger(dice.die1) && Number.isInteger(dice.die2)) {
    return { die1: dice.die1, die2: dice.die2 };
  }
  throw new TypeError(`throw: expected [die1, die2], "63" or { die1, die2 }, not ${JSON.stringify(dice)}`);
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  if (!/^([0-9a-f]{2})+$/i.test(text)) throw new TypeError(`not hex: ${JSON.stringify(text)}`);
  return Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16));
}

/**
 * Throw `index` of a dealt game recomputed from its revealed secret (hex),
 * the client's seed and the throw's client value (hex), as docs/records.md
 * derives it: HMAC-SHA256(secret, seed ‖ index as 8 bytes big-endian ‖ the
 * value's 16 bytes), bytes of 252 or more skipped, each other byte b a die
 * 1 + b mod 6 (further blocks with a 4-byte big-endian counter appended).
 */
export async function dealtThrow(secretHex, clientSeed, index, clientValueHex) {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey("raw", fromHex(secretHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const seed = new TextEncoder().encode(clientSeed);
  const value = fromHex(clientValueHex);
  if (value.length !== 16) throw new TypeError("a client value is 16 bytes (32 hex digits)");
  const dice = [];
  for (let block = 0; dice.length < 2; block++) {
    const message = new Uint8Array(seed.length + 8 + 16 + (block ? 4 : 0));
    message.set(seed);
    const view = new DataView(message.buffer);
    view.setBigUint64(seed.length, BigInt(index));
    message.set(value, seed.length + 8);
    if (block) view.setUint32(seed.length + 24, block);
    for (const b of new Uint8Array(await subtle.sign("HMAC", key, message))) {
      if (b < 252 && dice.length < 2) dice.push(1 + (b % 6));
    }
  }
  return { die1: dice[0], die2: dice[1] };
}

/**
 * The engine's client: every method of uckers.v1.Engine as generated
 * (`engine.rpc.bestMove({...})`, each taking the request message and
 * Connect's call options), and the helpers below.
 */
export function createEngineClient(transport) {
  const rpc = createClient(Engine, transport);
  return {
    rpc,

    /** The start position of `rules` (empty: navy): { ufen, rules, switches, result }. */
    async startGame(rules = "") {
      const r = await rpc.getStartPosition({ rules });
      return { ufen: r.position.ufen, rules: r.rules, switches: r.switches, result: r.result };
    },

    /** The best play for a throw at a level ("" the default), within movetimeMs when given. */
    async bestMove(ufen, dice, { level = "", movetimeMs = 0, depth = 0, rules = "", multipv = 0, signal, timeoutMs } = {}) {
      const r = await rpc.bestMove(
        { position: position(ufen), throw: toThrow(dice), rules, limits: { movetimeMs, depth }, options: { level, multipv } },
        { signal, timeoutMs });
      return { play: r.play, ufenAfter: r.positionAfter?.ufen ?? "", winProbability: r.evaluation?.winProbability ?? 0, response: r };
    },

    /** Every legal play for a throw: [{ play, ufen }], empty when the game is over. */
    async legalPlays(ufen, dice, { rules = "" } = {}) {
      const r = await rpc.listLegalPlays({ position: position(ufen), throw: toThrow(dice), rules });
      return r.plays.map((p) => ({ play: p.play, ufen: p.positionAfter?.ufen ?? "", effects: p.effects }));
    },

    /** Applies a play: { play, ufen, finished, result }. */
    async applyPlay(ufen, dice, play, { rules = "" } = {}) {
      const r = await rpc.applyPlay({ position: position(ufen), throw: toThrow(dice), play, rules });
      return { play: r.play, ufen: r.position.ufen, finished: r.result?.finished ?? false, result: r.result };
    },

    /** The tutor's verdict on a play: { mark, equityLost, bestPlay, response }. */
    async judgePlay(ufen, dice, play, { level = "", rules = "" } = {}) {
      const r = await rpc.judgePlay({ position: position(ufen), throw: toThrow(dice), play, rules, level });
      const marks = ["none", "doubtful", "bad", "verybad"];
      return { mark: marks[r.mark] ?? String(r.mark), equityLost: r.equityLost, bestPlay: r.bestPlay, response: r };
    },

    /**
     * A dealt game bound to `clientSeed` (and `rules`, from their start):
     * { commitment, throwAt(index, play), reveal(play, recordText) }.
     * `throwAt` asks for the next throw with a fresh client value, giving
     * the play made with the throw before it (empty for the first);
     * `reveal` gives the play of the last throw, which must end the game,
     * and checks the answer here: SHA-256 of the secret must be the
     * commitment given first and every dealt throw must recompute from it
     * and its client value; else it throws.
     */
    async dealtGame(clientSeed, { rules = "" } = {}) {
      const { commitment, token } = await rpc.startDealtGame({});
      await rpc.bindDealtGame({ token, clientSeed, rules });
      const dealt = [];
      return {
        commitment,
        async throwAt(index, play = "") {
          const clientValue = hex(globalThis.crypto.getRandomValues(new Uint8Array(16)));
          const r = await rpc.dealThrow({ token, index: BigInt(index), clientValue, play });
          dealt[index] = { die1: r.throw.die1, die2: r.throw.die2, clientValue };
          return { die1: r.throw.die1, die2: r.throw.die2 };
        },
        async reveal(play = "", recordText = "") {
          const game = recordText ? { case: "recordText", value: recordText } : { case: undefined };
          const r = await rpc.revealDealtGame({ token, play, game });
          const digest = hex(await globalThis.crypto.subtle.digest("SHA-256", fromHex(r.secret)));
          if (digest !== commitment) throw new Error(`dealt game: SHA-256 of the secret is ${digest}, not the commitment ${commitment}`);
          for (let i = 0; i < dealt.length; i++) {
            if (!dealt[i]) continue;
            const again = await dealtThrow(r.secret, clientSeed, i, dealt[i].clientValue);
            const same = [again.die1, again.die2].sort().join() === [dealt[i].die1, dealt[i].die2].sort().join();
            if (!same) throw new Error(`dealt game: throw ${i} was ${dealt[i].die1}${dealt[i].die2}, the secret gives ${again.die1}${again.die2}`);
          }
          return { secret: r.secret, record: r.record, verifiedThrows: dealt.filter(Boolean).length };
        },
      };
    },
  };
}
