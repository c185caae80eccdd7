#include "server/api.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#include "absl/strings/str_cat.h"
#include "engine/coach.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "rules/checked.h"
#include "rules/dice_sequence.h"
#include "rules/effects.h"
#include "rules/notation.h"
#include "rules/rules.h"
#include "rules/ufen.h"
#include "rules/version.h"
#include "server/engine_pool.h"
#include "server/proto_convert.h"
#include "wire/analysis.h"
#include "wire/record.h"
#include "wire/safe_text.h"

namespace uckers {

std::chrono::milliseconds DeadlineMargin(std::chrono::milliseconds time_left,
                                         const ServiceLimits& limits) {
  using std::chrono::milliseconds;
  milliseconds least(limits.deadline_margin_ms);
  milliseconds share(time_left.count() / 100 * limits.deadline_margin_percent);
  return std::clamp(share, least, std::max(least, milliseconds(1000)));
}

namespace {

using Clock = std::chrono::system_clock;

// A refusal of the engine or of a request's reading as the wire gives it:
// INVALID_ARGUMENT unless it is RESOURCE_EXHAUSTED or INTERNAL, its message
// made safe to print.
absl::Status Wire(const absl::Status& s) {
  if (s.ok()) return s;
  absl::StatusCode code = absl::StatusCode::kInvalidArgument;
  if (absl::IsResourceExhausted(s)) code = absl::StatusCode::kResourceExhausted;
  if (absl::IsInternal(s)) code = absl::StatusCode::kInternal;
  return absl::Status(code, SafeMessage(s.message()));
}

// When a searching call's search must stop: its deadline less the margin
// that leaves time to answer.
Clock::time_point StopAt(const CallControl& call, const ServiceLimits& limits) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(call.deadline - Clock::now());
  return call.deadline - DeadlineMargin(left, limits);
}

bool Cancelled(const CallControl& call) { return call.cancelled && call.cancelled(); }

// The server's caps on one request's limits (ServiceLimits).
absl::Status CheckCaps(const SearchLimits& asked, const ServiceLimits& caps) {
  if (asked.depth && *asked.depth > caps.max_depth) {
    return absl::InvalidArgumentError(absl::StrCat("limits.depth: ", *asked.depth,
                                                   " is above this server's cap of ",
                                                   caps.max_depth, " (--max_depth)"));
  }
  if (asked.nodes && *asked.nodes > static_cast<uint64_t>(caps.max_nodes)) {
    return absl::InvalidArgumentError(absl::StrCat("limits.nodes: ", *asked.nodes,
                                                   " is above this server's cap of ",
                                                   caps.max_nodes, " (--max_nodes)"));
  }
  if (asked.movetime_ms && *asked.movetime_ms > caps.max_movetime_ms) {
    return absl::InvalidArgumentError(absl::StrCat("limits.movetime_ms: ", *asked.movetime_ms,
                                                   " is above this server's cap of ",
                                                   caps.max_movetime_ms, " (--max_movetime_ms)"));
  }
  return absl::OkStatus();
}

// The common part of every search request.
struct Prepared {
  Rules rules;
  Position position;
  SearchRequest request;
  int hash_mb = 2;
};

template <typename Request>
absl::StatusOr<Prepared> Prepare(const Request& r, const ServiceLimits& limits,
                                 std::optional<Throw> dice) {
  Prepared p;
  absl::StatusOr<Rules> rules = proto::RulesFrom(r.rules());
  if (!rules.ok()) return rules.status();
  p.rules = *rules;
  absl::StatusOr<Position> pos = proto::PositionFrom(r.position(), p.rules);
  if (!pos.ok()) return pos.status();
  if (pos->IsGameOver()) {
    return absl::InvalidArgumentError("position: the game is over, there is nothing to search");
  }
  p.position = *pos;
  p.request.dice = dice;
  if (absl::Status s =
          proto::SearchRequestFrom(r.limits(), r.options(), limits.max_threads, &p.request);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<int> hash = proto::HashFrom(r.options(), limits.max_hash_mb);
  if (!hash.ok()) return hash.status();
  p.hash_mb = *hash;
  p.request.tree_mb = limits.tree_mb;
  p.request.endgames = limits.endgames.get();
  if (absl::Status s = CheckCaps(p.request.limits, limits); !s.ok()) return s;
  if (absl::Status s = CheckClocksFor(p.request.limits.clocks, p.position); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("limits: ", s.message()));
  }
  // A clock budgets its own time, at most half of it a decision: a clock
  // above twice the cap is read as twice the cap.
  for (std::optional<int64_t>& clock : p.request.limits.clocks.time_ms) {
    if (clock) clock = std::min(*clock, 2 * limits.max_movetime_ms);
  }
  return p;
}

// The rules, position and throw every play request carries.
struct PlayInputs {
  Rules rules;
  Position position;
  Throw dice;
};

template <typename Request>
absl::StatusOr<PlayInputs> ParsePlayInputs(const Request& r) {
  absl::StatusOr<Rules> rules = proto::RulesFrom(r.rules());
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Position> pos = proto::PositionFrom(r.position(), *rules);
  if (!pos.ok()) return pos.status();
  absl::StatusOr<Throw> t = proto::ThrowFrom(r.throw_(), true);
  if (!t.ok()) return t.status();
  return PlayInputs{*rules, *pos, *t};
}

// A candidate of a search of `pos`, valued for the side to throw there.
v1::Candidate CandidateOut(const Candidate& c, const Position& pos) {
  v1::Candidate out;
  out.set_play(PlayToString(c.play, pos.board()));
  *out.mutable_evaluation() = proto::OutcomesOut(c.eval, c.sides, pos.SideOf(pos.to_throw()));
  *out.mutable_position_after() = proto::PositionOut(c.after);
  return out;
}

}  // namespace

