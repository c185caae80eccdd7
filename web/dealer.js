// Dealt dice checked in the browser (docs/records.md, "Dealt dice"; the
// server's side is dealer/dealer.cpp). The server commits to a secret
// (its SHA-256) before the first throw; throw i is HMAC-SHA256(secret,
// client seed ‖ i as 8 bytes big-endian), its bytes read in order, each
// byte below 252 a die (1 + byte mod 6), until there are two; should a
// block run out, the next comes from the same HMAC with a 4-byte
// big-endian block counter 1, 2, ... appended. Every hash and HMAC here is
// WebCrypto's (crypto.subtle); nothing is computed by hand.

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

function fromHex(text, what) {
  if (!/^([0-9a-f]{2})+$/i.test(text)) throw new Error(`${what} is not hexadecimal`);
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

// SHA-256 of the secret's bytes, hex: what the commitment must be.
export async function commitmentOf(secretHex) {
  return hex(await crypto.subtle.digest("SHA-256", fromHex(secretHex, "the secret")));
}

async function hmacKey(secretHex) {
  return crypto.subtle.importKey("raw", fromHex(secretHex, "the secret"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

// The two dice of throw `index`, in the order derived.
async function deal(key, seedBytes, index) {
  const dice = [];
  for (let block = 0; ; block++) {
    const message = new Uint8Array(seedBytes.length + 8 + (block > 0 ? 4 : 0));
    message.set(seedBytes);
    const view = new DataView(message.buffer);
    view.setBigUint64(seedBytes.length, BigInt(index));
    if (block > 0) view.setUint32(seedBytes.length + 8, block);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    for (const byte of mac) {
      if (byte >= 252) continue; // 252 = 6 x 42: the rest would favour 1..4
      dice.push(1 + (byte % 6));
      if (dice.length === 2) return dice;
    }
  }
}

export async function dealtDice(secretHex, clientSeed, index) {
  return deal(await hmacKey(secretHex), new TextEncoder().encode(clientSeed), index);
}

// Checks a dealt game: the secret against the commitment, then every
// throw ([die1, die2] each, from index 0) against the derivation; the order
// of a throw's two dice does not matter (as `uckers verify`). Answers
// { ok: true, count } or { ok: false, index (null: the commitment), why,
// dealt, kept }.
export async function verifyDealt({ commitment, clientSeed, secret, throws }) {
  let made;
  try {
    made = await commitmentOf(secret);
  } catch (e) {
    return { ok: false, index: null, why: e.message };
  }
  if (made !== String(commitment).toLowerCase()) {
    return { ok: false, index: null, why: "the secret's SHA-256 is not the commitment shown before the first throw" };
  }
  const key = await hmacKey(secret);
  const seedBytes = new TextEncoder().encode(clientSeed);
  for (const [i, kept] of throws.entries()) {
    const dealt = await deal(key, seedBytes, i);
    const same = (a, b) => a[0] === b[0] && a[1] === b[1];
    if (!same(dealt, kept) && !same(dealt, [kept[1], kept[0]])) {
      return { ok: false, index: i, why: "the throw is not the one the secret and the seed give", dealt, kept };
    }
  }
  return { ok: true, count: throws.length };
}
