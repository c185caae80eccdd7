// `uckers verify RECORD`: checks a dealt game's dice (docs/records.md,
// "Dealt dice"): the revealed secret matches the commitment and every throw
// is the one the secret and the client seed derive. Exits 0 verified, 1 not
// (naming the first mismatch), 2 usage (no record, an unreadable file).
#include <iostream>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "app/commands.h"
#include "review/record.h"

namespace uckers {

int VerifyMain(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "uckers verify RECORD\n"
      "RECORD is a dealt game's record file (text or JSON, docs/records.md), or - for stdin.");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  if (args.size() != 2) {
    std::cerr << "uckers verify: give one game record file (or -)\n";
    return 2;
  }
  std::string path = args[1];
  absl::StatusOr<std::string> text = ReadTextFile(path, kMaxRecordBytes);
  if (!text.ok()) {
    std::cerr << "uckers verify: " << text.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<v1::GameRecord> record = ParseRecord(*text);
  if (!record.ok()) {
    std::cerr << "uckers verify: " << path << ": not verified: " << record.status().message()
              << "\n";
    return 1;
  }
  if (absl::Status s = VerifyDealtDice(*record); !s.ok()) {
    std::cout << "not verified: " << s.message() << "\n";
    return 1;
  }
  std::cout << "verified: " << record->items_size()
            << " throws dealt by the secret committed to as " << record->dealer_commitment()
            << " and the client seed " << record->client_seed() << "\n";
  return 0;
}

}  // namespace uckers
