#include "engine/engine.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "eval/evaluate.h"
#include "record/text.h"
#include "review/review.h"
#include "rules/board_text.h"
#include "rules/checked.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/perft.h"
#include "rules/ufen.h"
#include "search/door.h"
#include "search/levels.h"
#include "search/settings.h"

namespace uckers {
namespace {

constexpr int kMaxPerftDepth = 9;

// Positions for `bench`: the start, and mid-games with blobs, mixies,
// challenges in reach, lanes and a released colour.
constexpr const char* kBenchPositions[] = {
    "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -",         "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -",
    "0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -", "3,10,10,b/5,20,47,b/0,0,30,52/b,12,40,h y -",
    "11,30,b,b/b,b,b,b/37,b,b,b/25,25,b,b r -",    "h,h,h,h/b,20,20,48/b,44,53,h/b,b,7,h r pr",
    "20,20,30,b/8,8,b,b/b,b,b,b/b,b,b,b b -",      "45,50,53,h/40,41,41,h/48,49,54,h/46,52,h,h g -",
};

uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

SearchRequest RequestOf(const EngineOptions& options, const GoRequest& go) {
  SearchRequest request;
  static_cast<SearchSettings&>(request) = options;  // every setting of the table
  request.dice = go.dice;
  request.limits = go.limits;
  request.endgames = options.endgames.get();
  return request;
}

// The search a judgement or a map makes: the level, every play valued, by
// equity as the review values plays; an error names a bad level.
absl::StatusOr<SearchRequest> TutorRequest(const std::string& level, const EndgameTable* endgames) {
  SearchRequest request;
  request.level = level.empty() ? kTutorLevel : level;
  request.objective = Objective::kPoints;
  request.multipv = kMaxMultiPv;
  request.endgames = endgames;
  if (absl::StatusOr<SearchParams> params = RequestParams(request); !params.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("level: ", params.status().message()));
  }
  return request;
}

int64_t MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start)
      .count();
}

}  // namespace

Engine::Engine(EngineOptions options)
    : options_(std::move(options)),
      game_(options_.rules),
      judge_(options_.rules),
      evidence_game_(options_.rules),
      tt_(options_.hash_mb) {}

SearchParams Engine::Params() const {
  return *RequestParams(RequestOf(options_, GoRequest{}));  // options are valid
}

SearchRequest Engine::RequestFor(const GoRequest& go) const { return RequestOf(options_, go); }

Engine::~Engine() {
  Stop();
  Wait();
}

absl::Status Engine::SetOption(absl::string_view name, absl::string_view value) {
  EngineOptions updated = options_;
  if (absl::Status s = updated.Set(name, value); !s.ok()) return s;
  bool rules_changed = !(updated.rules == options_.rules);
  if (updated.hash_mb != options_.hash_mb) {
    if (busy_) {
      return absl::FailedPreconditionError("option Hash: a search is running");
    }
    if (absl::Status s = tt_.TryResize(updated.hash_mb); !s.ok()) {
      return absl::ResourceExhaustedError(absl::StrCat("option Hash: ", s.message()));
    }
  }
  // Values stored under another ruleset, level or evaluation are not this
  // search's values.
  bool values_changed = rules_changed || updated.eval != options_.eval ||
                        updated.level != options_.level || updated.endgames != options_.endgames ||
                        updated.net != options_.net;
  if (values_changed && !busy_) tt_.Clear();
  options_ = updated;
  if (rules_changed) game_ = Game(options_.rules);
  return absl::OkStatus();
}

absl::Status Engine::SetPosition(absl::string_view start, const std::vector<std::string>& moves) {
  absl::StatusOr<Game> game = Game::FromStart(options_.rules, start);
  if (!game.ok()) return game.status();
  for (size_t i = 0; i < moves.size(); ++i) {
    if (absl::Status s = game->PlayItem(moves[i]); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("moves item ", i + 1, " '", moves[i], "': ", s.message()));
    }
  }
  game_ = *std::move(game);
  return absl::OkStatus();
}

