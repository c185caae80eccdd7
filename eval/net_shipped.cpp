#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "eval/net.h"

// The shipped weights are built into the binary, as Stockfish embeds its net,
// so that `uckers` runs from any directory: one net per preset that has one
// in nets/ (nets/<preset>.unet, the rules string with '+' written '_':
// nets/six_teams_of_three.unet for six+teams_of_three), and nets/any.unet,
// a net of any rules (Net::any_rules) for the four-sided rulesets of two
// teams that no preset's net was trained for, nets/any_<layout>.unet the
// same for a layout of RULES.md §11 (where one is shipped); a ruleset of
// such a layout that neither serves gets its layout's net adapted to it
// (Net::AdaptedTo). search/CMakeLists.txt sets UCKERS_NET_<NAME> to each
// file that exists. Each file names its rules; NetFor matches on those,
// not on the file's name.
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
#ifdef UCKERS_NET_ANY
UCKERS_INCBIN(uckers_net_any, UCKERS_NET_ANY)
#endif
#ifdef UCKERS_NET_ANY_NAVY_SOLO
UCKERS_INCBIN(uckers_net_any_navy_solo, UCKERS_NET_ANY_NAVY_SOLO)
#endif
#ifdef UCKERS_NET_ANY_SIX_TEAMS_OF_THREE
UCKERS_INCBIN(uckers_net_any_six_teams_of_three, UCKERS_NET_ANY_SIX_TEAMS_OF_THREE)
#endif
#ifdef UCKERS_NET_ANY_SIX
UCKERS_INCBIN(uckers_net_any_six, UCKERS_NET_ANY_SIX)
#endif
#ifdef UCKERS_NET_ANY_SIX_SOLO
UCKERS_INCBIN(uckers_net_any_six_solo, UCKERS_NET_ANY_SIX_SOLO)
#endif
#ifdef UCKERS_NET_NAVY_VS_RANDOM
UCKERS_INCBIN(uckers_net_navy_vs_random, UCKERS_NET_NAVY_VS_RANDOM)
#endif

