// `uckers verify RECORD`: checks a dealt game's dice (docs/records.md,
// "Dealt dice"): the revealed secret matches the commitment and every throw
// is the one the secret and the client seed derive. Exits 0 verified, 1 not
// (naming the first mismatch), 2 usage (no record, an unreadable file).
#include <iostream>

#include "app/commands.h"
#include "record/text.h"
#include "wire/record.h"

namespace uckers {

namespace {

int RunVerifyCommand(const CommandLine& cl) {
  std::string path = cl.args()[0];
  absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
  if (!text.ok()) {
    std::cerr << "uckers verify: " << text.status().message() << "\n";
    return absl::IsInvalidArgument(text.status()) ? 2 : 1;
  }
  absl::StatusOr<Record> record = wire::ParseRecord(*text);
  if (!record.ok()) {
    std::cerr << "uckers verify: " << path << ": not verified: " << record.status().message()
              << "\n";
    return 1;
  }
  if (absl::Status s = VerifyDealtDice(*record); !s.ok()) {
    std::cout << "not verified: " << s.message() << "\n";
    return 1;
  }
  std::cout << "verified: " << record->game.items().size()
            << " throws dealt by the secret committed to as " << record->dealer_commitment
            << " and the client seed " << record->client_seed << "\n";
  return 0;
}

}  // namespace

const Command& VerifyCommand() {
  static const Command command = {
      .name = "verify",
      .summary = "checks a dealt game's dice against its revealed secret (docs/records.md)",
      .usage =
          "uckers verify RECORD\n"
          "  RECORD is a dealt game's record file (text or JSON, docs/records.md), or - for\n"
          "  stdin; exits 0 verified, 1 not (naming the first mismatch), 2 usage",
      .min_arguments = 1,
      .max_arguments = 1,
      .arguments_text = "one game record file (or -)",
      .run = RunVerifyCommand,
  };
  return command;
}

}  // namespace uckers
