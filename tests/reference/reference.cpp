// Reference rules: see reference.h. Written straight from RULES.md,
// PROTOCOL.md and docs/rules-reading.md, favouring plain code over speed.
#include "tests/reference/reference.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace uckers::reference {
namespace {

constexpr int kBase = -1;  // a piece in base
constexpr const char* kColourLetters = "rgybop";

// ---------------------------------------------------------------- rules ---

struct Rules {
  bool split_single_piece = false;     // var. A
  bool mixie_can_challenge = false;    // var. B
  bool blob_on_blob = false;           // var. C
  bool bounce_back = false;            // var. D
  bool one_less_six = false;           // var. E
  bool double_six_two_throws = false;  // var. F
  bool suck_back = false;              // var. G, WAFU
  bool snake_eyes = false;             // seeds 000/001
  bool throw_after_challenge = false;  // seed 003
  bool no_partner_pipe_moves = false;  // seeds 000/001
  bool mixie_stack = false;            // seeds 000/001
  bool superblob = false;              // seed 001
  bool doubles_throw_again = false;    // apps, RAN mess rules
  bool six_sided = false;              // §11
  bool teams_of_three = false;         // §11
  bool solo = false;                   // §11
};

// The board and the sides of the game being worked out (RULES.md §1, §11),
// set from the rules by the entry points below.
struct Geometry {
  int colours = 4;   // 4 or 6
  int track = 52;    // 13 per colour
  int last = 50;     // the square in line with the lane
  int home = 56;     // last + 6
  int side[6] = {};  // colour -> its side (numbered by its first colour)
};
Geometry g;

void SetGeometry(const Rules& r) {
  g.colours = r.six_sided ? 6 : 4;
  g.track = 13 * g.colours;
  g.last = g.track - 2;
  g.home = g.last + 6;
  for (int c = 0; c < g.colours; ++c) {
    if (r.solo)
      g.side[c] = c;
    else if (r.teams_of_three)
      g.side[c] = c % 2;
    else
      g.side[c] = c % (g.colours / 2);  // partners opposite
  }
}

[[noreturn]] void Bad(const std::string& what) { throw std::invalid_argument(what); }

bool* SwitchByName(Rules& r, const std::string& name) {
  if (name == "split_single_piece") return &r.split_single_piece;
  if (name == "mixie_can_challenge") return &r.mixie_can_challenge;
  if (name == "blob_on_blob") return &r.blob_on_blob;
  if (name == "bounce_back") return &r.bounce_back;
  if (name == "one_less_six") return &r.one_less_six;
  if (name == "double_six_two_throws") return &r.double_six_two_throws;
  if (name == "suck_back") return &r.suck_back;
  if (name == "snake_eyes") return &r.snake_eyes;
  if (name == "throw_after_challenge") return &r.throw_after_challenge;
  if (name == "no_partner_pipe_moves") return &r.no_partner_pipe_moves;
  if (name == "mixie_stack") return &r.mixie_stack;
  if (name == "superblob") return &r.superblob;
  if (name == "doubles_throw_again") return &r.doubles_throw_again;
  if (name == "six_sided") return &r.six_sided;
  if (name == "teams_of_three") return &r.teams_of_three;
  if (name == "solo") return &r.solo;
  return nullptr;
}

Rules ParseRules(const std::string& text) {
  size_t cut = text.find_first_of("+-");
  std::string preset = text.substr(0, cut);
  Rules r;
  if (preset == "navy") {
  } else if (preset == "mess") {
    r.snake_eyes = r.no_partner_pipe_moves = r.blob_on_blob = r.mixie_stack = r.superblob = true;
  } else if (preset == "six") {
    r.six_sided = true;
  } else if (preset == "selsey") {
    r.throw_after_challenge = true;
  } else if (preset == "wafu") {
    r.suck_back = r.snake_eyes = true;
  } else {
    Bad("unknown ruleset '" + preset + "'");
  }
  while (cut != std::string::npos) {
    bool on = text[cut] == '+';
    size_t next = text.find_first_of("+-", cut + 1);
    std::string name =
        text.substr(cut + 1, next == std::string::npos ? std::string::npos : next - cut - 1);
    bool* sw = SwitchByName(r, name);
    if (sw == nullptr) Bad("unknown switch '" + name + "'");
    *sw = on;
    cut = next;
  }
  if (r.teams_of_three && !r.six_sided) Bad("teams_of_three needs six_sided");
  if (r.teams_of_three && r.solo) Bad("solo with teams_of_three");
  SetGeometry(r);
  return r;
}

// ------------------------------------------------------------- position ---

struct Pos {
  // sq[colour][i]: relative square, kBase, 0..home-1 or g.home. Order is
  // meaningless (pieces are identical); printing sorts.
  std::array<std::array<int, 4>, 6> sq{};
  int to_throw = 0;                // colour to throw next
  bool challenge = false;          // a challenge under way (c token)
  int challenge_sq = 0;            // kBase or 0..49, relative to the moving colour
  int challenge_n = 0;             // sixes counted so far
  int x = 0;                       // extra throws owed after the next one
  std::array<bool, 6> released{};  // p token
  std::array<bool, 6> first{};     // s token: first throw not yet made
  std::array<bool, 6> second{};    // S token: next throw is after snake eyes
  // suck_back: attempts used against the pieces standing on colour L's
  // square 50 (in line with L's lane): suck[L] by L's opponents (k token),
  // blow[L] by L itself (K token). 0..2.
  std::array<int, 6> suck{};
  std::array<int, 6> blow{};
  // mixie_stack: when each piece last arrived on its main-track square
  // (stamp[colour][i], from `clock`). On a square holding both colours of a
  // team the pieces stand in stamp order, the latest on top.
  bool stacks = false;
  std::array<std::array<int, 4>, 6> stamp{};
  int clock = 0;
};

int Team(int c) { return g.side[c]; }
int Abs(int c, int p) { return (13 * c + p) % g.track; }
bool OnTrack(int p) { return p >= 0 && p <= g.last; }
bool Opponents(int a, int b) { return Team(a) != Team(b); }
bool Partners(int a, int b) { return a != b && Team(a) == Team(b); }

bool AllHome(const Pos& pos, int c) {
  for (int p : pos.sq[c])
    if (p != g.home) return false;
  return true;
}
bool TeamHome(const Pos& pos, int team) {
  for (int c = 0; c < g.colours; ++c)
    if (Team(c) == team && !AllHome(pos, c)) return false;
  return true;
}
bool GameOver(const Pos& pos) {
  for (int c = 0; c < g.colours; ++c)
    if (TeamHome(pos, Team(c))) return true;
  return false;
}

// Pieces of colour c on absolute main-track square a.
int CountOn(const Pos& pos, int c, int a) {
  int n = 0;
  for (int p : pos.sq[c])
    if (OnTrack(p) && Abs(c, p) == a) ++n;
  return n;
}

// Size of the opponent blob (one opponent colour, >= 2 pieces, no other
// colour there) on absolute square a as seen by colour m; 0 if none.
int OpponentBlobSize(const Pos& pos, int m, int a) {
  int colours_there = 0, size = 0;
  for (int c = 0; c < g.colours; ++c) {
    int n = CountOn(pos, c, a);
    if (n == 0) continue;
    ++colours_there;
    if (Opponents(c, m)) size = n;
  }
  return colours_there == 1 && size >= 2 ? size : 0;
}

// Pieces of colours other than m's own of m's side on absolute square a.
int PartnerCountOn(const Pos& pos, int m, int a) {
  int n = 0;
  for (int c = 0; c < g.colours; ++c)
    if (Partners(c, m)) n += CountOn(pos, c, a);
  return n;
}

// mixie_stack: piece i of colour c has just arrived where it stands.
void Arrived(Pos& pos, int c, int i) { pos.stamp[c][i] = ++pos.clock; }

// Whether absolute square a holds two or more colours of colour c's side.
bool Mixed(const Pos& pos, int c, int a) {
  int colours = 0;
  for (int k = 0; k < g.colours; ++k)
    if (Team(k) == Team(c) && CountOn(pos, k, a) > 0) ++colours;
  return colours >= 2;
}

// mixie_stack: whether piece i of colour c may move: it stands in no stack,
// or on top of one (no piece of its square arrived after it).
bool OnTop(const Pos& pos, int c, int i) {
  int p = pos.sq[c][i];
  if (!pos.stacks || !OnTrack(p) || !Mixed(pos, c, Abs(c, p))) return true;
  for (int k = 0; k < g.colours; ++k) {
    if (Team(k) != Team(c)) continue;
    for (int j = 0; j < 4; ++j)
      if (OnTrack(pos.sq[k][j]) && Abs(k, pos.sq[k][j]) == Abs(c, p) &&
          pos.stamp[k][j] > pos.stamp[c][i])
        return false;
  }
  return true;
}

// mixie_stack: the index of a top piece of colour c on absolute square a, or
// -1 when c has none there or another colour's piece is on top.
int TopPieceOn(const Pos& pos, int c, int a) {
  for (int i = 0; i < 4; ++i)
    if (OnTrack(pos.sq[c][i]) && Abs(c, pos.sq[c][i]) == a && OnTop(pos, c, i)) return i;
  return -1;
}

// Every opponent piece (of m's opponents) on absolute square a goes to base.
void KnockOff(Pos& pos, int m, int a) {
  for (int c = 0; c < g.colours; ++c) {
    if (!Opponents(c, m)) continue;
    for (int& p : pos.sq[c])
      if (OnTrack(p) && Abs(c, p) == a) p = kBase;
  }
}

// Absolute square of colour L's square g.last, in line with L's lane.
int InLine(int L) { return Abs(L, g.last); }

// Whether a piece of any of L's opponents stands on L's square 50.
bool OpponentInLine(const Pos& pos, int L) {
  for (int c = 0; c < g.colours; ++c)
    if (Opponents(c, L) && CountOn(pos, c, InLine(L)) > 0) return true;
  return false;
}

// After every play: the attempt counters of L are cleared when no opponent
// of L stands in line with L's lane any more.
void ClearStaleAttempts(Pos& pos) {
  for (int L = 0; L < g.colours; ++L) {
    if (!OpponentInLine(pos, L)) pos.suck[L] = pos.blow[L] = 0;
  }
}

std::string SquareText(int p) {
  if (p == kBase) return "b";
  if (p == g.home) return "h";
  return std::to_string(p);
}

std::string ColourList(const std::array<bool, 6>& set) {
  std::string s;
  for (int c = 0; c < g.colours; ++c)
    if (set[c]) s += kColourLetters[c];
  return s;
}

std::string ToUfen(const Pos& pos) {
  std::string out;
  for (int c = 0; c < g.colours; ++c) {
    std::array<int, 4> v = pos.sq[c];
    std::sort(v.begin(), v.end());  // kBase (-1) first, home last
    if (c > 0) out += '/';
    for (int i = 0; i < 4; ++i) {
      if (i > 0) out += ',';
      out += SquareText(v[i]);
    }
  }
  out += ' ';
  out += kColourLetters[pos.to_throw];
  std::vector<std::string> tokens;
  if (pos.challenge)
    tokens.push_back("c" + SquareText(pos.challenge_sq) + ":" + std::to_string(pos.challenge_n));
  if (pos.x > 0) tokens.push_back("x" + std::to_string(pos.x));
  if (ColourList(pos.released) != "") tokens.push_back("p" + ColourList(pos.released));
  if (ColourList(pos.first) != "") tokens.push_back("s" + ColourList(pos.first));
  if (ColourList(pos.second) != "") tokens.push_back("S" + ColourList(pos.second));
  for (int c = 0; c < g.colours; ++c)
    if (pos.suck[c] > 0)
      tokens.push_back(std::string("k") + kColourLetters[c] + std::to_string(pos.suck[c]));
  for (int c = 0; c < g.colours; ++c)
    if (pos.blow[c] > 0)
      tokens.push_back(std::string("K") + kColourLetters[c] + std::to_string(pos.blow[c]));
  if (pos.stacks) {
    for (int team = 0; team < g.colours; ++team) {  // a side's first colour
      bool first_of_side = Team(team) == team;
      // rel g.track - 1 (behind the first colour's doorstep) holds a stack
      // of the side's other colours with teams of three.
      for (int rel = 0; rel < g.track && first_of_side; ++rel) {
        int a = Abs(team, rel);
        if (!Mixed(pos, team, a)) continue;
        std::vector<std::pair<int, char>> order;
        for (int k = 0; k < g.colours; ++k)
          for (int j = 0; j < 4 && Team(k) == team; ++j)
            if (OnTrack(pos.sq[k][j]) && Abs(k, pos.sq[k][j]) == a)
              order.push_back({pos.stamp[k][j], kColourLetters[k]});
        std::stable_sort(order.begin(), order.end(),
                         [](auto x, auto y) { return x.first < y.first; });
        std::string t = std::string("m") + kColourLetters[team] + std::to_string(rel) + ":";
        for (auto [st, ch] : order) t += ch;
        tokens.push_back(t);
      }
    }
  }
  out += ' ';
  if (tokens.empty()) out += '-';
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0) out += ',';
    out += tokens[i];
  }
  return out;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  parts.push_back(cur);
  return parts;
}

