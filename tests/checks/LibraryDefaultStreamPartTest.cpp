// library-default-stream's whole-program part: library handles judged
// across translation units: made-up facts in, findings out; the same
// whatever order TUs arrive in; JSON round trip through the TU summary.
#include "checks/LibraryDefaultStreamPart.h"
#include "analyzer/reach/ReachResolution.h"
#include "analyzer/reach/ReachSummary.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace streamlint {
using namespace reach;
namespace {

const char *const kPart = "library-default-stream";

/// The TU summary's handles, as the part carries them.
const std::vector<HandleFacts> &handlesOf(const TranslationUnitSummary &summary) {
  return static_cast<const LibraryHandleFacts &>(*summary.parts.at(kPart)).handles;
}

SourcePoint at(const std::string &file, unsigned line) { return {file, line, 3}; }

HandleEvent event(HandleEventKind kind, const std::string &file, unsigned line,
                  const std::string &function, const std::string &call) {
  HandleEvent e;
  e.kind = kind;
  e.site = at(file, line);
  e.function = function;
  e.call = call;
  if (kind == HandleEventKind::Create) {
    Finding finding;
    finding.checkId = "library-default-stream";
    finding.severity = Severity::Warning;
    finding.location = e.site;
    finding.message = "handle does work before any stream is bound";
    e.finding = finding;
  }
  return e;
}

HandleEvent pass(const std::string &file, unsigned line, const std::string &function,
                 const std::string &callee, unsigned parameter) {
  HandleEvent e = event(HandleEventKind::Pass, file, line, function, callee);
  e.callee = callee;
  e.parameter = parameter;
  return e;
}

HandleFacts handle(const std::string &key, HandleScope scope,
                   std::vector<HandleEvent> events) {
  HandleFacts facts;
  facts.key = key;
  facts.name = key;
  facts.scope = scope;
  facts.events = std::move(events);
  return facts;
}

std::vector<Finding> resolve(std::vector<std::vector<HandleFacts>> units) {
  std::map<std::string, HandleFacts> program;
  for (std::vector<HandleFacts> &unit : units)
    mergeHandleFacts(program, std::move(unit));
  return resolveHandles(program);
}

using Kind = HandleEventKind;

TEST(HandleFacts, GlobalCreatedInOneTuUsedInAnother) {
  auto init = {handle("g", HandleScope::Shared,
                      {event(Kind::Create, "init.cu", 5, "initAll", "cublasCreate")})};
  auto compute = {handle("g", HandleScope::Shared,
                         {event(Kind::Work, "compute.cu", 9, "gemm", "cublasSgemm")})};
  std::vector<Finding> findings = resolve({init, compute});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].location.file, "init.cu");
  ASSERT_EQ(findings[0].related.size(), 1u);
  EXPECT_EQ(findings[0].related[0].location.file, "compute.cu");
  EXPECT_EQ(findings[0].related[0].message, "cublasSgemm runs on the default stream here");
}

TEST(HandleFacts, BoundInAThirdTuIsQuiet) {
  auto init = {handle("g", HandleScope::Shared,
                      {event(Kind::Create, "init.cu", 5, "initAll", "cublasCreate")})};
  auto compute = {handle("g", HandleScope::Shared,
                         {event(Kind::Work, "compute.cu", 9, "gemm", "cublasSgemm")})};
  auto bind = {handle("g", HandleScope::Shared,
                      {event(Kind::Bind, "stream.cu", 3, "setStream", "cublasSetStream")})};
  EXPECT_TRUE(resolve({init, compute, bind}).empty());
  // Without the binding TU (a named-file run without an index would be
  // like this): reported.
  EXPECT_EQ(resolve({init, compute}).size(), 1u);
}

