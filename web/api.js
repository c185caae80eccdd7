// The engine's public API over the Connect protocol (JSON): one function
// per call, `POST /uckers.v1.Engine/<Method>`. Errors arrive as Connect's
// JSON error body and are thrown as ConnectError with its code name.

export class ConnectError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
    this.detail = message;
  }
}

// A call that cannot reach the engine (the server restarting, the network
// dropping) is tried again after 0.3, 0.6, 1.2 and 2.4 s; `onRetry(attempt,
// attempts)` is told before each new try. Any other error is thrown at once.
export const retry = { delaysMs: [300, 600, 1200, 2400], onRetry: null };

export async function call(method, request = {}, options = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await callOnce(method, request, options);
    } catch (e) {
      const again = e.code === "unavailable" && attempt < retry.delaysMs.length;
      if (!again) throw e;
      retry.onRetry?.(attempt + 1, retry.delaysMs.length);
      await new Promise((r) => setTimeout(r, retry.delaysMs[attempt]));
    }
  }
}

async function callOnce(method, request, { timeoutMs, signal } = {}) {
  const headers = { "Content-Type": "application/json", "Connect-Protocol-Version": "1" };
  if (timeoutMs) headers["Connect-Timeout-Ms"] = String(timeoutMs);
  let res;
  try {
    res = await fetch(`/uckers.v1.Engine/${method}`, {
      method: "POST",
      headers,
      body: JSON.stringify(request),
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw new ConnectError("canceled", "the call was cancelled");
    throw new ConnectError("unavailable", `the engine cannot be reached (${e.message})`);
  }
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    const code = res.status === 502 || res.status === 503 || res.status === 504 ? "unavailable" : "unknown";
    throw new ConnectError(code, `HTTP ${res.status}: ${text.slice(0, 200)}`);
  }
  if (!res.ok) {
    const code = res.status === 503 && !body.code ? "unavailable" : body.code || "unknown";
    throw new ConnectError(code, body.message || `HTTP ${res.status}`);
  }
  return body;
}

export const engineInfo = () => call("GetEngineInfo");
export const startPosition = (rules, ufen) =>
  call("GetStartPosition", ufen ? { rules, position: { ufen } } : { rules });
export const rollDice = (seed, index, count) => call("RollDice", { seed: String(seed), index, count });
export const legalPlays = (ufen, dice, rules, players) =>
  call("ListLegalPlays", {
    position: { ufen },
    throw: dice,
    rules,
    players,
    structuredPositions: true,
  });
export const applyPlay = (ufen, dice, play, rules, players) =>
  call("ApplyPlay", { position: { ufen }, throw: dice, play, rules, players });
export const bestMove = (ufen, dice, rules, options, limits) =>
  call("BestMove", { position: { ufen }, throw: dice, rules, options, limits });
export const evaluate = (ufen, rules, options, limits) =>
  call("Evaluate", { position: { ufen }, rules, options, limits });
export const analyseGame = (recordText, level) =>
  call("AnalyseGame", { recordText, level }, { timeoutMs: 600000 });
// The tutor (docs/frontend.md): one play judged against the best, and the
// next throw's map; both at the tutor's level unless one is given.
export const judgePlay = (ufen, dice, play, rules, level = "", alternatives = 3) =>
  call("JudgePlay", { position: { ufen }, throw: dice, play, rules, level, alternatives });
export const throwMap = (ufen, rules, level = "") => call("ThrowMap", { position: { ufen }, rules, level });
// Dealt dice, by commit and reveal (docs/frontend.md, "Verified dice"):
// the game started, bound once to the seed, rules and start, each throw
// asked with a fresh client value and the play made with the throw before.
export const startDealtGame = () => call("StartDealtGame");
export const bindDealtGame = (token, clientSeed, rules, ufen) =>
  call("BindDealtGame", { token, clientSeed, rules, ...(ufen ? { start: { ufen } } : {}) });
export const dealThrow = (token, index, clientValue, play) =>
  call("DealThrow", { token, index, clientValue, play });
export const revealDealtGame = (token, recordText) => call("RevealDealtGame", { token, recordText });
