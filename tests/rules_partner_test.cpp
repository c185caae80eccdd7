// RULES.md §7: throwing for the partner (BR 4006 rule 11). Expected values
// worked out by hand from RULES.md and docs/rules-reading.md.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

bool Has(const Strs& plays, const std::string& play) {
  return std::find(plays.begin(), plays.end(), play) != plays.end();
}

// RULES.md §7: when a colour's last piece gets home its turn ends there.
TEST(Partner, LastPieceHomeEndsTheTurn) {
  // Red 50 + 4-2 summed = 56, exactly home.
  const std::string ufen = "50,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 2), Strs{"r50-h"});
  EXPECT_EQ(After(ufen, 4, 2, "r50-h"), "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b g -");
}

// RULES.md §7: the extra throw owed for a six is lost when the last piece
// gets home ("waits for his next turn").
TEST(Partner, LastPieceHomeLosesTheOwedExtraThrow) {
  // Red 50 + 6-3: 59 overshoots; the 6 takes it home.
  const std::string ufen = "50,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 3), Strs{"r50-h"});
  EXPECT_EQ(After(ufen, 6, 3, "r50-h"), "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b g -");
}

// RULES.md §7: the last piece going home with a two-piece play ends the
// turn as well (the last of the colour's pieces, not the last moved).
TEST(Partner, LastTwoPiecesHomeTogetherEndTheTurn) {
  // Red 50 and 53 with 6-3: 50+6 = h and 53+3 = h.
  const std::string ufen = "50,53,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 3), Strs{"r50-h,r53-h"});
  EXPECT_EQ(After(ufen, 6, 3, "r50-h,r53-h"), "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b g -");
}

// RULES.md §7: a colour all home and not released throws once; the throw
// moves nothing; a six releases it and the turn ends.
TEST(Partner, ReleaseThrowWithASixReleasesAndEndsTheTurn) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2), Strs{"-"});
  EXPECT_EQ(After(ufen, 6, 2, "-"), "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b g pr");
}

// RULES.md §7 and §3 rule 3: a release throw ends the turn even on a double
// six.
TEST(Partner, ReleaseThrowWithDoubleSixStillEndsTheTurn) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 6, "-"), "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b g pr");
}

// RULES.md §7: a release throw without a six ends the turn unreleased.
TEST(Partner, ReleaseThrowWithoutASixEndsTheTurn) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 2), Strs{"-"});
  EXPECT_EQ(After(ufen, 5, 2, "-"), "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b g -");
}

// RULES.md §7: a released colour's turns move its partner's pieces.
TEST(Partner, ReleasedColourMovesItsPartnersPieces) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 3, 1), Strs{"y10-14"});
  EXPECT_EQ(After(ufen, 3, 1, "y10-14"), "h,h,h,h/b,b,b,b/b,b,b,14/b,b,b,b g pr");
}

// RULES.md §7: with all the usual rules: the released colour enters the
// partner's base pieces and earns extra throws.
TEST(Partner, ReleasedColourEntersAndEarnsExtraThrows) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 6, 1), Sorted({"y10-17", "yb-0,y0-1", "yb-0,y10-11"}));
  EXPECT_EQ(After(ufen, 6, 1, "y10-17"), "h,h,h,h/b,b,b,b/b,b,b,17/b,b,b,b r pr");
}

// RULES.md §7: the partner still moves its own pieces on its own turns.
TEST(Partner, PartnerStillMovesOnItsOwnTurn) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b y pr";
  EXPECT_EQ(Plays(ufen, 3, 1), Strs{"y10-14"});
  EXPECT_EQ(After(ufen, 3, 1, "y10-14"), "h,h,h,h/b,b,b,b/b,b,b,14/b,b,b,b b pr");
}

// RULES.md §7 with §6: the released colour challenges with its partner's
// pieces; the c square is the partner's (PROTOCOL.md).
TEST(Partner, ReleasedColourChallengesWithItsPartnersPieces) {
  // Yellow 20 = absolute 46; green 34,34 = absolute 47 in front.
  const std::string ufen = "h,h,h,h/b,b,34,34/b,b,b,20/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 6, 1), Sorted({"xy20", "yb-0,y0-1"}));
  EXPECT_EQ(After(ufen, 6, 1, "xy20"), "h,h,h,h/b,b,34,34/b,b,b,20/b,b,b,b r c20:1,pr");
  EXPECT_EQ(After("h,h,h,h/b,b,34,34/b,b,b,20/b,b,b,b r c20:2,pr", 6, 1, "-"),
            "h,h,h,h/b,b,b,b/b,b,b,21/b,b,b,b g pr");
}

// RULES.md §7 with §5: the released colour taking its partner's last piece
// home wins; the winner stays to throw.
TEST(Partner, ReleasedColourTakingThePartnersLastPieceHomeWins) {
  // Yellow 50 + 6-2: 58 overshoots; the 6 takes it home.
  const std::string ufen = "h,h,h,h/b,b,b,b/50,h,h,h/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 6, 2), Strs{"y50-h"});
  const std::string after = After(ufen, 6, 2, "y50-h");
  EXPECT_EQ(after, "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b r pr");
  EXPECT_EQ(P(after).Outcome(), OutcomeLevel::kInHarbour);
}

// RULES.md §7: the released colour may not move its own (home) pieces; a
// spelling in its own colour is not a legal play.
TEST(Partner, ReleasedColourCannotSpellItsOwnColour) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr";
  absl::StatusOr<PlayResult> r = ParsePlay("r10-14", P(ufen), Rules(), MakeThrow(3, 1));
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(Has(Plays(ufen, 3, 1), "r10-14"));
}

}  // namespace
}  // namespace uckers::testing
