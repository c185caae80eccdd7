#include "engine/stack.h"

#include <algorithm>

namespace uckers {

const Stack* StackList::Find(int abs) const {
  for (const Stack& s : *this) {
    if (s.abs == abs) return &s;
  }
  return nullptr;
}

Stack* StackList::Find(int abs) {
  return const_cast<Stack*>(static_cast<const StackList*>(this)->Find(abs));
}

int CountAtAbsolute(const Position& pos, int colour, int abs) {
  int rel = RelativeSquare(colour, abs);
  return rel <= kLastTrack ? pos.CountAt(colour, static_cast<Square>(rel)) : 0;
}

bool HoldsBothColours(const Position& pos, int team, int abs) {
  return CountAtAbsolute(pos, team, abs) > 0 && CountAtAbsolute(pos, team + 2, abs) > 0;
}

StackList Stacks(const Position& pos) {
  StackList list;
  if (pos.stack_order() == 0) return list;  // no stack (or the switch is off)
  for (int team = 0; team < 2; ++team) {
    Square last = kBase;
    for (Square sq : pos.pieces(team)) {
      if (!OnTrack(sq) || sq == last) continue;
      last = sq;
      int abs = AbsoluteSquare(team, sq);
      int partner = CountAtAbsolute(pos, team + 2, abs);
      if (partner == 0) continue;
      Stack& s = list.items[list.size++];
      s.abs = static_cast<uint8_t>(abs);
      s.team = static_cast<uint8_t>(team);
      s.size = static_cast<uint8_t>(pos.CountAt(team, sq) + partner);
    }
  }
  std::sort(list.items.begin(), list.items.begin() + list.size,
            [](const Stack& a, const Stack& b) { return a.abs < b.abs; });
  uint32_t bits = pos.stack_order();
  for (int i = 0; i < list.size; ++i) {
    Stack& s = list.items[i];
    s.order = static_cast<uint8_t>(bits & ((1u << s.size) - 1));
    bits >>= s.size;
  }
  return list;
}

int StackTopColour(const Position& pos, int abs) {
  const StackList list = Stacks(pos);
  const Stack* s = list.Find(abs);
  return s ? s->TopColour() : -1;
}

bool MayMoveUnderStacks(const Position& pos, int colour, Square sq) {
  if (!OnTrack(sq)) return true;
  int abs = AbsoluteSquare(colour, sq);
  if (CountAtAbsolute(pos, PartnerOf(colour), abs) == 0) return true;
  int top = StackTopColour(pos, abs);
  return top < 0 || top == colour;
}

void SetStacks(Position& pos, StackList list) {
  std::sort(list.items.begin(), list.items.begin() + list.size,
            [](const Stack& a, const Stack& b) { return a.abs < b.abs; });
  uint32_t bits = 0;
  int shift = 0;
  for (const Stack& s : list) {
    if (s.size < 2 || !HoldsBothColours(pos, s.team, s.abs)) continue;
    bits |= static_cast<uint32_t>(s.order & ((1u << s.size) - 1)) << shift;
    shift += s.size;
  }
  pos.SetStackOrder(static_cast<uint16_t>(bits));
}

namespace {

void Erase(StackList& list, int abs) {
  for (int i = 0; i < list.size; ++i) {
    if (list.items[i].abs != abs) continue;
    list.items[i] = list.items[--list.size];
    return;
  }
}

// `colour`'s piece has just arrived on absolute square `abs` (already moved
// there in `pos`): it goes on top of a stack, or starts one on the partner's
// pieces (they lie below it, all of one colour).
void Arrive(const Position& pos, StackList& list, int colour, int abs) {
  int team = TeamOf(colour), bit = colour >> 1;
  if (Stack* s = list.Find(abs)) {
    s->order = static_cast<uint8_t>(s->order | bit << s->size);
    ++s->size;
    return;
  }
  int below = CountAtAbsolute(pos, PartnerOf(colour), abs);
  if (below == 0) return;
  Stack& s = list.items[list.size++];
  s.abs = static_cast<uint8_t>(abs);
  s.team = static_cast<uint8_t>(team);
  s.size = static_cast<uint8_t>(below + 1);
  uint8_t below_bits = (colour >> 1) ? 0 : static_cast<uint8_t>((1u << below) - 1);
  s.order = static_cast<uint8_t>(below_bits | bit << below);
}

}  // namespace

void MoveTopPiece(Position& pos, int colour, Square from, Square to) {
  bool joins_partner =
      OnTrack(to) && CountAtAbsolute(pos, PartnerOf(colour), AbsoluteSquare(colour, to)) > 0;
  if (pos.stack_order() == 0 && !joins_partner) {  // no stack before or after
    pos.MovePiece(colour, from, to);
    if (OnTrack(to)) pos.KnockOff(TeamOf(colour), AbsoluteSquare(colour, to));
    return;
  }
  StackList list = Stacks(pos);
  if (OnTrack(from)) {
    if (Stack* s = list.Find(AbsoluteSquare(colour, from))) {
      --s->size;
      s->order = static_cast<uint8_t>(s->order & ((1u << s->size) - 1));
    }
  }
  pos.MovePiece(colour, from, to);
  if (OnTrack(to)) {
    int abs = AbsoluteSquare(colour, to);
    int team = TeamOf(colour);
    if (CountAtAbsolute(pos, team ^ 1, abs) + CountAtAbsolute(pos, team ^ 3, abs) > 0) {
      Erase(list, abs);
      pos.KnockOff(team, abs);
    }
    Arrive(pos, list, colour, abs);
  }
  SetStacks(pos, list);
}

void KnockOffStacked(Position& pos, int team, int abs) {
  StackList list = Stacks(pos);
  Erase(list, abs);
  pos.KnockOff(team, abs);
  SetStacks(pos, list);
}

void SendTopPieceToBase(Position& pos, int abs) {
  int top = StackTopColour(pos, abs);
  if (top < 0) return;
  MoveTopPiece(pos, top, static_cast<Square>(RelativeSquare(top, abs)), kBase);
}

void SendColourToBase(Position& pos, int colour) {
  StackList list = Stacks(pos);
  for (int i = 0; i < list.size; ++i) {
    Stack& s = list.items[i];
    if (s.team != TeamOf(colour)) continue;
    // Keep the other colour's pieces, in order (they are all one colour).
    int kept = 0;
    uint8_t order = 0;
    for (int k = 0; k < s.size; ++k) {
      if (s.ColourAt(k) == colour) continue;
      order = static_cast<uint8_t>(order | (s.order >> k & 1) << kept);
      ++kept;
    }
    s.size = static_cast<uint8_t>(kept);
    s.order = order;
  }
  const auto row = pos.pieces(colour);  // a copy: MovePiece reorders
  for (Square sq : row) {
    if (sq != kBase && sq != kHome) pos.MovePiece(colour, sq, kBase);
  }
  SetStacks(pos, list);
}

}  // namespace uckers
