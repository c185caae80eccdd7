// PROTOCOL.md "Throws and plays": throw parsing, play parsing (any spelling
// of a legal play is accepted; illegal plays are refused with an error naming
// the problem) and canonical spelling. Positions worked out by hand.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

using Strs = std::vector<std::string>;

bool Contains(absl::string_view text, absl::string_view part) {
  return text.find(part) != absl::string_view::npos;
}

absl::StatusOr<PlayResult> Parse(const std::string& ufen, int d1, int d2, const std::string& play,
                                 const Rules& rules = Rules()) {
  return ParsePlay(play, P(ufen, rules), rules, MakeThrow(d1, d2));
}

// The error message of ParsePlay, or "" when the play is accepted.
std::string PlayError(const std::string& ufen, int d1, int d2, const std::string& play,
                      const Rules& rules = Rules()) {
  absl::StatusOr<PlayResult> r = Parse(ufen, d1, d2, play, rules);
  return r.ok() ? "" : std::string(r.status().message());
}

// The canonical spelling of the legal play a spelling is accepted as.
std::string Canonical(const std::string& ufen, int d1, int d2, const std::string& play,
                      const Rules& rules = Rules()) {
  absl::StatusOr<PlayResult> r = Parse(ufen, d1, d2, play, rules);
  EXPECT_TRUE(r.ok()) << play << ": " << r.status();
  return r.ok() ? PlayToString(r->play) : "";
}

const std::string kTwoPieces = "b,b,10,20/b,b,b,b/b,b,b,b/b,b,b,b r -";
const std::string kOnePiece = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
const std::string kBlob = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r -";

// ---------------------------------------------------------------- throws

// PROTOCOL.md: a throw is two digits; order does not matter (63 = 36).
TEST(Notation, ThrowDigitsInEitherOrder) {
  absl::StatusOr<Throw> a = ParseThrow("63");
  absl::StatusOr<Throw> b = ParseThrow("36");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(*a, MakeThrow(6, 3));
  EXPECT_EQ(ThrowToString(*b), "63");
}

// PROTOCOL.md: each die is 1..6.
TEST(Notation, RejectsBadThrows) {
  for (const char* text : {"", "6", "633", "70", "06", "a3", "6 3", "-1"}) {
    EXPECT_FALSE(ParseThrow(text).ok()) << "'" << text << "'";
  }
}

// PROTOCOL.md: the same play for 63 and 36.
TEST(Notation, PlaysDoNotDependOnTheDiceOrder) {
  EXPECT_EQ(Plays(kOnePiece, 6, 3), Plays(kOnePiece, 3, 6));
  EXPECT_EQ(After(kOnePiece, 3, 6, "rb-0,r0-3"), After(kOnePiece, 6, 3, "rb-0,r0-3"));
}

// ---------------------------------------------------------------- spellings

// PROTOCOL.md: canonical spelling: moves ordered by (from, to), b first.
TEST(Notation, CanonicalSpellingOrdersMovesWithBaseFirst) {
  EXPECT_EQ(Canonical(kOnePiece, 6, 2, "r10-12,rb-0"), "rb-0,r10-12");
  EXPECT_EQ(Canonical(kTwoPieces, 4, 1, "r20-21,r10-14"), "r10-14,r20-21");
}

// PROTOCOL.md: parsers accept any order of the moves of a legal play.
TEST(Notation, AcceptsTheMovesInAnyOrder) {
  EXPECT_EQ(After(kTwoPieces, 4, 1, "r20-21,r10-14"), After(kTwoPieces, 4, 1, "r10-14,r20-21"));
  EXPECT_EQ(After(kTwoPieces, 4, 1, "r20-21,r10-14"), "b,b,14,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// PROTOCOL.md: a summed move is one move; r10-13,r13-16 is another spelling
// of r10-16 (the canonical one has the fewest moves).
TEST(Notation, SummedMoveMayBeSpelledAsTwoSteps) {
  EXPECT_EQ(Canonical(kOnePiece, 4, 2, "r10-14,r14-16"), "r10-16");
  EXPECT_EQ(Canonical(kOnePiece, 4, 2, "r10-12,r12-16"), "r10-16");
  EXPECT_EQ(After(kOnePiece, 4, 2, "r10-14,r14-16"), "b,b,b,16/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §4 rule 5(b) with PROTOCOL.md: a two-step spelling that would
// land on an opponent single in between is not the summed move; it is
// illegal without split_single_piece.
TEST(Notation, TwoStepSpellingLandingOnASingleIsIllegal) {
  // Green 1 = absolute 14.
  const std::string ufen = "b,b,b,10/b,b,b,1/b,b,b,b/b,b,b,b r -";
  EXPECT_NE(PlayError(ufen, 4, 2, "r10-14,r14-16"), "");
  EXPECT_EQ(PlayError(ufen, 4, 2, "r10-16"), "");
}

// PROTOCOL.md: enter then move the entered piece is spelled rb-0,r0-3.
TEST(Notation, EnterThenMoveSpelling) {
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Canonical(start, 6, 3, "rb-0,r0-3"), "rb-0,r0-3");
}

// PROTOCOL.md: `-` is the play when nothing can be chosen.
TEST(Notation, DashIsAcceptedWhenItIsTheOnlyPlay) {
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Canonical(start, 5, 4, "-"), "-");
}

// PROTOCOL.md: x<colour><sq> declares a challenge.
TEST(Notation, ChallengeSpelling) {
  EXPECT_EQ(Canonical(kBlob, 6, 2, "xr20"), "xr20");
  EXPECT_EQ(After(kBlob, 6, 2, "xr20"), "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:1");
}

// ---------------------------------------------------------------- errors

// RULES.md §4: pass only when no move is legal; the error says so.
TEST(Notation, RejectsPassWhenAMoveIsLegal) {
  std::string error = PlayError(kOnePiece, 5, 4, "-");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "pass")) << error;
}

