// The learned evaluation of the layouts of more than two sides, or of other
// boards (eval/net.h encoding 2, RULES.md §11), its training (learn/) and
// its use by the multi-side search; and that the four-sided net of two
// teams stays as it was.
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "eval/net.h"
#include "gtest/gtest.h"
#include "learn/selfplay.h"
#include "learn/td.h"
#include "match/multi_side_match.h"
#include "rules/stack.h"
#include "search/multi_side.h"
#include "tests/random_game.h"

namespace uckers {
namespace {

const char* kLayouts[] = {"six", "six+teams_of_three", "navy+solo", "six+solo"};

Rules RulesOf(const char* text) { return *Rules::Parse(text); }

// The same position with every colour moved one seat on (colour c's pieces
// and flags become colour c+1's): the same game seen from another seat.
Position Rotated(const Position& pos) {
  const Board& b = pos.board();
  Position r = pos;
  uint8_t released = 0;
  for (int c = 0; c < b.colours; ++c) {
    r.SetPieces(b.NextColour(c), pos.pieces(c));
    if (pos.released(c)) released |= 1 << b.NextColour(c);
  }
  r.SetReleased(released);
  r.SetToThrow(b.NextColour(pos.to_throw()));
  return r;
}

std::string TempPath(const char* name) {
  return ::testing::TempDir() + "/" + name + std::to_string(::getpid());
}

uint64_t Fnv(uint64_t h, uint64_t x) { return (h ^ x) * 1099511628211ull; }

// The four-sided encoding and the shipped nets of the four-sided game of
// two teams give, bit for bit, what they gave before the nets of the other
// layouts came: the hash of the inputs and evaluations of 300 positions of
// random games under each preset with a net, as the code before them
// computed it (0367e74).
TEST(Net, FourSidedEncodingUnchanged) {
  uint64_t h = 1469598103934665603ull;
  // The nets of one hidden layer of then, replaced by deep nets, are kept in
  // nets/previous/.
  std::map<std::string, Net> previous;
  for (const char* preset : {"navy", "wafu", "mess", "selsey"}) {
    absl::StatusOr<Net> net =
        Net::Load(std::string(UCKERS_SOURCE_DIR "/nets/previous/") + preset + ".unet");
    ASSERT_TRUE(net.ok()) << net.status();
    previous.emplace(preset, *std::move(net));
  }
  for (const char* preset : {"navy", "wafu", "mess", "selsey"}) {
    Rules rules = *Rules::Preset(preset);
    const Net* net = &previous.at(preset);
    EXPECT_FALSE(net->per_side());
    std::mt19937_64 rng(2026);
    int n = 0;
    while (n < 300) {
      Position pos = Position::Start(rules);
      while (n < 300 && testing::RandomStep(pos, rules, rng)) {
        if (pos.IsGameOver() || rng() % 4) continue;
        NetInputs in = EncodeNetInputs(pos, rules);
        for (int i = 0; i < in.num_active; ++i) h = Fnv(h, in.active[i]);
        for (float d : in.dense) {
          uint32_t bits;
          std::memcpy(&bits, &d, sizeof(bits));
          h = Fnv(h, bits);
        }
        Evaluation e = net->Evaluate(pos);
        for (double p : e.p) {
          uint64_t bits;
          std::memcpy(&bits, &p, sizeof(bits));
          h = Fnv(h, bits);
        }
        ++n;
      }
    }
  }
  EXPECT_EQ(h, 0x47584c03cb792d7cull);
}

TEST(Net, SixSidedNetGivesEverySideAChanceSummingToOne) {
  for (const char* layout : kLayouts) {
    Rules rules = RulesOf(layout);
    Net net = Net::Random(rules, 16, 7);
    ASSERT_TRUE(net.per_side()) << layout;
    for (const Position& pos : testing::SamplePositions(rules, 30, 1)) {
      SideValues v = net.EvaluateSides(pos);
      ASSERT_EQ(v.sides, rules.layout().num_sides) << layout;
      for (int s = 0; s < v.sides; ++s) EXPECT_GE(v.win[s], 0) << layout;
      EXPECT_NEAR(std::accumulate(v.win.begin(), v.win.begin() + v.sides, 0.0), 1, 1e-5) << layout;
    }
  }
}

TEST(Net, FinishedMultiSideGameGoesWhollyToItsWinner) {
  Rules rules = RulesOf("six");
  Position pos = Position::Start(rules);
  for (int c : {kGreen, kOrange}) pos.SetPieces(c, {82, 82, 82, 82});
  ASSERT_TRUE(pos.IsGameOver());
  SideValues v = Net::Random(rules, 8, 3).EvaluateSides(pos);
  EXPECT_EQ(v.win[0], 0);
  EXPECT_EQ(v.win[1], 1);
  EXPECT_EQ(v.win[2], 0);
}

TEST(Net, EachLayoutHasItsOwnShape) {
  // Six sides: a track of 78 squares and home 82 steps away; four: 56.
  EXPECT_EQ(SideNetShapeFor(RulesOf("six")).colour_stride, 8 + 3 * 82 + 8);
  EXPECT_EQ(SideNetShapeFor(RulesOf("navy+solo")).colour_stride, 8 + 3 * 56 + 8);
  EXPECT_EQ(SideNetShapeFor(RulesOf("six+solo")).sides, 6);
  EXPECT_EQ(SideNetShapeFor(RulesOf("six+teams_of_three")).sides, 2);
  // Under mixie_stack each colour also has a main-track square's stack top.
  EXPECT_EQ(SideNetShapeFor(RulesOf("six+mixie_stack")).colour_stride, 8 + 3 * 82 + 8 + 77);
}

TEST(SideNetInputs, AreTheThrowersViewWhicheverSeatThrows) {
  for (const char* layout : kLayouts) {
    Rules rules = RulesOf(layout);
    for (const Position& pos : testing::SamplePositions(rules, 30, 2)) {
      if (pos.challenge_active()) continue;  // its square is relative already
      SideNetInputs a = EncodeSideNetInputs(pos, rules);
      SideNetInputs b = EncodeSideNetInputs(Rotated(pos), rules);
      ASSERT_EQ(a.num_active, b.num_active) << layout;
      for (int i = 0; i < a.num_active; ++i) EXPECT_EQ(a.active[i], b.active[i]) << layout;
      ASSERT_EQ(a.num_dense, b.num_dense);
      for (int j = 0; j < a.num_dense; ++j) EXPECT_NEAR(a.dense[j], b.dense[j], 1e-5) << layout;
    }
  }
}

TEST(SideNetInputs, ReachTheLastLaneSquareOfTheSixSidedBoard) {
  Rules rules = RulesOf("six");
  Position pos = Position::Start(rules);
  pos.SetPieces(kRed, {kBase, kBase, kBase, 81});
  SideNetInputs in = EncodeSideNetInputs(pos, rules);
  std::vector<int> on(in.active.begin(), in.active.begin() + in.num_active);
  EXPECT_NE(std::find(on.begin(), on.end(), 8 + 3 * 81), on.end());
}

TEST(SideNetInputs, NameTheTopOfEveryMixieStack) {
  Rules rules = RulesOf("six+mixie_stack");
  SideNetShape shape = SideNetShapeFor(rules);
  const Board& b = rules.board();
  int stacks_seen = 0;
  for (const Position& pos : testing::SamplePositions(rules, 400, 5)) {
    for (const Stack& s : Stacks(pos)) {
      int k = (s.TopColour() - pos.to_throw() + b.colours) % b.colours;
      int index = k * shape.colour_stride + 8 + 3 * b.home + 8 + b.Relative(s.TopColour(), s.abs);
      SideNetInputs in = EncodeSideNetInputs(pos, rules);
      std::vector<int> on(in.active.begin(), in.active.begin() + in.num_active);
      EXPECT_NE(std::find(on.begin(), on.end(), index), on.end());
      ++stacks_seen;
    }
  }
  EXPECT_GT(stacks_seen, 0);
}

TEST(SideNetFile, RoundTripsToTheSameChances) {
  Rules rules = RulesOf("six+teams_of_three");
  Net net = Net::Random(rules, 12, 11);
  absl::StatusOr<Net> back = Net::FromBytes(net.ToBytes(), "test");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->per_side());
  EXPECT_EQ(back->rules(), rules);
  for (const Position& pos : testing::SamplePositions(rules, 10, 3)) {
    EXPECT_EQ(back->EvaluateSides(pos).win, net.EvaluateSides(pos).win);
  }
}

TEST(Net, RefusedForOtherRules) {
  Rules six = RulesOf("six");
  Net net = Net::Random(six, 8, 1);
  // The search takes a net only for the rules it was trained for.
  EXPECT_EQ(MultiSideNet(six, EvalKind::kNet, &net), &net);
  EXPECT_NE(MultiSideNet(RulesOf("six+solo"), EvalKind::kNet, &net), &net);
  EXPECT_NE(MultiSideNet(RulesOf("six+snake_eyes"), EvalKind::kNet, &net), &net);
  EXPECT_EQ(MultiSideNet(six, EvalKind::kClassic, &net), nullptr);
  // So does a match player's weights file.
  std::string path = TempPath("six.unet");
  ASSERT_TRUE(net.Save(path).ok());
  EXPECT_TRUE(CheckMultiSidePlayer("expert,netfile=" + path, six).ok());
  absl::Status refused = CheckMultiSidePlayer("expert,netfile=" + path, RulesOf("navy+solo"));
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("navy+solo"), std::string::npos) << refused;
  std::remove(path.c_str());
  // A file whose encoding is not that of its rules is refused by name.
  std::string bytes = net.ToBytes();
  bytes[12] = 1;  // the encoding follows the magic and the format version
  absl::Status foreign = Net::FromBytes(bytes, "f").status();
  EXPECT_NE(foreign.message().find("input encoding 1"), std::string::npos) << foreign;
}

