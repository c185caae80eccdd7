#include "learn/selfplay.h"

#include <algorithm>
#include <random>

#include "endgame/table.h"
#include "rules/dice_sequence.h"
#include "rules/movegen.h"
#include "search/expectimax.h"
#include "search/multi_side.h"

namespace uckers {
namespace {

// The exact outcome of a finished game, or the net's, for the team to throw.
Evaluation Value(const Net& net, const Position& pos, NetInputs* inputs) {
  if (pos.IsGameOver()) return Evaluate(pos, net.rules());
  *inputs = net.Encode(pos);
  return net.Evaluate(*inputs, pos.to_throw());
}

// The same, exact where the table of `tables` (its `endgame`, nullptr for
// none) covers the position, as the search values it (TableEvaluation);
// `*exact` says so. The inputs are encoded either way, for the sample.
Evaluation Value(const Net& net, const SearchParams& tables, const Position& pos, NetInputs* inputs,
                 bool* exact) {
  std::optional<Evaluation> e =
      pos.IsGameOver() ? std::nullopt : TableEvaluation(pos, net.rules(), tables);
  *exact = e.has_value();
  if (!*exact) return Value(net, pos, inputs);
  *inputs = net.Encode(pos);
  return *e;
}

double WinFor(const Evaluation& e, const Position& pos, int team) {
  return TeamOf(pos.to_throw()) == team ? e.Win() : 1 - e.Win();
}

std::array<float, kNumOutcomes> ToArray(const Evaluation& e) {
  std::array<float, kNumOutcomes> a{};
  for (int i = 0; i < kNumOutcomes; ++i) a[i] = static_cast<float>(e.p[i]);
  return a;
}

// The λ-returns, from the last position back to the first; `values[t]` is
// the value of position t for its own team, the last one the exact outcome.
// The return is cut where `explored[t]`: position t's play was not the
// net's, so t keeps its own value and the positions before bootstrap from it.
void LabelLambdaReturns(const std::vector<Evaluation>& values, const std::vector<int>& teams,
                        const std::vector<bool>& explored, double lambda, SelfPlayGame* game) {
  size_t n = game->samples.size();
  Evaluation g = values[n];  // the final position's exact outcome
  for (size_t t = n; t-- > 0;) {
    if (explored[t]) {
      g = values[t];
      game->samples[t].target = ToArray(g);
      continue;
    }
    Evaluation next;
    next.AddScaled(values[t + 1], 1 - lambda);
    next.AddScaled(g, lambda);
    g = teams[t] == teams[t + 1] ? next : next.Flipped();
    game->samples[t].target = ToArray(g);
  }
}

}  // namespace

Evaluation LookaheadValue(const Net& net, const Position& pos) {
  int team = TeamOf(pos.to_throw());
  Evaluation sum;
  PlayList plays;
  NetInputs scratch;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, net.rules(), t, &plays);
    double best = -1;
    Evaluation best_value;
    for (const PlayResult& r : plays) {
      Evaluation e = Value(net, r.after, &scratch);
      if (TeamOf(r.after.to_throw()) != team) e = e.Flipped();
      if (e.Win() > best) {
        best = e.Win();
        best_value = e;
      }
    }
    sum.AddScaled(best_value, t.Weight() / 36.0);
  }
  return sum;
}

namespace {

// How self-play values a position: exact where the table covers it
// (`tables.endgame`, nullptr for none). Against a random team, the
// positions where it throws are marked so (MarkRandomThrower): the inputs
// are read from the thrower's side and would not tell the two teams' games
// apart.
struct SelfPlayValuer {
  const Net& net;
  SearchParams tables;  // only its endgame table is read
  int random_team;      // -1: none