int ParseNumber(const std::string& s, int lo, int hi, const std::string& what) {
  if (s.empty() || s.size() > 3) Bad("bad " + what + " '" + s + "'");
  for (char ch : s)
    if (ch < '0' || ch > '9') Bad("bad " + what + " '" + s + "'");
  int v = std::stoi(s);
  if (v < lo || v > hi) Bad(what + " out of range '" + s + "'");
  return v;
}

int ParseColour(char ch) {
  for (int c = 0; c < g.colours; ++c)
    if (kColourLetters[c] == ch) return c;
  Bad(std::string("bad colour '") + ch + "'");
}

std::array<bool, 6> ParseColourList(const std::string& s) {
  if (s.empty()) Bad("empty colour list");
  std::array<bool, 6> set{};
  for (char ch : s) {
    int c = ParseColour(ch);
    if (set[c]) Bad("colour repeated in '" + s + "'");
    set[c] = true;
  }
  return set;
}

// A released colour moves the first partner after it in turn order that
// still has a piece not home (§7, §11).
int MovingColour(const Pos& pos) {
  int c = pos.to_throw;
  if (!pos.released[c]) return c;
  for (int k = 1; k < g.colours; ++k) {
    int p = (c + k) % g.colours;
    if (Partners(p, c) && !AllHome(pos, p)) return p;
  }
  return c;
}

