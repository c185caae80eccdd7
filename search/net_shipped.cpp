#include "search/net.h"

// The shipped weights are built into the binary, as Stockfish embeds its net,
// so that `uckers` runs from any directory. UCKERS_NET_FILE is set by
// search/CMakeLists.txt when nets/navy.unet exists.
#ifdef UCKERS_NET_FILE
__asm__(
    ".section .rodata\n"
    ".balign 16\n"
    ".global uckers_net_data\n"
    "uckers_net_data:\n"
    ".incbin \"" UCKERS_NET_FILE "\"\n"
    ".global uckers_net_data_end\n"
    "uckers_net_data_end:\n"
    ".previous\n");
extern "C" const char uckers_net_data[];
extern "C" const char uckers_net_data_end[];
#endif

namespace uckers {

const Net* Net::Shipped() {
#ifdef UCKERS_NET_FILE
  static const Net* net = [] {
    absl::StatusOr<Net> n = Net::FromBytes(
        absl::string_view(uckers_net_data, uckers_net_data_end - uckers_net_data),
        "(built in)");
    return n.ok() ? new Net(*std::move(n)) : nullptr;
  }();
  return net;
#else
  return nullptr;
#endif
}

const Net* NetFor(const Rules& rules) {
  const Net* net = Net::Shipped();
  return net && net->rules() == rules ? net : nullptr;
}

}  // namespace uckers