  Evaluation operator()(const Position& p, NetInputs* in, bool* is_exact) const {
    if (random_team < 0) return Value(net, tables, p, in, is_exact);
    *is_exact = false;
    return ValueAgainstRandom(net, p, random_team, in);
  }
};

// What self-play keeps of each position to label the game's samples.
struct SelfPlayTrace {
  std::vector<Evaluation> values;  // each position's value, the last one's too
  std::vector<int> teams;          // each position's team to throw, the last one's too
  std::vector<bool> exact;         // whether each position's value is the table's
  std::vector<bool> explored;      // whether each position's play was drawn at random
};

// Records the position `pos` before its throw: its inputs, whether its
// value (the trace's last) is exact, and `team` to throw.
void RecordPosition(const Position& pos, const NetInputs& inputs, bool is_exact, int team,
                    SelfPlayGame* game, SelfPlayTrace* trace) {
  game->samples.push_back({inputs, {}});
  game->positions.push_back(pos);
  trace->exact.push_back(is_exact);
  game->win.push_back(static_cast<float>(trace->values.back().Win()));
  trace->teams.push_back(team);
}

// Plays one of `plays` drawn from `rng`: `*pos` becomes the position after
// it, `*inputs` and `*is_exact` its own; returns its value.
Evaluation DrawPlay(const PlayList& plays, std::mt19937_64& rng, const SelfPlayValuer& value,
                    Position* pos, NetInputs* inputs, bool* is_exact) {
  NetInputs drawn_inputs;
  bool drawn_exact = false;
  std::uniform_int_distribution<int> pick(0, plays.size() - 1);
  const PlayResult& r = plays[pick(rng)];
  Evaluation drawn = value(r.after, &drawn_inputs, &drawn_exact);
  *pos = r.after;
  *inputs = drawn_inputs;
  *is_exact = drawn_exact;
  return drawn;
}

// Plays the best of `plays` for `team` by its value (the first of equals):
// `*pos` becomes the position after it, `*inputs` and `*is_exact` its own;
// returns its value.
Evaluation BestPlay(const PlayList& plays, int team, const SelfPlayValuer& value, Position* pos,
                    NetInputs* inputs, bool* is_exact) {
  double best = -1;
  Evaluation best_value;
  NetInputs best_inputs, candidate;
  bool best_exact = false;
  for (const PlayResult& r : plays) {
    bool candidate_exact = false;
    Evaluation e = value(r.after, &candidate, &candidate_exact);
    double win = WinFor(e, r.after, team);
    if (win > best) {
      best = win;
      best_value = e;
      best_inputs = candidate;
      best_exact = candidate_exact;
      *pos = r.after;
    }
  }
  *inputs = best_inputs;
  *is_exact = best_exact;
  return best_value;
}

// Plays the game on the dice of `seed` from `*pos` until it ends or the
// throws run out, recording each position in `game` and `trace`.
void PlayOut(const Net& net, uint64_t seed, double explore, int random_team,
             const SelfPlayValuer& value, Position* pos, SelfPlayGame* game, SelfPlayTrace* trace) {
  DiceSequence dice(seed);
  // The exploring draws come from their own stream, so that the dice are
  // those of the same seed without exploring.
  std::mt19937_64 explorer(seed ^ 0x9E3779B97F4A7C15ull);
  std::mt19937_64 opponent(seed ^ 0xC2B2AE3D27D4EB4Full);  // random_team's draws
  std::uniform_real_distribution<double> chance(0.0, 1.0);
  NetInputs inputs;
  bool is_exact = false;
  trace->values.push_back(value(*pos, &inputs, &is_exact));
  PlayList plays;
  while (!pos->IsGameOver() && game->throws < kMaxSelfPlayThrows) {
    int team = TeamOf(pos->to_throw());
    RecordPosition(*pos, inputs, is_exact, team, game, trace);
    GenerateLegalPlays(*pos, net.rules(), dice.Next(), &plays);
    bool random_turn = team == random_team;
    bool exploring =
        random_team < 0 && explore > 0 && plays.size() > 1 && chance(explorer) < explore;
    trace->explored.push_back(exploring);
    trace->values.push_back(
        random_turn || exploring
            ? DrawPlay(plays, random_turn ? opponent : explorer, value, pos, &inputs, &is_exact)
            : BestPlay(plays, team, value, pos, &inputs, &is_exact));
    ++game->throws;
  }
}

// Blends each sample's target with the one-throw expectimax value (of
// `teacher` where given, its evaluation at `teacher_depth` 0), `lookahead`
// of it.
void BlendLookahead(const Net& net, double lookahead, const Net* teacher, int teacher_depth,
                    SelfPlayGame* game) {
  for (size_t t = 0; lookahead > 0 && t < game->positions.size(); ++t) {
    const Position& seen = game->positions[t];
    Evaluation deeper = teacher && teacher_depth == 0
                            ? teacher->Evaluate(seen)
                            : LookaheadValue(teacher ? *teacher : net, seen);
    auto& target = game->samples[t].target;
    for (int k = 0; k < kNumOutcomes; ++k) {
      target[k] = static_cast<float>((1 - lookahead) * target[k] + lookahead * deeper.p[k]);
    }
  }
}

// The positions the table values exactly keep that value as their target.
void UseExactValues(const SelfPlayTrace& trace, SelfPlayGame* game) {
  for (size_t t = 0; t < game->samples.size(); ++t) {
    if (!trace.exact[t]) continue;
    game->samples[t].target = ToArray(trace.values[t]);
    ++game->exact;
  }
}

}  // namespace

