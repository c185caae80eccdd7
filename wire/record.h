#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "record/record.h"
#include "uckers/v1/game.pb.h"

// Records on the wire: the C++ record (record/record.h) to and from
// uckers.v1.GameRecord, and the JSON form of records (docs/records.md).
// The text form is record/text.h's; every reading ends in its
// ReplayRecord, the one check of a record.
namespace uckers::wire {

// The message of a record: every header, the start when it is not the
// ruleset's, the items in their canonical text.
v1::GameRecord ToMessage(const Record& record);

// The record a message carries, replayed and checked as a text record is;
// an error names the item or header that is wrong and the rules it was read
// with.
absl::StatusOr<Record> FromMessage(const v1::GameRecord& message);

// Reads either form, JSON when it starts with `{` (else the text form),
// replayed and checked. A JSON error starts "bad game record: JSON: ".
absl::StatusOr<Record> ParseRecord(const std::string& text);

// The JSON form: the message printed by ToJson (wire/json.h).
std::string RecordToJson(const Record& record);

}  // namespace uckers::wire
