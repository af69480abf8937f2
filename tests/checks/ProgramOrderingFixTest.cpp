// Whole programs (testdata/fixes/programs/<name>/, every .cu file one TU of
// one compile database): the callers in other files decide whether a
// stream-changing fix keeps every happens-before edge (docs/fixes.md, "The
// callers"). A finding's line ending in "// applied" must carry an
// applicable fix, "// not applied: <reason>" one that --fix does not apply
// whose description contains <reason>; each file's applicable edits give its
// <file>.fixed golden (a file without one must be left unchanged). Also the
// ordering facts' JSON form, through the TU summary, round-trips.
#include "TestEnvironment.h"

#include "analyzer/analysis/CalleeLeaves.h"
#include "analyzer/analysis/OrderingSummary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace streamlint::testing {
namespace {
namespace fs = std::filesystem;

struct Marker {
  unsigned line;
  bool applied;
  std::string reason;
};

std::vector<Marker> markersIn(const std::string &path) {
  std::ifstream stream(path);
  std::vector<Marker> markers;
  std::string text;
  for (unsigned line = 1; std::getline(stream, text); ++line) {
    size_t code = text.find_first_not_of(" \t");
    if (code == std::string::npos || text.compare(code, 2, "//") == 0)
      continue;
    size_t notApplied = text.find("// not applied: ");
    if (notApplied != std::string::npos)
      markers.push_back({line, false, text.substr(notApplied + 16)});
    else if (text.size() >= 10 && text.compare(text.size() - 10, 10, "// applied") == 0)
      markers.push_back({line, true, ""});
  }
  return markers;
}

std::string readFile(const std::string &path) {
  std::ifstream stream(path, std::ios::binary);
  std::stringstream text;
  text << stream.rdbuf();
  return text.str();
}

std::string applied(const std::string &file, const std::vector<Finding> &findings) {
  std::string text = readFile(file);
  std::vector<TextEdit> edits;
  for (const Finding &finding : findings)
    for (const FixIt &fix : finding.fixes)
      if (fix.applicable)
        for (const TextEdit &edit : fix.edits)
          if (edit.file == file)
            edits.push_back(edit);
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit &a, const TextEdit &b) { return a.offset > b.offset; });
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const TextEdit &a, const TextEdit &b) {
                            return a.offset == b.offset && a.length == b.length &&
                                   a.replacement == b.replacement;
                          }),
              edits.end());
  for (const TextEdit &edit : edits)
    text.replace(edit.offset, edit.length, edit.replacement);
  return text;
}

std::vector<std::string> programs() {
  std::vector<std::string> found;
  fs::path root = testdataDirectory() + "/fixes/programs";
  if (fs::exists(root))
    for (const auto &entry : fs::directory_iterator(root))
      if (entry.is_directory())
        found.push_back(entry.path().filename().string());
  std::sort(found.begin(), found.end());
  return found;
}

class ProgramOrderingFix : public ::testing::TestWithParam<std::string> {};

TEST_P(ProgramOrderingFix, CallersDecideAndGoldensMatch) {
  fs::path directory = fs::path(testdataDirectory()) / "fixes" / "programs" / GetParam();
  std::vector<std::string> files;
  for (const auto &entry : fs::directory_iterator(directory))
    if (entry.path().extension() == ".cu")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  AnalysisResult result = analyzeForTest(entriesFor(files, {}, CudaEnvironment::Stub),
                                         "-*,default-stream,device-sync", {});
  ASSERT_TRUE(result.problems.empty()) << "input does not compile";
  unsigned markers = 0;
  for (const std::string &file : files) {
    for (const Marker &marker : markersIn(file)) {
      ++markers;
      const FixIt *fix = nullptr;
      for (const Finding &finding : result.findings)
        if (finding.location.file == file && finding.location.line == marker.line &&
            !finding.fixes.empty())
          fix = &finding.fixes.front();
      std::string where = fs::path(file).filename().string() + ":" + std::to_string(marker.line);
      ASSERT_NE(fix, nullptr) << where << ": no finding with a fix";
      EXPECT_EQ(fix->applicable, marker.applied) << where << ": " << fix->description;
      if (!marker.applied)
        EXPECT_NE(fix->description.find(marker.reason), std::string::npos)
            << where << ": expected '" << marker.reason << "' in: " << fix->description;
      else
        EXPECT_NE(fix->description.find("judged with "), std::string::npos)
            << where << ": " << fix->description;
    }
    std::string golden = fs::exists(file + ".fixed") ? readFile(file + ".fixed") : readFile(file);
    EXPECT_EQ(golden, applied(file, result.findings)) << file;
  }
  EXPECT_GT(markers, 0u);
}