// Each §11 layout's net, adapted to a ruleset of its layout it was not
// trained for, values every position as the net does under its own rules:
// the inputs it never saw (a switch, mixie_stack's stack tops) get no
// weight, though a random net's weights for them are not zero.
TEST(AdaptedNet, ValuesEveryPositionAsItsOwnNetDoes) {
  for (const char* layout : kLayouts) {
    Net net = Net::Random(RulesOf(layout), 12, 21);
    for (const char* added : {"+bounce_back", "+mixie_stack", "+snake_eyes"}) {
      Rules rules = RulesOf(absl::StrCat(layout, added).c_str());
      absl::StatusOr<Net> adapted = net.AdaptedTo(rules);
      ASSERT_TRUE(adapted.ok()) << adapted.status();
      EXPECT_EQ(adapted->rules(), rules);
      ASSERT_TRUE(adapted->adapted_from().has_value());
      EXPECT_EQ(*adapted->adapted_from(), net.rules());
      for (const Position& pos : testing::SamplePositions(rules, 40, 7)) {
        SideValues mine = adapted->EvaluateSides(pos), its = net.EvaluateSides(pos);
        for (int s = 0; s < rules.layout().num_sides; ++s) {
          EXPECT_NEAR(mine.win[s], its.win[s], 1e-5) << layout << added << " side " << s;
        }
      }
    }
  }
}

