#include "ladder/ladder_db.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "ladder/ladder.h"
#include "ladder/ratings.h"
#include "match/match.h"
#include "match/multi_side_match.h"
#include "match/play_game.h"
#include "match/player.h"
#include "record/text.h"
#include "rules/version.h"

namespace uckers {
namespace {

// A spec's `,key=value` settings: from the first ',' followed by a key=
// (a command line may hold commas before it), as MakePlayer reads it.
std::string OptionsOf(const std::string& spec) {
  for (size_t i = spec.find(','); i != std::string::npos; i = spec.find(',', i + 1)) {
    size_t eq = spec.find('=', i);
    size_t next = spec.find(',', i + 1);
    if (eq != std::string::npos && (next == std::string::npos || eq < next)) {
      return spec.substr(i + 1);
    }
  }
  return "";
}

std::string FileHash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  uint64_t h = 14695981039346656037ull;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      h = (h ^ static_cast<unsigned char>(buffer[i])) * 1099511628211ull;
    }
  }
  return absl::StrFormat("fnv1a64:%016x", h);
}

// Players are seeded by entrant as the in-memory ladder seeds player i by
// 1000 i: the same entrants, entered in the order of its --players, play
// the same games.
uint64_t PlayerSeed(const Entrant& e) { return 1000 * static_cast<uint64_t>(e.id - 1); }

std::string EngineVersionOf(const Entrant& e) {
  if (absl::StartsWith(e.spec, "cmd:")) return absl::StrCat("program ", e.binary_hash);
  if (absl::StartsWith(e.spec, "grpc:")) return "remote";
  return absl::StrCat("Uckers ", kVersion);
}

std::string Today() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
  return text;
}

// Whether an entrant can meet players entered under `rules`: the same board
// and sides (an entrant of schema version 1 played the four-sided game of two
// teams), since the ratings compare games of one table.
bool SameTable(const Entrant& e, const Rules& rules) {
  if (e.rules.empty()) return rules.layout().IsFourSidedTeams();
  absl::StatusOr<Rules> theirs = Rules::Parse(e.rules);
  if (!theirs.ok()) return false;
  const Layout& a = theirs->layout();
  const Layout& b = rules.layout();
  return a.num_sides == b.num_sides && a.board.colours == b.board.colours &&
         a.IsFourSidedTeams() == b.IsFourSidedTeams() && a.side_of == b.side_of;
}

// Chooses the opponents of a new entrant among the entrants of the same
// table (SameTable): all, or the `nearest` whose ratings are closest to
// `near_elo` (default the best rating).
absl::StatusOr<std::vector<Entrant>> ChooseOpponents(LadderStore& store,
                                                     const LadderAddConfig& config) {
  absl::StatusOr<std::vector<Entrant>> all = store.Entrants();
  if (!all.ok()) return all;
  std::vector<int> order;
  for (size_t i = 0; i < all->size(); ++i) {
    if (SameTable((*all)[i], config.rules)) order.push_back(static_cast<int>(i));
  }
  if (config.nearest > 0 && static_cast<int>(order.size()) > config.nearest) {
    absl::StatusOr<v1::LadderReport> table = LadderTable(store);
    if (!table.ok()) return table.status();
    double target = -1e300;
    for (int i : order) target = std::max(target, table->players(i).elo());
    if (config.near_elo) target = *config.near_elo;
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
      return std::abs(table->players(x).elo() - target) <
             std::abs(table->players(y).elo() - target);
    });
    order.resize(config.nearest);
    std::sort(order.begin(), order.end());
  }
  std::vector<Entrant> chosen;
  for (int i : order) chosen.push_back((*all)[i]);
  return chosen;
}

}  // namespace

std::string FullSwitchList(const Rules& rules) {
  std::string out = "navy";
  for (int i = 0; i < kNumSwitches; ++i) {
    Switch s = static_cast<Switch>(i);
    absl::StrAppend(&out, rules.has(s) ? "+" : "-", SwitchName(s));
  }
  return out;
}

