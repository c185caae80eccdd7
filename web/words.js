// A player's language: plays, challenges, switches and errors in words.
// The notation (plays, UFEN) stays in the advanced panel; everything here
// reads what the engine answered (a play's effects, the positions before
// and after) and says it the way a player at the table would.

import { NAMES, LETTERS, colourIndex } from "./board.js";

export const TEAM_NAMES = { RY: "Red and Yellow", GB: "Green and Blue" };
export const TEAMS = { TEAM_RED_YELLOW: "RY", TEAM_GREEN_BLUE: "GB" };

// The rulesets and switches of RULES.md §9 and §10, by the names the rule
// texts give them, each with one line.
export const RULESETS = {
  navy: ["Navy (BR 4006)", "The Royal Navy's Basic Rules, nothing added."],
  wafu: ["WAFU", "Navy rules with suck back and snake eyes, as the Fleet Air Arm plays."],
  mess: ["Mess deck", "Snake eyes, blob on blob, stacks and superblobs, no moving a partner's pieces in the lane."],
  six: ["Six-sided board", "Six colours, three teams of two."],
  selsey: ["Selsey", "Navy rules; a won challenge earns one more throw."],
};
export const SWITCHES = {
  split_single_piece: ["Split a throw on one piece", "One piece may use the dice as two moves, landing in between."],
  mixie_can_challenge: ["Mixie blobs challenge", "A mixie blob behind an opponent blob may challenge it."],
  blob_on_blob: ["Blob on blob", "On a double, a blob right behind an opponent blob may move two pieces together and knock it off or jump it."],
  bounce_back: ["Bounce back", "A throw that overshoots home bounces back from it instead of being refused."],
  one_less_six: ["One less six", "A challenge needs one six fewer."],
  double_six_two_throws: ["Double six, two throws", "A double six earns two extra throws instead of one."],
  suck_back: ["Suck back and blow back", "A piece in line with an opponent's home lane may try to send a lane piece back to base, and the lane piece may try back."],
  snake_eyes: ["Snake eyes", "A colour's very first 1-1 brings all its base pieces out; a second 1-1 right after sends them all back."],
  throw_after_challenge: ["Throw after a challenge", "A won challenge earns one more throw."],
  no_partner_pipe_moves: ["Partner's lane is private", "A colour throwing for its partner may not move the partner's pieces in the home lane."],
  mixie_stack: ["Mixie stacks", "A mixie blob is a stack: only its top piece moves."],
  superblob: ["Superblob", "Three or four pieces of one colour block and are challenged like a blob, but never move as a blob."],
  doubles_throw_again: ["Doubles throw again", "Any double earns an extra throw, as a six does."],
  six_sided: ["Six-sided board", "Six colours on a six-sided board."],
  teams_of_three: ["Teams of three", "Six-sided board only: two teams of three alternate colours."],
  solo: ["Every colour for itself", "No partners: each colour plays alone."],
};
export const LEVEL_NAMES = (l) => l.charAt(0).toUpperCase() + l.slice(1).replace(/_/g, " ");
export const OUTCOME = {
  OUTCOME_LEVEL_WIN: "a win",
  OUTCOME_LEVEL_EIGHT_PIECER: "an 8-piecer",
  OUTCOME_LEVEL_IN_HARBOUR: "an 8-piecer in harbour",
};

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sixes = (n) => plural(n, "six", "sixes");
export const diceText = (d) => `${d.die1}-${d.die2}`;

// A play's moves from its notation: [{ c, from, to }] (relative squares).
export function movesOf(play) {
  if (!play || play === "-" || /^[xsw]/.test(play)) return [];
  return play.split(",").map((m) => {
    const t = m.match(/^([a-z])(b|h|\d+)-(b|h|\d+)$/);
    return t ? { c: LETTERS.indexOf(t[1]), from: t[2], to: t[3] } : null;
  }).filter(Boolean);
}

