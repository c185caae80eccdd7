// RULES.md §9 (switches) and §10 (rulesets). Expected values worked out by
// hand from RULES.md and docs/rules-reading.md; relative square p of colour c
// is absolute (13c + p) mod 52.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

// ---------------------------------------------------------------- §10

// RULES.md §10: navy is the default ruleset, every switch off.
TEST(Rulesets, NavyIsTheDefaultWithEverySwitchOff) {
  Rules navy = R("navy");
  EXPECT_EQ(navy, Rules());
  for (int i = 0; i < kNumSwitches; ++i) {
    EXPECT_FALSE(navy.has(static_cast<Switch>(i))) << i;
  }
  EXPECT_EQ(navy.ToString(), "navy");
}

// RULES.md §10: mess = navy + snake_eyes + no_partner_pipe_moves +
// blob_on_blob + mixie_stack + superblob; it parses and prints as its
// preset name.
TEST(Rulesets, MessParsesAndPrints) {
  Rules mess = R("mess");
  EXPECT_EQ(mess, R("navy+snake_eyes+no_partner_pipe_moves+blob_on_blob+mixie_stack+superblob"));
  EXPECT_TRUE(mess.has(Switch::kSnakeEyes));
  EXPECT_TRUE(mess.has(Switch::kNoPartnerPipeMoves));
  EXPECT_TRUE(mess.has(Switch::kBlobOnBlob));
  EXPECT_TRUE(mess.has(Switch::kMixieStack));
  EXPECT_FALSE(mess.has(Switch::kSuckBack));
  EXPECT_FALSE(mess.has(Switch::kThrowAfterChallenge));
  EXPECT_EQ(mess.ToString(), "mess");
  EXPECT_EQ(
      R("navy+superblob+mixie_stack+blob_on_blob+snake_eyes+no_partner_pipe_moves").ToString(),
      "mess");
  EXPECT_EQ(mess.SwitchList(),
            "navy+blob_on_blob+snake_eyes+no_partner_pipe_moves+mixie_stack+superblob");
}

// RULES.md §10: selsey = navy + throw_after_challenge.
TEST(Rulesets, SelseyParsesAndPrints) {
  Rules selsey = R("selsey");
  EXPECT_EQ(selsey, R("navy+throw_after_challenge"));
  EXPECT_EQ(selsey.ToString(), "selsey");
  EXPECT_EQ(R("navy+throw_after_challenge").ToString(), "selsey");
}

// RULES.md §10: any ruleset is a base plus switches; printed as navy plus
// the switches on, in the order of §9 (docs/rules-reading.md).
TEST(Rulesets, SwitchesPrintInSectionNineOrder) {
  EXPECT_EQ(R("navy+one_less_six+mixie_can_challenge").ToString(),
            "navy+mixie_can_challenge+one_less_six");
  EXPECT_EQ(R("selsey+one_less_six").ToString(), "navy+one_less_six+throw_after_challenge");
  EXPECT_EQ(R("navy+no_partner_pipe_moves+split_single_piece+bounce_back").ToString(),
            "navy+split_single_piece+bounce_back+no_partner_pipe_moves");
}

// RULES.md §10: a minus turns a switch off.
TEST(Rulesets, MinusTurnsASwitchOff) {
  EXPECT_EQ(R("mess-blob_on_blob").ToString(),
            "navy+snake_eyes+no_partner_pipe_moves+mixie_stack+superblob");
  EXPECT_EQ(R("navy+one_less_six-one_less_six"), Rules());
  EXPECT_EQ(R("selsey-throw_after_challenge").ToString(), "navy");
}