namespace {

// Runs a search on a thread of its own at a lower priority (nice +10), and
// waits for it: searches use whatever CPU is left, and cheap calls served
// beside them (ListLegalPlays, ApplyPlay) are not starved. A
// thread's nice value can be raised without privileges, never lowered, so
// the search gets a fresh thread rather than lowering a pooled one.

// The options of the engine a searching call runs on: the call's rules, a
// table of `hash_mb` and the server's endgame table.
EngineOptions OptionsFor(const Rules& rules, int hash_mb, const ServiceLimits& limits) {
  EngineOptions options;
  options.rules = rules;
  options.hash_mb = hash_mb;
  options.endgames = limits.endgames;
  return options;
}

}  // namespace

Api::Api(ServiceLimits limits)
    : limits_(std::move(limits)),
      engines_(std::make_unique<EnginePool>(limits_.max_searches, kDefaultHashMb)) {
  std::optional<dealer::Key> key = limits_.dealer_key;
  if (!key) {
    // Without a random generator there is no key and no game is dealt
    // (StartDealtGame says so): never a key of zeros.
    absl::StatusOr<dealer::Key> drawn = dealer::NewKey();
    if (drawn.ok()) key = *drawn;
  }
  dealt_games_ = std::make_unique<DealtGames>(key, limits_.dealt_games);
}

class Api::Slot {
 public:
  explicit Slot(Api* service) : service_(service) {
    claimed_ = ++service_->active_ <= service_->limits_.max_searches;
  }
  ~Slot() { --service_->active_; }
  absl::Status status() const {
    if (claimed_) return absl::OkStatus();
    return absl::ResourceExhaustedError(absl::StrCat(
        "too many searches at once (limit ", service_->limits_.max_searches, "): retry later"));
  }

 private:
  Api* service_;
  bool claimed_;
};

void Api::Drain(Clock::time_point at) {
  drain_at_ = at.time_since_epoch().count();
  draining_ = true;
}

