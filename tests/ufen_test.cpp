// PROTOCOL.md "Position: UFEN": parsing, canonical printing, round trips and
// the inconsistencies a parser must reject.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

bool Contains(absl::string_view text, absl::string_view part) {
  return text.find(part) != absl::string_view::npos;
}

// The error message ParseUfen gives, or "" when it parses.
std::string UfenError(const std::string& ufen, const Rules& rules = Rules()) {
  absl::StatusOr<Position> pos = ParseUfen(ufen, rules);
  return pos.ok() ? "" : std::string(pos.status().message());
}

std::string RoundTrip(const std::string& ufen, const Rules& rules = Rules()) {
  return ToUfen(P(ufen, rules));
}

// ---------------------------------------------------------------- printing

// PROTOCOL.md: the start position under the default rules.
TEST(Ufen, StartPositionRoundTrips) {
  EXPECT_EQ(RoundTrip("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -"),
            "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(ToUfen(Position::Start(Rules())), std::string(kStartUfen));
}

// PROTOCOL.md: with snake_eyes the start state is srgyb.
TEST(Ufen, SnakeEyesStartPositionRoundTrips) {
  const Rules rules = R("navy+snake_eyes");
  EXPECT_EQ(RoundTrip("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb", rules),
            "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb");
}

// PROTOCOL.md: a parser accepts a colour's pieces in any order and prints
// them ascending, b first, h last.
TEST(Ufen, PiecesInAnyOrderPrintCanonically) {
  EXPECT_EQ(RoundTrip("h,3,b,10/55,b,0,h/b,b,b,b/b,b,b,b g -"),
            "b,3,10,h/b,0,55,h/b,b,b,b/b,b,b,b g -");
  EXPECT_EQ(RoundTrip("h,h,b,9/b,b,b,b/b,b,b,b/b,b,b,b r -"),
            "b,9,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// PROTOCOL.md: the c token from a track square and from base.
TEST(Ufen, ChallengeTokenRoundTrips) {
  EXPECT_EQ(RoundTrip("b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:2"),
            "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:2");
  EXPECT_EQ(RoundTrip("b,b,b,b/b,b,39,39/b,b,b,b/b,b,b,b r cb:3"),
            "b,b,b,b/b,b,39,39/b,b,b,b/b,b,b,b r cb:3");
}

// PROTOCOL.md: the x token (double_six_two_throws only, n > 0).
TEST(Ufen, ExtraThrowTokenRoundTrips) {
  const Rules rules = R("navy+double_six_two_throws");
  EXPECT_EQ(RoundTrip("b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r x2", rules),
            "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r x2");
}

// PROTOCOL.md: the p token lists released colours in turn order.
TEST(Ufen, ReleasedTokenRoundTrips) {
  EXPECT_EQ(RoundTrip("h,h,h,h/h,h,h,h/b,b,b,10/b,b,b,5 y prg"),
            "h,h,h,h/h,h,h,h/b,b,b,10/b,b,b,5 y prg");
}

// PROTOCOL.md: several tokens are printed in the order c, x, p, s, S.
TEST(Ufen, StateTokensPrintInProtocolOrder) {
  const Rules rules = R("navy+double_six_two_throws+snake_eyes");
  EXPECT_EQ(RoundTrip("h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r x1,pr,sgb", rules),
            "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r x1,pr,sgb");
  EXPECT_EQ(RoundTrip("0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g sgyb,Sr", rules),
            "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g sgyb,Sr");
  // A released colour's challenge: c is relative to the moving colour.
  EXPECT_EQ(RoundTrip("h,h,h,h/b,b,34,34/b,b,b,20/b,b,b,b r c20:1,pr"),
            "h,h,h,h/b,b,34,34/b,b,b,20/b,b,b,b r c20:1,pr");
}

// PROTOCOL.md: every field of the parsed position is what the text says.
TEST(Ufen, ParsedFieldsMatchTheText) {
  const Position pos = P("b,b,b,20/b,b,8,8/h,h,h,h/b,b,b,b g -");
  EXPECT_EQ(pos.to_throw(), kGreen);
  EXPECT_EQ(pos.CountAt(kRed, 20), 1);
  EXPECT_EQ(pos.CountAt(kRed, kBase), 3);
  EXPECT_EQ(pos.CountAt(kGreen, 8), 2);
  EXPECT_TRUE(pos.AllHome(kYellow));
  EXPECT_FALSE(pos.challenge_active());
  EXPECT_EQ(pos.extra_owed(), 0);
  EXPECT_EQ(pos.released_mask(), 0);

  const Position c = P("b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:2");
  EXPECT_TRUE(c.challenge_active());
  EXPECT_EQ(c.challenge_from(), 20);
  EXPECT_EQ(c.challenge_count(), 2);
}

// ---------------------------------------------------------------- malformed

// PROTOCOL.md: a UFEN is three space-separated fields.
TEST(Ufen, RejectsAWrongNumberOfFields) {
  EXPECT_NE(UfenError(""), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r"), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b"), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r - x"), "");
}

// PROTOCOL.md: four colour groups separated by '/'.
TEST(Ufen, RejectsAWrongNumberOfColours) {
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b r -"), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -"), "");
}

// RULES.md §1: each colour has four pieces.
TEST(Ufen, RejectsAWrongNumberOfPieces) {
  EXPECT_NE(UfenError("b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -"), "");
  EXPECT_NE(UfenError("b,b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -"), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,,b/b,b,b,b/b,b,b,b r -"), "");
}

// PROTOCOL.md: a square is b, 0..55 or h.
TEST(Ufen, RejectsBadSquares) {
  for (const char* sq : {"56", "-1", "x", "B", "H", "100", "5a", "07"}) {
    std::string ufen = std::string("b,b,b,") + sq + "/b,b,b,b/b,b,b,b/b,b,b,b r -";
    EXPECT_NE(UfenError(ufen), "") << ufen;
  }
}

// PROTOCOL.md: the colour to throw is r, g, y or b.
TEST(Ufen, RejectsABadColourToThrow) {
  for (const char* c : {"w", "R", "rg", "0"}) {
    std::string ufen = std::string("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b ") + c + " -";
    EXPECT_NE(UfenError(ufen), "") << ufen;
  }
}

// PROTOCOL.md: only the listed state tokens exist.
TEST(Ufen, RejectsUnknownStateTokens) {
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r z1"), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r "), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r pw"), "");
}

// PROTOCOL.md: a c token is c<sq>:<n> with sq b or 0..49.
TEST(Ufen, RejectsMalformedChallengeTokens) {
  const std::string blob = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r ";
  EXPECT_NE(UfenError(blob + "c20"), "");
  EXPECT_NE(UfenError(blob + "c20:"), "");
  EXPECT_NE(UfenError(blob + "c20:x"), "");
  EXPECT_NE(UfenError(blob + "ch:1"), "");
  EXPECT_NE(UfenError(blob + "c50:1"), "");
}

// ---------------------------------------------------------------- consistency

// PROTOCOL.md: reject both teams on one square (RULES.md §2).
TEST(Ufen, RejectsBothTeamsOnOneSquare) {
  // Red 10 and green 49: (13 + 49) mod 52 = 10.
  std::string error = UfenError("b,b,b,10/b,b,b,49/b,b,b,b/b,b,b,b r -");
  EXPECT_NE(error, "");
  // Red 0 and blue 13: (39 + 13) mod 52 = 0, Red's doorstep.
  EXPECT_NE(UfenError("b,b,b,0/b,b,b,b/b,b,b,b/b,b,b,13 r -"), "");
  // Yellow 30 (absolute 4) and blue 17 (absolute 4).
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,30/b,b,b,17 r -"), "");
}

// RULES.md §2: both colours of one team may share a square (a mixie blob),
// and lane squares of different colours never clash.
TEST(Ufen, AcceptsAMixieAndLanePieces) {
  EXPECT_EQ(UfenError("b,b,b,10/b,b,b,b/b,b,b,36/b,b,b,b r -"), "");
  EXPECT_EQ(UfenError("b,b,b,52/b,b,b,52/b,b,b,b/b,b,b,b r -"), "");
}

// PROTOCOL.md: reject a released colour with pieces not home.
TEST(Ufen, RejectsAReleasedColourNotHome) {
  std::string error = UfenError("10,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r pr");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "released")) << error;
}

