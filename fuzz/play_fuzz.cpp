// libFuzzer target: plays parsed in fixed mid-game positions.
// Input: byte 0 picks a ruleset, byte 1 a position (among those valid under
// that ruleset), byte 2 a throw; the rest is a play for uckers::ParsePlay.
// A play that parses must be one of GenerateLegalPlays' results, and its
// canonical text must parse back to the same play and resulting position.
// Once per (ruleset, position, throw) every legal play's text is checked to
// parse back to itself, too.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <tuple>
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

using uckers::PlayResult;
using uckers::Position;
using uckers::Rules;

constexpr const char* kRulesets[] = {
    "navy",
    "mess",
    "selsey",
    "navy+bounce_back+split_single_piece+double_six_two_throws",
    "navy+blob_on_blob+mixie_can_challenge+one_less_six",
    "wafu",
};

// Positions tried under every ruleset that accepts them. The first four must
// parse under navy.
constexpr const char* kPositions[] = {
    "b,5,12,30/b,b,20,33/3,3,40,h/b,8,51,h r -", "0,7,7,22/b,14,30,45/b,19,19,h/2,2,26,50 g -",
    "11,30,b,b/b,b,b,b/37,b,b,b/25,25,b,b r -",  "h,h,h,h/b,20,20,48/b,44,53,h/b,b,7,h r pr",
    "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r -",       "3,10,10,b/5,20,47,b/0,0,30,52/b,12,40,h y -",
    "20,20,30,b/8,8,b,b/b,b,b,b/b,b,b,b b -",    "45,50,53,h/40,41,41,h/48,49,54,h/46,52,h,h g -",
    "48,50,53,55/b,b,b,b/b,b,b,b/10,10,b,b r -", "11,b,b,b/b,b,b,b/b,b,b,b/25,25,b,b r c11:1",
    "b,b,b,b/b,b,b,b/b,b,b,b/13,13,13,b r cb:2", "b,b,12,14/b,b,b,b/b,b,40,40/b,b,b,b r -",
    "b,b,b,10/b,b,1,1/b,b,b,b/b,b,b,27 r -",
    "10,10,b,b/b,b,b,b/b,b,b,b/b,b,b,b r x2",     // double_six only
    "0,0,0,0/b,b,b,b/b,b,b,b/b,b,b,b g Sr,sgyb",  // snake_eyes only
    "b,b,b,b/b,b,b,b/b,b,b,b/b,b,b,b r srgyb",    // snake_eyes only
    "h,h,h,h/b,b,b,b/h,h,h,h/b,b,b,b g -",        // finished game
    "b,b,b,11/b,b,51,53/b,b,b,b/37,b,b,b r kg1",  // suck_back only
    "b,b,b,11/b,b,52,54/b,b,b,b/b,b,b,b g Kg1",   // suck_back only
};

struct Setup {
  Rules rules;
  std::vector<Position> positions;
  std::vector<const char*> ufens;
};

const std::vector<Setup>& Setups() {
  static const std::vector<Setup> setups = [] {
    std::vector<Setup> out;
    for (const char* text : kRulesets) {
      absl::StatusOr<Rules> rules = Rules::Parse(text);
      if (!rules.ok()) {
        std::fprintf(stderr, "play_fuzz: ruleset '%s' refused: %s\n", text,
                     std::string(rules.status().message()).c_str());
        __builtin_trap();
      }
      Setup setup{*rules, {}, {}};
      for (size_t i = 0; i < std::size(kPositions); ++i) {
        absl::StatusOr<Position> pos = uckers::ParseUfen(kPositions[i], *rules);
        if (pos.ok()) {
          setup.positions.push_back(*pos);
          setup.ufens.push_back(kPositions[i]);
        } else if (i < 4 && setup.rules == Rules()) {
          std::fprintf(stderr, "play_fuzz: '%s' refused under navy: %s\n", kPositions[i],
                       std::string(pos.status().message()).c_str());
          __builtin_trap();
        }
      }
      if (!setup.positions.empty()) out.push_back(std::move(setup));
    }
    return out;
  }();
  return setups;
}

