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

export async function call(method, request = {}, { timeoutMs, signal } = {}) {
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
    throw new ConnectError("unknown", `HTTP ${res.status}: ${text.slice(0, 200)}`);
  }
  if (!res.ok) throw new ConnectError(body.code || "unknown", body.message || `HTTP ${res.status}`);
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
