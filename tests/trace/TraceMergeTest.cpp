#include "analyzer/trace/Evidence.h"
#include "analyzer/trace/TraceMerge.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace streamlint;

namespace {
Finding finding(const char *check, unsigned line, unsigned endLine) {
  Finding f;
  f.checkId = check;
  f.location = {"/src/app.cu", line, 3};
  f.end = {"/src/app.cu", endLine, 40};
  f.message = "static message";
  return f;
}
TraceObservation obs(const char *check, unsigned line, std::uint64_t calls,
                     std::uint64_t misuses) {
  TraceObservation o;
  o.check = check;
  o.file = "/src/app.cu";
  o.line = line;
  o.api = "cudaMemcpyAsync";
  o.calls = calls;
  o.misuses = misuses;
  o.hostTimeUs = 12.5;
  o.bytes = 2048;
  return o;
}
} // namespace

TEST(TraceFormat, RoundTrips) {
  ProbeTrace t;
  t.program = "./app";
  t.exitStatus = 3;
  t.droppedCalls = 1;
  t.processes = 2;
  t.observations = {obs("default-stream", 10, 5, 2)};
  t.observations[0].fileGuessed = true;
  ProbeTrace back;
  std::string error;
  ASSERT_TRUE(readTraceJson(writeTraceJson(t), back, error)) << error;
  EXPECT_EQ(back.program, "./app");
  EXPECT_EQ(back.exitStatus, 3);
  EXPECT_EQ(back.processes, 2u);
  ASSERT_EQ(back.observations.size(), 1u);
  EXPECT_EQ(back.observations[0].misuses, 2u);
  EXPECT_TRUE(back.observations[0].fileGuessed);
  EXPECT_DOUBLE_EQ(back.observations[0].hostTimeUs, 12.5);
}

/// Paths and function names from the program's debug info need not be
/// UTF-8 (a Latin-1 file name): written and read back byte for byte, never
/// a throw that would take the launcher down.
TEST(TraceFormat, BytesThatAreNotUtf8RoundTrip) {
  ProbeTrace t;
  t.program = "./donn\xe9" "es";
  t.observations = {obs("device-sync", 4, 1, 1)};
  t.observations[0].file = "/src/donn\xe9" "es.cu";
  t.observations[0].function = "copie_\xff";
  ProbeTrace back;
  std::string error;
  std::string text = writeTraceJson(t);
  ASSERT_TRUE(readTraceJson(text, back, error)) << error;
  EXPECT_EQ(back.program, t.program);
  ASSERT_EQ(back.observations.size(), 1u);
  EXPECT_EQ(back.observations[0].file, t.observations[0].file);
  EXPECT_EQ(back.observations[0].function, t.observations[0].function);
}

TEST(TraceFormat, RejectsOtherJson) {
  ProbeTrace t;
  std::string error;
  EXPECT_FALSE(readTraceJson("{\"findings\": []}", t, error));
  EXPECT_FALSE(readTraceJson("not json", t, error));
  // Found by fuzz_trace: a "format" of another type threw out of the reader.
  EXPECT_FALSE(readTraceJson(R"({"format":0,"version":1,"observations":[]})", t, error));
  EXPECT_FALSE(readTraceJson(R"({"format":["streamlint-trace"],"observations":[]})", t, error));
  // A count that is a float (UB in the JSON library's conversion) or negative.
  EXPECT_FALSE(readTraceJson(R"({"format":"streamlint-trace","version":1,"observations":[)"
                             R"({"check":"x","file":"f","line":1,"calls":1,"misuses":0,"bytes":8.9e101}]})",
                             t, error));
  EXPECT_NE(error.find("bytes"), std::string::npos) << error;
  EXPECT_FALSE(readTraceJson(R"({"format":"streamlint-trace","version":1,"observations":[)"
                             R"({"check":"x","file":"f","line":-3,"calls":1,"misuses":0}]})",
                             t, error));
  EXPECT_FALSE(readTraceJson(R"({"format":"streamlint-trace","version":9,"observations":[]})", t, error));
  EXPECT_FALSE(readTraceJson(R"({"format":"streamlint-trace","version":1,"observations":[{"check":"x"}]})", t, error));
}