INSTANTIATE_TEST_SUITE_P(Testdata, ProgramOrderingFix, ::testing::ValuesIn(programs()),
                         [](const auto &info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(ProgramOrderingFixSuite, HasThePrograms) {
  std::vector<std::string> found = programs();
  for (const char *name : {"callee-on-target", "cross-tu", "outside", "two-calls", "per-thread",
                           "per-thread-refused", "per-thread-no-stream", "per-thread-combined",
                           "blocking-pending", "blocking-pending-device", "nccl-init",
                           "named-streams", "wait-loop", "two-programs",
                           "threads-elsewhere", "threads-reached", "threads-anywhere"})
    EXPECT_NE(std::find(found.begin(), found.end(), name), found.end()) << name;
}

/// A function TUs define at two places is marked whatever order the TUs
/// came in; one defined at one place (an inline function of a header, seen
/// by every TU that includes it) is not.
TEST(OrderingFacts, MarksAFunctionDefinedAtTwoPlacesInAnyOrder) {
  auto function = [](const std::string &usr, const std::string &at) {
    ordering::OrderedFunction f;
    f.usr = usr;
    f.name = usr;
    size_t colon = at.rfind(':');
    f.definedAt = {at.substr(0, colon), unsigned(std::stoul(at.substr(colon + 1))), 0};
    return f;
  };
  auto normalized = [&](std::vector<std::string> places) {
    ordering::OrderingFacts facts;
    for (const std::string &at : places) {
      ordering::OrderingFacts unit;
      unit.functions.push_back(function("c:@F@produce", at));
      unit.functions.push_back(function("c:@F@inlineHelper", "/p/include/helpers.h:7"));
      facts.add(std::move(unit));
    }
    facts.normalize();
    return facts;
  };
  ordering::OrderingFacts one = normalized({"/p/b/produce.cu:9", "/p/a/produce.cu:8"});
  ordering::OrderingFacts other = normalized({"/p/a/produce.cu:8", "/p/b/produce.cu:9"});
  ASSERT_EQ(one.functions.size(), 2u);
  EXPECT_EQ(one.functions[0].usr, "c:@F@inlineHelper");
  EXPECT_EQ(one.functions[0].definedDifferently, "");
  EXPECT_EQ(one.functions[1].definedDifferently, "defined at a/produce.cu:8 and at b/produce.cu:9");
  EXPECT_EQ(other.functions[1].definedDifferently, one.functions[1].definedDifferently);
  EXPECT_EQ(normalized({"/p/a/produce.cu:8", "/p/c/produce.cu:3", "/p/b/produce.cu:9"})
                .functions[1]
                .definedDifferently,
            "defined at a/produce.cu:8 and at b/produce.cu:9 and at 1 more places");
  // The mark survives the summary's JSON form (index entries, shard parts).
  ordering::OrderingFacts back;
  std::string error;
  ASSERT_TRUE(ordering::fromJsonText(ordering::toJsonText(one), back, error)) << error;
  EXPECT_EQ(back.functions[1].definedDifferently, one.functions[1].definedDifferently);
  EXPECT_EQ(back.functions[0].definedAt.file, "/p/include/helpers.h");
  EXPECT_EQ(back.functions[0].definedAt.line, 7u);
}

/// device-sync's narrowed wait relying on default-stream's moves is applied
/// only with default-stream's own fixes of those moves in the same run.
TEST(PerThreadCombined, NeedsDefaultStreamsFixesInTheSameRun) {
  fs::path directory = fs::path(testdataDirectory()) / "fixes" / "programs" / "per-thread-combined";
  std::string legacy = (directory / "legacy.cu").string();
  AnalysisResult result = analyzeForTest(
      entriesFor({legacy, (directory / "main.cu").string()}, {}, CudaEnvironment::Stub),
      "-*,device-sync", {});
  ASSERT_TRUE(result.problems.empty());
  const FixIt *wait = nullptr;
  for (const Finding &finding : result.findings)
    if (finding.location.file == legacy && finding.location.line == 15 && !finding.fixes.empty())
      wait = &finding.fixes.front();
  ASSERT_NE(wait, nullptr);
  EXPECT_FALSE(wait->applicable) << wait->description;
  EXPECT_NE(wait->description.find("not applied by --fix: it relies on default-stream's fix of "
                                   "the cudaMemcpyAsync at line 13 (legacy.cu:13), and "
                                   "default-stream is not enabled in this run"),
            std::string::npos)
      << wait->description;
  // The fix carries the moves' edits itself: --fix-notes applies all or none.
  EXPECT_EQ(wait->edits.size(), 3u);
  ASSERT_EQ(wait->prerequisites.size(), 2u);
  EXPECT_EQ(wait->prerequisites[0].checkId, "default-stream");
  EXPECT_NE(applied(legacy, result.findings)
                .find("    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice); // applied\n"
                      "    twice<<<1, 64>>>(d); // applied\n"
                      "    cudaDeviceSynchronize(); // applied\n"),
            std::string::npos);
}

/// In a per-thread-default-stream build of the caller, its cudaMemcpy to the
/// host is on the per-thread stream, which waits for no created stream: the
/// callee's earlier call counts whole, and the callee's Async copies stay
/// suggestions (the callee's own file is a legacy build).
TEST(BlockingPending, PerThreadBuildOfTheCallerStaysConservative) {
  fs::path directory = fs::path(testdataDirectory()) / "fixes" / "programs" / "blocking-pending";
  std::string generate = (directory / "generate.cu").string();
  std::string main = (directory / "main.cu").string();
  std::vector<CompileEntry> entries = entriesFor({generate, main}, {}, CudaEnvironment::Stub);
  for (CompileEntry &entry : entries)
    if (entry.file == main)
      entry.arguments.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM");
  AnalysisResult result = analyzeForTest(entries, "-*,default-stream,device-sync", {});
  ASSERT_TRUE(result.problems.empty());
  unsigned checked = 0;
  for (const Finding &finding : result.findings)
    if (finding.location.file == generate && finding.checkId == "device-sync" &&
        (finding.location.line == 12 || finding.location.line == 29) && !finding.fixes.empty()) {
      ++checked;
      const FixIt &fix = finding.fixes.front();
      EXPECT_FALSE(fix.applicable) << finding.location.line << ": " << fix.description;
      EXPECT_NE(fix.description.find("(in 'main') follows the cudaMemcpy"), std::string::npos)
          << fix.description;
    }
  EXPECT_EQ(checked, 2u);
}

/// The per-thread target's fix at `line` of a one-file program `source`
/// (built with `runArgs`): its description, "" when there is none.
std::string perThreadFixAt(const std::string &source, unsigned line,
                           const std::vector<std::string> &runArgs, bool &applicable) {
  fs::path directory = fs::temp_directory_path() / ("streamlint-per-thread-" + std::to_string(::getpid()));
  fs::create_directories(directory);
  fs::path file = directory / "main.cu";
  std::ofstream(file) << source;
  AnalysisResult result = analyzeForTest(entriesFor({file.string()}, runArgs, CudaEnvironment::Stub),
                                         "-*,default-stream", {});
  fs::remove_all(directory);
  applicable = false;
  EXPECT_TRUE(result.problems.empty()) << "input does not compile:\n" << source;
  for (const Finding &finding : result.findings)
    if (finding.location.line == line && !finding.fixes.empty()) {
      applicable = finding.fixes.front().applicable;
      return finding.fixes.front().description;
    }
  return "";
}

const char *ProgramWithThreads = R"(#include <cuda_runtime.h>
#include <thread>
__global__ void twice(float *d) { d[0] *= 2.0f; }
void step(float *d) {
  twice<<<1, 64>>>(d);
  cudaDeviceSynchronize();
}
DECL
int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  float sum = 0;
  MARK
  step(d);
  return sum > 0;
}
)";