// PROTOCOL.md: a move of a colour that is not the moving colour.
TEST(Notation, RejectsAMoveOfAnotherColour) {
  const std::string ufen = "b,b,b,10/b,b,b,5/b,b,b,b/b,b,b,b r -";
  std::string error = PlayError(ufen, 3, 1, "g5-9");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "moving colour")) << error;
}

// PROTOCOL.md: a move from a square where the colour has no piece.
TEST(Notation, RejectsAMoveFromAnEmptySquare) {
  std::string error = PlayError(kOnePiece, 3, 1, "r11-15");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "11")) << error;
}

// RULES.md §4: a move of the wrong length is not a legal play.
TEST(Notation, RejectsAMoveOfTheWrongLength) {
  std::string error = PlayError(kOnePiece, 4, 2, "r10-13");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "not a legal play")) << error;
}

// RULES.md §4 use as much: a single die when both could be used.
TEST(Notation, RejectsASingleDieWhenBothDiceCanBeUsed) {
  EXPECT_NE(PlayError(kOnePiece, 5, 3, "r10-15"), "");
  EXPECT_NE(PlayError(kOnePiece, 5, 3, "r10-13"), "");
}

// RULES.md §4 use as much: the lower die when the higher can be used.
TEST(Notation, RejectsTheLowerDieWhenTheHigherCanBeUsed) {
  const std::string ufen = "b,b,b,50/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_NE(PlayError(ufen, 5, 3, "r50-53"), "");
  EXPECT_EQ(PlayError(ufen, 5, 3, "r50-55"), "");
}

// RULES.md §4: a move through an opponent blob is refused.
TEST(Notation, RejectsAMoveThroughAnOpponentBlob) {
  const std::string ufen = "b,b,b,12/b,b,2,2/b,b,b,b/b,b,b,b r -";
  EXPECT_NE(PlayError(ufen, 4, 1, "r12-17"), "");
}

// RULES.md §4: entering needs a six.
TEST(Notation, RejectsEnteringWithoutASix) {
  EXPECT_NE(PlayError(kOnePiece, 5, 4, "rb-0,r10-14"), "");
}

// PROTOCOL.md: malformed moves are refused.
TEST(Notation, RejectsMalformedPlays) {
  for (const char* play : {"", "r10", "r10-", "10-14", "r10-99", "r10-14,", "q10-14",
                           "r10-14,r14-16,r16-17", "r-10-14", "r010-14"}) {
    EXPECT_NE(PlayError(kOnePiece, 3, 1, play), "") << "'" << play << "'";
  }
}

// PROTOCOL.md: a challenge that is not legal is refused.
TEST(Notation, RejectsAnIllegalChallenge) {
  EXPECT_NE(PlayError(kBlob, 6, 2, "xr19"), "");
  EXPECT_NE(PlayError(kBlob, 6, 2, "xg20"), "");
  EXPECT_NE(PlayError(kBlob, 5, 2, "xr20"), "");  // no six (§6)
}

// RULES.md §6: during a challenge the only play is `-`.
TEST(Notation, RejectsMovesDuringAChallenge) {
  const std::string ufen = "b,b,10,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:1";
  std::string error = PlayError(ufen, 6, 1, "r10-17");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "-")) << error;
  EXPECT_EQ(PlayError(ufen, 6, 1, "-"), "");
}

// RULES.md §7: a release throw moves nothing; the only play is `-`.
TEST(Notation, RejectsMovesOnAReleaseThrow) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_NE(PlayError(ufen, 6, 1, "y10-17"), "");
  EXPECT_EQ(PlayError(ufen, 6, 1, "-"), "");
}

// RULES.md §5: a finished game has no legal play at all.
TEST(Notation, RejectsEveryPlayInAFinishedGame) {
  const std::string ufen = "h,h,h,h/b,b,b,10/h,h,h,h/b,b,b,b g -";
  std::string error = PlayError(ufen, 3, 1, "-");
  EXPECT_NE(error, "");
  EXPECT_TRUE(Contains(error, "over")) << error;
  EXPECT_NE(PlayError(ufen, 3, 1, "g10-14"), "");
}

}  // namespace
}  // namespace uckers::testing
