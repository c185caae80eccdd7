#include "eval/evaluate.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/dice.h"
#include "rules/occupancy.h"
#include "rules/stack.h"
#include "rules/suck_back.h"

namespace uckers {
namespace {

constexpr double kAveragePipsPerThrow = 8.17;
constexpr double kOutcomePoints[kNumOutcomes] = {1, 2, 3, -1, -2, -3};

double Logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Pips a piece still has to go: home 0, base 56 plus the entry wait.
double PipsToGo(Square sq, const EvalWeights& w) {
  if (sq == kBase) return kHome + w.entry_pips;
  return kHome - sq;
}

// Sets of the 36 ordered throws (bit 6 * (d1 - 1) + (d2 - 1)).
struct ThrowSets {
  // By one die or both summed, a move of exactly k (1..12) squares.
  std::array<uint64_t, 13> moving{};
  // Entering with a six, then (k = 1..6) the other die from the doorstep;
  // k = 0: landing on the doorstep itself, any throw with a six.
  std::array<uint64_t, 7> entering{};
};

constexpr ThrowSets MakeThrowSets() {
  ThrowSets sets;
  for (int d1 = 1; d1 <= 6; ++d1) {
    for (int d2 = 1; d2 <= 6; ++d2) {
      uint64_t bit = uint64_t{1} << (6 * (d1 - 1) + (d2 - 1));
      for (int k = 1; k <= 12; ++k) {
        if (k == d1 || k == d2 || k == d1 + d2) sets.moving[k] |= bit;
      }
      if (d1 == 6 || d2 == 6) sets.entering[0] |= bit;
      if (d1 == 6) sets.entering[d2] |= bit;
      if (d2 == 6) sets.entering[d1] |= bit;
    }
  }
  return sets;
}
constexpr ThrowSets kThrowSets = MakeThrowSets();

// Where one attacking colour's next throw can land (one die, both summed,
// or entering with a six then the other die), no move passing or landing on
// an opponent blob (RULES.md §4): each piece's reach ends at the first blob
// ahead of it. A hit chance is then the count of the union of the throw
// sets that land on the square.
class Reach {
 public:
  // `blobs`: the opponent blobs seen from `attacker` (its Occupancy).
  // Under mixie_stack (order bits present) a piece under another colour's
  // top piece cannot move, so it reaches nothing (RULES.md §9).
  Reach(const Position& pos, int attacker, uint64_t blobs) : row_(pos.pieces(attacker)) {
    bool stacks = pos.stack_order() != 0;
    for (int p = 0; p < kPiecesPerColour; ++p) {
      can_enter_ |= row_[p] == kBase && !(blobs & 1);
      if (!OnTrack(row_[p])) continue;
      if (stacks && !MayMoveUnderStacks(pos, attacker, row_[p])) continue;
      open_[p] = OpenFrom(row_[p], blobs);
    }
    from_doorstep_ = OpenFrom(0, blobs);
  }

  // Of the 36 throws, how many land on relative square `r` (0..50).
  int Hits(int r) const {
    uint64_t throws = 0;
    for (int p = 0; p < kPiecesPerColour; ++p) {
      if (open_[p] >> r & 1) throws |= kThrowSets.moving[r - row_[p]];
    }
    if (can_enter_ && (r == 0 || (r <= 6 && from_doorstep_ >> r & 1))) {
      throws |= kThrowSets.entering[r];
    }
    return std::popcount(throws);
  }

 private:
  // The squares a piece on `s` can reach: those ahead of it, up to the first
  // blob, and no further than a throw's 12 squares.
  static uint64_t OpenFrom(int s, uint64_t blobs) {
    uint64_t ahead = blobs & SquareRange(s + 1, kLastTrack);
    int first_blob = ahead ? std::countr_zero(ahead) : kLastTrack + 1;
    return SquareRange(s + 1, std::min(first_blob - 1, s + 12));
  }

