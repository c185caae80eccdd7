// Practice puzzles: the marked decisions of reviewed games, kept in the
// browser (localStorage) and scheduled as `uckers drill` schedules its
// cards (app/drill.cpp), so that the two behave alike: SM-2, days counted
// in UTC; a right answer (a play losing under the review's first mark,
// 0.03) comes back after 1 day, then 3, then the interval times the card's
// ease (2.5 to start, +0.1 a right answer up to 3.0); a wrong one is due
// again the same day and its ease drops by 0.2 (down to 1.3). A session
// takes the puzzles due, the longest overdue first, at most 10.

export const RIGHT_BELOW = 0.03; // review/review.h kDoubtful
export const SESSION_SIZE = 10;
const KEY = "uckers.puzzles";
const DAY_MS = 86400000;

// Days since 1970-01-01 (UTC), and back.
export const dayNumber = (date = new Date()) => Math.floor(date.getTime() / DAY_MS);
export const dayText = (day) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export function parseDay(text) {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(text || "");
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayText(t / DAY_MS) === text ? t / DAY_MS : null;
}

// SM-2's schedule after an answer (app/drill.cpp, Reschedule).
export function reschedule(card, right, today) {
  if (right) {
    card.reps++;
    card.interval = card.reps === 1 ? 1 : card.reps === 2 ? 3 : Math.round(card.interval * card.ease);
    card.ease = Math.min(3.0, card.ease + 0.1);
  } else {
    card.reps = 0;
    card.interval = 0; // again today
    card.ease = Math.max(1.3, card.ease - 0.2);
  }
  card.due = today + card.interval;
  return card;
}

// The puzzles due on `today`, the longest overdue first (then the oldest).
export function dueCards(cards, today, limit = SESSION_SIZE) {
  return cards.filter((c) => c.due <= today).sort((a, b) => a.due - b.due || a.id - b.id).slice(0, limit);
}

export function loadPuzzles() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    if (kept && Array.isArray(kept.cards)) return kept;
  } catch {
    // A broken copy is started afresh.
  }
  return { nextId: 1, cards: [] };
}

export function savePuzzles(kept) {
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // A full or blocked storage keeps nothing.
  }
}

// Keeps each marked decision of a review (AnalyseGame's items with a
// choice and a mark) that `take(item)` accepts as a puzzle due today,
// unless the same decision (rules, position, throw) is kept already;
// answers how many were added.
export function addPuzzles(analysis, { rules, source, today = dayNumber(), take = () => true }) {
  const kept = loadPuzzles();
  const have = new Set(kept.cards.map((c) => `${c.rules} ${c.ufen} ${c.throw}`));
  let added = 0;
  for (const it of analysis.items || []) {
    if (!it.choice || !it.mark || it.mark === "MARK_NONE" || !take(it)) continue;
    const key = `${rules} ${it.ufen} ${it.throw}`;
    if (have.has(key)) continue;
    have.add(key);
    kept.cards.push({
      id: kept.nextId++,
      rules,
      ufen: it.ufen,
      throw: it.throw,
      played: it.play,
      best: it.bestPlay,
      candidates: it.candidates || [],
      lost: it.equityLost,
      mark: it.mark,
      level: analysis.level,
      source: `${source}, throw ${it.index}`,
      due: today,
      interval: 0,
      ease: 2.5,
      reps: 0,
    });
    added++;
  }
  if (added) savePuzzles(kept);
  return added;
}