std::string ProgramHash(const std::string& spec) {
  if (!absl::StartsWith(spec, "cmd:")) return "";
  std::string command = spec.substr(4);
  std::string options = OptionsOf(spec);
  if (!options.empty()) command.resize(command.size() - options.size() - 1);
  std::vector<std::string> words = absl::StrSplit(command, ' ', absl::SkipWhitespace());
  if (words.empty()) return "";
  if (words[0].find('/') != std::string::npos) return FileHash(words[0]);
  const char* path = std::getenv("PATH");
  for (absl::string_view dir : absl::StrSplit(path ? path : "", ':', absl::SkipEmpty())) {
    std::string candidate = absl::StrCat(dir, "/", words[0]);
    if (access(candidate.c_str(), X_OK) == 0) return FileHash(candidate);
  }
  return "";
}

absl::StatusOr<LadderAddResult> AddToLadder(const LadderAddConfig& config) {
  if (config.name.empty()) return absl::InvalidArgumentError("an entrant needs a name");
  if (absl::Status s = CheckPairsAndConcurrency(config.pairs, 1); !s.ok()) return s;
  if (config.seed + config.pairs >= (uint64_t{1} << 63)) {
    return absl::InvalidArgumentError("the seed plus the pairs must stay below 2^63");
  }
  if (config.rules.layout().IsFourSidedTeams()) {
    absl::StatusOr<std::unique_ptr<Player>> check = MakePlayer(config.spec, config.rules, 0);
    if (!check.ok()) return absl::InvalidArgumentError(check.status().message());
  } else if (absl::Status s = CheckMultiSidePlayer(config.spec, config.rules); !s.ok()) {
    return s;
  }
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenLadderStore(config.db);
  if (!store.ok()) return store.status();
  absl::StatusOr<std::vector<Entrant>> opponents = ChooseOpponents(**store, config);
  if (!opponents.ok()) return opponents.status();
  Entrant entrant{0,
                  config.name,
                  config.spec,
                  OptionsOf(config.spec),
                  ProgramHash(config.spec),
                  FullSwitchList(config.rules)};
  std::vector<PairToSchedule> pairs;
  LadderAddResult result;
  for (const Entrant& o : *opponents) {
    result.opponents.push_back(o.name);
    for (int p = 0; p < config.pairs; ++p) {
      pairs.push_back({o.id, config.seed + p, FullSwitchList(config.rules)});
    }
  }
  absl::StatusOr<int64_t> id = (*store)->AddEntrant(entrant, pairs);
  if (!id.ok()) return id.status();
  result.entrant = *id;
  result.pairs = static_cast<int>(pairs.size());
  return result;
}

namespace {

// What one worker keeps between pairs: the entrants and the players it has
// made, by entrant and ruleset.
class WorkerState {
 public:
  explicit WorkerState(LadderStore& store) : store_(store) {}

  absl::StatusOr<Entrant> EntrantById(int64_t id) {
    if (!entrants_.count(id)) {  // entered after the last look
      absl::StatusOr<std::vector<Entrant>> all = store_.Entrants();
      if (!all.ok()) return all.status();
      for (const Entrant& e : *all) entrants_[e.id] = e;
    }
    if (!entrants_.count(id)) return absl::NotFoundError(absl::StrCat("no entrant ", id));
    return entrants_[id];
  }

  absl::StatusOr<Player*> PlayerOf(const Entrant& e, const std::string& rules_text,
                                   const Rules& rules) {
    std::unique_ptr<Player>& p = players_[{e.id, rules_text}];
    if (p) return p.get();
    if (!e.binary_hash.empty() && ProgramHash(e.spec) != e.binary_hash) {
      return absl::FailedPreconditionError(
          absl::StrCat("the program of entrant '", e.name, "' is not the one entered (hash ",
                       e.binary_hash, ", here '", ProgramHash(e.spec), "')"));
    }
    absl::StatusOr<std::unique_ptr<Player>> made = MakePlayer(e.spec, rules, PlayerSeed(e));
    if (!made.ok()) return made.status();
    p = std::move(*made);
    return p.get();
  }

