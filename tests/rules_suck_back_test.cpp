// RULES.md §9 variant G, suck back and blow back (switch suck_back, in the
// wafu preset), as docs/rules-reading.md "Suck back and blow back" reads it.
// Expected values worked out by hand from that text: relative square p of
// colour c is absolute (13c + p) mod 52 (r=0, g=1, y=2, b=3; teams r+y and
// g+b). Colour L's square 50 is in line with L's lane 51..55: green's 50 is
// red's 11 and yellow's 37, blue's 50 is red's 37 and yellow's 11, red's 50
// is green's 37 and blue's 11, yellow's 50 is green's 11 and blue's 37.
#include "tests/test_util.h"

namespace uckers::testing {
namespace {

// Most tests use the switch alone, so no snake-eyes token gets in the way.
Rules SuckBack() { return R("navy+suck_back"); }

// ---------------------------------------------------------------- switch

// RULES.md §10: wafu = navy + suck_back + snake_eyes; it parses and prints
// as its preset name.
TEST(SuckBack, WafuIsNavyPlusSuckBackPlusSnakeEyes) {
  Rules wafu = R("wafu");
  EXPECT_TRUE(wafu.has(Switch::kSuckBack));
  EXPECT_TRUE(wafu.has(Switch::kSnakeEyes));
  EXPECT_EQ(wafu, R("navy+suck_back+snake_eyes"));
  EXPECT_EQ(wafu.ToString(), "wafu");
  EXPECT_EQ(R("navy+snake_eyes+suck_back").ToString(), "wafu");
  EXPECT_EQ(R("navy+suck_back").ToString(), "navy+suck_back");
}

// RULES.md §9: variants are off in the default ruleset: the same position
// under navy (and wafu-suck_back) has no call.
TEST(SuckBack, OffInNavy) {
  const std::string ufen = "b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 2, R("navy")), Strs{"r11-16"});
  EXPECT_EQ(Plays(ufen, 3, 2, R("wafu-suck_back")), Strs{"r11-16"});
  EXPECT_EQ(Plays(ufen, 3, 2, SuckBack()), Sorted({"r11-16", "sg53"}));
}

// ---------------------------------------------------------------- suck back

// RULES.md §9 var. G; docs/rules-reading.md "Suck back": red on green's 50
// (red 11) calls on green's lane piece on 53, k = 3; a throw whose higher or
// lower die is 3 hits: the lane piece goes to base and red moves on to 12.
TEST(SuckBack, HitByEitherDieSendsLanePieceToBase) {
  const std::string ufen = "b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,b r -";
  const std::string hit = "b,b,b,12/b,b,b,b/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(Plays(ufen, 3, 2, SuckBack()), Sorted({"r11-16", "sg53"}));
  EXPECT_EQ(After(ufen, 3, 2, "sg53", SuckBack()), hit);  // higher die
  EXPECT_EQ(Plays(ufen, 5, 3, SuckBack()), Sorted({"r11-19", "sg53"}));
  EXPECT_EQ(After(ufen, 5, 3, "sg53", SuckBack()), hit);  // lower die
}

// RULES.md §9 var. G: "if either die or their sum is k": 55 is k = 5, hit by
// 3-2 and by 4-1.
TEST(SuckBack, HitBySumOfDice) {
  const std::string ufen = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r -";
  const std::string hit = "b,b,b,12/b,b,b,b/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(After(ufen, 3, 2, "sg55", SuckBack()), hit);
  EXPECT_EQ(After(ufen, 4, 1, "sg55", SuckBack()), hit);
}

// docs/rules-reading.md "Suck back", "Every attempt counts": a call whose
// throw misses is legal, moves nothing and adds one to k<L>; the throw's
// moves are given up and the turn passes (no six).
TEST(SuckBack, MissUsesAnAttemptAndMovesNothing) {
  const std::string ufen = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 4, 2, SuckBack()), Sorted({"r11-17", "sg55"}));
  EXPECT_EQ(After(ufen, 4, 2, "sg55", SuckBack()), "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b g kg1");
}

