#include "rules/movegen.h"

#include <algorithm>
#include <tuple>

#include "rules/occupancy.h"
#include "rules/stack.h"
#include "rules/suck_back.h"
#include "rules/turn.h"

namespace uckers {
namespace {

constexpr Square kIllegal = -100;

// The board as a compile-time parameter of the generator: the four-sided
// board's path fits 64 bits, the six-sided board's needs 128.
struct FourSided {
  static constexpr Board kBoard = kFourSidedBoard;
  using Bits = uint64_t;
};
struct SixSided {
  static constexpr Board kBoard = kSixSidedBoard;
  using Bits = Bits128;
};

}  // namespace

// Generates the ordinary plays of RULES.md §4 and the challenges of §6 for
// one throw. `base` is the position with the thrower's first-throw flags
// already cleared. `kStacks`: mixie_stack (§9) is on; a template argument so
// that the generator without it pays nothing for it. `Geo`: the board, so
// that its numbers are constants.
template <bool kStacks, class Geo>
class OrdinaryGenerator {
  using Bits = typename Geo::Bits;
  static constexpr Board kB = Geo::kBoard;

 public:
  OrdinaryGenerator(const PlayGenerator& gen, Throw t, PlayList* out)
      : base_(gen.base_),
        rules_(gen.rules_),
        throw_(t),
        out_(out),
        mover_(gen.mover_),
        team_(gen.side_),
        occ_(OccupancyFor(gen)),
        lane_locked_(gen.lane_locked_),
        finished_(base_) {
    // The turn flow after a play is the same for every play of this throw,
    // unless the play takes the mover's last piece home (AddMoves redoes it):
    // before any piece moves, the game is not over and the thrower has a
    // piece not home (else the kind is kGameOver or kRelease).
    FinishPlayThatEndsNothing(finished_, throw_, rules_);
  }

  void Run() {
    // Step 5. One die alone only when no play uses both (§4, rule 5(d)):
    // the higher die if it can, else the lower.
    bool moved = BothDicePlays();
    if (!moved) moved = OneMovePlays(throw_.high, /*summed=*/false);
    if (!moved && !throw_.IsDouble()) moved = OneMovePlays(throw_.low, /*summed=*/false);
    ExactlyHomeException();
    if (!moved) AddPass();  // pass stays legal beside a challenge (§4)
    Challenges();
    if (rules_.has(Switch::kSuckBack)) {
      AddLaneCalls(finished_, mover_, throw_, rules_, out_);
    }
  }

 private:
  static const BasicOccupancy<Bits>& OccupancyFor(const PlayGenerator& gen) {
    if constexpr (sizeof(Bits) > sizeof(uint64_t)) {
      return gen.wide_occ_;
    } else {
      return gen.occ_;
    }
  }

  // Step 1. Where a single move of `n` from `from` ends, or kIllegal
  // (§4: exact throw home, opponent blobs block; bounce_back, var. D).
  Square Target(Square from, int n, Bits ignore = 0) const {
    Bits blobs = occ_.opponent_blobs & ~ignore;
    if (from == kBase) {
      return (n == 6 && !(blobs & 1)) ? kDoorstep : kIllegal;
    }
    int q = from + n;
    if (q <= kB.home) {
      return (blobs & SquareRangeOf<Bits>(from + 1, std::min(q, int{kB.last_track})))
                 ? kIllegal
                 : static_cast<Square>(q);
    }
    if (!rules_.has(Switch::kBounceBack)) return kIllegal;
    q = 2 * kB.home - q;
    Bits path = SquareRangeOf<Bits>(from + 1, kB.last_track) |
                (q <= kB.last_track ? SquareRangeOf<Bits>(q, kB.last_track) : Bits{0});
    return (blobs & path) ? kIllegal : static_cast<Square>(q);
  }

  // Whether the mover may pick up a piece on `sq` of `pos` at all
  // (mixie_stack: only a stack's top piece, §9).
  bool Movable(const Position& pos, Square sq) const {
    if (sq == kB.home) return false;
    if (lane_locked_ && sq >= kB.first_lane) return false;
    return !stacks_ || MayMoveUnderStacks(pos, mover_, sq);
  }

