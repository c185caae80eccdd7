// RULES.md §4: the kinds of play, the legality of a move, landing, "use as
// much of the throw as possible", rule 10(b) and distinct plays. Expected
// values are worked out by hand: relative square p of colour c is absolute
// square (13c + p) mod 52.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

bool Has(const Strs& plays, const std::string& play) {
  return std::find(plays.begin(), plays.end(), play) != plays.end();
}

// ---------------------------------------------------------------- kinds

// RULES.md §4 enter: a six puts a base piece on its doorstep 0.
TEST(Plays, SixEntersABasePieceOnTheDoorstep) {
  // Green blob on green 41,41 = abs 2 stops the entered piece moving 2 on,
  // so the play is the entry alone (higher die only).
  const std::string ufen = "b,b,b,b/b,b,41,41/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Strs{"rb-0"});
  EXPECT_EQ(After(ufen, 6, 2, "rb-0"), "b,b,b,0/b,b,41,41/b,b,b,b/b,b,b,b r -");
}

// RULES.md §4 enter: a double six may enter two pieces.
TEST(Plays, DoubleSixMayEnterTwoPieces) {
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(start, 6, 6), Sorted({"rb-0,rb-0", "rb-0,r0-6"}));
  EXPECT_EQ(After(start, 6, 6, "rb-0,rb-0"), "b,b,0,0/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §4 enter (BR 4006 rule 4): the other die may move the piece just
// entered.
TEST(Plays, EnterThenMoveTheEnteredPiece) {
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(start, 6, 3), Strs{"rb-0,r0-3"});
  EXPECT_EQ(After(start, 6, 3, "rb-0,r0-3"), "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §4 enter: the other die may advance any piece.
TEST(Plays, EnterThenMoveAnotherPiece) {
  // 6-3 with red 10: enter + entered 3, enter + 10->13, or 10+9 summed.
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 3), Sorted({"r10-19", "rb-0,r0-3", "rb-0,r10-13"}));
}

// RULES.md §4 enter: on a double six every combination of entering and
// moving is a play.
TEST(Plays, DoubleSixEnterAndMoveCombinations) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 6), Sorted({"r10-22", "rb-0,r0-6", "rb-0,r10-16", "rb-0,rb-0"}));
}

// RULES.md §4: one die on one piece (when no play uses both dice).
TEST(Plays, OneDieOnOnePiece) {
  // Red 50 + 5-3: summed 58 overshoots; 5 takes it to lane 55.
  const std::string ufen = "b,b,b,50/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 3), Strs{"r50-55"});
}

// RULES.md §4: both dice on two different pieces, one die each.
TEST(Plays, BothDiceOnTwoDifferentPieces) {
  const std::string ufen = "b,b,10,20/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Sorted({"r10-11,r20-24", "r10-14,r20-21", "r10-15", "r20-25"}));
  EXPECT_EQ(After(ufen, 4, 1, "r10-14,r20-21"), "b,b,14,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §4: both dice summed on one piece is one move of d1 + d2.
TEST(Plays, BothDiceSummedOnOnePiece) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 3), Strs{"r10-18"});
}

// RULES.md §4 (rule 5(b)): the square after the first die of a summed move is
// not landed on: it knocks nothing off.
TEST(Plays, SummedMoveDoesNotLandOnTheMiddleSquare) {
  // Red 10 + 4-2: the middle square is 14 (green 1) or 12 (blue 25); both
  // singles stay.
  const std::string ufen = "b,b,b,10/b,b,b,1/b,b,b,b/b,b,b,25 r -";
  EXPECT_EQ(Plays(ufen, 4, 2), Strs{"r10-16"});
  EXPECT_EQ(After(ufen, 4, 2, "r10-16"), "b,b,b,16/b,b,b,1/b,b,b,b/b,b,b,25 g -");
}

// RULES.md §4: a summed move passes the middle square, so an opponent blob
// there blocks it.
TEST(Plays, SummedMoveIsBlockedByABlobOnTheMiddleSquare) {
  // Green blob on abs 14: summed 16 and 4 (to 14) fail; 2 to 12 is the play.
  const std::string ufen = "b,b,b,10/b,b,1,1/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 2), Strs{"r10-12"});
}