absl::Status Api::Admit(const CallControl& call) const {
  if (draining_) {
    return absl::UnavailableError("the server is shutting down: no new searches (retry elsewhere)");
  }
  if (call.deadline == Clock::time_point::max()) return absl::OkStatus();
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(call.deadline - Clock::now());
  std::chrono::milliseconds margin = DeadlineMargin(left, limits_);
  if (left <= margin) {
    return absl::DeadlineExceededError(absl::StrCat(
        "the deadline is ", std::max<int64_t>(0, left.count()),
        " ms away, within the search margin of ", margin.count(), " ms: no time to search"));
  }
  return absl::OkStatus();
}

Api::~Api() = default;

absl::Status Api::RunSearch(const CallControl& call, EngineOptions options,
                            const std::optional<Position>& pos, std::atomic<bool>* stop,
                            const std::function<void(Engine&)>& work) {
  Clock::time_point stop_at = StopAt(call, limits_);
  auto should_stop = [&] {
    Clock::time_point now = Clock::now();
    return Cancelled(call) || now >= stop_at || now.time_since_epoch().count() >= drain_at_.load();
  };
  absl::Status s = engines_->Run(std::move(options), pos, stop, should_stop, work);
  return s.ok() ? s : absl::InternalError(absl::StrCat("engine: ", s.message()));
}

absl::Status Api::GetEngineInfo(const v1::GetEngineInfoRequest&, v1::EngineInfo* response) {
  response->set_name(kEngineName);
  response->set_version(kVersion);
  for (const OptionDef& def : OptionDefs()) {
    v1::OptionInfo* o = response->add_options();
    o->set_name(def.name);
    o->set_type(def.type);
    o->set_default_value(def.default_value);
    o->set_min(def.min);
    o->set_max(def.max);
    for (const std::string& v : def.vars) o->add_values(v);
    o->set_help(def.help);
  }
  for (const std::string& name : PresetNames()) response->add_rulesets(name);
  for (int i = 0; i < kNumSwitches; ++i) {
    Switch s = static_cast<Switch>(i);
    response->add_switches(std::string(SwitchName(s)));
    response->add_implemented_switches(std::string(SwitchName(s)));  // all of them
  }
  for (const std::string& name : LevelNames()) response->add_levels(name);
  return absl::OkStatus();
}

absl::Status Api::ListLegalPlays(const v1::ListLegalPlaysRequest& request,
                                 v1::ListLegalPlaysResponse* response) {
  absl::StatusOr<PlayInputs> in = ParsePlayInputs(request);
  if (!in.ok()) return Wire(in.status());
  absl::StatusOr<int> players = proto::PlayersFrom(request.players(), in->position.layout());
  if (!players.ok()) return Wire(players.status());
  for (const PlayResult& r : SortedLegalPlays(in->position, in->rules, in->dice)) {
    v1::PlayOutcome* out = response->add_plays();
    out->set_play(PlayToString(r.play, in->position.board()));
    if (request.structured_positions()) {
      *out->mutable_position_after() = proto::PositionOut(r.after);
    } else {
      out->mutable_position_after()->set_ufen(ToUfen(r.after));
    }
    *out->mutable_effects() =
        proto::EffectsOut(EffectsOf(in->position, r, in->rules), r.after, *players);
  }
  return absl::OkStatus();
}

absl::Status Api::ApplyPlay(const v1::ApplyPlayRequest& request, v1::ApplyPlayResponse* response) {
  absl::StatusOr<PlayInputs> in = ParsePlayInputs(request);
  if (!in.ok()) return Wire(in.status());
  absl::StatusOr<int> players = proto::PlayersFrom(request.players(), in->position.layout());
  if (!players.ok()) return Wire(players.status());
  absl::StatusOr<PlayResult> r = ParsePlay(request.play(), in->position, in->rules, in->dice);
  if (!r.ok())
    return Wire(absl::InvalidArgumentError(absl::StrCat("play: ", r.status().message())));
  response->set_play(PlayToString(r->play, in->position.board()));
  *response->mutable_position() = proto::PositionOut(r->after);
  *response->mutable_result() = proto::ResultOut(r->after);
  *response->mutable_effects() =
      proto::EffectsOut(EffectsOf(in->position, *r, in->rules), r->after, *players);
  return absl::OkStatus();
}

