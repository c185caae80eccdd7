// The practice page: the puzzles due (web/drill.js, kept in the browser)
// one after another on the board; the player chooses a play, JudgePlay
// (at the level of the review that made the puzzle) says whether it is
// right, and the puzzle is scheduled as `uckers drill` schedules a card.
// A wrong answer comes back at the end of the session. `?today=YYYY-MM-DD`
// sets the day, as the drill's --today does.

import * as api from "./api.js";
import { Board, NAMES, colourIndex } from "./board.js";
import { choiceText, movesOf, errorText, explainTerms, chanceLost, diceText, MARKS, LEVEL_NAMES } from "./words.js";
import { RIGHT_BELOW, dayNumber, dayText, parseDay, reschedule, dueCards, loadPuzzles, savePuzzles } from "./drill.js";

const $ = (id) => document.getElementById(id);
const today = parseDay(new URLSearchParams(location.search).get("today")) ?? dayNumber();
const board = new Board($("board"), { label: "the puzzle's position" });
const lower = (text) => text.charAt(0).toLowerCase() + text.slice(1);
const session = { queue: [], size: 0, asked: 0, right: 0, shown: 0, puzzle: null };

function status(text, { error = false } = {}) {
  const s = $("practice-status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

function showDice(dice) {
  const pips = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  $("die1").textContent = dice ? pips[dice.die1] : "";
  $("die2").textContent = dice ? pips[dice.die2] : "";
  $("dice").setAttribute("aria-label", dice ? `dice ${dice.die1} and ${dice.die2}` : "no dice thrown");
}

// `colour`: the mover's, whose colour a preview is drawn in.
const arrowOf = (play, kind, colour = null) => ({ moves: movesOf(play), kind, colour });

function start() {
  const cards = loadPuzzles().cards;
  const due = dueCards(cards, today);
  session.queue = due.map((c) => c.id);
  session.size = due.length;
  if (!due.length) return finish();
  next();
}

// The next puzzle of the session: its position from the engine
// (GetStartPosition) and its plays (ListLegalPlays), said in words.
async function next() {
  const id = session.queue.shift();
  if (id === undefined) return finish();
  const card = loadPuzzles().cards.find((c) => c.id === id);
  if (!card) return next();
  const dice = { die1: Number(card.throw[0]), die2: Number(card.throw[1]) };
  status("Setting up the puzzle…");
  let start;
  let listed;
  try {
    start = await api.startPosition(card.rules, card.ufen);
    listed = await api.legalPlays(card.ufen, dice, card.rules, 2);
  } catch (e) {
    $("raw-error").textContent = e.message;
    session.queue.unshift(id);
    status(`${errorText(e)} Reload the page to try again.`, { error: true });
    return;
  }
  session.shown++;
  const pos = start.position.structured;
  const c = colourIndex(pos.toThrow);
  session.puzzle = { card, dice, pos, c, plays: listed.plays, answered: false };
  $("puzzle").hidden = false;
  $("puzzle").dataset.puzzle = String(card.id);
  $("verdict").hidden = true;
  $("puzzle-source").textContent = `From ${card.source}, where ${MARKS[card.mark]?.words || "a marked play"} was made (reviewed at ${LEVEL_NAMES(card.level)} strength).`;
  $("question").textContent = `${NAMES[c]} threw ${diceText(dice)}: what is the best play?`;
  $("to-throw").textContent = `${NAMES[c]} to play`;
  $("progress").textContent = `puzzle ${session.shown}, ${session.queue.length} more to go`;
  showDice(dice);
  board.render(pos);
  const list = $("plays");
  list.replaceChildren();
  listed.plays.forEach((p, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "play";
    b.dataset.play = p.play;
    b.textContent = choiceText(p.play, pos, c, c, p.effects, listed.plays);
    if (i < 9) b.setAttribute("aria-keyshortcuts", String(i + 1));
    b.addEventListener("click", () => answer(p.play));
    const show = () => {
      if (!session.puzzle.answered) board.render(pos, { arrows: [arrowOf(p.play, "preview", c)] });
    };
    b.addEventListener("mouseenter", show);
    b.addEventListener("focus", show);
    li.append(b);
    list.append(li);
  });
  status("Choose a play (keys 1 to 9, or click). Pointing at one draws it on the board.");
  list.querySelector("button")?.focus({ preventScroll: true });
}

// One JudgePlay: right when the play gives away less than the review's
// first mark; the puzzle is scheduled, and a wrong one queued again.
async function answer(play) {
  const z = session.puzzle;
  if (!z || z.answered) return;
  z.answered = true;
  for (const b of $("plays").querySelectorAll("button")) b.disabled = true;
  status("Judging your play…");
  let verdict;
  try {
    verdict = await api.judgePlay(z.card.ufen, z.dice, play, z.card.rules, z.card.level, 3);
  } catch (e) {
    z.answered = false;
    for (const b of $("plays").querySelectorAll("button")) b.disabled = false;
    $("raw-error").textContent = e.message;
    status(`${errorText(e)} Choose again.`, { error: true });
    return;
  }
  const right = verdict.equityLost < RIGHT_BELOW;
  const kept = loadPuzzles();
  const card = kept.cards.find((c) => c.id === z.card.id);
  if (card) {
    reschedule(card, right, today);
    savePuzzles(kept);
  }
  session.asked++;
  if (right) session.right++;
  else session.queue.push(z.card.id);
  const say = (p) => {
    const effects = z.plays.find((x) => x.play === p)?.effects;
    return lower(choiceText(p, z.pos, z.c, z.c, effects));
  };
  const mark = MARKS[verdict.mark];
  $("verdict").hidden = false;
  $("verdict-text").textContent = right ? "Right." : "Wrong.";
  $("verdict-text").className = `result ${right ? "right" : "wrong"}`;
  const yours = verdict.equityLost > 0 ? `gives away ${chanceLost(verdict.bestEvaluation, verdict.evaluation)} of the chance to win${mark ? ` (${mark.words})` : ""}` : "is the best play";
  const best = verdict.play === verdict.bestPlay ? "" : ` The best: ${say(verdict.bestPlay)}.`;
  const game = z.card.played === play ? " It is the play made in the game." : ` In the game: ${say(z.card.played)}.`;
  $("verdict-detail").textContent = `Your play, ${say(play)}, ${yours}.${best}${game}`;
  $("verdict-why").replaceChildren(...explainTerms(verdict.differences).map((w) => Object.assign(document.createElement("li"), { textContent: w })));
  $("verdict-next").textContent = right
    ? `It comes back on ${dayText(card?.due ?? today + 1)}.`
    : "It comes back later in this session.";
  // The plays list keeps the answer and the best play marked.
  for (const b of $("plays").querySelectorAll("button")) {
    const mine = b.dataset.play === play;
    const top = b.dataset.play === verdict.bestPlay;
    b.classList.toggle("chosen", mine);
    b.classList.toggle("best", top);
    if (mine || top) b.append(` (${[mine && "your play", top && "the best"].filter(Boolean).join(", ")})`);
  }
  const arrows = [arrowOf(play, "played")];
  if (verdict.bestPlay !== play) arrows.push(arrowOf(verdict.bestPlay, "best"));
  board.render(z.pos, { arrows });
  status(right ? "Right: on to the next puzzle." : "Not the best: see the engine's play drawn solid on the board.");
  $("btn-next").focus({ preventScroll: true });
}

function finish() {
  session.puzzle = null;
  $("puzzle").hidden = true;
  delete $("puzzle").dataset.puzzle;
  $("to-throw").textContent = "";
  $("progress").textContent = "";
  showDice(null);
  const cards = loadPuzzles().cards;
  const nextDue = cards.length ? Math.min(...cards.map((c) => c.due)) : null;
  const then = nextDue === null ? "" : ` The next puzzle is due on ${dayText(nextDue)}.`;
  if (!cards.length) {
    status("No puzzles yet: review a game on the board, and the plays marked in it become puzzles here.");
  } else if (!session.asked) {
    status(`No puzzles due today (${dayText(today)}): ${cards.length} kept.${then}`);
  } else {
    status(`Session over: ${session.right} of ${session.asked} answers right.${then}`);
  }
  board.render({ colours: [0, 1, 2, 3].map(() => ({ squares: ["b", "b", "b", "b"] })) });
}

$("btn-next").addEventListener("click", next);
document.addEventListener("keydown", (e) => {
  if (!/^[1-9]$/.test(e.key) || !session.puzzle || session.puzzle.answered) return;
  const b = $("plays").querySelectorAll("button")[Number(e.key) - 1];
  if (b) {
    e.preventDefault();
    b.click();
  }
});
start();