std::string programWith(const std::string &mark, const std::string &declarations = "") {
  std::string text = ProgramWithThreads;
  text.replace(text.find("MARK"), 4, mark);
  text.replace(text.find("DECL"), 4, declarations);
  return text;
}

TEST(PerThreadTarget, HostThreadsThatMayRunCudaWorkRefuseIt) {
  bool applicable = false;
  // Host arithmetic under OpenMP starts threads that issue no CUDA work.
  std::string arithmetic = perThreadFixAt(
      programWith("#pragma omp parallel for reduction(+ : sum)\n  for (int i = 0; i < 64; ++i) sum += h[i];"),
      5, {"-fopenmp"}, applicable);
  EXPECT_TRUE(applicable) << arithmetic;
  // A parallel loop that calls the function: its threads would each get
  // their own per-thread stream.
  std::string calls = perThreadFixAt(
      programWith("#pragma omp parallel for\n  for (int i = 0; i < 4; ++i) step(d);"), 5,
      {"-fopenmp"}, applicable);
  EXPECT_FALSE(applicable) << calls;
  EXPECT_NE(calls.find("the program starts host threads (an OpenMP directive at main.cu:"),
            std::string::npos) << calls;
  std::string thread = perThreadFixAt(
      programWith("std::thread worker([d] { step(d); });\n  worker.join();"), 5, {}, applicable);
  EXPECT_FALSE(applicable) << thread;
  EXPECT_NE(thread.find("the program starts host threads (std::thread at main.cu:"),
            std::string::npos) << thread;
  // OpenMP's runtime called where this command parses no directive.
  std::string runtime = perThreadFixAt(
      programWith("sum = omp_get_max_threads();", "extern \"C\" int omp_get_max_threads(void);"), 5, {},
      applicable);
  EXPECT_FALSE(applicable) << runtime;
  EXPECT_NE(runtime.find("omp_get_max_threads at main.cu:"), std::string::npos) << runtime;
  // Without any: applied (the same function, the same callers).
  std::string none = perThreadFixAt(programWith(""), 5, {}, applicable);
  EXPECT_TRUE(applicable) << none;
  EXPECT_NE(none.find("pass cudaStreamPerThread"), std::string::npos) << none;
}

