#include "protocol/uci.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <set>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/coach.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/effects.h"
#include "rules/notation.h"
#include "rules/ufen.h"
#include "rules/version.h"
#include "search/limits.h"
#include "wire/safe_text.h"

namespace uckers {
namespace {

char ColourChar(int colour) { return kColourChars[colour]; }

// A hit_chance difference's most threatened piece, appended to its line
// (docs/protocol.md): " colour <c> squares <n>", or nothing.
std::string ThreatText(const TermDifference& d) {
  if (d.colour < 0) return "";
  return absl::StrCat(" colour ", std::string(1, ColourChar(d.colour)), " squares ", d.squares);
}

std::string PieceList(const std::vector<PieceChange>& changes, const Board& board) {
  if (changes.empty()) return "-";
  std::string out;
  for (const PieceChange& m : changes) {
    absl::StrAppend(&out, out.empty() ? "" : ",", std::string(1, ColourChar(m.colour)),
                    SquareToString(m.from, board), "-", SquareToString(m.to, board));
  }
  return out;
}

std::string BlobList(const std::vector<BlobChange>& blobs, const Layout& layout) {
  if (blobs.empty()) return "-";
  std::string out;
  for (const BlobChange& b : blobs) {
    std::string who;  // the blob's colour, or a mixie blob's side's colours
    for (int c = 0; c < layout.board.colours; ++c) {
      if (b.colour >= 0 ? c == b.colour : layout.side_of[c] == b.team) who += ColourChar(c);
    }
    absl::StrAppend(&out, out.empty() ? "" : ",", who, "@", b.abs, ":", b.size);
  }
  return out;
}

// `effects <play> moves .. knocked .. formed .. broken .. challenge ..
// released .. next <colour> moving <colour> extra <0|1>` (docs/protocol.md).
std::string EffectsLine(const PlayResult& r, const PlayEffects& fx, const Layout& layout) {
  const Board& board = layout.board;
  static constexpr const char* kEvents[] = {"none", "declared", "counted", "won", "failed"};
  std::string challenge = kEvents[static_cast<int>(fx.challenge)];
  if (fx.challenge == ChallengeEvent::kDeclared || fx.challenge == ChallengeEvent::kCounted) {
    absl::StrAppend(&challenge, ":", fx.challenge_sixes, "/", fx.challenge_sixes_needed);
  }
  std::string released;
  for (int c : fx.released) released += ColourChar(c);
  std::string next = fx.game_over
                         ? "- moving - extra 0"
                         : absl::StrCat(std::string(1, ColourChar(fx.next_to_throw)), " moving ",
                                        std::string(1, ColourChar(fx.next_moving_colour)),
                                        " extra ", fx.extra_throw ? 1 : 0);
  return absl::StrCat("effects ", PlayToString(r.play, board), " moves ",
                      PieceList(fx.moves, board), " knocked ", PieceList(fx.knocked_off, board),
                      " formed ", BlobList(fx.blobs_formed, layout), " broken ",
                      BlobList(fx.blobs_broken, layout), " challenge ", challenge, " released ",
                      released.empty() ? "-" : released, " next ", next);
}

constexpr const char* kAuthor = "the Uckers developers";

std::string OptionLine(const OptionDef& def) {
  std::string line = absl::StrCat("option name ", def.name, " type ", def.type, " default ",
                                  def.default_value.empty() ? "<empty>" : def.default_value);
  if (def.type == "spin") absl::StrAppend(&line, " min ", def.min, " max ", def.max);
  for (const std::string& var : def.vars) absl::StrAppend(&line, " var ", var);
  return line;
}

// A die 1..6 from text.
bool ParseDie(const std::string& text, int* die) {
  return absl::SimpleAtoi(text, die) && *die >= 1 && *die <= 6 && text.size() == 1;
}

// The command word of a protocol line ("" for a blank one), and whether
// other words follow it.
std::string CommandOf(absl::string_view line, bool* more = nullptr) {
  constexpr absl::string_view kSpace = " \t\r";
  size_t start = line.find_first_not_of(kSpace);
  if (start == absl::string_view::npos) return "";
  size_t end = std::min(line.find_first_of(kSpace, start), line.size());
  if (more) *more = line.find_first_not_of(kSpace, end) != absl::string_view::npos;
  return std::string(line.substr(start, end - start));
}

// Reads one line into `line`; false at the end of input. A line longer than
// UciLoop::kMaxLineBytes is read to its end but not kept (`too_long`), so
// that no single line can take more memory than the cap.
bool ReadLine(std::istream& in, std::string* line, bool* too_long) {
  line->clear();
  *too_long = false;
  char buf[4096];
  bool any = false;
  auto add = [&](std::streamsize n) {
    if (*too_long) return;
    if (line->size() + static_cast<size_t>(n) > UciLoop::kMaxLineBytes) {
      *too_long = true;
      std::string().swap(*line);
      return;
    }
    line->append(buf, static_cast<size_t>(n));
  };
  while (true) {
    in.getline(buf, sizeof buf);
    std::streamsize n = in.gcount();
    if (in.bad()) return false;
    if (!in.fail()) {  // a whole line, or the last one without its newline
      add(in.eof() ? n : n - 1);
      return true;
    }
    if (in.eof()) {  // nothing more: the end, unless part of a line came first
      add(n);
      return any || n > 0;
    }
    in.clear();  // the buffer is full and the line goes on
    add(n);
    any = true;
  }
}

// Lines read, numbered in order, waiting to be handled.
class LineQueue {
 public:
  struct Item {
    uint64_t seq = 0;
    std::string line;
    bool too_long = false;  // a line over kMaxLineBytes, not kept
  };
  void Push(Item item) {
    std::lock_guard<std::mutex> lock(mutex_);
    items_.push_back(std::move(item));
    ready_.notify_one();
  }
  // No more lines will come; Pop returns false once the queue is empty.
  void Close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    ready_.notify_one();
  }
  bool Pop(Item* item) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return closed_ || !items_.empty(); });
    if (items_.empty()) return false;
    *item = std::move(items_.front());
    items_.pop_front();
    return true;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Item> items_;
  bool closed_ = false;
};

}  // namespace

