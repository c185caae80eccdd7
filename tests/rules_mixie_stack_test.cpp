// RULES.md §9 "Mixie stack" (switch mixie_stack) and its UFEN token
// (PROTOCOL.md `m<colour><sq>:<stack>`), one behaviour per test.
#include "absl/strings/str_cat.h"
#include "rules/stack.h"
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

const Rules kStack = R("navy+mixie_stack");

// Red, yellow, red (top) on red's 10; a red stack under a yellow top.
constexpr char kRedOnTop[] = "b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:ryr";
constexpr char kYellowOnTop[] = "b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:rry";

bool Contains(const Strs& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// §9: only the top piece moves; the red under the yellow stays.
TEST(MixieStack, OnlyTheTopPieceMoves) {
  EXPECT_EQ(Plays(kRedOnTop, 4, 2, kStack), Strs{"r10-16"});
  EXPECT_EQ(Plays(kYellowOnTop, 4, 2, kStack), Strs{"-"});
  // Without the switch both reds move freely.
  EXPECT_TRUE(
      Contains(Plays("b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r -", 4, 2, R("navy")), "r10-12,r10-14"));
}

// §9: after the top piece leaves, the next is on top and may take the
// other die.
TEST(MixieStack, NextPieceOnTopTakesTheOtherDie) {
  EXPECT_EQ(Plays("b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r mr10:yrr", 4, 2, kStack),
            Sorted({"r10-12,r10-14", "r10-16"}));
}

// §9: with split_single_piece the top piece may use the dice as two moves,
// landing in between (here knocking off a green single on red's 14).
TEST(MixieStack, SplitSinglePieceMovesTheTopPieceTwice) {
  const char* ufen = "b,b,10,10/b,b,b,1/b,b,b,36/b,b,b,b r mr10:ryr";
  EXPECT_EQ(Plays(ufen, 4, 2, R("navy+mixie_stack+split_single_piece")),
            Sorted({"r10-14,r14-16", "r10-16"}));
  EXPECT_EQ(Plays(ufen, 4, 2, kStack), Strs{"r10-16"});
}

// §9: a piece arriving on its team's pieces goes on top.
TEST(MixieStack, ArrivingPieceGoesOnTop) {
  EXPECT_EQ(After("b,b,b,10/b,b,b,b/b,b,b,40/b,b,b,b r -", 3, 1, "r10-14", kStack),
            "b,b,b,14/b,b,b,b/b,b,b,40/b,b,b,b g mr14:yr");
}

// §9: entering from base goes on top of the partner on the doorstep.
TEST(MixieStack, EnteringPieceGoesOnTop) {
  EXPECT_EQ(After("b,b,b,b/b,b,b,b/b,b,b,26/b,b,b,b r -", 6, 6, "rb-0,rb-0", kStack),
            "b,b,0,0/b,b,b,b/b,b,b,26/b,b,b,b r mr0:yrr");
}

// §9: snake eyes brings the colour's pieces out on top of its partner's.
TEST(MixieStack, SnakeEyesPiecesGoOnTop) {
  EXPECT_EQ(After("b,b,b,b/b,b,b,b/b,b,26,26/b,b,b,b r sr", 1, 1, "-", R("mess")),
            "0,0,0,0/b,b,b,b/b,b,26,26/b,b,b,b g Sr,mr0:yyrrrr");
}

// §9: a square left with one colour is an ordinary blob again: no order,
// and it blocks.
TEST(MixieStack, SquareLeftWithOneColourIsAnOrdinaryBlob) {
  EXPECT_EQ(After("b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b y mr10:rry", 4, 2, "y36-42", kStack),
            "b,b,10,10/b,b,b,b/b,b,b,42/b,b,b,b b -");
  EXPECT_EQ(Plays("b,b,10,10/b,b,b,46/b,b,b,42/b,b,b,b g -", 4, 1, kStack), Strs{"g46-47"});
}

// §9: a stack never blocks.
TEST(MixieStack, StackNeverBlocks) {
  EXPECT_TRUE(
      Contains(Plays("b,b,10,10/b,b,b,46/b,b,b,36/b,b,b,b g mr10:ryr", 4, 1, kStack), "g46-51"));
}

// §9: an opponent landing on a stack knocks it off whole.
TEST(MixieStack, OpponentLandingKnocksTheStackOffWhole) {
  EXPECT_EQ(After("b,b,10,10/b,b,b,46/b,b,b,36/b,b,b,b g mr10:ryr", 2, 1, "g46-49", kStack),
            "b,b,b,b/b,b,b,49/b,b,b,b/b,b,b,b y -");
}

// §9: a stack never makes a blob_on_blob move, even with two of the moving
// colour's pieces on top; the same two reds alone do.
TEST(MixieStack, StackMakesNoBlobOnBlobMove) {
  EXPECT_EQ(Plays("b,b,20,20/b,b,8,8/b,b,b,46/b,b,b,b r mr20:yrr", 3, 3, R("mess")), Strs{"-"});
  EXPECT_EQ(Plays("b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -", 3, 3, R("mess")), Strs{"r20-23,r20-23"});
}

// §9: a second snake eyes sends the colour's pieces in stacks to base; the
// pieces left keep their order and re-form (here a red blob, no order).
TEST(MixieStack, SecondSnakeEyesEmptiesTheColourFromStacks) {
  EXPECT_EQ(After("b,b,10,10/b,b,b,b/b,b,36,36/b,b,b,b y Sy,mr10:ryry", 1, 1, "-", R("mess")),
            "b,b,10,10/b,b,b,b/b,b,b,b/b,b,b,b b -");
}

// §9 with mixie_can_challenge: a stack challenges only by a top piece of the
// moving colour.
TEST(MixieStack, OnlyATopPieceOfTheMovingColourChallenges) {
  Rules rules = R("navy+mixie_stack+mixie_can_challenge");
  EXPECT_TRUE(
      Contains(Plays("b,b,b,11/b,b,b,b/b,b,b,37/b,b,25,25 r mr11:yr", 6, 1, rules), "xr11"));
  EXPECT_FALSE(
      Contains(Plays("b,b,b,11/b,b,b,b/b,b,b,37/b,b,25,25 r mr11:ry", 6, 1, rules), "xr11"));
}

// §9 with suck_back: only the owner of the stack's top piece may call suck
// back; after a hit that piece moves on (yellow still stands in line: kg1).
TEST(MixieStack, SuckBackIsCalledByTheTopPiecesOwner) {
  Rules rules = R("navy+mixie_stack+suck_back");
  EXPECT_FALSE(
      Contains(Plays("b,b,b,11/b,b,b,53/b,b,b,37/b,b,b,b r mr11:ry", 3, 2, rules), "sg53"));
  EXPECT_EQ(After("b,b,b,11/b,b,b,53/b,b,b,37/b,b,b,b r mr11:yr", 3, 2, "sg53", rules),
            "b,b,b,12/b,b,b,b/b,b,b,37/b,b,b,b g kg1");
}

// §9 with suck_back: blow back sends only the stack's top piece to base.
TEST(MixieStack, BlowBackSendsOnlyTheTopPieceToBase) {
  EXPECT_EQ(After("b,b,b,11/b,b,b,53/b,b,b,37/b,b,b,b g mr11:ry", 3, 1, "wg53",
                  R("navy+mixie_stack+suck_back")),
            "b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,b y Kg1");
}

// §9: the order is part of the position and of its key.
TEST(MixieStack, OrderIsPartOfThePositionAndItsKey) {
  Position a = P(kRedOnTop, kStack), b = P(kYellowOnTop, kStack);
  EXPECT_NE(a, b);
  EXPECT_NE(a.key(), b.key());
  EXPECT_EQ(a.key(), a.ComputeKey());
  EXPECT_EQ(StackTopColour(a, 10), kRed);
  EXPECT_EQ(StackTopColour(b, 10), kYellow);
}

// Position::IsOk checks the order bits against the pieces: a stack of two
// reds and a yellow has exactly one yellow bit, and no bit lies beyond it.
TEST(MixieStack, IsOkChecksTheOrderBitsAgainstThePieces) {
  Position pos = P(kRedOnTop, kStack);
  EXPECT_TRUE(pos.IsOk());
  Position two_yellows = pos;
  two_yellows.SetStackOrder(0b011);
  EXPECT_FALSE(two_yellows.IsOk());
  Position stray_bit = pos;
  stray_bit.SetStackOrder(static_cast<uint16_t>(pos.stack_order() | 1 << 5));
  EXPECT_FALSE(stray_bit.IsOk());
}

// PROTOCOL.md: m tokens print canonically, by team then by square as a
// number, and parse in any order.
TEST(UfenMixieStack, TokensPrintCanonically) {
  const char* ufen = "b,5,12,31/b,b,20,20/b,b,31,38/b,46,46,h g mr12:yr,mg20:bgbg,mr5:ry";
  EXPECT_EQ(ToUfen(P(ufen, kStack)),
            "b,5,12,31/b,b,20,20/b,b,31,38/b,46,46,h g mr5:ry,mr12:yr,mg20:bgbg");
}

absl::Status ParseError(const std::string& ufen, const Rules& rules) {
  return ParseUfen(ufen, rules).status();
}

// PROTOCOL.md: a square with both colours of a team needs its m token.
TEST(UfenMixieStack, RefusesAStackWithoutItsOrder) {
  absl::Status s = ParseError("b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r -", kStack);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("mr10"), std::string::npos) << s;
}

// PROTOCOL.md: a token that does not match the pieces is refused, named.
TEST(UfenMixieStack, RefusesATokenThatDoesNotMatchThePieces) {
  for (const char* token : {"mr10:ry", "mr10:ryyr", "mr11:ryr", "mr10:rgr", "mg10:gb"}) {
    absl::Status s =
        ParseError(absl::StrCat("b,b,10,10/b,b,b,b/b,b,b,36/b,b,b,b r ", token), kStack);
    EXPECT_FALSE(s.ok()) << token;
    EXPECT_NE(s.message().find(token), std::string::npos) << s;
  }
}

// PROTOCOL.md: m tokens are refused when mixie_stack is off.
TEST(UfenMixieStack, RefusesTokensWhenTheSwitchIsOff) {
  absl::Status s = ParseError(kRedOnTop, R("navy"));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("mixie_stack"), std::string::npos) << s;
}

}  // namespace
}  // namespace uckers::testing