TEST(TraceMerge, EachStatus) {
  AnalysisResult r;
  r.findings = {finding("pageable-memcpy-async", 10, 12), // multi-line call
                finding("pageable-memcpy-async", 20, 20),
                finding("default-stream", 30, 30),
                finding("missing-error-check", 10, 10)}; // not a probe check
  ProbeTrace t;
  t.observations = {obs("pageable-memcpy-async", 11, 4, 4), // inside 10..12
                    obs("pageable-memcpy-async", 20, 4, 0),
                    obs("default-stream", 31, 9, 9)};     // other line
  mergeTrace(t, r);
  auto at = [&](const char *check, unsigned line) -> const Finding & {
    for (const Finding &f : r.findings)
      if (f.checkId == check && f.location.line == line)
        return f;
    ADD_FAILURE() << check << ":" << line;
    return r.findings.front();
  };
  const Finding &confirmed = at("pageable-memcpy-async", 10);
  ASSERT_TRUE(confirmed.dynamic);
  EXPECT_EQ(confirmed.dynamic->status, DynamicStatus::Confirmed);
  EXPECT_EQ(confirmed.dynamic->misuses, 4u);
  EXPECT_EQ(confirmed.dynamic->bytes, 2048u);
  EXPECT_NE(confirmed.message.find("4 of 4 copies"), std::string::npos) << confirmed.message;
  EXPECT_EQ(at("pageable-memcpy-async", 20).dynamic->status, DynamicStatus::Refuted);
  EXPECT_EQ(at("pageable-memcpy-async", 20).message, "static message");
  EXPECT_EQ(at("default-stream", 30).dynamic->status, DynamicStatus::NotReached);
  EXPECT_FALSE(at("missing-error-check", 10).dynamic);
  const Finding &runtimeOnly = at("default-stream", 31);
  ASSERT_TRUE(runtimeOnly.dynamic);
  EXPECT_EQ(runtimeOnly.dynamic->status, DynamicStatus::RuntimeOnly);
  EXPECT_EQ(runtimeOnly.severity, Severity::Warning);
  EXPECT_NE(runtimeOnly.message.find("found at run time"), std::string::npos);
  EXPECT_EQ(r.findings.size(), 5u);
  EXPECT_TRUE(std::is_sorted(r.findings.begin(), r.findings.end(), findingLess));
}

TEST(TraceMerge, RefutedObservationsDoNotBecomeFindings) {
  AnalysisResult r;
  ProbeTrace t;
  t.observations = {obs("default-stream", 5, 3, 0), obs("no-such-check", 6, 3, 3)};
  mergeTrace(t, r);
  EXPECT_TRUE(r.findings.empty());
}

TEST(TraceMerge, GuessedFileMatchesByName) {
  AnalysisResult r;
  r.findings = {finding("device-sync", 7, 7)};
  ProbeTrace t;
  t.observations = {obs("device-sync", 7, 2, 2)};
  t.observations[0].file = "/build/app.cu"; // from app.cudafe1.cpp
  t.observations[0].fileGuessed = true;
  mergeTrace(t, r);
  EXPECT_EQ(r.findings[0].dynamic->status, DynamicStatus::Confirmed);
}

TEST(TraceMerge, FileErrorsNameTheFile) {
  AnalysisResult r;
  llvm::Error e = mergeTraceFile("/nonexistent/run.trace", r, {});
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("/nonexistent/run.trace"), std::string::npos);
  std::string bad = ::testing::TempDir() + "/bad.trace";
  std::ofstream(bad) << "{}";
  llvm::Error e2 = mergeTraceFile(bad, r, {});
  ASSERT_TRUE(bool(e2));
  EXPECT_NE(llvm::toString(std::move(e2)).find("bad.trace"), std::string::npos);
}

/// A trace comes from running the code under test: a runtime-only finding
/// it places outside the project is reported, but its file is never read.
TEST(TraceMerge, RuntimeOnlyFindingsOutsideTheProjectAreNeverRead) {
  std::string project = ::testing::TempDir() + "/trace-project";
  llvm::sys::fs::create_directories(project + "/src");
  std::ofstream(project + "/src/app.cu") << "int main() {}\n";
  TraceSources sources{project, {"/elsewhere/listed.cu"}};
  EXPECT_TRUE(sources.allows(project + "/src/app.cu"));
  EXPECT_FALSE(sources.allows("/etc/passwd"));
  EXPECT_FALSE(sources.allows(project + "/../../../../etc/passwd"));
  std::string link = project + "/src/passwd-link";
  llvm::sys::fs::remove(link);
  ASSERT_FALSE(llvm::sys::fs::create_link("/etc/passwd", link));
  EXPECT_FALSE(sources.allows(link)) << "a link out of the project";

  AnalysisResult r;
  ProbeTrace t;
  t.observations = {obs("device-sync", 1, 3, 3), obs("device-sync", 1, 2, 2)};
  t.observations[0].file = "/etc/passwd";
  t.observations[1].file = project + "/src/app.cu";
  mergeTrace(t, r, sources);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.withheldFiles, std::vector<std::string>{"/etc/passwd"});
}

