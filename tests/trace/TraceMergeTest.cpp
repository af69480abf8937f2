#include "checks/CheckEvidence.h"
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
  t.libraryOnlyCalls = 7;
  t.observations = {obs("default-stream", 10, 5, 2)};
  t.observations[0].fileGuessed = true;
  t.observations[0].libraryCall = "ncclGroupEnd";
  t.observations[0].library = "NCCL";
  t.observations[0].callers = {{"/src/app.cu", 40, "main"}};
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
  EXPECT_EQ(back.libraryOnlyCalls, 7u);
  EXPECT_EQ(back.observations[0].libraryCall, "ncclGroupEnd");
  EXPECT_EQ(back.observations[0].library, "NCCL");
  EXPECT_EQ(back.observations[0].callers, t.observations[0].callers);
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

// The check selection (--checks, the nearest config's Checks) decides
// which checks may add run-time-only findings, where the finding lies.
TEST(TraceMerge, RuntimeOnlyFindingsOfDisabledChecksAreNotAdded) {
  ProbeTrace t;
  t.observations = {obs("default-stream", 31, 9, 9), obs("pageable-memcpy-async", 40, 4, 4)};
  TraceSources sources;
  sources.checkEnabled = [](const std::string &check, const std::string &) {
    return check != "default-stream";
  };
  AnalysisResult r;
  mergeTrace(t, r, sources);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].checkId, "pageable-memcpy-async");
  // Unset: every check.
  AnalysisResult all;
  mergeTrace(t, all);
  EXPECT_EQ(all.findings.size(), 2u);
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
/// it places outside the project is never reported there (issue 27: nothing
/// at a path outside the program), and a file it names is never read.
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
  t.observations = {obs("device-sync", 1, 3, 3), obs("device-sync", 1, 2, 2),
                    obs("device-sync", 7, 1, 1)};
  t.observations[0].file = "/etc/passwd";
  t.observations[1].file = project + "/src/app.cu";
  // A trace of another checkout: its file does not exist here. Kept, never read.
  t.observations[2].file = "/other/checkout/src/app.cu";
  mergeTrace(t, r, sources);
  ASSERT_EQ(r.findings.size(), 2u);
  for (const Finding &f : r.findings)
    EXPECT_NE(f.location.file, "/etc/passwd");
  EXPECT_EQ(r.withheldFiles, std::vector<std::string>{"/other/checkout/src/app.cu"});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("3 call(s) made in code outside the project"), std::string::npos)
      << r.notes[0];
}

// A library built with line tables and installed outside the project (NCCL
// from its wheel, seen on two H100s: enqueue.cc:1701 of NVIDIA's build
// machine) gives its observations to the program's first frame inside the
// project, named after the call the program made.
TEST(TraceMerge, ObservationsInsideOutsideCodeMoveToTheProgramsCall) {
  std::string project = ::testing::TempDir() + "/trace-project-move";
  std::string outside = ::testing::TempDir() + "/trace-vendor";
  llvm::sys::fs::create_directories(project);
  llvm::sys::fs::create_directories(outside);
  std::ofstream(project + "/ar.cu") << "int main() {}\n";
  std::ofstream(outside + "/enqueue.cc") << "\n";
  AnalysisResult r;
  Finding legacy = finding("library-default-stream", 23, 23);
  legacy.location.file = legacy.end.file = project + "/ar.cu";
  r.findings = {legacy};
  ProbeTrace t;
  t.observations = {obs("default-stream", 1701, 5, 5), obs("default-stream", 356, 5, 5)};
  for (TraceObservation &o : t.observations) {
    o.file = outside + "/enqueue.cc";
    o.api = "cudaEventRecord";
    o.function = "ncclLaunchPrepare(ncclComm*)";
    o.callers = {{outside + "/group.cc", 90, "ncclGroupEnd()"}, {project + "/ar.cu", 23, "main"}};
  }
  mergeTrace(t, r, TraceSources{project, {}});
  ASSERT_EQ(r.findings.size(), 1u) << "both observations land on line 23, summed";
  const Finding &f = r.findings[0];
  ASSERT_TRUE(f.dynamic);
  EXPECT_EQ(f.dynamic->status, DynamicStatus::Confirmed);
  EXPECT_EQ(f.dynamic->calls, 10u);
  EXPECT_NE(f.dynamic->detail.find("inside ncclGroupEnd"), std::string::npos) << f.dynamic->detail;
  EXPECT_TRUE(r.notes.empty());
}