TEST(HandleFacts, LocalPassedToHelperDefinedElsewhere) {
  auto caller = {handle("f@h", HandleScope::Local,
                        {event(Kind::Create, "a.cu", 4, "f", "cublasCreate"),
                         pass("a.cu", 5, "f", "helper", 0)})};
  auto helper = {handle(parameterHandleKey("helper", 0), HandleScope::Parameter,
                        {event(Kind::Work, "b.cu", 2, "helper", "cublasSaxpy")})};
  std::vector<Finding> findings = resolve({caller, helper});
  ASSERT_EQ(findings.size(), 1u);
  ASSERT_EQ(findings[0].related.size(), 2u);
  EXPECT_EQ(findings[0].related[0].message, "'helper' does work with 'f@h' on the default stream");
  EXPECT_EQ(findings[0].related[1].location.file, "b.cu");
  // The helper's TU missing: it may bind the handle, so nothing is said.
  EXPECT_TRUE(resolve({caller}).empty());
}

TEST(HandleFacts, HelperThatBindsBeforeWorkInTheCreatingFunction) {
  auto caller = {handle("f@h", HandleScope::Local,
                        {event(Kind::Create, "a.cu", 4, "f", "cublasCreate"),
                         pass("a.cu", 5, "f", "bindTo", 0),
                         event(Kind::Work, "a.cu", 6, "f", "cublasSaxpy")})};
  auto binder = {handle(parameterHandleKey("bindTo", 0), HandleScope::Parameter,
                        {event(Kind::Bind, "b.cu", 2, "bindTo", "cublasSetStream")})};
  EXPECT_TRUE(resolve({caller, binder}).empty());
}

TEST(HandleFacts, WorkBeforeTheBindInTheSameFunctionIsReported) {
  auto unit = {handle("f@h", HandleScope::Local,
                      {event(Kind::Create, "a.cu", 4, "f", "cublasCreate"),
                       event(Kind::Work, "a.cu", 5, "f", "cublasSaxpy"),
                       event(Kind::Bind, "a.cu", 6, "f", "cublasSetStream"),
                       event(Kind::Work, "a.cu", 7, "f", "cublasSaxpy")})};
  std::vector<Finding> findings = resolve({unit});
  ASSERT_EQ(findings.size(), 1u);
  ASSERT_EQ(findings[0].related.size(), 1u);
  EXPECT_EQ(findings[0].related[0].location.line, 5u);
}

TEST(HandleFacts, EscapeInAnyTuSilencesTheHandle) {
  auto init = {handle("g", HandleScope::Shared,
                      {event(Kind::Create, "init.cu", 5, "initAll", "cublasCreate"),
                       event(Kind::Work, "init.cu", 6, "initAll", "cublasSgemm")})};
  HandleFacts copied = handle("g", HandleScope::Shared, {});
  copied.escapes = true;
  EXPECT_EQ(resolve({init}).size(), 1u);
  EXPECT_TRUE(resolve({init, {copied}}).empty());
}

TEST(HandleFacts, PassChainsEndAtTheDepthLimitAndCycles) {
  // helper0 -> helper1 -> ... ; work at the end of a long chain is not
  // followed (unknown: quiet), and a cycle terminates.
  std::vector<HandleFacts> unit = {handle("f@h", HandleScope::Local,
                                          {event(Kind::Create, "a.cu", 1, "f", "cublasCreate"),
                                           pass("a.cu", 2, "f", "h0", 0)})};
  for (int i = 0; i < 8; ++i)
    unit.push_back(handle(parameterHandleKey("h" + std::to_string(i), 0),
                          HandleScope::Parameter,
                          {pass("b.cu", 10 + i, "h" + std::to_string(i),
                                "h" + std::to_string(i + 1), 0)}));
  unit.push_back(handle(parameterHandleKey("h8", 0), HandleScope::Parameter,
                        {event(Kind::Work, "b.cu", 30, "h8", "cublasSaxpy")}));
  EXPECT_TRUE(resolve({unit}).empty());
  std::vector<HandleFacts> cycle = {
      handle("f@h", HandleScope::Local,
             {event(Kind::Create, "a.cu", 1, "f", "cublasCreate"), pass("a.cu", 2, "f", "p", 0)}),
      handle(parameterHandleKey("p", 0), HandleScope::Parameter, {pass("b.cu", 3, "p", "q", 0)}),
      handle(parameterHandleKey("q", 0), HandleScope::Parameter, {pass("b.cu", 4, "q", "p", 0)})};
  EXPECT_TRUE(resolve({cycle}).empty());
}

