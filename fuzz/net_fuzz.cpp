// libFuzzer target: the bytes are a weights file (eval/net.h). The
// checksum at its end is made right before reading, so that the fuzzer
// reaches the header and the weights rather than stopping at the checksum.
// Reading must refuse or accept without crashing; an accepted net
// evaluates a few positions of its rules (a deep one in integers and in
// float), and writes back the bytes it was read from.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "eval/net.h"
#include "rules/movegen.h"
#include "rules/position.h"

namespace {

// The file's checksum: FNV-1a over everything before it.
uint64_t Fnv1a(const std::string& bytes, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(bytes[i])) * 1099511628211ull;
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace uckers;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.size() >= 8) {
    uint64_t sum = Fnv1a(bytes, bytes.size() - 8);
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  }
  absl::StatusOr<Net> net = Net::FromBytes(bytes, "fuzz");
  if (!net.ok()) return 0;
  if (net->ToBytes() != bytes) {
    std::fprintf(stderr, "an accepted net does not write back the bytes it was read from\n");
    std::abort();
  }
  const Rules& rules = net->rules();
  Position pos = Position::Start(rules);
  for (int ply = 0; ply < 6 && !pos.IsGameOver(); ++ply) {
    if (net->per_side()) {
      net->EvaluateSides(pos);
    } else {
      net->Evaluate(pos);
      net->EvaluateFloat(net->Encode(pos));
    }
    PlayList plays;
    GenerateLegalPlays(pos, rules, MakeThrow(6, 1 + ply % 6), &plays);
    pos = plays[0].after;
  }
  return 0;
}
