#pragma once

#include <string>

#include "google/protobuf/message.h"

namespace uckers::wire {

// The proto3 JSON of `message` as the Connect front sends it: no white space,
// lowerCamelCase names, every singular primitive field printed (zero, false,
// "", the enum's zero name), unset message fields and unset oneof members left
// out, 64-bit integers quoted, enums by name. Byte for byte what protobuf's
// `MessageToJsonString` prints with `always_print_primitive_fields`, written
// by one walk over the message's reflection instead of protobuf's
// serialise-then-convert path (a half of the HTTP front's time on a cheap
// call went there). A message with a string outside printable ASCII, or with
// a map of several entries, is handed to protobuf's printer, whose escaping of
// Unicode and whose map order are its own.
std::string CompactJson(const google::protobuf::Message& message);

// The same printer's walk alone: false when `message` needs protobuf's (see
// above), with `*out` then unspecified. For tests and benchmarks.
bool AppendCompactJson(const google::protobuf::Message& message, std::string* out);

}  // namespace uckers::wire
