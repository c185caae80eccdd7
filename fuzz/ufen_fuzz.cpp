// libFuzzer target: the bytes are a UFEN, parsed under several rulesets.
// Whenever parsing succeeds the position must be internally consistent,
// print back to a UFEN that parses to the same position, and give legal
// plays (for a few throws; none exactly when the game is over) that lead to
// consistent positions whose UFENs parse back to them.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/dice.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/play.h"
#include "rules/position.h"
#include "rules/rules.h"
#include "rules/ufen.h"

namespace {

using uckers::Position;
using uckers::Rules;

constexpr const char* kRulesets[] = {
    "navy",   "mess",
    "selsey", "navy+bounce_back+split_single_piece+double_six_two_throws",
    "wafu",   "navy+mixie_stack+mixie_can_challenge+suck_back+split_single_piece",
};

const std::vector<Rules>& AllRules() {
  static const std::vector<Rules> rules = [] {
    std::vector<Rules> out;
    for (const char* text : kRulesets) {
      absl::StatusOr<Rules> r = Rules::Parse(text);
      if (!r.ok()) {
        std::fprintf(stderr, "ufen_fuzz: ruleset '%s' refused: %s\n", text,
                     std::string(r.status().message()).c_str());
        __builtin_trap();
      }
      out.push_back(*r);
    }
    return out;
  }();
  return rules;
}

// The throws tried on every parsed position.
constexpr uckers::Throw kFuzzThrows[] = {
    uckers::MakeThrow(6, 6), uckers::MakeThrow(6, 3), uckers::MakeThrow(6, 1),
    uckers::MakeThrow(5, 2), uckers::MakeThrow(4, 4), uckers::MakeThrow(3, 1),
    uckers::MakeThrow(1, 1),
};

[[noreturn]] void Fail(const char* what, absl::string_view input, const Rules& rules,
                       const std::string& detail = "") {
  std::fprintf(stderr, "ufen_fuzz: %s\n  rules: %s\n  input: '%.*s'\n%s%s", what,
               rules.ToString().c_str(), static_cast<int>(input.size()), input.data(),
               detail.c_str(), detail.empty() ? "" : "\n");
  __builtin_trap();
}

void CheckPosition(absl::string_view input, const Rules& rules, const Position& pos) {
  if (!pos.IsOk()) Fail("parsed position fails IsOk()", input, rules);
  if (pos.key() != pos.ComputeKey()) {
    Fail("parsed position's key() != ComputeKey()", input, rules);
  }
  std::string ufen = uckers::ToUfen(pos);
  absl::StatusOr<Position> again = uckers::ParseUfen(ufen, rules);
  if (!again.ok()) {
    Fail("ToUfen(pos) does not parse back", input, rules,
         "  ToUfen: '" + ufen + "'\n  error: " + std::string(again.status().message()));
  }
  if (!(*again == pos)) {
    Fail("ToUfen(pos) parses back to a different position", input, rules,
         "  ToUfen: '" + ufen + "' -> '" + uckers::ToUfen(*again) + "'");
  }

  uckers::PlayList plays;
  for (uckers::Throw t : kFuzzThrows) {
    uckers::GenerateLegalPlays(pos, rules, t, &plays);
    if (plays.empty() != pos.IsGameOver()) {
      Fail(pos.IsGameOver() ? "legal plays in a finished game"
                            : "no legal play (not even -) in a live game",
           input, rules, "  throw: " + uckers::ThrowToString(t));
    }
    for (const uckers::PlayResult& r : plays) {
      std::string where =
          "  throw: " + uckers::ThrowToString(t) + "\n  play: " + uckers::PlayToString(r.play);
      if (!r.after.IsOk() || r.after.key() != r.after.ComputeKey()) {
        Fail("a legal play leads to a position failing IsOk()", input, rules, where);
      }
      // What `legal` prints as the UFEN after must be accepted back.
      std::string after = uckers::ToUfen(r.after);
      absl::StatusOr<Position> back = uckers::ParseUfen(after, rules);
      if (!back.ok() || !(*back == r.after)) {
        Fail(
            "a legal play leads to a position whose UFEN does not parse "
            "back to it",
            input, rules,
            where + "\n  after: " + after + "\n  error: " +
                (back.ok() ? "parses to " + uckers::ToUfen(*back)
                           : std::string(back.status().message())));
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  AllRules();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view input(reinterpret_cast<const char*>(data), size);
  for (const Rules& rules : AllRules()) {
    absl::StatusOr<Position> pos = uckers::ParseUfen(input, rules);
    if (pos.ok()) CheckPosition(input, rules, *pos);
  }
  return 0;
}
