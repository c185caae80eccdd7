// wire/: records and reviews, C++ values of game/ and review/, to and from
// the uckers.v1 messages and their JSON. The review's JSON is checked
// against what the code before the translator printed (tests/golden/,
// made by `uckers analyse --json` of the records beside them).
#include <atomic>
#include <fstream>
#include <limits>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "record/text.h"
#include "review/review.h"
#include "tests/test_util.h"
#include "uckers/v1/engine.pb.h"
#include "wire/analysis.h"
#include "wire/compact_json.h"
#include "wire/json.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

std::string Golden(const std::string& name) {
  std::ifstream in(absl::StrCat(UCKERS_SOURCE_DIR, "/tests/golden/", name));
  EXPECT_TRUE(in.good()) << name;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A review message from its JSON; fails the test on bad JSON.
v1::GameAnalysis AnalysisMessage(const std::string& json) {
  v1::GameAnalysis message;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &message).ok());
  return message;
}

constexpr const char* kSixRecord = "six.txt";

TEST(WireRecord, ATextRecordRoundTripsThroughItsMessage) {
  absl::StatusOr<Record> text = ParseTextRecord(Golden(kSixRecord));
  ASSERT_TRUE(text.ok()) << text.status();
  v1::GameRecord message = wire::ToMessage(*text);
  EXPECT_EQ(message.items_size(), static_cast<int>(text->game.items().size()));
  absl::StatusOr<Record> back = wire::FromMessage(message);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->game.position(), text->game.position());
  EXPECT_EQ(back->side_players, text->side_players);
  EXPECT_EQ(wire::ToMessage(*back).SerializeAsString(), message.SerializeAsString());
  EXPECT_EQ(RecordToText(*back), RecordToText(*text));
}

