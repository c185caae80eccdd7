#include "rules/stack.h"

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
  const Board& b = pos.board();
  int rel = b.Relative(colour, abs);
  return rel <= b.last_track ? pos.CountAt(colour, static_cast<Square>(rel)) : 0;
}

namespace {

// The number of colours of side `side` with a piece on absolute square `abs`.
int ColoursOfSideAt(const Position& pos, int side, int abs) {
  int n = 0;
  for (int c = 0; c < pos.num_colours(); ++c) {
    n += pos.SideOf(c) == side && CountAtAbsolute(pos, c, abs) > 0;
  }
  return n;
}

}  // namespace

bool HoldsBothColours(const Position& pos, int team, int abs) {
  return ColoursOfSideAt(pos, team, abs) >= 2;
}

StackList Stacks(const Position& pos) {
  StackList list;
  if (pos.stack_order() == 0) return list;  // no stack (or the switch is off)
  const Layout& l = pos.layout();
  const Board& b = l.board;
  for (int c = 0; c < b.colours; ++c) {
    int side = l.side_of[c];
    if (l.side_size[side] < 2) continue;
    Square last = kBase;
    for (Square sq : pos.pieces(c)) {
      if (!b.OnTrack(sq) || sq == last) continue;
      last = sq;
      int abs = b.Absolute(c, sq);
      if (list.Find(abs) || ColoursOfSideAt(pos, side, abs) < 2) continue;
      Stack& s = list.items[list.size++];
      s.abs = static_cast<uint8_t>(abs);
      s.team = static_cast<uint8_t>(side);
      int size = 0;
      for (int k = 0; k < b.colours; ++k) {
        if (l.side_of[k] == side) size += CountAtAbsolute(pos, k, abs);
      }
      s.size = static_cast<uint8_t>(size);
    }
  }
  std::sort(list.items.begin(), list.items.begin() + list.size,
            [](const Stack& a, const Stack& b) { return a.abs < b.abs; });
  uint64_t bits = pos.stack_order();
  for (int i = 0; i < list.size; ++i) {
    Stack& s = list.items[i];
    int width = StackFieldBits(l, s.team);
    uint64_t field = (uint64_t{1} << width) - 1;
    for (int k = 0; k < s.size; ++k) {
      int index = static_cast<int>(bits & field);
      int colour = l.SideColour(s.team, index);
      s.colours[k] = static_cast<uint8_t>(colour < 0 ? s.team : colour);
      bits >>= width;
    }
  }
  return list;
}

int StackTopColour(const Position& pos, int abs) {
  const StackList list = Stacks(pos);
  const Stack* s = list.Find(abs);
  return s ? s->TopColour() : -1;
}

bool MayMoveUnderStacks(const Position& pos, int colour, Square sq) {
  const Board& b = pos.board();
  if (!b.OnTrack(sq)) return true;
  int abs = b.Absolute(colour, sq);
  if (!HoldsBothColours(pos, pos.SideOf(colour), abs)) return true;
  int top = StackTopColour(pos, abs);
  return top < 0 || top == colour;
}

void SetStacks(Position& pos, StackList list) {
  std::sort(list.items.begin(), list.items.begin() + list.size,
            [](const Stack& a, const Stack& b) { return a.abs < b.abs; });
  const Layout& l = pos.layout();
  uint64_t bits = 0;
  int shift = 0;
  for (const Stack& s : list) {
    if (s.size < 2 || !HoldsBothColours(pos, s.team, s.abs)) continue;
    int width = StackFieldBits(l, s.team);
    for (int k = 0; k < s.size; ++k) {
      bits |= static_cast<uint64_t>(l.index_in_side[s.colours[k]]) << shift;
      shift += width;
    }
  }
  pos.SetStackOrder(bits);
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
// there in `pos`): it goes on top of a stack, or starts one on the pieces
// of one partner colour there (they lie below it).
void Arrive(const Position& pos, StackList& list, int colour, int abs) {
  if (Stack* s = list.Find(abs)) {
    s->colours[s->size++] = static_cast<uint8_t>(colour);
    return;
  }
  int side = pos.SideOf(colour);
  int below_colour = -1, below = 0;
  for (int c = 0; c < pos.num_colours(); ++c) {
    if (c == colour || pos.SideOf(c) != side) continue;
    if (int n = CountAtAbsolute(pos, c, abs)) {
      below_colour = c;
      below = n;
    }
  }
  if (below == 0) return;
  Stack& s = list.items[list.size++];
  s.abs = static_cast<uint8_t>(abs);
  s.team = static_cast<uint8_t>(side);
  s.size = static_cast<uint8_t>(below + 1);
  for (int k = 0; k < below; ++k) s.colours[k] = static_cast<uint8_t>(below_colour);
  s.colours[below] = static_cast<uint8_t>(colour);
}

// Whether a piece of a side other than `side` stands on absolute square `abs`.
bool OpponentOn(const Position& pos, int side, int abs) {
  for (int c = 0; c < pos.num_colours(); ++c) {
    if (pos.SideOf(c) != side && CountAtAbsolute(pos, c, abs) > 0) return true;
  }
  return false;
}

// Whether a partner colour of `colour` stands on absolute square `abs`.
bool PartnerOn(const Position& pos, int colour, int abs) {
  uint8_t partners = pos.layout().PartnerMask(colour);
  for (int c = 0; c < pos.num_colours(); ++c) {
    if ((partners >> c & 1) && CountAtAbsolute(pos, c, abs) > 0) return true;
  }
  return false;
}

}  // namespace

void MoveTopPiece(Position& pos, int colour, Square from, Square to) {
  const Board& b = pos.board();
  int side = pos.SideOf(colour);
  bool joins_partner = b.OnTrack(to) && PartnerOn(pos, colour, b.Absolute(colour, to));
  if (pos.stack_order() == 0 && !joins_partner) {  // no stack before or after
    pos.MovePiece(colour, from, to);
    if (b.OnTrack(to)) pos.KnockOff(side, b.Absolute(colour, to));
    return;
  }
  StackList list = Stacks(pos);
  if (b.OnTrack(from)) {
    if (Stack* s = list.Find(b.Absolute(colour, from))) --s->size;
  }
  pos.MovePiece(colour, from, to);
  if (b.OnTrack(to)) {
    int abs = b.Absolute(colour, to);
    if (OpponentOn(pos, side, abs)) {
      Erase(list, abs);
      pos.KnockOff(side, abs);
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
  MoveTopPiece(pos, top, static_cast<Square>(pos.board().Relative(top, abs)), kBase);
}

void SendColourToBase(Position& pos, int colour) {
  StackList list = Stacks(pos);
  for (int i = 0; i < list.size; ++i) {
    Stack& s = list.items[i];
    if (s.team != pos.SideOf(colour)) continue;
    // Keep the other colours' pieces, in order.
    int kept = 0;
    for (int k = 0; k < s.size; ++k) {
      if (s.colours[k] != colour) s.colours[kept++] = s.colours[k];
    }
    s.size = static_cast<uint8_t>(kept);
  }
  const Square home = pos.board().home;
  const auto row = pos.pieces(colour);  // a copy: MovePiece reorders
  for (Square sq : row) {
    if (sq != kBase && sq != home) pos.MovePiece(colour, sq, kBase);
  }
  SetStacks(pos, list);
}

}  // namespace uckers