// The board of a position (RULES.md §1, §11): 13 squares a colour, the
// last main-track square two before the colour's doorstep comes round
// again, then five lane squares and home.
const boardOf = (pos) => {
  const track = 13 * (pos?.colours?.length || 4);
  return { track, last: track - 2, home: track + 4 };
};
const num = (sq, pos) => (sq === "h" ? boardOf(pos).home : sq === "b" ? -1 : Number(sq));
const has = (list, c) => (list || []).some((x) => colourIndex(x) === c);
const allHome = (pos, c) => pos.colours[c].squares.every((s) => s === "h");

// The stack (mixie_stack) a piece of colour c on relative square sq stands in.
function stackAt(pos, c, sq) {
  if (!pos) return null;
  const { track, last } = boardOf(pos);
  if (sq === "b" || num(sq, pos) > last) return null;
  const abs = (13 * c + Number(sq)) % track;
  return (pos.stacks || []).find((s) => (13 * colourIndex(s.team) + s.square) % track === abs) || null;
}

// Who stands on absolute main-track square abs: [{ c, n }].
function piecesOn(pos, abs) {
  const out = [];
  const { track, last } = boardOf(pos);
  pos.colours.forEach((col, c) => {
    const n = col.squares.filter((s) => s !== "b" && s !== "h" && num(s, pos) <= last && (13 * c + num(s, pos)) % track === abs).length;
    if (n) out.push({ c, n });
  });
  return out;
}

function moveWords(moves, before, mover) {
  const parts = [];
  let prev = null;
  const { last } = boardOf(before);
  for (const m of moves) {
    const whose = m.c === mover ? "a piece" : `a ${NAMES[m.c]} piece`;
    const n = num(m.to, before) - num(m.from, before);
    const where = m.to === "h" ? " home" : num(m.to, before) > last && num(m.from, before) <= last ? " into the home lane" : "";
    if (m.from === "b") {
      parts.push(`enters ${whose}`);
    } else if (prev && prev.c === m.c && prev.to === m.from) {
      parts.push(`moves it ${n}${where}`);
    } else {
      const top = stackAt(before, m.c, m.from) ? `the top piece (${NAMES[m.c]}) of the stack on ${m.from}` : `${whose} on ${m.from}`;
      if (m.to === "h") parts.push(`takes ${top} home`);
      else parts.push(`moves ${top} ${n >= 0 ? `forward ${n}` : `back ${-n}`}${where}`);
    }
    prev = m;
  }
  return parts.join(" and ");
}

function knockedWords(effects) {
  const by = new Map();
  for (const k of effects.knockedOff || []) {
    const c = colourIndex(k.colour);
    by.set(c, (by.get(c) || 0) + 1);
  }
  return [...by].map(([c, n]) => (n === 1 ? `a ${NAMES[c]} piece` : `${n} ${NAMES[c]} pieces`)).join(" and ");
}

// The blob a challenge play ("xr10", "xgb") takes on: its colour, its
// pieces, and whether the challenger comes from base; null for another play.
export function challengedBlob(play, before) {
  const t = play?.match(/^x([a-z])(b|\d+)$/);
  if (!t) return null;
  const c = LETTERS.indexOf(t[1]);
  const ahead = t[2] === "b" ? 0 : Number(t[2]) + 1;
  const owners = piecesOn(before, (13 * c + ahead) % boardOf(before).track).filter((p) => p.c !== c);
  return { c: owners[0]?.c ?? null, size: owners.reduce((n, p) => n + p.n, 0), fromBase: t[2] === "b" };
}

