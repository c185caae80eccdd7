#include "record/text.h"

#include <cstdio>
#include <filesystem>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "dealer/dealer.h"
#include "rules/notation.h"
#include "rules/ufen.h"

namespace uckers {
namespace {

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("bad game record: ", what));
}

// The most points a result can carry: 3 from each of five losing sides.
constexpr int kMaxPoints = 3 * (kMaxColours - 1);

// Whether `key` could name a side: 1..3 distinct colour letters, upper case.
bool IsSideName(absl::string_view key) {
  if (key.empty() || key.size() > 3) return false;
  for (size_t i = 0; i < key.size(); ++i) {
    if (absl::string_view("RGYBOP").find(key[i]) == absl::string_view::npos) return false;
    if (key.substr(0, i).find(key[i]) != absl::string_view::npos) return false;
  }
  return true;
}

// `[Key "Value"]`.
absl::Status ParseHeader(absl::string_view line, int line_no, WrittenRecord* w) {
  Record* r = &w->headers;
  size_t quote = line.find('"');
  size_t last = line.rfind('"');
  if (line.back() != ']' || quote == absl::string_view::npos || last <= quote) {
    return Bad(absl::StrCat("line ", line_no, ": a header is [Key \"value\"]"));
  }
  std::string key(absl::StripAsciiWhitespace(line.substr(1, quote - 1)));
  std::string value(line.substr(quote + 1, last - quote - 1));
  if (key == "Rules") r->rules = value;
  if (key == "Switches") r->switches = value;
  if (key == "RY") r->ry = value;
  if (key == "GB") r->gb = value;
  if (key == "Date") r->date = value;
  if (key == "Start") r->start_ufen = value;
  if (key == "Commitment") r->dealer_commitment = value;
  if (key == "ClientSeed") r->client_seed = value;
  if (key == "ServerSecret") r->dealer_secret = value;
  if (key == "DealerKey") r->dealer_key = value;
  if (key == "DealerPublicKey") r->dealer_public_key = value;
  if (key == "DealerSignature") r->dealer_signature = value;
  if (key == "ClientValues") {
    r->client_values = absl::StrSplit(value, ' ', absl::SkipEmpty());
  }
  if (key == "Termination") {
    if (value != "time") {
      return Bad(absl::StrCat("line ", line_no, ": Termination \"", value,
                              "\" must be \"time\" (a clock ran out)"));
    }
    r->termination = value;
  }
  if (key == "Seed") {
    uint64_t seed = 0;
    if (!absl::SimpleAtoi(value, &seed)) {
      return Bad(absl::StrCat("line ", line_no, ": Seed \"", value, "\" is not a number"));
    }
    r->seed = seed;
  }
  if (key != "RY" && key != "GB" && IsSideName(key)) r->side_players.push_back({key, value});
  if (key == "Result" && value != "*") {
    std::vector<std::string> parts = absl::StrSplit(value, ' ');
    int points = 0;
    if (parts.size() != 2 || !IsSideName(parts[0]) || !absl::SimpleAtoi(parts[1], &points) ||
        points < 1 || points > kMaxPoints) {
      return Bad(absl::StrCat("line ", line_no, ": Result \"", value,
                              "\" must be a side and its points (\"RY 1..3\", \"GB 1..3\"; with "
                              "more sides \"RB 4\"...) or \"*\""));
    }
    r->winner = parts[0];
    r->points = points;
  }
  return absl::OkStatus();  // other headers are kept by nobody, as in PGN
}

// Replays `written` under `rules`; errors as ReplayRecord's, without the
// rules they were read with.
absl::StatusOr<Record> ReplayUnder(const WrittenRecord& written, const Rules& rules);

}  // namespace

absl::StatusOr<WrittenRecord> ParseWrittenRecord(const std::string& text) {
  WrittenRecord w;
  int line_no = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++line_no;
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      if (absl::Status s = ParseHeader(line, line_no, &w); !s.ok()) return s;
      continue;
    }
    for (absl::string_view token :
         absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty())) {
      w.items.emplace_back(token);
      if (token.find(':') == absl::string_view::npos) {
        return Bad(
            absl::StrCat("item ", w.items.size(), " '", token, "': expected <throw>:<play>"));
      }
    }
  }
  return w;
}