// A switch that was on in every game the net learned from gave its weight
// to every position: adapted to rules without it, the weight stays, in the
// bias.
TEST(AdaptedNet, KeepsTheWeightOfASwitchItAlwaysSawInItsBias) {
  Net net = Net::Random(RulesOf("six+bounce_back"), 12, 22);
  absl::StatusOr<Net> adapted = net.AdaptedTo(RulesOf("six"));
  ASSERT_TRUE(adapted.ok()) << adapted.status();
  for (const Position& pos : testing::SamplePositions(RulesOf("six"), 40, 8)) {
    SideValues mine = adapted->EvaluateSides(pos), its = net.EvaluateSides(pos);
    for (int s = 0; s < 3; ++s) EXPECT_NEAR(mine.win[s], its.win[s], 1e-5);
  }
}

// A net of any rules of a layout, adapted to a mixie_stack ruleset, keeps
// what it learnt of the switches it played: it values such a board as it
// values it under the same rules without mixie_stack.
TEST(AdaptedNet, ANetOfAnyRulesKeepsTheSwitchesItPlayed) {
  Net any = Net::Random(RulesOf("navy+solo"), 12, 23);
  any.set_any_rules(true);
  Rules stacks = RulesOf("navy+solo+bounce_back+mixie_stack");
  absl::StatusOr<Net> adapted = any.AdaptedTo(stacks);
  ASSERT_TRUE(adapted.ok()) << adapted.status();
  EXPECT_FALSE(adapted->any_rules());
  const Net* bounce = any.ForRules(RulesOf("navy+solo+bounce_back"));
  ASSERT_NE(bounce, nullptr);
  for (const Position& pos : testing::SamplePositions(stacks, 30, 11)) {
    SideValues mine = adapted->EvaluateSides(pos), its = bounce->EvaluateSides(pos);
    for (int s = 0; s < 4; ++s) EXPECT_NEAR(mine.win[s], its.win[s], 1e-5);
  }
}