  void ApplyMove(Position& pos, Square from, Square to) const {
    if (stacks_) return MoveTopPiece(pos, mover_, from, to);
    pos.MovePiece(mover_, from, to);
    if (kB.OnTrack(to) && (occ_.opponents >> to & 1)) {
      pos.KnockOff(team_, kB.Absolute(mover_, to));
    }
  }

  // `after` is finished_ with the moves applied.
  void AddMoves(Position after, Move first, const Move* second) {
    if (after.pieces(mover_)[0] == kB.home) {  // all home: game over, or §7
      after = base_;
      ApplyMove(after, first.from, first.to);
      if (second) ApplyMove(after, second->from, second->to);
      FinishOrdinaryPlay(after, mover_, throw_, rules_);
    }
    Play play;
    play.kind = PlayKind::kMoves;
    play.num_moves = second ? 2 : 1;
    play.moves[0] = first;
    if (second) {
      play.moves[1] = *second;
      if (SortedOrderWanted(first, *second)) std::swap(play.moves[0], play.moves[1]);
    }
    ClearStaleLaneAttempts(after);
    out_->Add(play, after);
  }

  // Canonical spelling orders moves by (from, to), when that order can be
  // applied as written (it always can but under bounce_back).
  bool SortedOrderWanted(const Move& a, const Move& b) const {
    if (std::tie(b.from, b.to) >= std::tie(a.from, a.to)) return false;
    if (b.from != a.to) return true;
    return base_.CountAt(mover_, b.from) >= 1 + (a.from == b.from);
  }

  // Step 2. Both dice on two pieces, or an entered piece moved on, or
  // (split_single_piece) one piece landing between the dice. Moves of two
  // different pieces commute (docs/rules-reading.md), so each pair is taken
  // in one order only: high die first, and on a double the lower square
  // first; `continued_only` takes just the moved piece going on.
  bool TwoMovePlays(int first_die, int second_die, bool continued_only) {
    bool any = false;
    const auto& row = base_.pieces(mover_);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square s1 = row[i];
      if ((i > 0 && row[i - 1] == s1) || !Movable(base_, s1)) continue;
      Square t1 = Target(s1, first_die);
      if (t1 == kIllegal) continue;
      Position mid = finished_;
      ApplyMove(mid, s1, t1);
      bool reuse = s1 == kBase || rules_.has(Switch::kSplitSinglePiece);
      const auto& row2 = mid.pieces(mover_);
      for (int j = 0; j < kPiecesPerColour; ++j) {
        Square s2 = row2[j];
        if ((j > 0 && row2[j - 1] == s2) || !Movable(mid, s2)) continue;
        bool continues = s2 == t1 && reuse;
        if (continued_only && !continues) continue;
        if (throw_.IsDouble() && !continues && s2 < s1 && !stacks_) continue;
        if (s2 == t1 && !reuse && mid.CountAt(mover_, t1) < 2) continue;
        // mixie_stack: on a stack the piece just moved is the top one.
        if (s2 == t1 && !reuse && stacks_ && kB.OnTrack(t1) &&
            StackTopColour(mid, kB.Absolute(mover_, t1)) >= 0) {
          continue;
        }
        Square t2 = Target(s2, second_die);
        if (t2 == kIllegal) continue;
        Position after = mid;
        ApplyMove(after, s2, t2);
        Move a{static_cast<uint8_t>(mover_), s1, t1};
        Move b{static_cast<uint8_t>(mover_), s2, t2};
        AddMoves(after, a, &b);
        any = true;
      }
    }
    return any;
  }

