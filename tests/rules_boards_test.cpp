// RULES.md §11 (boards and sides: six_sided, teams_of_three, solo), §9's
// superblob and doubles_throw_again, and PROTOCOL.md's six-field UFEN.
// Expected values worked out by hand from RULES.md.
#include "rules/board_text.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

bool Has(const Strs& plays, const std::string& play) {
  return std::find(plays.begin(), plays.end(), play) != plays.end();
}

const Rules kSix = R("six");
const Rules kThrees = R("six+teams_of_three");
const Rules kSixSolo = R("six+solo");
const Rules kFourSolo = R("navy+solo");

// ------------------------------------------------------------- rulesets

// RULES.md §10: `six` is navy on the six-sided board.
TEST(Boards, SixPresetIsNavyOnTheSixSidedBoard) {
  Rules expected;
  expected.set(Switch::kSixSided, true);
  EXPECT_EQ(kSix, expected);
  EXPECT_EQ(kSix.ToString(), "six");
}

// RULES.md §10: `mess` includes superblob.
TEST(Boards, MessIncludesSuperblob) { EXPECT_TRUE(R("mess").has(Switch::kSuperblob)); }

// RULES.md §11: teams_of_three exists on the six-sided board only.
TEST(Boards, TeamsOfThreeWithoutSixSidedIsRefused) {
  absl::StatusOr<Rules> rules = Rules::Parse("navy+teams_of_three");
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.status().message().find("six_sided"), absl::string_view::npos);
}

// RULES.md §11: solo with teams_of_three is refused.
TEST(Boards, SoloWithTeamsOfThreeIsRefused) {
  absl::StatusOr<Rules> rules = Rules::Parse("six+teams_of_three+solo");
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.status().message().find("solo"), absl::string_view::npos);
}

// ---------------------------------------------------------- the board

// RULES.md §11: six colours, 78 squares, doorsteps 13 apart, the lane
// 77..81, home 82 steps from the doorstep.
TEST(Boards, SixSidedBoardNumbers) {
  const Board& b = kSix.board();
  EXPECT_EQ(b.colours, 6);
  EXPECT_EQ(b.track, 78);
  EXPECT_EQ(b.last_track, 76);
  EXPECT_EQ(b.first_lane, 77);
  EXPECT_EQ(b.home, 82);
  EXPECT_EQ(b.Absolute(kPurple, 0), 65);
  EXPECT_EQ(b.Absolute(kRed, 76), 76);
  EXPECT_EQ(b.Relative(kOrange, 51), 77);  // just behind orange's doorstep
}

// RULES.md §11: a move goes exactly home at 82; plays spell o and p.
TEST(Boards, PurplePieceGoesHomeFromTheSquareInLine) {
  const std::string ufen = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,76 p -";
  EXPECT_EQ(Plays(ufen, 4, 2, kSix), Strs{"p76-h"});
}

// PROTOCOL.md: plays spell squares the same way: `ob-0`.
TEST(Boards, OrangeEntersWithASix) {
  const std::string ufen = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b o -";
  EXPECT_TRUE(Has(Plays(ufen, 6, 1, kSix), "ob-0,o0-1"));
}

// RULES.md §11: the square just behind a colour's doorstep (absolute
// 13c - 1) is not on its path: green's piece on 76 turns into its lane.
TEST(Boards, PieceTurnsIntoTheLaneAfterItsSeventySixthSquare) {
  const std::string ufen = "b,b,b,b/b,b,b,75/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(Plays(ufen, 2, 1, kSix), Strs{"g75-78"});
}

// ---------------------------------------------------------------- UFEN

// PROTOCOL.md: a UFEN whose number of fields is not the ruleset's number of
// colours is refused.
TEST(Boards, UfenFieldCountMustMatchTheBoard) {
  EXPECT_FALSE(ParseUfen(kStartUfen, kSix).ok());
  EXPECT_FALSE(ParseUfen("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -", Rules()).ok());
}

