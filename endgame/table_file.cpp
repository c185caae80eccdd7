// The endgame table file (docs/endgames.md, "File format").
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "endgame/table.h"

namespace uckers {
namespace {

constexpr char kMagic[8] = {'U', 'C', 'K', 'E', 'R', 'S', 'E', 'G'};
constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kMaxHeaderBytes = 1 << 16;
constexpr size_t kPreambleBytes = sizeof(kMagic) + 8;
constexpr char kOutcomes[] = "win_plain";
constexpr char kEncoding[] = "u16le/65535";

void PutU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
}

uint32_t GetU32(const std::string& in, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<uint8_t>(in[at + i])} << (8 * i);
  return v;
}

// FNV-1a, 64 bits, over the value bytes.
uint64_t Checksum(const char* data, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= static_cast<uint8_t>(data[i]);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string OnOff(bool on) { return on ? "on" : "off"; }

// Every switch of the file against `rules`: names the first difference.
absl::Status CheckSwitches(const std::multimap<std::string, std::string>& fields,
                           const Rules& rules, const std::string& file_rules) {
  std::map<std::string, std::string> in_file;
  auto [lo, hi] = fields.equal_range("switch");
  for (auto it = lo; it != hi; ++it) {
    std::vector<std::string> parts = absl::StrSplit(it->second, ' ');
    if (parts.size() != 2 || (parts[1] != "on" && parts[1] != "off")) {
      return absl::DataLossError(absl::StrCat("malformed switch line '", it->second, "'"));
    }
    in_file[parts[0]] = parts[1];
  }
  for (int i = 0; i < kNumSwitches; ++i) {
    Switch s = static_cast<Switch>(i);
    std::string name(SwitchName(s));
    auto it = in_file.find(name);
    if (it == in_file.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat("the table does not list switch ", name, " (built by an older engine)"));
    }
    if (it->second != OnOff(rules.has(s))) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the table was built for rules '", file_rules, "' (", name, " ", it->second,
          "), the engine plays '", rules.ToString(), "' (", name, " ", OnOff(rules.has(s)), ")"));
    }
    in_file.erase(it);
  }
  if (!in_file.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the table was built with switch ", in_file.begin()->first, ", unknown to this engine"));
  }
  return absl::OkStatus();
}

// The header's "key value" lines; the value is the rest of the line.
absl::StatusOr<std::multimap<std::string, std::string>> ParseHeader(const std::string& text) {
  std::multimap<std::string, std::string> fields;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    size_t space = line.find(' ');
    if (space == absl::string_view::npos) {
      return absl::DataLossError(absl::StrCat("malformed header line '", line, "'"));
    }
    fields.emplace(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
  }
  return fields;
}

std::string Field(const std::multimap<std::string, std::string>& fields, const std::string& key) {
  auto it = fields.find(key);
  return it == fields.end() ? "" : it->second;
}

// Class, outcomes, encoding and shapes of the header; the expected value
// bytes in `value_bytes`.
absl::StatusOr<EndgameClass> CheckLayout(const std::multimap<std::string, std::string>& fields,
                                         size_t* value_bytes) {
  absl::StatusOr<EndgameClass> cls = ClassByName(Field(fields, "class"));
  if (!cls.ok()) return cls.status();
  if (Field(fields, "outcomes") != kOutcomes || Field(fields, "encoding") != kEncoding) {
    return absl::DataLossError(absl::StrCat("unknown value layout (outcomes '",
                                            Field(fields, "outcomes"), "', encoding '",
                                            Field(fields, "encoding"), "')"));
  }
  std::string expected;
  *value_bytes = 0;
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    if (!ClassHasShape(*cls, s)) continue;
    absl::StrAppend(&expected, ShapeName(s), " ", ShapeSize(s), ";");
    *value_bytes += 2 * size_t{ShapeSize(s)};
  }
  std::string shapes;
  auto [lo, hi] = fields.equal_range("shape");
  for (auto it = lo; it != hi; ++it) absl::StrAppend(&shapes, it->second, ";");
  if (shapes != expected) {
    return absl::DataLossError(absl::StrCat("shapes '", shapes, "' do not match class ",
                                            ClassName(*cls), " ('", expected, "')"));
  }
  return *cls;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot open the file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return absl::DataLossError("cannot read the file");
  return buffer.str();
}