TEST(TraceMerge, DescribesRunCountsInPlainEnglish) {
  struct Case {
    const char *check;
    std::uint64_t calls;
    const char *want;
  } cases[] = {{"device-sync", 1, "confirmed: ran once, blocked the host 12.5 us"},
               {"device-sync", 4, "confirmed: ran 4 times, blocked the host 12.5 us"},
               {"alloc-in-loop", 2, "confirmed: ran 2 times, 12.5 us host time"}};
  for (const Case &c : cases) {
    DynamicEvidence e;
    e.status = DynamicStatus::Confirmed;
    e.calls = c.calls;
    e.misuses = c.calls;
    e.hostTimeUs = 12.5;
    EXPECT_EQ(describeEvidence(c.check, e), c.want);
  }
}

// library-default-stream reports an unbound handle at its creation (line 30)
// with the work it does as related locations (line 32): the probe sees that
// work as stream-ordered calls inside the library at line 32 (cuBLAS's event
// records on the handle's stream, on an H100), which confirm the finding;
// the same site's default-stream observation is not reported again as a
// run-time-only finding. A bound handle's uses (line 38) refute nothing they
// are not related to.
TEST(TraceMerge, LibraryFindingsCollectEvidenceAtTheirRelatedUses) {
  AnalysisResult r;
  Finding handle = finding("library-default-stream", 30, 30);
  handle.related.push_back({{"/src/app.cu", 32, 5}, "does work here (cublasSgemm)"});
  r.findings = {handle};
  ProbeTrace t;
  // The probe writes one observation per site: default-stream's, which
  // judges library-default-stream's findings too.
  t.observations = {obs("default-stream", 32, 4, 4), obs("default-stream", 38, 4, 0),
                    obs("default-stream", 50, 2, 2)};
  for (TraceObservation &o : t.observations)
    o.api = "cudaEventRecord";
  mergeTrace(t, r);
  ASSERT_EQ(r.findings.size(), 2u);
  const Finding &confirmed = r.findings[0];
  EXPECT_EQ(confirmed.checkId, "library-default-stream");
  ASSERT_TRUE(confirmed.dynamic);
  EXPECT_EQ(confirmed.dynamic->status, DynamicStatus::Confirmed);
  EXPECT_EQ(confirmed.dynamic->calls, 4u);
  EXPECT_NE(confirmed.message.find("4 of 4 stream-ordered calls inside the library used the "
                                   "legacy default stream"),
            std::string::npos)
      << confirmed.message;
  // Line 50: no static finding claims it: default-stream reports it once,
  // library-default-stream never adds its own run-time-only finding.
  const Finding &runtimeOnly = r.findings[1];
  EXPECT_EQ(runtimeOnly.checkId, "default-stream");
  EXPECT_EQ(runtimeOnly.location.line, 50u);
  ASSERT_TRUE(runtimeOnly.dynamic);
  EXPECT_EQ(runtimeOnly.dynamic->status, DynamicStatus::RuntimeOnly);
}

TEST(TraceMerge, OtherChecksDoNotMatchRelatedLocations) {
  AnalysisResult r;
  Finding f = finding("default-stream", 10, 10);
  f.related.push_back({{"/src/app.cu", 12, 3}, "stream declared here"});
  r.findings = {f};
  ProbeTrace t;
  t.observations = {obs("default-stream", 12, 3, 3)};
  mergeTrace(t, r);
  ASSERT_TRUE(r.findings[0].dynamic);
  EXPECT_EQ(r.findings[0].dynamic->status, DynamicStatus::NotReached);
}

// Traces written before library-default-stream was judged by default-stream's
// observations carry a copy of each under its own name: ignored, never a
// second run-time-only finding.
TEST(TraceMerge, OldTracesWithLibraryObservationsAddNothing) {
  AnalysisResult r;
  ProbeTrace t;
  t.observations = {obs("default-stream", 50, 2, 2), obs("library-default-stream", 50, 2, 2)};
  mergeTrace(t, r);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].checkId, "default-stream");
}

TEST(Evidence, LibraryFindingsAreJudgedByDefaultStreamObservations) {
  EXPECT_EQ(observationCheckFor("library-default-stream"), "default-stream");
  EXPECT_EQ(observationCheckFor("device-sync"), "device-sync");
  EXPECT_EQ(observationCheckFor("no-such-check"), "no-such-check");
}