absl::Status Api::BestMove(const CallControl& call, const v1::BestMoveRequest& request,
                           v1::BestMoveResponse* response) {
  if (absl::Status s = Admit(call); !s.ok()) return s;
  absl::StatusOr<Throw> t = proto::ThrowFrom(request.throw_(), true);
  if (!t.ok()) return Wire(t.status());
  absl::StatusOr<Prepared> p = Prepare(request, limits_, *t);
  if (!p.ok()) return Wire(p.status());
  Slot slot(this);
  if (!slot.status().ok()) return slot.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<SearchReport> report;
  std::vector<std::vector<TermDifference>> why;  // each candidate's, below the front
  if (absl::Status s =
          RunSearch(call, OptionsFor(p->rules, p->hash_mb, limits_), p->position, &stop,
                    [&](Engine& engine) {
                      report = engine.Search(p->request, stop);
                      if (report.ok()) why = engine.Explain(*report);
                    });
      !s.ok()) {
    return Wire(s);
  }
  if (!report.ok()) return Wire(report.status());
  if (Cancelled(call)) return absl::CancelledError("cancelled");
  const Candidate& best = report->candidates[0];
  const Position& pos = p->position;
  response->set_play(PlayToString(best.play, pos.board()));
  *response->mutable_evaluation() =
      proto::OutcomesOut(best.eval, best.sides, pos.SideOf(pos.to_throw()));
  response->add_principal_variation(PlayToString(best.play, pos.board()));
  for (size_t k = 0; k < report->candidates.size(); ++k) {
    v1::Candidate* out = response->add_candidates();
    *out = CandidateOut(report->candidates[k], pos);
    for (const TermDifference& d : why[k]) *out->add_differences() = proto::DifferenceOut(d);
  }
  response->set_depth(report->depth);
  response->set_nodes(static_cast<int64_t>(report->nodes));
  response->set_time_ms(report->time_ms);
  *response->mutable_position_after() = proto::PositionOut(best.after);
  response->set_exact(report->exact);
  return absl::OkStatus();
}

absl::Status Api::Evaluate(const CallControl& call, const v1::EvaluateRequest& request,
                           v1::EvaluateResponse* response) {
  if (absl::Status s = Admit(call); !s.ok()) return s;
  absl::StatusOr<Prepared> p = Prepare(request, limits_, std::nullopt);
  if (!p.ok()) return Wire(p.status());
  Slot slot(this);
  if (!slot.status().ok()) return slot.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<EvaluationReport> evaluated;
  if (absl::Status s =
          RunSearch(call, OptionsFor(p->rules, p->hash_mb, limits_), p->position, &stop,
                    [&](Engine& engine) {
                      evaluated = engine.Evaluate(p->request, request.per_throw(), stop);
                    });
      !s.ok()) {
    return Wire(s);
  }
  if (!evaluated.ok()) return Wire(evaluated.status());
  const SearchReport& report = evaluated->before;
  const Position& pos = p->position;
  int mover = pos.SideOf(pos.to_throw());
  *response->mutable_evaluation() = proto::OutcomesOut(report.eval, report.sides, mover);
  response->set_depth(report.depth);
  response->set_nodes(static_cast<int64_t>(report.nodes));
  response->set_time_ms(report.time_ms);
  response->set_exact(report.exact);
  for (const ThrowValue& v : evaluated->per_throw) {
    v1::ThrowEvaluation* e = response->add_per_throw();
    e->mutable_throw_()->set_die1(v.dice.high);
    e->mutable_throw_()->set_die2(v.dice.low);
    e->set_weight(v.dice.Weight());
    e->set_best_play(PlayToString(v.best.play, pos.board()));
    *e->mutable_evaluation() = proto::OutcomesOut(v.best.eval, v.best.sides, mover);
  }
  return absl::OkStatus();
}