TEST(AdaptedNet, IsRefusedForAnotherLayoutOrANetOfTwoTeams) {
  absl::Status other = Net::Random(RulesOf("six"), 8, 1).AdaptedTo(RulesOf("navy+solo")).status();
  EXPECT_FALSE(other.ok());
  EXPECT_NE(other.message().find("navy+solo"), std::string::npos) << other;
  EXPECT_FALSE(Net::Random(Rules(), 8, 1).AdaptedTo(RulesOf("navy+bounce_back")).ok());
}

// A ruleset of a §11 layout without a net of its own, that no net of any
// rules serves (mixie_stack's), is served by its layout's shipped net
// adapted to it, not by the classic evaluation, and the engine names that
// net.
TEST(Net, OtherLayoutsWithoutANetOfTheirOwnGetTheirLayoutsNetAdapted) {
  for (const char* layout : kLayouts) {
    const Net* own = NetFor(RulesOf(layout));
    if (own == nullptr) continue;  // a build without the layout's net
    Rules rules = RulesOf(absl::StrCat(layout, "+mixie_stack").c_str());
    const Net* net = NetFor(rules);
    ASSERT_NE(net, nullptr) << layout;
    EXPECT_EQ(NetFor(rules), net);  // made once
    EXPECT_TRUE(net->per_side());
    EXPECT_EQ(net->rules(), rules);
    ASSERT_TRUE(net->adapted_from().has_value());
    EXPECT_EQ(*net->adapted_from(), own->rules());
    EXPECT_EQ(MultiSideNet(rules, EvalKind::kNet), net);
    Engine session;
    ASSERT_TRUE(session.SetOption("Rules", rules.ToString()).ok());
    std::string text = session.EvalText();
    EXPECT_NE(text.find("searches use the net"), std::string::npos) << text;
    EXPECT_NE(text.find("without the inputs it was not trained on"), std::string::npos) << text;
  }
}

// A net per side of any rules of a layout (`uckers train --rules
// any:<layout>`): its file names the layout and "*".
Net SideAnyNet(const char* layout, uint64_t seed) {
  Net net = Net::Random(RulesOf(layout), 8, seed);
  net.set_any_rules(true);
  return net;
}