  const std::array<Square, kPiecesPerColour>& row_;
  std::array<uint64_t, kPiecesPerColour> open_{};  // per piece on the track
  uint64_t from_doorstep_ = 0;
  bool can_enter_ = false;
};

// What one evaluation looks up more than once: each colour's Occupancy,
// and its Reach, made when first asked for.
class ReachCache {
 public:
  explicit ReachCache(const Position& pos) : pos_(pos), occupancy_(ComputeAllOccupancies(pos)) {}
  const Occupancy& occupancy(int colour) const { return occupancy_[colour]; }
  double HitProbability(int attacker, int abs) {
    int r = RelativeSquare(attacker, abs);
    if (r > kLastTrack) return 0.0;
    if (!reach_[attacker]) {
      reach_[attacker].emplace(pos_, attacker, occupancy_[attacker].opponent_blobs);
    }
    return reach_[attacker]->Hits(r) / 36.0;
  }

 private:
  const Position& pos_;
  std::array<Occupancy, kNumColours> occupancy_;
  std::array<std::optional<Reach>, kNumColours> reach_;
};

// Chance that the next throws of the opponents hit a piece on `abs`: the
// colour to move next weighs fully, the other opponent colour half.
double Threat(const Position& pos, int team, int abs, const EvalWeights& w, ReachCache& reach) {
  int thrower_team = TeamOf(pos.to_throw());
  int first = team == thrower_team ? NextColour(pos.to_throw()) : pos.to_throw();
  int next = first;
  if (pos.released(first)) next = PartnerOf(first);
  double p1 = reach.HitProbability(next, abs);
  double p2 = reach.HitProbability(PartnerOf(next), abs);
  return 1.0 - (1.0 - p1) * (1.0 - w.other_colour_threat * p2);
}

// suck_back: the chance that one call hits a lane piece on `lane_square`,
// counted once over the 36 throws for each of the five lane squares.
double LaneHitChance(Square lane_square) {
  static const std::array<double, kHome - kFirstLane> chance = [] {
    std::array<double, kHome - kFirstLane> out{};
    for (int q = kFirstLane; q < kHome; ++q) {
      int hits = 0;
      for (int d1 = 1; d1 <= 6; ++d1) {
        for (int d2 = 1; d2 <= 6; ++d2) {
          hits += LaneCallHits(kFourSidedBoard, MakeThrow(d1, d2), static_cast<Square>(q));
        }
      }
      out[q - kFirstLane] = hits / 36.0;
    }
    return out;
  }();
  return chance[lane_square - kFirstLane];
}

// suck_back: the chance that a call against `colour`'s piece on `sq` hits,
// if one can be made: suck back on a lane piece, blow back on a piece standing
// in line with an opponent's lane (the best lane square is called).
double LaneCallThreat(const Position& pos, int colour, Square sq) {
  if (sq >= kFirstLane && sq < kHome) {
    bool callable = OpponentInLine(pos, colour) && pos.suck_attempts(colour) < 2;
    return callable ? LaneHitChance(sq) : 0.0;
  }
  double best = 0.0;
  for (int lane : {colour ^ 1, colour ^ 3}) {
    if (AbsoluteSquare(colour, sq) != InLineSquare(kFourSidedBoard, lane) ||
        pos.blow_attempts(lane) >= 2)
      continue;
    for (Square q : pos.pieces(lane)) {
      if (q >= kFirstLane && q < kHome) best = std::max(best, LaneHitChance(q));
    }
  }
  return best;
}

void TeamTerms(const Position& pos, int team, bool suck_back, EvalTerms& t, const EvalWeights& w,
               ReachCache& reach) {
  // The side to throw can still move an exposed piece away or hit first.
  double exposure = w.exposure_factor;
  if (team == TeamOf(pos.to_throw())) exposure *= w.mover_exposure;
  for (int colour = team; colour < kNumColours; colour += 2) {
    const Occupancy& occ = reach.occupancy(colour);
    const auto& row = pos.pieces(colour);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square sq = row[i];
      double to_go = PipsToGo(sq, w);
      t.race_pips[team] += to_go;
      t.shape_pips[team] += w.straggler * to_go * to_go / kHome;
      t.in_base[team] += sq == kBase;
      t.home[team] += sq == kHome;
      if (sq >= kFirstLane && sq < kHome) t.shape_pips[team] += w.lane_pips;
      if (suck_back && sq >= 0 && sq < kHome) {
        t.exposure_pips[team] += exposure * LaneCallThreat(pos, colour, sq) * (sq + w.entry_pips);
      }
      if (!OnTrack(sq)) continue;
      int count = pos.CountAt(colour, sq);
      if (count >= 2 && !(occ.partner >> sq & 1)) {
        if (i == 0 || row[i - 1] != sq) {
          t.blobs[team] += 1;
          t.shape_pips[team] -= w.blob_pips;
        }
      } else {
        t.exposure_pips[team] += exposure *
                                 Threat(pos, team, AbsoluteSquare(colour, sq), w, reach) *
                                 (sq + w.entry_pips);
      }
      uint64_t ahead = occ.opponent_blobs &
                       SquareRange(sq + 1, std::min<int>(sq + w.block_lookahead, kLastTrack));
      t.blocked_pips[team] += w.blocked_pips * std::popcount(ahead);
    }
  }
}

Evaluation FinishedGame(const Position& pos) {
  Evaluation e;
  int level = static_cast<int>(pos.Outcome()) - 1;
  bool won = pos.WinningTeam() == TeamOf(pos.to_throw());
  e.p[won ? level : kLossPlain + level] = 1.0;
  return e;
}

// P(the losing team gets no piece home | it loses), and P(all in base).
void GammonChances(const EvalTerms& t, int winner, double& eight, double& harbour,
                   const Position& pos, const EvalWeights& w) {
  int loser = 1 - winner;
  eight = harbour = 0;
  if (t.home[loser] > 0) return;
  double best = 1e9;  // the losers' piece nearest home
  for (int colour = loser; colour < kNumColours; colour += 2) {
    for (Square sq : pos.pieces(colour)) best = std::min(best, PipsToGo(sq, w));
  }
  double winner_pips = t.race_pips[winner] + t.exposure_pips[winner];
  // The losers bring one piece home in about best/8 of their throws, the
  // winners need about winner_pips/8 of theirs, spread over both colours.
  eight = Logistic((best - winner_pips / 2.0) / 12.0);
  if (t.in_base[loser] == 2 * kPiecesPerColour) {
    double throws = winner_pips / kAveragePipsPerThrow;
    harbour = std::pow(25.0 / 36.0, throws);
  }
  harbour = std::min(harbour, eight);
}

// Every real-valued weight by its name, in declaration order: the one table
// the names, the lookup and the settings spelling are read from.
struct NamedWeight {
  const char* name;
  double EvalWeights::*field;
};
constexpr NamedWeight kNamedWeights[] = {
    {"entry_pips", &EvalWeights::entry_pips},
    {"tempo_pips", &EvalWeights::tempo_pips},
    {"blocked_pips", &EvalWeights::blocked_pips},
    {"exposure_factor", &EvalWeights::exposure_factor},
    {"other_colour_threat", &EvalWeights::other_colour_threat},
    {"mover_exposure", &EvalWeights::mover_exposure},
    {"lane_pips", &EvalWeights::lane_pips},
    {"blob_pips", &EvalWeights::blob_pips},
    {"straggler", &EvalWeights::straggler},
    {"scale_base", &EvalWeights::scale_base},
    {"scale_per_sqrt_pip", &EvalWeights::scale_per_sqrt_pip},
};

}  // namespace