// Sixes needed by a challenge from `from` (kBase or 0..last-1) of colour m.
int ChallengeNeed(const Pos& pos, const Rules& r, int m, int from) {
  int blob_abs = from == kBase ? Abs(m, 0) : Abs(m, from + 1);
  int need = OpponentBlobSize(pos, m, blob_abs) + (from == kBase ? 2 : 1);
  return r.one_less_six ? need - 1 : need;
}

// Whether colour m may declare a challenge from `from` (kBase or 0..last-1).
bool ChallengeAllowed(const Pos& pos, const Rules& r, int m, int from) {
  if (from == kBase) {
    bool in_base = false;
    for (int p : pos.sq[m])
      if (p == kBase) in_base = true;
    return in_base && OpponentBlobSize(pos, m, Abs(m, 0)) > 0;
  }
  if (CountOn(pos, m, Abs(m, from)) == 0) return false;
  if (!r.mixie_can_challenge && PartnerCountOn(pos, m, Abs(m, from)) > 0) return false;
  if (TopPieceOn(pos, m, Abs(m, from)) < 0) return false;  // mixie_stack
  return OpponentBlobSize(pos, m, Abs(m, from + 1)) > 0;
}

Pos ParseUfen(const std::string& text, const Rules& r) {
  std::vector<std::string> fields = Split(text, ' ');
  if (fields.size() != 3) Bad("UFEN needs 3 space-separated fields");
  Pos pos;
  pos.stacks = r.mixie_stack;
  std::vector<std::string> colours = Split(fields[0], '/');
  if (static_cast<int>(colours.size()) != g.colours) Bad("UFEN needs one field per colour");
  for (int c = 0; c < g.colours; ++c) {
    std::vector<std::string> pieces = Split(colours[c], ',');
    if (pieces.size() != 4) Bad("each colour needs 4 pieces");
    for (int i = 0; i < 4; ++i) {
      const std::string& s = pieces[i];
      if (s == "b")
        pos.sq[c][i] = kBase;
      else if (s == "h")
        pos.sq[c][i] = g.home;
      else
        pos.sq[c][i] = ParseNumber(s, 0, g.home - 1, "square");
    }
  }
  if (fields[1].size() != 1) Bad("bad colour to throw");
  pos.to_throw = ParseColour(fields[1][0]);
  if (fields[2] != "-") {
    std::set<char> seen;
    for (const std::string& tok : Split(fields[2], ',')) {
      if (tok.empty()) Bad("empty state token");
      char kind = tok[0];
      std::string rest = tok.substr(1);
      if (kind == 'k' || kind == 'K') {  // one per colour and kind
        if (!r.suck_back) Bad("k/K token needs suck_back");
        if (rest.size() != 2) Bad("bad attempts token '" + tok + "'");
        int L = ParseColour(rest[0]);
        int n = ParseNumber(rest.substr(1), 1, 2, "attempts");
        std::array<int, 6>& counts = kind == 'k' ? pos.suck : pos.blow;
        if (counts[L] != 0) Bad("attempts token repeated '" + tok + "'");
        counts[L] = n;
        continue;
      }
      if (kind == 'm') {  // m<r|g><sq>:<colours bottom to top>
        if (!r.mixie_stack) Bad("m token needs mixie_stack");
        size_t colon = rest.find(':');
        if (colon == std::string::npos || colon < 2) Bad("bad m token '" + tok + "'");
        int team = ParseColour(rest[0]);
        if (Team(team) != team) Bad("m token colour must be a side's first colour");
        int a = Abs(team, ParseNumber(rest.substr(1, colon - 1), 0, g.track - 1, "stack square"));
        std::string list = rest.substr(colon + 1);
        std::array<int, 6> used{};
        for (char ch : list) {
          int k = ParseColour(ch);
          if (Team(k) != team) Bad("m token colour of the other team");
          int found = -1;
          for (int j = 0; j < 4 && found < 0; ++j)
            if (OnTrack(pos.sq[k][j]) && Abs(k, pos.sq[k][j]) == a && pos.stamp[k][j] == 0)
              found = j;
          if (found < 0) Bad("m token lists more pieces than stand there");
          Arrived(pos, k, found);
          ++used[k];
        }
        int kinds = 0;
        for (int k = 0; k < g.colours; ++k) {
          if (Team(k) != team) continue;
          if (used[k] != CountOn(pos, k, a)) Bad("m token does not match the pieces");
          kinds += used[k] > 0;
        }
        if (kinds < 2) Bad("m token of one colour");
        continue;
      }
      if (!seen.insert(kind).second) Bad("state token repeated");
      switch (kind) {
        case 'c': {
          size_t colon = rest.find(':');
          if (colon == std::string::npos) Bad("bad c token");
          std::string from = rest.substr(0, colon);
          pos.challenge = true;
          pos.challenge_sq =
              from == "b" ? kBase : ParseNumber(from, 0, g.last - 1, "challenge square");
          pos.challenge_n = ParseNumber(rest.substr(colon + 1), 1, 99, "challenge count");
          break;
        }
        case 'x':
          if (!r.double_six_two_throws) Bad("x token needs double_six_two_throws");
          pos.x = ParseNumber(rest, 1, 99, "extra throws");
          break;
        case 'p':
          pos.released = ParseColourList(rest);
          break;
        case 's':
          if (!r.snake_eyes) Bad("s token needs snake_eyes");
          pos.first = ParseColourList(rest);
          break;
        case 'S':
          if (!r.snake_eyes) Bad("S token needs snake_eyes");
          pos.second = ParseColourList(rest);
          break;
        default:
          Bad("unknown state token '" + tok + "'");
      }
    }
  }
  // Consistency.
  for (int a = 0; a < g.track; ++a) {
    int sides_there = 0;
    std::array<bool, 6> side_there{};
    for (int c = 0; c < g.colours; ++c)
      if (CountOn(pos, c, a) > 0 && !side_there[Team(c)]) {
        side_there[Team(c)] = true;
        ++sides_there;
      }
    if (sides_there > 1) Bad("two sides on one square");
  }
  int sides_home = 0;
  for (int c = 0; c < g.colours; ++c)
    if (Team(c) == c && TeamHome(pos, c)) ++sides_home;
  if (sides_home > 1) Bad("two sides home");
  for (int c = 0; c < g.colours && r.mixie_stack; ++c)
    for (int i = 0; i < 4; ++i)
      if (OnTrack(pos.sq[c][i]) && Mixed(pos, c, Abs(c, pos.sq[c][i])) && pos.stamp[c][i] == 0)
        Bad("a square with two colours of a side has no m token");
  for (int c = 0; c < g.colours; ++c)
    if (pos.released[c] && !AllHome(pos, c)) Bad("released colour with pieces not home");
  if (pos.challenge) {
    int m = MovingColour(pos);
    if (!ChallengeAllowed(pos, r, m, pos.challenge_sq))
      Bad("c token with no challenge possible there");
    if (pos.challenge_n >= ChallengeNeed(pos, r, m, pos.challenge_sq))
      Bad("c token count already at the need");
  }
  if (GameOver(pos) && pos.x > 0) Bad("x token in a finished game");
  for (int L = 0; L < g.colours; ++L)
    if ((pos.suck[L] > 0 || pos.blow[L] > 0) && !OpponentInLine(pos, L))
      Bad("k/K token with no opponent in line with the lane");
  return pos;
}