  // Steps 3 and 5. One move of `n` squares by any one piece: both dice
  // summed (nothing landed between; never from base), or one die alone.
  bool OneMovePlays(int n, bool summed) {
    bool any = false;
    const auto& row = base_.pieces(mover_);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square s = row[i];
      if ((i > 0 && row[i - 1] == s) || !Movable(base_, s) || (summed && s == kBase)) {
        continue;
      }
      Square t = Target(s, n);
      if (t == kIllegal) continue;
      Position after = finished_;
      ApplyMove(after, s, t);
      AddMoves(after, Move{static_cast<uint8_t>(mover_), s, t}, nullptr);
      any = true;
    }
    return any;
  }

  // Step 4. blob_on_blob (var. C): on a double, two pieces of a blob right
  // behind an opponent blob move together, jumping it or smashing it.
  bool BlobOnBlobPlays() {
    if (!rules_.has(Switch::kBlobOnBlob) || !throw_.IsDouble()) return false;
    bool any = false;
    const auto& row = base_.pieces(mover_);
    int d = throw_.high;
    for (int i = 0; i + 1 < kPiecesPerColour; ++i) {
      Square p = row[i];
      if (row[i + 1] != p || (i > 0 && row[i - 1] == p)) continue;
      if (p < 0 || p >= kB.last_track || (occ_.partner >> p & 1)) continue;
      // superblob (§9): three or four pieces never move as a blob.
      if (rules_.has(Switch::kSuperblob) && i + 2 < kPiecesPerColour && row[i + 2] == p) continue;
      Bits front = Bits{1} << (p + 1);
      if (!(occ_.opponent_blobs & front) || !Movable(base_, p)) continue;
      Square t = Target(p, d, front);
      if (t == kIllegal) continue;
      Position after = finished_;
      if (stacks_) {  // both arrive on top of any partner pieces at t
        MoveTopPiece(after, mover_, p, t);
        MoveTopPiece(after, mover_, p, t);
      } else {
        after.MovePiece(mover_, p, t);
        after.MovePiece(mover_, p, t);
        if (kB.OnTrack(t)) after.KnockOff(team_, kB.Absolute(mover_, t));
      }
      Move m{static_cast<uint8_t>(mover_), p, t};
      AddMoves(after, m, &m);
      any = true;
    }
    return any;
  }

  bool BothDicePlays() {
    bool any = TwoMovePlays(throw_.high, throw_.low, false);
    if (!throw_.IsDouble() && stacks_) {
      // mixie_stack: moves of two pieces need not commute (a piece arriving
      // on a stack covers the one that would have left it), so both orders.
      any |= TwoMovePlays(throw_.low, throw_.high, false);
    } else if (!throw_.IsDouble() && rules_.has(Switch::kSplitSinglePiece)) {
      any |= TwoMovePlays(throw_.low, throw_.high, true);
    }
    any |= OneMovePlays(throw_.high + throw_.low, /*summed=*/true);
    any |= BlobOnBlobPlays();
    return any;
  }

  // Step 6. Rule 10(b): the last piece may go exactly home with one die.
  void ExactlyHomeException() {
    if (base_.CountNotHome(mover_) != 1) return;
    Square s = base_.pieces(mover_)[0];
    if (!Movable(base_, s) || s == kBase) return;
    for (int die : {throw_.high, throw_.low}) {
      if (s + die != kB.home || Target(s, die) != kB.home) continue;
      Position after = finished_;
      ApplyMove(after, s, kB.home);
      AddMoves(after, Move{static_cast<uint8_t>(mover_), s, kB.home}, nullptr);
    }
  }

  // Step 7. Challenges (§6): a piece right behind an opponent blob, or in
  // base with an opponent blob on the doorstep, on a throw with a six.
  void Challenges() {
    if (!throw_.HasSix()) return;
    const auto& row = base_.pieces(mover_);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square s = row[i];
      if (i > 0 && row[i - 1] == s) continue;
      if (s == kBase) {
        if (occ_.opponent_blobs & 1) AddChallenge(s);
        continue;
      }
      if (s >= kB.last_track || !(occ_.opponent_blobs >> (s + 1) & 1)) continue;
      if ((occ_.partner >> s & 1) && !rules_.has(Switch::kMixieCanChallenge)) {
        continue;
      }
      // mixie_stack: a stack challenges only by its top piece (§9).
      if (stacks_ && !MayMoveUnderStacks(base_, mover_, s)) continue;
      AddChallenge(s);
    }
  }

  void AddChallenge(Square from) {
    Position after = base_;
    after.SetChallenge(from, 1);  // the declaring six counts (rule 8(c))
    after.SetExtraOwed(0);
    Play play;
    play.kind = PlayKind::kChallenge;
    play.colour = static_cast<uint8_t>(mover_);
    play.square = from;
    out_->Add(play, after);
  }

  void AddPass() { out_->Add(Play{}, finished_); }

  const Position& base_;
  const Rules& rules_;
  const Throw throw_;
  PlayList* out_;
  const int mover_;
  const int team_;
  const BasicOccupancy<Bits>& occ_;
  const bool lane_locked_;
  static constexpr bool stacks_ = kStacks;  // mixie_stack (§9)
  Position finished_;                       // base_ after the turn flow of an ordinary play
};