SelfPlayGame PlaySelfPlayGame(const Net& net, uint64_t seed, double lambda, double lookahead,
                              const Net* teacher, int teacher_depth, const EndgameTable* table,
                              double explore, int random_team) {
  SelfPlayGame game;
  Position pos = Position::Start(net.rules());
  SelfPlayValuer value{net, SearchParams{}, random_team};
  value.tables.endgame = table;
  SelfPlayTrace trace;
  PlayOut(net, seed, explore, random_team, value, &pos, &game, &trace);
  game.finished = pos.IsGameOver();
  if (!game.finished) {
    // Stopped at the cap: nothing to learn from an unfinished game.
    game.samples.clear();
    game.positions.clear();
    game.win.clear();
    return game;
  }
  trace.teams.push_back(TeamOf(pos.to_throw()));
  LabelLambdaReturns(trace.values, trace.teams, trace.explored, lambda, &game);
  BlendLookahead(net, lookahead, teacher, teacher_depth, &game);
  UseExactValues(trace, &game);
  int winners = pos.WinningTeam();
  for (size_t t = 0; t < game.samples.size(); ++t) game.won.push_back(trace.teams[t] == winners);
  return game;
}

double NetVersusClassicPair(const Net& net, uint64_t seed) {
  const Rules& rules = net.rules();
  double points = 0;
  for (int net_team = 0; net_team < 2; ++net_team) {
    DiceSequence dice(seed);  // the same dice for both games of the pair
    Position pos = Position::Start(rules);
    PlayList plays;
    int throws = 0;
    while (!pos.IsGameOver() && throws++ < kMaxSelfPlayThrows) {
      int team = TeamOf(pos.to_throw());
      GenerateLegalPlays(pos, rules, dice.Next(), &plays);
      double best = -1;
      Position next = plays[0].after;
      for (const PlayResult& r : plays) {
        Evaluation e = team == net_team ? net.Evaluate(r.after) : Evaluate(r.after, rules);
        double win = WinFor(e, r.after, team);
        if (win > best) {
          best = win;
          next = r.after;
        }
      }
      pos = next;
    }
    points += pos.IsGameOver() ? (pos.WinningTeam() == net_team ? 1.0 : 0.0) : 0.5;
  }
  return points;
}

namespace {

// Every side's chance, exact for a finished game, else the net's.
SideValues SideValue(const Net& net, const Position& pos, SideNetInputs* inputs) {
  if (pos.IsGameOver()) return TerminalSideValues(pos);
  *inputs = EncodeSideNetInputs(pos, net.rules());
  std::array<float, kMaxColours> chances{};
  net.EvaluateSides(*inputs, chances.data());
  SideValues v;
  v.sides = pos.num_sides();
  int our_side = pos.SideOf(pos.to_throw());
  for (int j = 0; j < v.sides; ++j) v.win[(our_side + j) % v.sides] = chances[j];
  return v;
}

}  // namespace