absl::Status Api::Analyse(const CallControl& call, const v1::AnalyseRequest& request,
                          const AnalyseWriter& write) {
  if (absl::Status s = Admit(call); !s.ok()) return s;
  std::optional<Throw> dice;
  if (request.has_throw_()) {
    absl::StatusOr<Throw> t = proto::ThrowFrom(request.throw_(), true);
    if (!t.ok()) return Wire(t.status());
    dice = *t;
  }
  absl::StatusOr<Prepared> p = Prepare(request, limits_, dice);
  if (!p.ok()) return Wire(p.status());
  SearchLimits& limits = p->request.limits;
  if (!limits.movetime_ms && !limits.nodes && !limits.depth) {
    // No limit: deepen until the deadline or cancellation, within the cap.
    limits.infinite = true;
    limits.movetime_ms = limits_.max_analyse_ms;
  }
  Slot slot(this);
  if (!slot.status().ok()) return slot.status();
  std::atomic<bool> stop{false};
  const Position& pos = p->position;
  auto to_message = [&pos](const SearchReport& r, bool final) {
    v1::AnalyseResponse m;
    m.set_depth(r.depth);
    m.set_nodes(static_cast<int64_t>(r.nodes));
    m.set_time_ms(r.time_ms);
    *m.mutable_evaluation() = proto::OutcomesOut(r.eval, r.sides, pos.SideOf(pos.to_throw()));
    if (!r.candidates.empty()) m.set_best_play(PlayToString(r.candidates[0].play, pos.board()));
    for (const Candidate& c : r.candidates) *m.add_candidates() = CandidateOut(c, pos);
    m.set_final(final);
    m.set_exact(r.exact);
    return m;
  };
  absl::StatusOr<SearchReport> report;
  if (absl::Status s =
          RunSearch(call, OptionsFor(p->rules, p->hash_mb, limits_), p->position, &stop,
                    [&](Engine& engine) {
                      report = engine.Search(p->request, stop, [&](const SearchReport& r) {
                        if (!write(to_message(r, false))) stop = true;
                      });
                    });
      !s.ok()) {
    return Wire(s);
  }
  if (!report.ok()) return Wire(report.status());
  if (Cancelled(call)) return absl::CancelledError("cancelled");
  write(to_message(*report, true));
  return absl::OkStatus();
}

absl::Status Api::AnalyseGame(const CallControl& call, const v1::AnalyseGameRequest& request,
                              v1::GameAnalysis* response) {
  if (absl::Status s = Admit(call); !s.ok()) return s;
  int64_t items = 0;
  switch (request.game_case()) {
    case v1::AnalyseGameRequest::kRecord:
      items = request.record().items_size();
      break;
    case v1::AnalyseGameRequest::kRecordText:
      break;
    default:
      return Wire(absl::InvalidArgumentError("game: missing: give record or record_text"));
  }
  absl::StatusOr<Record> record = request.game_case() == v1::AnalyseGameRequest::kRecord
                                      ? wire::FromMessage(request.record())
                                      : wire::ParseRecord(request.record_text());
  if (request.game_case() == v1::AnalyseGameRequest::kRecordText) {
    if (!record.ok()) {
      return Wire(
          absl::InvalidArgumentError(absl::StrCat("record_text: ", record.status().message())));
    }
    items = static_cast<int64_t>(record->game.items().size());
  }
  // An analysed item takes at most ~200 bytes (two plays, six numbers): an
  // answer that cannot fit is refused now, not after the work.
  constexpr int64_t kAnalysedItemBytes = 200;
  if (items * kAnalysedItemBytes + 4096 > limits_.max_response_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the analysis of ", items, " items would exceed the server's message limit of ",
        limits_.max_response_bytes, " bytes (--max_message_bytes)"));
  }
  if (!request.level().empty()) {
    SearchRequest probe;
    probe.level = request.level();
    if (absl::StatusOr<SearchParams> p = RequestParams(probe); !p.ok()) {
      return Wire(absl::InvalidArgumentError(absl::StrCat("level: ", p.status().message())));
    }
  }
  // A record message is checked here, after the cheap refusals.
  if (!record.ok()) {
    return Wire(absl::InvalidArgumentError(absl::StrCat("record: ", record.status().message())));
  }
  Slot slot(this);
  if (!slot.status().ok()) return slot.status();
  // The review runs on an engine of the default rules: the record names its
  // own.
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> analysis;
  if (absl::Status s = RunSearch(
          call, OptionsFor(Rules(), kDefaultHashMb, limits_), std::nullopt, &stop,
          [&](Engine& engine) { analysis = engine.Review(*record, request.level(), stop); });
      !s.ok()) {
    return Wire(s);
  }
  if (Cancelled(call)) return absl::CancelledError("cancelled");
  if (absl::IsCancelled(analysis.status()) && draining_) {
    return absl::UnavailableError("the server shut down before the analysis was done");
  }
  if (absl::IsCancelled(analysis.status())) {
    return absl::DeadlineExceededError("the deadline came first");
  }
  if (!analysis.ok()) {
    return Wire(absl::InvalidArgumentError(absl::StrCat(
        request.game_case() == v1::AnalyseGameRequest::kRecord ? "record: " : "record_text: ",
        analysis.status().message())));
  }
  *response = wire::ToMessage(*analysis);
  return absl::OkStatus();
}

