#include "endgame/endgame.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/types.h"

namespace uckers {
namespace {

constexpr char kMagic[8] = {'U', 'C', 'K', 'E', 'G', 'T', 'B', '\n'};
constexpr uint32_t kVersion = 1;
constexpr int kSquares = 57;  // base, 0..55

// Successor codes of the solver: a class index shifted left by one with the
// low bit set when the team to throw changes, or one of these terminals.
constexpr int32_t kTerminalWin = -1;
constexpr int32_t kTerminalLoss = -2;

struct Fields {
  int released_choice[2];  // 0: colour `team` released, 1: colour team + 2
  Square square[2];        // the team's one piece not home
  int to_throw;
};

size_t Encode(const Fields& f) {
  size_t i = f.released_choice[0] * 2 + f.released_choice[1];
  i = i * kSquares + (f.square[0] + 1);
  i = i * kSquares + (f.square[1] + 1);
  return i * 4 + f.to_throw;
}

Fields Decode(size_t i) {
  Fields f;
  f.to_throw = static_cast<int>(i % 4);
  i /= 4;
  f.square[1] = static_cast<Square>(static_cast<int>(i % kSquares) - 1);
  i /= kSquares;
  f.square[0] = static_cast<Square>(static_cast<int>(i % kSquares) - 1);
  i /= kSquares;
  f.released_choice[1] = static_cast<int>(i % 2);
  f.released_choice[0] = static_cast<int>(i / 2);
  return f;
}

int MovingColourOf(const Fields& f, int team) { return team + 2 * (1 - f.released_choice[team]); }

absl::Status CheckRules(const Rules& rules) {
  for (Switch s :
       {Switch::kSuckBack, Switch::kSnakeEyes, Switch::kDoubleSixTwoThrows, Switch::kMixieStack}) {
    if (rules.has(s)) {
      return absl::InvalidArgumentError(
          absl::StrCat("endgame class 1v1 does not model switch ", SwitchName(s)));
    }
  }
  return absl::OkStatus();
}

uint64_t Checksum(const std::vector<float>& values) {
  uint64_t h = 1469598103934665603ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  for (size_t i = 0; i < values.size() * sizeof(float); ++i) {
    h = (h ^ bytes[i]) * 1099511628211ull;
  }
  return h;
}

}  // namespace

std::optional<Position> EndgameTable::PositionAt(size_t index, const Rules& rules) {
  if (index >= kSlots) return std::nullopt;
  Fields f = Decode(index);
  Square sq[2] = {f.square[0], f.square[1]};
  if (OnTrack(sq[0]) && OnTrack(sq[1]) &&
      AbsoluteSquare(MovingColourOf(f, 0), sq[0]) == AbsoluteSquare(MovingColourOf(f, 1), sq[1])) {
    return std::nullopt;  // two teams never share a track square
  }
  Position pos = Position::Start(rules);
  uint8_t released = 0;
  for (int team = 0; team < 2; ++team) {
    int mover = MovingColourOf(f, team);
    pos.SetPieces(mover, {sq[team], kHome, kHome, kHome});
    pos.SetPieces(PartnerOf(mover), {kHome, kHome, kHome, kHome});
    released |= 1 << PartnerOf(mover);
  }
  pos.SetReleased(released);
  pos.SetSnakeFirst(0);
  pos.SetSnakeSecond(0);
  pos.ClearChallenge();
  pos.SetExtraOwed(0);
  pos.SetToThrow(f.to_throw);
  return pos;
}

std::optional<size_t> EndgameTable::IndexOf(const Position& pos) const {
  Fields f;
  f.to_throw = pos.to_throw();
  for (int team = 0; team < 2; ++team) {
    if (pos.released(team) == pos.released(team + 2)) return std::nullopt;
    f.released_choice[team] = pos.released(team) ? 0 : 1;
    f.square[team] = pos.pieces(MovingColourOf(f, team))[0];
  }
  if (f.square[0] == kHome || f.square[1] == kHome) return std::nullopt;
  size_t index = Encode(f);
  std::optional<Position> canonical = PositionAt(index, rules_);
  if (!canonical.has_value() || !(*canonical == pos)) return std::nullopt;
  if (values_.empty() || std::isnan(values_[index])) return std::nullopt;
  return index;
}

std::optional<double> EndgameTable::SuccessorValue(const Position& from,
                                                   const Position& after) const {
  int team = TeamOf(from.to_throw());
  if (after.IsGameOver()) return after.WinningTeam() == team ? 1.0 : 0.0;
  std::optional<size_t> index = IndexOf(after);
  if (!index.has_value()) return std::nullopt;
  double v = values_[*index];
  return TeamOf(after.to_throw()) == team ? v : 1.0 - v;
}

std::optional<double> EndgameTable::Probe(const Position& pos) const {
  std::optional<size_t> index = IndexOf(pos);
  if (!index.has_value()) return std::nullopt;
  return values_[*index];
}

absl::StatusOr<PlayResult> EndgameTable::BestPlay(const Position& pos, Throw t) const {
  if (!IndexOf(pos).has_value()) {
    return absl::InvalidArgumentError("position is not in endgame class 1v1");
  }
  PlayList plays;
  GenerateLegalPlays(pos, rules_, t, &plays);
  const PlayResult* best = nullptr;
  double best_value = -1.0;
  for (const PlayResult& r : plays) {
    std::optional<double> v = SuccessorValue(pos, r.after);
    if (!v.has_value()) {
      return absl::InternalError("a successor left endgame class 1v1");
    }
    if (*v > best_value) {
      best_value = *v;
      best = &r;
    }
  }
  if (best == nullptr) return absl::InternalError("no legal play");
  return *best;
}

size_t EndgameTable::size() const {
  return static_cast<size_t>(
      std::count_if(values_.begin(), values_.end(), [](float v) { return !std::isnan(v); }));
}

namespace {

// Every class position's successors per throw, as solver codes.
struct SuccessorGraph {
  std::vector<uint32_t> begin;  // kSlots * 21 + 1 offsets into codes
  std::vector<int32_t> codes;
};

absl::StatusOr<int32_t> CodeOf(const Position& from, const Position& after,
                               const std::optional<size_t>& index) {
  int team = TeamOf(from.to_throw());
  if (after.IsGameOver()) {
    return after.WinningTeam() == team ? kTerminalWin : kTerminalLoss;
  }
  if (!index.has_value()) {
    return absl::InternalError(
        "a successor left endgame class 1v1 (challenge or extra throw owed)");
  }
  bool flip = TeamOf(after.to_throw()) != team;
  return static_cast<int32_t>(*index * 2 + (flip ? 1 : 0));
}

double Backup(const SuccessorGraph& g, const std::vector<double>& v, size_t index) {
  double total = 0;
  for (size_t k = 0; k < kThrows.size(); ++k) {
    double best = 0;
    size_t slot = index * kThrows.size() + k;
    for (uint32_t j = g.begin[slot]; j < g.begin[slot + 1]; ++j) {
      int32_t c = g.codes[j];
      double x = c == kTerminalWin    ? 1.0
                 : c == kTerminalLoss ? 0.0
                 : (c & 1)            ? 1.0 - v[c >> 1]
                                      : v[c >> 1];
      best = std::max(best, x);
    }
    total += best * kThrows[k].Weight() / 36.0;
  }
  return total;
}

}  // namespace

absl::StatusOr<EndgameTable> EndgameTable::Build(const Rules& rules) {
  if (absl::Status s = CheckRules(rules); !s.ok()) return s;
  EndgameTable table(rules);
  table.values_.assign(kSlots, std::numeric_limits<float>::quiet_NaN());
  std::vector<Position> positions(kSlots);
  for (size_t i = 0; i < kSlots; ++i) {
    if (std::optional<Position> p = PositionAt(i, rules)) {
      positions[i] = *p;
      table.values_[i] = 0.0f;
    }
  }
  SuccessorGraph g;
  g.begin.push_back(0);
  PlayList plays;
  for (size_t i = 0; i < kSlots; ++i) {
    for (const Throw& t : kThrows) {
      if (!std::isnan(table.values_[i])) {
        GenerateLegalPlays(positions[i], rules, t, &plays);
        if (plays.empty()) return absl::InternalError("no legal play");
        for (const PlayResult& r : plays) {
          absl::StatusOr<int32_t> code = CodeOf(positions[i], r.after, table.IndexOf(r.after));
          if (!code.ok()) return code.status();
          g.codes.push_back(*code);
        }
      }
      g.begin.push_back(static_cast<uint32_t>(g.codes.size()));
    }
  }
  std::vector<double> v(kSlots, 0.0);
  for (double change = 1.0; change >= 1e-9;) {
    change = 0;
    for (size_t i = 0; i < kSlots; ++i) {
      if (std::isnan(table.values_[i])) continue;
      double x = Backup(g, v, i);
      change = std::max(change, std::abs(x - v[i]));
      v[i] = x;
    }
  }
  for (size_t i = 0; i < kSlots; ++i) {
    if (!std::isnan(table.values_[i])) table.values_[i] = static_cast<float>(v[i]);
  }
  return table;
}

namespace {

void PutString(std::ofstream& out, const std::string& s) {
  uint32_t n = static_cast<uint32_t>(s.size());
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(s.data(), n);
}

bool GetString(std::ifstream& in, std::string* s) {
  uint32_t n = 0;
  if (!in.read(reinterpret_cast<char*>(&n), sizeof n) || n > 4096) return false;
  s->resize(n);
  return static_cast<bool>(in.read(s->data(), n));
}

}  // namespace

absl::Status EndgameTable::Save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  out.write(kMagic, sizeof kMagic);
  out.write(reinterpret_cast<const char*>(&kVersion), sizeof kVersion);
  PutString(out, rules_.SwitchList());
  PutString(out, kClassName);
  uint64_t count = values_.size();
  out.write(reinterpret_cast<const char*>(&count), sizeof count);
  out.write(reinterpret_cast<const char*>(values_.data()),
            static_cast<std::streamsize>(count * sizeof(float)));
  uint64_t sum = Checksum(values_);
  out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

absl::StatusOr<EndgameTable> EndgameTable::Load(const std::string& path, const Rules& expected) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  char magic[sizeof kMagic];
  uint32_t version = 0;
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof magic)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not an endgame table"));
  }
  if (!in.read(reinterpret_cast<char*>(&version), sizeof version) || version != kVersion) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": unsupported table format version ", version));
  }
  std::string switches, name;
  if (!GetString(in, &switches) || switches != expected.SwitchList()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": table built for rules '", switches,
                                                   "', expected '", expected.SwitchList(), "'"));
  }
  if (!GetString(in, &name) || name != kClassName) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": table of class '", name, "', expected 1v1"));
  }
  uint64_t count = 0, sum = 0;
  if (!in.read(reinterpret_cast<char*>(&count), sizeof count) || count != kSlots) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": wrong table size"));
  }
  EndgameTable table(expected);
  table.values_.resize(kSlots);
  if (!in.read(reinterpret_cast<char*>(table.values_.data()),
               static_cast<std::streamsize>(kSlots * sizeof(float))) ||
      !in.read(reinterpret_cast<char*>(&sum), sizeof sum) ||
      in.peek() != std::char_traits<char>::eof()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": truncated or overlong"));
  }
  if (sum != Checksum(table.values_)) {
    return absl::DataLossError(absl::StrCat(path, ": checksum mismatch"));
  }
  return table;
}

}  // namespace uckers