// UCKERS_FUZZ_VERBOSE=1 prints what each input selects (to triage inputs).
bool Verbose() {
  static const bool verbose = std::getenv("UCKERS_FUZZ_VERBOSE") != nullptr;
  return verbose;
}

struct Context {
  const Setup* setup;
  const char* ufen;
  uckers::Throw t;
};

[[noreturn]] void Fail(const Context& c, absl::string_view text, const std::string& what) {
  std::fprintf(stderr,
               "play_fuzz: %s\n  rules: %s\n  position: %s\n  throw: %s\n"
               "  play: '%.*s'\n",
               what.c_str(), c.setup->rules.ToString().c_str(), c.ufen,
               uckers::ThrowToString(c.t).c_str(), static_cast<int>(text.size()), text.data());
  __builtin_trap();
}

bool InList(const uckers::PlayList& list, const PlayResult& r) {
  for (const PlayResult& item : list) {
    if (item.play == r.play && item.after == r.after) return true;
  }
  return false;
}

// The canonical text of `r` parses back to `r`.
void CheckRoundTrip(const Context& c, const Position& pos, absl::string_view text,
                    const PlayResult& r) {
  std::string canonical = uckers::PlayToString(r.play);
  absl::StatusOr<PlayResult> again = uckers::ParsePlay(canonical, pos, c.setup->rules, c.t);
  if (!again.ok()) {
    Fail(c, text,
         "canonical text '" + canonical +
             "' does not parse back: " + std::string(again.status().message()));
  }
  if (!(again->after == r.after)) {
    Fail(c, text,
         "canonical text '" + canonical + "' parses back to a different position: " +
             uckers::ToUfen(again->after) + " vs " + uckers::ToUfen(r.after));
  }
  if (!(again->play == r.play)) {
    Fail(c, text,
         "canonical text '" + canonical + "' parses back to a different play '" +
             uckers::PlayToString(again->play) + "'");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Setups();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const std::vector<Setup>& setups = Setups();
  const Setup& setup = setups[data[0] % setups.size()];
  size_t index = data[1] % setup.positions.size();
  const Position& pos = setup.positions[index];
  Context c{&setup, setup.ufens[index], uckers::kThrows[data[2] % 21]};
  absl::string_view text(reinterpret_cast<const char*>(data) + 3, size - 3);

  uckers::PlayList legal;
  uckers::GenerateLegalPlays(pos, setup.rules, c.t, &legal);

  // Every legal play's text parses back to it: once per combination.
  static std::set<std::tuple<const Setup*, size_t, int>> checked;
  if (checked.insert({&setup, index, data[2] % 21}).second) {
    for (const PlayResult& r : legal) {
      if (!r.after.IsOk()) Fail(c, text, "a legal play fails IsOk()");
      CheckRoundTrip(c, pos, text, r);
    }
  }

  absl::StatusOr<PlayResult> r = uckers::ParsePlay(text, pos, setup.rules, c.t);
  if (Verbose()) {
    std::fprintf(
        stderr, "play_fuzz: rules %s, position %s, throw %s, play '%.*s': %s\n",
        setup.rules.ToString().c_str(), c.ufen, uckers::ThrowToString(c.t).c_str(),
        static_cast<int>(text.size()), text.data(),
        r.ok() ? uckers::PlayToString(r->play).c_str() : std::string(r.status().message()).c_str());
  }
  if (!r.ok()) return 0;
  if (!InList(legal, *r)) {
    Fail(c, text,
         "parsed play '" + uckers::PlayToString(r->play) +
             "' is not among GenerateLegalPlays' results");
  }
  if (!r->after.IsOk()) Fail(c, text, "parsed play's position fails IsOk()");
  CheckRoundTrip(c, pos, text, *r);
  return 0;
}
