#pragma once

#include <string>

#include "google/protobuf/message.h"
#include "google/protobuf/util/json_util.h"

namespace uckers {

// Every JSON the tools print: protobuf's printer, field names as in proto/,
// zero and false fields printed (a reader need not know the defaults), enums
// by their names.
// `one_line`: no white space and no newline at the end (JSON Lines).
inline std::string ToJson(const google::protobuf::Message& message, bool one_line = false) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = !one_line;
  options.preserve_proto_field_names = true;
  options.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

}  // namespace uckers
