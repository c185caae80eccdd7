// Dealt dice checked in the browser (docs/records.md, "Dealt dice"; the
// server's side is dealer/dealer.cpp). The server commits to a 32-byte
// secret (its SHA-256) before the first throw; throw i is
// HMAC-SHA256(secret, client seed ‖ i as 8 bytes big-endian ‖ the 16 bytes
// of client value i), its bytes read in order, each byte below 252 a die
// (1 + byte mod 6), until there are two; should a block run out, the next
// comes from the same HMAC with a 4-byte big-endian block counter 1, 2, ...
// appended. Hex is lower-case only, as `uckers verify` reads it. Every hash
// and HMAC here is WebCrypto's (crypto.subtle); nothing is computed by hand.
// The game itself is replayed by the engine that loaded it, not here: a
// check says "verified" only of a game whose result the board saw.

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

// Exactly `size` bytes of lower-case hex.
function fromHex(text, size, what) {
  if (typeof text !== "string" || text.length !== 2 * size) {
    throw new Error(`${what} is not ${2 * size} hex digits`);
  }
  if (!/^[0-9a-f]*$/.test(text)) throw new Error(`${what} is not lower-case hexadecimal`);
  return new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
}

// WebCrypto exists only on a secure page (https, or the machine itself:
// localhost, 127.0.0.1); elsewhere the dice cannot be checked here.
export const canVerify = () => !!globalThis.crypto?.subtle;

// A client seed: 16 random bytes from the browser, in hex (32 characters,
// within the seed's 1..256 printable characters).
export function newClientSeed() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

// A throw's client value: 16 fresh random bytes, 32 lower-case hex digits.
export const newClientValue = newClientSeed;

// SHA-256 of the secret's 32 bytes, hex: what the commitment must be.
export async function commitmentOf(secretHex) {
  return hex(await crypto.subtle.digest("SHA-256", fromHex(secretHex, 32, "the secret")));
}

async function hmacKey(secretHex) {
  return crypto.subtle.importKey("raw", fromHex(secretHex, 32, "the secret"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

// The two dice of throw `index` for its client value's bytes, in the order derived.
async function deal(key, seedBytes, index, valueBytes) {
  const dice = [];
  for (let block = 0; ; block++) {
    const message = new Uint8Array(seedBytes.length + 8 + 16 + (block > 0 ? 4 : 0));
    message.set(seedBytes);
    const view = new DataView(message.buffer);
    view.setBigUint64(seedBytes.length, BigInt(index));
    message.set(valueBytes, seedBytes.length + 8);
    if (block > 0) view.setUint32(seedBytes.length + 24, block);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    for (const byte of mac) {
      if (byte >= 252) continue; // 252 = 6 x 42: the rest would favour 1..4
      dice.push(1 + (byte % 6));
      if (dice.length === 2) return dice;
    }
  }
}

export async function dealtDice(secretHex, clientSeed, index, valueHex) {
  return deal(await hmacKey(secretHex), new TextEncoder().encode(clientSeed), index, fromHex(valueHex, 16, "the client value"));
}

// Checks a dealt game: the forms (lower-case hex, a 32-byte secret, one
// client value a throw), the secret against the commitment, then every
// throw ([die1, die2] each, from index 0) against the derivation (the order
// of a throw's two dice does not matter, as `uckers verify`), and that the
// game was finished. Answers { ok: true, count } or { ok: false, index
// (null: not a throw), why, dealt, kept }.
export async function verifyDealt({ commitment, clientSeed, secret, values, throws, finished }) {
  let made;
  try {
    made = await commitmentOf(secret);
    fromHex(String(commitment), 32, "the commitment");
  } catch (e) {
    return { ok: false, index: null, why: e.message };
  }
  if (made !== commitment) {
    return { ok: false, index: null, why: "the secret's SHA-256 is not the commitment" };
  }
  if (!throws.length) return { ok: false, index: null, why: "the record has no throw" };
  if (!Array.isArray(values) || values.length !== throws.length) {
    return { ok: false, index: null, why: `${values?.length ?? 0} client values for ${throws.length} throws` };
  }
  const key = await hmacKey(secret);
  const seedBytes = new TextEncoder().encode(clientSeed);
  for (const [i, kept] of throws.entries()) {
    let dealt;
    try {
      dealt = await deal(key, seedBytes, i, fromHex(values[i], 16, `client value ${i + 1}`));
    } catch (e) {
      return { ok: false, index: null, why: e.message };
    }
    const same = (a, b) => a[0] === b[0] && a[1] === b[1];
    if (!same(dealt, kept) && !same(dealt, [kept[1], kept[0]])) {
      return { ok: false, index: i, why: "the throw is not the one the secret, the seed and its client value give", dealt, kept };
    }
  }
  if (!finished) return { ok: false, index: null, why: "the game is not over: only a finished game is verified" };
  return { ok: true, count: throws.length };
}