TEST(HandleFacts, SameResultWhateverTheOrderOfTus) {
  std::vector<std::vector<HandleFacts>> units = {
      {handle("g", HandleScope::Shared,
              {event(Kind::Create, "init.cu", 5, "initAll", "cublasCreate")})},
      {handle("g", HandleScope::Shared,
              {event(Kind::Work, "z.cu", 9, "gemm", "cublasSgemm")})},
      {handle("g", HandleScope::Shared,
              {event(Kind::Work, "b.cu", 4, "axpy", "cublasSaxpy"),
               event(Kind::Create, "init.cu", 5, "initAll", "cublasCreate")})}};
  std::vector<Finding> forward = resolve(units);
  std::reverse(units.begin(), units.end());
  std::vector<Finding> backward = resolve(units);
  ASSERT_EQ(forward.size(), 1u); // one creation, seen by two TUs
  ASSERT_EQ(backward.size(), 1u);
  ASSERT_EQ(forward[0].related.size(), 2u);
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(forward[0].related[i].location.file, backward[0].related[i].location.file);
}

TEST(HandleFacts, SummaryJsonRoundTripKeepsHandles) {
  registerPart(libraryDefaultStreamPart());
  TranslationUnitSummary summary;
  summary.mainFile = "/src/a.cu";
  auto facts = std::make_shared<LibraryHandleFacts>();
  facts->handles = {handle("f@h", HandleScope::Local,
                           {event(Kind::Create, "a.cu", 4, "f", "cublasCreate"),
                            pass("a.cu", 5, "f", "helper", 1)}),
                    handle(parameterHandleKey("helper", 1), HandleScope::Parameter,
                           {event(Kind::Work, "a.cu", 9, "helper", "cublasSaxpy")})};
  facts->handles[1].escapes = true;
  summary.parts[kPart] = facts;
  std::string text = toJson(summary);
  TranslationUnitSummary parsed;
  std::string error;
  ASSERT_TRUE(fromJson(text, "a.json", parsed, error)) << error;
  EXPECT_EQ(toJson(parsed), text);
  const std::vector<HandleFacts> &handles = handlesOf(parsed);
  ASSERT_EQ(handles.size(), 2u);
  EXPECT_EQ(handles[0].scope, HandleScope::Local);
  ASSERT_TRUE(handles[0].events[0].finding.has_value());
  EXPECT_EQ(handles[0].events[1].parameter, 1u);
  EXPECT_TRUE(handles[1].escapes);
  // Through the whole-program pass too.
  ProgramSummary program;
  program.add(std::move(parsed));
  EXPECT_TRUE(resolveSites(program).empty()); // helper's parameter escapes
}

TEST(HandleFacts, MalformedHandleFactsNameTheFile) {
  registerPart(libraryDefaultStreamPart());
  std::string text = toJson(TranslationUnitSummary());
  std::string bad = text.substr(0, text.rfind('}')) +
                    R"(, "parts": {"library-default-stream": [{"key": "k", "name": "k",
                       "scope": "sideways", "escapes": false, "events": []}]}})";
  TranslationUnitSummary parsed;
  std::string error;
  EXPECT_FALSE(fromJson(bad, "x.json", parsed, error));
  EXPECT_NE(error.find("x.json"), std::string::npos) << error;
  EXPECT_NE(error.find("sideways"), std::string::npos) << error;
}

} // namespace
} // namespace streamlint