absl::Status Api::GetStartPosition(const v1::GetStartPositionRequest& request,
                                   v1::GetStartPositionResponse* response) {
  absl::StatusOr<Rules> rules = proto::RulesFrom(request.rules());
  if (!rules.ok()) return Wire(rules.status());
  Position start = Position::Start(*rules);
  if (request.has_position()) {
    absl::StatusOr<Position> given = proto::PositionFrom(request.position(), *rules);
    if (!given.ok()) return Wire(given.status());
    start = *given;
  }
  *response->mutable_position() = proto::PositionOut(start);
  *response->mutable_result() = proto::ResultOut(start);
  response->set_rules(rules->ToString());
  response->set_switches(rules->SwitchList());
  const Layout& layout = rules->layout();
  if (!layout.IsFourSidedTeams()) {
    for (int c = 0; c < layout.board.colours; ++c) response->add_colour_sides(layout.SideOf(c) + 1);
  }
  return absl::OkStatus();
}

absl::Status Api::RollDice(const v1::RollDiceRequest& request, v1::RollDiceResponse* response) {
  uint64_t seed = request.seed() != 0 ? request.seed() : NewDiceSeed();
  int count = request.count() == 0 ? 1 : request.count();
  absl::StatusOr<std::vector<std::pair<int, int>>> dice =
      uckers::RollDice(seed, request.index(), count);
  if (!dice.ok()) return Wire(dice.status());
  response->set_seed(seed);
  response->set_index(request.index());
  for (auto [first, second] : *dice) {
    v1::Throw* t = response->add_throws();
    t->set_die1(first);
    t->set_die2(second);
  }
  return absl::OkStatus();
}

namespace {

// A dealt game's refusal on the wire: a call out of turn stays
// FAILED_PRECONDITION, a forgotten game NOT_FOUND, a full store
// RESOURCE_EXHAUSTED; the rest as every call's.
absl::Status DealtWire(const absl::Status& s) {
  if (absl::IsFailedPrecondition(s) || absl::IsNotFound(s)) {
    return absl::Status(s.code(), SafeMessage(s.message()));
  }
  return Wire(s);
}

absl::Status NoSeedAfterBinding(const std::string& client_seed) {
  if (client_seed.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "client_seed: bound by BindDealtGame; no later call takes a seed");
}

}  // namespace

absl::Status Api::StartDealtGame(const CallControl& call, const v1::StartDealtGameRequest&,
                                 v1::StartDealtGameResponse* response) {
  absl::StatusOr<DealtGames::Started> start = dealt_games_->Start(call.client);
  if (!start.ok()) return DealtWire(start.status());
  response->set_commitment(start->commitment);
  response->set_token(start->token);
  response->set_dealer_key(start->dealer_key);
  response->set_dealer_public_key(start->dealer_public_key);
  return absl::OkStatus();
}