absl::StatusOr<EndgameTable> Parse(const std::string& bytes, const Rules& rules) {
  if (bytes.size() < kPreambleBytes || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return absl::InvalidArgumentError("not an Uckers endgame table (bad magic)");
  }
  uint32_t version = GetU32(bytes, 8);
  if (version != kFormatVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        "table format version ", version, ", this engine reads version ", kFormatVersion));
  }
  uint32_t header_bytes = GetU32(bytes, 12);
  if (header_bytes > kMaxHeaderBytes || kPreambleBytes + header_bytes > bytes.size()) {
    return absl::DataLossError("header length out of range (truncated file?)");
  }
  absl::StatusOr<std::multimap<std::string, std::string>> fields =
      ParseHeader(bytes.substr(kPreambleBytes, header_bytes));
  if (!fields.ok()) return fields.status();
  size_t value_bytes = 0;
  absl::StatusOr<EndgameClass> cls = CheckLayout(*fields, &value_bytes);
  if (!cls.ok()) return cls.status();
  if (absl::Status s = CheckSwitches(*fields, rules, Field(*fields, "rules")); !s.ok()) return s;
  size_t start = kPreambleBytes + header_bytes;
  if (bytes.size() - start != value_bytes) {
    return absl::DataLossError(absl::StrCat("holds ", bytes.size() - start,
                                            " value bytes, its class needs ", value_bytes));
  }
  uint64_t checksum = 0;
  if (!absl::SimpleHexAtoi(Field(*fields, "checksum"), &checksum) ||
      checksum != Checksum(bytes.data() + start, value_bytes)) {
    return absl::DataLossError("checksum mismatch (corrupt file)");
  }
  std::array<std::vector<uint16_t>, kNumEndgameShapes> wins;
  size_t at = start;
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    if (!ClassHasShape(*cls, s)) continue;
    wins[s].resize(ShapeSize(s));
    for (uint16_t& code : wins[s]) {
      code = static_cast<uint16_t>(static_cast<uint8_t>(bytes[at]) |
                                   static_cast<uint8_t>(bytes[at + 1]) << 8);
      at += 2;
    }
  }
  return EndgameTable(*cls, rules, std::move(wins));
}

}  // namespace

absl::StatusOr<EndgameTable> EndgameTable::Load(const std::string& path, const Rules& rules) {
  absl::StatusOr<std::string> bytes = ReadFile(path);
  absl::StatusOr<EndgameTable> table =
      bytes.ok() ? Parse(*bytes, rules) : absl::StatusOr<EndgameTable>(bytes.status());
  if (table.ok()) return table;
  return absl::Status(table.status().code(),
                      absl::StrCat("endgame table ", path, ": ", table.status().message()));
}

absl::StatusOr<EndgameTable> EndgameTable::Load(const std::string& path) {
  auto wrap = [&](const absl::Status& s) {
    return absl::Status(s.code(), absl::StrCat("endgame table ", path, ": ", s.message()));
  };
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return wrap(bytes.status());
  if (bytes->size() < kPreambleBytes || std::memcmp(bytes->data(), kMagic, sizeof(kMagic)) != 0) {
    return wrap(absl::InvalidArgumentError("not an Uckers endgame table (bad magic)"));
  }
  uint32_t header_bytes = GetU32(*bytes, 12);
  if (header_bytes > kMaxHeaderBytes || kPreambleBytes + header_bytes > bytes->size()) {
    return wrap(absl::DataLossError("header length out of range (truncated file?)"));
  }
  absl::StatusOr<std::multimap<std::string, std::string>> fields =
      ParseHeader(bytes->substr(kPreambleBytes, header_bytes));
  if (!fields.ok()) return wrap(fields.status());
  // The rules are the file's switches, whatever its preset's name means now.
  std::string spec = "navy";
  auto [lo, hi] = fields->equal_range("switch");
  for (auto it = lo; it != hi; ++it) {
    std::vector<std::string> parts = absl::StrSplit(it->second, ' ');
    if (parts.size() == 2 && parts[1] == "on") absl::StrAppend(&spec, "+", parts[0]);
  }
  absl::StatusOr<Rules> rules = Rules::Parse(spec);
  if (!rules.ok()) return wrap(absl::DataLossError(rules.status().message()));
  absl::StatusOr<EndgameTable> table = Parse(*bytes, *rules);
  if (!table.ok()) return wrap(table.status());
  return table;
}

absl::StatusOr<std::shared_ptr<const EndgameTable>> EndgameTable::LoadShared(
    const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const EndgameTable>>* tables =
      new std::map<std::string, std::shared_ptr<const EndgameTable>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = tables->find(path);
  if (it != tables->end()) return it->second;
  absl::StatusOr<EndgameTable> table = Load(path);
  if (!table.ok()) return table.status();
  auto shared = std::make_shared<const EndgameTable>(*std::move(table));
  (*tables)[path] = shared;
  return shared;
}

absl::Status EndgameTable::Save(const std::string& path) const {
  std::string values;
  for (const std::vector<uint16_t>& codes : wins_) {
    for (uint16_t code : codes) {
      values.push_back(static_cast<char>(code & 0xFF));
      values.push_back(static_cast<char>(code >> 8));
    }
  }
  std::string header =
      absl::StrCat("class ", ClassName(class_), "\nrules ", rules_.ToString(), "\n");
  for (int i = 0; i < kNumSwitches; ++i) {
    Switch s = static_cast<Switch>(i);
    absl::StrAppend(&header, "switch ", SwitchName(s), " ", OnOff(rules_.has(s)), "\n");
  }
  absl::StrAppend(&header, "outcomes ", kOutcomes, "\nencoding ", kEncoding, "\n");
  for (int s = 0; s < kNumEndgameShapes; ++s) {
    if (!wins_[s].empty())
      absl::StrAppend(&header, "shape ", ShapeName(s), " ", ShapeSize(s), "\n");
  }
  absl::StrAppend(&header, "checksum ",
                  absl::StrFormat("%016x", Checksum(values.data(), values.size())), "\n");
  std::string out(kMagic, sizeof(kMagic));
  PutU32(out, kFormatVersion);
  PutU32(out, static_cast<uint32_t>(header.size()));
  out += header;
  out += values;
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return absl::PermissionDeniedError(absl::StrCat("cannot write ", path));
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  file.close();
  if (!file) return absl::DataLossError(absl::StrCat("error writing ", path));
  return absl::OkStatus();
}

}  // namespace uckers