// RULES.md §4 pass: only when no move is legal.
TEST(Plays, PassWhenNothingIsLegal) {
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(start, 5, 4), Strs{"-"});
  EXPECT_EQ(After(start, 5, 4, "-"), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §4 pass: never when a move is legal.
TEST(Plays, NoPassWhenAMoveIsLegal) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_FALSE(Has(Plays(ufen, 5, 4), "-"));
}

// ---------------------------------------------------------------- legality

// RULES.md §4: q <= 56, an exact throw is needed to get home.
TEST(Legality, ExactThrowTakesAPieceHome) {
  // Red 53 + 3-1: summed 57 overshoots; 3 is exactly home.
  const std::string ufen = "b,b,b,53/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 1), Strs{"r53-h"});
}

// RULES.md §4: overshooting home is illegal.
TEST(Legality, OvershootingHomeIsIllegal) {
  // Red 53 + 5-4: 62, 58 and 57 all overshoot; nothing else can move.
  const std::string ufen = "b,b,b,53/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 4), Strs{"-"});
}

// RULES.md §4: no square passed may hold an opponent blob.
TEST(Legality, OpponentBlobBlocksPassing) {
  // Green blob abs 15; red 12 + 5-4: 21, 17 and 16 all pass 15.
  const std::string ufen = "b,b,b,12/b,b,2,2/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 4), Strs{"-"});
}

// RULES.md §4: no square landed on may hold an opponent blob.
TEST(Legality, OpponentBlobBlocksLanding) {
  // Red 12 + 2-1: summed lands on the blob at 15; 2 to 14 is the play.
  const std::string ufen = "b,b,b,12/b,b,2,2/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 2, 1), Strs{"r12-14"});
}

// RULES.md §4: own blobs never block.
TEST(Legality, OwnBlobNeverBlocks) {
  const std::string ufen = "b,12,14,14/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_TRUE(Has(Plays(ufen, 4, 1), "r12-17"));
}

// RULES.md §4: partner blobs never block.
TEST(Legality, PartnerBlobNeverBlocks) {
  // Yellow 41,41 = abs 15.
  const std::string ufen = "b,b,b,12/b,b,b,b/b,b,41,41/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Strs{"r12-17"});
}

// RULES.md §4: mixie blobs never block, the mover's own team's included.
TEST(Legality, OwnTeamMixieBlobNeverBlocks) {
  // Red 14 with yellow 40,40 (abs 14) form a mixie; the red 12 passes it.
  const std::string ufen = "b,b,12,14/b,b,b,b/b,b,40,40/b,b,b,b r -";
  EXPECT_TRUE(Has(Plays(ufen, 4, 1), "r12-17"));
}

// RULES.md §4: entering is legal when the doorstep holds no opponent blob.
TEST(Legality, EnteringIsBlockedByAnOpponentBlobOnTheDoorstep) {
  // Green 39,39 = abs 0, Red's doorstep. 6-2: no entry; red 10 sums to 18;
  // the base challenge (§6) is the other play.
  const std::string ufen = "b,b,b,10/b,b,39,39/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Sorted({"r10-18", "xrb"}));
}

