// wire/: records and reviews, C++ values of game/ and review/, to and from
// the uckers.v1 messages and their JSON. The review's JSON is checked
// against what the code before the translator printed (tests/golden/,
// made by `uckers analyse --json` of the records beside them).
#include <atomic>
#include <fstream>
#include <sstream>

#include "google/protobuf/util/json_util.h"
#include "review/analyse.h"
#include "review/record.h"
#include "tests/test_util.h"
#include "wire/analysis.h"
#include "wire/json.h"
#include "wire/record.h"

namespace uckers::testing {
namespace {

std::string Golden(const std::string& name) {
  std::ifstream in(std::string(UCKERS_SOURCE_DIR) + "/tests/golden/" + name);
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

// The review of a record, printed as JSON, is byte for byte what the code
// before the translator printed, but for the time it took.
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

}  // namespace
}  // namespace uckers::testing