absl::Status Engine::SetPosition(const Position& pos) {
  if (pos.layout_id() != options_.rules.layout_id()) {
    return absl::InvalidArgumentError("position: not a position of the engine's rules");
  }
  game_ = Game::At(options_.rules, pos);
  return absl::OkStatus();
}

void Engine::ShrinkTable(int hash_mb) {
  if (busy_ || options_.hash_mb <= hash_mb) return;
  // A smaller table always fits where a larger one did.
  if (tt_.TryResize(hash_mb).ok()) options_.hash_mb = hash_mb;
}

size_t Engine::TableBytes() const { return tt_.slots() * sizeof(TtEntry); }

absl::Status Engine::Reuse(EngineOptions options, const std::optional<Position>& pos) {
  if (busy_) return absl::FailedPreconditionError("a search is running on this engine");
  if (pos && pos->layout_id() != options.rules.layout_id()) {
    return absl::InvalidArgumentError("position: not a position of the engine's rules");
  }
  if (options.hash_mb != options_.hash_mb) {
    if (absl::Status s = tt_.TryResize(options.hash_mb); !s.ok()) {
      return absl::ResourceExhaustedError(absl::StrCat("option Hash: ", s.message()));
    }
  }
  tt_.Clear();
  options_ = std::move(options);
  judge_ = OpponentJudge(options_.rules);
  evidence_game_ = Game(options_.rules);
  game_ = pos ? Game::At(options_.rules, *pos) : Game(options_.rules);
  return absl::OkStatus();
}

void Engine::NewGame() {
  game_ = Game(options_.rules);
  if (!busy_) tt_.Clear();
}

std::vector<PlayResult> Engine::LegalPlays(Throw t) const {
  return SortedLegalPlays(game_.position(), options_.rules, t);
}

absl::StatusOr<PlayResult> Engine::ApplyPlay(Throw t, absl::string_view play) {
  absl::StatusOr<PlayResult> r = ParsePlay(play, game_.position(), options_.rules, t);
  if (!r.ok()) return r.status();
  if (absl::Status s = game_.Play(t, play); !s.ok()) return s;
  return r;
}

Engine::OpponentVerdict Engine::OpponentSoFar() {
  const std::vector<PlayedThrow>& seen = evidence_game_.items();
  const std::vector<PlayedThrow>& items = game_.items();
  bool extends = evidence_game_.rules() == game_.rules() &&
                 evidence_game_.start() == game_.start() && seen.size() <= items.size();
  for (size_t i = 0; extends && i < seen.size(); ++i) {
    extends = seen[i].dice == items[i].dice && seen[i].play == items[i].play;
  }
  size_t from = seen.size();
  if (!extends) {
    judge_ = OpponentJudge(game_.rules());
    from = 0;
  }
  for (size_t i = from; i < items.size(); ++i) {
    judge_.Observe(items[i].before, items[i].dice,
                   i + 1 < items.size() ? items[i + 1].before : game_.position());
  }
  evidence_game_ = game_;
  OpponentVerdict verdict;
  OpponentJudge::Verdict judged = judge_.Against(game_.position());
  if (judged.team < 0) {
    // More sides: those whose plays look random, where max^n models them.
    SearchParams params = Params();
    if (params.infer_opponent && params.algorithm != Algorithm::kMcts) {
      verdict.random_sides = judged.random_sides;
    }
    return verdict;
  }
  verdict.team = judged.team;
  const PlayerEvidence& seen_of_team = judged.evidence;
  verdict.decisions = seen_of_team.decisions();
  verdict.log_odds = seen_of_team.LogOdds();
  SearchParams params = Params();
  params.opponent_looks_random = seen_of_team.LooksRandom();
  verdict.modelled_random =
      params.infer_opponent && WithOpponentInferred(params, options_.rules).random_opponent;
  return verdict;
}