// RULES.md §9: every implemented switch parses and round-trips.
TEST(Rulesets, EveryImplementedSwitchParsesAndRoundTrips) {
  for (const char* name :
       {"split_single_piece", "mixie_can_challenge", "blob_on_blob", "bounce_back", "one_less_six",
        "double_six_two_throws", "snake_eyes", "throw_after_challenge", "no_partner_pipe_moves"}) {
    absl::StatusOr<Rules> rules = Rules::Parse(std::string("navy+") + name);
    ASSERT_TRUE(rules.ok()) << name << ": " << rules.status();
    const std::string text = std::string("navy+") + name;
    // navy + throw_after_challenge equals the selsey preset (§10).
    const std::string printed = text == "navy+throw_after_challenge" ? "selsey" : text;
    EXPECT_EQ(rules->ToString(), printed);
    absl::StatusOr<Rules> again = Rules::Parse(rules->ToString());
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(*again, *rules) << name;
  }
}

// RULES.md §10: wafu is navy + suck_back + snake_eyes.
TEST(Rulesets, WafuIsNavyPlusSuckBackPlusSnakeEyes) {
  absl::StatusOr<Rules> rules = Rules::Parse("wafu");
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(*rules, R("navy+suck_back+snake_eyes"));
  EXPECT_EQ(rules->ToString(), "wafu");
}

// RULES.md §10: wafu with suck_back turned off is navy + snake_eyes.
TEST(Rulesets, WafuWithoutSuckBackIsAccepted) {
  absl::StatusOr<Rules> rules = Rules::Parse("wafu-suck_back");
  ASSERT_TRUE(rules.ok()) << rules.status();
  EXPECT_EQ(*rules, R("navy+snake_eyes"));
}

// RULES.md §10: unknown rulesets and switches are errors.
TEST(Rulesets, UnknownNamesAreRefused) {
  for (const char* text : {"army", "", "navy+no_such_switch", "+snake_eyes", "navy+", "Navy"}) {
    absl::StatusOr<Rules> rules = Rules::Parse(text);
    EXPECT_FALSE(rules.ok()) << "'" << text << "' parsed as "
                             << (rules.ok() ? rules->ToString() : "");
  }
}

// ---------------------------------------------------- split_single_piece

// RULES.md §9 split_single_piece (var. A): one piece may move d1 then d2,
// landing in between (knocking off there); the summed move stays legal.
TEST(Switches, SplitSinglePieceLandsBetweenTheDice) {
  // Green 1 = absolute 14. Red 10 + 4-2: 10->14 (knock) ->16, or summed.
  const Rules rules = R("navy+split_single_piece");
  const std::string ufen = "b,b,b,10/b,b,b,1/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 2, rules), Sorted({"r10-14,r14-16", "r10-16"}));
  EXPECT_EQ(After(ufen, 4, 2, "r10-14,r14-16", rules), "b,b,b,16/b,b,b,b/b,b,b,b/b,b,b,b g -");
  EXPECT_EQ(After(ufen, 4, 2, "r10-16", rules), "b,b,b,16/b,b,b,1/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 split_single_piece: either order of the dice.
TEST(Switches, SplitSinglePieceEitherOrder) {
  // Blue 25 = absolute 12: 10->12 (knock) ->16 uses the lower die first.
  const Rules rules = R("navy+split_single_piece");
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,25 r -";
  EXPECT_EQ(Plays(ufen, 4, 2, rules), Sorted({"r10-12,r12-16", "r10-16"}));
}

// RULES.md §9 split_single_piece: on a double too.
TEST(Switches, SplitSinglePieceOnADouble) {
  // Green 0 = absolute 13: 10->13 (knock) ->16.
  const Rules rules = R("navy+split_single_piece");
  const std::string ufen = "b,b,b,10/b,b,b,0/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 3, rules), Sorted({"r10-13,r13-16", "r10-16"}));
}

// RULES.md §9 split_single_piece: each of the two moves obeys §4 (a blob on
// the middle square blocks landing there).
TEST(Switches, SplitSinglePieceCannotLandOnABlob) {
  // Green 1,1 = absolute 14: 10->14 lands on it; 10->12->16 and the summed
  // move pass it. Only the lower die alone is left.
  const Rules rules = R("navy+split_single_piece");
  const std::string ufen = "b,b,b,10/b,b,1,1/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 2, rules), Strs{"r10-12"});
}

// RULES.md §4: without split_single_piece one piece cannot land between the
// dice.
TEST(Switches, SplitSinglePieceIsOffInNavy) {
  const std::string ufen = "b,b,b,10/b,b,b,1/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 2), Strs{"r10-16"});
}

// ---------------------------------------------------- mixie_can_challenge

// RULES.md §9 mixie_can_challenge (var. B): a mixie blob behind an opponent
// blob may challenge.
TEST(Switches, MixieCanChallengeLetsAMixieSquareChallenge) {
  // Red 20 with yellow 46 (absolute 20); green 8,8 = absolute 21.
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,46/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 2, R("navy+mixie_can_challenge")), Sorted({"rb-0,r0-2", "xr20"}));
  EXPECT_EQ(Plays(ufen, 6, 2), Strs{"rb-0,r0-2"});
}