// A legal play as a choice for the player about to make it ("Challenge the
// Green blob on 14 (needs 3 sixes)"). `plays`: the throw's legal plays,
// when the choice stands among them (a pass beside a challenge).
export function choiceText(play, before, mover, moving, effects, plays = null) {
  if (play === "-") {
    // A challenge's throw moves nothing: it counts its sixes, no pass.
    if (before?.challenge) return "Go on with the challenge (this throw's sixes count)";
    // No piece can move, but a challenge may be taken (RULES.md §4).
    if ((plays || []).some((p) => /^x/.test(p.play ?? p))) return "Pass: no piece can move, and the challenge is not taken";
    return "Pass (no play is possible)";
  }
  const t = play.match(/^([xsw])([a-z])(b|\d+)$/);
  if (t) {
    const c = LETTERS.indexOf(t[2]);
    if (t[1] === "x") {
      const need = effects?.challenge?.sixesNeeded;
      const ahead = t[3] === "b" ? 0 : Number(t[3]) + 1;
      // The blob in front is an opponent's: no other side shares its square.
      const owners = piecesOn(before, (13 * c + ahead) % boardOf(before).track).filter((p) => p.c !== c);
      const blob = owners.length ? `the ${NAMES[owners[0].c]} blob` : "the blob";
      const from = t[3] === "b" ? " from base" : "";
      return `Challenge ${blob} on ${ahead === 0 ? `${NAMES[c]}'s doorstep` : ahead}${from}${need ? ` (needs ${sixes(need)})` : ""}`;
    }
    const k = Number(t[3]) - boardOf(before).last;
    if (t[1] === "s") return `Try suck back on the ${NAMES[c]} piece ${k} up its lane (needs a ${k}, on either die or both)`;
    return `Try blow back from the ${NAMES[c]} piece ${k} up its lane (needs a ${k}, on either die or both)`;
  }
  const moves = movesOf(play);
  let text = moveWords(moves, before, moving);
  text = text.charAt(0).toUpperCase() + text.slice(1);
  const ko = effects ? knockedWords(effects) : "";
  return ko ? `${text}, knocking off ${ko}` : text;
}

// What a play did, as the table hears it ("Red throws 6-3 and enters a
// piece and moves it 3, knocking off a Green piece.").
export function playText({ play, dice, mover, effects = {}, before, after }) {
  const who = NAMES[mover];
  const thrown = `${who} throws ${diceText(dice)}`;
  const ch = effects.challenge || {};
  const ev = ch.event || "CHALLENGE_EVENT_NONE";
  const released = (effects.released || []).some((c) => colourIndex(c) === mover);
  if (ev === "CHALLENGE_EVENT_DECLARED") {
    return `${thrown} and challenges: ${choiceText(play, before, mover, mover, effects).replace(/^Challenge /, "")}; ${ch.sixes} of ${ch.sixesNeeded} so far.`;
  }
  if (ev === "CHALLENGE_EVENT_COUNTED") return `${thrown}: ${ch.sixes} of ${sixes(ch.sixesNeeded)}. The challenge goes on.`;
  if (ev === "CHALLENGE_EVENT_WON") {
    return `${thrown}: ${ch.sixesNeeded} of ${sixes(ch.sixesNeeded)}! The challenge is won: ${knockedWords(effects) || "the blob"} knocked off, and the challenger takes the square.`;
  }
  if (ev === "CHALLENGE_EVENT_FAILED") return `${thrown}: no six. Challenge failed.`;
  const moves = movesOf(play);
  const ruleMoves = effects.moves || [];
  const sentBack = [...ruleMoves, ...(effects.knockedOff || [])].some((m) => colourIndex(m.colour) === mover && m.to === "b");
  if (before && has(before.snakeEyesPending, mover) && dice.die1 === 1 && dice.die2 === 1 && sentBack) {
    return `${thrown}: snake eyes again! Every ${who} piece not home goes back to base.`;
  }
  if (before && has(before.firstThrowPending, mover) && dice.die1 === 1 && dice.die2 === 1 && !moves.length && ruleMoves.length) {
    return `${thrown}: snake eyes! Every ${who} piece in base comes out onto its doorstep${knockedWords(effects) ? `, knocking off ${knockedWords(effects)}` : ""}. Another 1-1 next time sends them all back.`;
  }
  const call = play.match(/^([sw])([a-z])(\d+)$/);
  if (call) {
    const c = LETTERS.indexOf(call[2]);
    const name = call[1] === "s" ? "suck back" : "blow back";
    const hit = (effects.knockedOff || []).length > 0;
    if (call[1] === "s") {
      return hit
        ? `${thrown} for ${name} on the ${NAMES[c]} lane piece: a hit! It goes back to base and ${who}'s piece moves on one.`
        : `${thrown} for ${name} on the ${NAMES[c]} lane piece: a miss.`;
    }
    return hit
      ? `${thrown} for ${name} from its lane: a hit! The ${knockedWords(effects).replace(/^a /, "")} in line goes back to base.`
      : `${thrown} for ${name} from its lane: a miss.`;
  }
  if (released) return `${thrown}: a six! ${who} is released and from now on throws for its partner.`;
  if (before && play === "-" && allHome(before, mover) && !has(before.released, mover)) {
    return `${thrown}: no six, so ${who} is not released yet.`;
  }
  if (play === "-") return `${thrown} and cannot move: a pass.`;
  const moving = moves.length ? moves[0].c : mover;
  let text = `${thrown} and ${moveWords(moves, before, moving)}`;
  if (moving !== mover) text = `${thrown} for ${NAMES[moving]} and ${moveWords(moves, before, moving)}`;
  const ko = knockedWords(effects);
  if (ko) text += `, knocking off ${ko}`;
  const formed = (effects.blobsFormed || []).find((b) => !b.mixie);
  if (formed) text += `, making a blob of ${formed.size}`;
  else if ((effects.blobsFormed || []).some((b) => b.mixie)) text += ", making a mixie blob";
  if (after && before && allHome(after, moving) && !allHome(before, moving)) text += `. All four ${NAMES[moving]} pieces are home`;
  return `${text}.`;
}