absl::Status Engine::StartJob(bool infinite, std::function<void()> job) {
  if (busy_) {
    return absl::FailedPreconditionError("a search is running: send stop or wait for bestmove");
  }
  if (worker_.joinable()) worker_.join();
  stop_ = false;
  busy_ = true;
  running_infinite_ = infinite;
  worker_ = std::thread([this, job = std::move(job)] {
    job();
    running_infinite_ = false;
    busy_ = false;
  });
  return absl::OkStatus();
}

absl::Status Engine::Go(const GoRequest& request, ReportCallback on_info, DoneCallback on_done) {
  if (game_.position().IsGameOver()) {
    return absl::FailedPreconditionError("the game is over: no play to search");
  }
  Position pos = game_.position();
  SearchRequest search = RequestOf(options_, request);
  OpponentVerdict judged = OpponentSoFar();
  search.opponent_looks_random = judged.modelled_random;
  search.random_sides = judged.random_sides;
  if (absl::StatusOr<SearchParams> p = CheckSearch(pos, options_.rules, search); !p.ok()) {
    return absl::Status(p.status().code(), absl::StrCat("go: ", p.status().message()));
  }
  Rules rules = options_.rules;
  bool infinite = request.limits.infinite;
  return StartJob(infinite, [this, pos, rules, search, request, on_info, on_done] {
    absl::StatusOr<SearchReport> searched =
        SearchPosition(pos, rules, search, &tt_, stop_, on_info);
    SearchReport report = searched.ok() ? *searched : SearchReport{};
    // An infinite search reports its answer only when told to stop (UCI).
    while (request.limits.infinite && !stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::string best = request.dice && !report.candidates.empty()
                           ? PlayToString(report.candidates[0].play, pos.board())
                           : "(none)";
    on_done(report, best);
  });
}

absl::Status Engine::StartPerft(int depth, std::function<void(std::optional<uint64_t>)> on_done) {
  if (depth < 1 || depth > kMaxPerftDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("perft depth ", depth, " must be 1..", kMaxPerftDepth));
  }
  Position pos = game_.position();
  Rules rules = options_.rules;
  return StartJob(false, [this, pos, rules, depth, on_done] {
    uint64_t n = Perft(pos, rules, depth, &stop_);
    on_done(stop_ ? std::nullopt : std::optional<uint64_t>(n));
  });
}

absl::Status Engine::StartAnalysis(const std::string& level, ItemCallback on_item,
                                   std::function<void(absl::StatusOr<GameAnalysis>)> on_done) {
  if (game_.items().empty()) {
    return absl::FailedPreconditionError(
        "no game to analyse: set one with position ... moves <throw>:<play> ...");
  }
  // The text protocol's review takes no endgame table (as it always has).
  Game game = game_;
  return StartJob(false, [this, game, level, on_item, on_done] {
    on_done(AnalyseGame(game, level, stop_, on_item, nullptr));
  });
}

void Engine::Stop() { stop_ = true; }

void Engine::Wait() {
  if (worker_.joinable()) worker_.join();
}

absl::StatusOr<SearchReport> Engine::Search(const SearchRequest& request,
                                            const std::atomic<bool>& stop,
                                            const ReportCallback& on_progress) {
  if (busy_) return absl::FailedPreconditionError("a search is running on this engine");
  return SearchPosition(game_.position(), options_.rules, request, &tt_, stop, on_progress);
}

std::vector<std::vector<TermDifference>> Engine::Explain(const SearchReport& report) const {
  std::vector<std::vector<TermDifference>> out(report.candidates.size());
  const Position& pos = game_.position();
  if (report.candidates.size() < 2) return out;
  const Candidate& best = report.candidates[0];
  PlayTerms best_terms = TermsOf(pos, {best.play, best.after}, options_.rules);
  for (size_t k = 1; k < report.candidates.size(); ++k) {
    const Candidate& c = report.candidates[k];
    out[k] =
        Differences(best_terms, TermsOf(pos, {c.play, c.after}, options_.rules), pos.layout_id());
  }
  return out;
}