absl::StatusOr<Rules> RecordRules(const Record& record) {
  if (!record.switches.empty()) {
    absl::StatusOr<Rules> rules = Rules::Parse(record.switches);
    if (!rules.ok()) return Bad(absl::StrCat("Switches: ", rules.status().message()));
    return rules;
  }
  absl::StatusOr<Rules> rules = Rules::Parse(record.rules.empty() ? "navy" : record.rules);
  if (!rules.ok()) return Bad(absl::StrCat("Rules: ", rules.status().message()));
  return rules;
}

absl::StatusOr<Record> ReplayRecord(const WrittenRecord& written) {
  absl::StatusOr<Rules> rules = RecordRules(written.headers);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Record> record = ReplayUnder(written, *rules);
  if (record.ok()) return record;
  return absl::Status(
      record.status().code(),
      absl::StrCat(record.status().message(), " (read with rules ", rules->SwitchList(), ")"));
}

namespace {

absl::StatusOr<Record> ReplayUnder(const WrittenRecord& written, const Rules& rules) {
  Record record = written.headers;
  record.game = Game(rules);
  if (!record.start_ufen.empty()) {
    // A UFEN only: "startpos", which Game::FromStart also takes, is none.
    absl::StatusOr<Position> start = ParseUfen(record.start_ufen, rules);
    if (!start.ok()) return Bad(absl::StrCat("Start: ", start.status().message()));
    record.game = *Game::FromStart(rules, record.start_ufen);
  }
  Game& game = record.game;
  for (size_t i = 0; i < written.items.size(); ++i) {
    std::string where = absl::StrCat("item ", i + 1, " '", written.items[i], "': ");
    if (game.IsOver()) return Bad(absl::StrCat(where, "the game was already over"));
    if (absl::Status s = game.PlayItem(written.items[i]); !s.ok()) {
      return Bad(absl::StrCat(where, s.message()));
    }
  }
  const Position& pos = game.position();
  const Layout& layout = pos.layout();
  if (!layout.IsFourSidedTeams() && (!record.ry.empty() || !record.gb.empty())) {
    return Bad(
        "the RY and GB headers name the teams of the four-sided game of two teams; name "
        "each side by its colours (RULES.md §11)");
  }
  for (const SidePlayer& player : record.side_players) {
    if (SideByName(layout, player.side) < 0) {
      return Bad(absl::StrCat("header ", player.side, " names no side of these rules (sides ",
                              SideNames(layout), ")"));
    }
  }
  if (!record.winner.empty() && SideByName(layout, record.winner) < 0) {
    return Bad(absl::StrCat("the result names ", record.winner, ", no side of these rules (sides ",
                            SideNames(layout), ")"));
  }
  if (!record.termination.empty() && record.termination != "time") {
    return Bad(absl::StrCat("termination \"", record.termination, "\" must be \"time\" or empty"));
  }
  if (record.termination == "time") {
    if (layout.num_sides != 2) {
      return Bad("a loss on time needs two sides: with more, no one side wins it");
    }
    // The side to throw ran out of time: the other side wins, 1 point.
    std::string loser = SideName(layout, pos.SideOf(pos.to_throw()));
    if (pos.IsGameOver() || record.winner.empty() || record.winner == loser || record.points != 1) {
      return Bad(
          absl::StrCat("a loss on time needs a game still going and the result of the "
                       "other team than the one to throw, 1 point (",
                       loser, " was to throw)"));
    }
    return record;
  }
  if (!record.winner.empty()) {
    std::string winner = pos.IsGameOver() ? SideName(layout, pos.WinningSide()) : "";
    if (winner.empty()) {
      return Bad(absl::StrCat("truncated: the record ends after item ", written.items.size(),
                              " with the game still going, but its result says ", record.winner,
                              " won"));
    }
    int points = pos.Points()[pos.WinningSide()];
    if (winner != record.winner || points != record.points) {
      return Bad(absl::StrCat("the result says ", record.winner, " ", record.points,
                              " but the items end with ", winner, " ", points));
    }
  }
  SetRecordResult(pos, &record);
  return record;
}

}  // namespace

