#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "search/net.h"

// The shipped weights are built into the binary, as Stockfish embeds its net,
// so that `uckers` runs from any directory: one net per preset that has one
// in nets/ (nets/<preset>.unet, the rules string with '+' written '_':
// nets/six_teams_of_three.unet for six+teams_of_three). search/CMakeLists.txt
// sets UCKERS_NET_<NAME> to each file that exists. Each file names its
// rules; NetFor matches on those, not on the file's name.
#define UCKERS_INCBIN(sym, file)    \
  __asm__(                          \
      ".section .rodata\n"          \
      ".balign 16\n"                \
      ".global " #sym "\n" #sym     \
      ":\n"                         \
      ".incbin \"" file             \
      "\"\n"                        \
      ".global " #sym "_end\n" #sym \
      "_end:\n"                     \
      ".previous\n");               \
  extern "C" const char sym[];      \
  extern "C" const char sym##_end[];

#ifdef UCKERS_NET_NAVY
UCKERS_INCBIN(uckers_net_navy, UCKERS_NET_NAVY)
#endif
#ifdef UCKERS_NET_WAFU
UCKERS_INCBIN(uckers_net_wafu, UCKERS_NET_WAFU)
#endif
#ifdef UCKERS_NET_MESS
UCKERS_INCBIN(uckers_net_mess, UCKERS_NET_MESS)
#endif
#ifdef UCKERS_NET_SELSEY
UCKERS_INCBIN(uckers_net_selsey, UCKERS_NET_SELSEY)
#endif
#ifdef UCKERS_NET_SIX
UCKERS_INCBIN(uckers_net_six, UCKERS_NET_SIX)
#endif
#ifdef UCKERS_NET_SIX_TEAMS_OF_THREE
UCKERS_INCBIN(uckers_net_six_teams_of_three, UCKERS_NET_SIX_TEAMS_OF_THREE)
#endif
#ifdef UCKERS_NET_NAVY_SOLO
UCKERS_INCBIN(uckers_net_navy_solo, UCKERS_NET_NAVY_SOLO)
#endif
#ifdef UCKERS_NET_SIX_SOLO
UCKERS_INCBIN(uckers_net_six_solo, UCKERS_NET_SIX_SOLO)
#endif

namespace uckers {
namespace {

struct Embedded {
  const char* begin;
  const char* end;
};

// The built-in nets, each loaded once; a damaged one is left out.
const std::vector<const Net*>& ShippedNets() {
  static const std::vector<const Net*>* nets = [] {
    std::vector<Embedded> files = {
#ifdef UCKERS_NET_NAVY
        {uckers_net_navy, uckers_net_navy_end},
#endif
#ifdef UCKERS_NET_WAFU
        {uckers_net_wafu, uckers_net_wafu_end},
#endif
#ifdef UCKERS_NET_MESS
        {uckers_net_mess, uckers_net_mess_end},
#endif
#ifdef UCKERS_NET_SELSEY
        {uckers_net_selsey, uckers_net_selsey_end},
#endif
#ifdef UCKERS_NET_SIX
        {uckers_net_six, uckers_net_six_end},
#endif
#ifdef UCKERS_NET_SIX_TEAMS_OF_THREE
        {uckers_net_six_teams_of_three, uckers_net_six_teams_of_three_end},
#endif
#ifdef UCKERS_NET_NAVY_SOLO
        {uckers_net_navy_solo, uckers_net_navy_solo_end},
#endif
#ifdef UCKERS_NET_SIX_SOLO
        {uckers_net_six_solo, uckers_net_six_solo_end},
#endif
    };
    auto* out = new std::vector<const Net*>;
    for (const Embedded& f : files) {
      absl::StatusOr<Net> n =
          Net::FromBytes(absl::string_view(f.begin, f.end - f.begin), "(built in)");
      if (n.ok()) out->push_back(new Net(*std::move(n)));
    }
    return out;
  }();
  return *nets;
}

}  // namespace

const Net* Net::Shipped() { return NetFor(Rules()); }

std::vector<const Net*> Net::AllShipped() { return ShippedNets(); }

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
  for (const Net* net : ShippedNets()) {
    if (net->rules() == rules) return net;
  }
  return nullptr;
}

}  // namespace uckers