absl::Status Api::BindDealtGame(const v1::BindDealtGameRequest& request,
                                v1::BindDealtGameResponse* response) {
  absl::StatusOr<Rules> rules = proto::RulesFrom(request.rules());
  if (!rules.ok()) return Wire(rules.status());
  Position start = Position::Start(*rules);
  if (request.has_start()) {
    absl::StatusOr<Position> given = proto::PositionFrom(request.start(), *rules);
    if (!given.ok()) {
      return Wire(absl::InvalidArgumentError(absl::StrCat("start: ", given.status().message())));
    }
    start = *given;
  }
  absl::StatusOr<DealtGames::Bound> bound =
      dealt_games_->Bind(request.token(), request.client_seed(), *rules, start);
  if (!bound.ok()) return DealtWire(bound.status());
  response->set_commitment(bound->commitment);
  response->set_commitment_signature(bound->signature);
  response->set_rules(rules->ToString());
  response->set_switches(rules->SwitchList());
  *response->mutable_start() = proto::PositionOut(start);
  return absl::OkStatus();
}

absl::Status Api::DealThrow(const v1::DealThrowRequest& request, v1::DealThrowResponse* response) {
  if (absl::Status s = NoSeedAfterBinding(request.client_seed()); !s.ok()) return Wire(s);
  absl::StatusOr<std::pair<int, int>> dice =
      dealt_games_->Deal(request.token(), request.index(), request.client_value(), request.play());
  if (!dice.ok()) return DealtWire(dice.status());
  response->set_index(request.index());
  response->mutable_throw_()->set_die1(dice->first);
  response->mutable_throw_()->set_die2(dice->second);
  return absl::OkStatus();
}

absl::Status Api::RevealDealtGame(const v1::RevealDealtGameRequest& request,
                                  v1::RevealDealtGameResponse* response) {
  if (absl::Status s = NoSeedAfterBinding(request.client_seed()); !s.ok()) return Wire(s);
  absl::StatusOr<Record> record;
  switch (request.game_case()) {
    case v1::RevealDealtGameRequest::kRecord:
      record = wire::FromMessage(request.record());
      if (!record.ok()) {
        return Wire(
            absl::InvalidArgumentError(absl::StrCat("record: ", record.status().message())));
      }
      break;
    case v1::RevealDealtGameRequest::kRecordText:
      record = wire::ParseRecord(request.record_text());
      if (!record.ok()) {
        return Wire(
            absl::InvalidArgumentError(absl::StrCat("record_text: ", record.status().message())));
      }
      break;
    default:
      break;
  }
  absl::StatusOr<Record> revealed =
      dealt_games_->Reveal(request.token(), request.play(), record.ok() ? &*record : nullptr);
  if (!revealed.ok()) return DealtWire(revealed.status());
  response->set_secret(revealed->dealer_secret);
  response->set_commitment(revealed->dealer_commitment);
  *response->mutable_record() = wire::ToMessage(*revealed);
  return absl::OkStatus();
}

namespace {

// A candidate's chances for the side that chose it in `pos`: the six
// outcomes, and with more sides every side's chance.
v1::Outcomes CandidateOutcomes(const Candidate& c, const Position& pos) {
  return proto::OutcomesOut(c.eval, c.sides, pos.SideOf(pos.to_throw()));
}

v1::JudgedCandidate JudgedOut(const Candidate& c, double best_points, const Position& pos) {
  v1::JudgedCandidate out;
  out.set_play(PlayToString(c.play, pos.board()));
  *out.mutable_evaluation() = CandidateOutcomes(c, pos);
  out.set_equity_lost(std::max(0.0, best_points - CandidatePoints(pos, c)));
  return out;
}

}  // namespace

