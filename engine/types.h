#pragma once

#include <cstdint>

namespace uckers {

// Colours in seating and turn order (RULES.md §1).
enum Colour : uint8_t { kRed = 0, kGreen = 1, kYellow = 2, kBlue = 3 };
inline constexpr int kNumColours = 4;
inline constexpr int kPiecesPerColour = 4;

// A piece's place relative to its own colour (RULES.md §1): base, the
// doorstep 0, the main track 0..50, the home lane 51..55, home 56.
using Square = int8_t;
inline constexpr Square kBase = -1;
inline constexpr Square kDoorstep = 0;
inline constexpr Square kLastTrack = 50;  // "end of the pipe"
inline constexpr Square kFirstLane = 51;
inline constexpr Square kHome = 56;
inline constexpr int kTrackSquares = 52;
inline constexpr int kDoorstepSpacing = 13;

// Diagonal partners form the teams RY (0) and GB (1).
inline constexpr int TeamOf(int colour) { return colour & 1; }
inline constexpr int PartnerOf(int colour) { return colour ^ 2; }
inline constexpr int NextColour(int colour) { return (colour + 1) & 3; }
inline constexpr bool OnTrack(int sq) { return sq >= 0 && sq <= kLastTrack; }

// The absolute main-track square of a colour's relative square 0..50.
inline constexpr int AbsoluteSquare(int colour, int sq) {
  return (kDoorstepSpacing * colour + sq) % kTrackSquares;
}

// The relative square of `colour` for absolute square `abs`, 0..51; 51 is the
// square just behind the doorstep, never on that colour's path.
inline constexpr int RelativeSquare(int colour, int abs) {
  return (abs - kDoorstepSpacing * colour + 2 * kTrackSquares) % kTrackSquares;
}

inline constexpr char kColourChars[] = "rgyb";

}  // namespace uckers