 private:
  LadderStore& store_;
  std::map<int64_t, Entrant> entrants_;
  std::map<std::pair<int64_t, std::string>, std::unique_ptr<Player>> players_;
};

GameRow RowOf(const TakenPair& pair, int game, const Entrant& ry, const Entrant& gb,
              const GameResult& g, const std::string& worker) {
  Record record = RecordOf(g, ry.spec, gb.spec, pair.seed);
  record.date = Today();
  GameRow row;
  row.pair_id = pair.id;
  row.game = game;
  row.ry = ry.id;
  row.gb = gb.id;
  row.rules = pair.rules;
  row.seed = pair.seed;
  row.winner_team = g.winner_team;
  row.points = static_cast<int>(g.level);
  row.forfeit = g.forfeit_team < 0 ? "" : g.forfeit_reason;
  row.record = RecordToText(record);
  row.ms_ry = g.think_ms[0];
  row.ms_gb = g.think_ms[1];
  row.version_ry = EngineVersionOf(ry);
  row.version_gb = EngineVersionOf(gb);
  row.worker = worker;
  return row;
}

// A pair of more than two sides (RULES.md §11): game s (0 .. k-1) seats
// entrant a alone on side s and b on every other side, game k + s the
// other way round, on the pair's dice.
absl::StatusOr<std::vector<GameRow>> PlaySidesPair(const TakenPair& pair, const Entrant& a,
                                                   const Entrant& b, const Rules& rules,
                                                   const std::string& worker,
                                                   const std::atomic<bool>* stop) {
  const int k = rules.layout().num_sides;
  std::vector<GameRow> rows;
  for (int game = 0; game < 2 * k; ++game) {
    if (stop && *stop) return absl::CancelledError("stopped by a signal");
    const Entrant& alone = game < k ? a : b;
    const Entrant& other = game < k ? b : a;
    int seat = game % k;
    absl::StatusOr<MultiSideGame> g =
        PlayMultiSideGame(alone.spec, other.spec, rules, pair.seed, seat);
    if (!g.ok()) return g.status();
    if (g->winner_side < 0) {
      return absl::InternalError(
          absl::StrCat("pair ", pair.id, " game ", game + 1, ": the game did not end"));
    }
    g->record.date = Today();
    GameRow row;
    row.pair_id = pair.id;
    row.game = game;
    row.ry = alone.id;
    row.gb = other.id;
    row.rules = pair.rules;
    row.seed = pair.seed;
    row.winner_team = g->winner_side == seat ? 0 : 1;
    row.points = g->record.points;
    row.record = RecordToText(g->record);
    row.ms_ry = g->alone_ms;
    row.version_ry = EngineVersionOf(alone);
    row.version_gb = EngineVersionOf(other);
    row.worker = worker;
    row.sides = k;
    row.seat = seat;
    rows.push_back(std::move(row));
  }
  return rows;
}

// Plays both games of a pair: entrant a plays RY in game 0, GB in game 1.
absl::StatusOr<std::vector<GameRow>> PlayPair(const TakenPair& pair, WorkerState& state,
                                              const std::string& worker,
                                              const std::atomic<bool>* stop) {
  absl::StatusOr<Rules> rules = Rules::Parse(pair.rules);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Entrant> a = state.EntrantById(pair.a);
  absl::StatusOr<Entrant> b = state.EntrantById(pair.b);
  if (!a.ok()) return a.status();
  if (!b.ok()) return b.status();
  if (!rules->layout().IsFourSidedTeams()) return PlaySidesPair(pair, *a, *b, *rules, worker, stop);
  absl::StatusOr<Player*> pa = state.PlayerOf(*a, pair.rules, *rules);
  absl::StatusOr<Player*> pb = state.PlayerOf(*b, pair.rules, *rules);
  if (!pa.ok()) return pa.status();
  if (!pb.ok()) return pb.status();
  std::vector<GameRow> rows;
  // A pair's two games share what each player learns of the other
  // (PlayPair, match/play_game.h), and no more.
  (*pa)->NewOpponent();
  (*pb)->NewOpponent();
  for (int game = 0; game < 2; ++game) {
    if (stop && *stop) return absl::CancelledError("stopped by a signal");
    Player* players[2] = {game == 0 ? *pa : *pb, game == 0 ? *pb : *pa};
    GameResult g = PlayGame(players, *rules, pair.seed);
    if (g.winner_team < 0) {
      return absl::InternalError(
          absl::StrCat("pair ", pair.id, " game ", game + 1, ": ", g.forfeit_reason));
    }
    rows.push_back(RowOf(pair, game, game == 0 ? *a : *b, game == 0 ? *b : *a, g, worker));
  }
  return rows;
}

// Whether a worker with nothing to take now should stop: with until_empty,
// when no pair is left that is not done.
absl::StatusOr<bool> NothingLeft(LadderStore& store, bool until_empty) {
  if (!until_empty) return false;
  absl::StatusOr<PairCounts> counts = store.CountPairs();
  if (!counts.ok()) return counts.status();
  return counts->queued + counts->taken == 0;
}

}  // namespace