absl::StatusOr<EvaluationReport> Engine::Evaluate(const SearchRequest& request, bool per_throw,
                                                  const std::atomic<bool>& stop) {
  SearchRequest before = request;
  before.dice.reset();
  absl::StatusOr<SearchReport> report = Search(before, stop);
  if (!report.ok()) return report.status();
  EvaluationReport out;
  out.before = *std::move(report);
  if (!per_throw) return out;
  // Each throw's search gets a 21st of a movetime; the table carries over
  // from the search before the throw and from throw to throw.
  SearchRequest each = before;
  if (each.limits.movetime_ms) {
    each.limits.movetime_ms = std::max<int64_t>(1, *each.limits.movetime_ms / 21);
  }
  for (Throw t : kThrows) {
    each.dice = t;
    absl::StatusOr<SearchReport> r = Search(each, stop);
    if (!r.ok()) return r.status();
    out.per_throw.push_back({t, r->candidates[0]});
  }
  return out;
}

absl::StatusOr<GameAnalysis> Engine::Review(const Record& record, const std::string& level,
                                            const std::atomic<bool>& stop,
                                            const ItemCallback& on_item) const {
  return AnalyseGame(record, level, stop, on_item, options_.endgames.get());
}

BenchResult Engine::Bench() {
  BenchResult result;
  std::atomic<bool> never_stop{false};
  SearchRequest request;  // fixed: the reference level, navy, one thread
  request.level = std::string(kReferenceLevel);
  Rules rules;
  TranspositionTable tt(16);
  auto start = std::chrono::steady_clock::now();
  for (const char* ufen : kBenchPositions) {
    Position pos = *ParseUfen(ufen, rules);
    tt.Clear();
    for (Throw t : kThrows) {
      request.dice = t;
      SearchReport r = *SearchPosition(pos, rules, request, &tt, never_stop, nullptr);
      result.nodes += r.nodes;
      result.signature = Mix(result.signature, r.nodes);
      if (!r.candidates.empty()) {
        result.signature = Mix(result.signature, r.candidates[0].after.key());
      }
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.nps = static_cast<uint64_t>(result.nodes / std::max(seconds, 1e-6));
  return result;
}

std::string SidesScoreText(double win, const std::vector<double>& sides) {
  std::string text = absl::StrFormat("score win %.4f points %.4f sides", win,
                                     ExpectedPoints(win, static_cast<int>(sides.size())));
  for (double p : sides) absl::StrAppendFormat(&text, " %.4f", p);
  return text;
}

std::string Engine::BoardText() const { return DrawBoard(game_.position()); }

std::string Engine::MultiSideEvalText() const {
  // The evaluation the multi-side search uses (search/multi_side.h): each
  // side's pips, its chance of winning; the mover's score ends the text, as
  // `info` gives it.
  const Position& pos = game_.position();
  SideValues v = ClassicSideValues(pos);
  std::string text = absl::StrFormat(
      "classic evaluation for %d sides (RULES.md §11): each side's race, shape and exposure in "
      "pips, the side to throw a tempo ahead, turned into chances of winning",
      v.sides);
  for (int side = 0; side < v.sides; ++side) {
    absl::StrAppendFormat(
        &text, "\nside %d %s pips %.1f win %.4f%s", side + 1,
        absl::AsciiStrToUpper(SideLetters(pos.layout(), side)),
        pos.IsGameOver() ? 0.0 : ClassicSidePips(pos, side), v.win[side],
        !pos.IsGameOver() && pos.SideOf(pos.to_throw()) == side ? " (to throw)" : "");
  }
  // What a tutor explains a choice by (PositionTerms), per side.
  for (int side = 0; side < v.sides; ++side) {
    PlayTerms t = PositionTerms(pos, options_.rules, side);
    absl::StrAppendFormat(&text,
                          "\nterms %s exposed %d hit_chance %.4f challenge_chance %.4f race_pips "
                          "%.1f entered %d home %d",
                          absl::AsciiStrToUpper(SideLetters(pos.layout(), side)), t.exposed,
                          t.hit_chance, t.challenge_chance, t.race_pips, t.entered, t.home);
  }
  const char* search = options_.paranoid ? "paranoid" : "max^n";
  EvalKind eval = Params().eval;
  if (const Net* net = MultiSideNet(options_.rules, eval)) {
    // The net's chances follow, and its score ends the text.
    v = net->EvaluateSides(pos);
    absl::StrAppend(&text, "\n", net->Describe(), ":");
    for (int side = 0; side < v.sides; ++side) {
      absl::StrAppendFormat(&text, "\nside %d %s win %.4f", side + 1,
                            absl::AsciiStrToUpper(SideLetters(pos.layout(), side)), v.win[side]);
    }
    absl::StrAppend(&text, "\nsearches use the net (", search, ")\n");
  } else if (eval == EvalKind::kNet) {
    absl::StrAppend(&text, "\nsearches use this evaluation (", search,
                    "; no net trained for rules ", options_.rules.ToString(), ")\n");
  } else {
    absl::StrAppend(&text, "\nsearches use this evaluation (", search, ")\n");
  }
  absl::StrAppend(&text,
                  SidesScoreText(v.win[pos.SideOf(pos.to_throw())],
                                 std::vector<double>(v.win.begin(), v.win.begin() + v.sides)));
  return text;
}

std::string Engine::EvalText() const {
  if (!options_.rules.layout().IsFourSidedTeams()) return MultiSideEvalText();
  // The classic evaluation's terms, then the evaluation the searches use,
  // whose score ends the text.
  std::string text = EvalToText(game_.position(), options_.rules);
  // What a tutor explains a choice by (PositionTerms), per team.
  std::string terms;
  for (int team = 0; team < 2; ++team) {
    PlayTerms t = PositionTerms(game_.position(), options_.rules, team);
    absl::StrAppendFormat(&terms,
                          "\nterms %s exposed %d hit_chance %.4f challenge_chance %.4f race_pips "
                          "%.1f entered %d home %d",
                          team == 0 ? "RY" : "GB", t.exposed, t.hit_chance, t.challenge_chance,
                          t.race_pips, t.entered, t.home);
  }
  size_t score = text.rfind("\nscore win ");
  text.insert(score == std::string::npos ? text.size() : score, terms);
  SearchParams params = ResolveEvaluation(Params(), options_.rules);
  if (std::optional<Evaluation> exact =
          params.endgame && !game_.position().IsGameOver()
              ? TableEvaluation(game_.position(), options_.rules, params)
              : std::nullopt) {
    const Evaluation& e = *exact;
    text.erase(text.rfind("\nscore win "));
    absl::StrAppendFormat(&text,
                          "\nexact, from the endgame table %s: win %.4f (8-piecer %.4f, harbour "
                          "%.4f) loss %.4f (8-piecer %.4f, harbour %.4f)\nscore win %.4f points "
                          "%.4f",
                          options_.endgame_path, e.Win(), e.p[kWinEightPiecer], e.p[kWinInHarbour],
                          1 - e.Win(), e.p[kLossEightPiecer], e.p[kLossInHarbour], e.Win(),
                          e.Equity());
    return text;
  }
  if (params.net == nullptr || game_.position().IsGameOver()) {
    return absl::StrCat(text, "\nsearches use the ", EvaluationInUse(params, options_.rules),
                        " evaluation");
  }
  Evaluation e = params.net->Evaluate(game_.position());
  text.erase(text.rfind("\nscore win "));
  absl::StrAppend(&text, "\nsearches use the ", EvaluationInUse(params, options_.rules));
  absl::StrAppendFormat(&text,
                        "\nnet outcomes: win %.4f (8-piecer %.4f, harbour %.4f) loss %.4f "
                        "(8-piecer %.4f, harbour %.4f)\nscore win %.4f points %.4f",
                        e.Win(), e.p[kWinEightPiecer], e.p[kWinInHarbour], 1 - e.Win(),
                        e.p[kLossEightPiecer], e.p[kLossInHarbour], e.Win(), e.Equity());
  return text;
}

absl::StatusOr<Judgement> Engine::Judge(Throw t, absl::string_view play, const std::string& level,
                                        const std::atomic<bool>& stop) const {
  auto start = std::chrono::steady_clock::now();
  const Position& pos = game_.position();
  const Rules& rules = options_.rules;
  const EndgameTable* endgames = options_.endgames.get();
  if (pos.IsGameOver()) return absl::FailedPreconditionError("the game is over: no play to judge");
  absl::StatusOr<SearchRequest> request = TutorRequest(level, endgames);
  if (!request.ok()) return request.status();
  absl::StatusOr<PlayResult> played = ParsePlay(play, pos, rules, t);
  if (!played.ok()) return played.status();  // "play '...': ..."
  request->dice = t;
  TranspositionTable tt(2);
  absl::StatusOr<SearchReport> searched = SearchPosition(pos, rules, *request, &tt, stop);
  if (!searched.ok()) return searched.status();
  if (stop) return absl::CancelledError("judging stopped");
  const SearchReport& report = *searched;
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
  j.equity_lost =
      std::max(0.0, CandidatePoints(pos, j.candidates[0]) - CandidatePoints(pos, j.played));
  j.mark = MarkFor(j.equity_lost);
  if (!(j.played.after == j.candidates[0].after)) {
    PlayResult best{j.candidates[0].play, j.candidates[0].after};
    j.differences =
        Differences(TermsOf(pos, best, rules), TermsOf(pos, *played, rules), pos.layout_id());
  }
  j.time_ms = MsSince(start);
  return j;
}

absl::StatusOr<ThrowMap> Engine::MapThrows(const std::string& level,
                                           const std::atomic<bool>& stop) const {
  auto start = std::chrono::steady_clock::now();
  const Position& pos = game_.position();
  const Rules& rules = options_.rules;
  const EndgameTable* endgames = options_.endgames.get();
  if (pos.IsGameOver()) return absl::FailedPreconditionError("the game is over: no throw to map");
  absl::StatusOr<SearchRequest> request = TutorRequest(level, endgames);
  if (!request.ok()) return request.status();
  request->multipv = 1;
  ThrowMap map;
  map.level = level.empty() ? kTutorLevel : level;
  map.exact = true;
  double sum[6] = {};
  for (Throw t : kThrows) {
    // A table of its own for each throw: each entry is exactly the search
    // of that throw alone (a shared table's stored values would differ in
    // the last digits).
    TranspositionTable tt(1);
    request->dice = t;
    absl::StatusOr<SearchReport> searched = SearchPosition(pos, rules, *request, &tt, stop);
    if (!searched.ok()) return searched.status();
    if (stop) return absl::CancelledError("the throw map stopped");
    const SearchReport& r = *searched;
    ThrowMapEntry e;
    e.dice = t;
    e.probability = t.Weight() / 36.0;
    e.best = r.candidates[0];
    for (int k = 0; k < 6; ++k) sum[k] += e.probability * e.best.eval.p[k];
    map.sides.resize(e.best.sides.size());
    for (size_t s = 0; s < e.best.sides.size(); ++s) {
      map.sides[s] += e.probability * e.best.sides[s];
    }
    map.exact &= r.exact;
    map.throws.push_back(e);
  }
  for (int k = 0; k < 6; ++k) map.eval.p[k] = sum[k];
  map.time_ms = MsSince(start);
  return map;
}

}  // namespace uckers