const std::vector<std::string>& EvalWeightNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const NamedWeight& n : kNamedWeights) out.push_back(n.name);
    return out;
  }();
  return names;
}

double* EvalWeightByName(EvalWeights& w, std::string_view name) {
  for (const NamedWeight& n : kNamedWeights) {
    if (name == n.name) return &(w.*n.field);
  }
  return nullptr;
}

std::string EvalWeightSettings(const EvalWeights& w, const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    for (const NamedWeight& n : kNamedWeights) {
      if (name != n.name) continue;
      absl::StrAppend(&out, out.empty() ? "" : ",", "eval.", name, "=", w.*n.field);
    }
  }
  return out;
}

double Evaluation::Equity() const {
  double e = 0;
  for (int i = 0; i < kNumOutcomes; ++i) e += kOutcomePoints[i] * p[i];
  return e;
}

Evaluation Evaluation::Flipped() const {
  Evaluation f;
  for (int i = 0; i < 3; ++i) {
    f.p[i] = p[i + 3];
    f.p[i + 3] = p[i];
  }
  return f;
}

void Evaluation::AddScaled(const Evaluation& e, double w) {
  for (int i = 0; i < kNumOutcomes; ++i) p[i] += w * e.p[i];
}

double HitProbability(const Position& pos, int attacker, int abs) {
  return ReachCache(pos).HitProbability(attacker, abs);
}