UciLoop::UciLoop(Engine& engine, std::ostream& out) : engine_(engine), out_(out) {}

void UciLoop::Print(const std::string& line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << line << '\n' << std::flush;
}

void UciLoop::Error(absl::string_view what) {
  const std::string text = SafeMessage(what);
  {
    std::lock_guard<std::mutex> lock(out_mutex_);
    last_error_ = text;
  }
  ++errors_;
  Print(absl::StrCat("info string error: ", text));
}

std::string UciLoop::last_error() const {
  std::lock_guard<std::mutex> lock(out_mutex_);
  return last_error_;
}

void UciLoop::WaitUnlessInfinite() {
  if (!engine_.RunningInfinite()) engine_.Wait();
}

// Lines are read on this thread and handled in order on another, so that
// `stop` is heard at once even while an earlier command waits for a finite
// search (`isready`, `setoption`, `go`, ... queue behind it): it ends every
// job sent before it, the running one and any still queued. `quit` does the
// same, then ends the loop once the lines before it are handled; end of
// input stops nothing that can end by itself (a piped script gets every
// answer in full, the last job's too; only `go infinite` is stopped).
void UciLoop::Run(std::istream& in) {
  // Reading std::cin flushes the stream tied to it (std::cout) from this
  // thread, outside out_mutex_, racing a search thread's Print: untie it.
  // Print flushes every line itself.
  in.tie(nullptr);
  LineQueue queue;
  std::atomic<uint64_t> stop_before{0};  // lines numbered below it are stopped
  std::thread handler([&] {
    LineQueue::Item item;
    while (queue.Pop(&item)) {
      if (item.too_long) {
        Error(
            absl::StrCat("line too long: at most ", kMaxLineBytes, " bytes; the line was ignored"));
        continue;
      }
      bool more = HandleLine(item.line);
      if (item.seq < stop_before.load()) engine_.Stop();
      if (!more) break;
    }
  });
  std::string line;
  uint64_t seq = 0;
  bool quit = false;
  bool too_long = false;
  while (!quit && ReadLine(in, &line, &too_long)) {
    if (too_long) {
      queue.Push({seq++, "", true});
      continue;
    }
    bool more = false;
    std::string cmd = CommandOf(line, &more);
    quit = cmd == "quit";
    // `stop` with words after it is an error (HandleLine), not a stop.
    if ((cmd == "stop" && !more) || quit) {  // quit: exit as soon as possible
      stop_before = seq;
      engine_.Stop();
      if (cmd == "stop") continue;
    }
    queue.Push({seq++, line});
  }
  queue.Close();
  handler.join();
  // At end of input the last job still runs: a finite one is waited for;
  // an infinite search, which no line can stop now, is stopped.
  if (!quit) WaitUnlessInfinite();
  engine_.Stop();
  engine_.Wait();
}

