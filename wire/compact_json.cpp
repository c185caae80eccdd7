#include "wire/compact_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"

namespace uckers::wire {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// A quoted JSON string of printable ASCII: the escapes protobuf's printer
// makes for these bytes (control characters, the quote, the backslash, and
// `<` `>` for pages that embed the text). False for any other byte.
bool AppendString(const std::string& text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x7f) return false;
    switch (u) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '<':
        out->append("\\u003c");
        break;
      case '>':
        out->append("\\u003e");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\r':
        out->append("\\r");
        break;
      default:
        if (u < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[u >> 4]);
          out->push_back(kHex[u & 15]);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
  return true;
}

// Shortest of 15 or 17 significant digits that reads back as `value`, the
// rule of protobuf's `SimpleDtoa` (and `SimpleFtoa` with 6 or 9 for a float);
// the values that are not finite as protobuf's quoted names.
template <typename T>
void AppendReal(T value, int short_digits, int long_digits, std::string* out) {
  if (std::isnan(value)) {
    out->append("\"NaN\"");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    return;
  }
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", short_digits, static_cast<double>(value));
  if (static_cast<T>(std::strtod(buffer, nullptr)) != value) {
    std::snprintf(buffer, sizeof buffer, "%.*g", long_digits, static_cast<double>(value));
  }
  out->append(buffer);
}

bool AppendMessage(const Message& m, std::string* out);

// One value of field `f` (element `index` of a repeated field, or -1).
bool AppendValue(const Message& m, const Reflection* r, const FieldDescriptor* f, int index,
                 std::string* out) {
  const bool rep = index >= 0;
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      absl::StrAppend(out, rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
      return true;
    case FieldDescriptor::CPPTYPE_UINT32:
      absl::StrAppend(out, rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
      return true;
    case FieldDescriptor::CPPTYPE_INT64:
      absl::StrAppend(out, "\"", rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f), "\"");
      return true;
    case FieldDescriptor::CPPTYPE_UINT64:
      absl::StrAppend(out, "\"", rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f),
                      "\"");
      return true;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      AppendReal(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f), 15, 17, out);
      return true;
    case FieldDescriptor::CPPTYPE_FLOAT:
      AppendReal(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f), 6, 9, out);
      return true;
    case FieldDescriptor::CPPTYPE_BOOL:
      out->append((rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "true" : "false");
      return true;
    case FieldDescriptor::CPPTYPE_ENUM: {
      int number = rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
      if (const auto* value = f->enum_type()->FindValueByNumber(number)) {
        absl::StrAppend(out, "\"", value->name(), "\"");
      } else {
        absl::StrAppend(out, number);
      }
      return true;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string scratch;
      const std::string& text = rep ? r->GetRepeatedStringReference(m, f, index, &scratch)
                                    : r->GetStringReference(m, f, &scratch);
      if (f->type() == FieldDescriptor::TYPE_BYTES) {
        absl::StrAppend(out, "\"", absl::Base64Escape(text), "\"");
        return true;
      }
      return AppendString(text, out);
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return AppendMessage(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f), out);
  }
  return false;
}

// A map of at most one entry: `{"key":value}`; its key always quoted.
bool AppendMap(const Message& m, const Reflection* r, const FieldDescriptor* f, std::string* out) {
  const int n = r->FieldSize(m, f);
  if (n > 1) return false;
  out->push_back('{');
  if (n == 1) {
    const Message& entry = r->GetRepeatedMessage(m, f, 0);
    const Reflection* er = entry.GetReflection();
    const FieldDescriptor* key = f->message_type()->map_key();
    if (key->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      std::string scratch;
      if (!AppendString(er->GetStringReference(entry, key, &scratch), out)) return false;
    } else {
      std::string text;
      if (!AppendValue(entry, er, key, -1, &text)) return false;
      if (text.front() != '"') text = absl::StrCat("\"", text, "\"");
      out->append(text);
    }
    out->push_back(':');
    if (!AppendValue(entry, er, f->message_type()->map_value(), -1, out)) return false;
  }
  out->push_back('}');
  return true;
}

// One field, `"name":value`, after a comma unless it is the first.
bool AppendField(const Message& m, const Reflection* r, const FieldDescriptor* f, bool* first,
                 std::string* out) {
  if (!*first) out->push_back(',');
  *first = false;
  absl::StrAppend(out, "\"", f->json_name(), "\":");
  if (f->is_map()) return AppendMap(m, r, f, out);
  if (!f->is_repeated()) return AppendValue(m, r, f, -1, out);
  out->push_back('[');
  const int n = r->FieldSize(m, f);
  for (int j = 0; j < n; ++j) {
    if (j > 0) out->push_back(',');
    if (!AppendValue(m, r, f, j, out)) return false;
  }
  out->push_back(']');
  return true;
}

// The fields in protobuf's order: in their declared order the fields outside
// a oneof (a message field only when set) and the set oneof members that are
// messages; then the set oneof members that are not messages, by number.
bool AppendMessage(const Message& m, std::string* out) {
  const Descriptor* d = m.GetDescriptor();
  if (d->well_known_type() != Descriptor::WELLKNOWNTYPE_UNSPECIFIED) return false;
  const Reflection* r = m.GetReflection();
  out->push_back('{');
  bool first = true;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    const bool message = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
    if (f->containing_oneof() != nullptr && !message) continue;
    if (!f->is_repeated() && f->has_presence() && !r->HasField(m, f)) continue;
    if (!AppendField(m, r, f, &first, out)) return false;
  }
  if (d->oneof_decl_count() > 0) {
    const FieldDescriptor* set[16];
    int n = 0;
    for (int i = 0; i < d->oneof_decl_count(); ++i) {
      const FieldDescriptor* f = r->GetOneofFieldDescriptor(m, d->oneof_decl(i));
      if (f == nullptr || f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) continue;
      if (n == 16) return false;
      set[n++] = f;
    }
    std::sort(set, set + n, [](const FieldDescriptor* a, const FieldDescriptor* b) {
      return a->number() < b->number();
    });
    for (int i = 0; i < n; ++i) {
      if (!AppendField(m, r, set[i], &first, out)) return false;
    }
  }
  out->push_back('}');
  return true;
}

}  // namespace

bool AppendCompactJson(const Message& message, std::string* out) {
  return AppendMessage(message, out);
}

std::string CompactJson(const Message& message) {
  std::string json;
  json.reserve(256);
  if (AppendMessage(message, &json)) return json;
  json.clear();
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

}  // namespace uckers::wire
