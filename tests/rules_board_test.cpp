// RULES.md §1 (board, colours, teams) and §2 (stacks), with §5 knock-off to
// each colour's own base. Expected values are worked out by hand from
// RULES.md: relative square p of colour c is absolute square (13c + p) mod 52.
#include <string>

#include "absl/strings/str_cat.h"
#include "rules/occupancy.h"
#include "tests/random_game.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

// ---------------------------------------------------------------- §1 board

// RULES.md §1: a game starts with all 16 pieces in base and Red to throw.
TEST(Board, StartPositionHasEveryPieceInBaseAndRedToThrow) {
  EXPECT_EQ(ToUfen(Position::Start(Rules())), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(std::string(kStartUfen), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §1: colours throw in the order Red, Green, Yellow, Blue; §3 rule 4:
// with no extra throw owed the turn passes to the next colour in order.
TEST(Board, TurnOrderIsRedGreenYellowBlue) {
  const std::string pieces = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b ";
  // 2-1 with every piece in base: nothing can move, no six, turn passes.
  EXPECT_EQ(After(pieces + "r -", 2, 1, "-"), pieces + "g -");
  EXPECT_EQ(After(pieces + "g -", 2, 1, "-"), pieces + "y -");
  EXPECT_EQ(After(pieces + "y -", 2, 1, "-"), pieces + "b -");
  EXPECT_EQ(After(pieces + "b -", 2, 1, "-"), pieces + "r -");
}

// RULES.md §1: relative square p of colour c is absolute (13c + p) mod 52, so
// Green's doorstep (green 0) is Red's square 13.
TEST(Board, GreenDoorstepIsRedSquareThirteen) {
  // Red 10 + 2-1 summed = red 13 = abs 13 = green 0: the green single goes.
  const std::string ufen = "b,b,b,10/b,b,b,0/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 2, 1), Strs{"r10-13"});
  EXPECT_EQ(After(ufen, 2, 1, "r10-13"), "b,b,b,13/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §1: doorsteps are 13 apart; Blue's doorstep is absolute 39.
TEST(Board, BlueDoorstepIsRedSquareThirtyNine) {
  const std::string ufen = "b,b,b,36/b,b,b,b/b,b,b,b/b,b,b,0 r -";
  EXPECT_EQ(Plays(ufen, 2, 1), Strs{"r36-39"});
  EXPECT_EQ(After(ufen, 2, 1, "r36-39"), "b,b,b,39/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §1: absolute square = (13c + p) mod 52: blue 20 is absolute 7.
TEST(Board, AbsoluteSquareWrapsModuloFiftyTwo) {
  // Red 5 + 1-1 summed = 7 = blue 20 ((39 + 20) mod 52 = 7).
  const std::string ufen = "b,b,b,5/b,b,b,b/b,b,b,b/b,b,b,20 r -";
  EXPECT_EQ(Plays(ufen, 1, 1), Strs{"r5-7"});
  EXPECT_EQ(After(ufen, 1, 1, "r5-7"), "b,b,b,7/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §1: the main track is a ring of 52 squares; Blue's path crosses
// from absolute 51 to absolute 0.
TEST(Board, BluePathCrossesFromAbsoluteFiftyOneToZero) {
  // Blue 10 = abs 49; + 3-2 = blue 15 = abs 2 = red 2: the red single goes.
  const std::string ufen = "b,b,b,2/b,b,b,b/b,b,b,b/b,b,b,10 b -";
  EXPECT_EQ(Plays(ufen, 3, 2), Strs{"b10-15"});
  EXPECT_EQ(After(ufen, 3, 2, "b10-15"), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,15 r -");
}

// RULES.md §1: Red and Yellow are partners; landing on a partner piece knocks
// nothing off (§4 Landing: it forms a mixie blob).
TEST(Board, RedAndYellowAreOneTeam) {
  // Red 23 + 2-1 = 26 = yellow 0.
  const std::string ufen = "b,b,b,23/b,b,b,b/b,b,b,0/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 2, 1), Strs{"r23-26"});
  EXPECT_EQ(After(ufen, 2, 1, "r23-26"), "b,b,b,26/b,b,b,b/b,b,b,0/b,b,b,b g -");
}

// RULES.md §1: Green and Blue are partners.
TEST(Board, GreenAndBlueAreOneTeam) {
  // Green 10 = abs 23; + 2-1 = green 13 = abs 26 = blue 39.
  const std::string ufen = "b,b,b,b/b,b,b,10/b,b,b,b/b,b,b,39 g -";
  EXPECT_EQ(Plays(ufen, 2, 1), Strs{"g10-13"});
  EXPECT_EQ(After(ufen, 2, 1, "g10-13"), "b,b,b,b/b,b,b,13/b,b,b,b/b,b,b,39 y -");
}

// RULES.md §1: home is 56 steps from the doorstep.
TEST(Board, HomeIsFiftySixStepsFromTheDoorstep) {
  // Red 47 + 5-4 summed = 56 = home.
  const std::string ufen = "b,b,b,47/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 4), Strs{"r47-h"});
  EXPECT_EQ(After(ufen, 5, 4, "r47-h"), "b,b,b,h/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §1: 50 is the end of the pipe; the piece turns into its lane
// 51..55 there, so the square behind its doorstep (absolute 51 for Red) is
// not on its path (§4 notes).
TEST(Board, PieceTurnsIntoItsLaneAtFifty) {
  // Green blob on green 38 = abs 51, just behind Red's doorstep. Red 48 + 3-2
  // = 53 passes 49, 50 and then its own lane: not blocked.
  const std::string ufen = "b,b,b,48/b,b,38,38/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 2), Strs{"r48-53"});
}

// RULES.md §1: home lanes are private to a colour: every colour may have a
// piece on its own lane square 51 at once.
TEST(Board, HomeLanesArePrivate) {
  absl::StatusOr<Position> pos = ParseUfen("b,b,b,51/b,b,b,51/b,b,b,51/b,b,b,51 r -", Rules());
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(ToUfen(*pos), "b,b,b,51/b,b,b,51/b,b,b,51/b,b,b,51 r -");
}

// ---------------------------------------------------------------- §2 stacks

// RULES.md §2: any number of pieces of one team may share a square.
TEST(Stacks, AnyNumberOfOneTeamsPiecesShareASquare) {
  // Red 10 and yellow 36 ((26 + 36) mod 52 = 10): eight pieces on one square.
  absl::StatusOr<Position> pos = ParseUfen("10,10,10,10/b,b,b,b/36,36,36,36/b,b,b,b r -", Rules());
  EXPECT_TRUE(pos.ok()) << pos.status();
}

// RULES.md §2: a single has no blocking power (§4: only blobs block).
TEST(Stacks, OpponentSingleDoesNotBlock) {
  // Green 2 = abs 15; red 12 + 4-1 summed passes 15 to 17.
  const std::string ufen = "b,b,b,12/b,b,b,2/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Strs{"r12-17"});
}

// RULES.md §2: two pieces of one colour form a blob, which blocks (§4).
TEST(Stacks, TwoPiecesOfOneColourFormABlockingBlob) {
  // Green blob on abs 15. 4-1: summed to 17 and 4 to 16 pass it; 1 to 13 ok.
  const std::string ufen = "b,b,b,12/b,b,2,2/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Strs{"r12-13"});
}

// RULES.md §2: a mixie blob (one team, both colours) has no blocking power.
TEST(Stacks, OpponentMixieBlobDoesNotBlock) {
  // Green 2 and blue 28 are both abs 15.
  const std::string ufen = "b,b,b,12/b,b,b,2/b,b,b,b/b,b,b,28 r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Strs{"r12-17"});
}

// RULES.md §2: a square with two green pieces and one blue is still a mixie
// blob (both colours), so it does not block.
TEST(Stacks, MixieBlobWithTwoOfOneColourDoesNotBlock) {
  const std::string ufen = "b,b,b,12/b,b,2,2/b,b,b,b/b,b,b,28 r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Strs{"r12-17"});
}

// RULES.md §2: a red blob joined by a yellow piece is a mixie blob and no
// longer blocks the opponents.
TEST(Stacks, OwnBlobJoinedByPartnerBecomesANonBlockingMixie) {
  // Red 30,30 and yellow 4 (abs 30). Green 15 = abs 28; 3-1 summed = green
  // 19 = abs 32 passes abs 30.
  const std::string mixie = "b,b,30,30/b,b,b,15/b,b,b,4/b,b,b,b g -";
  EXPECT_EQ(Plays(mixie, 3, 1), Strs{"g15-19"});
  // Without the yellow piece the red blob blocks: only 1 (to abs 29) moves.
  const std::string blob = "b,b,30,30/b,b,b,15/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(Plays(blob, 3, 1), Strs{"g15-16"});
}

// RULES.md §2: a blob's size is its piece count; a blob of 4 blocks like a
// blob of 2.
TEST(Stacks, BlobOfFourBlocks) {
  const std::string ufen = "b,b,b,12/2,2,2,2/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Strs{"r12-13"});
}

// RULES.md §5: pieces knocked off go back to their own colour's base; a mixie
// blob is knocked off whole (§2).
TEST(KnockOff, MixiePiecesReturnToTheirOwnColoursBases) {
  // Green 1 and blue 27,27 are all abs 14. Red 10 + 3-1 = 14.
  const std::string ufen = "b,b,b,10/b,b,b,1/b,b,b,b/b,b,27,27 r -";
  EXPECT_EQ(Plays(ufen, 3, 1), Strs{"r10-14"});
  EXPECT_EQ(After(ufen, 3, 1, "r10-14"), "b,b,b,14/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §5: a knocked-off piece keeps its other pieces' places: only the
// pieces on the landed square go to base.
TEST(KnockOff, OnlyPiecesOnTheLandedSquareGoToBase) {
  // Green 1 (abs 14) and green 30 (abs 43); red lands on 14.
  const std::string ufen = "b,b,b,10/b,b,1,30/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 3, 1, "r10-14"), "b,b,b,14/b,b,b,30/b,b,b,b/b,b,b,b g -");
}

// RULES.md §1-2: every colour's view of the track (opponent blobs, opponents,
// partner) is the same whether made for one colour or for all four at once.
TEST(Board, OccupancyOfAllColoursAtOnceIsEachColoursOwn) {
  int blobs_seen = 0;
  ForEachRandomPosition(3, 300, 31, [&](const std::string& name, const Position& pos) {
    std::array<Occupancy, kNumColours> all = ComputeAllOccupancies(pos);
    for (int c = 0; c < kNumColours; ++c) {
      Occupancy one = ComputeOccupancy(pos, c);
      auto where = [&] { return absl::StrCat(name, " ", ToUfen(pos), " colour ", c); };
      ASSERT_EQ(all[c].opponent_blobs, one.opponent_blobs) << where();
      ASSERT_EQ(all[c].opponents, one.opponents) << where();
      ASSERT_EQ(all[c].partner, one.partner) << where();
      blobs_seen += one.opponent_blobs != 0;
    }
  });
  EXPECT_GT(blobs_seen, 1000);  // the positions had blobs to see
}

}  // namespace
}  // namespace uckers::testing