TEST(SideNetOfAnyRules, FileRoundTripsWithItsLayout) {
  Net net = SideAnyNet("navy+solo", 31);
  absl::StatusOr<Net> back = Net::FromBytes(net.ToBytes(), "test");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->any_rules());
  EXPECT_TRUE(back->per_side());
  EXPECT_EQ(back->rules(), RulesOf("navy+solo"));
  EXPECT_NE(back->Describe().find("rules any of its layout"), std::string::npos)
      << back->Describe();
  // A net of any rules names a layout, never a switch of §9.
  Net odd = SideAnyNet("six", 32);
  odd.set_rules(RulesOf("six+bounce_back"));
  absl::Status refused = Net::FromBytes(odd.ToBytes(), "odd").status();
  EXPECT_NE(refused.message().find("names only its layout's switches"), std::string::npos)
      << refused;
}

TEST(SideNetOfAnyRules, ServesEveryRulesetOfItsLayoutButMixieStacks) {
  Net net = SideAnyNet("six+teams_of_three", 33);
  Rules bounce = RulesOf("six+teams_of_three+bounce_back");
  EXPECT_TRUE(net.Serves(bounce));
  EXPECT_FALSE(net.Serves(RulesOf("six+teams_of_three+mixie_stack")));
  EXPECT_FALSE(net.Serves(RulesOf("six")));
  EXPECT_FALSE(net.Serves(Rules()));
  EXPECT_EQ(net.ForRules(RulesOf("six")), nullptr);
  const Net* view = net.ForRules(bounce);
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->rules(), bounce);
  // The view reads the switch's input: as the net told those rules.
  Net told = net;
  told.set_rules(bounce);
  for (const Position& pos : testing::SamplePositions(bounce, 10, 9)) {
    EXPECT_EQ(view->EvaluateSides(pos).win, told.EvaluateSides(pos).win);
  }
  // Search and match players take it for every ruleset it serves.
  EXPECT_EQ(MultiSideNet(bounce, EvalKind::kNet, &net), view);
  std::string path = TempPath("t3-any.unet");
  ASSERT_TRUE(net.Save(path).ok());
  EXPECT_TRUE(CheckMultiSidePlayer("expert,netfile=" + path, bounce).ok());
  EXPECT_FALSE(
      CheckMultiSidePlayer("expert,netfile=" + path, RulesOf("six+teams_of_three+mixie_stack"))
          .ok());
  std::remove(path.c_str());
}

TEST(SideNetOfAnyRules, BatchRulesKeepTheLayoutAndLeaveOutMixieStack) {
  Rules layout = RulesOf("six+solo");
  std::array<int, kNumSwitches> on{};
  int plain = 0;
  for (int64_t games = 0; games < 400 * 8; games += 8) {
    Rules r = BatchRules(7, games, layout);
    EXPECT_EQ(r.layout_id(), layout.layout_id()) << r.ToString();
    EXPECT_EQ(r, BatchRules(7, games, layout));
    plain += r == layout;
    for (int s = 0; s < kNumSwitches; ++s) on[s] += r.has(static_cast<Switch>(s));
  }
  EXPECT_GT(plain, 150);
  EXPECT_LT(plain, 250);
  EXPECT_EQ(on[static_cast<int>(Switch::kMixieStack)], 0);
  EXPECT_EQ(on[static_cast<int>(Switch::kTeamsOfThree)], 0);
  EXPECT_GT(on[static_cast<int>(Switch::kBounceBack)], 20);
  EXPECT_GT(on[static_cast<int>(Switch::kSnakeEyes)], 20);
}

TEST(Net, EvalSaysWhichEvaluationTheSearchesUse) {
  for (const char* layout : kLayouts) {
    Engine session;
    ASSERT_TRUE(session.SetOption("Rules", layout).ok());
    std::string text = session.EvalText();
    if (NetFor(RulesOf(layout))) {
      EXPECT_NE(text.find("searches use the net"), std::string::npos) << text;
    } else {
      EXPECT_NE(text.find("no net trained for rules"), std::string::npos) << text;
    }
    ASSERT_TRUE(session.SetOption("Eval", "classic").ok());
    EXPECT_NE(session.EvalText().find("searches use this evaluation (max^n)"), std::string::npos);
  }
}

