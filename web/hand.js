// A play made by hand, die by die. The page holds no rules: every step it
// offers is a step of one of the engine's legal plays (ListLegalPlays), and
// the play sent is the one legal play the steps chosen make up.
//
// A step moves one piece (or, for a blob, two pieces together) by one die
// or by both dice: { c, from, to, dice: [values used], pieces: 1 | 2 }.
// Each legal play is read as every order of steps that makes it: its moves
// in either order, each by a die its length matches (a piece entering uses
// a 6), a summed move also as its first die then its second, and a blob's
// two pieces moved by a double as one step.

import { LETTERS, colourIndex, place } from "./board.js";
import { movesOf } from "./words.js";

// How far a move goes, as the numbers of squares it could stand for: the
// length forward, or (under `bounce_back`) to home and back from it
// (RULES.md §4, §9); entering is a 6.
function lengths(from, to, lastTrack, bounce) {
  const home = lastTrack + 6;
  if (from === "b") return to === "0" ? [6] : [];
  const a = from === "h" ? home : Number(from);
  const b = to === "h" ? home : to === "b" ? -1 : Number(to);
  const out = [];
  if (b > a) out.push(b - a);
  if (bounce && b >= 0 && b < home) out.push(2 * home - a - b);
  return out;
}

// The square a piece on `from` reaches by `d` squares (back from home when
// it would go past it, under `bounce_back`); null when it cannot (a piece
// in base needs a 6).
function advance(from, d, lastTrack, bounce) {
  const home = lastTrack + 6;
  if (from === "b") return d === 6 ? "0" : null;
  if (from === "h") return null;
  let q = Number(from) + d;
  if (q > home && !bounce) return null;
  if (q > home) q = 2 * home - q;
  return q === home ? "h" : String(q);
}

export const pieceId = (c, sq) => `${LETTERS[c]}:${sq}`;
const stepKey = (s) => `${s.c}:${s.from}>${s.to}/${[...s.dice].sort().join("")}/${s.pieces}`;

// The squares of each colour, as counts, to follow pieces through steps.
function countsOf(structured) {
  return structured.colours.map((col) => {
    const m = new Map();
    for (const sq of col.squares) m.set(sq, (m.get(sq) || 0) + 1);
    return m;
  });
}
function moveCount(counts, c, from, to, n = 1) {
  const m = counts[c];
  if ((m.get(from) || 0) < n) return false;
  m.set(from, m.get(from) - n);
  m.set(to, (m.get(to) || 0) + n);
  return true;
}

// Every order of steps that makes the play `play` from `structured` with
// `dice` ({ die1, die2 }) on a board whose last main-track square is
// `lastTrack`; `bounce`: the rules bounce back from home.
export function stepOrders(play, structured, dice, { lastTrack, bounce = false }) {
  const d = [dice.die1, dice.die2];
  const moves = movesOf(play);
  const seqs = [];
  const one = (m, used, pieces = 1) => ({ c: m.c, from: m.from, to: m.to, dice: used, pieces });
  if (moves.length === 1) {
    const [m] = moves;
    const len = lengths(m.from, m.to, lastTrack, bounce);
    for (const i of d[0] === d[1] ? [0] : [0, 1]) if (len.includes(d[i])) seqs.push([one(m, [d[i]])]);
    if (m.from !== "b" && len.includes(d[0] + d[1])) {
      seqs.push([one(m, [d[0], d[1]])]);
      for (const i of d[0] === d[1] ? [0] : [0, 1]) {
        const mid = advance(m.from, d[i], lastTrack, bounce);
        if (mid && mid !== "h" && advance(mid, d[1 - i], lastTrack, bounce) === m.to) {
          const split = [one({ ...m, to: mid }, [d[i]]), one({ ...m, from: mid }, [d[1 - i]])];
          split.summed = true;
          seqs.push(split);
        }
      }
    }
  } else if (moves.length === 2) {
    for (const [a, b] of [[moves[0], moves[1]], [moves[1], moves[0]]]) {
      for (const i of d[0] === d[1] ? [0] : [0, 1]) {
        if (!lengths(a.from, a.to, lastTrack, bounce).includes(d[i]) || !lengths(b.from, b.to, lastTrack, bounce).includes(d[1 - i])) continue;
        const counts = countsOf(structured);
        if (moveCount(counts, a.c, a.from, a.to) && moveCount(counts, b.c, b.from, b.to)) seqs.push([one(a, [d[i]]), one(b, [d[1 - i]])]);
      }
    }
    const [a, b] = moves;
    // A blob's two pieces moved together by a double (`blob_on_blob`).
    if (a.c === b.c && a.from === b.from && a.to === b.to && d[0] === d[1] && a.from !== "b") {
      if (lengths(a.from, a.to, lastTrack, bounce).includes(d[0])) seqs.push([one(a, [d[0], d[1]], 2)]);
    }
  }
  const seen = new Set();
  return seqs.filter((s) => {
    const k = s.map(stepKey).join(" ");
    return !seen.has(k) && seen.add(k);
  });
}

// The plays that are a call or a pass, not moves: a challenge (`x`), suck
// back (`s`), blow back (`w`), `-`.
export const isCall = (play) => /^[xsw]/.test(play);