// PROTOCOL.md: reject a c token with no opponent blob in front.
TEST(Ufen, RejectsAChallengeWithNoOpponentBlobInFront) {
  // Nothing in front.
  EXPECT_NE(UfenError("b,b,b,20/b,b,b,b/b,b,b,b/b,b,b,b r c20:1"), "");
  // A single in front.
  EXPECT_NE(UfenError("b,b,b,20/b,b,b,8/b,b,b,b/b,b,b,b r c20:1"), "");
  // A mixie blob in front (green 8 and blue 34 are absolute 21).
  EXPECT_NE(UfenError("b,b,b,20/b,b,b,8/b,b,b,b/b,b,b,34 r c20:1"), "");
  // A partner blob in front (yellow 47,47 = absolute 21).
  EXPECT_NE(UfenError("b,b,b,20/b,b,b,b/b,b,47,47/b,b,b,b r c20:1"), "");
  // From base with no blob on the doorstep.
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r cb:1"), "");
  // The challenger is not there.
  EXPECT_NE(UfenError("b,b,b,19/b,b,8,8/b,b,b,b/b,b,b,b r c20:1"), "");
}

// PROTOCOL.md: reject a c count already at the need (RULES.md §6: X + 1,
// X + 2 from base, one less with one_less_six).
TEST(Ufen, RejectsAChallengeCountAlreadyAtTheNeed) {
  const std::string blob2 = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r ";
  EXPECT_EQ(UfenError(blob2 + "c20:2"), "");
  EXPECT_NE(UfenError(blob2 + "c20:3"), "");
  EXPECT_NE(UfenError(blob2 + "c20:4"), "");
  const std::string blob3 = "b,b,b,20/b,8,8,8/b,b,b,b/b,b,b,b r ";
  EXPECT_EQ(UfenError(blob3 + "c20:3"), "");
  EXPECT_NE(UfenError(blob3 + "c20:4"), "");
  const std::string door = "b,b,b,b/b,b,39,39/b,b,b,b/b,b,b,b r ";
  EXPECT_EQ(UfenError(door + "cb:3"), "");
  EXPECT_NE(UfenError(door + "cb:4"), "");
  const Rules less = R("navy+one_less_six");
  EXPECT_EQ(UfenError(blob2 + "c20:1", less), "");
  EXPECT_NE(UfenError(blob2 + "c20:2", less), "");
}

