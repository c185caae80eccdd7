#include "wire/record.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "google/protobuf/util/json_util.h"
#include "record/text.h"
#include "rules/notation.h"
#include "wire/json.h"

namespace uckers::wire {

v1::GameRecord ToMessage(const Record& r) {
  v1::GameRecord m;
  m.set_rules(r.rules);
  m.set_ry(r.ry);
  m.set_gb(r.gb);
  m.set_seed(r.seed);
  m.set_date(r.date);
  m.set_start_ufen(r.start_ufen);
  m.set_winner(r.winner);
  m.set_points(r.points);
  for (const PlayedThrow& item : r.game.items()) {
    v1::RecordItem* out = m.add_items();
    out->set_throw_(ThrowToString(item.dice));
    out->set_play(item.play);
  }
  m.set_switches(r.switches);
  m.set_termination(r.termination);
  m.set_dealer_commitment(r.dealer_commitment);
  m.set_client_seed(r.client_seed);
  m.set_dealer_secret(r.dealer_secret);
  for (const std::string& value : r.client_values) m.add_client_values(value);
  m.set_dealer_key(r.dealer_key);
  m.set_dealer_public_key(r.dealer_public_key);
  m.set_dealer_signature(r.dealer_signature);
  for (const SidePlayer& player : r.side_players) {
    v1::SidePlayer* out = m.add_side_players();
    out->set_side(player.side);
    out->set_player(player.player);
  }
  return m;
}

absl::StatusOr<Record> FromMessage(const v1::GameRecord& m) {
  WrittenRecord w;
  Record& r = w.headers;
  r.rules = m.rules();
  r.switches = m.switches();
  r.ry = m.ry();
  r.gb = m.gb();
  for (const v1::SidePlayer& player : m.side_players()) {
    r.side_players.push_back({player.side(), player.player()});
  }
  r.seed = m.seed();
  r.date = m.date();
  r.winner = m.winner();
  r.points = m.points();
  r.termination = m.termination();
  r.dealer_commitment = m.dealer_commitment();
  r.client_seed = m.client_seed();
  r.dealer_secret = m.dealer_secret();
  r.client_values.assign(m.client_values().begin(), m.client_values().end());
  r.dealer_key = m.dealer_key();
  r.dealer_public_key = m.dealer_public_key();
  r.dealer_signature = m.dealer_signature();
  r.start_ufen = m.start_ufen();
  for (const v1::RecordItem& item : m.items()) {
    w.items.push_back(absl::StrCat(item.throw_(), ":", item.play()));
  }
  return ReplayRecord(w);
}

absl::StatusOr<Record> ParseRecord(const std::string& text) {
  absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(text);
  if (trimmed.empty() || trimmed[0] != '{') return ParseTextRecord(text);
  v1::GameRecord message;
  google::protobuf::util::JsonParseOptions options;
  auto status =
      google::protobuf::util::JsonStringToMessage(std::string(trimmed), &message, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad game record: JSON: ", status.message().as_string()));
  }
  return FromMessage(message);
}

std::string RecordToJson(const Record& record) { return ToJson(ToMessage(record)); }

}  // namespace uckers::wire