// ---------------------------------------------------------------- moves ---

// Whether an opponent blob (of m's opponents) stands on m's relative main
// track square rel (0..last).
bool BlockedAt(const Pos& pos, int m, int rel) { return OpponentBlobSize(pos, m, Abs(m, rel)) > 0; }

// Colour m enters piece i (in base) on its doorstep.
bool Enter(Pos& pos, int m, int i) {
  if (pos.sq[m][i] != kBase) return false;
  if (BlockedAt(pos, m, 0)) return false;
  KnockOff(pos, m, Abs(m, 0));
  pos.sq[m][i] = 0;
  Arrived(pos, m, i);
  return true;
}

// Colour m moves piece i (on the board, not home) by n squares as one move.
// c is the colour throwing (for no_partner_pipe_moves).
bool Step(Pos& pos, const Rules& r, int c, int m, int i, int n) {
  int from = pos.sq[m][i];
  if (from < 0 || from >= g.home) return false;
  if (!OnTop(pos, m, i)) return false;  // mixie_stack: only the top moves
  if (r.no_partner_pipe_moves && m != c && from > g.last) return false;
  int q = from + n;
  if (q > g.home) {
    if (!r.bounce_back) return false;
    q = 2 * g.home - from - n;
    for (int s = from + 1; s <= g.last; ++s)
      if (BlockedAt(pos, m, s)) return false;
    for (int s = q; s <= g.last; ++s)
      if (BlockedAt(pos, m, s)) return false;
  } else {
    for (int s = from + 1; s <= std::min(q, g.last); ++s)
      if (BlockedAt(pos, m, s)) return false;
  }
  pos.sq[m][i] = q;
  if (q <= g.last) KnockOff(pos, m, Abs(m, q));
  Arrived(pos, m, i);
  return true;
}

