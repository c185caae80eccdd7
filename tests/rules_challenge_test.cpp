// RULES.md §6: challenges (BR 4006 rule 8). Expected values worked out by
// hand. In most tests Red stands on 20 and a green blob on green 8 = absolute
// 21, directly in front of it.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

bool Has(const Strs& plays, const std::string& play) {
  return std::find(plays.begin(), plays.end(), play) != plays.end();
}

// Red 20 behind a green blob of two on absolute 21.
const std::string kBlob2 = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b";
// Red 20 behind a green blob of three on absolute 21.
const std::string kBlob3 = "b,b,b,20/b,8,8,8/b,b,b,b/b,b,b,b";
// A green blob of two on Red's doorstep (green 39 = absolute 0).
const std::string kDoorBlob2 = "b,b,b,b/b,b,39,39/b,b,b,b/b,b,b,b";

// ---------------------------------------------------------------- who, when

// RULES.md §6 (who, when): a piece directly behind an opponent blob may
// declare a challenge on a throw with a six; it is an alternative play.
TEST(Challenge, DeclaredFromTheSquareBehindAnOpponentBlob) {
  // 6-2: enter + 0->2 is the only move (20 is stuck behind the blob).
  EXPECT_EQ(Plays(kBlob2 + " r -", 6, 2), Sorted({"rb-0,r0-2", "xr20"}));
}

// RULES.md §6 (when): only on a throw that shows at least one six.
TEST(Challenge, OnlyOnAThrowWithASix) { EXPECT_EQ(Plays(kBlob2 + " r -", 5, 2), Strs{"-"}); }

// RULES.md §6 (who): a blob of the mover's own colour may challenge.
TEST(Challenge, OwnBlobMayChallenge) {
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Sorted({"rb-0,r0-2", "xr20"}));
}

// RULES.md §6 (who): no challenge from a mixie blob.
TEST(Challenge, NotFromAMixieSquare) {
  // Yellow 46 = absolute 20 shares Red's square.
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,46/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Strs{"rb-0,r0-2"});
}

// RULES.md §6 (who): the blob must be directly in front (on p + 1).
TEST(Challenge, OnlyAgainstABlobDirectlyInFront) {
  // Green blob on green 9 = absolute 22, two squares ahead.
  const std::string ufen = "b,b,b,20/b,b,9,9/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Strs{"rb-0,r0-2"});
}

// RULES.md §6 (who): a challenge is against a blob (one colour); a mixie
// blob in front cannot be challenged (and does not block, §2).
TEST(Challenge, NotAgainstAMixieBlob) {
  // Green 8 and blue 34 are both absolute 21.
  const std::string ufen = "b,b,b,20/b,b,b,8/b,b,b,b/b,b,b,34 r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Sorted({"r20-28", "rb-0,r0-2", "rb-0,r20-22"}));
}

// RULES.md §6 (who): the challenger stands on p <= 49; a piece on 50 turns
// into its lane and has no square in front on the track.
TEST(Challenge, NotFromTheEndOfThePipe) {
  // Green blob on green 38 = absolute 51, in line behind Red's doorstep.
  const std::string ufen = "b,b,b,50/b,b,38,38/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 1), Sorted({"rb-0,r0-1", "rb-0,r50-51"}));
}

// RULES.md §6 (who) and §4 notes: a blob on the mover's own doorstep can be
// challenged only from base, not from 50.
TEST(Challenge, BlobOnOwnDoorstepIsChallengedOnlyFromBase) {
  const std::string ufen = "b,b,b,50/b,b,39,39/b,b,b,b/b,b,b,b r -";
  // Entry blocked; 50+6 = home (higher die); the base challenge.
  EXPECT_EQ(Plays(ufen, 6, 1), Sorted({"r50-h", "xrb"}));
}

// RULES.md §6 (who): a piece in base may challenge an opponent blob on its
// doorstep; §4: with nothing else legal, pass and the challenge are both
// legal.
TEST(Challenge, FromBaseAgainstABlobOnTheDoorstep) {
  EXPECT_EQ(Plays(kDoorBlob2 + " r -", 6, 1), Sorted({"-", "xrb"}));
}

// RULES.md §4/§6: a challenge is never compulsory: when no move is legal both
// pass and the challenge are legal.
TEST(Challenge, AlongsidePassWhenNothingCanMove) {
  const std::string ufen = "20,h,h,h/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 1), Sorted({"-", "xr20"}));
  // The pass keeps the six's extra throw (§3).
  EXPECT_EQ(After(ufen, 6, 1, "-"), "20,h,h,h/b,b,8,8/b,b,b,b/b,b,b,b r -");
}

// RULES.md §6 rule 8(d): a piece can't move into position and challenge on
// the same throw.
TEST(Challenge, CannotMoveIntoPositionAndChallengeOnTheSameThrow) {
  // Red 18 may reach 20 with the 2, but no challenge from 18 or 20 now.
  const std::string ufen = "b,b,b,18/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Sorted({"rb-0,r0-2", "rb-0,r18-20"}));
}

// RULES.md §6 rule 8(d): it may challenge on a later throw of the same turn.
TEST(Challenge, MayChallengeOnALaterThrowOfTheSameTurn) {
  const std::string ufen = "b,b,b,18/b,b,8,8/b,b,b,b/b,b,b,b r -";
  const std::string next = After(ufen, 6, 2, "rb-0,r18-20");
  EXPECT_EQ(next, "b,b,0,20/b,b,8,8/b,b,b,b/b,b,b,b r -");
  EXPECT_TRUE(Has(Plays(next, 6, 1), "xr20"));
}

// ---------------------------------------------------------------- declaring