// PROTOCOL.md: the six-sided start position.
TEST(Boards, SixSidedStartPosition) {
  EXPECT_EQ(ToUfen(Position::Start(kSix)), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(ToUfen(Position::Start(R("six+snake_eyes"))),
            "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgybop");
}

// PROTOCOL.md: with solo no `p` token can occur.
TEST(Boards, SoloRefusesAReleasedColour) {
  EXPECT_FALSE(ParseUfen("h,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b g pr", kFourSolo).ok());
}

// PROTOCOL.md: squares of the four-sided board stop at 55.
TEST(Boards, FourSidedUfenRefusesSixSidedSquares) {
  EXPECT_FALSE(ParseUfen("b,b,b,60/b,b,b,b/b,b,b,b/b,b,b,b r -", Rules()).ok());
}

// ----------------------------------------------------------------- sides

// RULES.md §11: partners opposite on six: c and c + 3.
TEST(Boards, SixSidedTeamsAreOppositeColours) {
  Position pos = Position::Start(kSix);
  EXPECT_EQ(pos.num_sides(), 3);
  EXPECT_EQ(pos.SideOf(kRed), pos.SideOf(kBlue));
  EXPECT_EQ(pos.SideOf(kGreen), pos.SideOf(kOrange));
  EXPECT_EQ(pos.SideOf(kYellow), pos.SideOf(kPurple));
  EXPECT_NE(pos.SideOf(kRed), pos.SideOf(kYellow));
}

// RULES.md §11: teams_of_three: Red+Yellow+Orange against the others.
TEST(Boards, TeamsOfThreeAreAlternateColours) {
  Position pos = Position::Start(kThrees);
  EXPECT_EQ(pos.num_sides(), 2);
  EXPECT_EQ(pos.SideColours(pos.SideOf(kRed)), (1 << kRed) | (1 << kYellow) | (1 << kOrange));
}

// RULES.md §11: on the six-sided board a partner's piece landing forms a
// mixie blob (Red and Blue), an opponent's is knocked off.
TEST(Boards, SixSidedPartnerFormsAMixieBlob) {
  // Blue's 0 is absolute 39; red's 39. Red 35 + 3-1 lands on it.
  EXPECT_EQ(After("b,b,b,35/b,b,b,b/b,b,b,b/b,b,b,0/b,b,b,b/b,b,b,b r -", 3, 1, "r35-39", kSix),
            "b,b,b,39/b,b,b,b/b,b,b,b/b,b,b,0/b,b,b,b/b,b,b,b g -");
}

// RULES.md §11 "Throwing for a partner with teams of three": a released
// colour moves the first partner after it in turn order with a piece not
// home (yellow is home, so orange).
TEST(Boards, TeamsOfThreeReleasedColourMovesTheNextPartnerNotHome) {
  const std::string ufen = "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 4, 2, kThrees), Strs{"o10-16"});
}

// RULES.md §11: the partner is fixed for the whole play of the throw: once
// the first die takes yellow's last piece home, the other die cannot move
// orange.
TEST(Boards, TeamsOfThreePartnerIsFixedForTheWholeThrow) {
  const std::string ufen = "h,h,h,h/b,b,b,b/80,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 2, 1, kThrees), Strs{"y80-h"});
}

// RULES.md §11: a released colour that takes a partner's last piece home
// keeps its turn and the throw its six earned; its next throw moves the
// next partner.
TEST(Boards, TeamsOfThreeReleasedColourKeepsItsTurnAfterAPartnersLastPiece) {
  const std::string ufen = "h,h,h,h/b,b,b,b/80,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 6, 2, kThrees), Strs{"y80-h"});
  std::string after = After(ufen, 6, 2, "y80-h", kThrees);
  EXPECT_EQ(after, "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr");
  EXPECT_EQ(P(after, kThrees).MovingColour(), kOrange);
}

// RULES.md §11: teams_of_three: with no partner piece that can move, the
// play is a pass (no falling back to the other partner).
TEST(Boards, TeamsOfThreeNoFallBackToTheOtherPartner) {
  // Yellow's only piece left is in base; orange could move, but yellow is
  // the first partner after red with a piece not home.
  const std::string ufen = "h,h,h,h/b,b,b,b/b,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 4, 2, kThrees), Strs{"-"});
}

// RULES.md §11 solo: a piece landing on another colour's single knocks it
// off, even the colour opposite (no mixie blobs).
TEST(Boards, SoloKnocksOffTheOppositeColoursSingle) {
  // Yellow's 40 is absolute 14, red's 14.
  EXPECT_EQ(After("b,b,b,10/b,b,b,b/b,b,b,40/b,b,b,b r -", 3, 1, "r10-14", kFourSolo),
            "b,b,b,14/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §11 solo: another colour's blob blocks, the opposite one too.
TEST(Boards, SoloOppositeColoursBlobBlocks) {
  // Yellow's 38,38 is absolute 12, red's 12: red 10 cannot pass it.
  EXPECT_EQ(Plays("b,b,b,10/b,b,b,b/b,b,38,38/b,b,b,b r -", 3, 1, kFourSolo), Strs{"r10-11"});
}

// RULES.md §11 solo: a colour whose last piece gets home has won.
TEST(Boards, SoloColourWithEveryPieceHomeWins) {
  Position pos =
      P(After("50,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -", 4, 2, "r50-h", kFourSolo), kFourSolo);
  EXPECT_TRUE(pos.IsGameOver());
  EXPECT_EQ(pos.WinningSide(), kRed);
}

// ------------------------------------------------------------ switches

// RULES.md §9 superblob: three pieces of a colour never make a
// blob_on_blob move; two do.
TEST(Boards, SuperblobCannotBlobOnBlob) {
  // Green's 8,8 is red's 21, right in front of red's 20.
  const std::string two = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  const std::string three = "b,20,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_TRUE(Has(Plays(two, 2, 2, R("navy+blob_on_blob+superblob")), "r20-22,r20-22"));
  EXPECT_FALSE(Has(Plays(three, 2, 2, R("navy+blob_on_blob+superblob")), "r20-22,r20-22"));
  EXPECT_TRUE(Has(Plays(three, 2, 2, R("navy+blob_on_blob")), "r20-22,r20-22"));
}

// RULES.md §9 superblob: it blocks as any blob.
TEST(Boards, SuperblobBlocks) {
  // Blue's 46 is absolute 33, red's 33.
  EXPECT_EQ(Plays("b,b,b,30/b,b,b,b/b,b,b,b/b,46,46,46 r -", 4, 1, R("navy+superblob")),
            Strs{"r30-31"});
}

// RULES.md §9 doubles_throw_again: any double earns an extra throw.
TEST(Boards, DoublesThrowAgain) {
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 3, 3, "r10-16", R("navy+doubles_throw_again")),
            "b,b,b,16/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(After(ufen, 3, 3, "r10-16"), "b,b,b,16/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 doubles_throw_again: a 1-1 that takes effect as snake eyes
// ends the turn.
TEST(Boards, DoublesThrowAgainSnakeEyesStillEndsTheTurn) {
  EXPECT_EQ(After("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r sr", 1, 1, "-",
                  R("navy+snake_eyes+doubles_throw_again")),
            "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g Sr");
}

// ------------------------------------------------------------- the end

// RULES.md §11 "The end with more than two sides": the winners score
// against each losing side on its own: 1 (a piece home), 3 (all in base).
TEST(Boards, EndWithThreeSidesScoresEachLosingSide) {
  Position pos = P("h,h,h,h/b,b,5,h/b,b,b,b/h,h,h,h/b,b,b,b/b,b,b,b r -", kSix);
  ASSERT_TRUE(pos.IsGameOver());
  int winners = pos.SideOf(kRed), green = pos.SideOf(kGreen), yellow = pos.SideOf(kYellow);
  EXPECT_EQ(pos.OutcomeAgainst(green), OutcomeLevel::kWin);
  EXPECT_EQ(pos.OutcomeAgainst(yellow), OutcomeLevel::kInHarbour);
  SidePoints points = pos.Points();
  EXPECT_EQ(points[winners], 4);
  EXPECT_EQ(points[green], -1);
  EXPECT_EQ(points[yellow], -3);
}

// RULES.md §11: solo on four colours: an 8-piecer (here a 4-piecer) against
// a colour with no piece home but pieces out.
TEST(Boards, EndWithFourSoloSidesScoresEachColour) {
  Position pos = P("h,h,h,h/b,5,h,h/b,b,b,7/b,b,b,b r -", kFourSolo);
  SidePoints points = pos.Points();
  EXPECT_EQ(points[kGreen], -1);
  EXPECT_EQ(points[kYellow], -2);
  EXPECT_EQ(points[kBlue], -3);
  EXPECT_EQ(points[kRed], 6);
}

// The `d` text board draws six rows on the six-sided board.
TEST(Boards, TextBoardDrawsSixRows) {
  std::string text = DrawBoard(Position::Start(kSix));
  EXPECT_NE(text.find("  o0 52 |"), std::string::npos) << text;
  EXPECT_NE(text.find("  p0 65 |"), std::string::npos) << text;
  EXPECT_NE(text.find("Purple"), std::string::npos) << text;
}

}  // namespace
}  // namespace uckers::testing