// An error as a player reads it. The engine's own words stay in the
// advanced panel.
export function errorText(e) {
  const code = e?.code || "";
  if (code === "unavailable") return "The engine cannot be reached: the server may have stopped or the connection dropped.";
  if (code === "deadline_exceeded") return "The engine took too long to answer.";
  if (code === "resource_exhausted") return "The engine is too busy just now.";
  if (code === "invalid_argument") return "The engine refused that: something in the request was not allowed.";
  if (code === "canceled") return "The request was cancelled.";
  if (e?.player) return e.player;
  return "Something went wrong talking to the engine.";
}

// The review's marks (JudgePlay and AnalyseGame name them alike), weakest
// first, with the thresholds of review/review.h.
export const MARKS = {
  MARK_DOUBTFUL: { rank: 1, label: "?!", words: "a doubtful play", from: 0.03 },
  MARK_BAD: { rank: 2, label: "?", words: "a bad play", from: 0.06 },
  MARK_VERY_BAD: { rank: 3, label: "??", words: "a very bad play", from: 0.12 },
};
export const markRank = (mark) => MARKS[mark]?.rank || 0;

const count = (one, many = `${one}s`) => (n) => (n === 0 ? `no ${one}` : plural(n, one, many));
const percent = (p) => `${Math.round(100 * p)}%`;
const squares = (n) => `${Math.round(n)} squares`;
const pieces = count("piece");
const blobs = count("blob");
const theirs = count("opposing piece");

// What a play leaves on the board against the best play, term by term
// (TermDifference: `term`, the best play's value `best`, the play's
// `play`; docs/frontend.md, "Explained choices"): how a value is said, and
// the sentence.
const TERMS = {
  exposed: [pieces, (p, b) => `Leaves ${p} open to a hit next turn; the best play leaves ${b}.`],
  hit_chance: [percent, (p, b) => `Gives the opponents a ${p} chance to knock off a piece next turn; the best play, ${b}.`],
  blobs_made: [blobs, (p, b) => `Makes ${p}; the best play makes ${b}.`],
  blobs_broken: [blobs, (p, b) => `Breaks ${p}; the best play breaks ${b}.`],
  knocked_off: [theirs, (p, b) => `Knocks off ${p}; the best play knocks off ${b}.`],
  challenge_chance: [percent, (p, b) => `Lets the opponents challenge on ${p} of their throws; the best play, on ${b}.`],
  race_pips: [squares, (p, b) => `Leaves the side ${p} from home, all its pieces together; the best play, ${b}.`],
  opponent_race_pips: [squares, (p, b) => `Leaves the opponents ${p} from home; the best play, ${b}.`],
  entered: [pieces, (p, b) => `Has ${p} out of base; the best play, ${b}.`],
  home: [pieces, (p, b) => `Has ${p} home; the best play, ${b}.`],
};

