#include "game/facade.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "engine/dice_sequence.h"
#include "engine/effects.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/ufen.h"
#include "review/analyse.h"
#include "review/record.h"
#include "search/levels.h"
#include "search/multi_side.h"
#include "search/multi_side_mcts.h"
#include "search/settings.h"

namespace uckers::facade {

absl::StatusOr<Rules> ParseRules(absl::string_view text) {
  if (text.empty()) return Rules();
  return Rules::Parse(text);
}

absl::StatusOr<Position> ParsePosition(absl::string_view text, const Rules& rules) {
  if (text == "startpos") return Position::Start(rules);
  return ParseUfen(text, rules);
}

absl::StatusOr<Throw> MakeCheckedThrow(int d1, int d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) {
    return absl::InvalidArgumentError(
        absl::StrCat("dice ", d1, " and ", d2, ": each must be 1..6"));
  }
  return MakeThrow(d1, d2);
}

std::vector<PlayResult> LegalPlays(const Position& pos, const Rules& rules, Throw t) {
  PlayList list;
  GenerateLegalPlays(pos, rules, t, &list);
  std::vector<PlayResult> plays(list.begin(), list.end());
  std::sort(plays.begin(), plays.end(), [&pos](const PlayResult& a, const PlayResult& b) {
    return PlayToString(a.play, pos.board()) < PlayToString(b.play, pos.board());
  });
  return plays;
}

absl::StatusOr<PlayResult> ApplyPlay(const Position& pos, const Rules& rules, Throw t,
                                     absl::string_view play) {
  return ParsePlay(play, pos, rules, t);
}

absl::StatusOr<std::vector<std::pair<int, int>>> RollDice(uint64_t seed, int index, int count) {
  if (index < 0 || index > kMaxDiceIndex) {
    return absl::InvalidArgumentError(absl::StrCat("index ", index, " must be 0..", kMaxDiceIndex));
  }
  if (count < 1 || count > kMaxDiceCount) {
    return absl::InvalidArgumentError(absl::StrCat("count ", count, " must be 1..", kMaxDiceCount));
  }
  DiceSequence dice(seed);
  dice.Skip(index);
  std::vector<std::pair<int, int>> throws;
  for (int i = 0; i < count; ++i) throws.push_back(dice.NextDice());
  return throws;
}

uint64_t NewDiceSeed() {
  std::random_device device;
  uint64_t seed = 0;
  while (seed == 0) seed = (static_cast<uint64_t>(device()) << 32) ^ device();
  return seed;
}

absl::StatusOr<DealtStart> StartDealtGame(const dealer::Key& key) {
  absl::StatusOr<dealer::Secret> secret = dealer::NewSecret();
  if (!secret.ok()) return secret.status();
  absl::StatusOr<std::string> token = dealer::Seal(key, *secret);
  if (!token.ok()) return token.status();
  return DealtStart{dealer::Commitment(*secret), *token};
}

absl::StatusOr<std::pair<int, int>> DealThrow(const dealer::Key& key, absl::string_view token,
                                              absl::string_view client_seed, int64_t index) {
  if (index < 0 || index > dealer::kMaxThrowIndex) {
    return absl::InvalidArgumentError(
        absl::StrCat("index ", index, " must be 0..", dealer::kMaxThrowIndex));
  }
  if (absl::Status s = dealer::CheckClientSeed(client_seed); !s.ok()) return s;
  absl::StatusOr<dealer::Secret> secret = dealer::Open(key, token);
  if (!secret.ok()) return secret.status();
  return dealer::DealDice(*secret, client_seed, index);
}

absl::StatusOr<Record> RevealDealtGame(const dealer::Key& key, absl::string_view token,
                                       absl::string_view client_seed, const Record& record) {
  if (absl::Status s = dealer::CheckClientSeed(client_seed); !s.ok()) return s;
  absl::StatusOr<dealer::Secret> secret = dealer::Open(key, token);
  if (!secret.ok()) return secret.status();
  if (record.winner.empty()) {
    return absl::FailedPreconditionError(
        "record: the game is not over; the secret is revealed only with a result");
  }
  std::string commitment = dealer::Commitment(*secret);
  if (!record.dealer_commitment.empty() && record.dealer_commitment != commitment) {
    return absl::InvalidArgumentError("record: its Commitment is not this token's");
  }
  if (!record.client_seed.empty() && record.client_seed != client_seed) {
    return absl::InvalidArgumentError("record: its ClientSeed is not the client_seed given");
  }
  Record out = record;
  out.dealer_commitment = commitment;
  out.client_seed = std::string(client_seed);
  out.dealer_secret = dealer::ToHex(*secret);
  if (absl::Status s = VerifyDealtDice(out); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("record: ", s.message()));
  }
  return out;
}

