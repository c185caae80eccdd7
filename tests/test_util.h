#pragma once

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "rules/ufen.h"

namespace uckers::testing {

using Strs = std::vector<std::string>;

// The strings sorted, to compare with Plays().
inline Strs Sorted(Strs v) {
  std::sort(v.begin(), v.end());
  return v;
}

// The rules named by a rules string; fails the test on a bad string.
inline Rules R(const std::string& text) {
  absl::StatusOr<Rules> rules = Rules::Parse(text);
  EXPECT_TRUE(rules.ok()) << rules.status();
  return rules.ok() ? *rules : Rules();
}

// The position of a UFEN; fails the test on a bad one.
inline Position P(const std::string& ufen, const Rules& rules = Rules()) {
  absl::StatusOr<Position> pos = ParseUfen(ufen, rules);
  EXPECT_TRUE(pos.ok()) << ufen << ": " << pos.status();
  return pos.ok() ? *pos : Position::Start(rules);
}

// The canonical strings of every legal play, sorted.
inline std::vector<std::string> Plays(const std::string& ufen, int d1, int d2,
                                      const Rules& rules = Rules()) {
  PlayList list;
  GenerateLegalPlays(P(ufen, rules), rules, MakeThrow(d1, d2), &list);
  std::vector<std::string> out;
  for (const PlayResult& r : list) out.push_back(PlayToString(r.play, rules.board()));
  std::sort(out.begin(), out.end());
  return out;
}

// The UFEN after the legal play spelled `play`; fails the test if illegal.
inline std::string After(const std::string& ufen, int d1, int d2, const std::string& play,
                         const Rules& rules = Rules()) {
  absl::StatusOr<PlayResult> r = ParsePlay(play, P(ufen, rules), rules, MakeThrow(d1, d2));
  EXPECT_TRUE(r.ok()) << play << ": " << r.status();
  return r.ok() ? ToUfen(r->after) : "";
}

// A search's cache of static values (search/static_cache.h) is read only by
// the search that filled it: `classic()` and `net()` value one position with
// two evaluations; run on the same thread right after each other, each gives
// what it gives on a fresh thread.
template <typename Classic, typename Net>
void ExpectCachedValuesAreNotShared(Classic classic, Net net) {
  double fresh_classic = 0, fresh_net = 0;
  std::thread([&] { fresh_classic = classic(); }).join();
  std::thread([&] { fresh_net = net(); }).join();
  ASSERT_NE(fresh_classic, fresh_net);
  double net_first = net();
  EXPECT_EQ(classic(), fresh_classic);
  EXPECT_EQ(net(), fresh_net);
  EXPECT_EQ(net_first, fresh_net);
}

}  // namespace uckers::testing
