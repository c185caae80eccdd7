#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/position.h"
#include "rules/rules.h"

namespace uckers {

// The released family of endgames (docs/endgames.md): in each team one
// colour has all four pieces home and is released (RULES.md §7), and the
// other colour, the team's *playing colour*, has one or two pieces not yet
// home, anywhere (base, track, lane). Its positions split into four
// *shapes* by the pieces left, the team to throw first: 1v1, 1v2, 2v1, 2v2.
inline constexpr int kNumEndgameShapes = 4;

// Pieces not home of each team's playing colour in a shape.
struct EndgameShape {
  int mover = 1;     // the team to throw
  int opponent = 1;  // the other team
};

// The id (0..3: 1v1, 1v2, 2v1, 2v2) of a shape; both counts 1 or 2.
int ShapeId(int mover, int opponent);
EndgameShape ShapeById(int id);
// "1v2": the team to throw first.
std::string ShapeName(int id);
// Positions in a shape (its slots).
uint32_t ShapeSize(int id);

// A class of endgames, named by the most pieces a team has left: `1v1`
// (one piece against one), `1v2` (1v1, 1v2, 2v1) and `2v2` (all four
// shapes: the whole released class).
enum class EndgameClass : uint8_t { k1v1, k1v2, k2v2 };
bool ClassHasShape(EndgameClass c, int shape);
absl::string_view ClassName(EndgameClass c);
// The class called `name`; an error listing the names for any other.
absl::StatusOr<EndgameClass> ClassByName(absl::string_view name);
// Positions in a class, every shape of it.
uint64_t ClassSize(EndgameClass c);

// A position of the family: a shape and the index of the position in it.
struct EndgameSlot {
  int shape = 0;
  uint32_t index = 0;
  friend bool operator==(const EndgameSlot&, const EndgameSlot&) = default;
};

// Whether the family's tables can be built for `rules`: an error naming the
// switch for double_six_two_throws (owed throws), suck_back (attempt
// tokens) and no_partner_pipe_moves (a released colour moves its partner's
// pieces under other rules than the partner does), whose states the index
// does not hold.
absl::Status CheckEndgameRules(const Rules& rules);

// The slot of `pos` when it is a position of the family between turns or
// throws: game not over, no challenge under way, no throw owed beyond the
// thrower's next, no first-throw or lane-attempt tokens; nullopt otherwise.
// The index is perfect on canonical positions (PositionAt(SlotOf(p)) is p
// for them, and every index of a shape is a position) and shares a slot
// between positions equal under the two symmetries of the rules it relies
// on: turning the seats (every colour plays by the same rules in its own
// relative squares) and a released colour throwing for its partner in place
// of the partner (both move the same pieces the same way).
std::optional<EndgameSlot> SlotOf(const Position& pos);

// The canonical position of a slot: red is the playing colour of the team
// to throw and is to throw, yellow is home and released; the opponents'
// playing colour is green (the seat after red) or blue (the seat before),
// the other opponent colour home and released. Requires a valid slot.
Position PositionAt(EndgameSlot slot);

// `pos` with every colour's pieces, released token and turn moved `seats`
// seats on (red's to green's and so on, for seats = 1); the challenge
// square, relative to the moving colour, stays. Flags of first throws and
// lane attempts are dropped: the family has none.
Position TurnSeats(const Position& pos, int seats);

// The sum over the slot's pieces not home of (square + 1): base counts 0,
// home would count 57. Grows with every move; a knock-off lowers it.
int SlotProgress(EndgameSlot slot);

}  // namespace uckers