/// A TU that stored only a function's identity (OrderingScope.h) adds its
/// openness; the first summary stands, whichever TU came first.
TEST(OrderingFacts, IdentityOnlyEntriesKeepTheSummary) {
  ordering::OrderedFunction identity{"c:@F@lib", "lib", false, "it is exported"};
  identity.summarized = false;
  ordering::OrderedFunction summary{"c:@F@lib", "lib", false, ""};
  summary.first = ordering::NextWaits;
  summary.firstDecides = true;
  summary.onlyParameter = 1;
  for (bool identityFirst : {true, false}) {
    ordering::OrderingFacts facts;
    facts.functions = identityFirst ? std::vector{identity, summary} : std::vector{summary, identity};
    std::string text = ordering::toJsonText(facts);
    ordering::OrderingFacts back;
    std::string error;
    ASSERT_TRUE(ordering::fromJsonText(text, back, error)) << error;
    EXPECT_FALSE(back.functions[identityFirst ? 0 : 1].summarized);
    EXPECT_EQ(text.find("\"summarized\":true"), std::string::npos) << text;
    back.normalize();
    ASSERT_EQ(back.functions.size(), 1u);
    const ordering::OrderedFunction &merged = back.functions[0];
    EXPECT_TRUE(merged.summarized) << identityFirst;
    EXPECT_EQ(merged.first, unsigned(ordering::NextWaits)) << identityFirst;
    EXPECT_TRUE(merged.firstDecides) << identityFirst;
    EXPECT_EQ(merged.onlyParameter, 1) << identityFirst;
    EXPECT_EQ(merged.openBecause, "it is exported") << identityFirst;
  }
}

