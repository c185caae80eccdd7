// `uckers train`: trains the learned evaluation by self-play; see learn/td.h.
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "app/cli_flags.h"
#include "app/commands.h"
#include "learn/td.h"

ABSL_FLAG(int, hidden, 128, "hidden units of a new net (1..1024)");
ABSL_FLAG(std::string, layers, "",
          "a new deep net instead: its layers' units, first layer first (e.g. 256,32,32; "
          "the four-sided game of two teams); with --init, a deep net's layers widened "
          "to these sizes");
ABSL_FLAG(bool, hit_inputs, false,
          "a deep net reads how often each single piece is hit too (input encoding 5); with "
          "--init, a deep net of encoding 4 gets those inputs, their weights zero");
ABSL_FLAG(bool, block_inputs, false,
          "a deep net reads what blocks each piece too (input encoding 6: an opponent blob "
          "ahead); with --init, a deep net of encoding 4 gets those inputs, their weights zero");
ABSL_FLAG(int64_t, games, 10000, "train until this many games in all");
ABSL_FLAG(double, lambda, 0.7, "TD(lambda)");
ABSL_FLAG(double, lookahead, 0, "weight of the one-throw expectimax target (0..1)");
ABSL_FLAG(double, explore, 0,
          "chance (0..1) that a self-play play is drawn at random instead of the net's best, "
          "the lambda-return cut there: positions of weaker play (docs/evaluation.md, "
          "\"Exploring\")");
ABSL_FLAG(std::string, opponent, "self",
          "self: the net plays every team; random: the other team plays uniformly random "
          "plays, and the net learns the game against the random player");
ABSL_FLAG(std::string, teacher, "",
          "a net of the same rules whose one-throw expectimax values are the --lookahead "
          "targets (default: the net trained)");
ABSL_FLAG(int, teacher_depth, 1,
          "1: the teacher's one-throw expectimax value; 0: its evaluation of the position");
ABSL_FLAG(double, lr, 1e-3, "Adam step size");
ABSL_FLAG(int, batch_games, 8, "games between updates");
ABSL_FLAG(int64_t, checkpoint_every, 1000, "games between checkpoints");
ABSL_FLAG(int64_t, eval_every, 0, "games between strength checks (0: none)");
ABSL_FLAG(int, eval_pairs, 200, "duplicate pairs of a strength check");
ABSL_FLAG(std::string, checkpoint, "", "checkpoint file (default: out + .ckpt)");
ABSL_FLAG(std::string, curve, "", "learning curve SVG");
ABSL_FLAG(std::string, init, "", "weights file to start from");
ABSL_FLAG(std::string, labels, "",
          "train on these labelled positions (uckers label) instead of self-play");
ABSL_FLAG(int, epochs, 4, "passes over --labels");
ABSL_FLAG(std::string, average, "",
          "weights files (comma-separated, of one rules and shape): write --out as their "
          "mean, weight by weight, and train nothing");
ABSL_FLAG(bool, init_other_rules, false,
          "--init may be a net trained for other rules: train it on for --rules");