// One die d on piece i: enters it (d == 6, piece in base) or steps it.
bool ApplyDie(Pos& pos, const Rules& r, int c, int m, int i, int d, bool* entered) {
  *entered = false;
  if (pos.sq[m][i] == kBase) {
    if (d != 6) return false;
    *entered = true;
    return Enter(pos, m, i);
  }
  return Step(pos, r, c, m, i, d);
}

// ------------------------------------------------------------ turn flow ---

void PassTurn(Pos& pos) {
  pos.to_throw = (pos.to_throw + 1) % g.colours;
  pos.x = 0;
  pos.challenge = false;
}

// Turn flow after an ordinary play (moves or pass) by colour c moving m.
void FinishOrdinary(Pos& pos, const Rules& r, int c, int m, int sixes, bool is_double) {
  if (TeamHome(pos, Team(m))) {  // game over: c stays to throw
    pos.to_throw = c;
    pos.x = 0;
    pos.challenge = false;
    return;
  }
  if (m == c && AllHome(pos, c)) {  // last piece home: owed throws are lost
    PassTurn(pos);
    return;
  }
  // A six earns a throw; with doubles_throw_again so does any double.
  bool earns = sixes > 0 || (is_double && r.doubles_throw_again);
  int earned = !earns ? 0 : (sixes == 2 && r.double_six_two_throws ? 2 : 1);
  if (pos.x + earned > 0) {
    pos.x = pos.x + earned - 1;
    pos.to_throw = c;
    pos.challenge = false;
  } else {
    PassTurn(pos);
  }
}

