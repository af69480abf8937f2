// Stream-changing fixes and the ordering they must keep (docs/fixes.md): in
// testdata/fixes/*-ordering.cu, a finding's line ending in "// applied" must
// carry an applicable fix, and one ending in "// not applied: <reason>" a fix
// that --fix does not apply whose description contains <reason>; one ending in
// "// no fix: <reason>" (alloc-in-loop) no hoist or growth fix, and a note
// containing <reason>. The edits themselves are compared with the goldens by
// FixGoldenTest.
#include "TestEnvironment.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace streamlint::testing {
namespace {

struct Marker {
  unsigned line;
  bool applied;
  std::string reason;
  bool noFix = false;
};

std::vector<Marker> markersIn(const std::string &path) {
  std::ifstream stream(path);
  std::vector<Marker> markers;
  std::string text;
  for (unsigned line = 1; std::getline(stream, text); ++line) {
    size_t code = text.find_first_not_of(" \t");
    if (code == std::string::npos || text.compare(code, 2, "//") == 0)
      continue; // comment lines describe the markers; they are not markers
    size_t notApplied = text.find("// not applied: ");
    size_t noFix = text.find("// no fix: ");
    if (noFix != std::string::npos)
      markers.push_back({line, false, text.substr(noFix + 11), true});
    else if (notApplied != std::string::npos)
      markers.push_back({line, false, text.substr(notApplied + 16)});
    else if (text.size() >= 10 && text.compare(text.size() - 10, 10, "// applied") == 0)
      markers.push_back({line, true, ""});
  }
  return markers;
}

/// No fix that moves the allocation, and a note that says why.
void expectNoFix(const AnalysisResult &result, const std::string &name, const Marker &marker) {
  const Finding *found = nullptr;
  for (const Finding &finding : result.findings)
    if (finding.location.line == marker.line)
      found = &finding;
  ASSERT_NE(found, nullptr) << name << ":" << marker.line << ": no finding";
  for (const FixIt &fix : found->fixes)
    EXPECT_EQ(fix.description.find("cudaMallocAsync") == std::string::npos, false)
        << name << ":" << marker.line << ": unexpected fix: " << fix.description;
  bool noted = false;
  for (const RelatedLocation &related : found->related)
    noted |= related.message.find(marker.reason) != std::string::npos;
  EXPECT_TRUE(noted) << name << ":" << marker.line << ": no note containing '" << marker.reason
                     << "'";
}

class OrderingFix : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(OrderingFix, MarkersMatchFindings) {
  auto [name, check] = GetParam();
  std::string path = testdataDirectory() + "/fixes/" + name;
  std::vector<Marker> markers = markersIn(path);
  ASSERT_FALSE(markers.empty()) << path;
  AnalysisResult result = analyzeForTest(entriesFor({path}, {}, CudaEnvironment::Stub),
                                         "-*," + check, {});
  ASSERT_TRUE(result.problems.empty()) << "input does not compile";
  for (const Marker &marker : markers) {
    if (marker.noFix) {
      expectNoFix(result, name, marker);
      continue;
    }
    const FixIt *fix = nullptr;
    for (const Finding &finding : result.findings)
      if (finding.location.line == marker.line && !finding.fixes.empty())
        fix = &finding.fixes.front();
    ASSERT_NE(fix, nullptr) << name << ":" << marker.line << ": no finding with a fix";
    EXPECT_EQ(fix->applicable, marker.applied)
        << name << ":" << marker.line << ": " << fix->description;
    if (!marker.applied) {
      EXPECT_NE(fix->description.find("not applied by --fix: "), std::string::npos)
          << fix->description;
      EXPECT_NE(fix->description.find(marker.reason), std::string::npos)
          << name << ":" << marker.line << ": expected '" << marker.reason << "' in: "
          << fix->description;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Testdata, OrderingFix,
    ::testing::Values(std::make_pair("default-stream-ordering.cu", "default-stream"),
                      std::make_pair("default-stream-one-stream.cu", "default-stream"),
                      std::make_pair("device-sync-ordering.cu", "device-sync"),
                      std::make_pair("device-sync-narrowing.cu", "device-sync"),
                      std::make_pair("library-default-stream-ordering.cu",
                                     "library-default-stream"),
                      std::make_pair("alloc-in-loop-hoist.cu", "alloc-in-loop"),
                      std::make_pair("alloc-in-loop-growth.cu", "alloc-in-loop"),
                      std::make_pair("alloc-in-loop-refusals.cu", "alloc-in-loop"),
                      std::make_pair("alloc-in-loop-declared.cu", "alloc-in-loop"),
                      std::make_pair("pageable-memcpy-async-pinned.cu", "pageable-memcpy-async"),
                      std::make_pair("pageable-memcpy-async-refusals.cu",
                                     "pageable-memcpy-async"),
                      std::make_pair("pageable-memcpy-async-members.cu",
                                     "pageable-memcpy-async"),
                      std::make_pair("pageable-memcpy-async-reset.cu",
                                     "pageable-memcpy-async")),
    [](const auto &info) {
      std::string name = info.param.first.find("-ordering") == std::string::npos
                             ? info.param.first.substr(0, info.param.first.size() - 3)
                             : info.param.second;
      for (char &c : name)
        if (c == '-')
          c = '_';
      return name;
    });

} // namespace
} // namespace streamlint::testing