absl::StatusOr<Record> ParseTextRecord(const std::string& text) {
  absl::StatusOr<WrittenRecord> written = ParseWrittenRecord(text);
  if (!written.ok()) return written.status();
  return ReplayRecord(*written);
}

std::string RecordToText(const Record& r) {
  std::string out;
  auto header = [&](const char* key, const std::string& value) {
    if (!value.empty()) absl::StrAppend(&out, "[", key, " \"", value, "\"]\n");
  };
  const Game& game = r.game;
  header("Rules", r.rules.empty() ? "navy" : r.rules);
  header("Switches", r.switches);
  header("RY", r.ry);
  header("GB", r.gb);
  for (const SidePlayer& player : r.side_players) header(player.side.c_str(), player.player);
  if (r.seed) header("Seed", absl::StrCat(r.seed));
  header("Date", r.date);
  header("Start", r.start_ufen);
  header("Result", r.winner.empty() ? "*" : absl::StrCat(r.winner, " ", r.points));
  header("Termination", r.termination);
  header("Commitment", r.dealer_commitment);
  header("ClientSeed", r.client_seed);
  header("ServerSecret", r.dealer_secret);
  header("ClientValues", absl::StrJoin(r.client_values, " "));
  header("DealerKey", r.dealer_key);
  header("DealerPublicKey", r.dealer_public_key);
  header("DealerSignature", r.dealer_signature);
  out += "\n";
  size_t width = 0;
  for (const PlayedThrow& item : game.items()) {
    std::string token = absl::StrCat(ThrowToString(item.dice), ":", item.play);
    if (width > 0 && width + token.size() + 1 > 78) {
      out += "\n";
      width = 0;
    }
    if (width > 0) {
      out += " ";
      ++width;
    }
    out += token;
    width += token.size();
  }
  out += "\n";
  return out;
}

absl::Status WriteTextFile(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return absl::InternalError(absl::StrCat("cannot write ", path));
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

absl::Status CheckWritable(const std::string& path) {
  std::error_code ec;
  bool existed = std::filesystem::exists(path, ec);
  if (std::filesystem::is_directory(path, ec)) {
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", path, ": a directory"));
  }
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f || std::fclose(f) != 0) {
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", path));
  }
  if (!existed) std::filesystem::remove(path, ec);
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadTextFile(const std::string& path, size_t max_bytes) {
  if (path.empty()) return absl::InvalidArgumentError("no file given");
  std::error_code ec;
  if (path != "-" && std::filesystem::is_directory(path, ec)) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path, ": a directory"));
  }
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::string text;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && text.size() <= max_bytes) {
    text.append(buf, std::min(n, max_bytes + 1 - text.size()));
  }
  bool failed = std::ferror(f);
  if (f != stdin) std::fclose(f);
  if (text.size() > max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": larger than ", max_bytes >> 20, " MiB: not a game record"));
  }
  if (failed) return absl::DataLossError(absl::StrCat("cannot read ", path));
  return text;
}

void RecordFailures::Add(const absl::Status& saved, bool warn) {
  if (saved.ok() || count++ > 0) return;
  first = std::string(saved.message());
  if (warn) {
    std::fprintf(stderr, "\nwarning: %s; the games go on, unsaved records are counted\n",
                 first.c_str());
  }
}

std::string RecordFailures::Text() const {
  if (count == 0) return "";
  return absl::StrCat("records not saved: ", count, " (first: ", first, ")\n");
}

absl::Status PrepareRecordsDir(const std::string& dir) {
  if (dir.empty()) return absl::OkStatus();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--records: cannot create directory ", dir,
                     ec ? absl::StrCat(" (", ec.message(), ")") : ""));
  }
  std::string probe = absl::StrCat(dir, "/.uckers-write-check");
  absl::Status written = WriteTextFile(probe, "");
  std::filesystem::remove(probe, ec);
  if (!written.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--records: cannot write in ", dir));
  }
  return absl::OkStatus();
}