TEST(OrderingFacts, JsonRoundTrips) {
  ordering::OrderingFacts facts;
  ordering::OrderedCall call;
  call.caller = "c:@F@main";
  call.callerName = "main";
  call.callee = "c:@F@run";
  call.site = {"/p/main.cu", 12, 3};
  call.pendingMove = ordering::LegacyPending;
  call.pendingNarrow = ordering::OtherPending;
  call.pendingReachesEntry = true;
  call.next = ordering::NextLegacyWork;
  call.pendingWhat = "the kernel launch";
  ordering::StreamSource source;
  source.kind = ordering::StreamSource::CallerParameter;
  source.parameter = 1;
  source.spelled = "s";
  call.streams[1] = source;
  facts.calls.push_back(call);
  facts.calls.back().coveredCalls = {"c:@F@generate"};
  facts.calls.back().pendingCalls = {"c:@F@layer"};
  facts.calls.back().pendingCallsOnParameters.push_back({0, 2, 1});
  ordering::OrderedCall::NextOnParameter variant;
  variant.parameter = 1;
  variant.level = ordering::NextWaits;
  variant.reachesReturn = true;
  variant.what = "the cudaMemcpy";
  variant.calls = {"c:@F@layer"};
  variant.callsOnParameter.push_back({0, 2, 1});
  facts.calls.back().nextOnParameters.push_back(variant);
  facts.functions.push_back({"c:@F@run", "run", false, "it is virtual"});
  facts.functions.back().onlyParameterIfCallees = 1;
  facts.functions.back().onlyParameterCalls = {{"c:@F@layer", 2}, {"c:@F@log", -1}};
  facts.functions.back().leavesCoveredCalls.push_back("c:@F@generate");
  facts.functions.back().leavesBlockingOnly = true;
  facts.writes.push_back({"c:@g", source});
  facts.addressTaken.push_back("c:@F@hook");
  ordering::ConditionalFix fix;
  fix.check = "default-stream";
  fix.finding = {"/p/a.cu", 3, 4};
  fix.firstEdit = {"/p/a.cu", 3, 20};
  fix.function = "c:@F@run";
  fix.functionName = "run";
  fix.description = "pass 's'";
  ordering::ConditionalFix::Case one;
  one.blocking = ordering::Blocking::NonBlocking;
  one.safe = 5;
  one.brokenBy.assign(ordering::Levels * ordering::Levels, "why");
  one.waits.push_back(TextEdit{"/p/a.cu", 10, 0, "cudaStreamSynchronize(s);\n", {}, {}, "d"});
  fix.cases.push_back(one);
  fix.onlyParameterAfter = 1;
  fix.onlyParameterAfterCalls = {{"c:@F@layer", 2}};
  facts.fixes.push_back(fix);
  fix.onlyParameterAfter = -1;
  fix.onlyParameterAfterCalls.clear();
  fix.firstEdit.column = 30;
  fix.perThreadTarget = true;
  facts.fixes.push_back(fix);
  facts.streamCreations.push_back("cudaStreamCreate at donn\xe9" "es.cu:12"); // Latin-1
  facts.hostThreads.push_back("pthread_create at main.cu:21");

  std::string text = ordering::toJsonText(facts);
  ordering::OrderingFacts back;
  std::string error;
  ASSERT_TRUE(ordering::fromJsonText(text, back, error)) << error;
  EXPECT_EQ(text, ordering::toJsonText(back));
  ASSERT_EQ(back.calls.size(), 1u);
  EXPECT_EQ(back.calls[0].streams.at(1).parameter, 1);
  EXPECT_EQ(back.calls[0].coveredCalls, std::vector<std::string>{"c:@F@generate"});
  ASSERT_EQ(back.functions.size(), 1u);
  EXPECT_TRUE(back.functions[0].leavesBlockingOnly);
  EXPECT_EQ(back.functions[0].leavesCoveredCalls, std::vector<std::string>{"c:@F@generate"});
  EXPECT_EQ(back.fixes[0].cases[0].blocking, ordering::Blocking::NonBlocking);
  ASSERT_EQ(back.fixes.size(), 2u);
  EXPECT_FALSE(back.fixes[0].perThreadTarget);
  EXPECT_EQ(back.calls[0].pendingCallsOnParameters, facts.calls[0].pendingCallsOnParameters);
  ASSERT_EQ(back.calls[0].nextOnParameters.size(), 1u);
  EXPECT_EQ(back.calls[0].nextOnParameters[0].level, unsigned(ordering::NextWaits));
  EXPECT_TRUE(back.calls[0].nextOnParameters[0].reachesReturn);
  EXPECT_EQ(back.calls[0].nextOnParameters[0].callsOnParameter, variant.callsOnParameter);
  EXPECT_EQ(back.functions[0].onlyParameterIfCallees, 1);
  EXPECT_EQ(back.functions[0].onlyParameterCalls, facts.functions[0].onlyParameterCalls);
  EXPECT_EQ(back.fixes[0].onlyParameterAfter, 1);
  EXPECT_EQ(back.fixes[0].onlyParameterAfterCalls, facts.fixes[0].onlyParameterAfterCalls);
  EXPECT_EQ(back.fixes[1].onlyParameterAfter, -1);
  EXPECT_TRUE(back.fixes[1].perThreadTarget);
  EXPECT_EQ(back.streamCreations, facts.streamCreations);
  EXPECT_EQ(back.hostThreads, facts.hostThreads);

  // A damaged part is an error that says so, not facts made up.
  EXPECT_FALSE(ordering::fromJsonText("{\"calls\": 3}", back, error));
  EXPECT_NE(error.find("malformed ordering facts"), std::string::npos) << error;
}