// cuBLAS's handle created and destroyed per call (seen on an H100 from a
// PyTorch extension): the run-time-only findings name cublasCreate and what
// it did inside, as notes (the program wrote the library call).
TEST(TraceMerge, RuntimeOnlyFindingsInsideALibraryCallNameIt) {
  AnalysisResult r;
  ProbeTrace t;
  t.observations = {obs("alloc-in-loop", 28, 40, 27), obs("device-sync", 31, 40, 40)};
  t.observations[0].api = "cudaMalloc,cudaFree";
  t.observations[0].libraryCall = "cublasCreate";
  t.observations[0].library = "cuBLAS";
  t.observations[1].api = "cudaDeviceSynchronize";
  t.observations[1].libraryCall = "cublasDestroy";
  t.observations[1].library = "cuBLAS";
  mergeTrace(t, r);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].severity, Severity::Note);
  EXPECT_EQ(r.findings[0].message.rfind("cublasCreate (cuBLAS) allocated and freed memory "
                                        "inside it (cudaMalloc,cudaFree): ran 40 times",
                                        0),
            0u)
      << r.findings[0].message;
  EXPECT_EQ(r.findings[1].message.rfind("cublasDestroy (cuBLAS) synchronized the device "
                                        "inside it (cudaDeviceSynchronize): ran 40 times",
                                        0),
            0u)
      << r.findings[1].message;
}

// MPI ranks or CI jobs, each with its own launcher: one merge over all
// their traces, named one by one or by their directory.
TEST(TraceMerge, SeveralTracesMergeAsOneRun) {
  std::string dir = ::testing::TempDir() + "/trace-ranks";
  llvm::sys::fs::remove_directories(dir);
  llvm::sys::fs::create_directories(dir);
  for (int rank = 0; rank < 2; ++rank) {
    ProbeTrace t;
    t.program = "./ar";
    t.processes = 1;
    t.observations = {obs("device-sync", 10, 2, 2)};
    std::ofstream(dir + "/rank" + std::to_string(rank) + ".trace") << writeTraceJson(t);
  }
  std::ofstream(dir + "/notes.txt") << "not a trace";
  AnalysisResult r;
  r.findings = {finding("device-sync", 10, 10)};
  ASSERT_FALSE(bool(mergeTraceFiles({dir}, r, {})));
  ASSERT_TRUE(r.findings[0].dynamic);
  EXPECT_EQ(r.findings[0].dynamic->calls, 4u);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "merged 2 traces: 2 process(es)");

  AnalysisResult named;
  named.findings = {finding("device-sync", 10, 10)};
  ASSERT_FALSE(bool(mergeTraceFiles({dir + "/rank0.trace", dir + "/rank1.trace"}, named, {})));
  EXPECT_EQ(named.findings[0].dynamic->calls, 4u);

  std::string empty = dir + "/empty";
  llvm::sys::fs::create_directories(empty);
  llvm::Error error = mergeTraceFiles({empty}, r, {});
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("no *.trace file"), std::string::npos);
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

// One summing of evidence counts: observations of one line (launcher,
// several traces) and a finding's evidence add up the same four counts.
TEST(EvidenceCounts, AccumulateAddsEveryCount) {
  TraceObservation a, b;
  a.calls = 3; a.misuses = 1; a.hostTimeUs = 1.5; a.bytes = 10;
  b.calls = 4; b.misuses = 2; b.hostTimeUs = 2.0; b.bytes = 5;
  accumulate(a, b);
  EXPECT_EQ(a.calls, 7u);
  EXPECT_EQ(a.misuses, 3u);
  EXPECT_DOUBLE_EQ(a.hostTimeUs, 3.5);
  EXPECT_EQ(a.bytes, 15u);
  DynamicEvidence e;
  accumulate(e, a);
  accumulate(e, b);
  EXPECT_EQ(e.calls, 11u);
  EXPECT_EQ(e.misuses, 5u);
  EXPECT_DOUBLE_EQ(e.hostTimeUs, 5.5);
  EXPECT_EQ(e.bytes, 20u);
  TraceObservation c = b;
  c.check = "default-stream";
  addObservationCounts(c, b); // the launcher's and combineTraces' path
  EXPECT_EQ(c.calls, 8u);
  EXPECT_EQ(c.bytes, 10u);
}