namespace {

void AddForced(const Position& after, PlayList* out) { out->Add(Play{}, after); }

// snake_eyes: whether this throw is a snake-eyes throw, and which.
bool SnakeEyes(const Position& pos, const Rules& rules, Throw t, PlayList* out) {
  if (!rules.has(Switch::kSnakeEyes) || t.high != 1 || t.low != 1) return false;
  int colour = pos.to_throw();
  Position after = pos;
  after.SetSnakeFirst(pos.snake_first_mask() & ~(1 << colour));
  after.SetSnakeSecond(pos.snake_second_mask() & ~(1 << colour));
  if (pos.snake_second(colour)) {
    ResolveSecondSnakeEyes(after, rules);
  } else if (pos.snake_first(colour) && !(ComputeWideOccupancy(pos, colour).opponent_blobs & 1)) {
    ResolveSnakeEyes(after, rules);
  } else {
    return false;
  }
  AddForced(after, out);
  return true;
}

}  // namespace

PlayGenerator::PlayGenerator(const Position& pos, const Rules& rules)
    : pos_(pos),
      base_(pos),
      rules_(rules),
      mover_(pos.MovingColour()),
      side_(pos.SideOf(mover_)),
      lane_locked_(mover_ != pos.to_throw() && rules.has(Switch::kNoPartnerPipeMoves)) {
  if (pos.board().last_track < 64) {
    occ_ = ComputeOccupancy(pos, mover_);
  } else {
    wide_occ_ = ComputeWideOccupancy(pos, mover_);
  }
  int thrower = pos.to_throw();
  if (pos.IsGameOver()) {
    kind_ = Kind::kGameOver;
  } else if (pos.challenge_active()) {
    kind_ = Kind::kChallenge;
  } else if (pos.AllHome(thrower) && !pos.released(thrower)) {
    kind_ = Kind::kRelease;
  }
  if (kind_ != Kind::kChallenge) {  // any throw ends a first-throw flag
    base_.SetSnakeFirst(pos.snake_first_mask() & ~(1 << thrower));
    base_.SetSnakeSecond(pos.snake_second_mask() & ~(1 << thrower));
  }
}

void PlayGenerator::Generate(Throw t, PlayList* out) const {
  out->Clear();
  Position after = base_;
  switch (kind_) {
    case Kind::kGameOver:
      return;
    case Kind::kChallenge:
      ResolveChallengeThrow(after, t, rules_);
      return AddForced(after, out);
    case Kind::kRelease:
      ResolveReleaseThrow(after, t);
      return AddForced(after, out);
    case Kind::kOrdinary:
      if (SnakeEyes(pos_, rules_, t, out)) return;
      bool six = pos_.board().colours == kSixSidedBoard.colours;
      bool stacks = rules_.has(Switch::kMixieStack);
      if (six) {
        if (stacks) return OrdinaryGenerator<true, SixSided>(*this, t, out).Run();
        return OrdinaryGenerator<false, SixSided>(*this, t, out).Run();
      }
      if (stacks) return OrdinaryGenerator<true, FourSided>(*this, t, out).Run();
      OrdinaryGenerator<false, FourSided>(*this, t, out).Run();
  }
}

void GenerateLegalPlays(const Position& pos, const Rules& rules, Throw t, PlayList* out) {
  PlayGenerator(pos, rules).Generate(t, out);
}

}  // namespace uckers