// RULES.md §9 var. G "at most two attempts per piece standing there";
// docs/rules-reading.md: fewer than two attempts must stand (k<L>).
TEST(SuckBack, AtMostTwoAttempts) {
  const std::string one = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r kg1";
  EXPECT_EQ(Plays(one, 4, 2, SuckBack()), Sorted({"r11-17", "sg55"}));
  EXPECT_EQ(After(one, 4, 2, "sg55", SuckBack()), "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b g kg2");
  const std::string two = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r kg2";
  EXPECT_EQ(Plays(two, 4, 2, SuckBack()), Strs{"r11-17"});
  EXPECT_EQ(Plays(two, 3, 2, SuckBack()), Strs{"r11-16"});  // even a hit
}

// RULES.md §9 var. G "the caller's piece moves on one square";
// docs/rules-reading.md: it lands by the usual rules, knocking off an
// opponent single there (blue 25 = absolute 12 = red 12).
TEST(SuckBack, CallerMovesOnOneSquare) {
  const std::string ufen = "b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,25 r -";
  EXPECT_EQ(Plays(ufen, 3, 1, SuckBack()), Sorted({"r11-15", "sg53"}));
  EXPECT_EQ(After(ufen, 3, 1, "sg53", SuckBack()), "b,b,b,12/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// docs/rules-reading.md "Suck back": an opponent blob on the caller's next
// square blocks it and it stays; the lane piece still goes to base and the
// attempt still counts (red stays in line, so k<g> is not cleared).
TEST(SuckBack, CallerBlockedByBlobStays) {
  // Blue 25,25 = absolute 12 = red 12.
  const std::string ufen = "b,b,b,11/b,b,b,53/b,b,b,b/b,b,25,25 r -";
  EXPECT_EQ(Plays(ufen, 3, 1, SuckBack()), Sorted({"-", "sg53"}));
  EXPECT_EQ(After(ufen, 3, 1, "sg53", SuckBack()), "b,b,b,11/b,b,b,b/b,b,b,b/b,b,25,25 g kg1");
}

// docs/rules-reading.md "Turn flow": a call is an ordinary play for the turn
// flow; a throw with a six earns the usual extra throw ("one more attempt"),
// on a hit and on a miss alike.
TEST(SuckBack, SixEarnsAnotherThrow) {
  const std::string ufen = "b,b,b,11/b,b,b,53/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 6, 3, SuckBack()), Sorted({"r11-20", "rb-0,r0-3", "rb-0,r11-14", "sg53"}));
  EXPECT_EQ(After(ufen, 6, 3, "sg53", SuckBack()), "b,b,b,12/b,b,b,b/b,b,b,b/b,b,b,b r -");
  const std::string far = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(After(far, 6, 1, "sg55", SuckBack()), "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r kg1");
}

// docs/rules-reading.md "Turn flow": a call is never compulsory and is legal
// beside '-' when no move is legal (red 11 is blocked by the blue blob on
// 12); here the call misses (k = 3 against 5-4).
TEST(SuckBack, LegalBesidePassWhenNoMove) {
  const std::string ufen = "b,b,b,11/b,b,b,53/b,b,b,b/b,b,25,25 r -";
  EXPECT_EQ(Plays(ufen, 5, 4, SuckBack()), Sorted({"-", "sg53"}));
  EXPECT_EQ(After(ufen, 5, 4, "-", SuckBack()), "b,b,b,11/b,b,b,53/b,b,b,b/b,b,25,25 g -");
  EXPECT_EQ(After(ufen, 5, 4, "sg53", SuckBack()), "b,b,b,11/b,b,b,53/b,b,b,b/b,b,25,25 g kg1");
}

// docs/rules-reading.md "Suck back": L must be an opponent of the caller:
// red on yellow's 50 (red 24) has no call on yellow's lane.
TEST(SuckBack, OnlyAgainstOpponentLanes) {
  const std::string ufen = "b,b,b,24/b,b,b,b/b,b,b,53/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 1, SuckBack()), Strs{"r24-28"});
}

// docs/rules-reading.md "Suck back": the caller must stand exactly on L's
// square 50; red on 10 or 12 has no call on green's lane.
TEST(SuckBack, OnlyFromTheInLineSquare) {
  EXPECT_EQ(Plays("b,b,b,10/b,b,b,53/b,b,b,b/b,b,b,b r -", 3, 1, SuckBack()), Strs{"r10-14"});
  EXPECT_EQ(Plays("b,b,b,12/b,b,b,53/b,b,b,b/b,b,b,b r -", 3, 1, SuckBack()), Strs{"r12-16"});
}

// docs/rules-reading.md "Suck back": the other opponent also stands in line
// with green's lane from its own 37 (yellow 37 = absolute 11), and red on
// its 37 is in line with blue's lane (blue's 50 = absolute 37); each lane is
// its own call.
TEST(SuckBack, EachOpponentLaneIsItsOwnCall) {
  const std::string blue = "b,b,b,37/b,b,b,b/b,b,b,b/b,b,b,52 r -";
  EXPECT_EQ(Plays(blue, 2, 1, SuckBack()), Sorted({"r37-40", "sb52"}));
  EXPECT_EQ(After(blue, 2, 1, "sb52", SuckBack()), "b,b,b,38/b,b,b,b/b,b,b,b/b,b,b,b g -");
  const std::string both = "b,b,11,37/b,b,b,53/b,b,b,b/b,b,b,53 r -";
  EXPECT_EQ(After(both, 3, 1, "sg53", SuckBack()), "b,b,12,37/b,b,b,b/b,b,b,b/b,b,b,53 g -");
  EXPECT_EQ(After(both, 3, 1, "sb53", SuckBack()), "b,b,11,38/b,b,b,53/b,b,b,b/b,b,b,b g -");
}

// docs/rules-reading.md "Suck back": on a hit every piece of L on q goes to
// base (green's lane blob on 53 goes whole; green 20 stays).
TEST(SuckBack, HitSendsWholeLaneBlobToBase) {
  const std::string ufen = "b,b,b,11/b,20,53,53/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 3, 1, SuckBack()), Sorted({"r11-15", "sg53"}));
  EXPECT_EQ(After(ufen, 3, 1, "sg53", SuckBack()), "b,b,b,12/b,b,b,20/b,b,b,b/b,b,b,b g -");
}

// docs/rules-reading.md "Distinct plays": every miss against one lane leads
// to the same position and is one play, spelled with the lowest q; any q
// still spells it. 1-1 (no snake_eyes) hits only k = 1 and 2.
TEST(SuckBack, MissesAreOnePlaySpelledWithLowestSquare) {
  const std::string ufen = "b,b,b,11/b,53,54,55/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 1, 1, SuckBack()), Sorted({"r11-13", "sg53"}));
  const std::string miss = "b,b,b,11/b,53,54,55/b,b,b,b/b,b,b,b g kg1";
  EXPECT_EQ(After(ufen, 1, 1, "sg53", SuckBack()), miss);
  EXPECT_EQ(After(ufen, 1, 1, "sg54", SuckBack()), miss);
  EXPECT_EQ(After(ufen, 1, 1, "sg55", SuckBack()), miss);
}

// docs/rules-reading.md "Distinct plays": on a hit each q is its own play;
// the misses are spelled with the lowest q among them. 2-1: 52 is hit
// (die 2), 54 and 55 miss.
TEST(SuckBack, HitsAreDistinctPlaysBesideTheMiss) {
  const std::string ufen = "b,b,b,11/b,52,54,55/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 2, 1, SuckBack()), Sorted({"r11-14", "sg52", "sg54"}));
  EXPECT_EQ(After(ufen, 2, 1, "sg52", SuckBack()), "b,b,b,12/b,b,54,55/b,b,b,b/b,b,b,b g -");
  EXPECT_EQ(After(ufen, 2, 1, "sg54", SuckBack()), "b,b,b,11/b,52,54,55/b,b,b,b/b,b,b,b g kg1");
}

// docs/rules-reading.md "Turn flow": the released colour calls with its
// partner's pieces: red (released) moves yellow, and yellow 37 stands on
// green's 50.
TEST(SuckBack, ReleasedColourCallsWithPartnerPieces) {
  const std::string ufen = "h,h,h,h/b,b,b,53/b,b,b,37/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 3, 1, SuckBack()), Sorted({"sg53", "y37-41"}));
  EXPECT_EQ(After(ufen, 3, 1, "sg53", SuckBack()), "h,h,h,h/b,b,b,b/b,b,b,38/b,b,b,b g pr");
}

// docs/rules-reading.md "Not modelled": a call may be made while a challenge
// could be declared; both are alternatives on a throw with a six.
TEST(SuckBack, CallBesideAChallenge) {
  // Red 11 behind the blue blob on 12; green's lane piece on 53; 6-3.
  const std::string ufen = "b,b,b,11/b,b,b,53/b,b,b,b/b,b,25,25 r -";
  EXPECT_EQ(Plays(ufen, 6, 3, SuckBack()), Sorted({"rb-0,r0-3", "sg53", "xr11"}));
  EXPECT_EQ(After(ufen, 6, 3, "sg53", SuckBack()), "b,b,b,11/b,b,b,b/b,b,b,b/b,b,25,25 r kg1");
}

// docs/rules-reading.md "Suck back": calls are made on ordinary throws; a
// snake-eyes throw (wafu, red's second throw after snake eyes) is not one.
TEST(SuckBack, NotOnASnakeEyesThrow) {
  const std::string ufen = "b,b,b,11/b,b,b,52/b,b,b,b/b,b,b,b r Sr";
  EXPECT_EQ(Plays(ufen, 1, 1, R("wafu")), Strs{"-"});
  EXPECT_EQ(After(ufen, 1, 1, "-", R("wafu")), "b,b,b,b/b,b,b,52/b,b,b,b/b,b,b,b g -");
}

// docs/rules-reading.md "Suck back": under wafu a 1-1 that is not a
// snake-eyes throw is ordinary, and hits k = 1 or 2.
TEST(SuckBack, OrdinaryOneOneInWafuCanHit) {
  const std::string ufen = "b,b,b,11/b,b,b,52/b,b,b,b/b,b,b,b r -";
  EXPECT_EQ(Plays(ufen, 1, 1, R("wafu")), Sorted({"r11-13", "sg52"}));
  EXPECT_EQ(After(ufen, 1, 1, "sg52", R("wafu")), "b,b,b,12/b,b,b,b/b,b,b,b/b,b,b,b g -");
}

// docs/rules-reading.md "Distinct plays": canonical order among different
// plays is moves, then challenges, then suck backs, then blow backs. Red 11
// is behind the blue blob on 12 (challenge), on green's 50 (suck back on
// green's 54, a miss), and green 37 stands on red's 50 (blow back from red's
// 53, hit by the 3).
TEST(SuckBack, PlaysListedMovesChallengesSuckBacksBlowBacks) {
  const Rules rules = SuckBack();
  const std::string ufen = "b,b,11,53/b,b,37,54/b,b,b,b/b,b,25,25 r -";
  PlayList list;
  GenerateLegalPlays(P(ufen, rules), rules, MakeThrow(6, 3), &list);
  Strs listed;
  for (const PlayResult& r : list) listed.push_back(PlayToString(r.play));
  EXPECT_EQ(listed, (Strs{"rb-0,r0-3", "rb-0,r53-h", "xr11", "sg54", "wr53"}));
  EXPECT_EQ(After(ufen, 6, 3, "wr53", rules), "b,b,11,53/b,b,b,54/b,b,b,b/b,b,25,25 r -");
}

// ---------------------------------------------------------------- blow back

// RULES.md §9 var. G "blow back"; docs/rules-reading.md "Blow back": green,
// with a lane piece on 54 (k = 4), calls against red on green's 50; 3-1 hits
// by the sum, red goes to base, green's counters clear, the turn passes.
TEST(BlowBack, HitSendsInLinePieceToBase) {
  const std::string ufen = "b,b,b,11/b,b,b,54/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(Plays(ufen, 3, 1, SuckBack()), Sorted({"g54-55", "wg54"}));
  EXPECT_EQ(After(ufen, 3, 1, "wg54", SuckBack()), "b,b,b,b/b,b,b,54/b,b,b,b/b,b,b,b y -");
}

// docs/rules-reading.md "Blow back": a blob or a mixie blob in line goes
// whole (red 11,11; red 11 with yellow 37).
TEST(BlowBack, BlobInLineGoesWhole) {
  const std::string blob = "b,b,11,11/b,b,b,54/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(After(blob, 3, 1, "wg54", SuckBack()), "b,b,b,b/b,b,b,54/b,b,b,b/b,b,b,b y -");
  const std::string mixie = "b,b,b,11/b,b,b,54/b,b,b,37/b,b,b,b g -";
  EXPECT_EQ(After(mixie, 3, 1, "wg54", SuckBack()), "b,b,b,b/b,b,b,54/b,b,b,b/b,b,b,b y -");
}

// docs/rules-reading.md "Blow back": a miss moves nothing and adds one to
// K<M>; at two no more blow back. 5-5 misses k = 4 and green cannot move.
TEST(BlowBack, AtMostTwoAttempts) {
  const std::string one = "b,b,b,11/b,b,b,54/b,b,b,b/b,b,b,b g Kg1";
  EXPECT_EQ(Plays(one, 5, 5, SuckBack()), Sorted({"-", "wg54"}));
  EXPECT_EQ(After(one, 5, 5, "wg54", SuckBack()), "b,b,b,11/b,b,b,54/b,b,b,b/b,b,b,b y Kg2");
  const std::string two = "b,b,b,11/b,b,b,54/b,b,b,b/b,b,b,b g Kg2";
  EXPECT_EQ(Plays(two, 5, 5, SuckBack()), Strs{"-"});
  EXPECT_EQ(Plays(two, 3, 1, SuckBack()), Strs{"g54-55"});  // even a hit
}

// docs/rules-reading.md "Turn flow": blow back is legal beside '-' when no
// move is legal (green's last piece on 55 cannot use 3-2; the sum hits).
TEST(BlowBack, LegalBesidePassWhenNoMove) {
  const std::string ufen = "b,b,b,11/55,h,h,h/b,b,b,b/b,b,b,b g -";
  EXPECT_EQ(Plays(ufen, 3, 2, SuckBack()), Sorted({"-", "wg55"}));
  EXPECT_EQ(After(ufen, 3, 2, "wg55", SuckBack()), "b,b,b,b/55,h,h,h/b,b,b,b/b,b,b,b y -");
}

// docs/rules-reading.md "Blow back": it needs an opponent on M's 50; the
// partner (blue 24 = absolute 11) standing there does not count.
TEST(BlowBack, OnlyAgainstOpponentsInLine) {
  const std::string ufen = "b,b,b,b/b,b,b,54/b,b,b,b/b,b,b,24 g -";
  EXPECT_EQ(Plays(ufen, 3, 1, SuckBack()), Strs{"g54-55"});
}

// docs/rules-reading.md "Turn flow": the released colour blows back with its
// partner's lane piece, no_partner_pipe_moves included (a call moves no
// lane piece). Red is released; yellow's 54 is locked; green 11 stands on
// yellow's 50 (absolute 24).
TEST(BlowBack, ReleasedColourCallsWithPartnerLanePiece) {
  const Rules rules = R("navy+suck_back+no_partner_pipe_moves");
  const std::string ufen = "h,h,h,h/11,b,b,b/b,b,b,54/b,b,b,b r pr";
  EXPECT_EQ(Plays(ufen, 3, 1, rules), Sorted({"-", "wy54"}));
  EXPECT_EQ(After(ufen, 3, 1, "wy54", rules), "h,h,h,h/b,b,b,b/b,b,b,54/b,b,b,b g pr");
}

// ---------------------------------------------------------------- counters

// docs/rules-reading.md "Every attempt counts": after every play the counters
// k<L> and K<L> clear when no opponent of L stands on L's 50 any more; a
// play that leaves a red piece there keeps them.
TEST(LaneAttempts, ClearedWhenInLineSquareEmpties) {
  const std::string ufen = "b,b,5,11/b,b,b,55/b,b,b,b/b,b,b,b r kg1,Kg1";
  EXPECT_EQ(After(ufen, 4, 2, "r11-17", SuckBack()), "b,b,5,17/b,b,b,55/b,b,b,b/b,b,b,b g -");
  EXPECT_EQ(After(ufen, 4, 2, "r5-11", SuckBack()), "b,b,11,11/b,b,b,55/b,b,b,b/b,b,b,b g kg1,Kg1");
  EXPECT_EQ(After(ufen, 4, 2, "r5-9,r11-13", SuckBack()), "b,b,9,13/b,b,b,55/b,b,b,b/b,b,b,b g -");
}

// docs/rules-reading.md "Every attempt counts": any colour's play counts
// too: blue (green's partner) knocking red off green's 50 clears k<g>.
TEST(LaneAttempts, ClearedWhenInLinePieceIsKnockedOff) {
  const std::string ufen = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,20 b kg1";
  EXPECT_EQ(After(ufen, 3, 1, "b20-24", SuckBack()), "b,b,b,b/b,b,b,55/b,b,b,b/b,b,b,24 r -");
}

// docs/rules-reading.md "Every attempt counts": the attempts are counted
// against L's in-line square, not per caller: with yellow still in line
// after red's hit moves red on, k<g> stays (now 2) and yellow may not call.
TEST(LaneAttempts, SharedByEveryOpponentInLine) {
  const std::string ufen = "b,b,b,11/b,b,53,54/b,b,b,37/b,b,b,b r kg1";
  EXPECT_EQ(After(ufen, 3, 1, "sg53", SuckBack()), "b,b,b,12/b,b,b,54/b,b,b,37/b,b,b,b g kg2");
  const std::string later = "b,b,b,12/b,b,b,54/b,b,b,37/b,b,b,b y kg2";
  EXPECT_EQ(Plays(later, 3, 1, SuckBack()), Strs{"y37-41"});
  EXPECT_EQ(After(later, 3, 1, "y37-41", SuckBack()), "b,b,b,12/b,b,b,54/b,b,b,41/b,b,b,b b -");
}

// docs/rules-reading.md "Every attempt counts": cleared after a play of any
// kind: a won challenge takes red off green's 50.
TEST(LaneAttempts, ClearedAfterAChallengeThrow) {
  const std::string ufen = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,25,25 r c11:2,kg1";
  EXPECT_EQ(Plays(ufen, 6, 1, SuckBack()), Strs{"-"});
  EXPECT_EQ(After(ufen, 6, 1, "-", SuckBack()), "b,b,b,12/b,b,b,55/b,b,b,b/b,b,b,b g -");
  // A challenge throw that leaves red there keeps the count.
  const std::string first = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,25,25 r c11:1,kg1";
  EXPECT_EQ(After(first, 6, 1, "-", SuckBack()), "b,b,b,11/b,b,b,55/b,b,b,b/b,b,25,25 r c11:2,kg1");
}

// docs/rules-reading.md "Every attempt counts": cleared after a snake-eyes
// throw that sends red's pieces to base (wafu).
TEST(LaneAttempts, ClearedAfterASnakeEyesThrow) {
  const std::string ufen = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r Sr,kg1";
  EXPECT_EQ(After(ufen, 1, 1, "-", R("wafu")), "b,b,b,b/b,b,b,55/b,b,b,b/b,b,b,b g -");
}

// docs/rules-reading.md "After an ordinary play" drops only x and c tokens
// in a finished game; "Every attempt counts" clears k/K only when the
// in-line square empties. So the winning play (released red takes yellow's
// last piece home) keeps Ky1 while green 11 stays on yellow's 50.
TEST(LaneAttempts, KeptInAFinishedGameWhileThePieceStaysInLine) {
  const std::string ufen = "h,h,h,h/b,b,11,20/h,h,h,52/b,b,b,b r pr,Ky1";
  EXPECT_EQ(Plays(ufen, 4, 2, R("wafu")), Sorted({"wy52", "y52-h"}));
  EXPECT_EQ(After(ufen, 4, 2, "y52-h", R("wafu")), "h,h,h,h/b,b,11,20/h,h,h,h/b,b,b,b r pr,Ky1");
}

// PROTOCOL.md UFEN and docs/rules-reading.md "UFEN": k and K tokens parse in
// any order and print after the other tokens, every k in turn order of L,
// then every K. Here every colour has an opponent in line: red 11 (green's
// 50), red 37 and yellow 11 (blue's 50), green 37 and blue 11 (red's 50),
// green 11 and blue 37 (yellow's 50).
TEST(LaneAttempts, UfenTokensRoundTrip) {
  const std::string pieces = "b,11,37,52/b,11,37,53/b,b,11,54/11,37,55,h";
  const Rules wafu = R("wafu");
  EXPECT_EQ(ToUfen(P(pieces + " r Kb2,kg1,Kr1,ky2,kr1", wafu)), pieces + " r kr1,kg1,ky2,Kr1,Kb2");
  EXPECT_EQ(ToUfen(P(pieces + " g kb1,Sg,Kg1", wafu)), pieces + " g Sg,kb1,Kg1");
  EXPECT_EQ(ToUfen(P(pieces + " y kg2", SuckBack())), pieces + " y kg2");
}

// docs/rules-reading.md "Every attempt counts": a k<L>/K<L> token with no
// opponent of L on L's 50 is refused: empty square, a piece next to it, and
// L's partner there (blue 24 = absolute 11, green's 50).
TEST(LaneAttempts, UfenRefusesTokenWithNoPieceInLine) {
  for (const char* ufen : {
           "b,b,b,b/b,b,b,55/b,b,b,b/b,b,b,b r kg1",
           "b,b,b,12/b,b,b,55/b,b,b,b/b,b,b,b r kg1",
           "b,b,b,12/b,b,b,55/b,b,b,b/b,b,b,b r Kg1",
           "b,b,b,b/b,b,b,55/b,b,b,b/b,b,b,24 r kg1",
           // Red is yellow's partner, not its opponent.
           "b,b,b,24/b,b,b,b/b,b,b,53/b,b,b,b r ky1",
       }) {
    EXPECT_FALSE(ParseUfen(ufen, SuckBack()).ok()) << ufen;
  }
  EXPECT_TRUE(ParseUfen("b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r kg1,Kg1", SuckBack()).ok());
}

// PROTOCOL.md UFEN (tokens for switches that are off are refused) and
// docs/rules-reading.md "UFEN" (n is 1 or 2, one token per colour and kind).
TEST(LaneAttempts, UfenRefusesBadTokens) {
  const std::string pieces = "b,b,b,11/b,b,b,55/b,b,b,b/b,b,b,b r ";
  EXPECT_FALSE(ParseUfen(pieces + "kg1", R("navy")).ok());
  EXPECT_FALSE(ParseUfen(pieces + "Kg1", R("wafu-suck_back")).ok());
  for (const char* state : {"kg0", "kg3", "Kg3", "kg", "k1", "kx1", "kg1,kg2", "Kg1,Kg1"}) {
    EXPECT_FALSE(ParseUfen(pieces + state, SuckBack()).ok()) << state;
  }
}

}  // namespace
}  // namespace uckers::testing
