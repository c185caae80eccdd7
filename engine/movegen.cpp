#include "engine/movegen.h"

#include <algorithm>
#include <tuple>

#include "engine/occupancy.h"
#include "engine/turn.h"

namespace uckers {
namespace {

constexpr Square kIllegal = -100;

// Generates the ordinary plays of RULES.md §4 and the challenges of §6 for
// one throw. `base` is the position with the thrower's first-throw flags
// already cleared.
class OrdinaryGenerator {
 public:
  OrdinaryGenerator(const Position& base, const Rules& rules, Throw t,
                    PlayList* out)
      : base_(base),
        rules_(rules),
        throw_(t),
        out_(out),
        mover_(base.MovingColour()),
        team_(TeamOf(mover_)),
        occ_(ComputeOccupancy(base, mover_)),
        lane_locked_(mover_ != base.to_throw() &&
                     rules.has(Switch::kNoPartnerPipeMoves)) {}

  void Run() {
    bool moved = BothDicePlays();
    if (!moved) moved = SingleDiePlays(throw_.high);
    if (!moved && !throw_.IsDouble()) moved = SingleDiePlays(throw_.low);
    ExactlyHomeException();
    if (!moved) AddPass();  // pass stays legal beside a challenge (§4)
    Challenges();
  }

 private:
  // Step 1. Where a single move of `n` from `from` ends, or kIllegal
  // (§4: exact throw home, opponent blobs block; bounce_back, var. D).
  Square Target(Square from, int n, uint64_t ignore = 0) const {
    uint64_t blobs = occ_.opponent_blobs & ~ignore;
    if (from == kBase) {
      return (n == 6 && !(blobs & 1)) ? kDoorstep : kIllegal;
    }
    int q = from + n;
    if (q <= kHome) {
      return (blobs & SquareRange(from + 1, std::min(q, int{kLastTrack})))
                 ? kIllegal
                 : static_cast<Square>(q);
    }
    if (!rules_.has(Switch::kBounceBack)) return kIllegal;
    q = 2 * kHome - q;
    uint64_t path = SquareRange(from + 1, kLastTrack) |
                    (q <= kLastTrack ? SquareRange(q, kLastTrack) : 0);
    return (blobs & path) ? kIllegal : static_cast<Square>(q);
  }

  // Whether the mover may pick up a piece on `sq` at all.
  bool Movable(Square sq) const {
    if (sq == kHome) return false;
    return !(lane_locked_ && sq >= kFirstLane);
  }

  void ApplyMove(Position& pos, Square from, Square to) const {
    pos.MovePiece(mover_, from, to);
    if (OnTrack(to) && (occ_.opponents >> to & 1)) {
      pos.KnockOff(team_, AbsoluteSquare(mover_, to));
    }
  }

  void AddMoves(Position after, Move first, const Move* second) {
    FinishOrdinaryPlay(after, mover_, throw_, rules_);
    Play play;
    play.kind = PlayKind::kMoves;
    play.num_moves = second ? 2 : 1;
    play.moves[0] = first;
    if (second) {
      play.moves[1] = *second;
      if (SortedOrderWanted(first, *second)) std::swap(play.moves[0], play.moves[1]);
    }
    out_->Add(play, after);
  }

  // Canonical spelling orders moves by (from, to), when that order can be
  // applied as written (it always can but under bounce_back).
  bool SortedOrderWanted(const Move& a, const Move& b) const {
    if (std::tie(b.from, b.to) >= std::tie(a.from, a.to)) return false;
    if (b.from != a.to) return true;
    return base_.CountAt(mover_, b.from) >= 1 + (a.from == b.from);
  }