// RULES.md §4 notes: entering lands on the doorstep and knocks off an
// opponent single there.
TEST(Legality, EnteringKnocksOffAnOpponentSingleOnTheDoorstep) {
  const std::string ufen = "b,b,b,b/b,b,b,39/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 6), Sorted({"rb-0,rb-0", "rb-0,r0-6"}));
  EXPECT_EQ(After(ufen, 6, 6, "rb-0,rb-0"), "b,b,0,0/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §4 notes: entering knocks off an opponent mixie blob there.
TEST(Legality, EnteringKnocksOffAnOpponentMixieOnTheDoorstep) {
  // Green 39 and blue 13 are both abs 0.
  const std::string ufen = "b,b,b,b/b,b,b,39/b,b,b,b/b,b,b,13 r -";
  EXPECT_EQ(After(ufen, 6, 3, "rb-0,r0-3"), "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §4: a partner blob on the doorstep does not block entering.
TEST(Legality, PartnerBlobOnTheDoorstepDoesNotBlockEntering) {
  // Yellow 26,26 = abs 0.
  const std::string ufen = "b,b,b,b/b,b,b,b/b,b,26,26/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 6, "rb-0,rb-0"), "b,b,0,0/b,b,b,b/b,b,26,26/b,b,b,b r -");
}

// ---------------------------------------------------------------- landing

// RULES.md §4 Landing: on an opponent single, it is knocked off (§5).
TEST(Landing, OnAnOpponentSingleKnocksItOff) {
  // Blue 27 = abs 14.
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,27 r -";
  EXPECT_EQ(After(ufen, 3, 1, "r10-14"), "b,b,b,14/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §4 Landing: on an opponent mixie blob, every piece there goes.
TEST(Landing, OnAnOpponentMixieBlobKnocksItOffWhole) {
  // Green 1,1 and blue 27 are all abs 14.
  const std::string ufen = "b,b,b,10/b,b,1,1/b,b,b,b/b,b,b,27 r -";
  EXPECT_EQ(Plays(ufen, 3, 1), Strs{"r10-14"});
  EXPECT_EQ(After(ufen, 3, 1, "r10-14"), "b,b,b,14/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §4 Landing: on own pieces it forms a blob.
TEST(Landing, OnOwnPieceFormsABlob) {
  const std::string ufen = "b,b,10,14/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 1), Sorted({"r10-11,r14-17", "r10-13,r14-15", "r10-14", "r14-18"}));
  EXPECT_EQ(After(ufen, 3, 1, "r10-14"), "b,b,14,14/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §2/§4: the blob so formed blocks the opponents.
TEST(Landing, FormedBlobBlocksTheOpponents) {
  // Red 14,14; blue 25 = abs 12. 3-1: summed (abs 16) and 3 (abs 15) pass 14.
  const std::string ufen = "b,b,14,14/b,b,b,b/b,b,b,b/b,b,b,25 b -";
  EXPECT_EQ(Plays(ufen, 3, 1), Strs{"b25-26"});
}

// RULES.md §4 Landing: on partner pieces it forms a mixie blob.
TEST(Landing, OnPartnerPieceFormsAMixieBlob) {
  // Yellow 40 = abs 14.
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,40/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 3, 1, "r10-14"), "b,b,b,14/b,b,b,b/b,b,b,40/b,b,b,b g -");
}

// RULES.md §4 Landing: lane squares 51..55 are safe: a green piece on its own
// lane square 51 is not on the track square 12 that (13 + 51) mod 52 names.
TEST(Landing, LaneSquaresAreSafe) {
  const std::string ufen = "b,b,b,10/b,b,b,51/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 1, 1), Strs{"r10-12"});
  EXPECT_EQ(After(ufen, 1, 1, "r10-12"), "b,b,b,12/b,b,b,51/b,b,b,b/b,b,b,b g -");
}

// ------------------------------------------ use as much of the throw

// RULES.md §4: if any play uses both dice, only plays using both are legal.
TEST(UseMost, OnlyBothDicePlaysWhenAnyExists) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  Strs plays = Plays(ufen, 5, 3);
  EXPECT_EQ(plays, Strs{"r10-18"});
  EXPECT_FALSE(Has(plays, "r10-15"));
  EXPECT_FALSE(Has(plays, "r10-13"));
}

// RULES.md §4: two dice on two pieces beats one die on one piece.
TEST(UseMost, TwoPiecePlayBeatsASingleDie) {
  // Red 10 and 52, 4-2: 52+4 = h with 10+2, 52+2 = 54 with 10+4, or 10+6.
  const std::string ufen = "b,b,10,52/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 2), Sorted({"r10-12,r52-h", "r10-14,r52-54", "r10-16"}));
}

// RULES.md §4: otherwise, plays using the higher die alone.
TEST(UseMost, HigherDieWhenBothCannotBeUsed) {
  // Red 50 + 5-3: 58 overshoots; 5 -> 55 beats 3 -> 53.
  const std::string ufen = "b,b,b,50/b,b,b,b/b,b,b,b/b,b,b,b r -";
  Strs plays = Plays(ufen, 5, 3);
  EXPECT_EQ(plays, Strs{"r50-55"});
  EXPECT_FALSE(Has(plays, "r50-53"));
}

// RULES.md §4: otherwise, plays using the lower die.
TEST(UseMost, LowerDieWhenTheHigherCannotBeUsed) {
  // Red 52 + 5-3: 60 and 57 overshoot; 3 -> 55.
  const std::string ufen = "b,b,b,52/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 3), Strs{"r52-55"});
}

// RULES.md §4: the higher die is preferred even when only a blob stops it.
TEST(UseMost, LowerDieWhenTheHigherIsBlocked) {
  // Green blob abs 15: red 12 + 4-1: 17 and 16 blocked, 13 legal.
  const std::string ufen = "b,b,b,12/b,b,2,2/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 1), Strs{"r12-13"});
}

// RULES.md §4: otherwise the only play is pass.
TEST(UseMost, PassWhenNeitherDieCanBeUsed) {
  // Red 54 + 5-3: 62, 59, 57 all overshoot.
  const std::string ufen = "b,b,b,54/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 3), Strs{"-"});
}

// RULES.md §4: entering with the six and using the other die elsewhere is a
// both-dice play, so the six alone is not legal.
TEST(UseMost, EnterPlusOtherDieBeatsTheSixAlone) {
  // Red 53 + 6-3: enter + 0->3 or enter + 53->h; 53+6 and 53+9 overshoot.
  const std::string ufen = "b,b,b,53/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 3), Sorted({"rb-0,r0-3", "rb-0,r53-h"}));
}

// ---------------------------------------------------------------- rule 10(b)

// RULES.md §4 rule 10(b) and its note: under navy the exception adds no play;
// the last piece goes home with the exact die as the higher/lower rule allows.
TEST(Rule10b, LastPieceGoesHomeWithOneExactDieUnderNavy) {
  // Red 53 + 5-3: 61 and 58 overshoot; 3 is exactly home.
  const std::string ufen = "53,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 3), Strs{"r53-h"});
}

// ---------------------------------------------------------------- distinct

// RULES.md §4: plays are distinct by the position they lead to: two pieces of
// a blob are identical.
TEST(Distinct, TwoPiecesOfABlobGiveOnePlay) {
  // Red 10,10 + 3-1: one piece 3 and one 1, or one piece 4.
  const std::string ufen = "b,b,10,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 1), Sorted({"r10-11,r10-13", "r10-14"}));
}

// RULES.md §4: entering and moving the entered piece, or entering and moving
// the piece already on the doorstep, reach one position: one play.
TEST(Distinct, EnteredPieceAndDoorstepPieceGiveOnePlay) {
  const std::string ufen = "b,b,b,0/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 3), Sorted({"r0-9", "rb-0,r0-3"}));
}

// RULES.md §4: two moves reaching the position of a summed move are one play,
// spelled with the fewest moves (PROTOCOL.md).
TEST(Distinct, TwoPieceMovesEqualToASummedMoveGiveOnePlay) {
  // Red 10 and 13, 3-3: 10->13 + 13->16 leaves 13,16 like 10->16.
  const std::string ufen = "b,b,10,13/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 3), Sorted({"r10-16", "r13-19"}));
}

// RULES.md §4: two orders of the same two moves are one play.
TEST(Distinct, TwoOrdersOfTheSameMovesGiveOnePlay) {
  const std::string ufen = "b,b,10,20/b,b,b,b/b,b,b,b/b,b,b,b r -";
  PlayList list;
  GenerateLegalPlays(P(ufen), Rules(), MakeThrow(4, 1), &list);
  EXPECT_EQ(list.size(), 4);
  for (int i = 0; i < list.size(); ++i) {
    for (int j = i + 1; j < list.size(); ++j) {
      EXPECT_FALSE(list[i].after == list[j].after) << i << " " << j;
    }
  }
}

}  // namespace
}  // namespace uckers::testing
