// The wire stays compatible: against the descriptors of the
// last release, committed in proto/compat/, no message, field, enum value,
// service or method may be removed, renumbered or retyped. Adding is free.
// After a release, add its snapshot (docs/deploy.md, "The proto").
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "uckers/v1/engine.pb.h"
#include "uckers/v1/match.pb.h"

namespace uckers::testing {
namespace {

using google::protobuf::DescriptorProto;
using google::protobuf::EnumDescriptorProto;
using google::protobuf::FieldDescriptorProto;
using google::protobuf::FileDescriptorProto;
using google::protobuf::FileDescriptorSet;
using google::protobuf::ServiceDescriptorProto;

template <typename T>
std::map<std::string, const T*> ByName(const google::protobuf::RepeatedPtrField<T>& items) {
  std::map<std::string, const T*> out;
  for (const T& item : items) out[item.name()] = &item;
  return out;
}

void CompareEnum(const std::string& scope, const EnumDescriptorProto& old,
                 const EnumDescriptorProto& now, std::vector<std::string>* problems) {
  auto values = ByName(now.value());
  for (const auto& v : old.value()) {
    auto it = values.find(v.name());
    if (it == values.end()) {
      problems->push_back(scope + "." + v.name() + ": enum value removed");
    } else if (it->second->number() != v.number()) {
      problems->push_back(scope + "." + v.name() + ": renumbered");
    }
  }
}

void CompareMessage(const std::string& scope, const DescriptorProto& old,
                    const DescriptorProto& now, std::vector<std::string>* problems) {
  std::map<int, const FieldDescriptorProto*> fields;
  for (const auto& f : now.field()) fields[f.number()] = &f;
  for (const auto& f : old.field()) {
    std::string where = scope + "." + f.name() + " (" + std::to_string(f.number()) + ")";
    auto it = fields.find(f.number());
    if (it == fields.end()) {
      problems->push_back(where + ": field removed or renumbered");
      continue;
    }
    const FieldDescriptorProto& n = *it->second;
    if (n.name() != f.name()) problems->push_back(where + ": renamed to " + n.name());
    if (n.type() != f.type() || n.type_name() != f.type_name()) {
      problems->push_back(where + ": type changed");
    }
    if (n.label() != f.label()) problems->push_back(where + ": label changed");
  }
  auto nested = ByName(now.nested_type());
  for (const auto& m : old.nested_type()) {
    auto it = nested.find(m.name());
    if (it == nested.end()) {
      problems->push_back(scope + "." + m.name() + ": message removed");
    } else {
      CompareMessage(scope + "." + m.name(), m, *it->second, problems);
    }
  }
  auto enums = ByName(now.enum_type());
  for (const auto& e : old.enum_type()) {
    auto it = enums.find(e.name());
    if (it == enums.end()) {
      problems->push_back(scope + "." + e.name() + ": enum removed");
    } else {
      CompareEnum(scope + "." + e.name(), e, *it->second, problems);
    }
  }
}

void CompareService(const std::string& scope, const ServiceDescriptorProto& old,
                    const ServiceDescriptorProto& now, std::vector<std::string>* problems) {
  auto methods = ByName(now.method());
  for (const auto& m : old.method()) {
    auto it = methods.find(m.name());
    std::string where = scope + "." + m.name();
    if (it == methods.end()) {
      problems->push_back(where + ": method removed");
      continue;
    }
    const auto& n = *it->second;
    if (n.input_type() != m.input_type() || n.output_type() != m.output_type() ||
        n.client_streaming() != m.client_streaming() ||
        n.server_streaming() != m.server_streaming()) {
      problems->push_back(where + ": signature changed");
    }
  }
}

// Every incompatibility of `now` with `old`, named.
std::vector<std::string> Incompatibilities(const FileDescriptorSet& old,
                                           const FileDescriptorSet& now) {
  std::vector<std::string> problems;
  auto files = ByName(now.file());
  for (const FileDescriptorProto& f : old.file()) {
    auto it = files.find(f.name());
    if (it == files.end()) {
      problems.push_back(f.name() + ": file removed");
      continue;
    }
    const FileDescriptorProto& n = *it->second;
    if (n.package() != f.package()) problems.push_back(f.name() + ": package changed");
    auto messages = ByName(n.message_type());
    for (const auto& m : f.message_type()) {
      auto mt = messages.find(m.name());
      if (mt == messages.end()) {
        problems.push_back(f.package() + "." + m.name() + ": message removed");
      } else {
        CompareMessage(f.package() + "." + m.name(), m, *mt->second, &problems);
      }
    }
    auto enums = ByName(n.enum_type());
    for (const auto& e : f.enum_type()) {
      auto et = enums.find(e.name());
      if (et == enums.end()) {
        problems.push_back(f.package() + "." + e.name() + ": enum removed");
      } else {
        CompareEnum(f.package() + "." + e.name(), e, *et->second, &problems);
      }
    }
    auto services = ByName(n.service());
    for (const auto& s : f.service()) {
      auto st = services.find(s.name());
      if (st == services.end()) {
        problems.push_back(f.package() + "." + s.name() + ": service removed");
      } else {
        CompareService(f.package() + "." + s.name(), s, *st->second, &problems);
      }
    }
  }
  return problems;
}

// The descriptors compiled into this program.
FileDescriptorSet Current() {
  // Referencing the messages links their files into the generated pool.
  const google::protobuf::Descriptor* anchors[] = {
      v1::EngineInfo::descriptor(), v1::GameRecord::descriptor(), v1::MatchReport::descriptor()};
  FileDescriptorSet set;
  for (const auto* d : anchors) d->file()->CopyTo(set.add_file());
  return set;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

FileDescriptorSet SnapshotAt(const std::string& path) {
  FileDescriptorSet set;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(ReadFile(path), &set)) << path;
  return set;
}

std::string ReleasePath(const std::string& version) {
  return std::string(UCKERS_SOURCE_DIR) + "/proto/compat/uckers_v1_" + version + ".txtpb";
}

FileDescriptorSet Snapshot(const std::string& version) { return SnapshotAt(ReleasePath(version)); }

// Runs tools/proto_snapshot with ARGS (its output discarded); its exit code.
int RunSnapshotTool(const std::string& args) {
  std::string cmd = "bash " + std::string(UCKERS_SOURCE_DIR) + "/tools/proto_snapshot " + args +
                    " >/dev/null 2>&1";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ProtoCompat, TheCurrentProtoKeepsEveryFieldOfRelease0_3_0) {
  FileDescriptorSet old = Snapshot("0.3.0");
  ASSERT_EQ(old.file_size(), 3);
  std::vector<std::string> problems = Incompatibilities(old, Current());
  for (const std::string& p : problems) ADD_FAILURE() << p;
}

TEST(ProtoCompat, ARenumberedFieldIsFound) {
  FileDescriptorSet now = Current();
  FileDescriptorSet changed = now;
  for (auto& f : *changed.mutable_file()) {
    for (auto& m : *f.mutable_message_type()) {
      if (m.name() == "Throw") m.mutable_field(1)->set_number(7);  // die2
    }
  }
  std::vector<std::string> problems = Incompatibilities(now, changed);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "uckers.v1.Throw.die2 (2): field removed or renumbered");
}

TEST(ProtoCompat, ARemovedMethodOrEnumValueIsFound) {
  FileDescriptorSet now = Current();
  FileDescriptorSet changed = now;
  for (auto& f : *changed.mutable_file()) {
    for (auto& s : *f.mutable_service()) s.mutable_method()->RemoveLast();
    for (auto& e : *f.mutable_enum_type()) {
      if (e.name() == "Colour") e.mutable_value()->RemoveLast();
    }
  }
  std::vector<std::string> problems = Incompatibilities(now, changed);
  EXPECT_EQ(problems.size(), 2u);
}

TEST(ProtoCompat, AddedFieldsAreCompatible) {
  FileDescriptorSet old = Snapshot("0.3.0");
  FileDescriptorSet now = Current();
  EXPECT_TRUE(Incompatibilities(old, now).empty());
  EXPECT_FALSE(Incompatibilities(now, old).empty());  // the other way, fields are gone
}

// tools/proto_snapshot, run for a release, writes exactly the proto built
// into this program: nothing of it missing, nothing more.
TEST(ProtoCompat, TheSnapshotToolWritesTheCurrentProto) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "proto-snapshot";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  ASSERT_EQ(RunSnapshotTool("--out " + dir.string() + " 9.9.9"), 0);
  FileDescriptorSet written = SnapshotAt((dir / "uckers_v1_9.9.9.txtpb").string());
  ASSERT_EQ(written.file_size(), 3);
  FileDescriptorSet now = Current();
  for (const std::string& p : Incompatibilities(written, now))
    ADD_FAILURE() << "extra in the snapshot: " << p;
  for (const std::string& p : Incompatibilities(now, written))
    ADD_FAILURE() << "missing from the snapshot: " << p;
  std::filesystem::remove_all(dir);
}

TEST(ProtoCompat, TheSnapshotToolKeepsAReleasesSnapshot) {
  std::string before = ReadFile(ReleasePath("0.3.0"));
  ASSERT_FALSE(before.empty());
  EXPECT_EQ(RunSnapshotTool("0.3.0"), 1);
  EXPECT_EQ(ReadFile(ReleasePath("0.3.0")), before);
}

TEST(ProtoCompat, TheSnapshotToolWithoutAVersionIsUsage) {
  EXPECT_EQ(RunSnapshotTool(""), 2);
  EXPECT_EQ(RunSnapshotTool("0.4"), 2);
  EXPECT_EQ(RunSnapshotTool("--bogus 0.4.0"), 2);
}

}  // namespace
}  // namespace uckers::testing
