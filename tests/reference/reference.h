// An independent, deliberately slow and simple reference implementation of
// the Uckers rules (../../shared/RULES.md, read as docs/rules-reading.md),
// used by tests to cross-check the engine. It shares no code with rules/:
// plays are found by brute force over every sequence of moves and are told
// apart by the canonical UFEN of the position they lead to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uckers::reference {

// Resulting canonical UFEN of every distinct legal play (distinct by
// resulting position) for the throw d1,d2 (1..6 each) in position `ufen`
// under ruleset `rules` (e.g. "navy", "mess", "selsey",
// "navy+one_less_six-snake_eyes", "wafu"), sorted ascending as strings.
// Empty for a finished game. Every switch of RULES.md §9 is implemented,
// the boards and sides of §11 too (six_sided, teams_of_three, solo: UFENs
// of four or six colour fields),
// suck_back (k/K tokens, suck-back and blow-back calls) as
// docs/rules-reading.md reads it. Throws std::invalid_argument on bad input
// (malformed or inconsistent UFEN, unknown ruleset or switch, dice out of
// range).
std::vector<std::string> LegalResults(const std::string& ufen, const std::string& rules, int d1,
                                      int d2);

// Perft as PROTOCOL.md defines it: leaves of the throw-and-play tree over the
// 21 distinct throws, each throw's distinct plays ('-' counts as one;
// finished game = 1 leaf at any depth; depth 0 = 1). Throws
// std::invalid_argument on bad input or a negative depth.
uint64_t Perft(const std::string& ufen, const std::string& rules, int depth);

}  // namespace uckers::reference
