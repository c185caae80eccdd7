#include "search/net.h"

#include <map>
#include <memory>
#include <mutex>

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

absl::StatusOr<const Net*> LoadNetShared(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Net>>* nets =
      new std::map<std::string, std::unique_ptr<Net>>;
  std::lock_guard<std::mutex> lock(mu);
  auto it = nets->find(path);
  if (it != nets->end()) return it->second.get();
  absl::StatusOr<Net> net = Net::Load(path);
  if (!net.ok()) return net.status();
  auto& slot = (*nets)[path];
  slot = std::make_unique<Net>(*std::move(net));
  return slot.get();
}

const Net* NetFor(const Rules& rules) {
  const Net* net = Net::Shipped();
  return net && net->rules() == rules ? net : nullptr;
}

}  // namespace uckers