// hit_chance with the piece behind it (TermDifference `colour`, `squares`):
// "Leaves a piece 3 squares in front of Blue: a 53% chance it is knocked
// off next turn; the best play, 0%."
function threatSentence(d, p, b) {
  const who = NAMES[colourIndex(d.colour)];
  const where = d.squares ? `${plural(d.squares, "square")} in front of ${who}` : `where ${who} can enter onto it`;
  return `Leaves a piece ${where}: a ${p} chance it is knocked off next turn; the best play, ${b}.`;
}

// A change in the chance to win (0..1) as a signed percentage, "−6.2%",
// "+0.4%", "+12%": one decimal under 10%, the minus sign a true one.
export function signedChance(w) {
  const x = 100 * w;
  const digits = Math.abs(x) < 9.95 ? 1 : 0;
  const text = Math.abs(x).toFixed(digits);
  if (Number(text) === 0) return "±0%";
  return `${x < 0 ? "\u2212" : "+"}${text}%`;
}

// A play's loss against the best in percent of the mover's chance to win
// (JudgePlay's `evaluation` and `bestEvaluation`, or two candidates'):
// "6.1%", never negative.
export function chanceLost(best, played) {
  return chanceText(Math.max(0, (best?.winProbability ?? 0) - (played?.winProbability ?? 0)));
}

// A chance (0..1) in percent: "6.1%", "12%", one decimal under 10%.
export function chanceText(w) {
  const x = 100 * w;
  return `${x.toFixed(x < 9.95 ? 1 : 0)}%`;
}

// The review's points (AnalyseGame's equities: a side's expected points)
// as the chance to win they stand for, in a game of `sides` sides: a side's
// points are its chance to win times the sides less one, less its chance of
// losing (sides x chance - 1), so `points` lost are points / sides of the
// chance to win (with two teams, counting every win as plain).
export const chanceOfPoints = (points, sides) => Math.max(0, points) / Math.max(2, sides);

// Points of a game's score in words: "won 2 points", "lost 1 point",
// "won 0.6 points" (one decimal where they are not whole).
export function scoreText(points) {
  const n = Math.abs(points);
  const text = Number.isInteger(n) ? String(n) : n.toFixed(1);
  if (Number(text) === 0) return "no points";
  return `${points < 0 ? "lost" : "won"} ${text} point${text === "1" ? "" : "s"}`;
}

// The explanation of a play against the best, one sentence a term (terms
// the board does not know, and differences too small to say, left out),
// each ending with its size, the change in the mover's chance to win the
// term accounts for (TermDifference `winChance`: negative where it favours
// the best play), the largest first.
export function explainTerms(differences) {
  const out = [];
  for (const d of differences || []) {
    const t = TERMS[d.term];
    if (!t) continue;
    const [say, sentence] = t;
    const p = say(d.play ?? 0);
    const b = say(d.best ?? 0);
    if (p === b) continue;
    const words = d.term === "hit_chance" && d.colour ? threatSentence(d, p, b) : sentence(p, b);
    const size = d.winChance;
    out.push({ size: Math.abs(size ?? 0), text: size === undefined ? words : `${words.slice(0, -1)}: ${signedChance(size)}` });
  }
  return out.sort((a, b) => b.size - a.size).map((r) => r.text);
}