absl::Status Api::JudgePlay(const CallControl& call, const v1::JudgePlayRequest& request,
                            v1::JudgePlayResponse* response) {
  if (absl::Status s = Admit(call); !s.ok()) return s;
  absl::StatusOr<PlayInputs> in = ParsePlayInputs(request);
  if (!in.ok()) return Wire(in.status());
  if (in->position.IsGameOver()) {
    return Wire(absl::InvalidArgumentError("position: the game is over, there is no play"));
  }
  int alternatives = request.alternatives() == 0 ? 3 : request.alternatives();
  if (alternatives < 0 || alternatives > 10) {
    return Wire(absl::InvalidArgumentError(
        absl::StrCat("alternatives: ", request.alternatives(), " must be 0..10")));
  }
  Slot slot(this);
  if (!slot.status().ok()) return slot.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<Judgement> j;
  if (absl::Status s =
          RunSearch(call, OptionsFor(in->rules, kDefaultHashMb, limits_), in->position, &stop,
                    [&](Engine& engine) {
                      j = engine.Judge(in->dice, request.play(), request.level(), stop);
                    });
      !s.ok()) {
    return Wire(s);
  }
  if (Cancelled(call)) return absl::CancelledError("cancelled");
  if (absl::IsCancelled(j.status())) return absl::DeadlineExceededError("the deadline came first");
  if (!j.ok()) return Wire(j.status());
  const Candidate& best = j->candidates[0];
  const Position& pos = in->position;
  response->set_play(PlayToString(j->played.play, pos.board()));
  *response->mutable_evaluation() = CandidateOutcomes(j->played, pos);
  response->set_best_play(PlayToString(best.play, pos.board()));
  *response->mutable_best_evaluation() = CandidateOutcomes(best, pos);
  response->set_equity_lost(j->equity_lost);
  response->set_mark(wire::ToMessage(j->mark));
  for (size_t k = 0; k < j->candidates.size() && static_cast<int>(k) < alternatives; ++k) {
    *response->add_alternatives() = JudgedOut(j->candidates[k], CandidatePoints(pos, best), pos);
  }
  response->set_legal_plays(static_cast<int>(j->candidates.size()));
  response->set_level(j->level);
  response->set_time_ms(j->time_ms);
  response->set_exact(j->exact);
  for (const TermDifference& d : j->differences) {
    *response->add_differences() = proto::DifferenceOut(d);
  }
  return absl::OkStatus();
}

absl::Status Api::ThrowMap(const CallControl& call, const v1::ThrowMapRequest& request,
                           v1::ThrowMapResponse* response) {
  if (absl::Status s = Admit(call); !s.ok()) return s;
  absl::StatusOr<Rules> rules = proto::RulesFrom(request.rules());
  if (!rules.ok()) return Wire(rules.status());
  absl::StatusOr<Position> pos = proto::PositionFrom(request.position(), *rules);
  if (!pos.ok()) return Wire(pos.status());
  if (pos->IsGameOver()) {
    return Wire(absl::InvalidArgumentError("position: the game is over, there is no throw"));
  }
  Slot slot(this);
  if (!slot.status().ok()) return slot.status();
  std::atomic<bool> stop{false};
  absl::StatusOr<uckers::ThrowMap> map;
  if (absl::Status s =
          RunSearch(call, OptionsFor(*rules, kDefaultHashMb, limits_), *pos, &stop,
                    [&](Engine& engine) { map = engine.MapThrows(request.level(), stop); });
      !s.ok()) {
    return Wire(s);
  }
  if (Cancelled(call)) return absl::CancelledError("cancelled");
  if (absl::IsCancelled(map.status()))
    return absl::DeadlineExceededError("the deadline came first");
  if (!map.ok()) return Wire(map.status());
  for (const ThrowMapEntry& e : map->throws) {
    v1::ThrowMapEntry* out = response->add_throws();
    out->mutable_throw_()->set_die1(e.dice.high);
    out->mutable_throw_()->set_die2(e.dice.low);
    out->set_probability(e.probability);
    out->set_best_play(PlayToString(e.best.play, pos->board()));
    *out->mutable_evaluation() = CandidateOutcomes(e.best, *pos);
  }
  *response->mutable_evaluation() =
      proto::OutcomesOut(map->eval, map->sides, pos->SideOf(pos->to_throw()));
  response->set_level(map->level);
  response->set_time_ms(map->time_ms);
  response->set_exact(map->exact);
  return absl::OkStatus();
}

}  // namespace uckers