// ---------------------------------------------------- blob_on_blob

// RULES.md §9 blob_on_blob (var. C): on a double d-d a blob directly behind
// an opponent blob moves two pieces d each together, jumping the blob.
TEST(Switches, BlobOnBlobJumpsTheBlobInFront) {
  const Rules rules = R("navy+blob_on_blob");
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 3, rules), Strs{"r20-23,r20-23"});
  EXPECT_EQ(After(ufen, 3, 3, "r20-23,r20-23", rules), "b,b,23,23/b,b,8,8/b,b,b,b/b,b,b,b g -");
  // navy: the blob blocks every move.
  EXPECT_EQ(Plays(ufen, 3, 3), Strs{"-"});
}

// RULES.md §9 blob_on_blob: landing exactly on the opponent blob knocks it
// off whole.
TEST(Switches, BlobOnBlobDoubleOneKnocksTheBlobOffWhole) {
  const Rules rules = R("navy+blob_on_blob");
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 1, 1, rules), Strs{"r20-21,r20-21"});
  EXPECT_EQ(After(ufen, 1, 1, "r20-21,r20-21", rules), "b,b,21,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 blob_on_blob: only on a double.
TEST(Switches, BlobOnBlobOnlyOnADouble) {
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 2, R("navy+blob_on_blob")), Strs{"-"});
}

// RULES.md §9 blob_on_blob: only a blob (two or more pieces) may do it.
TEST(Switches, BlobOnBlobNeedsABlobBehind) {
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 3, R("navy+blob_on_blob")), Strs{"-"});
}

// RULES.md §9 blob_on_blob: other opponent blobs on the way still block.
TEST(Switches, BlobOnBlobOtherBlobsStillBlock) {
  // Blue 36,36 = absolute 23.
  const Rules rules = R("navy+blob_on_blob");
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,36,36 r -";
  EXPECT_EQ(Plays(ufen, 3, 3, rules), Strs{"-"});
  EXPECT_EQ(Plays(ufen, 2, 2, rules), Strs{"r20-22,r20-22"});
}

// RULES.md §9 blob_on_blob with §4 landing: landing on an opponent single
// beyond the jumped blob knocks it off.
TEST(Switches, BlobOnBlobLandingKnocksOffASingle) {
  // Green 11 = absolute 24.
  const Rules rules = R("navy+blob_on_blob");
  const std::string ufen = "b,b,20,20/b,8,8,11/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 4, 4, "r20-24,r20-24", rules), "b,b,24,24/b,b,8,8/b,b,b,b/b,b,b,b g -");
}

// RULES.md §10: mess includes blob_on_blob.
TEST(Switches, BlobOnBlobIsInMess) {
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 3, R("mess")), Strs{"r20-23,r20-23"});
}

// ---------------------------------------------------- bounce_back

