#include "service/text_session.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/board_text.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/ufen.h"
#include "game/facade.h"
#include "search/evaluate.h"
#include "search/expectimax.h"
#include "search/levels.h"
#include "search/multi_side.h"
#include "search/multi_side_mcts.h"
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

facade::SearchRequest RequestOf(const EngineOptions& options, const GoRequest& go) {
  facade::SearchRequest request;
  request.dice = go.dice;
  request.limits = go.limits;
  request.level = options.level;
  request.objective = options.objective;
  request.algorithm = options.algorithm;
  request.eval = options.eval;
  request.multipv = options.multipv;
  request.threads = options.threads;
  request.seed = options.seed;
  request.tree_mb = options.tree_mb;
  request.endgames = options.endgames.get();
  request.paranoid = options.paranoid;
  return request;
}

}  // namespace

TextSession::TextSession() : game_(options_.rules), tt_(options_.hash_mb) {}

SearchParams TextSession::Params() const {
  return *facade::ParamsFor(RequestOf(options_, GoRequest{}));  // options are valid
}

TextSession::~TextSession() {
  Stop();
  Wait();
}

absl::Status TextSession::SetOption(absl::string_view name, absl::string_view value) {
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
                        updated.level != options_.level || updated.endgames != options_.endgames;
  if (values_changed && !busy_) tt_.Clear();
  options_ = updated;
  if (rules_changed) game_ = Game(options_.rules);
  return absl::OkStatus();
}

absl::Status TextSession::SetPosition(absl::string_view start,
                                      const std::vector<std::string>& moves) {
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

void TextSession::NewGame() {
  game_ = Game(options_.rules);
  if (!busy_) tt_.Clear();
}

std::vector<PlayResult> TextSession::LegalPlays(Throw t) const {
  return facade::LegalPlays(game_, t);
}

absl::Status TextSession::StartJob(bool infinite, std::function<void()> job) {
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

absl::Status TextSession::Go(const GoRequest& request, ReportCallback on_info,
                             DoneCallback on_done) {
  if (game_.position().IsGameOver()) {
    return absl::FailedPreconditionError("the game is over: no play to search");
  }
  Position pos = game_.position();
  if (absl::Status s = facade::CheckClocksFor(request.limits.clocks, pos); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("go: ", s.message()));
  }
  EngineOptions options = options_;
  bool infinite = request.limits.infinite;
  return StartJob(infinite, [this, pos, options, request, on_info, on_done] {
    absl::StatusOr<SearchReport> searched =
        facade::Search(pos, options.rules, RequestOf(options, request), &tt_, stop_, on_info);
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

absl::Status TextSession::StartPerft(int depth,
                                     std::function<void(std::optional<uint64_t>)> on_done) {
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

absl::Status TextSession::StartAnalysis(const std::string& level,
                                        std::function<void(const AnalysedItem&)> on_item,
                                        std::function<void(absl::StatusOr<GameAnalysis>)> on_done) {
  if (game_.items().empty()) {
    return absl::FailedPreconditionError(
        "no game to analyse: set one with position ... moves <throw>:<play> ...");
  }
  Game game = game_;
  return StartJob(false, [this, game, level, on_item, on_done] {
    on_done(facade::AnalyseGame(game, level, stop_, on_item));
  });
}

void TextSession::Stop() { stop_ = true; }

void TextSession::Wait() {
  if (worker_.joinable()) worker_.join();
}

BenchResult TextSession::Bench() {
  BenchResult result;
  std::atomic<bool> never_stop{false};
  facade::SearchRequest request;  // fixed: default level, navy, one thread
  Rules rules;
  TranspositionTable tt(16);
  auto start = std::chrono::steady_clock::now();
  for (const char* ufen : kBenchPositions) {
    Position pos = *ParseUfen(ufen, rules);
    tt.Clear();
    for (Throw t : kThrows) {
      request.dice = t;
      SearchReport r = *facade::Search(pos, rules, request, &tt, never_stop, nullptr);
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

std::string TextSession::BoardText() const { return DrawBoard(game_.position()); }

std::string TextSession::MultiSideEvalText() const {
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

std::string TextSession::EvalText() const {
  if (!options_.rules.layout().IsFourSidedTeams()) return MultiSideEvalText();
  // The classic evaluation's terms, then the evaluation the searches use,
  // whose score ends the text.
  std::string text = EvalToText(game_.position(), options_.rules);
  // What a tutor explains a choice by (facade::PositionTerms), per team.
  std::string terms;
  for (int team = 0; team < 2; ++team) {
    facade::PlayTerms t = facade::PositionTerms(game_.position(), options_.rules, team);
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

}  // namespace uckers