TEST(WireRecord, TheJsonFormReadsBackAsTheSameRecord) {
  absl::StatusOr<Record> text = ParseTextRecord(Golden("blunder.txt"));
  ASSERT_TRUE(text.ok()) << text.status();
  std::string json = wire::RecordToJson(*text);
  EXPECT_NE(json.find("\"start_ufen\": \"3,40,h,h/h,h,h,48/h,h,h,h/h,h,h,h r -\""),
            std::string::npos)
      << json;
  absl::StatusOr<Record> back = wire::ParseRecord(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(RecordToText(*back), RecordToText(*text));
}

TEST(WireRecord, AMessageIsCheckedAsATextRecordIs) {
  v1::GameRecord message;
  v1::RecordItem* item = message.add_items();
  item->set_throw_("63");
  item->set_play("rb-0,r0-3");
  item = message.add_items();
  item->set_throw_("41");
  item->set_play("r3-9");
  absl::StatusOr<Record> from_message = wire::FromMessage(message);
  absl::StatusOr<Record> from_text = ParseTextRecord("63:rb-0,r0-3 41:r3-9\n");
  ASSERT_FALSE(from_message.ok());
  EXPECT_EQ(from_message.status(), from_text.status());
  EXPECT_NE(from_message.status().message().find("item 2 '41:r3-9'"), std::string::npos);
}

TEST(WireAnalysis, AReviewMessageRoundTripsToTheSameJson) {
  for (const char* name : {"blunder.json", "six.json"}) {
    std::string golden = Golden(name);
    absl::StatusOr<GameAnalysis> analysis = wire::FromMessage(AnalysisMessage(golden));
    ASSERT_TRUE(analysis.ok()) << analysis.status();
    EXPECT_EQ(wire::AnalysisToJson(*analysis), golden) << name;
  }
}

// The review of a record, printed as JSON, is byte for byte the golden file,
// but for the time it took (the golden files were printed by the code before
// the translator, blunder.json again with navy's present net, six.json again
// when the multi-side review moved to the side net).
void ExpectTheOldReview(const std::string& record_file, const std::string& json_file) {
  absl::StatusOr<Record> record = ParseTextRecord(Golden(record_file));
  ASSERT_TRUE(record.ok()) << record.status();
  std::string golden = Golden(json_file);
  std::atomic<bool> stop{false};
  absl::StatusOr<GameAnalysis> analysis = AnalyseGame(*record, "advanced", stop);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  analysis->seconds = AnalysisMessage(golden).seconds();
  EXPECT_EQ(wire::AnalysisToJson(*analysis), golden);
}

TEST(WireAnalysis, TheReviewOfATwoTeamGameIsPrintedAsBefore) {
  ExpectTheOldReview("blunder.txt", "blunder.json");
}

TEST(WireAnalysis, TheReviewOfASixSidedGameIsPrintedAsBefore) {
  ExpectTheOldReview(kSixRecord, "six.json");
}

TEST(WireAnalysis, MarksKeepTheirMessageValues) {
  EXPECT_EQ(wire::ToMessage(Mark::kNone), v1::MARK_NONE);
  EXPECT_EQ(wire::ToMessage(Mark::kDoubtful), v1::MARK_DOUBTFUL);
  EXPECT_EQ(wire::ToMessage(Mark::kBad), v1::MARK_BAD);
  EXPECT_EQ(wire::ToMessage(Mark::kVeryBad), v1::MARK_VERY_BAD);
}

// --- The Connect front's JSON printer (wire/compact_json.h) ---

// Every message type of uckers.v1 (map entries left out).
std::vector<const google::protobuf::Descriptor*> EveryMessageType() {
  std::vector<const google::protobuf::Descriptor*> types;
  std::function<void(const google::protobuf::Descriptor*)> add =
      [&](const google::protobuf::Descriptor* d) {
        if (d->options().map_entry()) return;
        types.push_back(d);
        for (int i = 0; i < d->nested_type_count(); ++i) add(d->nested_type(i));
      };
  std::set<const google::protobuf::FileDescriptor*> seen;
  std::function<void(const google::protobuf::FileDescriptor*)> walk =
      [&](const google::protobuf::FileDescriptor* f) {
        if (!seen.insert(f).second || f->package() != "uckers.v1") return;
        for (int i = 0; i < f->message_type_count(); ++i) add(f->message_type(i));
        for (int i = 0; i < f->dependency_count(); ++i) walk(f->dependency(i));
      };
  walk(v1::BestMoveResponse::descriptor()->file());
  walk(v1::GameRecord::descriptor()->file());
  return types;
}

// Fills `m` with random values of every kind the printer meets: negative and
// extreme integers, doubles that need 15 or 17 digits, zero and minus zero,
// the values that are not finite, strings with every escape, unknown enum
// numbers, empty and full repeated fields, set and unset messages and oneofs.
// Maps get at most `map_entries` entries.
void Fill(google::protobuf::Message* m, std::mt19937_64& rng, int depth, int map_entries) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Descriptor* d = m->GetDescriptor();
  const google::protobuf::Reflection* r = m->GetReflection();
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  auto text = [&] {
    // Characters JSON escapes or must not, the terminating NUL among them.
    static const std::string kChars = [] {
      const char chars[] = "abcXYZ019 -_/:.,\"\\<>&'{}[]\n\t\r\b\f\x01\x1f";
      return std::string(chars, sizeof(chars));
    }();
    std::string s;
    for (int i = pick(8); i > 0; --i) s.push_back(kChars[pick(static_cast<int>(kChars.size()))]);
    return s;
  };
  auto real = [&] {
    static const double kReals[] = {0.0,
                                    -0.0,
                                    1.0,
                                    0.1,
                                    1.0 / 3,
                                    1e-7,
                                    1e21,
                                    2.5e-310,
                                    -2.5,
                                    123456789012345678.0,
                                    0.30000000000000004,
                                    std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity()};
    if (pick(3) == 0) return std::uniform_real_distribution<double>(-1, 1)(rng);
    return kReals[pick(std::size(kReals))];
  };
  auto integer = [&] {
    static const int64_t kInts[] = {
        0, 1, -1, 42, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    return pick(2) == 0 ? kInts[pick(std::size(kInts))] : static_cast<int64_t>(rng());
  };
  std::set<const google::protobuf::OneofDescriptor*> oneofs_done;
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (const auto* oneof = f->containing_oneof()) {
      if (oneofs_done.count(oneof) || pick(2) == 0) continue;
      oneofs_done.insert(oneof);
    } else if (pick(3) == 0) {
      continue;  // left at its default
    }
    const bool message = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
    if (message && depth >= 3) continue;
    const int count = f->is_map() ? pick(map_entries + 1) : f->is_repeated() ? pick(4) : 1;
    for (int k = 0; k < count; ++k) {
      const bool rep = f->is_repeated();
      switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32: {
          auto v = static_cast<int32_t>(integer());
          rep ? r->AddInt32(m, f, v) : r->SetInt32(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_UINT32: {
          auto v = static_cast<uint32_t>(integer());
          rep ? r->AddUInt32(m, f, v) : r->SetUInt32(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_INT64: {
          int64_t v = integer();
          rep ? r->AddInt64(m, f, v) : r->SetInt64(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_UINT64: {
          auto v = static_cast<uint64_t>(integer());
          rep ? r->AddUInt64(m, f, v) : r->SetUInt64(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_DOUBLE: {
          double v = real();
          rep ? r->AddDouble(m, f, v) : r->SetDouble(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_FLOAT: {
          auto v = static_cast<float>(real());
          rep ? r->AddFloat(m, f, v) : r->SetFloat(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_BOOL: {
          bool v = pick(2) == 0;
          rep ? r->AddBool(m, f, v) : r->SetBool(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_ENUM: {
          const auto* e = f->enum_type();
          int v = pick(5) == 0 ? 77 : e->value(pick(e->value_count()))->number();
          rep ? r->AddEnumValue(m, f, v) : r->SetEnumValue(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_STRING: {
          std::string v = text();
          rep ? r->AddString(m, f, v) : r->SetString(m, f, v);
          break;
        }
        case FieldDescriptor::CPPTYPE_MESSAGE:
          Fill(rep ? r->AddMessage(m, f) : r->MutableMessage(m, f), rng, depth + 1, map_entries);
          break;
      }
    }
  }
}

std::string ProtobufJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string json;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(m, &json, options).ok());
  return json;
}

TEST(CompactJson, EveryMessageTypePrintsAsProtobufsPrinterByteForByte) {
  std::mt19937_64 rng(39);
  int walked = 0;
  for (const google::protobuf::Descriptor* type : EveryMessageType()) {
    const google::protobuf::Message* prototype =
        google::protobuf::MessageFactory::generated_factory()->GetPrototype(type);
    for (int round = 0; round < 60; ++round) {
      std::unique_ptr<google::protobuf::Message> m(prototype->New());
      if (round > 0) Fill(m.get(), rng, 0, /*map_entries=*/1);
      std::string ours;
      bool fast = wire::AppendCompactJson(*m, &ours);
      walked += fast;
      ASSERT_EQ(wire::CompactJson(*m), ProtobufJson(*m)) << type->full_name() << " round " << round;
      if (fast) {
        ASSERT_EQ(ours, ProtobufJson(*m)) << type->full_name();
      }
    }
  }
  EXPECT_GT(walked, 1000);  // the walk itself, not the fallback, was compared
}

TEST(CompactJson, AStringOutsidePrintableAsciiIsPrintedByProtobuf) {
  v1::PlayOutcome m;
  m.set_play("caf\xC3\xA9 \xE2\x80\xA8 \x7f");
  std::string ours;
  EXPECT_FALSE(wire::AppendCompactJson(m, &ours));
  EXPECT_EQ(wire::CompactJson(m), ProtobufJson(m));
}

TEST(CompactJson, AMapOfSeveralEntriesReadsBackAsTheSameMessage) {
  v1::SearchOptions m;
  (*m.mutable_settings())["noise"] = "0.1";
  (*m.mutable_settings())["throws"] = "<all>";
  (*m.mutable_settings())["filter"] = "3";
  v1::SearchOptions back;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(wire::CompactJson(m), &back).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(back, m));
}

}  // namespace
}  // namespace uckers::testing