// RULES.md §9 bounce_back (var. D): an overshoot bounces back from home:
// q = 112 - p - n.
TEST(Switches, BounceBackReflectsFromHome) {
  // Red 50 + 5-4 summed: 112 - 59 = 53. navy: 5 -> 55 instead.
  const std::string ufen = "b,b,b,50/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 4, R("navy+bounce_back")), Strs{"r50-53"});
  EXPECT_EQ(Plays(ufen, 5, 4), Strs{"r50-55"});
}

// RULES.md §9 bounce_back: each move bounces on its own.
TEST(Switches, BounceBackEachMoveOnItsOwn) {
  // Red 52, 53 + 5-4: 52+5 -> 55 & 53+4 -> 55; 52+4 = h & 53+5 -> 54;
  // 52+9 -> 51; 53+9 -> 50.
  const std::string ufen = "b,b,52,53/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 4, R("navy+bounce_back")),
            Sorted({"r52-51", "r52-55,r53-55", "r52-h,r53-54", "r53-50"}));
}

// RULES.md §9 bounce_back: a bounce back onto the track lands there and
// knocks off an opponent single.
TEST(Switches, BounceBackLandingOnTheTrackKnocksOff) {
  // Red 53 + 5-4 summed: 112 - 62 = 50. Green 37 = absolute 50.
  const Rules rules = R("navy+bounce_back");
  const std::string ufen = "b,b,b,53/b,b,b,37/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 4, rules), Strs{"r53-50"});
  EXPECT_EQ(After(ufen, 5, 4, "r53-50", rules), "b,b,b,50/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 bounce_back: blobs block on the way back too (landing).
TEST(Switches, BounceBackBlockedByABlobWhereItWouldLand) {
  // Green 37,37 = absolute 50. Summed -> 50 is blocked; 5 -> 58 -> 54.
  const std::string ufen = "b,b,b,53/b,b,37,37/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 4, R("navy+bounce_back")), Strs{"r53-54"});
}

// RULES.md §9 bounce_back: blobs block on the way back too (passing).
TEST(Switches, BounceBackBlockedByABlobPassedOnTheWayBack) {
  // Red 55 + 6-6 summed: 112 - 67 = 45, back over 50..45. Blue 8,8 =
  // absolute 47 blocks; the 6 alone goes 55 -> 61 -> 51.
  const Rules rules = R("navy+bounce_back");
  const std::string blocked = "55,h,h,h/b,b,b,b/b,b,b,b/b,b,8,8 r -";
  EXPECT_EQ(Plays(blocked, 6, 6, rules), Strs{"r55-51"});
  const std::string open = "55,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(open, 6, 6, rules), Strs{"r55-45"});
}

// RULES.md §9 bounce_back: a move that ends where it started is legal.
TEST(Switches, BounceBackMoveEndingWhereItStartedIsLegal) {
  // Red 54 + 3-1 summed: 112 - 58 = 54. navy: only 1 -> 55.
  const std::string ufen = "b,b,b,54/b,b,b,b/b,b,b,b/b,b,b,b r -";
  const Rules rules = R("navy+bounce_back");
  EXPECT_EQ(Plays(ufen, 3, 1, rules), Strs{"r54-54"});
  EXPECT_EQ(After(ufen, 3, 1, "r54-54", rules), "b,b,b,54/b,b,b,b/b,b,b,b/b,b,b,b g -");
  EXPECT_EQ(Plays(ufen, 3, 1), Strs{"r54-55"});
}

// RULES.md §4 rule 10(b) with bounce_back: the last piece not home may go
// exactly home with one die, the other unused, beside the both-dice plays.
TEST(Switches, BounceBackRule10bLastPieceMayGoHomeWithOneDie) {
  // Red 53 + 5-3: summed 112 - 61 = 51; the 3 alone is exactly home.
  const std::string ufen = "53,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 3, R("navy+bounce_back")), Sorted({"r53-51", "r53-h"}));
}

// RULES.md §4 rule 10(b): only when exactly one piece is not home.
TEST(Switches, BounceBackRule10bNotWithTwoPiecesLeft) {
  // A base piece is not home either: only the summed bounce.
  const std::string ufen = "b,53,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 5, 3, R("navy+bounce_back")), Strs{"r53-51"});
}

// ---------------------------------------------------- one_less_six

// RULES.md §9 one_less_six (var. E): a challenge needs one six fewer: X from
// the track.
TEST(Switches, OneLessSixFromTheTrackNeedsBlobSize) {
  const Rules rules = R("navy+one_less_six");
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:1";
  EXPECT_EQ(After(ufen, 6, 1, "-", rules), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 one_less_six: X + 1 from base.
TEST(Switches, OneLessSixFromBaseNeedsBlobSizePlusOne) {
  const Rules rules = R("navy+one_less_six");
  const std::string blob = "b,b,b,b/b,b,39,39/b,b,b,b/b,b,b,b";
  EXPECT_EQ(After(blob + " r cb:1", 6, 1, "-", rules), blob + " r cb:2");
  EXPECT_EQ(After(blob + " r cb:2", 6, 1, "-", rules), "b,b,b,0/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// ---------------------------------------------------- double_six_two_throws

// RULES.md §9 double_six_two_throws (var. F): a double six earns two extra
// throws: one now and one owed after it (x1).
TEST(Switches, DoubleSixTwoThrowsOwesASecondThrow) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 6, "r10-22", rules), "b,b,b,22/b,b,b,b/b,b,b,b/b,b,b,b r x1");
}

// RULES.md §9 double_six_two_throws: a single six still earns one.
TEST(Switches, DoubleSixTwoThrowsSingleSixEarnsOne) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 1, "r10-17", rules), "b,b,b,17/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §9 double_six_two_throws: the owed throw is thrown after the next
// one, then the turn passes.
TEST(Switches, DoubleSixTwoThrowsOwedThrowIsUsedUp) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string ufen = "b,b,b,22/b,b,b,b/b,b,b,b/b,b,b,b r x1";
  const std::string next = After(ufen, 3, 1, "r22-26", rules);
  EXPECT_EQ(next, "b,b,b,26/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(After(next, 3, 1, "r26-30", rules), "b,b,b,30/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 double_six_two_throws: owed throws add up.
TEST(Switches, DoubleSixTwoThrowsOwedThrowsAddUp) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string ufen = "b,b,b,22/b,b,b,b/b,b,b,b/b,b,b,b r x1";
  EXPECT_EQ(After(ufen, 6, 6, "r22-34", rules), "b,b,b,34/b,b,b,b/b,b,b,b/b,b,b,b r x2");
  EXPECT_EQ(After(ufen, 6, 1, "r22-29", rules), "b,b,b,29/b,b,b,b/b,b,b,b/b,b,b,b r x1");
}

// RULES.md §9 double_six_two_throws with §3: a pass on a double six earns
// two throws as well.
TEST(Switches, DoubleSixTwoThrowsEvenWhenNothingMoved) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string ufen = "54,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 6, "-", rules), "54,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r x1");
}

// RULES.md §6 (a challenge ends the turn) with docs/rules-reading.md:
// declaring a challenge drops the owed throws.
TEST(Switches, DoubleSixTwoThrowsDeclaringAChallengeDropsOwedThrows) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string blob = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b";
  EXPECT_EQ(After(blob + " r x1", 6, 2, "xr20", rules), blob + " r c20:1");
}