namespace uckers {
namespace {

struct Embedded {
  const char* begin;
  const char* end;
};

// The built-in nets, each loaded (parsed and quantised) on first use only,
// so that a process pays for the nets of the rules it plays: a deep net
// takes tens of milliseconds. `hint` is the rules string of the file's name;
// the file's own rules decide (NetFor checks them), the hint only says which
// file to load first. A damaged file is left out.
struct ShippedFile {
  Embedded bytes;
  const char* hint;
  std::optional<Rules> named = std::nullopt;  // the hint parsed, once
  bool loaded = false;
  const Net* net = nullptr;
};

std::mutex shipped_mutex;

std::vector<ShippedFile>& ShippedFiles() {
  static std::vector<ShippedFile>* files = [] {
    auto* list = new std::vector<ShippedFile>{
#ifdef UCKERS_NET_NAVY
        {{uckers_net_navy, uckers_net_navy_end}, "navy"},
#endif
#ifdef UCKERS_NET_WAFU
        {{uckers_net_wafu, uckers_net_wafu_end}, "wafu"},
#endif
#ifdef UCKERS_NET_MESS
        {{uckers_net_mess, uckers_net_mess_end}, "mess"},
#endif
#ifdef UCKERS_NET_SELSEY
        {{uckers_net_selsey, uckers_net_selsey_end}, "selsey"},
#endif
#ifdef UCKERS_NET_SIX
        {{uckers_net_six, uckers_net_six_end}, "six"},
#endif
#ifdef UCKERS_NET_SIX_TEAMS_OF_THREE
        {{uckers_net_six_teams_of_three, uckers_net_six_teams_of_three_end}, "six+teams_of_three"},
#endif
#ifdef UCKERS_NET_NAVY_SOLO
        {{uckers_net_navy_solo, uckers_net_navy_solo_end}, "navy+solo"},
#endif
#ifdef UCKERS_NET_SIX_SOLO
        {{uckers_net_six_solo, uckers_net_six_solo_end}, "six+solo"},
#endif
#ifdef UCKERS_NET_ANY
        {{uckers_net_any, uckers_net_any_end}, "any"},
#endif
#ifdef UCKERS_NET_ANY_NAVY_SOLO
        {{uckers_net_any_navy_solo, uckers_net_any_navy_solo_end}, "any:navy+solo"},
#endif
#ifdef UCKERS_NET_ANY_SIX_TEAMS_OF_THREE
        {{uckers_net_any_six_teams_of_three, uckers_net_any_six_teams_of_three_end},
         "any:six+teams_of_three"},
#endif
#ifdef UCKERS_NET_ANY_SIX
        {{uckers_net_any_six, uckers_net_any_six_end}, "any:six"},
#endif
#ifdef UCKERS_NET_ANY_SIX_SOLO
        {{uckers_net_any_six_solo, uckers_net_any_six_solo_end}, "any:six+solo"},
#endif
    };
    for (ShippedFile& f : *list) {
      if (absl::StatusOr<Rules> r = Rules::Parse(f.hint); r.ok()) f.named = *r;
    }
    return list;
  }();
  return *files;
}

// The net of `file`, loading it the first time (shipped_mutex held).
const Net* LoadShipped(ShippedFile& file) {
  if (!file.loaded) {
    file.loaded = true;
    absl::StatusOr<Net> n = Net::FromBytes(
        absl::string_view(file.bytes.begin, file.bytes.end - file.bytes.begin), "(built in)");
    if (n.ok()) file.net = new Net(*std::move(n));
  }
  return file.net;
}

}  // namespace

const Net* Net::Shipped() { return NetFor(Rules()); }

std::vector<const Net*> Net::AllShipped() {
  std::lock_guard<std::mutex> lock(shipped_mutex);
  std::vector<const Net*> nets;
  for (ShippedFile& f : ShippedFiles()) {
    if (const Net* net = LoadShipped(f)) nets.push_back(net);
  }
  return nets;
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

const Net* NetAgainstRandomFor(const Rules& rules) {
  // Kept apart from ShippedFiles: NetFor and AllShipped never pick it, since
  // it values a position as the game against `random` only with its mark.
  static const Net* navy = [] {
    const Net* net = nullptr;
#ifdef UCKERS_NET_NAVY_VS_RANDOM
    absl::StatusOr<Net> n =
        Net::FromBytes(absl::string_view(uckers_net_navy_vs_random,
                                         uckers_net_navy_vs_random_end - uckers_net_navy_vs_random),
                       "(built in, trained against random)");
    if (n.ok() && !n->per_side() && !n->any_rules()) net = new Net(*std::move(n));
#endif
    return net;
  }();
  return navy != nullptr && navy->rules() == rules ? navy : nullptr;
}

namespace {

// The shipped net of any rules that serves `rules`, viewed for them, or
// nullptr (the caller holds shipped_mutex).
const Net* AnyRulesNetFor(const Rules& rules) {
  for (ShippedFile& f : ShippedFiles()) {
    const Net* net = LoadShipped(f);
    if (net != nullptr && net->any_rules() && net->Serves(rules)) return net->ForRules(rules);
  }
  return nullptr;
}

}  // namespace

const Net* NetFor(const Rules& rules) {
  std::lock_guard<std::mutex> lock(shipped_mutex);
  const bool four_sided = rules.layout().IsFourSidedTeams();
  // Of a layout of RULES.md §11, its net of any rules first, where one is
  // shipped: it serves every ruleset of the layout but mixie_stack's, the
  // layout's own rules among them (docs/sides.md).
  if (!four_sided) {
    if (const Net* any = AnyRulesNetFor(rules)) return any;
  }
  // The file named for these rules, then (should its rules not be the ones
  // its name says) every other.
  for (bool named : {true, false}) {
    for (ShippedFile& f : ShippedFiles()) {
      if (named != (f.named == rules)) continue;
      const Net* net = LoadShipped(f);
      if (net != nullptr && net->rules() == rules && !net->any_rules()) return net;
    }
  }
  // No net of these rules: of the four-sided game of two teams, the net of
  // any rules, where one is shipped.
  if (four_sided) return AnyRulesNetFor(rules);
  // Of another layout: its net, adapted to these rules (made once per
  // ruleset and kept for the process's life).
  static std::map<std::string, std::unique_ptr<Net>>* adapted =
      new std::map<std::string, std::unique_ptr<Net>>;
  auto it = adapted->find(rules.ToString());
  if (it != adapted->end()) return it->second.get();
  for (ShippedFile& f : ShippedFiles()) {
    const Net* net = LoadShipped(f);
    if (net == nullptr || !net->per_side() || net->any_rules() ||
        net->rules().layout_id() != rules.layout_id()) {
      continue;
    }
    absl::StatusOr<Net> a = net->AdaptedTo(rules);
    if (!a.ok()) continue;
    auto& slot = (*adapted)[rules.ToString()];
    slot = std::make_unique<Net>(*std::move(a));
    return slot.get();
  }
  return nullptr;
}

}  // namespace uckers
