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

// The text the dealer signed when it revealed a game (docs/records.md, "The
// dealer's signatures"), from a record message's fields (their JSON names).
export function dealerStatement(r) {
  const items = r.items || [];
  const values = r.clientValues || [];
  const lines = [
    "uckers dealt game v1",
    `key ${r.dealerKey || ""}`,
    `rules ${r.rules || "navy"}`,
    `start ${r.startUfen || ""}`,
    `commitment ${r.dealerCommitment || ""}`,
    `seed ${r.clientSeed || ""}`,
    `secret ${r.dealerSecret || ""}`,
    `result ${r.winner ? `${r.winner} ${r.points || 0}` : "*"}`,
    `items ${items.length}`,
  ];
  items.forEach((it, i) => lines.push(`${[...String(it.throw)].sort().reverse().join("")}:${it.play} ${values[i] ?? ""}`));
  return lines.join("\n") + "\n";
}

// A public key's id: the first 8 bytes of its SHA-256, hex.
export async function keyIdOf(publicKeyHex) {
  return hex(await crypto.subtle.digest("SHA-256", fromHex(publicKeyHex, 32, "the public key"))).slice(0, 16);
}

// Whether `signatureHex` is the Ed25519 signature of `text` by the key.
export async function signatureHolds(publicKeyHex, text, signatureHex) {
  const key = await crypto.subtle.importKey("raw", fromHex(publicKeyHex, 32, "the public key"), { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, key, fromHex(signatureHex, 64, "the signature"), new TextEncoder().encode(text));
}

// Checks the dealer's signature of the record `signed.record` by the
// public key `signed.publicKey` (the one the server named when the game
// started), and that the record is this game: its commitment, seed, secret
// and throws. Answers null, or what is wrong.
async function signatureProblem(signed, { commitment, clientSeed, secret, throws }) {
  const r = signed?.record;
  if (!r?.dealerSignature) return "the server did not sign the game's record";
  if (r.dealerPublicKey !== signed.publicKey) return "the record is signed by another key than the one the server named at the start";
  if ((await keyIdOf(signed.publicKey)) !== r.dealerKey) return "the record's key id is not its public key's";
  if (r.dealerCommitment !== commitment || r.clientSeed !== clientSeed || r.dealerSecret !== secret) return "the signed record is of another game";
  const sorted = (t) => [...String(t)].sort().join("");
  const items = r.items || [];
  if (items.length !== throws.length || items.some((it, i) => sorted(it.throw) !== sorted(throws[i].join("")))) return "the signed record's throws are not this game's";
  if (!(await signatureHolds(signed.publicKey, dealerStatement(r), r.dealerSignature))) return "the server's signature of the record does not hold";
  return null;
}

// Checks a dealt game: the forms (lower-case hex, a 32-byte secret, one
// client value a throw), the secret against the commitment, then every
// throw ([die1, die2] each, from index 0) against the derivation (the order
// of a throw's two dice does not matter, as `uckers verify`), that the
// game was finished, and the dealer's signature of its record (`signed`:
// { record, publicKey }). Answers { ok: true, count, keyId } or { ok:
// false, index (null: not a throw), why, dealt, kept }.
export async function verifyDealt({ commitment, clientSeed, secret, values, throws, finished, signed }) {
  // A dealt record with a part missing: named, before any arithmetic.
  for (const [part, name] of [[commitment, "commitment"], [clientSeed, "client seed"], [secret, "server secret"]]) {
    if (!part) return { ok: false, index: null, why: `the record has no ${name}` };
  }
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
  let problem;
  try {
    problem = await signatureProblem(signed, { commitment, clientSeed, secret, throws });
  } catch (e) {
    problem = e.message;
  }
  if (problem) return { ok: false, index: null, why: problem };
  return { ok: true, count: throws.length, keyId: signed.record.dealerKey };
}