std::string DealerStatement(const Record& r) {
  std::string out =
      absl::StrCat("uckers dealt game v1\nkey ", r.dealer_key, "\nrules ",
                   r.rules.empty() ? "navy" : r.rules, "\nstart ", r.start_ufen, "\ncommitment ",
                   r.dealer_commitment, "\nseed ", r.client_seed, "\nsecret ", r.dealer_secret,
                   "\nresult ", r.winner.empty() ? "*" : absl::StrCat(r.winner, " ", r.points),
                   "\nitems ", r.game.items().size(), "\n");
  for (size_t i = 0; i < r.game.items().size(); ++i) {
    const PlayedThrow& item = r.game.items()[i];
    absl::StrAppend(&out, ThrowToString(item.dice), ":", item.play, " ",
                    i < r.client_values.size() ? r.client_values[i] : "", "\n");
  }
  return out;
}

namespace {

// The dealer's signature of the record's statement, by the public key the
// record carries, whose id it names.
absl::Status VerifyDealerSignature(const Record& record) {
  if (record.dealer_signature.empty()) {
    return absl::InvalidArgumentError(
        "no DealerSignature header: the dealer did not sign the record");
  }
  if (record.dealer_public_key.empty())
    return absl::InvalidArgumentError("no DealerPublicKey header");
  absl::StatusOr<std::string> id = dealer::PublicKeyIdOf(record.dealer_public_key);
  if (!id.ok())
    return absl::InvalidArgumentError(absl::StrCat("DealerPublicKey: ", id.status().message()));
  if (*id != record.dealer_key) {
    return absl::InvalidArgumentError(absl::StrCat(
        "DealerKey \"", record.dealer_key, "\" is not the id of the public key (", *id, ")"));
  }
  absl::Status s = dealer::VerifySignature(record.dealer_public_key, DealerStatement(record),
                                           record.dealer_signature);
  if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat("DealerSignature: ", s.message()));
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyDealtDice(const Record& record) {
  if (record.dealer_commitment.empty()) {
    return absl::InvalidArgumentError(
        "no Commitment header: the record's dice were not dealt by a verified dealer");
  }
  if (record.client_seed.empty()) return absl::InvalidArgumentError("no ClientSeed header");
  if (record.dealer_secret.empty()) {
    return absl::InvalidArgumentError("no ServerSecret header: the secret was not revealed");
  }
  if (absl::Status s = dealer::CheckCommitment(
          {record.dealer_commitment, record.client_seed, record.dealer_secret});
      !s.ok()) {
    return s;
  }
  absl::StatusOr<dealer::Secret> secret = dealer::SecretFromHex(record.dealer_secret);
  if (!secret.ok()) return secret.status();
  const std::vector<PlayedThrow>& items = record.game.items();
  if (items.empty()) return absl::InvalidArgumentError("the record has no throw");
  if (record.client_values.size() != items.size()) {
    return absl::InvalidArgumentError(absl::StrCat("ClientValues: ", record.client_values.size(),
                                                   " values for ", items.size(),
                                                   " throws (one value a throw)"));
  }
  for (size_t i = 0; i < items.size(); ++i) {
    absl::StatusOr<dealer::ClientValue> value = dealer::ClientValueFromHex(record.client_values[i]);
    if (!value.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("ClientValues: value ", i + 1, ": ", value.status().message()));
    }
    auto [d1, d2] = dealer::DealDice(*secret, record.client_seed, i, *value);
    if (MakeThrow(d1, d2) != items[i].dice) {
      return absl::InvalidArgumentError(
          absl::StrCat("item ", i + 1, ": the record throws ", ThrowToString(items[i].dice),
                       ", the dealer dealt ", d1, d2, " (throw index ", i, ")"));
    }
  }
  // Only a finished game is verified: one cut short could hide the throws
  // that came after it.
  if (!record.termination.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Termination \"", record.termination,
                     "\": a dealt game has no clocks; it ends on the board"));
  }
  if (!record.game.IsOver() || record.winner.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("the game is not over after its ", items.size(),
                                                   " throws: only a finished game is verified"));
  }
  return VerifyDealerSignature(record);
}

}  // namespace uckers
