// `uckers verify RECORD`: checks a dealt game's dice (docs/records.md,
// "Dealt dice"): the revealed secret matches the commitment and every throw
// is the one the secret and the client seed derive. Exits 0 verified, 1 not
// (naming the first mismatch), 2 usage (no record, an unreadable file).
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "app/commands.h"
#include "record/text.h"
#include "wire/record.h"

ABSL_FLAG(std::string, dealer_key, "",
          "the id (16 hex digits) or the public key (64) of the dealer key the record must be "
          "signed by, as its operator publishes it (empty: any key, named in the verdict)");

namespace uckers {

namespace {

// The record is signed by the key the operator publishes, when one is given.
absl::Status CheckDealerKey(const Record& record, const std::string& wanted) {
  if (wanted.empty() || wanted == record.dealer_key || wanted == record.dealer_public_key) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("signed by dealer key ", record.dealer_key,
                                                 ", not the key given (", wanted, ")"));
}

absl::Status RunVerifyCommand(const CommandLine& cl) {
  std::string path = cl.args()[0];
  absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
  if (!text.ok()) return text.status();
  absl::StatusOr<Record> record = wire::ParseRecord(*text);
  if (!record.ok()) {
    return Failed(absl::StrCat(path, ": not verified: ", record.status().message()));
  }
  const std::string wanted = absl::GetFlag(FLAGS_dealer_key);
  if (!wanted.empty() && wanted.size() != 16 && wanted.size() != 64) {
    return UsageError(absl::StrCat("--dealer_key '", wanted,
                                   "': a key id (16 hex digits) or a public key (64) expected"));
  }
  absl::Status s = VerifyDealtDice(*record);
  if (s.ok()) s = CheckDealerKey(*record, wanted);
  if (!s.ok()) {
    std::cout << "not verified: " << s.message() << "\n";
    return QuietFailure();
  }
  std::cout << "verified: " << record->game.items().size()
            << " throws dealt by the secret committed to as " << record->dealer_commitment
            << " and the client seed " << record->client_seed
            << ", the game replayed to its end, signed by dealer key " << record->dealer_key
            << " (public key " << record->dealer_public_key << ")\n";
  return absl::OkStatus();
}

}  // namespace

const Command& VerifyCommand() {
  static const Command command = {
      .name = "verify",
      .summary = "checks a dealt game's dice against its revealed secret (docs/records.md)",
      .usage =
          "uckers verify [--dealer_key ID] RECORD\n"
          "  RECORD is a dealt game's record file (text or JSON, docs/records.md), or - for\n"
          "  stdin; exits 0 verified, 1 not (naming the first mismatch), 2 usage",
      .flags_file = "app/verify.cpp",
      .min_arguments = 1,
      .max_arguments = 1,
      .arguments_text = "one game record file (or -)",
      .run = RunVerifyCommand,
  };
  return command;
}

}  // namespace uckers