absl::StatusOr<SearchParams> ParamsFor(const SearchRequest& request) {
  SearchParams params;
  absl::string_view level = request.level.empty() ? kDefaultLevel : request.level;
  if (absl::Status s = ApplyLevel(level, &params); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("multipv", request.multipv); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("threads", request.threads); !s.ok()) return s;
  if (absl::Status s = CheckIntSetting("tree_mb", request.tree_mb); !s.ok()) return s;
  if (request.objective) params.objective = *request.objective;
  if (request.algorithm) params.algorithm = *request.algorithm;
  if (request.eval) params.eval = *request.eval;
  params.multipv = request.multipv;
  params.threads = request.threads;
  params.seed = request.seed;
  params.mcts_tree_mb = request.tree_mb;
  params.endgame = request.endgames;
  return params;
}

absl::Status CheckClocksFor(const Clocks& clocks, const Position& pos) {
  if (FourSidedTeams(pos)) return CheckClocks(clocks, pos);
  if (clocks.time_ms[0] || clocks.time_ms[1]) {
    return absl::InvalidArgumentError(
        "clocks (wtime, btime) are per team of the four-sided game of two teams; with more sides "
        "give movetime");
  }
  return absl::OkStatus();
}

int MultiSideDepth(const std::string& level) {
  absl::StatusOr<int> depth = MultiSideDepthOf(level.empty() ? kDefaultLevel : level);
  return depth.ok() ? *depth : 2;
}

namespace {

// The multi-side search of a layout other than the four-sided one of two
// teams, its answer in the search's report: the mover's side's chance as a
// plain win or loss, every side's chance beside it.
SearchReport MultiSideReportOf(const Position& pos, const MultiSideReport& searched, int multipv) {
  int side = pos.SideOf(pos.to_throw());
  auto as_eval = [side](const SideValues& v) {
    Evaluation e;
    e.p[kWinPlain] = v.win[side];
    e.p[kLossPlain] = 1 - v.win[side];
    return e;
  };
  auto all = [](const SideValues& v) {
    return std::vector<double>(v.win.begin(), v.win.begin() + v.sides);
  };
  SearchReport report;
  report.depth = searched.depth;
  report.nodes = searched.nodes;
  report.time_ms = searched.time_ms;
  report.eval = as_eval(searched.values);
  report.sides = all(searched.values);
  for (const MultiSideCandidate& c : searched.candidates) {
    if (static_cast<int>(report.candidates.size()) == multipv) break;
    report.candidates.push_back({c.play, c.after, as_eval(c.values), all(c.values)});
  }
  return report;
}

}  // namespace

absl::StatusOr<SearchReport> Search(const Position& pos, const Rules& rules,
                                    const SearchRequest& request, TranspositionTable* tt,
                                    const std::atomic<bool>& stop,
                                    const ReportCallback& on_progress) {
  if (pos.IsGameOver()) {
    return absl::FailedPreconditionError("the game is over: no play to search");
  }
  absl::StatusOr<SearchParams> params = ParamsFor(request);
  if (!params.ok()) return params.status();
  if (absl::Status s = CheckClocksFor(request.limits.clocks, pos); !s.ok()) return s;
  if (!FourSidedTeams(pos)) {
    MultiSideParams multi;
    multi.mode = request.paranoid ? MultiSideMode::kParanoid : MultiSideMode::kMaxN;
    multi.max_depth = MultiSideDepth(request.level);
    // The net trained for these rules where one is shipped (docs/sides.md).
    multi.net = MultiSideNet(rules, params->eval);
    absl::StatusOr<MultiSideReport> searched;
    if (params->algorithm == Algorithm::kMcts) {
      // MCTS-max^n (search/multi_side_mcts.h), its tree within tree_mb.
      MultiSideMctsParams mcts;
      mcts.mode = multi.mode;
      mcts.tree_mb = request.tree_mb;
      mcts.net = multi.net;
      searched = SearchMultiSideMcts(pos, rules, request.dice, mcts, request.limits, stop);
    } else if (params->algorithm == Algorithm::kExpectimax) {
      searched = SearchMultiSide(pos, rules, request.dice, multi, request.limits, stop);
    } else {
      return absl::InvalidArgumentError(
          "with more than two sides the search is expectimax (max^n) or mcts");
    }
    if (!searched.ok()) return searched.status();
    SearchReport report = MultiSideReportOf(pos, *searched, request.multipv);
    if (on_progress) on_progress(report);
    return report;
  }
  if (request.dice) {
    return SearchPlay(pos, rules, *request.dice, *params, request.limits, tt, stop, on_progress);
  }
  return AnalysePosition(pos, rules, *params, request.limits, tt, stop, on_progress);
}