TEST(MultiSideSearch, ValuesPlaysByTheNetItIsGiven) {
  Rules rules = RulesOf("navy+solo");
  Net net = Net::Random(rules, 8, 4);
  MultiSideParams params;
  params.max_depth = 1;
  params.net = &net;
  std::atomic<bool> stop{false};
  Position pos = testing::SamplePositions(rules, 1, 9)[0];
  absl::StatusOr<MultiSideReport> r =
      SearchMultiSide(pos, rules, MakeThrow(6, 3), params, SearchLimits{}, stop);
  ASSERT_TRUE(r.ok()) << r.status();
  for (const MultiSideCandidate& c : r->candidates) {
    EXPECT_EQ(c.values.win, net.EvaluateSides(c.after).win);
  }
}

TEST(SideTdLabels, LambdaOneTeachesEveryPositionTheGamesWinner) {
  Rules rules = RulesOf("navy+solo");
  Net net = Net::Random(rules, 8, 5);
  SideSelfPlayGame game = PlaySideSelfPlayGame(net, 99, 1.0);
  ASSERT_TRUE(game.finished);
  ASSERT_EQ(game.samples.size(), game.won.size());
  for (size_t t = 0; t < game.samples.size(); ++t) {
    // Output 0 is the thrower's side: taught 1 exactly when it won.
    EXPECT_FLOAT_EQ(game.samples[t].target[0], game.won[t] ? 1.f : 0.f);
    float sum = 0;
    for (int j = 0; j < 4; ++j) sum += game.samples[t].target[j];
    EXPECT_FLOAT_EQ(sum, 1.f);
  }
}

// A lookahead of 1 teaches each position its one-throw max^n value by the
// net; the game played is the one played without it.
TEST(SideTdLabels, ALookaheadOfOneTeachesTheOneThrowValue) {
  Rules rules = RulesOf("navy+solo");
  Net net = Net::Random(rules, 8, 5);
  SideSelfPlayGame plain = PlaySideSelfPlayGame(net, 99, 0.7);
  SideSelfPlayGame deeper = PlaySideSelfPlayGame(net, 99, 0.7, 1.0);
  ASSERT_TRUE(deeper.finished);
  ASSERT_EQ(plain.samples.size(), deeper.samples.size());
  EXPECT_EQ(plain.won, deeper.won);
  // The first position is the start: its target is the start's one-throw
  // value, in turn order from the thrower's side.
  Position start = Position::Start(rules);
  SideValues v = SideLookaheadValue(net, start);
  float sum = 0;
  for (int j = 0; j < 4; ++j) {
    EXPECT_NEAR(deeper.samples[0].target[j], v.win[(start.SideOf(start.to_throw()) + j) % 4], 1e-6);
    sum += deeper.samples[0].target[j];
  }
  EXPECT_NEAR(sum, 1.f, 1e-5);
  for (size_t t = 0; t < deeper.samples.size(); ++t) {
    float total = 0;
    for (int j = 0; j < 4; ++j) total += deeper.samples[t].target[j];
    EXPECT_NEAR(total, 1.f, 1e-5);
  }
}

