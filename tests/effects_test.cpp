// rules/effects.h: what a play does, spelled out for front-ends.
// Positions as in the rules tests; expected values worked out by hand.
#include "rules/effects.h"

#include "absl/strings/str_cat.h"
#include "tests/random_game.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

PlayEffects Fx(const std::string& ufen, int d1, int d2, const std::string& play,
               const Rules& rules = Rules()) {
  Position before = P(ufen, rules);
  absl::StatusOr<PlayResult> r = ParsePlay(play, before, rules, MakeThrow(d1, d2));
  EXPECT_TRUE(r.ok()) << play << ": " << r.status();
  return r.ok() ? EffectsOf(before, *r, rules) : PlayEffects{};
}

PieceChange Piece(int colour, Square from, Square to) {
  auto abs = [&](Square s) { return OnTrack(s) ? AbsoluteSquare(colour, s) : -1; };
  return {colour, from, to, abs(from), abs(to)};
}

// RULES.md §4: an entering six and the other die on the same piece is one
// piece moving from base to its last square.
TEST(Effects, APieceMovedByBothDiceIsOneChange) {
  PlayEffects fx = Fx("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", 6, 3, "rb-0,r0-3");
  EXPECT_EQ(fx.moves, std::vector<PieceChange>{Piece(kRed, kBase, 3)});
  EXPECT_TRUE(fx.knocked_off.empty());
}

// RULES.md §4: two pieces moved by one die each are two changes, with their
// absolute squares (green's 5 is absolute 18).
TEST(Effects, TwoPiecesMovedAreTwoChangesWithAbsoluteSquares) {
  PlayEffects fx = Fx("b,b,b,b/b,b,5,20/b,b,b,b/b,b,b,b g -", 4, 1, "g5-9,g20-21");
  EXPECT_EQ(fx.moves, (std::vector<PieceChange>{Piece(kGreen, 5, 9), Piece(kGreen, 20, 21)}));
  EXPECT_EQ(fx.moves[0].from_abs, 18);
}

// RULES.md §5: a landing knocks every opponent piece on the square back to
// its own base, a mixie blob whole (§2).
TEST(Effects, KnockOffNamesEveryPieceSentToBase) {
  PlayEffects fx = Fx("b,b,b,10/b,b,b,1/b,b,b,b/b,b,27,27 r -", 3, 1, "r10-14");
  EXPECT_EQ(fx.moves, std::vector<PieceChange>{Piece(kRed, 10, 14)});
  EXPECT_EQ(fx.knocked_off,
            (std::vector<PieceChange>{Piece(kGreen, 1, kBase), Piece(kBlue, 27, kBase),
                                      Piece(kBlue, 27, kBase)}));
  ASSERT_EQ(fx.blobs_broken.size(), 1u);  // the mixie blob on absolute 14
  EXPECT_EQ(fx.blobs_broken[0].colour, -1);
  EXPECT_EQ(fx.blobs_broken[0].abs, 14);
  EXPECT_EQ(fx.blobs_broken[0].size, 3);
}

// RULES.md §2: two pieces of one colour on a square form a blob; leaving it
// breaks it.
TEST(Effects, BlobsFormedAndBroken) {
  PlayEffects join = Fx("b,b,3,8/b,b,b,b/b,b,b,b/b,b,b,b r -", 4, 1, "r3-7,r7-8");
  ASSERT_EQ(join.blobs_formed.size(), 1u);
  EXPECT_EQ(join.blobs_formed[0].colour, kRed);
  EXPECT_EQ(join.blobs_formed[0].abs, 8);
  EXPECT_EQ(join.blobs_formed[0].size, 2);
  PlayEffects split = Fx("b,b,8,8/b,b,b,b/b,b,b,b/b,b,b,b r -", 4, 1, "r8-12,r8-9");
  ASSERT_EQ(split.blobs_broken.size(), 1u);
  EXPECT_EQ(split.blobs_broken[0].abs, 8);
  EXPECT_TRUE(split.blobs_formed.empty());
}

