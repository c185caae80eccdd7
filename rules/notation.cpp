#include "rules/notation.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rules/movegen.h"
#include "rules/occupancy.h"
#include "rules/suck_back.h"

namespace uckers {
namespace {

absl::Status BadPlay(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("play '", text, "': ", why));
}

// `<colour><from>-<to>` applied to `pos` as a plain landing.
absl::Status ApplyWrittenMove(absl::string_view text, absl::string_view move, int mover,
                              Position& pos) {
  size_t dash = move.find('-', 1);
  if (move.size() < 4 || dash == absl::string_view::npos) {
    return BadPlay(text, absl::StrCat("move '", move, "' must be <colour><from>-<to>"));
  }
  const Board& b = pos.board();
  int colour = ColourIndex(move[0]);
  if (colour < 0 || colour >= b.colours) {
    return BadPlay(text, absl::StrCat("move '", move, "' names no colour"));
  }
  if (colour != mover) {
    return BadPlay(text,
                   absl::StrCat("move '", move, "' moves colour ", std::string(1, move[0]), " but ",
                                std::string(1, kColourChars[mover]), " is the moving colour"));
  }
  absl::StatusOr<Square> from = ParseSquare(move.substr(1, dash - 1), b);
  absl::StatusOr<Square> to = ParseSquare(move.substr(dash + 1), b);
  if (!from.ok()) return BadPlay(text, from.status().message());
  if (!to.ok()) return BadPlay(text, to.status().message());
  if (pos.CountAt(colour, *from) == 0) {
    return BadPlay(text, absl::StrCat("move '", move, "': no ", std::string(1, move[0]),
                                      " piece on ", SquareToString(*from, b)));
  }
  pos.MovePiece(colour, *from, *to);
  if (b.OnTrack(*to)) pos.KnockOff(pos.SideOf(colour), b.Absolute(colour, *to));
  return absl::OkStatus();
}

absl::StatusOr<Position> ApplyWrittenMoves(absl::string_view text,
                                           const std::vector<absl::string_view>& moves,
                                           const Position& pos) {
  Position after = pos;
  for (absl::string_view move : moves) {
    absl::Status s = ApplyWrittenMove(text, move, pos.MovingColour(), after);
    if (!s.ok()) return s;
  }
  return after;
}

bool SamePieces(const Position& a, const Position& b) {
  for (int c = 0; c < a.num_colours(); ++c) {
    if (a.pieces(c) != b.pieces(c)) return false;
  }
  return true;
}

absl::StatusOr<PlayResult> FindChallenge(absl::string_view text, const Board& board,
                                         const PlayList& legal) {
  for (const PlayResult& r : legal) {
    if (r.play.kind == PlayKind::kChallenge && PlayToString(r.play, board) == text) {
      return r;
    }
  }
  return BadPlay(text, "no such challenge is legal for this throw");
}

// `s<colour><sq>` or `w<colour><sq>`. Calls that miss lead to one position
// and are one play, spelled with the lowest lane square; any lane square
// holding a piece of that colour is accepted for it.
absl::StatusOr<PlayResult> FindLaneCall(absl::string_view text, const Position& pos, Throw t,
                                        const PlayList& legal) {
  PlayKind kind = text[0] == 's' ? PlayKind::kSuckBack : PlayKind::kBlowBack;
  const Board& b = pos.board();
  int colour = text.size() >= 2 ? ColourIndex(text[1]) : -1;
  absl::StatusOr<Square> sq = ParseSquare(text.size() >= 2 ? text.substr(2) : "", b);
  if (colour < 0 || colour >= b.colours || !sq.ok() || *sq < b.first_lane || *sq >= b.home) {
    return BadPlay(text, absl::StrCat("a call must be s<colour><sq> or w<colour><sq>, sq ",
                                      b.first_lane, "..", b.home - 1));
  }
  bool on_square = pos.CountAt(colour, *sq) > 0;  // a lane piece to call on
  for (const PlayResult& r : legal) {
    if (!on_square || r.play.kind != kind || r.play.colour != colour) continue;
    bool same = r.play.square == *sq;
    bool both_miss = !LaneCallHits(b, t, r.play.square) && !LaneCallHits(b, t, *sq);
    if (same || both_miss) return r;
  }
  return BadPlay(text,
                 absl::StrCat("no such ", kind == PlayKind::kSuckBack ? "suck back" : "blow back",
                              " is legal for throw ", ThrowToString(t)));
}

}  // namespace

absl::StatusOr<Throw> ParseThrow(absl::string_view text) {
  if (text.size() != 2 || text[0] < '1' || text[0] > '6' || text[1] < '1' || text[1] > '6') {
    return absl::InvalidArgumentError(
        absl::StrCat("throw '", text, "' must be two dice 1..6, like 63"));
  }
  return MakeThrow(text[0] - '0', text[1] - '0');
}

std::string ThrowToString(Throw t) { return absl::StrCat(t.high, t.low); }

absl::StatusOr<PlayResult> ParsePlay(absl::string_view text, const Position& pos,
                                     const Rules& rules, Throw t) {
  PlayList legal;
  GenerateLegalPlays(pos, rules, t, &legal);
  if (legal.empty()) return BadPlay(text, "the game is over");
  if (text == "-") {
    for (const PlayResult& r : legal) {
      if (r.play.kind == PlayKind::kDash) return r;
    }
    return BadPlay(text, "passing is not allowed: a move is legal");
  }
  if (!text.empty() && text[0] == 'x') return FindChallenge(text, pos.board(), legal);
  if (!text.empty() && (text[0] == 's' || text[0] == 'w')) {
    return FindLaneCall(text, pos, t, legal);
  }
  if (legal[0].play.kind == PlayKind::kDash && legal.size() == 1 &&
      (pos.challenge_active() || pos.AllHome(pos.to_throw()))) {
    return BadPlay(text, "this throw moves nothing: the only play is -");
  }
  std::vector<absl::string_view> moves = absl::StrSplit(text, ',');
  if (moves.size() > 2) return BadPlay(text, "a play has at most two moves");
  absl::StatusOr<Position> after = ApplyWrittenMoves(text, moves, pos);
  if (!after.ok() && moves.size() == 2) {
    // Also accept the two moves written in the other order.
    std::swap(moves[0], moves[1]);
    absl::StatusOr<Position> swapped = ApplyWrittenMoves(text, moves, pos);
    if (swapped.ok()) after = swapped;
  }
  if (!after.ok()) return after.status();
  for (const PlayResult& r : legal) {
    if (r.play.kind == PlayKind::kMoves && SamePieces(r.after, *after)) return r;
  }
  return BadPlay(text, absl::StrCat("not a legal play for throw ", ThrowToString(t)));
}

}  // namespace uckers