absl::StatusOr<int64_t> WorkLadder(const LadderWorkConfig& config) {
  if (!(config.lease_seconds > 0 && config.lease_seconds <= 7 * 86400)) {
    return absl::InvalidArgumentError("the lease must be 0 .. 604800 seconds");
  }
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenLadderStore(config.db);
  if (!store.ok()) return store.status();
  WorkerState state(**store);
  std::string token = WorkerToken();
  int64_t finished = 0;
  auto stopped = [&] { return config.stop && *config.stop; };
  while ((config.max_pairs <= 0 || finished < config.max_pairs) && !stopped()) {
    absl::StatusOr<std::optional<TakenPair>> pair = (*store)->TakePair(token, config.lease_seconds);
    if (!pair.ok()) return pair.status();
    if (!*pair) {
      absl::StatusOr<bool> stop = NothingLeft(**store, config.until_empty);
      if (!stop.ok()) return stop.status();
      if (*stop) break;
      // Held pairs come back when their leases run out; new ones when added.
      auto until = std::chrono::steady_clock::now() +
                   std::chrono::milliseconds(config.until_empty ? 200 : 2000);
      while (!stopped() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      continue;
    }
    if (config.log) *config.log << "pair " << (*pair)->id << " taken" << std::endl;
    absl::StatusOr<std::vector<GameRow>> games = PlayPair(**pair, state, token, config.stop);
    if (!games.ok() || stopped()) {
      // Stopped, or a game that cannot be played: the pair goes back to the
      // queue now rather than when its lease runs out.
      absl::StatusOr<bool> released = (*store)->ReleasePair((*pair)->id, token);
      if (config.log) {
        *config.log << "pair " << (*pair)->id
                    << (released.ok() && *released ? " handed back" : " not handed back")
                    << std::endl;
      }
      if (!games.ok() && !absl::IsCancelled(games.status())) return games.status();
      break;
    }
    absl::StatusOr<bool> kept = (*store)->FinishPair((*pair)->id, token, *games);
    if (!kept.ok()) return kept.status();
    if (*kept) ++finished;
    if (config.log) {
      *config.log << "pair " << (*pair)->id
                  << (*kept ? " done" : " lost: its lease ran out and another worker took it")
                  << std::endl;
    }
  }
  return finished;
}

absl::StatusOr<v1::LadderReport> LadderTable(LadderStore& store) {
  absl::StatusOr<std::vector<Entrant>> entrants = store.Entrants();
  if (!entrants.ok()) return entrants.status();
  absl::StatusOr<std::vector<GameOutcome>> outcomes = store.Outcomes();
  if (!outcomes.ok()) return outcomes.status();
  int n = static_cast<int>(entrants->size());
  std::map<int64_t, int> index;
  for (int i = 0; i < n; ++i) index[(*entrants)[i].id] = i;
  std::vector<std::vector<int>> wins(n, std::vector<int>(n, 0));
  std::vector<std::set<int64_t>> pairs(n);
  for (const GameOutcome& o : *outcomes) {
    if (!index.count(o.winner) || !index.count(o.loser)) {
      return absl::DataLossError(absl::StrCat("game of pair ", o.pair_id, " names no entrant"));
    }
    ++wins[index[o.winner]][index[o.loser]];
    pairs[index[o.winner]].insert(o.pair_id);
    pairs[index[o.loser]].insert(o.pair_id);
  }
  v1::LadderReport report;
  report.set_mode("database");
  report.set_games(static_cast<int>(outcomes->size()));
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back((*entrants)[i].name);
  int most_sides = 2;
  for (const GameOutcome& o : *outcomes) most_sides = std::max(most_sides, o.sides);
  if (most_sides == 2) {
    AddRatedPlayers(wins, names, &report);
  } else {
    // Games of more sides: Luce's choice model over every game, each the
    // lone entrant against the other (docs/ladder.md, "More sides").
    std::map<std::tuple<int, int, int>, AloneGames> kinds;
    for (const GameOutcome& o : *outcomes) {
      // With two sides either player is "alone": take the winner.
      int64_t alone_id = o.sides > 2 ? o.alone : o.winner;
      int64_t other_id = alone_id == o.winner ? o.loser : o.winner;
      int alone = index[alone_id];
      int other = index[other_id];
      AloneGames& g = kinds[{alone, other, o.sides}];
      g.alone = alone;
      g.other = other;
      g.sides = o.sides;
      ++g.games;
      g.alone_won += index[o.winner] == alone;
    }
    std::vector<AloneGames> games;
    for (const auto& [key, g] : kinds) games.push_back(g);
    std::vector<EloRating> ratings = LuceElo(n, games);
    for (int i = 0; i < n; ++i) {
      v1::LadderPlayer* p = report.add_players();
      int won = 0, played = 0;
      for (int j = 0; j < n; ++j) {
        won += wins[i][j];
        played += wins[i][j] + wins[j][i];
      }
      p->set_name(names[i]);
      p->set_games(played);
      p->set_wins(won);
      p->set_score(played ? static_cast<double>(won) / played : 0);
      p->set_elo(ratings[i].elo);
      p->set_elo_low(ratings[i].low);
      p->set_elo_high(ratings[i].high);
    }
    report.set_sides(most_sides);
  }
  for (int i = 0; i < n; ++i) {
    report.mutable_players(i)->set_pairs(static_cast<int>(pairs[i].size()));
  }
  return report;
}

std::string LadderTableText(const v1::LadderReport& r) {
  std::string out = absl::StrFormat("%-3s %-32s %8s %20s %7s %6s %7s\n", "#", "name", "Elo",
                                    "95% interval", "games", "pairs", "score");
  int rank = 0;
  for (const v1::LadderPlayer* p : ByRating(r)) {
    absl::StrAppendFormat(&out, "%-3d %-32s %+8.1f %+9.1f .. %+8.1f %7d %6d %6.1f%%\n", ++rank,
                          p->name(), p->elo(), p->elo_low(), p->elo_high(), p->games(), p->pairs(),
                          100 * p->score());
  }
  absl::StrAppendFormat(&out, "%d games; Elo relative to %s\n", r.games(),
                        r.players_size() ? r.players(0).name() : "the first entrant");
  if (r.sides() > 2) {
    out +=
        "games of more sides: each entrant alone against the other on every other side, "
        "rated by Luce's choice model (docs/ladder.md)\n";
  }
  return out;
}

std::string WorkerToken() {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  std::random_device rd;
  return absl::StrFormat("%s:%d:%08x", host, getpid(), rd());
}

}  // namespace uckers