SideValues SideLookaheadValue(const Net& net, const Position& pos) {
  if (pos.IsGameOver()) return TerminalSideValues(pos);
  const int side = pos.SideOf(pos.to_throw());
  SideValues sum;
  sum.sides = pos.num_sides();
  PlayList plays;
  SideNetInputs scratch;
  for (Throw t : kThrows) {
    GenerateLegalPlays(pos, net.rules(), t, &plays);
    double best = -1;
    SideValues best_value;
    for (const PlayResult& r : plays) {
      SideValues v = SideValue(net, r.after, &scratch);
      if (v.win[side] > best) {
        best = v.win[side];
        best_value = v;
      }
    }
    for (int s = 0; s < sum.sides; ++s) sum.win[s] += best_value.win[s] * t.Weight() / 36.0;
  }
  return sum;
}

SideSelfPlayGame PlaySideSelfPlayGame(const Net& net, uint64_t seed, double lambda,
                                      double lookahead) {
  const Rules& rules = net.rules();
  SideSelfPlayGame game;
  DiceSequence dice(seed);
  Position pos = Position::Start(rules);
  const int k = pos.num_sides();
  std::vector<SideValues> values;
  std::vector<int> sides;
  SideNetInputs inputs;
  values.push_back(SideValue(net, pos, &inputs));
  PlayList plays;
  std::vector<Position> seen;  // each position before a throw, for the lookahead
  while (!pos.IsGameOver() && game.throws < kMaxSelfPlayThrows) {
    int side = pos.SideOf(pos.to_throw());
    if (lookahead > 0) seen.push_back(pos);
    game.samples.push_back({inputs, {}});
    game.win.push_back(static_cast<float>(values.back().win[side]));
    sides.push_back(side);
    GenerateLegalPlays(pos, rules, dice.Next(), &plays);
    double best = -1;
    SideValues best_value;
    SideNetInputs best_inputs, candidate;
    for (const PlayResult& r : plays) {
      SideValues v = SideValue(net, r.after, &candidate);
      if (v.win[side] > best) {
        best = v.win[side];
        best_value = v;
        best_inputs = candidate;
        pos = r.after;
      }
    }
    values.push_back(best_value);
    inputs = best_inputs;
    ++game.throws;
  }
  game.finished = pos.IsGameOver();
  if (!game.finished) {
    game.samples.clear();
    game.win.clear();
    return game;
  }
  // The λ-returns, backwards from the exact outcome, on every side's chance
  // (no turning needed: the vector names the sides); each target then in
  // turn order from its position's thrower's side.
  size_t n = game.samples.size();
  SideValues g = values[n];
  for (size_t t = n; t-- > 0;) {
    for (int s = 0; s < k; ++s) {
      g.win[s] = (1 - lambda) * values[t + 1].win[s] + lambda * g.win[s];
    }
    // The lookahead refines the target, not the return carried backwards.
    SideValues target = g;
    if (lookahead > 0) {
      SideValues deeper = SideLookaheadValue(net, seen[t]);
      for (int s = 0; s < k; ++s) {
        target.win[s] = (1 - lookahead) * g.win[s] + lookahead * deeper.win[s];
      }
    }
    for (int j = 0; j < k; ++j) {
      game.samples[t].target[j] = static_cast<float>(target.win[(sides[t] + j) % k]);
    }
  }
  int winner = pos.WinningSide();
  for (size_t t = 0; t < n; ++t) game.won.push_back(sides[t] == winner);
  return game;
}

double SideNetVersusClassicSet(const Net& net, uint64_t seed) {
  const Rules& rules = net.rules();
  const int k = rules.layout().num_sides;
  double won = 0;
  for (int net_side = 0; net_side < k; ++net_side) {
    DiceSequence dice(seed);  // the same dice with the net on every side
    Position pos = Position::Start(rules);
    PlayList plays;
    int throws = 0;
    while (!pos.IsGameOver() && throws++ < kMaxSelfPlayThrows) {
      int side = pos.SideOf(pos.to_throw());
      GenerateLegalPlays(pos, rules, dice.Next(), &plays);
      double best = -1;
      Position next = plays[0].after;
      for (const PlayResult& r : plays) {
        SideValues v = side == net_side ? net.EvaluateSides(r.after) : ClassicSideValues(r.after);
        if (v.win[side] > best) {
          best = v.win[side];
          next = r.after;
        }
      }
      pos = next;
    }
    if (pos.IsGameOver() && pos.WinningSide() == net_side) won += 1;
  }
  return won;
}

}  // namespace uckers