// RULES.md §6 rule 8(c): declaring is the whole play; the six counts as the
// first; the other die is lost.
TEST(Challenge, DeclaringCountsTheSixAsTheFirstAndLosesTheOtherDie) {
  EXPECT_EQ(After(kBlob2 + " r -", 6, 2, "xr20"), kBlob2 + " r c20:1");
}

// RULES.md §6 rule 8(c): the other die is lost even if it is a six.
TEST(Challenge, DeclaringWithDoubleSixCountsOnlyOne) {
  EXPECT_EQ(After(kBlob2 + " r -", 6, 6, "xr20"), kBlob2 + " r c20:1");
}

// RULES.md §6: declaring from base starts the count at one.
TEST(Challenge, DeclaringFromBase) {
  EXPECT_EQ(After(kDoorBlob2 + " r -", 6, 1, "xrb"), kDoorBlob2 + " r cb:1");
}

// ---------------------------------------------------------------- counting

// RULES.md §6: the mover keeps throwing; the dice move nothing.
TEST(Challenge, ChallengeThrowsMoveNothing) {
  const std::string ufen = "b,b,10,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:1";
  EXPECT_EQ(Plays(ufen, 5, 3), Strs{"-"});
  EXPECT_EQ(Plays(ufen, 6, 3), Strs{"-"});
}

// RULES.md §6: every six counts and the mover keeps throwing.
TEST(Challenge, SixCountsAndTheMoverKeepsThrowing) {
  EXPECT_EQ(After(kBlob2 + " r c20:1", 6, 1, "-"), kBlob2 + " r c20:2");
}

// RULES.md §6 rule 8(b): X + 1 sixes are needed: a blob of two needs three;
// then the blob goes to base, the challenger moves onto its square and the
// turn ends (despite the six).
TEST(Challenge, BlobOfTwoNeedsThreeSixes) {
  EXPECT_EQ(After(kBlob2 + " r c20:2", 6, 1, "-"), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §6 rule 8(b): a blob of three needs four sixes.
TEST(Challenge, BlobOfThreeNeedsFourSixes) {
  EXPECT_EQ(After(kBlob3 + " r c20:2", 6, 1, "-"), kBlob3 + " r c20:3");
  EXPECT_EQ(After(kBlob3 + " r c20:3", 6, 1, "-"), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §6 rule 8(e): from base X + 2 sixes are needed.
TEST(Challenge, FromBaseNeedsBlobSizePlusTwoSixes) {
  EXPECT_EQ(After(kDoorBlob2 + " r cb:2", 6, 1, "-"), kDoorBlob2 + " r cb:3");
  EXPECT_EQ(After(kDoorBlob2 + " r cb:3", 6, 1, "-"), "b,b,b,0/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §6 rule 8(e): a blob of three on the doorstep needs five from
// base.
TEST(Challenge, FromBaseBlobOfThreeNeedsFiveSixes) {
  const std::string blob3 = "b,b,b,b/b,39,39,39/b,b,b,b/b,b,b,b";
  EXPECT_EQ(After(blob3 + " r cb:3", 6, 1, "-"), blob3 + " r cb:4");
  EXPECT_EQ(After(blob3 + " r cb:4", 6, 1, "-"), "b,b,b,0/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §6: a double six counts two.
TEST(Challenge, DoubleSixCountsTwo) {
  EXPECT_EQ(After(kBlob2 + " r c20:1", 6, 6, "-"), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
  EXPECT_EQ(After(kBlob3 + " r c20:1", 6, 6, "-"), kBlob3 + " r c20:3");
}

// RULES.md §6: a throw with no six fails the challenge and ends the turn;
// the count is lost and the blob stays.
TEST(Challenge, ThrowWithoutASixFailsAndEndsTheTurn) {
  EXPECT_EQ(After(kBlob2 + " r c20:2", 5, 4, "-"), kBlob2 + " g -");
}

// RULES.md §6: on success one challenger piece moves onto the blob's square;
// the others of its blob stay.
TEST(Challenge, SuccessMovesOneChallengerPiece) {
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:2";
  EXPECT_EQ(After(ufen, 6, 2, "-"), "b,b,20,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §6: the blob's pieces go to their own base; the challenged blob
// may be blue, seen from Red.
TEST(Challenge, SuccessSendsTheBlobToItsOwnBase) {
  // Blue 34,34 = absolute 21.
  const std::string ufen = "b,b,b,20/b,b,b,b/b,b,b,b/b,b,34,34 r c20:2";
  EXPECT_EQ(After(ufen, 6, 3, "-"), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §6: Green challenges too: the square numbers are Green's own.
TEST(Challenge, GreenChallengesARedBlob) {
  // Green 5 = absolute 18; red 19,19 is directly in front.
  const std::string ufen = "b,b,19,19/b,b,b,5/b,b,b,b/b,b,b,b g -";
  EXPECT_TRUE(Has(Plays(ufen, 6, 4), "xg5"));
  EXPECT_EQ(After("b,b,19,19/b,b,b,5/b,b,b,b/b,b,b,b g c5:2", 6, 4, "-"),
            "b,b,b,b/b,b,b,6/b,b,b,b/b,b,b,b y -");
}

// RULES.md §6 rule 8(b): a blob of four needs five sixes.
TEST(Challenge, BlobOfFourNeedsFiveSixes) {
  const std::string blob4 = "b,b,b,20/8,8,8,8/b,b,b,b/b,b,b,b";
  EXPECT_EQ(After(blob4 + " r c20:3", 6, 1, "-"), blob4 + " r c20:4");
  EXPECT_EQ(After(blob4 + " r c20:4", 6, 1, "-"), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
  // A double six from three reaches five at once.
  EXPECT_EQ(After(blob4 + " r c20:3", 6, 6, "-"), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

}  // namespace
}  // namespace uckers::testing