using Results = std::map<std::string, Pos>;

// Every play of every kind ends here: stale attempt counters are cleared.
void Add(Results& out, const Pos& played) {
  Pos pos = played;
  ClearStaleAttempts(pos);
  out.emplace(ToUfen(pos), pos);
}

// All results of the throw (d1, d2) in pos.
Results Generate(const Pos& start, const Rules& r, int d1, int d2) {
  Results out;
  if (GameOver(start)) return out;
  const int c = start.to_throw;
  const int m = MovingColour(start);
  const int sixes = (d1 == 6) + (d2 == 6);
  const bool snake = d1 == 1 && d2 == 1;

  // Any throw by c takes c out of s and S.
  Pos base = start;
  const bool was_first = base.first[c], was_second = base.second[c];
  base.first[c] = base.second[c] = false;

  // 1. Challenge under way: the only play is '-'.
  if (base.challenge) {
    Pos pos = base;
    int need = ChallengeNeed(pos, r, m, pos.challenge_sq);
    pos.challenge_n += sixes;
    if (sixes == 0) {
      PassTurn(pos);
    } else if (pos.challenge_n >= need) {
      int target = pos.challenge_sq == kBase ? 0 : pos.challenge_sq + 1;
      KnockOff(pos, m, Abs(m, target));
      for (int i = 0; i < 4; ++i) {
        if (pos.sq[m][i] == pos.challenge_sq && OnTop(pos, m, i)) {
          pos.sq[m][i] = target;
          Arrived(pos, m, i);
          break;
        }
      }
      if (r.throw_after_challenge) {
        pos.challenge = false;
        pos.x = 0;
      } else {
        PassTurn(pos);
      }
    }
    Add(out, pos);
    return out;
  }

  // 2. Release throw.
  if (AllHome(base, c) && !base.released[c]) {
    Pos pos = base;
    if (sixes > 0) pos.released[c] = true;
    PassTurn(pos);
    Add(out, pos);
    return out;
  }

  // 3. Snake eyes.
  if (r.snake_eyes && snake) {
    if (was_second) {
      Pos pos = base;
      for (int& p : pos.sq[c])
        if (p != g.home) p = kBase;
      PassTurn(pos);
      Add(out, pos);
      return out;
    }
    if (was_first && !BlockedAt(base, c, 0)) {
      Pos pos = base;
      KnockOff(pos, c, Abs(c, 0));
      for (int i = 0; i < 4; ++i)
        if (pos.sq[c][i] == kBase) {
          pos.sq[c][i] = 0;
          Arrived(pos, c, i);
        }
      pos.second[c] = true;
      PassTurn(pos);
      Add(out, pos);
      return out;
    }
  }

  // 4. Ordinary throw. Raw positions after the moves, by category.
  std::vector<Pos> both, high, low, exact_home;
  const int hi = std::max(d1, d2), lo = std::min(d1, d2);
  // Both dice on (possibly) two pieces, either order.
  for (auto [da, db] : {std::pair{d1, d2}, std::pair{d2, d1}}) {
    for (int i = 0; i < 4; ++i) {
      Pos a = base;
      bool entered = false;
      bool was_on_board = base.sq[m][i] >= 0 && base.sq[m][i] < g.home;
      if (!ApplyDie(a, r, c, m, i, da, &entered)) continue;
      for (int j = 0; j < 4; ++j) {
        if (j == i && !(entered || (r.split_single_piece && was_on_board))) continue;
        Pos b = a;
        bool entered2 = false;
        if (ApplyDie(b, r, c, m, j, db, &entered2)) both.push_back(b);
      }
    }
  }
  // Both dice summed on one piece, as one move.
  for (int i = 0; i < 4; ++i) {
    Pos a = base;
    if (Step(a, r, c, m, i, d1 + d2)) both.push_back(a);
  }
  // blob_on_blob: on a double, two pieces of m's blob jump/hit the opponent
  // blob directly in front.
  if (r.blob_on_blob && d1 == d2) {
    const int d = d1;
    for (int p = 0; p <= g.last - 1; ++p) {
      int a = Abs(m, p);
      if (CountOn(base, m, a) < 2 || PartnerCountOn(base, m, a) > 0) continue;
      if (r.superblob && CountOn(base, m, a) >= 3) continue;  // a superblob never moves as one
      if (!BlockedAt(base, m, p + 1)) continue;
      bool blocked = false;
      for (int s = p + 2; s <= std::min(p + d, g.last); ++s)
        if (BlockedAt(base, m, s)) blocked = true;
      if (blocked) continue;
      Pos b = base;
      int moved = 0;
      for (int i = 0; i < 4; ++i) {
        if (moved < 2 && b.sq[m][i] == p) {
          b.sq[m][i] = p + d;
          Arrived(b, m, i);
          ++moved;
        }
      }
      if (p + d <= g.last) KnockOff(b, m, Abs(m, p + d));
      both.push_back(b);
    }
  }
  // One die alone.
  for (int i = 0; i < 4; ++i) {
    bool entered = false;
    Pos a = base;
    if (ApplyDie(a, r, c, m, i, hi, &entered)) high.push_back(a);
    Pos b = base;
    if (ApplyDie(b, r, c, m, i, lo, &entered)) low.push_back(b);
  }
  // Rule 10(b): the last piece not home may go exactly home with one die.
  {
    int not_home = 0, last = -1;
    for (int i = 0; i < 4; ++i)
      if (base.sq[m][i] != g.home) {
        ++not_home;
        last = i;
      }
    if (not_home == 1 && base.sq[m][last] >= 0) {
      for (int d : {d1, d2}) {
        if (base.sq[m][last] + d != g.home) continue;
        Pos a = base;
        if (Step(a, r, c, m, last, d)) exact_home.push_back(a);
      }
    }
  }
  // Use as much of the throw as possible.
  std::vector<Pos> chosen;
  if (!both.empty())
    chosen = both;
  else if (!high.empty())
    chosen = high;
  else if (!low.empty())
    chosen = low;
  for (const Pos& p : exact_home) chosen.push_back(p);
  if (chosen.empty()) chosen.push_back(base);  // pass
  for (Pos pos : chosen) {
    FinishOrdinary(pos, r, c, m, sixes, d1 == d2);
    Add(out, pos);
  }
  // Challenges: an alternative on any throw with a six.
  if (sixes > 0) {
    for (int from = kBase; from <= g.last - 1; ++from) {
      if (!ChallengeAllowed(base, r, m, from)) continue;
      Pos pos = base;
      pos.challenge = true;
      pos.challenge_sq = from;
      pos.challenge_n = 1;
      pos.x = 0;
      pos.to_throw = c;
      Add(out, pos);
    }
  }
  // suck_back (var. G): calls, alternatives on any ordinary throw. The
  // call's throw hits lane square q when either die or the sum is q - 50.
  if (r.suck_back) {
    auto hits = [&](int q) {
      int k = q - g.last;
      return d1 == k || d2 == k || d1 + d2 == k;
    };
    // Suck back: m stands on opponent L's square g.last; L has lane pieces.
    for (int L = 0; L < g.colours; ++L) {
      if (!Opponents(m, L)) continue;
      if (CountOn(base, m, InLine(L)) == 0) continue;
      if (TopPieceOn(base, m, InLine(L)) < 0) continue;  // mixie_stack
      if (base.suck[L] >= 2) continue;
      for (int q = g.last + 1; q < g.home; ++q) {
        bool lane_piece = false;
        for (int p : base.sq[L])
          if (p == q) lane_piece = true;
        if (!lane_piece) continue;
        Pos pos = base;
        pos.suck[L] += 1;
        if (hits(q)) {
          for (int& p : pos.sq[L])
            if (p == q) p = kBase;
          // One piece of m in line moves on one square by the usual rules
          // (an opponent blob in front blocks it: it stays).
          Step(pos, r, c, m, TopPieceOn(pos, m, InLine(L)), 1);
        }
        FinishOrdinary(pos, r, c, m, sixes, d1 == d2);
        Add(out, pos);
      }
    }
    // Blow back: m has pieces in its own lane, an opponent stands on m's 50.
    if (base.blow[m] < 2 && OpponentInLine(base, m)) {
      for (int q = g.last + 1; q < g.home; ++q) {
        bool lane_piece = false;
        for (int p : base.sq[m])
          if (p == q) lane_piece = true;
        if (!lane_piece) continue;
        Pos pos = base;
        pos.blow[m] += 1;
        bool stack_there = false;
        for (int k = 0; k < g.colours; ++k)
          if (Opponents(k, m) && Mixed(base, k, InLine(m))) stack_there = true;
        if (hits(q) && base.stacks && stack_there) {
          // mixie_stack: blow back sends only the stack's top piece home.
          for (int k = 0; k < g.colours; ++k) {
            if (!Opponents(k, m)) continue;
            int top = TopPieceOn(pos, k, InLine(m));
            if (top >= 0) {
              pos.sq[k][top] = kBase;
              break;
            }
          }
        } else if (hits(q)) {
          KnockOff(pos, m, InLine(m));
        }
        FinishOrdinary(pos, r, c, m, sixes, d1 == d2);
        Add(out, pos);
      }
    }
  }
  return out;
}