const std::vector<ProtocolCommand>& ProtocolCommands() {
  static const std::vector<ProtocolCommand> commands = {
      {"uci", "uci", "the engine's name, author and options, then uciok", 0},
      {"isready", "isready", "readyok once the work in hand is done", 0},
      {"setoption", "setoption name <name> value <value>",
       "sets an option (uci lists them with their ranges)"},
      {"ucinewgame", "ucinewgame", "a new game: clears the search state", 0},
      {"position", "position startpos|ufen <ufen> [moves <throw>:<play> ...]",
       "sets the position, optionally after a game's throws and plays"},
      {"go", "go [dice <d1> <d2>] [movetime <ms>] [nodes <n>] [depth <plies>] [infinite] ...",
       "searches the best play for a throw, or evaluates before the throw"},
      {"stop", "stop", "ends a search or perft at once: its answer follows", 0},
      {"eval", "eval", "the static evaluation and its terms", 0},
      {"legal", "legal <d1> <d2>", "every distinct legal play of a throw with the UFEN after it"},
      {"roll", "roll [seed <s>] [index <n>] [count <k>]", "the dice of a seed's sequence"},
      {"d", "d", "the board drawn in text, the UFEN and the colour to throw", 0},
      {"perft", "perft <depth>", "counts the leaves of the throw-and-play tree"},
      {"bench", "bench", "a fixed search on fixed positions: nodes, speed and the signature", 0},
      {"analyse", "analyse [level <name>]", "reviews the game of the last position ... moves"},
      {"judge", "judge <d1> <d2> <play> [level <name>]",
       "the tutor's verdict on a play: its loss against the best, the mark, the terms", 5},
      {"throwmap", "throwmap [level <name>]",
       "each of the 21 throws: its chance, best play and the mover's chances after it", 2},
      {"explain", "explain <d1> <d2> [level <name>]",
       "the best plays of a throw, each with the terms in which it differs from the best", 4},
      {"help", "help [<command>]", "the commands, or one command's synopsis", 1},
      {"quit", "quit", "ends any work at once and exits", 0},
  };
  return commands;
}