// RULES.md §6: declaring a challenge, counting its sixes, winning it (the
// blob to base, the challenger onto its square) and failing it.
TEST(Effects, ChallengeDeclaredCountedWonAndFailed) {
  const std::string blob2 = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b";
  PlayEffects declared = Fx(blob2 + " r -", 6, 2, "xr20");
  EXPECT_EQ(declared.challenge, ChallengeEvent::kDeclared);
  EXPECT_EQ(declared.challenge_sixes, 1);
  EXPECT_EQ(declared.challenge_sixes_needed, 3);
  EXPECT_TRUE(declared.moves.empty());

  PlayEffects counted = Fx(blob2 + " r c20:1", 6, 1, "-");
  EXPECT_EQ(counted.challenge, ChallengeEvent::kCounted);
  EXPECT_EQ(counted.challenge_sixes, 2);
  EXPECT_TRUE(counted.extra_throw);

  PlayEffects won = Fx(blob2 + " r c20:2", 6, 1, "-");
  EXPECT_EQ(won.challenge, ChallengeEvent::kWon);
  EXPECT_EQ(won.moves, std::vector<PieceChange>{Piece(kRed, 20, 21)});
  EXPECT_EQ(won.knocked_off.size(), 2u);
  EXPECT_EQ(won.next_to_throw, kGreen);  // a won challenge ends the turn
  EXPECT_FALSE(won.extra_throw);

  PlayEffects failed = Fx(blob2 + " r c20:2", 5, 1, "-");
  EXPECT_EQ(failed.challenge, ChallengeEvent::kFailed);
  EXPECT_TRUE(failed.knocked_off.empty());
  EXPECT_EQ(failed.next_to_throw, kGreen);
}

// RULES.md §3: a throw with a six earns the same colour another throw; one
// without passes the turn.
TEST(Effects, NextToThrowAndExtraThrow) {
  PlayEffects six = Fx("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", 6, 3, "rb-0,r0-3");
  EXPECT_TRUE(six.extra_throw);
  EXPECT_EQ(six.next_to_throw, kRed);
  PlayEffects pass = Fx("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", 5, 3, "-");
  EXPECT_FALSE(pass.extra_throw);
  EXPECT_EQ(pass.next_to_throw, kGreen);
  EXPECT_EQ(pass.next_moving_colour, kGreen);
}

// RULES.md §7: a colour home throws a six and is released; it then moves its
// partner's pieces.
TEST(Effects, ReleaseNamesTheColourAndItsNextMovingColour) {
  // Red is home and not released; yellow still plays.
  PlayEffects fx = Fx("h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -", 6, 2, "-");
  EXPECT_EQ(fx.released, std::vector<int>{kRed});
  EXPECT_EQ(fx.next_to_throw, kGreen);  // a release throw ends the turn
}

// RULES.md §5: the winning play ends the game.
TEST(Effects, GameOverOnTheWinningPlay) {
  PlayEffects fx = Fx("h,h,h,h/b,b,b,b/h,h,h,53/b,b,b,b y -", 3, 1, "y53-h");
  EXPECT_TRUE(fx.game_over);
  EXPECT_FALSE(fx.extra_throw);
  EXPECT_EQ(fx.moves, std::vector<PieceChange>{Piece(kYellow, 53, kHome)});
}

// Every play of random games under every ruleset: the moves and knock-offs
// the effects list turn the pieces before the play into the pieces after it,
// each colour's exactly, and a blob formed stands after the play.
TEST(Effects, ChangesAccountForEveryPieceInEveryRuleset) {
  int plays = 0;
  ForEachRandomPosition(2, 200, 41, [&](const std::string& name, const Position& pos) {
    Rules rules = R(name);
    for (int d1 = 1; d1 <= 6; d1 += 5) {
      PlayList list;
      GenerateLegalPlays(pos, rules, MakeThrow(d1, 6), &list);
      for (const PlayResult& r : list) {
        PlayEffects fx = EffectsOf(pos, r, rules);
        std::array<std::vector<int>, kNumColours> pieces;
        for (int c = 0; c < kNumColours; ++c) {
          pieces[c].assign(pos.pieces(c).begin(), pos.pieces(c).end());
        }
        for (const auto* list : {&fx.moves, &fx.knocked_off}) {
          for (const PieceChange& m : *list) {
            auto it = std::find(pieces[m.colour].begin(), pieces[m.colour].end(), m.from);
            ASSERT_NE(it, pieces[m.colour].end()) << name << " " << ToUfen(pos);
            *it = m.to;
          }
        }
        for (int c = 0; c < kNumColours; ++c) {
          std::sort(pieces[c].begin(), pieces[c].end());
          std::vector<int> want(r.after.pieces(c).begin(), r.after.pieces(c).end());
          ASSERT_EQ(pieces[c], want) << name << " " << ToUfen(pos) << " " << PlayToString(r.play);
        }
        for (const BlobChange& b : fx.blobs_formed) {
          int colours = b.colour >= 0 ? 1 : 2;
          EXPECT_GE(b.size, 2) << name;
          EXPECT_TRUE(colours == 1 || b.order.empty() || b.order.size() == size_t(b.size));
        }
        ++plays;
      }
    }
  });
  EXPECT_GT(plays, 10000);
}

}  // namespace
}  // namespace uckers::testing