absl::StatusOr<GameAnalysis> AnalyseGame(const Record& record, const std::string& level,
                                         const std::atomic<bool>& stop,
                                         const std::function<void(const AnalysedItem&)>& on_item,
                                         const EndgameTable* endgames) {
  return uckers::AnalyseGame(record, level, stop, on_item, endgames);
}

std::vector<PlayResult> LegalPlays(const Game& game, Throw t) {
  return LegalPlays(game.position(), game.rules(), t);
}

absl::StatusOr<SearchReport> Search(const Game& game, const SearchRequest& request,
                                    TranspositionTable* tt, const std::atomic<bool>& stop,
                                    const ReportCallback& on_progress) {
  return Search(game.position(), game.rules(), request, tt, stop, on_progress);
}

absl::StatusOr<GameAnalysis> AnalyseGame(const Game& game, const std::string& level,
                                         const std::atomic<bool>& stop,
                                         const std::function<void(const AnalysedItem&)>& on_item,
                                         const EndgameTable* endgames) {
  if (game.items().empty()) {
    return absl::FailedPreconditionError("the game has no plays to review");
  }
  return uckers::AnalyseGame(game, level, stop, on_item, endgames);
}

namespace {

// The search a judgement or a map makes: the level, every play valued, by
// equity as the review values plays.
absl::StatusOr<SearchParams> TutorParams(const std::string& level, const EndgameTable* endgames) {
  SearchRequest request;
  request.level = level.empty() ? kTutorLevel : level;
  request.objective = Objective::kPoints;
  request.multipv = 64;
  request.endgames = endgames;
  absl::StatusOr<SearchParams> params = ParamsFor(request);
  if (!params.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("level: ", params.status().message()));
  }
  return params;
}

int64_t MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

}  // namespace

PlayTerms PositionTerms(const Position& pos, const Rules& rules, int team) {
  PlayTerms t;
  EvalTerms terms;
  Evaluate(pos, rules, &terms);
  t.race_pips = terms.race_pips[team];
  t.opponent_race_pips = terms.race_pips[1 - team];
  t.home = terms.home[team];
  t.entered = 2 * kPiecesPerColour - terms.in_base[team];
  if (pos.IsGameOver()) return t;
  // The opponents' next mover: the colour to throw, or the next one when
  // `team` throws now; its partner's pieces once released.
  int first = TeamOf(pos.to_throw()) == team ? NextColour(pos.to_throw()) : pos.to_throw();
  int attacker = pos.released(first) ? PartnerOf(first) : first;
  std::array<int, kTrackSquares> count{}, colours{};
  for (int colour : {team, PartnerOf(team)}) {
    for (Square sq : pos.pieces(colour)) {
      if (!OnTrack(sq)) continue;
      int abs = AbsoluteSquare(colour, sq);
      ++count[abs];
      colours[abs] |= 1 << (colour >> 1);
    }
  }
  for (int abs = 0; abs < kTrackSquares; ++abs) {
    // A blob of one colour is safe; a single piece or a mixie blob is not.
    if (count[abs] == 0 || (count[abs] > 1 && colours[abs] != 3)) continue;
    double p = HitProbability(pos, attacker, abs);
    if (p <= 0) continue;
    t.exposed += count[abs];
    t.hit_chance = std::max(t.hit_chance, p);
  }
  if (TeamOf(pos.to_throw()) != team) {
    PlayList plays;
    for (Throw th : kThrows) {
      GenerateLegalPlays(pos, rules, th, &plays);
      for (const PlayResult& r : plays) {
        if (r.play.kind == PlayKind::kChallenge) {
          t.challenge_chance += th.Weight() / 36.0;
          break;
        }
      }
    }
  }
  return t;
}

PlayTerms TermsOf(const Position& before, const PlayResult& play, const Rules& rules) {
  int team = TeamOf(before.to_throw());
  PlayTerms t = PositionTerms(play.after, rules, team);
  PlayEffects fx = EffectsOf(before, play, rules);
  for (const BlobChange& b : fx.blobs_formed) t.blobs_made += b.team == team;
  for (const BlobChange& b : fx.blobs_broken) t.blobs_broken += b.team == team;
  for (const PieceChange& k : fx.knocked_off) t.knocked_off += TeamOf(k.colour) != team;
  return t;
}

