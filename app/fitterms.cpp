// `uckers fitterms`: fits the sizes of a play's terms in chance to win on
// one ruleset's layout (learn/term_fit.h, the table of eval/terms.cpp's
// TermWinChance, docs/frontend.md "Explained choices"). Exits 0 done, 1
// failed, 2 usage.
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "learn/term_fit.h"

ABSL_FLAG(int, fit_games, 200, "self-play games to fit over (1..100000)");

namespace uckers {

namespace {

absl::Status RunFitTermsCommand(const CommandLine& cl) {
  absl::StatusOr<Rules> rules = Rules::Parse(absl::GetFlag(FLAGS_rules));
  if (!rules.ok()) {
    return UsageError(absl::StrCat("--rules: ", rules.status().message()));
  }
  int games = absl::GetFlag(FLAGS_fit_games);
  if (games < 1 || games > 100000) {
    return UsageError(absl::StrCat("--fit_games must be 1..100000, not ", games));
  }
  std::string level = cl.Given("level") ? absl::GetFlag(FLAGS_level) : "expert";
  absl::StatusOr<TermFit> fit = FitTermWinChance(*rules, games, absl::GetFlag(FLAGS_seed), level);
  if (!fit.ok()) return fit.status();
  std::cout << absl::StrFormat("fitterms rules %s games %d decisions %d pairs %d r2 %.4f\n",
                               rules->ToString(), fit->games, fit->decisions, fit->pairs, fit->r2);
  std::string table;
  for (int i = 0; i < kNumTerms; ++i) {
    std::cout << absl::StrFormat("fitterms term %s win_chance %.6g\n", kTermNames[i],
                                 fit->per_unit[i]);
    absl::StrAppendFormat(&table, "%s%.4g", i ? ", " : "", fit->per_unit[i]);
  }
  std::cout << "fitterms table {" << table << "}\n";
  return absl::OkStatus();
}

}  // namespace

const Command& FitTermsCommand() {
  static const Command command = {
      .name = "fitterms",
      .summary = "fits a play's terms' sizes in chance to win by self-play (docs/frontend.md)",
      .usage =
          "uckers fitterms [--rules R] [--fit_games N] [--seed S] [--level L]\n"
          "  plays N self-play games, values every play of each decision one throw deep and\n"
          "  fits win(play) - win(best) on the differences of the terms (eval/terms.h) by\n"
          "  least squares; prints each term's change in chance to win per unit and the\n"
          "  row of eval/terms.cpp's table",
      .flags_file = "app/fitterms.cpp",
      .shared = {{"rules", "the ruleset whose layout is fitted", "navy"},
                 {"seed", "game k plays the dice of seed + k", "1"},
                 {"level", "the level whose evaluation values the plays", "expert"}},
      .run = RunFitTermsCommand,
  };
  return command;
}

}  // namespace uckers