namespace uckers {

namespace {

// Flags that another mode would leave unused are refused, not ignored: OK
// when none of `flags` is given, else a usage error naming it and `why`.
absl::Status Refuse(const CommandLine& cl, std::initializer_list<const char*> flags,
                    const char* why) {
  for (const char* flag : flags) {
    if (cl.Given(flag)) return UsageError(absl::StrCat("--", flag, ": ", why));
  }
  return absl::OkStatus();
}

// `uckers train --average`: writes --out as the mean of the nets in `files`
// (comma-separated).
absl::Status RunAverage(const CommandLine& cl, const std::string& files) {
  if (absl::Status s = Refuse(cl, {"rules",
                                   "seed",
                                   "endgames",
                                   "hidden",
                                   "layers",
                                   "hit_inputs",
                                   "block_inputs",
                                   "games",
                                   "lambda",
                                   "lookahead",
                                   "explore",
                                   "opponent",
                                   "teacher",
                                   "teacher_depth",
                                   "lr",
                                   "batch_games",
                                   "checkpoint_every",
                                   "eval_every",
                                   "eval_pairs",
                                   "checkpoint",
                                   "curve",
                                   "init",
                                   "init_other_rules",
                                   "labels",
                                   "epochs"},
                              "--average writes the mean of nets and trains nothing");
      !s.ok()) {
    return s;
  }
  std::vector<std::string> names = absl::StrSplit(files, ',', absl::SkipEmpty());
  std::vector<Net> nets;
  for (const std::string& name : names) {
    absl::StatusOr<Net> net = Net::Load(name);
    if (!net.ok()) {
      return Failed(absl::StrCat("--average: ", net.status().message()));
    }
    nets.push_back(*std::move(net));
  }
  absl::StatusOr<Net> mean = AverageNets(nets, names);
  if (!mean.ok()) {
    return UsageError(absl::StrCat("--average: ", mean.status().message()));
  }
  if (absl::Status s = mean->Save(absl::GetFlag(FLAGS_out)); !s.ok()) {
    return Failed(absl::StrCat("--out: ", s.message()));
  }
  std::cout << "wrote " << absl::GetFlag(FLAGS_out) << ": the mean of " << nets.size() << " nets, "
            << mean->Describe() << "\n";
  return absl::OkStatus();
}

// The shape of a new net from the flags (--hidden, --layers and the deep
// net's extra inputs) into `c`, or a usage error saying what is wrong.
absl::Status ReadNetShape(TrainConfig* c) {
  c->hidden = absl::GetFlag(FLAGS_hidden);
  if (std::string layers = absl::GetFlag(FLAGS_layers); !layers.empty()) {
    for (absl::string_view part : absl::StrSplit(layers, ',')) {
      int units = 0;
      if (!absl::SimpleAtoi(part, &units)) {
        return UsageError(
            absl::StrCat("--layers: '", part, "' is not a number of units (give e.g. 256,32,32)"));
      }
      c->layers.push_back(units);
    }
  }
  c->hit_inputs = absl::GetFlag(FLAGS_hit_inputs);
  if (c->hit_inputs && c->layers.empty() && absl::GetFlag(FLAGS_init).empty()) {
    return UsageError("--hit_inputs: for a deep net (give --layers or --init)");
  }
  c->block_inputs = absl::GetFlag(FLAGS_block_inputs);
  if (c->block_inputs && c->hit_inputs) {
    return UsageError("--block_inputs and --hit_inputs: give one (encodings 6 and 5)");
  }
  if (c->block_inputs && c->layers.empty() && absl::GetFlag(FLAGS_init).empty()) {
    return UsageError("--block_inputs: for a deep net (give --layers or --init)");
  }
  return absl::OkStatus();
}

// The training's settings from the flags into `c`, or a usage error saying
// what is wrong.
absl::Status ReadTrainSettings(TrainConfig* c) {
  c->seed = absl::GetFlag(FLAGS_seed);
  c->games = absl::GetFlag(FLAGS_games);
  c->lambda = absl::GetFlag(FLAGS_lambda);
  c->learning_rate = absl::GetFlag(FLAGS_lr);
  c->lookahead = absl::GetFlag(FLAGS_lookahead);
  c->explore = absl::GetFlag(FLAGS_explore);
  if (std::string opponent = absl::GetFlag(FLAGS_opponent);
      opponent == "random" || opponent == "self") {
    c->random_opponent = opponent == "random";
  } else {
    return UsageError(absl::StrCat("--opponent: '", opponent, "' is not self or random"));
  }
  c->teacher = absl::GetFlag(FLAGS_teacher);
  c->teacher_depth = absl::GetFlag(FLAGS_teacher_depth);
  c->batch_games = absl::GetFlag(FLAGS_batch_games);
  c->checkpoint_every = absl::GetFlag(FLAGS_checkpoint_every);
  c->eval_every = absl::GetFlag(FLAGS_eval_every);
  c->eval_pairs = absl::GetFlag(FLAGS_eval_pairs);
  c->out = absl::GetFlag(FLAGS_out);
  c->checkpoint = absl::GetFlag(FLAGS_checkpoint);
  c->curve_svg = absl::GetFlag(FLAGS_curve);
  c->init = absl::GetFlag(FLAGS_init);
  c->init_other_rules = absl::GetFlag(FLAGS_init_other_rules);
  c->labels = absl::GetFlag(FLAGS_labels);
  c->epochs = absl::GetFlag(FLAGS_epochs);
  c->endgames = absl::GetFlag(FLAGS_endgames);
  return absl::OkStatus();
}

// Refuses the flags of the other mode (self-play or --labels) than `c`'s:
// a usage error saying which.
absl::Status CheckTrainMode(const CommandLine& cl, const TrainConfig& c) {
  if (absl::Status s = c.labels.empty()
                           ? Refuse(cl, {"epochs"}, "passes over --labels: give --labels")
                           : Refuse(cl,
                                    {"games", "lambda", "lookahead", "explore", "opponent",
                                     "teacher", "teacher_depth", "batch_games", "checkpoint_every",
                                     "eval_every", "eval_pairs", "curve"},
                                    "self-play training only, not training on --labels");
      !s.ok()) {
    return s;
  }
  if (cl.Given("teacher_depth") && c.teacher.empty()) {
    return UsageError("--teacher_depth: says how --teacher values; give --teacher");
  }
  if (!c.endgames.empty() && !c.labels.empty()) {
    return UsageError("--endgames: self-play training only (label with --endgames instead)");
  }
  return absl::OkStatus();
}

absl::Status RunTrainCommand(const CommandLine& cl) {
  if (absl::GetFlag(FLAGS_out).empty()) {
    return UsageError("--out: give the weights file to write (uckers help train)");
  }
  // `any`: a net of every four-sided ruleset of two teams; `any:<layout>`
  // one of every ruleset of that layout (learn/td.h).
  const std::string rules_flag = absl::GetFlag(FLAGS_rules);
  const bool any_rules = rules_flag == "any" || absl::StartsWith(rules_flag, "any:");
  absl::StatusOr<Rules> rules = rules_flag == "any" ? Rules()
                                : any_rules         ? Rules::Parse(rules_flag.substr(4))
                                                    : Rules::Parse(rules_flag);
  if (!rules.ok()) {
    return UsageError(absl::StrCat("--rules: ", rules.status().message()));
  }
  if (std::string files = absl::GetFlag(FLAGS_average); !files.empty()) {
    return RunAverage(cl, files);
  }
  // Every layout trains: the four-sided game of two teams a net of the six
  // outcomes, every other one a net of the sides' chances (eval/net.h).
  TrainConfig c;
  c.rules = *rules;
  c.any_rules = any_rules;
  if (absl::Status s = ReadNetShape(&c); !s.ok()) return s;
  if (absl::Status s = ReadTrainSettings(&c); !s.ok()) return s;
  if (absl::Status s = CheckTrainMode(cl, c); !s.ok()) return s;
  // Trains by self-play or on --labels.
  return c.labels.empty() ? Train(c, std::cout) : TrainOnLabels(c, std::cout);
}

}  // namespace

const Command& TrainCommand() {
  static const Command command = {
      .name = "train",
      .summary = "self-play TD(lambda) training of the learned evaluation, resumable",
      .usage =
          "uckers train --out FILE [--games N] [--rules R] [--seed S] [--lr X] ...\n"
          "  resumes from FILE.ckpt (or --checkpoint) when it exists; under a layout of\n"
          "  more than two sides or six colours (six, six+teams_of_three, navy+solo,\n"
          "  six+solo) it trains a net of every side's chance (docs/sides.md); with\n"
          "  --labels FILE it trains on positions labelled by `uckers label` instead,\n"
          "  --epochs passes (docs/evaluation.md, \"Rollout labels\"); --layers 256,32,32\n"
          "  makes a new net a deep one, --teacher FILE --lookahead 1 learns another net's\n"
          "  values (docs/evaluation.md, \"The deep net\"); --average A,B,... writes\n"
          "  --out as the mean of those nets' weights (\"Averaging a run's nets\")",
      .flags_file = "app/train.cpp",
      .shared = {{"rules",
                  "ruleset (a rules string), or any: a deep net of every four-sided ruleset "
                  "of two teams, each batch of games under rules drawn from the seed "
                  "(docs/evaluation.md, \"A net of any rules\"), or any:LAYOUT (navy+solo, "
                  "six, six+teams_of_three, six+solo): a net per side of every ruleset of "
                  "that layout (docs/sides.md)"},
                 {"seed", "seed of the self-play games and the initial weights"},
                 {"out", "the weights file, written at each checkpoint (required)"},
                 {"endgames",
                  "an endgame table of --rules: self-play values the positions it "
                  "covers exactly and the net learns those values"}},
      .run = RunTrainCommand,
  };
  return command;
}

}  // namespace uckers