// RULES.md §6: no challenge from a mixie square, unless
// mixie_can_challenge.
TEST(Ufen, ChallengeFromAMixieSquareNeedsMixieCanChallenge) {
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,46/b,b,b,b r c20:1";
  EXPECT_NE(UfenError(ufen), "");
  EXPECT_EQ(UfenError(ufen, R("navy+mixie_can_challenge")), "");
}

// PROTOCOL.md: reject tokens for switches that are off: x needs
// double_six_two_throws.
TEST(Ufen, RejectsTheXTokenWhenDoubleSixTwoThrowsIsOff) {
  std::string error = UfenError("b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r x1");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "double_six_two_throws")) << error;
}

// PROTOCOL.md: reject s and S tokens when snake_eyes is off.
TEST(Ufen, RejectsSnakeTokensWhenSnakeEyesIsOff) {
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb"), "");
  EXPECT_NE(UfenError("0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g Sr"), "");
}

// PROTOCOL.md: reject k and K tokens when suck_back is off.
TEST(Ufen, RejectsSuckBackTokensWhenSuckBackIsOff) {
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r kg1"), "");
  EXPECT_NE(UfenError("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r Kg1"), "");
}

// PROTOCOL.md: x appears only when n > 0.
TEST(Ufen, RejectsXZero) {
  EXPECT_NE(UfenError("b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r x0", R("navy+double_six_two_throws")),
            "");
}

// PROTOCOL.md: colour lists in tokens are in turn order.
TEST(Ufen, RejectsColourListsOutOfTurnOrder) {
  EXPECT_NE(UfenError("h,h,h,h/h,h,h,h/b,b,b,10/b,b,b,5 y pgr"), "");
  EXPECT_NE(UfenError("h,h,h,h/h,h,h,h/b,b,b,10/b,b,b,5 y prr"), "");
}

}  // namespace
}  // namespace uckers::testing

namespace uckers::testing {
namespace {

// RULES.md §3 (no limit on sixes) with double_six_two_throws: every double
// six adds one owed throw, so the x count can pass any small bound; the
// printed UFEN must read back (found by fuzz/ufen_fuzz.cpp).
TEST(Ufen, ManyOwedThrowsPrintAndParseBack) {
  Rules rules = R("navy+double_six_two_throws");
  std::string after = After("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r x63", 6, 6, "rb-0,rb-0", rules);
  EXPECT_EQ(after, "b,b,0,0/b,b,b,b/b,b,b,b/b,b,b,b r x64");
  Position pos = P(after, rules);
  EXPECT_EQ(ToUfen(pos), after);
  EXPECT_NE(pos.key(), P("b,b,0,0/b,b,b,b/b,b,b,b/b,b,b,b r x63", rules).key());
  EXPECT_FALSE(ParseUfen("b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r x65536", rules).ok());
}

}  // namespace
}  // namespace uckers::testing