int RunUckers(const std::string& args) {
  // absl::StrCat: GCC 12 sees a false array bound in the chain of `+`.
  int status = std::system(absl::StrCat(UCKERS_BINARY, " ", args, " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A layout's net starts the training of another ruleset of its layout,
// adapted to it, even one whose inputs are more (mixie_stack's stack tops):
// the run's first position is valued as the net values it.
TEST(TrainCommand, ALayoutsNetStartsAnotherRulesetOfItsLayoutAdapted) {
  std::string init = TempPath("solo-init.unet"), out = TempPath("solo-mixie.unet");
  Net start = Net::Random(RulesOf("navy+solo"), 8, 5);
  ASSERT_TRUE(start.Save(init).ok());
  const std::string command = absl::StrCat("train --rules navy+solo+mixie_stack --init ", init,
                                           " --out ", out, " --games 2 --lr 1e-9");
  EXPECT_EQ(RunUckers(command), 1);  // another ruleset: only with --init_other_rules
  ASSERT_EQ(RunUckers(absl::StrCat(command, " --init_other_rules")), 0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_EQ(net->rules(), RulesOf("navy+solo+mixie_stack"));
  EXPECT_FALSE(net->adapted_from().has_value());
  Position pos = Position::Start(RulesOf("navy+solo+mixie_stack"));
  SideValues trained = net->EvaluateSides(pos), before = start.EvaluateSides(pos);
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(trained.win[s], before.win[s], 1e-3);
  for (const std::string& f : {init, out, out + ".ckpt"}) std::remove(f.c_str());
}

TEST(TrainCommand, TrainsANetPerSideForTheSixSidedBoard) {
  std::string out = TempPath("six.unet");
  ASSERT_EQ(RunUckers(absl::StrCat("train --rules six --out ", out,
                                   " --games 4 --checkpoint_every 2 --hidden 8")),
            0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_TRUE(net->per_side());
  EXPECT_EQ(net->rules(), RulesOf("six"));
  EXPECT_EQ(net->games_trained(), 4u);
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
}

TEST(TrainCommand, RulesAnyOfALayoutTrainsANetPerSideOfAnyRules) {
  std::string out = TempPath("six-any.unet");
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
  EXPECT_EQ(RunUckers(absl::StrCat("train --rules any:six+bounce_back --out ", out,
                                   " --games 4 --hidden 8")),
            2)
      << "a layout, not a ruleset";
  ASSERT_EQ(RunUckers(absl::StrCat("train --rules any:six --out ", out,
                                   " --games 16 --checkpoint_every 8 --hidden 8")),
            0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  EXPECT_TRUE(net->any_rules());
  EXPECT_TRUE(net->per_side());
  EXPECT_EQ(net->rules(), RulesOf("six"));
  EXPECT_EQ(net->games_trained(), 16u);
  // Its checkpoint resumes only a run of any rules of that layout.
  EXPECT_EQ(RunUckers(absl::StrCat("train --rules six --out ", out, " --games 24 --hidden 8")), 1);
  EXPECT_EQ(RunUckers(absl::StrCat("train --rules any:six --out ", out, " --games 24 --hidden 8")),
            0);
  std::remove(out.c_str());
  std::remove((out + ".ckpt").c_str());
}

// A layout's net starts a net of any rules of its layout: the switches it
// never saw start at zero weight, so it first values every ruleset of its
// layout as the layout's own.
TEST(TrainCommand, ALayoutsNetStartsANetOfAnyRulesOfItsLayout) {
  std::string init = TempPath("six-init.unet"), out = TempPath("six-any-from.unet");
  for (const std::string& f : {out, out + ".ckpt"}) std::remove(f.c_str());
  Net start = Net::Random(RulesOf("six"), 8, 6);
  ASSERT_TRUE(start.Save(init).ok());
  const std::string command =
      absl::StrCat("train --rules any:six --init ", init, " --out ", out, " --games 2 --lr 1e-9");
  EXPECT_EQ(RunUckers(command), 1) << "only with --init_other_rules";
  ASSERT_EQ(RunUckers(absl::StrCat(command, " --init_other_rules")), 0);
  absl::StatusOr<Net> net = Net::Load(out);
  ASSERT_TRUE(net.ok()) << net.status();
  ASSERT_TRUE(net->any_rules());
  Rules bounce = RulesOf("six+bounce_back");
  for (const Position& pos : testing::SamplePositions(bounce, 10, 10)) {
    SideValues any = net->ForRules(bounce)->EvaluateSides(pos), own = start.EvaluateSides(pos);
    for (int s = 0; s < 3; ++s) EXPECT_NEAR(any.win[s], own.win[s], 1e-3);
  }
  for (const std::string& f : {init, out, out + ".ckpt"}) std::remove(f.c_str());
}

}  // namespace
}  // namespace uckers