// RULES.md §7 with double_six_two_throws: the last piece home loses every
// owed throw.
TEST(Switches, DoubleSixTwoThrowsLastPieceHomeLosesOwedThrows) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string ufen = "44,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r x1";
  EXPECT_EQ(After(ufen, 6, 6, "r44-h", rules), "h,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// ---------------------------------------------------- snake_eyes

// RULES.md §9 snake_eyes and PROTOCOL.md: every colour starts in s.
TEST(Switches, SnakeEyesStartPositionMarksEveryColour) {
  EXPECT_EQ(ToUfen(Position::Start(R("navy+snake_eyes"))),
            "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb");
}

// RULES.md §9 snake_eyes: a colour's very first throw of 1-1 puts all its
// base pieces on its doorstep and ends the turn.
TEST(Switches, SnakeEyesFirstOneOneBringsAllBasePiecesOut) {
  const Rules rules = R("navy+snake_eyes");
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb";
  EXPECT_EQ(Plays(start, 1, 1, rules), Strs{"-"});
  EXPECT_EQ(After(start, 1, 1, "-", rules), "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g sgyb,Sr");
}

// RULES.md §9 snake_eyes: it knocks off an opponent single on the doorstep.
TEST(Switches, SnakeEyesKnocksOffAnOpponentSingleOnTheDoorstep) {
  // Green 39 = absolute 0.
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "b,b,b,b/b,b,b,39/b,b,b,b/b,b,b,b r sryb";
  EXPECT_EQ(After(ufen, 1, 1, "-", rules), "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g syb,Sr");
}

// RULES.md §9 snake_eyes: it knocks off an opponent mixie blob there.
TEST(Switches, SnakeEyesKnocksOffAnOpponentMixieOnTheDoorstep) {
  // Green 39 and blue 13 = absolute 0.
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "b,b,b,b/b,b,b,39/b,b,b,b/b,b,b,13 r sry";
  EXPECT_EQ(After(ufen, 1, 1, "-", rules), "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g sy,Sr");
}

// RULES.md §9 snake_eyes: if an opponent blob holds the doorstep, the 1-1 is
// an ordinary throw (and the colour is not in S after it).
TEST(Switches, SnakeEyesBlockedDoorstepMakesItAnOrdinaryThrow) {
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "b,b,b,b/b,b,39,39/b,b,b,b/b,b,b,b r sryb";
  EXPECT_EQ(Plays(ufen, 1, 1, rules), Strs{"-"});
  EXPECT_EQ(After(ufen, 1, 1, "-", rules), "b,b,b,b/b,b,39,39/b,b,b,b/b,b,b,b g syb");
}

// RULES.md §9 snake_eyes: if that colour's next throw is 1-1 again, all its
// pieces not yet home go back to base and the turn ends.
TEST(Switches, SnakeEyesSecondOneOneSendsEveryPieceNotHomeToBase) {
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "0,0,5,h/b,b,b,b/b,b,b,b/b,b,b,b r Sr";
  EXPECT_EQ(Plays(ufen, 1, 1, rules), Strs{"-"});
  EXPECT_EQ(After(ufen, 1, 1, "-", rules), "b,b,b,h/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 snake_eyes: a first throw other than 1-1 is ordinary and
// spends the first throw.
TEST(Switches, SnakeEyesOtherFirstThrowIsOrdinary) {
  const Rules rules = R("navy+snake_eyes");
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb";
  EXPECT_EQ(Plays(start, 6, 3, rules), Strs{"rb-0,r0-3"});
  EXPECT_EQ(After(start, 6, 3, "rb-0,r0-3", rules), "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r sgyb");
}

// RULES.md §9 snake_eyes: a 1-1 that is not the very first throw is ordinary.
TEST(Switches, SnakeEyesLaterOneOneIsOrdinary) {
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "b,b,b,3/b,b,b,b/b,b,b,b/b,b,b,b r sgyb";
  EXPECT_EQ(Plays(ufen, 1, 1, rules), Strs{"r3-5"});
  EXPECT_EQ(After(ufen, 1, 1, "r3-5", rules), "b,b,b,5/b,b,b,b/b,b,b,b/b,b,b,b g sgyb");
}

// RULES.md §9 snake_eyes: only the throw right after snake eyes counts as
// the second; any other throw ends the S state.
TEST(Switches, SnakeEyesSecondThrowNotOneOneEndsTheDanger) {
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b r Sr";
  EXPECT_EQ(Plays(ufen, 2, 1, rules), Sorted({"r0-1,r0-2", "r0-3"}));
  EXPECT_EQ(After(ufen, 2, 1, "r0-3", rules), "0,0,0,3/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9: snake_eyes is off in navy: a first 1-1 is an ordinary pass.
TEST(Switches, SnakeEyesIsOffInNavy) {
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(start, 1, 1, "-"), "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// ---------------------------------------------------- throw_after_challenge

// RULES.md §9 throw_after_challenge (seed 003): a successful challenge earns
// one more throw.
TEST(Switches, ThrowAfterChallengeEarnsOneMoreThrow) {
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:2";
  EXPECT_EQ(After(ufen, 6, 1, "-", R("navy+throw_after_challenge")),
            "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b r -");
  EXPECT_EQ(After(ufen, 6, 1, "-", R("selsey")), "b,b,b,21/b,b,b,b/b,b,b,b/b,b,b,b r -");
}

// RULES.md §9 throw_after_challenge: a failed challenge still ends the turn.
TEST(Switches, ThrowAfterChallengeFailureStillEndsTheTurn) {
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b r c20:2";
  EXPECT_EQ(After(ufen, 5, 4, "-", R("selsey")), "b,b,b,20/b,b,8,8/b,b,b,b/b,b,b,b g -");
}

// ---------------------------------------------------- no_partner_pipe_moves

// RULES.md §9 no_partner_pipe_moves (§7): a released colour may not move its
// partner's pieces in the home lane.
TEST(Switches, NoPartnerPipeMovesLocksThePartnersLanePieces) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,10,52/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 3, 1, R("navy+no_partner_pipe_moves")), Strs{"y10-14"});
  EXPECT_EQ(Plays(ufen, 3, 1), Sorted({"y10-11,y52-55", "y10-13,y52-53", "y10-14", "y52-h"}));
}

// RULES.md §9 no_partner_pipe_moves: with only lane pieces left, the released
// colour passes.
TEST(Switches, NoPartnerPipeMovesPassWhenOnlyLanePiecesRemain) {
  const std::string ufen = "h,h,h,h/b,b,b,b/52,h,h,h/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 3, 1, R("navy+no_partner_pipe_moves")), Strs{"-"});
}

// docs/rules-reading.md: a piece on 50 may still turn into the lane.
TEST(Switches, NoPartnerPipeMovesPieceOnFiftyMayTurnIn) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,50/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 3, 1, R("navy+no_partner_pipe_moves")), Strs{"y50-54"});
}

