#pragma once

#include <array>
#include <cstdint>

#include "rules/position.h"

namespace uckers {

// mixie_stack (RULES.md §9, §11): the pieces on a main-track square holding
// two or more colours of one side, in the order they arrived.
struct Stack {
  uint8_t abs = 0;                                      // absolute square
  uint8_t team = 0;                                     // the side (its first colour in turn order)
  uint8_t size = 0;                                     // pieces on the square, 2..12
  std::array<uint8_t, 3 * kPiecesPerColour> colours{};  // bottom to top

  // The colour of the k-th piece from the bottom (0 = bottom).
  int ColourAt(int k) const { return colours[k]; }
  int TopColour() const { return ColourAt(size - 1); }
};

// Every stack of a position, by absolute square ascending (each holds two
// or more of the pieces).
struct StackList {
  int size = 0;
  std::array<Stack, kMaxPieces / 2> items{};

  const Stack* begin() const { return items.data(); }
  const Stack* end() const { return items.data() + size; }
  // The stack on absolute square `abs`, or nullptr.
  const Stack* Find(int abs) const;
  Stack* Find(int abs);
};

// Bits of Position::stack_order() a piece of a stack of `side` takes: enough
// for its colour's index within the side.
inline int StackFieldBits(const Layout& layout, int side) {
  return layout.side_size[side] > 2 ? 2 : 1;
}

// The number of pieces of `colour` on absolute main-track square `abs`.
int CountAtAbsolute(const Position& pos, int colour, int abs);

// Whether absolute square `abs` holds pieces of both colours of `team`.
bool HoldsBothColours(const Position& pos, int team, int abs);

// The stacks of `pos`, decoded from the pieces and Position::stack_order(),
// in a position whose order bits match its pieces (every position the
// engine makes or accepts does). Empty when stack_order() is 0: no stack
// stands, or mixie_stack is off (mixie blobs then have no order).
StackList Stacks(const Position& pos);

// The colour of the top piece of the stack on absolute square `abs`, or -1
// when no stack stands there.
int StackTopColour(const Position& pos, int abs);

// Whether `colour`'s piece on relative square `sq` may be moved: always,
// unless it stands in a stack whose top piece is of another colour
// (RULES.md §9: only the top piece moves; always true with the switch off).
bool MayMoveUnderStacks(const Position& pos, int colour, Square sq);

// Stores `list` as the order bits of `pos`, dropping every entry whose
// square no longer holds both colours of its team (it is an ordinary single
// or blob again, RULES.md §9).
void SetStacks(Position& pos, StackList list);

// Under mixie_stack: moves `colour`'s top piece on `from` to `to` and lands
// it by the usual rules (§4: an opponent there is knocked off, whole if a
// stack; arriving on the team's pieces it goes on top). `from` may be base,
// `to` home; the caller has checked the move's legality.
void MoveTopPiece(Position& pos, int colour, Square from, Square to);

// Under mixie_stack: sends every piece of the other team than `team` on
// absolute square `abs` to base (a stack goes whole, RULES.md §5, §9).
void KnockOffStacked(Position& pos, int team, int abs);

// Under mixie_stack: sends the top piece of the stack on absolute square
// `abs` to base (blow back, §9); nothing when no stack stands there.
void SendTopPieceToBase(Position& pos, int abs);

// Under mixie_stack: sends every piece of `colour` not home to base (second
// snake eyes); the pieces left in each stack keep their order (§9).
void SendColourToBase(Position& pos, int colour);

}  // namespace uckers