std::vector<TermDifference> Differences(const PlayTerms& best, const PlayTerms& play) {
  std::vector<TermDifference> out;
  auto add = [&](const char* name, double b, double p) {
    if (std::abs(b - p) > 1e-9) out.push_back({name, b, p});
  };
  add("exposed", best.exposed, play.exposed);
  add("hit_chance", best.hit_chance, play.hit_chance);
  add("blobs_made", best.blobs_made, play.blobs_made);
  add("blobs_broken", best.blobs_broken, play.blobs_broken);
  add("knocked_off", best.knocked_off, play.knocked_off);
  add("challenge_chance", best.challenge_chance, play.challenge_chance);
  add("race_pips", best.race_pips, play.race_pips);
  add("opponent_race_pips", best.opponent_race_pips, play.opponent_race_pips);
  add("entered", best.entered, play.entered);
  add("home", best.home, play.home);
  return out;
}

absl::StatusOr<Judgement> JudgePlay(const Position& pos, const Rules& rules, Throw t,
                                    absl::string_view play, const std::string& level,
                                    const EndgameTable* endgames, const std::atomic<bool>& stop) {
  auto start = std::chrono::steady_clock::now();
  if (absl::Status s = rules.RequireFourSidedTeams("the tutor (judging a play)"); !s.ok()) {
    return s;
  }
  if (pos.IsGameOver()) return absl::FailedPreconditionError("the game is over: no play to judge");
  absl::StatusOr<SearchParams> params = TutorParams(level, endgames);
  if (!params.ok()) return params.status();
  absl::StatusOr<PlayResult> played = ParsePlay(play, pos, rules, t);
  if (!played.ok()) return played.status();  // "play '...': ..."
  TranspositionTable tt(2);
  SearchReport report = SearchPlay(pos, rules, t, *params, {}, &tt, stop, nullptr);
  if (stop) return absl::CancelledError("judging stopped");
  Judgement j;
  j.candidates = report.candidates;
  j.level = level.empty() ? kTutorLevel : level;
  j.exact = report.exact;
  j.depth = report.depth;
  j.played = j.candidates[0];
  for (const Candidate& c : j.candidates) {
    if (c.after == played->after) {
      j.played = c;
      break;
    }
  }
  j.played.play = played->play;  // the spelling asked about, canonical
  j.equity_lost = std::max(0.0, j.candidates[0].eval.Equity() - j.played.eval.Equity());
  j.mark = MarkFor(j.equity_lost);
  if (!(j.played.after == j.candidates[0].after)) {
    PlayResult best{j.candidates[0].play, j.candidates[0].after};
    j.differences = Differences(TermsOf(pos, best, rules), TermsOf(pos, *played, rules));
  }
  j.time_ms = MsSince(start);
  return j;
}

absl::StatusOr<ThrowMap> MapThrows(const Position& pos, const Rules& rules,
                                   const std::string& level, const EndgameTable* endgames,
                                   const std::atomic<bool>& stop) {
  auto start = std::chrono::steady_clock::now();
  if (absl::Status s = rules.RequireFourSidedTeams("the throw map"); !s.ok()) return s;
  if (pos.IsGameOver()) return absl::FailedPreconditionError("the game is over: no throw to map");
  absl::StatusOr<SearchParams> params = TutorParams(level, endgames);
  if (!params.ok()) return params.status();
  params->multipv = 1;
  ThrowMap map;
  map.level = level.empty() ? kTutorLevel : level;
  map.exact = true;
  double sum[6] = {};
  for (Throw t : kThrows) {
    // A table of its own for each throw: each entry is exactly the search
    // of that throw alone (a shared table's stored values would differ in
    // the last digits).
    TranspositionTable tt(1);
    SearchReport r = SearchPlay(pos, rules, t, *params, {}, &tt, stop, nullptr);
    if (stop) return absl::CancelledError("the throw map stopped");
    ThrowMapEntry e;
    e.dice = t;
    e.probability = t.Weight() / 36.0;
    e.best = r.candidates[0];
    for (int k = 0; k < 6; ++k) sum[k] += e.probability * e.best.eval.p[k];
    map.exact &= r.exact;
    map.throws.push_back(e);
  }
  for (int k = 0; k < 6; ++k) map.eval.p[k] = sum[k];
  map.time_ms = MsSince(start);
  return map;
}

std::vector<std::string> PresetNames() { return uckers::PresetNames(); }

std::vector<std::string> LevelNames() { return uckers::LevelNames(); }

}  // namespace uckers::facade