const ProtocolCommand* FindProtocolCommand(absl::string_view name) {
  for (const ProtocolCommand& c : ProtocolCommands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

void UciLoop::Help(const Args& args) {
  if (args.size() == 2) {
    const ProtocolCommand* c = FindProtocolCommand(args[1]);
    if (c == nullptr) return Error(absl::StrCat("help: no command '", args[1], "'"));
    Print(absl::StrCat("help ", c->synopsis));
    Print(absl::StrCat("help   ", c->help));
    return;
  }
  for (const ProtocolCommand& c : ProtocolCommands()) {
    Print(absl::StrCat("help ", c.synopsis));
  }
  Print("help (docs/protocol.md describes each command and its output)");
}

bool UciLoop::HandleLine(absl::string_view line) {
  Args args = absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
  if (args.empty()) return true;
  const std::string& cmd = args[0];
  const ProtocolCommand* known = FindProtocolCommand(cmd);
  if (known == nullptr) {
    Error(absl::StrCat("unknown command '", cmd, "' (help lists the commands)"));
    return true;
  }
  if (known->max_arguments >= 0 && static_cast<int>(args.size()) - 1 > known->max_arguments) {
    // `ucinewgame garbage` is an error, not a new game.
    Error(known->max_arguments == 0
              ? absl::StrCat("'", cmd, "' takes no arguments, not '", args[1],
                             args.size() > 2 ? " ..." : "", "'; nothing was done")
              : absl::StrCat(cmd, ": unexpected '", args[known->max_arguments + 1], "' (",
                             known->synopsis, ")"));
    return true;
  }
  if (cmd == "quit") return false;
  if (cmd == "help") {
    Help(args);
  } else if (cmd == "uci") {
    Uci();
  } else if (cmd == "isready") {
    WaitUnlessInfinite();
    Print("readyok");
  } else if (cmd == "setoption") {
    SetOption(args);
  } else if (cmd == "ucinewgame") {
    WaitUnlessInfinite();
    engine_.NewGame();
  } else if (cmd == "position") {
    SetPosition(args);
  } else if (cmd == "go") {
    Go(args);
  } else if (cmd == "stop") {
    engine_.Stop();
  } else if (cmd == "eval") {
    Print(engine_.EvalText());
  } else if (cmd == "legal") {
    Legal(args);
  } else if (cmd == "roll") {
    Roll(args);
  } else if (cmd == "d") {
    Print(engine_.BoardText());
  } else if (cmd == "perft") {
    Perft(args);
  } else if (cmd == "bench") {
    Bench();
  } else if (cmd == "analyse") {
    Analyse(args);
  } else if (cmd == "judge") {
    Judge(args);
  } else if (cmd == "throwmap") {
    ThrowMapCommand(args);
  } else if (cmd == "explain") {
    ExplainCommand(args);
  } else {
    Error(absl::StrCat("unknown command '", cmd, "'"));
  }
  return true;
}

void UciLoop::Uci() {
  Print(absl::StrCat("id name ", kEngineName, " ", kVersion));
  Print(absl::StrCat("id author ", kAuthor));
  for (const OptionDef& def : OptionDefs()) Print(OptionLine(def));
  Print("uciok");
}

void UciLoop::SetOption(const Args& args) {
  // setoption name <name> value <value>
  if (args.size() != 5 || args[1] != "name" || args[3] != "value") {
    Error("expected: setoption name <name> value <value>");
    return;
  }
  WaitUnlessInfinite();
  if (absl::Status s = engine_.SetOption(args[2], args[4]); !s.ok()) {
    Error(s.message());
  }
}

void UciLoop::SetPosition(const Args& args) {
  size_t i = 1;
  std::string start;
  if (args.size() > 1 && args[1] == "startpos") {
    start = "startpos";
    i = 2;
  } else if (args.size() >= 5 && args[1] == "ufen") {
    start = absl::StrJoin(args.begin() + 2, args.begin() + 5, " ");
    i = 5;
  } else {
    Error("expected: position startpos|ufen <ufen> [moves <throw>:<play> ...]");
    return;
  }
  std::vector<std::string> moves;
  if (i < args.size()) {
    if (args[i] != "moves") {
      Error(absl::StrCat("position: expected 'moves', found '", args[i], "'"));
      return;
    }
    moves.assign(args.begin() + i + 1, args.end());
  }
  if (absl::Status s = engine_.SetPosition(start, moves); !s.ok()) {
    Error(s.message());
  }
}

void UciLoop::Go(const Args& args) {
  GoRequest request;
  LimitsInput limits;
  std::set<std::string> given;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& key = args[i];
    bool has_value = i + 1 < args.size();
    int64_t n = 0;
    // A parameter given twice ("depth 2 depth 5") has no one meaning.
    if (!given.insert(key).second) return Error(absl::StrCat("go: '", key, "' given twice"));
    if (key == "infinite") {
      limits.infinite = true;
    } else if (key == "dice") {
      int d1 = 0, d2 = 0;
      if (i + 2 >= args.size() || !ParseDie(args[i + 1], &d1) || !ParseDie(args[i + 2], &d2)) {
        return Error("go: dice needs two dice 1..6, like 'dice 6 3'");
      }
      request.dice = MakeThrow(d1, d2);
      i += 2;
    } else if (key == "movetime" || key == "nodes" || key == "depth" || key == "wtime" ||
               key == "btime" || key == "winc" || key == "binc" || key == "movestogo") {
      // Clocks as chess GUIs send them: w is red and yellow's team, b green
      // and blue's. Every range is search/limits.h's, as for gRPC.
      if (!has_value || !absl::SimpleAtoi(args[i + 1], &n)) {
        return Error(absl::StrCat("go: ", key, " needs a whole number"));
      }
      int team = key[0] == 'b' ? 1 : 0;
      if (key == "movetime") limits.movetime_ms = n;
      if (key == "nodes") limits.nodes = n;
      if (key == "depth") limits.depth = n;
      if (key == "wtime" || key == "btime") limits.time_ms[team] = n;
      if (key == "winc" || key == "binc") limits.increment_ms[team] = n;
      if (key == "movestogo") limits.moves_to_go = n;
      ++i;
    } else {
      return Error(absl::StrCat("go: unknown parameter '", key, "'"));
    }
  }
  absl::StatusOr<SearchLimits> made = MakeLimits(limits);
  if (!made.ok()) return Error(absl::StrCat("go: ", made.status().message()));
  request.limits = *made;
  bool with_dice = request.dice.has_value();
  WaitUnlessInfinite();  // a finite search ends by itself: queue behind it
  if (Engine::OpponentVerdict v = engine_.OpponentSoFar(); v.modelled_random && !engine_.busy()) {
    Print(absl::StrFormat(
        "info string opponent: the other team's %d plays so far look random (log odds %.1f): "
        "searching against random",
        v.decisions, v.log_odds));
  } else if (v.random_sides != 0 && !engine_.busy()) {
    std::vector<std::string> sides;
    for (int side = 0; side < kMaxColours; ++side) {
      if (v.random_sides >> side & 1) sides.push_back(absl::StrCat(side));
    }
    Print(absl::StrCat("info string opponent: the plays so far of side",
                       sides.size() > 1 ? "s " : " ", absl::StrJoin(sides, ", "),
                       " look random: searching them as random"));
  }
  absl::Status s = engine_.Go(
      request, [this, with_dice](const SearchReport& r) { PrintReport(r, with_dice); },
      [this](const SearchReport&, const std::string& best) {
        Print(absl::StrCat("bestmove ", best));
      });
  if (!s.ok()) Error(s.message());
}

void UciLoop::PrintReport(const SearchReport& r, bool with_pv) {
  uint64_t nps = r.nodes * 1000 / std::max<int64_t>(r.time_ms, 1);
  std::string head =
      absl::StrCat("info depth ", r.depth, " nodes ", r.nodes, " nps ", nps, " time ", r.time_ms);
  // With more than two sides (PROTOCOL.md): the mover's side's chance and
  // expected points, then every side's chance.
  auto score = [&](const Evaluation& e) {
    if (r.sides.empty()) return absl::StrFormat("score win %.4f points %.4f", e.Win(), e.Equity());
    return SidesScoreText(e.Win(), r.sides);
  };
  if (r.exact) Print("info string exact: the values come from the endgame table");
  if (!with_pv) {
    Print(absl::StrCat(head, " ", score(r.eval)));
    return;
  }
  bool multi = engine_.options().multipv > 1;
  for (size_t k = 0; k < r.candidates.size(); ++k) {
    const Candidate& c = r.candidates[k];
    Print(absl::StrCat(head, multi ? absl::StrCat(" multipv ", k + 1) : "", " ", score(c.eval),
                       " pv ", PlayToString(c.play, engine_.position().board())));
  }
}

void UciLoop::Legal(const Args& args) {
  int d1 = 0, d2 = 0;
  bool effects = args.size() == 4 && args[3] == "effects";
  if ((args.size() != 3 && !effects) || !ParseDie(args[1], &d1) || !ParseDie(args[2], &d2)) {
    return Error("expected: legal <d1> <d2> [effects] with dice 1..6");
  }
  std::vector<PlayResult> plays = engine_.LegalPlays(MakeThrow(d1, d2));
  for (const PlayResult& r : plays) {
    const Position& pos = engine_.position();
    Print(absl::StrCat("play ", PlayToString(r.play, pos.board()), " ufen ", ToUfen(r.after)));
    if (effects) {
      Print(EffectsLine(r, EffectsOf(pos, r, engine_.options().rules), pos.layout()));
    }
  }
  Print(absl::StrCat("legal ", plays.size()));
}

void UciLoop::Roll(const Args& args) {
  // roll [seed <s>] [index <n>] [count <k>]
  uint64_t seed = 0;
  int index = 0, count = 1;
  for (size_t i = 1; i < args.size(); i += 2) {
    bool ok = i + 1 < args.size();
    if (ok && args[i] == "seed") {
      ok = absl::SimpleAtoi(args[i + 1], &seed) && seed != 0;
    } else if (ok && args[i] == "index") {
      ok = absl::SimpleAtoi(args[i + 1], &index);
    } else if (ok && args[i] == "count") {
      ok = absl::SimpleAtoi(args[i + 1], &count);
    } else {
      ok = false;
    }
    if (!ok) {
      return Error("expected: roll [seed <1..2^64-1>] [index <0..49999>] [count <1..1000>]");
    }
  }
  if (seed == 0) seed = NewDiceSeed();
  absl::StatusOr<std::vector<std::pair<int, int>>> dice = RollDice(seed, index, count);
  if (!dice.ok()) return Error(dice.status().message());
  for (size_t k = 0; k < dice->size(); ++k) {
    Print(absl::StrCat("roll seed ", seed, " index ", index + k, " dice ", (*dice)[k].first, " ",
                       (*dice)[k].second));
  }
}

void UciLoop::Perft(const Args& args) {
  int depth = 0;
  if (args.size() != 2 || !absl::SimpleAtoi(args[1], &depth)) {
    return Error("expected: perft <depth>");
  }
  WaitUnlessInfinite();
  absl::Status s = engine_.StartPerft(depth, [this, depth](std::optional<uint64_t> n) {
    if (n) {
      Print(absl::StrCat("perft ", depth, " nodes ", *n));
    } else {
      Print(absl::StrCat("info string perft ", depth, " stopped"));
    }
  });
  if (!s.ok()) Error(s.message());
}

void UciLoop::Analyse(const Args& args) {
  // analyse [level <name>]: reviews the game of the last position command.
  std::string level;
  if (args.size() == 3 && args[1] == "level") {
    level = args[2];
  } else if (args.size() != 1) {
    return Error("expected: analyse [level <name>]");
  }
  WaitUnlessInfinite();
  static const char* kMarks[] = {"none", "none", "doubtful", "bad", "verybad"};
  absl::Status s = engine_.StartAnalysis(
      level,
      [this](const AnalysedItem& i) {
        // With more sides than RY and GB, every side's chance ("sides").
        std::string chances = absl::StrFormat("rywin %.4f", i.ry_win_before);
        if (!i.side_wins_before.empty()) {
          chances = "sides";
          for (double w : i.side_wins_before) absl::StrAppendFormat(&chances, " %.4f", w);
        }
        Print(
            absl::StrFormat("analysis item %d %s:%s team %s best %s lost %.4f mark %s luck %.4f %s",
                            i.index, ThrowToString(i.dice), i.play, i.team, i.best_play,
                            i.equity_lost, kMarks[static_cast<int>(i.mark)], i.luck, chances));
      },
      [this](absl::StatusOr<GameAnalysis> a) {
        if (!a.ok()) return Error(a.status().message());
        for (const TeamAnalysis& t : a->teams) {
          Print(absl::StrFormat(
              "analysis team %s decisions %d lost %.4f rate %.4f luck %.4f points %.0f "
              "adjusted %.4f rating %s",
              t.team, t.decisions, t.equity_lost, t.error_rate, t.luck, t.points,
              t.luck_adjusted_points, t.rating));
        }
        Print("analysis done");
      });
  if (!s.ok()) Error(s.message());
}

// `judge <d1> <d2> <play> [level <name>]`: the tutor's verdict on a play of
// the current position (docs/protocol.md).
void UciLoop::Judge(const Args& args) {
  int d1 = 0, d2 = 0;
  std::string level;
  if (args.size() == 6 && args[4] == "level") {
    level = args[5];
  } else if (args.size() != 4) {
    return Error("expected: judge <d1> <d2> <play> [level <name>] with dice 1..6");
  }
  if (!ParseDie(args[1], &d1) || !ParseDie(args[2], &d2)) {
    return Error("judge: dice must be two dice 1..6, like 'judge 6 3 rb-0,r0-3'");
  }
  WaitUnlessInfinite();
  std::atomic<bool> stop{false};
  absl::StatusOr<Judgement> j = engine_.Judge(MakeThrow(d1, d2), args[3], level, stop);
  if (!j.ok()) return Error(absl::StrCat("judge: ", j.status().message()));
  static const char* kMarks[] = {"none", "none", "doubtful", "bad", "verybad"};
  const Position& pos = engine_.position();
  double best = CandidatePoints(pos, j->candidates[0]);
  for (size_t k = 0; k < j->candidates.size() && k < 3; ++k) {
    const Candidate& c = j->candidates[k];
    Print(absl::StrFormat("judge alternative %d %s equity %.4f win %.4f lost %.4f", k + 1,
                          PlayToString(c.play, pos.board()), CandidatePoints(pos, c), c.eval.Win(),
                          std::max(0.0, best - CandidatePoints(pos, c))));
  }
  for (const TermDifference& d : j->differences) {
    Print(absl::StrCat(absl::StrFormat("judge differs %s best %.4g play %.4g win_chance %.4f",
                                       d.term, d.best, d.play, d.win_chance),
                       ThreatText(d)));
  }
  Print(absl::StrFormat(
      "judge play %s equity %.4f win %.4f best %s equity %.4f win %.4f lost %.4f mark %s legal %d "
      "level %s time %d",
      PlayToString(j->played.play, pos.board()), CandidatePoints(pos, j->played),
      j->played.eval.Win(), PlayToString(j->candidates[0].play, pos.board()), best,
      j->candidates[0].eval.Win(), j->equity_lost, kMarks[static_cast<int>(j->mark)],
      j->candidates.size(), j->level, j->time_ms));
}

// `throwmap [level <name>]`: the next throw's map of the current position.
void UciLoop::ThrowMapCommand(const Args& args) {
  std::string level;
  if (args.size() == 3 && args[1] == "level") {
    level = args[2];
  } else if (args.size() != 1) {
    return Error("expected: throwmap [level <name>]");
  }
  WaitUnlessInfinite();
  std::atomic<bool> stop{false};
  absl::StatusOr<ThrowMap> map = engine_.MapThrows(level, stop);
  if (!map.ok()) return Error(absl::StrCat("throwmap: ", map.status().message()));
  const Position& pos = engine_.position();
  for (const ThrowMapEntry& e : map->throws) {
    Print(absl::StrFormat("throwmap throw %d%d probability %.4f best %s win %.4f equity %.4f",
                          e.dice.high, e.dice.low, e.probability,
                          PlayToString(e.best.play, pos.board()), e.best.eval.Win(),
                          CandidatePoints(pos, e.best)));
  }
  Print(absl::StrFormat("throwmap mean win %.4f equity %.4f level %s time %d", map->eval.Win(),
                        map->eval.Equity(), map->level, map->time_ms));
}

// `explain <d1> <d2> [level <name>]`: the best plays of a throw (at least
// four, or as many as MultiPV asks), each with what it is worth and the
// terms in which it differs from the best (Engine::Explain), then a line
// that ends the answer.
void UciLoop::ExplainCommand(const Args& args) {
  int d1 = 0, d2 = 0;
  std::string level;
  if (args.size() == 5 && args[3] == "level") {
    level = args[4];
  } else if (args.size() != 3) {
    return Error("expected: explain <d1> <d2> [level <name>] with dice 1..6");
  }
  if (!ParseDie(args[1], &d1) || !ParseDie(args[2], &d2)) {
    return Error("explain: dice must be two dice 1..6, like 'explain 6 3'");
  }
  WaitUnlessInfinite();
  SearchRequest request = engine_.RequestFor(GoRequest{MakeThrow(d1, d2), {}});
  if (!level.empty()) request.level = level;
  request.multipv = std::max(request.multipv, 4);
  std::atomic<bool> stop{false};
  absl::StatusOr<SearchReport> report = engine_.Search(request, stop);
  if (!report.ok()) return Error(absl::StrCat("explain: ", report.status().message()));
  const Position& pos = engine_.position();
  std::vector<std::vector<TermDifference>> why = engine_.Explain(*report);
  double best = CandidatePoints(pos, report->candidates[0]);
  for (size_t k = 0; k < report->candidates.size(); ++k) {
    const Candidate& c = report->candidates[k];
    Print(absl::StrFormat("explain candidate %d %s equity %.4f win %.4f lost %.4f", k + 1,
                          PlayToString(c.play, pos.board()), CandidatePoints(pos, c), c.eval.Win(),
                          std::max(0.0, best - CandidatePoints(pos, c))));
    for (const TermDifference& d : why[k]) {
      Print(
          absl::StrCat(absl::StrFormat("explain differs %d %s best %.4g play %.4g win_chance %.4f",
                                       k + 1, d.term, d.best, d.play, d.win_chance),
                       ThreatText(d)));
    }
  }
  Print(absl::StrFormat("explain done level %s depth %d time %d", request.level, report->depth,
                        report->time_ms));
}

void UciLoop::Bench() {
  WaitUnlessInfinite();
  if (engine_.RunningInfinite()) return Error("bench: a search is running");
  BenchResult r = Engine::Bench();
  Print(absl::StrFormat("bench nodes %d nps %d signature %016x", r.nodes, r.nps, r.signature));
}

}  // namespace uckers