  // Step 2. Both dice on two pieces (either order), or an entered piece moved
  // on, or (split_single_piece) one piece landing between the dice.
  bool TwoMovePlays(int first_die, int second_die) {
    bool any = false;
    const auto& row = base_.pieces(mover_);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square s1 = row[i];
      if ((i > 0 && row[i - 1] == s1) || !Movable(s1)) continue;
      Square t1 = Target(s1, first_die);
      if (t1 == kIllegal) continue;
      Position mid = base_;
      ApplyMove(mid, s1, t1);
      bool reuse = s1 == kBase || rules_.has(Switch::kSplitSinglePiece);
      const auto& row2 = mid.pieces(mover_);
      for (int j = 0; j < kPiecesPerColour; ++j) {
        Square s2 = row2[j];
        if ((j > 0 && row2[j - 1] == s2) || !Movable(s2)) continue;
        if (s2 == t1 && !reuse && mid.CountAt(mover_, t1) < 2) continue;
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

  // Step 3. Both dice summed on one piece: one move, nothing landed between.
  bool SummedPlays() {
    bool any = false;
    const auto& row = base_.pieces(mover_);
    int n = throw_.high + throw_.low;
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square s = row[i];
      if ((i > 0 && row[i - 1] == s) || s == kBase || !Movable(s)) continue;
      Square t = Target(s, n);
      if (t == kIllegal) continue;
      Position after = base_;
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
      if (p < 0 || p >= kLastTrack || (occ_.partner >> p & 1)) continue;
      uint64_t front = uint64_t{1} << (p + 1);
      if (!(occ_.opponent_blobs & front) || !Movable(p)) continue;
      Square t = Target(p, d, front);
      if (t == kIllegal) continue;
      Position after = base_;
      after.MovePiece(mover_, p, t);
      after.MovePiece(mover_, p, t);
      if (OnTrack(t)) after.KnockOff(team_, AbsoluteSquare(mover_, t));
      Move m{static_cast<uint8_t>(mover_), p, t};
      AddMoves(after, m, &m);
      any = true;
    }
    return any;
  }

  bool BothDicePlays() {
    bool any = TwoMovePlays(throw_.high, throw_.low);
    if (!throw_.IsDouble()) any |= TwoMovePlays(throw_.low, throw_.high);
    any |= SummedPlays();
    any |= BlobOnBlobPlays();
    return any;
  }

  // Step 5. One die alone, when no play uses both (§4, rule 5(d)).
  bool SingleDiePlays(int die) {
    bool any = false;
    const auto& row = base_.pieces(mover_);
    for (int i = 0; i < kPiecesPerColour; ++i) {
      Square s = row[i];
      if ((i > 0 && row[i - 1] == s) || !Movable(s)) continue;
      Square t = Target(s, die);
      if (t == kIllegal) continue;
      Position after = base_;
      ApplyMove(after, s, t);
      AddMoves(after, Move{static_cast<uint8_t>(mover_), s, t}, nullptr);
      any = true;
    }
    return any;
  }

  // Step 6. Rule 10(b): the last piece may go exactly home with one die.
  void ExactlyHomeException() {
    if (base_.CountNotHome(mover_) != 1) return;
    Square s = base_.pieces(mover_)[0];
    if (!Movable(s) || s == kBase) return;
    for (int die : {throw_.high, throw_.low}) {
      if (s + die != kHome || Target(s, die) != kHome) continue;
      Position after = base_;
      ApplyMove(after, s, kHome);
      AddMoves(after, Move{static_cast<uint8_t>(mover_), s, kHome}, nullptr);
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
      if (s >= kLastTrack || !(occ_.opponent_blobs >> (s + 1) & 1)) continue;
      if ((occ_.partner >> s & 1) && !rules_.has(Switch::kMixieCanChallenge)) {
        continue;
      }
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
    play.challenge_from = from;
    out_->Add(play, after);
  }

  void AddPass() {
    Position after = base_;
    FinishOrdinaryPlay(after, mover_, throw_, rules_);
    out_->Add(Play{}, after);
  }

  const Position& base_;
  const Rules& rules_;
  const Throw throw_;
  PlayList* out_;
  const int mover_;
  const int team_;
  const Occupancy occ_;
  const bool lane_locked_;
};

void AddForced(const Position& after, PlayList* out) { out->Add(Play{}, after); }

// snake_eyes: whether this throw is a snake-eyes throw, and which.
bool SnakeEyes(const Position& pos, const Rules& rules, Throw t,
               PlayList* out) {
  if (!rules.has(Switch::kSnakeEyes) || t.high != 1 || t.low != 1) return false;
  int colour = pos.to_throw();
  Position after = pos;
  after.SetSnakeFirst(pos.snake_first_mask() & ~(1 << colour));
  after.SetSnakeSecond(pos.snake_second_mask() & ~(1 << colour));
  if (pos.snake_second(colour)) {
    ResolveSecondSnakeEyes(after);
  } else if (pos.snake_first(colour) &&
             !(ComputeOccupancy(pos, colour).opponent_blobs & 1)) {
    ResolveSnakeEyes(after);
  } else {
    return false;
  }
  AddForced(after, out);
  return true;
}

}  // namespace

void GenerateLegalPlays(const Position& pos, const Rules& rules, Throw t,
                        PlayList* out) {
  out->Clear();
  if (pos.IsGameOver()) return;
  int thrower = pos.to_throw();
  Position base = pos;
  if (pos.challenge_active()) {
    ResolveChallengeThrow(base, t, rules);
    AddForced(base, out);
    return;
  }
  base.SetSnakeFirst(pos.snake_first_mask() & ~(1 << thrower));
  base.SetSnakeSecond(pos.snake_second_mask() & ~(1 << thrower));
  if (pos.AllHome(thrower) && !pos.released(thrower)) {
    ResolveReleaseThrow(base, t);
    AddForced(base, out);
    return;
  }
  if (SnakeEyes(pos, rules, t, out)) return;
  OrdinaryGenerator(base, rules, t, out).Run();
}

}  // namespace uckers
