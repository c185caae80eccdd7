#include "wire/safe_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace uckers {

std::string SafeMessage(absl::string_view message, size_t max) {
  std::string out;
  out.reserve(std::min(message.size(), max) + 16);
  size_t kept = 0;
  for (; kept < message.size() && out.size() < max; ++kept) {
    unsigned char c = static_cast<unsigned char>(message[kept]);
    if (c < 0x20 || c == 0x7f) {
      absl::StrAppendFormat(&out, "\\x%02x", c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (kept == message.size()) return out;
  // Cut at a character's start, not inside a UTF-8 sequence.
  while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
  if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
  absl::StrAppend(&out, "... (", message.size(), " bytes in all)");
  return out;
}

}  // namespace uckers
