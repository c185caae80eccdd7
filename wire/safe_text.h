#pragma once

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace uckers {

// An error message fit to print or to send: control bytes escaped (`\x1b`),
// and at most `max` bytes kept, the rest counted (`... (20034 bytes in all)`),
// so that input echoed in an error can neither drive a terminal nor overflow
// gRPC's 8 KiB of status metadata. Both protocols' errors pass through it.
std::string SafeMessage(absl::string_view message, size_t max = 300);

}  // namespace uckers