// A play being made by hand: the legal plays of the throw, the steps chosen
// so far, and what they leave to choose.
export class Hand {
  // `geo`: the board's geometry (board.js); `bounce`: the rules bounce
  // back from home.
  constructor(plays, structured, dice, geo, bounce = false) {
    this.plays = plays;
    this.structured = structured;
    this.dice = dice;
    this.geo = geo;
    this.lastTrack = geo.lastTrack;
    this.entries = plays
      .filter((p) => p.play !== "-" && !isCall(p.play))
      .map((p) => ({ play: p, seqs: stepOrders(p.play, structured, dice, { lastTrack: geo.lastTrack, bounce }) }));
    // A summed move played die by die is that move, unless the same two
    // steps are a play of their own (`split_single_piece`: landing in
    // between), which they then are.
    const own = new Set();
    for (const e of this.entries) for (const q of e.seqs) if (!q.summed) own.add(q.map(stepKey).join(" "));
    for (const e of this.entries) e.seqs = e.seqs.filter((q) => !q.summed || !own.has(q.map(stepKey).join(" ")));
    this.steps = [];
  }

  // The entries whose step orders start with the steps chosen, and each
  // order that does.
  following(steps = this.steps) {
    const keys = steps.map(stepKey);
    const out = [];
    for (const e of this.entries) {
      const seqs = e.seqs.filter((s) => s.length >= keys.length && keys.every((k, i) => stepKey(s[i]) === k));
      if (seqs.length) out.push({ ...e, seqs });
    }
    return out;
  }

  // The legal plays the steps chosen are part of.
  consistent() {
    return this.following().map((e) => e.play);
  }

  // The steps that may come next, each with the plays it keeps open.
  nextSteps() {
    const n = this.steps.length;
    const next = new Map();
    for (const e of this.following()) {
      for (const s of e.seqs) {
        if (s.length <= n) continue;
        const k = stepKey(s[n]);
        if (!next.has(k)) next.set(k, { step: s[n], plays: new Set() });
        next.get(k).plays.add(e.play);
      }
    }
    return [...next.values()];
  }

  // The pieces a step may move now, as "r:12" keys.
  movable() {
    return new Set(this.nextSteps().map(({ step }) => pieceId(step.c, step.from)));
  }

  // Where the piece `id` may go now: cell key -> { step, dice }. Where two
  // steps reach one square, a blob moves whole when the single piece's
  // step only leads to the blob's play; otherwise one piece moves, by the
  // higher die when either would do.
  targets(id) {
    const geo = this.geo;
    const out = new Map();
    for (const n of this.nextSteps()) {
      const { step } = n;
      if (pieceId(step.c, step.from) !== id) continue;
      const key = place(step.c, step.to, 0, geo).key;
      const have = out.get(key);
      if (!have) {
        out.set(key, n);
        continue;
      }
      const [single, blob] = have.step.pieces === 2 ? [n, have] : [have, n];
      if (blob.step.pieces === 2 && single.step.pieces === 1) {
        const onlyBlob = [...single.plays].every((p) => blob.plays.has(p));
        out.set(key, onlyBlob ? blob : single);
      } else if (Math.max(...n.step.dice) > Math.max(...have.step.dice)) {
        out.set(key, n);
      }
    }
    return out;
  }

  choose(step) {
    this.steps.push(step);
  }

  undo() {
    return this.steps.pop();
  }

  // The dice not yet used by the steps chosen.
  diceLeft() {
    const left = [this.dice.die1, this.dice.die2];
    for (const s of this.steps) {
      for (const v of s.dice) {
        const i = left.indexOf(v);
        if (i >= 0) left.splice(i, 1);
      }
    }
    return left;
  }

  // The play the steps chosen make up, once they make up exactly one:
  // { play, more } where `more` says other steps could still follow.
  complete() {
    const n = this.steps.length;
    if (!n) return null;
    const following = this.following();
    const done = following.filter((e) => e.seqs.some((s) => s.length === n));
    if (done.length !== 1) return null;
    return { play: done[0].play, more: following.some((e) => e.seqs.some((s) => s.length > n)) };
  }

  // The position with the steps chosen shown: the pieces moved, and the
  // pieces every play still open knocks off where a step lands (the
  // engine's PlayEffects say which).
  shown() {
    const pos = structuredClone(this.structured);
    if (!this.steps.length) return pos;
    const track = 13 * pos.colours.length;
    const open = this.consistent();
    const touched = new Set();
    for (const s of this.steps) {
      const squares = pos.colours[s.c].squares;
      for (let k = 0; k < s.pieces; k++) {
        const i = squares.indexOf(s.from);
        if (i >= 0) squares[i] = s.to;
      }
      touched.add(place(s.c, s.from, 0, this.geo).key).add(place(s.c, s.to, 0, this.geo).key);
      if (s.to === "h" || Number(s.to) > this.lastTrack) continue;
      const abs = (13 * s.c + Number(s.to)) % track;
      const knocked = (p) => new Set((p.effects?.knockedOff || []).filter((k) => (k.fromAbsolute ?? 0) === abs).map((k) => k.colour));
      const sets = open.map(knocked);
      if (!sets.length || sets.some((x) => !x.size)) continue;
      for (const colour of sets[0]) {
        if (!sets.every((x) => x.has(colour))) continue;
        const c = colourIndex(colour);
        const sq = pos.colours[c]?.squares;
        if (!sq) continue;
        for (let i = 0; i < sq.length; i++) {
          if (/^\d+$/.test(sq[i]) && Number(sq[i]) <= this.lastTrack && (13 * c + Number(sq[i])) % track === abs) sq[i] = "b";
        }
      }
    }
    // A stack's order is the engine's: the squares a step touched show
    // their pieces unordered until the play is made.
    if (pos.stacks) pos.stacks = pos.stacks.filter((st) => !touched.has(place(colourIndex(st.team), String(st.square), 0, this.geo).key));
    return pos;
  }
}