// RULES.md §7: the owner still moves its own lane pieces on its own turn.
TEST(Switches, NoPartnerPipeMovesOwnerMayMoveItsLanePieces) {
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,10,52/b,b,b,b y pr";
  EXPECT_EQ(Plays(ufen, 3, 1, R("navy+no_partner_pipe_moves")),
            Sorted({"y10-11,y52-55", "y10-13,y52-53", "y10-14", "y52-h"}));
}

// ---------------------------------------------------- more edge cases

// RULES.md §9 snake_eyes: the S state is the colour's own next throw: other
// colours' throws do not end it.
TEST(Switches, SnakeEyesOtherColoursThrowsKeepTheSecondThrowPending) {
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g sgyb,Sr";
  EXPECT_EQ(After(ufen, 2, 1, "-", rules), "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b y syb,Sr");
}

// RULES.md §9 snake_eyes: "all its pieces not yet home" includes pieces in
// the home lane.
TEST(Switches, SnakeEyesSecondOneOneSendsLanePiecesToBase) {
  const Rules rules = R("navy+snake_eyes");
  const std::string ufen = "0,5,52,h/b,b,b,b/b,b,b,b/b,b,b,b r Sr";
  EXPECT_EQ(After(ufen, 1, 1, "-", rules), "b,b,b,h/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// RULES.md §9 snake_eyes: in mess too.
TEST(Switches, SnakeEyesIsInMess) {
  const std::string start = "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb";
  EXPECT_EQ(After(start, 1, 1, "-", R("mess")), "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g sgyb,Sr");
  EXPECT_EQ(ToUfen(Position::Start(R("mess"))), start);
}

// RULES.md §9 mixie_can_challenge with §6: on success one piece of the
// challenging colour moves onto the blob's square; the partner piece stays.
TEST(Switches, MixieCanChallengeSuccessMovesTheChallengersPiece) {
  const std::string ufen = "b,b,b,20/b,b,8,8/b,b,b,46/b,b,b,b r c20:2";
  EXPECT_EQ(After(ufen, 6, 1, "-", R("navy+mixie_can_challenge")),
            "b,b,b,21/b,b,b,b/b,b,b,46/b,b,b,b g -");
}

// RULES.md §9 blob_on_blob: the mover's square must hold a blob (one colour);
// a mixie blob behind the opponent blob may not do it.
TEST(Switches, BlobOnBlobNotFromAMixie) {
  // Yellow 46 = absolute 20 joins the red blob.
  const std::string ufen = "b,b,20,20/b,b,8,8/b,b,b,46/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 3, R("navy+blob_on_blob")), Strs{"-"});
}

// RULES.md §9 blob_on_blob: the blob in front must be an opponent blob; an
// opponent mixie in front does not block anyway, so ordinary moves apply.
TEST(Switches, BlobOnBlobAgainstAMixieIsOrdinaryMoves) {
  // Green 8 and blue 34 = absolute 21 (a mixie).
  const std::string ufen = "b,b,20,20/b,b,b,8/b,b,b,b/b,b,b,34 r -";
  EXPECT_EQ(Plays(ufen, 3, 3, R("navy+blob_on_blob")), Plays(ufen, 3, 3));
  EXPECT_EQ(Plays(ufen, 3, 3), Sorted({"r20-23,r20-23", "r20-26"}));
}

// RULES.md §9 bounce_back with rule 10(b): on a double the summed bounce may
// end where it started, and one die may take the last piece home.
TEST(Switches, BounceBackDoubleWithLastPiece) {
  // Red 53 + 3-3: summed 112 - 59 = 53; 3 alone is exactly home.
  const std::string ufen = "53,h,h,h/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 3, R("navy+bounce_back")), Sorted({"r53-53", "r53-h"}));
}

// RULES.md §9 double_six_two_throws with §7: a release throw ends the turn
// even on a double six; nothing is owed.
TEST(Switches, DoubleSixTwoThrowsReleaseThrowOwesNothing) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string ufen = "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b r -";
  EXPECT_EQ(After(ufen, 6, 6, "-", rules), "h,h,h,h/b,b,b,b/b,b,b,10/b,b,b,b g pr");
}

// RULES.md §9 double_six_two_throws with §6: challenge throws move nothing
// and earn nothing; a double six counts two sixes only.
TEST(Switches, DoubleSixTwoThrowsChallengeThrowsOweNothing) {
  const Rules rules = R("navy+double_six_two_throws");
  const std::string blob3 = "b,b,b,20/b,8,8,8/b,b,b,b/b,b,b,b";
  EXPECT_EQ(After(blob3 + " r c20:1", 6, 6, "-", rules), blob3 + " r c20:3");
}

// RULES.md §9 split_single_piece and §4 distinct plays: when the stop in
// between knocks nothing off, the split play is the summed play (one play);
// entering with the six stays as in navy.
TEST(Switches, SplitSinglePieceStopChangingNothingIsTheSummedPlay) {
  // Red 10 + 6-3: 10->16->19 and 10->13->19 reach the position of r10-19.
  const Rules rules = R("navy+split_single_piece");
  const std::string ufen = "b,b,b,10/b,b,b,b/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 3, rules), Sorted({"r10-19", "rb-0,r0-3", "rb-0,r10-13"}));
}

}  // namespace
}  // namespace uckers::testing