uint64_t PerftPos(const Pos& pos, const Rules& r, int depth) {
  if (depth == 0 || GameOver(pos)) return 1;
  uint64_t total = 0;
  for (int d1 = 1; d1 <= 6; ++d1) {
    for (int d2 = d1; d2 <= 6; ++d2) {
      Results res = Generate(pos, r, d1, d2);
      if (depth == 1) {
        total += res.size();
      } else {
        for (const auto& [ufen, next] : res) total += PerftPos(next, r, depth - 1);
      }
    }
  }
  return total;
}

}  // namespace

std::vector<std::string> LegalResults(const std::string& ufen, const std::string& rules, int d1,
                                      int d2) {
  Rules r = ParseRules(rules);
  Pos pos = ParseUfen(ufen, r);
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) Bad("dice must be 1..6");
  std::vector<std::string> out;
  for (const auto& [text, next] : Generate(pos, r, d1, d2)) out.push_back(text);
  return out;  // std::map keeps them sorted ascending
}

uint64_t Perft(const std::string& ufen, const std::string& rules, int depth) {
  Rules r = ParseRules(rules);
  Pos pos = ParseUfen(ufen, r);
  if (depth < 0) Bad("negative depth");
  return PerftPos(pos, r, depth);
}

}  // namespace uckers::reference