// Where a function's work is, through the functions it calls: each call
// must put all its work on the parameter it is given, or have none.
TEST(OnlyParameterThroughCalls, FollowsCallsAndFailsSafe) {
  ordering::OrderingFacts facts;
  auto add = [&](const std::string &name, int only, int ifCallees,
                 std::vector<std::pair<std::string, int>> calls) {
    ordering::OrderedFunction f;
    f.usr = "c:@F@" + name;
    f.name = name;
    f.onlyParameter = only;
    f.onlyParameterIfCallees = ifCallees;
    f.onlyParameterCalls = std::move(calls);
    facts.functions.push_back(std::move(f));
  };
  add("launch", 2, -1, {});                               // all on its parameter 2
  add("quiet", ordering::NoDeviceWork, -1, {});           // no device work
  add("layer", -1, 1, {{"c:@F@launch", 2}, {"c:@F@quiet", -1}});
  add("wrong", -1, 1, {{"c:@F@launch", 0}});              // passes it where launch does not work
  add("legacy", -1, 0, {{"c:@F@launch", -1}});            // launch's work on another stream
  add("undefined", -1, 0, {{"c:@F@elsewhere", 0}});       // a callee the program does not define
  add("ping", -1, 0, {{"c:@F@pong", 0}});                 // recursion
  add("pong", -1, 0, {{"c:@F@ping", 0}});
  add("block", -1, 3, {{"c:@F@layer", 1}});               // two levels down
  ordering::FunctionsByUsr all, reliable;
  ordering::functionsByUsr(facts, all, reliable);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@launch"), 2);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@layer"), 1);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@block"), 3);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@wrong"), -1);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@legacy"), -1);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@undefined"), -1);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@ping"), -1);
  EXPECT_TRUE(ordering::allWorkOnParameter(reliable, "c:@F@quiet", -1));
  EXPECT_TRUE(ordering::allWorkOnParameter(reliable, "c:@F@layer", 1));
  EXPECT_FALSE(ordering::allWorkOnParameter(reliable, "c:@F@layer", 0));
  EXPECT_FALSE(ordering::allWorkOnParameter(reliable, "c:@F@layer", -1));

  // A fix being judged changes its own function: with the move applied,
  // 'legacy' puts all its work on parameter 0, and so does 'block2'.
  add("block2", -1, 0, {{"c:@F@legacy", 0}});
  ordering::functionsByUsr(facts, all, reliable);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@block2"), -1);
  ordering::FunctionAfterFix after{"c:@F@legacy", 0, {{"c:@F@launch", -1}}};
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@block2", &after), -1)
      << "launch's work is on a stream 'legacy' does not pass it";
  after.calls = {{"c:@F@launch", 2}};
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@block2", &after), 0);
  EXPECT_EQ(ordering::onlyParameterThroughCalls(reliable, "c:@F@block2"), -1);
}

} // namespace
} // namespace streamlint::testing