Evaluation Evaluate(const Position& pos, const Rules& rules, EvalTerms* terms,
                    const EvalWeights& w) {
  if (pos.IsGameOver()) return FinishedGame(pos);
  EvalTerms t;
  bool suck_back = rules.has(Switch::kSuckBack);
  ReachCache reach(pos);
  TeamTerms(pos, 0, suck_back, t, w, reach);
  TeamTerms(pos, 1, suck_back, t, w, reach);
  int us = TeamOf(pos.to_throw()), them = 1 - us;
  auto total = [&](int team) {
    return t.race_pips[team] + t.exposure_pips[team] + t.blocked_pips[team] + t.shape_pips[team];
  };
  t.tempo_pips = w.tempo_pips;
  t.effective_lead = total(them) - total(us) + w.tempo_pips;
  t.scale =
      w.scale_base + w.scale_per_sqrt_pip * std::sqrt(std::max(1.0, (total(us) + total(them)) / 2));
  double win = Logistic(t.effective_lead / t.scale);
  Evaluation e;
  double eight_us, harbour_us, eight_them, harbour_them;
  GammonChances(t, us, eight_us, harbour_us, pos, w);
  GammonChances(t, them, eight_them, harbour_them, pos, w);
  e.p[kWinInHarbour] = win * harbour_us;
  e.p[kWinEightPiecer] = win * (eight_us - harbour_us);
  e.p[kWinPlain] = win * (1 - eight_us);
  e.p[kLossInHarbour] = (1 - win) * harbour_them;
  e.p[kLossEightPiecer] = (1 - win) * (eight_them - harbour_them);
  e.p[kLossPlain] = (1 - win) * (1 - eight_them);
  if (terms) *terms = t;
  return e;
}

std::string EvalToText(const Position& pos, const Rules& rules) {
  EvalTerms t;
  Evaluation e = Evaluate(pos, rules, &t);
  std::string out = absl::StrFormat("%-22s %10s %10s\n", "term", "RY", "GB");
  auto row = [&](const char* name, double a, double b) {
    absl::StrAppendFormat(&out, "%-22s %10.2f %10.2f\n", name, a, b);
  };
  row("race pips", t.race_pips[0], t.race_pips[1]);
  row("exposure pips", t.exposure_pips[0], t.exposure_pips[1]);
  row("blocked pips", t.blocked_pips[0], t.blocked_pips[1]);
  row("lane and blob pips", t.shape_pips[0], t.shape_pips[1]);
  row("pieces in base", t.in_base[0], t.in_base[1]);
  row("pieces home", t.home[0], t.home[1]);
  row("blobs", t.blobs[0], t.blobs[1]);
  absl::StrAppendFormat(&out, "tempo (side to throw)  %10.2f\n", t.tempo_pips);
  absl::StrAppendFormat(&out, "lead for %s to throw   %10.2f pips (scale %.2f)\n",
                        std::string(1, kColourChars[pos.to_throw()]), t.effective_lead, t.scale);
  absl::StrAppendFormat(&out,
                        "outcomes for the team to throw: win %.4f (8-piecer "
                        "%.4f, harbour %.4f) loss %.4f (8-piecer %.4f, harbour "
                        "%.4f)\n",
                        e.Win(), e.p[kWinEightPiecer], e.p[kWinInHarbour], 1 - e.Win(),
                        e.p[kLossEightPiecer], e.p[kLossInHarbour]);
  absl::StrAppendFormat(&out, "score win %.4f points %.4f", e.Win(), e.Equity());
  return out;
}

}  // namespace uckers
